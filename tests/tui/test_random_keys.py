"""Long random key sequences (and terminal resizes) never crash the app, and its game stays
a valid game, saved on disk as it stands.

Hypothesis drives the real app with Textual's pilot: any key of the game (and of its
dialogs, the score screen and the setup screen), stray letters, sensible moves so that
games get played to their end, and terminals from far too small to large. After every
step the invariants are checked; the bots (greedy, no pause) are waited for, so that an
example replays the same way every time.
"""

from __future__ import annotations

import asyncio
import random
import string
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, event, given, note, settings
from hypothesis import strategies as st
from textual.pilot import Pilot

from coloretto.engine import ActionKind
from coloretto.engine.record import load_record, to_record
from coloretto.play.keeper import Keeper
from coloretto.play.saving import read_session
from coloretto.play.session import Session
from coloretto.store.history import history_path
from coloretto.store.paths import DataDir
from coloretto.store.saves import latest_save, save_path
from coloretto.tui import ColorettoApp, GameConfig
from coloretto.tui.base_app import MIN_HEIGHT, MIN_WIDTH
from coloretto.tui.screens import EndScreen, GameScreen, SetupScreen, TooSmallScreen, dialogs
from coloretto.tui.screens import game as game_module
from coloretto.tui.screens import setup as setup_screen_module

from .conftest import asynctest, key_for, make_config, text_of

TINY_PACES = (0.0, 0.001, 0.002, 0.003, 0.004, 0.005, 0.006)
"""``+``/``-`` step through these instead of up to 2.5 s, so that the bots stay quick."""

GAME_KEYS = (
    *"d123456hlmrqyn?+-=bs",
    *("escape", "enter", "tab", "shift+tab", "up", "down", "left", "right", "space"),
    *("home", "end", "pageup", "pagedown", "backspace", "delete"),
)
STRAY_KEYS = string.ascii_letters + string.digits + string.punctuation

Step = tuple[str, object]

key_steps = st.one_of(st.sampled_from(GAME_KEYS), st.sampled_from(STRAY_KEYS)).map(
    lambda key: ("key", key)
)
size_steps = st.one_of(
    st.sampled_from([(80, 24), (100, 30), (132, 43), (81, 25), (200, 60)]),  # big enough
    st.sampled_from([(79, 24), (80, 23), (40, 12), (1, 1), (200, 5)]),  # too small
    st.tuples(st.integers(1, 200), st.integers(1, 60)),
).map(lambda size: ("resize", size))
move_steps = st.just(("move", None))
steps = st.lists(
    st.one_of(*[key_steps] * 4, *[move_steps] * 3, size_steps),
    min_size=15,
    max_size=50,
)
"""Half keys, three eighths sensible moves, one eighth new terminal sizes."""

games = st.one_of(
    st.fixed_dictionaries(
        {
            "players": st.integers(3, 5),
            "scoring": st.sampled_from(["brown", "gray"]),
            "edition": st.sampled_from(["classic", "anniversary"]),
        }
    ),
    st.fixed_dictionaries(
        {"players": st.just(2), "variant": st.sampled_from(["standard", "four-rows", "ghost"])}
    ),
)


def head_start(config: GameConfig, actions: int, seed: int) -> Session:
    """The session after up to ``actions`` random legal actions played by the engine (never
    past the end of the match), so that examples also start late in a game, or in the
    second game of a match, as a resumed game does."""
    session = Session(config)
    rng = random.Random(seed)
    for _ in range(actions):
        after = session.match.apply(rng.choice(session.game.legal_actions()))
        if not after.game.is_over:
            session.match = after
        elif after.is_over:
            break
        else:
            session.match = after.next_game()
    return session


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots quick at every pace."""
    monkeypatch.setattr(game_module, "PACES", TINY_PACES)
    monkeypatch.setattr(setup_screen_module, "PACES", TINY_PACES)


# ---------------------------------------------------------------------- waiting


def top_game_screen(app: ColorettoApp) -> GameScreen | None:
    for screen in reversed(app.screen_stack):
        if isinstance(screen, GameScreen):
            return screen
    return None


async def drain(app: ColorettoApp) -> None:
    """Wait until the app and every screen on the stack (not only the top one, as the
    pilot does) have handled the messages waiting for them now."""
    done = []
    for node in (app, *app.screen_stack):
        handled = asyncio.Event()
        if node.call_later(handled.set):
            done.append(handled.wait())
    if done:
        await asyncio.wait_for(asyncio.gather(*done), timeout=30)


async def quiesce(app: ColorettoApp, timeout: float = 60.0) -> None:
    """Wait until the bots have played up to a person's turn (or the end), every message
    handled: what the next key meets then depends on the keys so far only."""
    deadline = time.monotonic() + timeout
    settled = 0
    while settled < 3:  # three rounds of messages in a row with no bot thinking
        if app.return_code is not None:
            return
        await drain(app)
        screen = top_game_screen(app)
        if screen is not None and screen.busy:
            settled = 0
            assert time.monotonic() < deadline, "the bots did not come back to a person"
            await asyncio.sleep(0.001)
        else:
            if screen is not None and screen.view.game.is_over and screen.delay and not settled:
                await asyncio.sleep(3 * screen.delay)  # the pause before the score screen
            settled += 1


# ---------------------------------------------------------------------- the invariants


def check(app: ColorettoApp, data: DataDir) -> None:
    """The app runs, its game is valid and saved, the notice shows iff the terminal is small."""
    assert app.is_running  # an error in the app would have ended it
    session = app.session
    assert session is not None
    match = session.match
    game = session.game
    rules = game.rules
    assert len(match.results) == match.game_number - 1 < rules.games

    # The game is a valid game: its record replays to the same position.
    assert load_record(to_record(game, session.seat_names)).state == game
    legal = game.legal_actions()
    if game.is_over:
        assert not legal
    else:
        assert 0 <= game.current_player < rules.seats
        assert legal
        if game.drawn_card is not None:
            assert all(a.kind is ActionKind.PLACE for a in legal)

    # The save on disk is the game as it stands (until the match is over: then it is gone).
    path = save_path(data, session.id)
    if match.is_over:
        assert not path.exists()
        assert history_path(data, session.id, match.game_number, match.rules.games).exists()
    else:
        saved = read_session(path)
        assert saved.game == game
        assert saved.match.results == match.results
        assert saved.seat_names == session.seat_names
        if not any(isinstance(s, SetupScreen) for s in app.screen_stack):
            assert latest_save(data) == path  # the game to resume is this one

    # The "please enlarge" notice covers the table exactly while the terminal is too small.
    width, height = app.size
    small = width < MIN_WIDTH or height < MIN_HEIGHT
    notices = [s for s in app.screen_stack if isinstance(s, TooSmallScreen)]
    assert len(notices) == small
    if small:
        assert app.screen is notices[0]
        text = text_of(app.screen.query_one("#too-small"))
        assert f"(it is {width}x{height} now)" in text
    else:
        assert not isinstance(app.screen, TooSmallScreen)


async def act(pilot: Pilot[None], step: Step) -> None:
    kind, value = step
    app = pilot.app
    if kind == "resize":
        assert isinstance(value, tuple)
        await pilot.resize_terminal(*value)
    elif kind == "key":
        assert isinstance(value, str)
        await pilot.press(value)
    else:  # a sensible move: a game gets played to its end and beyond
        screen = app.screen
        if isinstance(screen, GameScreen):
            game = screen.view.game
            if not game.is_over and not screen.busy:
                await pilot.press(key_for(game))
            elif game.is_over:
                await pilot.press("enter")
        elif isinstance(screen, EndScreen):
            await pilot.press("n" if screen.view.has_next_game else "r")
        elif isinstance(screen, dialogs.ConfirmRematch):
            await pilot.press("y")
        elif not isinstance(screen, SetupScreen | TooSmallScreen):
            await pilot.press("escape")  # close a dialog


# ---------------------------------------------------------------------- the property


@settings(
    max_examples=20,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    rules=games,
    humans=st.integers(1, 2),  # (bots alone play whole games: too slow for many examples)
    match_games=st.integers(1, 2),
    seed=st.integers(0, 2**31 - 1),
    actions=st.one_of(st.integers(0, 350), st.just(1000)),  # 1000: one action from the end
    script=steps,
    ctrl_c=st.booleans(),
)
@asynctest
async def test_random_keys_never_crash_the_app(
    quick: None,
    *,
    rules: dict[str, object],
    humans: int,
    match_games: int,
    seed: int,
    actions: int,
    script: list[Step],
    ctrl_c: bool,
) -> None:
    config = make_config(humans=humans, seed=seed, games=match_games, **rules)
    config = replace(config, level="easy")  # the setup screen offers greedy bots too
    with tempfile.TemporaryDirectory() as folder:
        data = DataDir(Path(folder))
        app = ColorettoApp(session=head_start(config, actions, seed), keeper=Keeper(data))
        async with app.run_test(size=(80, 24)) as pilot:
            await quiesce(app)
            check(app, data)
            for number, step in enumerate(script):
                note(f"step {number}: {step}")
                await act(pilot, step)
                await quiesce(app)
                if app.return_code is not None:  # quit: q y, q on the end screen, Esc on setup
                    event("quit")
                    break
                check(app, data)
                event(f"saw {type(app.screen).__name__}")
                if app.session is not None and app.session.game.is_over:
                    event("saw a game end")
                if app.session is not None and app.session.match.game_number > 1:
                    event("saw a second game")
            else:
                if ctrl_c:
                    await pilot.press("ctrl+c")
                    await pilot.pause()
                    assert app.return_code is not None
            session = app.session
            assert session is not None
            if app.return_code is not None and not session.match.is_over:
                # Quitting leaves the save from which the game resumes where it stood.
                assert read_session(save_path(data, session.id)).game == session.game
        assert app.return_code in (None, 0)  # 1 after an error in the app


@asynctest
async def test_a_tiny_terminal_shows_the_notice_and_recovers(quick: None) -> None:
    """The plain case: too small, still too small, enlarged, and the game goes on."""
    with tempfile.TemporaryDirectory() as folder:
        data = DataDir(Path(folder))
        app = ColorettoApp(make_config(3, seed=4), keeper=Keeper(data))
        async with app.run_test(size=(80, 24)) as pilot:
            await quiesce(app)
            check(app, data)
            for size in ((79, 24), (30, 8), (80, 23), (120, 40)):
                await pilot.resize_terminal(*size)
                await quiesce(app)
                check(app, data)
            await pilot.resize_terminal(40, 10)
            await pilot.press("d")  # the notice is on top: the key does nothing
            await quiesce(app)
            check(app, data)
            assert app.session is not None
            assert not app.session.game.history()
            await pilot.resize_terminal(80, 24)
            await pilot.press("d")
            await quiesce(app)
            check(app, data)
            assert app.session.game.drawn_card is not None
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert app.return_code is not None
        assert read_session(save_path(data, app.session.id)).game == app.session.game
