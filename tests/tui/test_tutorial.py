"""The tutorial on the screen: played through with the real keys, a wrong key refused with a
hint, leaving it, the first screen's offer, and a snapshot of one step at 80x24."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widget import Widget

from coloretto.cli.main import main
from coloretto.engine import DRAW, Action
from coloretto.play.keeper import Keeper
from coloretto.play.saving import first_run, session_record
from coloretto.play.session import Session
from coloretto.play.tutorial import EVERYONE, STEPS, Lesson, Part, Spot, summary
from coloretto.store.paths import DataDir
from coloretto.store.saves import save
from coloretto.tui import ColorettoApp
from coloretto.tui.screens import GameScreen, SetupScreen
from coloretto.tui.screens.dialogs import ConfirmQuit, HelpScreen, RulesScreen
from coloretto.tui.screens.setup import OFFER
from coloretto.tui.screens.tutorial import REAL_GAME, TutorialScreen
from coloretto.tui.tutorial_app import TutorialApp
from coloretto.tui.widgets import KeysBar, MoveLog, Notice
from coloretto.tui.widgets.bubble import Bubble, BubbleTail

from .conftest import SIZE, asynctest, make_config, text_of
from .frames import first_frame, record_frames

SnapCompare = Callable[..., bool]


def key_for(expect: Action | None) -> str:
    """The key that answers a step asking for ``expect``."""
    if expect is None:
        return "enter"
    return "d" if expect == DRAW else str((expect.row or 0) + 1)


def tutorial(pilot: Pilot[None]) -> TutorialScreen:
    screen = pilot.app.screen
    assert isinstance(screen, TutorialScreen), pilot.app.screen_stack
    return screen


async def play_to_step(pilot: Pilot[None], number: int) -> TutorialScreen:
    """Answer every step before step ``number`` (from 0) with its key."""
    await pilot.pause()
    screen = tutorial(pilot)
    while not screen.lesson.finished and screen.lesson.number < number:
        assert screen.lesson.waiting, "the others' moves are played at once in the tests"
        await pilot.press(key_for(screen.lesson.step.expect))
    await pilot.pause()
    return screen


def quick() -> TutorialApp:
    """``coloretto tutorial`` with the others' moves played at once."""
    return TutorialApp(pace=0, fast_pace=0)


@asynctest
async def test_the_whole_tutorial_played_with_the_keys_ends_with_the_engines_scores() -> None:
    app = quick()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = tutorial(pilot)
        bubble = screen.query_one(Bubble)
        for number, step in enumerate(STEPS):
            assert screen.lesson.number == number
            assert bubble.display
            assert bubble.border_title == f"{number + 1}/{len(STEPS)}"
            assert step.text(screen.lesson.game).split()[0] in text_of(bubble)
            await pilot.press(key_for(step.expect))
        await pilot.pause()
        game = screen.lesson.game
        assert screen.lesson.finished
        assert game.is_over
        assert game == Lesson.start().finish().game
        shown = " ".join(text_of(bubble).split())
        assert summary(game) in shown
        for name, total in zip(("You", "Ana", "Ben"), game.final_scores(), strict=True):
            assert f"{name} {total}" in shown
        assert "n a real game against easy bots" in shown
        await pilot.press("n")
        await pilot.pause()
        game_screen = pilot.app.screen
        assert isinstance(game_screen, GameScreen)
        assert game_screen.view.config == REAL_GAME
        assert [p.bot for p in REAL_GAME.players] == [None, "easy", "easy"]
        assert [type(s) for s in pilot.app.screen_stack[1:]] == [GameScreen]


@asynctest
async def test_a_wrong_key_changes_nothing_and_says_what_to_press() -> None:
    app = quick()
    async with app.run_test(size=SIZE) as pilot:
        screen = await play_to_step(pilot, 2)
        assert screen.lesson.step.expect == DRAW
        before = screen.lesson
        notice = screen.query_one(Notice)
        await pilot.press("2")
        assert screen.lesson is before
        assert "Row 2 is empty: press d to draw a card first." in text_of(notice)
        await pilot.press("enter")
        assert "Press d to draw a card first." in text_of(notice)
        await pilot.press("x")
        assert "x does nothing here: press d to draw a card." in text_of(notice)
        assert screen.lesson is before
        await pilot.press("d")
        assert screen.lesson.game.drawn_card is not None
        await pilot.press("3")  # the script puts this card on row 1
        assert "press 1 to put the card on row 1" in text_of(notice)
        assert screen.lesson.game.drawn_card is not None


@asynctest
async def test_the_bubble_points_at_the_row_it_is_about() -> None:
    app = quick()
    async with app.run_test(size=SIZE) as pilot:
        screen = await play_to_step(pilot, 3)  # put the card on row 1
        row = screen.query_one("#row-1").region
        bubble = screen.query_one(Bubble).region
        tail, mark = screen.query(BubbleTail)
        assert bubble.y == row.bottom  # under the row, on the empty table
        assert bubble.right <= screen.query_one("#rows").region.right
        assert tail.region.y == bubble.y
        assert row.x <= tail.region.x < row.right  # pointing up at the row
        assert mark.region.y == row.y + (row.height - 1) // 2
        assert mark.region.right == row.x  # just left of the row's number
        assert not bubble.overlaps(screen.query_one("#drawn").region)
        assert not bubble.overlaps(screen.query_one("#seats").region)


@pytest.mark.parametrize("size", [SIZE, (100, 30), (120, 40)], ids=str)
@asynctest
async def test_every_bubble_is_on_the_screen_beside_what_it_is_about(
    size: tuple[int, int],
) -> None:
    app = quick()
    async with app.run_test(size=size) as pilot:
        screen = await play_to_step(pilot, 0)
        width, height = size
        while True:
            await pilot.pause()
            lesson = screen.lesson
            bubble = screen.query_one(Bubble).region
            where = f"step {lesson.number + 1} at {size}"
            assert bubble.x >= 0, where
            assert bubble.right <= width, where
            assert bubble.bottom <= height - 1, where  # the footer stays in sight
            spot = None if lesson.finished else lesson.step.spot
            if spot is None or spot.part is Part.SEAT:
                target = screen.query_one(f"#seat-{1 if spot is None else spot.index + 1}")
            elif spot.part is Part.ROW:
                target = screen.query_one(f"#row-{spot.index + 1}")
                assert not bubble.overlaps(screen.query_one("#drawn").region), where
            elif spot.part is Part.DECK:
                target = screen.query_one("#drawn")
            elif spot.part is Part.TOP:
                target = screen.query_one("#top")
            else:
                target = screen.query_one("#rows")
            if spot is None or spot.part is not Part.TABLE:
                assert not bubble.overlaps(target.region), where
                tail = screen.query_one("#tail", BubbleTail).region
                assert tail.x in (bubble.x, bubble.right - 1) or tail.y == bubble.y, where
            # Never over the top bar, the turn line or a card on the table.
            for kept in ("#top", "#turn", "#notice"):
                assert not bubble.overlaps(screen.query_one(kept).region), (where, kept)
            for row, cards in enumerate(lesson.game.rows):
                if cards:
                    assert not bubble.overlaps(screen.query_one(f"#row-{row + 1}").region), where
            if spot is not None and spot.part in (Part.TOP, Part.ROW, Part.DECK):
                assert not bubble.overlaps(screen.query_one("#drawn").region), where
            if spot is not None and (spot.part is Part.TOP or lesson.game.last_round):
                # Steps 12-16 ("watch the top bar", the last round): the players in sight.
                assert not bubble.overlaps(screen.query_one("#seats").region), where
            if lesson.finished:
                break
            await pilot.press(key_for(lesson.step.expect))


def talked_about(spot: Spot) -> str:
    """The widget a step's words talk about (its spot, or a part it names)."""
    if spot.part is Part.ROW:
        return f"#row-{spot.index + 1}"
    if spot.part is Part.SEAT:
        return f"#seat-{spot.index + 1}"
    return {Part.TABLE: "#rows", Part.DECK: "#drawn", Part.TOP: "#top"}[spot.part]


@pytest.mark.parametrize("size", [SIZE, (100, 30), (120, 40)], ids=str)
@asynctest
async def test_no_bubble_covers_what_its_step_talks_about(size: tuple[int, int]) -> None:
    """The row, the deck, the top bar, the players a step's words are about stay in sight
    (steps 5, 6, 7 and 11 were over the players, step 8 over the empty rows)."""
    app = quick()
    async with app.run_test(size=size) as pilot:
        screen = await play_to_step(pilot, 0)
        while True:
            await pilot.pause()
            lesson = screen.lesson
            bubble = screen.query_one(Bubble).region
            step = None if lesson.finished else lesson.step
            about = EVERYONE if step is None else (step.spot, *step.about)
            for spot in about:
                widget = screen.query_one(talked_about(spot))
                assert not bubble.overlaps(widget.region), (
                    f"step {lesson.number + 1} at {size} covers {widget.id}"
                )
            if step is None:
                break
            await pilot.press(key_for(step.expect))


def words(widget: Widget) -> str:
    """What a widget says, on one line."""
    return " ".join(text_of(widget).split())


@asynctest
async def test_the_keys_remapped_as_the_games_are_named_in_the_words() -> None:
    app = quick()
    async with app.run_test(size=SIZE) as pilot:
        pilot.app.set_keymap({"tutorial-go-on": "g", "draw": "x", "row-1": "a"})
        screen = await play_to_step(pilot, 0)
        bubble, turn, notice = screen.query_one(Bubble), screen.query_one("#turn"), screen.notice
        assert "g: go on" in words(bubble)
        assert "press g to go on" in words(turn)
        await pilot.press("g", "g")
        assert "Press x to draw the top card of the deck." in words(bubble)
        assert "press x to draw a card" in words(turn)
        await pilot.press("d")  # the game's own key, bound to nothing here now
        assert "d does nothing here: press x to draw a card." in words(notice)
        await pilot.press("2")  # a row's key, not the answer: why
        assert "Row 2 is empty: press x to draw a card first." in words(notice)
        assert screen.lesson.game.drawn_card is None
        await pilot.press("x")
        assert screen.lesson.game.drawn_card is not None
        assert "Put it on row 1: press a." in words(bubble)
        await pilot.press("1")
        assert "press a to put the card on row 1" in words(notice)
        await pilot.press("a")
        assert screen.lesson.game.rows[0]


@asynctest
async def test_the_keys_bar_changes_in_the_same_frame_as_the_step() -> None:
    app = quick()
    frames = record_frames(app)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_step(pilot, 1)
        seen = len(frames)
        await pilot.press("enter")  # step 3 asks for d: Enter no longer goes on
        await pilot.pause()
        shown = first_frame(frames, "Step 3 of", seen)
        assert "d Draw" in shown
        assert "Enter Go on" not in shown


@asynctest
async def test_the_keys_bar_offers_only_the_row_the_step_accepts() -> None:
    app = quick()
    async with app.run_test(size=SIZE) as pilot:
        screen = await play_to_step(pilot, 0)
        keys = screen.query_one(KeysBar)
        while not screen.lesson.finished:
            await pilot.pause()
            expect = screen.lesson.step.expect
            shown = [key for key, _, _ in keys.keys]
            rows = [str(n) for n in range(1, 4)]
            if expect is not None and expect.row is not None:
                assert str(expect.row + 1) in shown, (screen.lesson.number + 1, shown)
                assert not any("\N{EN DASH}" in key for key in shown)
            else:
                assert not set(rows) & set(shown)
            await pilot.press(key_for(expect))
    app = quick()
    async with app.run_test(size=SIZE) as pilot:
        pilot.app.set_keymap({"row-1": "a"})
        screen = await play_to_step(pilot, 3)  # put the card on row 1: a, as remapped
        assert "a" in [key for key, _, _ in screen.query_one(KeysBar).keys]


@asynctest
async def test_the_move_log_tells_the_last_round_card_before_the_card_drawn() -> None:
    app = quick()
    async with app.run_test(size=SIZE) as pilot:
        screen = await play_to_step(pilot, 13)  # the Last Round card came up
        (entry,) = [e.plain for e in screen.query_one(MoveLog).entries if "Last Round" in e.plain]
        assert entry.index("The Last Round card came up") < entry.index("You drew yellow")
        assert "yellow." in text_of(screen.query_one(MoveLog))  # the end of it in sight


@asynctest
async def test_the_keys_and_the_rules_open_over_the_tutorial_and_close_back_to_it() -> None:
    app = quick()
    async with app.run_test(size=SIZE) as pilot:
        screen = await play_to_step(pilot, 2)
        await pilot.press("question_mark")
        assert isinstance(pilot.app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.press("r")
        assert isinstance(pilot.app.screen, RulesScreen)
        await pilot.press("r")
        assert tutorial(pilot) is screen
        assert screen.lesson.number == 2


@asynctest
async def test_leaving_asks_first() -> None:
    app = quick()
    async with app.run_test(size=SIZE) as pilot:
        await play_to_step(pilot, 2)
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, ConfirmQuit)
        await pilot.press("n")
        tutorial(pilot)
        await pilot.press("q")
        assert isinstance(pilot.app.screen, ConfirmQuit)
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code == 0


@asynctest
async def test_the_first_screen_offers_the_tutorial_until_a_game_is_played(
    data_home: Path,
) -> None:
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        setup = pilot.app.screen
        assert isinstance(setup, SetupScreen)
        assert text_of(setup.query_one("#setup-tutorial")).strip() == OFFER
        await pilot.press("t")
        await pilot.pause()
        tutorial(pilot)
        await pilot.press("q", "y")  # leaving goes back to the first screen
        await pilot.pause()
        assert pilot.app.screen is setup
    session = Session(make_config(3))
    session.apply(DRAW)
    save(DataDir(data_home), session.id, session_record(session))
    app = ColorettoApp()
    async with app.run_test(size=SIZE) as pilot:
        assert not pilot.app.screen.query("#setup-tutorial")
        await pilot.press("t")  # the tutorial's key still works
        await pilot.pause()
        tutorial(pilot)


def test_a_finished_game_in_the_history_ends_the_offer(data_home: Path) -> None:
    data = DataDir(data_home)
    assert first_run(data)
    session = Session(make_config(3, humans=0))
    while not session.game.is_over:
        session.apply(session.game.legal_actions()[-1])
    keeper = Keeper(data)
    assert keeper.finish(session) is None
    keeper.release()
    assert not first_run(data)


@asynctest
async def test_without_colour_the_tutorial_plays_through(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = quick()
    async with app.run_test(size=SIZE) as pilot:
        screen = await play_to_step(pilot, len(STEPS))
        assert pilot.app.no_color
        assert screen.lesson.finished
        assert "You win!" in text_of(screen.query_one(Bubble))


async def step_four(pilot: Pilot[None]) -> None:
    await play_to_step(pilot, 3)
    pilot.app.screen.refresh(layout=True)
    await pilot.pause()
    await pilot.pause()


def test_a_step_at_80x24(snap_compare: SnapCompare) -> None:
    """Step 4: the drawn card, row 1 marked, and the bubble beside the table."""
    assert snap_compare(quick(), terminal_size=SIZE, run_before=step_four)


def test_coloretto_tutorial_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["tutorial"])
    assert exit_.value.code == 2
    assert "needs a terminal" in capsys.readouterr().err


@pytest.mark.usefixtures("terminal")
def test_coloretto_tutorial_runs_the_tutorial_app(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[TutorialApp] = []

    def run(app: TutorialApp) -> None:
        ran.append(app)

    monkeypatch.setattr(TutorialApp, "run", run)
    assert main(["tutorial"]) == 0
    assert len(ran) == 1


@asynctest
async def test_the_first_game_played_here_offers_the_tutorial(data_home: Path) -> None:
    app = ColorettoApp(make_config(3, humans=1, seed=2))  # coloretto play, never played here
    frames = record_frames(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "New to Coloretto? coloretto tutorial" in first_frame(frames, "New to")
    again = ColorettoApp(make_config(3, humans=1, seed=3))  # the first game is kept: not new
    frames = record_frames(again)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "Press ? for the keys" in first_frame(frames, "Press ?")
        assert not any("New to" in frame for frame in frames)
