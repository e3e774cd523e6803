"""``coloretto replay``: a recorded game stepped through on the table, and the history list."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from coloretto.cli.main import main
from coloretto.engine import GameState, Rules, load_record, new_game, to_record
from coloretto.play.config import GameConfig, Player
from coloretto.play.replay import Replay
from coloretto.play.saving import session_record
from coloretto.play.session import Session
from coloretto.play.table_view import row_takers
from coloretto.play.words import describe_move
from coloretto.store.paths import HOME_VARIABLE
from coloretto.store.records import write_record
from coloretto.tui.glyphs import GLYPHS
from coloretto.tui.replay_app import ReplayApp
from coloretto.tui.screens.dialogs import TooSmallScreen
from coloretto.tui.screens.end import EndScreen
from coloretto.tui.screens.replay import ReplayEndScreen, ReplayScreen
from coloretto.tui.widgets import MoveLog, Notice, RowView, SeatView, TopBar, TurnBar

from .conftest import SIZE, asynctest, text_of

SnapCompare = Callable[..., bool]
NAMES = ("Ana", "Ben", "Cy", "Dee")


def random_game(
    seed: int, players: int = 4, actions: int | None = None, **rules: object
) -> GameState:
    """A game played with random legal actions (to the end, or ``actions`` long)."""
    rng = random.Random(seed)
    game = new_game(Rules(players=players, **rules), seed=seed)  # type: ignore[arg-type]
    while not game.is_over and (actions is None or len(game.history()) < actions):
        game = game.apply(rng.choice(game.legal_actions()))
    return game


def replay_of(game: GameState, seats: Sequence[str] = NAMES, name: str = "game.json") -> Replay:
    return Replay.from_record(load_record(to_record(game, seats[: game.rules.seats])), name)


def screen_of(pilot: Pilot[None]) -> ReplayScreen:
    for screen in reversed(pilot.app.screen_stack):
        if isinstance(screen, ReplayScreen):
            return screen
    raise AssertionError(f"no replay screen in {pilot.app.screen_stack}")


def rows_shown(screen: ReplayScreen) -> list[str]:
    """Each row as shown without colour: ``"taken by Ana"`` or its card letters."""
    shown = []
    for view in screen.query(RowView):
        text = text_of(view)
        taken = re.search(r"taken by (\S+)", text)
        shown.append(f"taken by {taken[1]}" if taken else " ".join(re.findall(r"\[(\S+?)\]", text)))
    return shown


def rows_expected(replay: Replay, step: int) -> list[str]:
    """The same, from the engine's position after ``step`` actions."""
    game = replay.view(step).game
    takers = row_takers(game)
    return [
        f"taken by {replay.seats[takers[r]]}"
        if r in takers
        else " ".join(GLYPHS[card].letter for card in cards)
        for r, cards in enumerate(game.rows)
    ]


def check_board(screen: ReplayScreen, step: int) -> None:
    """The table shows the engine's position after ``step`` actions."""
    replay = screen.replay
    game = replay.states[step]
    assert screen.step == step
    assert screen.view.game is game
    assert rows_shown(screen) == rows_expected(replay, step)
    drawn = text_of(screen.query_one("#drawn", Static))
    assert drawn.startswith("Deck") == (game.drawn_card is None)
    assert "d draws" not in drawn  # the keys step through the replay
    for view in screen.query(SeatView):
        head = text_of(view).splitlines()[0]
        assert replay.seats[view.seat] in head
        assert re.search(rf"\b{game.scores()[view.seat]} pts?\b", head), head
    assert f"Round {game.round}" in text_of(screen.query_one(TopBar))
    notice = text_of(screen.query_one(Notice))
    log = [entry.plain for entry in screen.query_one(MoveLog).entries]
    if step:
        move = replay.move(step)
        assert move is not None
        before = replay.states[step - 1]
        assert f"Move {step} of {replay.last} · Round {before.round}" in notice
        lines = describe_move(move, before, game, replay.seats)
        assert log[-1] == f"R{before.round} {lines[-1].plain}"
    else:
        assert "The deal" in notice
        assert len(log) == 1
        assert log[0].startswith("Replay of game.json: 4 players, brown side")


@asynctest
async def test_the_arrow_keys_step_through_the_game_as_it_was_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    replay = replay_of(random_game(3))
    async with ReplayApp(replay).run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        check_board(screen, 0)
        for step in range(1, 40):
            await pilot.press("right")
            check_board(screen, step)
        for step in range(38, 29, -1):
            await pilot.press("left")
            check_board(screen, step)
        assert len(screen.query_one(MoveLog).entries) == screen._shown[30]


@asynctest
async def test_home_end_and_the_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    replay = replay_of(random_game(5))
    states = replay.states
    starts = [i for i in range(1, len(states)) if states[i].round != states[i - 1].round]
    assert len(starts) >= 3
    async with ReplayApp(replay).run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        notice = screen.query_one(Notice)
        # The edges: a gentle message, nothing moves.
        await pilot.press("left")
        assert screen.step == 0
        assert "This is the deal" in text_of(notice)
        await pilot.press("left_square_bracket")
        assert screen.step == 0
        assert "start of round 1" in text_of(notice)
        await pilot.press("home")
        assert "already the deal" in text_of(notice)
        # Rounds forward: ] and PageDown, each to the first action's position of a round.
        await pilot.press("right_square_bracket")
        check_board(screen, starts[0])
        assert states[starts[0]].round == 2
        await pilot.press("pagedown")
        check_board(screen, starts[1])
        await pilot.press("right", "right")
        # [ goes back to this round's start, then to the one before.
        await pilot.press("left_square_bracket")
        check_board(screen, starts[1])
        await pilot.press("pageup")
        check_board(screen, starts[0])
        await pilot.press("pageup")
        check_board(screen, 0)
        # End, and past it.
        await pilot.press("end")
        check_board(screen, replay.last)
        assert states[replay.last].is_over
        await pilot.press("right")
        assert screen.step == replay.last
        assert "That was the last action" in text_of(notice)
        await pilot.press("end")
        assert screen.step == replay.last
        await pilot.press("right_square_bracket")
        assert screen.step == replay.last
        assert "is the last round" in text_of(notice)
        turn = text_of(screen.query_one(TurnBar))
        scores = states[-1].final_scores()
        assert "Final scores" in turn
        for name, score in zip(NAMES, scores, strict=True):
            assert f"{name} {score}" in turn
        await pilot.press("home")
        check_board(screen, 0)
        await pilot.press("x")
        assert "x does nothing in a replay" in text_of(notice)
        await pilot.press("question_mark")
        assert "Home End" in text_of(notice)


@asynctest
async def test_the_score_cards_at_the_end_and_quitting() -> None:
    replay = replay_of(random_game(8))
    app = ReplayApp(replay)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        assert "The scores come at the end" in text_of(screen_of(pilot).query_one(Notice))
        await pilot.press("end", "enter")
        await pilot.pause()
        end = app.screen
        assert isinstance(end, ReplayEndScreen)
        assert isinstance(end, EndScreen)
        headline = text_of(end.query_one("#headline"))
        best = max(replay.states[-1].final_scores())
        assert f"with {best} points" in headline
        await pilot.press("r")  # no rematch in a replay
        assert app.screen is end
        assert "r does nothing here: b back to the replay · q quit" in text_of(
            end.query_one(Notice)
        )
        await pilot.press("b")
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("m")
        await pilot.pause()
        assert not isinstance(app.screen, ReplayScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, ReplayScreen)
        assert app.return_code is None
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0


@asynctest
async def test_an_unfinished_game_replays_up_to_where_it_stands() -> None:
    game = random_game(4, players=3, actions=25)
    assert not game.is_over
    replay = replay_of(game)
    assert replay.last == 25
    assert replay.states[-1].rows == game.rows
    async with ReplayApp(replay).run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        await pilot.press("end")
        assert screen.step == 25
        assert "the record ends here" in text_of(screen.query_one(TurnBar))
        await pilot.press("right")
        assert "the game was not finished" in text_of(screen.query_one(Notice))
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, ReplayScreen)


@asynctest
async def test_a_too_small_terminal_shows_a_notice_in_the_replay_too() -> None:
    replay = replay_of(random_game(4, players=3, actions=25))
    app = ReplayApp(replay)
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.press("right")  # nothing moves under the notice
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert screen_of(pilot).step == 0


def test_a_game_of_a_match_or_with_any_names_replays_on_its_own() -> None:
    game = random_game(2, players=3, games=3)
    # The arena names seats after bots: too long, or twice the same, for the game's setup.
    seats = ("search:iterations=200", "greedy", "greedy")
    replay = replay_of(game, seats)
    assert replay.seats == seats
    assert replay.view(0).seat_names == seats
    assert replay.config.rules == Rules(players=3)
    assert all(state.rules.games == 1 for state in replay.states)
    assert replay.states[-1].final_scores() == game.final_scores()
    ghost = replay_of(
        random_game(6, players=2, variant="ghost"), ("Ana", "Ben", "Ana's ghost", "Ben's ghost")
    )
    assert ghost.view(ghost.last).seat_names[2] == "Ana's ghost"
    assert [p.name for p in ghost.config.players] == ["Ana", "Ben"]


# ---------------------------------------------------------------------- the command line


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty data directory."""
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, terminal: None) -> list[ReplayApp]:
    """The apps ``coloretto replay`` runs (not run here)."""
    apps: list[ReplayApp] = []

    def run(app: ReplayApp) -> None:
        apps.append(app)

    monkeypatch.setattr(ReplayApp, "run", run)
    return apps


def keep(home: Path, name: str, game: GameState, age: int, names: Sequence[str] = NAMES) -> Path:
    """A finished game in the history, ``age`` minutes old."""
    history = home / "history"
    history.mkdir(parents=True, exist_ok=True)
    path = history / name
    write_record(path, game, names[: game.rules.seats])
    when = 1_800_000_000 - 60 * age
    os.utime(path, (when, when))
    return path


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("coloretto replay: error: ")
    return lines[0]


def test_replay_opens_the_game_finished_last(home: Path, started: list[ReplayApp]) -> None:
    keep(home, "old.json", random_game(1, players=3), age=10)
    newest = keep(home, "new.json", random_game(2), age=1)
    keep(home, "older.json", random_game(3), age=20)
    assert main(["replay"]) == 0
    (app,) = started
    assert app.replay.name == "new.json"
    assert app.replay.seats == NAMES
    assert app.replay.states[-1].rows == load_record(to_record(random_game(2))).state.rows
    assert newest.exists()


@asynctest
async def test_the_files_passed_over_are_named_on_the_replay_screen_too(
    home: Path, started: list[ReplayApp], capsys: pytest.CaptureFixture[str]
) -> None:
    keep(home, "new.json", random_game(2), age=10)
    broken = home / "history" / "zzz.json"
    broken.write_text("[\n")
    os.utime(broken, (1_800_000_000, 1_800_000_000))  # newer than the game
    assert main(["replay"]) == 0
    assert "coloretto replay: skipped zzz.json in the history" in capsys.readouterr().err
    (app,) = started
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        notice = text_of(screen.query_one(Notice))
        assert "The deal" in notice  # where the replay stands, then the note
        assert "Skipped zzz.json in the history (not a finished game that can be read;" in notice
        assert "coloretto replay --list says why" in notice
        await pilot.press("right")
        assert "Skipped" not in text_of(screen.query_one(Notice))  # said once, at the start


def test_replay_file_opens_that_record_and_leaves_it_alone(
    tmp_path: Path, home: Path, started: list[ReplayApp]
) -> None:
    path = tmp_path / "mine.json"
    write_record(path, random_game(7, players=5, actions=30), ("A", "B", "C", "D", "E"))
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    assert main(["replay", str(path)]) == 0
    (app,) = started
    assert app.replay.last == 30
    assert app.replay.seats == ("A", "B", "C", "D", "E")
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


BAD_FILES: dict[str, tuple[bytes | None, str]] = {
    "missing.json": (None, "no such file"),
    "folder": (b"", "is a directory"),
    "empty.json": (b"", "not valid JSON"),
    "binary.json": (b"\xff\xfe\x00garbage", "not a text file"),
    "list.json": (b"[1, 2]", "the record: expected an object"),
    "other.json": (b'{"format": "pgn"}', "format: expected 'coloretto-record/1'"),
}


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_a_bad_file_is_one_line_and_status_2(
    tmp_path: Path,
    home: Path,
    started: list[ReplayApp],
    capsys: pytest.CaptureFixture[str],
    name: str,
) -> None:
    content, needle = BAD_FILES[name]
    path = tmp_path / name
    if name == "folder":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    assert main(["replay", str(path)]) == 2
    line = one_error_line(capsys)
    assert str(path) in line
    assert needle in line
    assert not started
    if content and name != "folder":
        assert path.read_bytes() == content


def test_an_inconsistent_record_says_where(
    tmp_path: Path, home: Path, started: list[ReplayApp], capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cheat.json"
    write_record(path, random_game(9, players=3), NAMES[:3])
    text = path.read_text().replace('"action": "take', '"action": "draw', 1)
    path.write_text(text)
    mtime = path.stat().st_mtime_ns
    assert main(["replay", str(path)]) == 2
    line = one_error_line(capsys)
    assert f"{path}: not a valid game record: actions[" in line
    assert not started
    assert path.read_text() == text
    assert path.stat().st_mtime_ns == mtime


def test_an_empty_history_is_one_line_and_status_2(
    home: Path, started: list[ReplayApp], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay"]) == 2
    assert "no finished games in" in one_error_line(capsys)
    (home / "history").mkdir(parents=True)
    (home / "history" / "notes.txt").write_text("not a record")
    assert main(["replay"]) == 2
    assert str(home / "history") in one_error_line(capsys)
    assert not started


def test_listing_an_empty_history_is_no_error(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--list"]) == 0  # as coloretto stats: nothing to list yet
    out, err = capsys.readouterr()
    assert err == ""
    assert out.startswith("No finished games yet — play one with `coloretto play`.\n")
    (home / "history").mkdir(parents=True)
    (home / "history" / "notes.txt").write_text("not a record")
    assert main(["replay", "--list"]) == 0
    out, err = capsys.readouterr()
    assert "No finished games yet" in out
    assert str(home / "history") in out


def test_file_and_list_together_are_refused(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", "--list", "x.json"])
    assert exit_info.value.code == 2
    assert "either FILE or --list" in capsys.readouterr().err


def test_help_explains_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", "--help"])
    assert exit_info.value.code in (0, None)
    out = capsys.readouterr().out
    for needle in ("FILE", "--list", "Right / Left", "Home / End", "PageDown", "Enter", "quit"):
        assert needle in out, needle


def test_list_shows_the_history_newest_first(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    first = random_game(11, players=3)
    second = random_game(12)
    keep(home, "first.json", first, age=30)
    keep(home, "second.json", second, age=5)
    keep(home, "unfinished.json", random_game(13, players=2, actions=12), age=50)
    broken = home / "history" / "broken.json"
    broken.write_text('{"format": "coloretto-record/1"}')
    os.utime(broken, (1_700_000_000, 1_700_000_000))
    assert main(["replay", "--list"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    names = ("second.json", "first.json", "unfinished.json", "broken.json")
    order = [out.index(name) for name in names]
    assert order == sorted(order)
    for name, game in (("first.json", first), ("second.json", second)):
        assert listed(out, name) == expected(game, NAMES)
    assert "unfinished" in out
    assert "unreadable" in out


# ---------------------------------------------------------------------- how it looks


async def round_three_drawn(pilot: Pilot[None]) -> None:
    """Two rounds on, then the first draw of round 3: rows, collections and a drawn card."""
    await pilot.pause()
    await pilot.press("right_square_bracket", "right_square_bracket", "right")
    await pilot.pause()


def test_replay_screen_snapshot(snap_compare: SnapCompare) -> None:
    app = ReplayApp(replay_of(random_game(1), name="20261121-070503-ab12cd.json"))
    assert snap_compare(app, terminal_size=SIZE, run_before=round_three_drawn)


def listed(listing: str, file: str) -> dict[str, tuple[int, bool]]:
    """The players the list shows for ``file``, each with their score and whether they won:
    a player a line."""
    lines = listing.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(file))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    header = next(line for line in lines if line.startswith("File"))
    players, scores, result = (header.index(column) for column in ("Players", "Scores", "Result"))
    return {
        line[players:scores].strip(): (int(line[scores:result]), line[result:].strip() == "won")
        for line in lines[start:end]
    }


def expected(game: GameState, names: Sequence[str]) -> dict[str, tuple[int, bool]]:
    outcome = game.outcome()
    assert outcome is not None
    return {
        name: (score, seat in outcome.winners)
        for seat, (name, score) in enumerate(zip(names, game.final_scores(), strict=False))
    }


@pytest.mark.parametrize("columns", ["80", ""])  # "": not a terminal (a file), 80 wide
def test_the_list_fits_80_columns(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, columns: str
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    names = ("Ana", "Benedetta", "Bot 1", "Bot 2", "Christophe")
    games = {
        "20261121-070503-ab12cd.json": random_game(12),
        "20261125-015032-e1546a-game10.json": random_game(14, players=5),
    }
    for age, (file, game) in enumerate(games.items()):
        keep(home, file, game, age=5 + age, names=names)
    assert main(["replay", "--list"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    header = next(line for line in lines if "File" in line)
    assert header.split() == ["File", "Date", "Players", "Scores", "Result"]
    for file, game in games.items():  # each score on its player's line, the names whole
        seats = names[: game.rules.seats]
        assert listed(out, file) == expected(game, seats)


def test_a_name_from_the_list_replays_that_game(
    home: Path,
    started: list[ReplayApp],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    keep(home, "older.json", random_game(11, players=3), age=30)
    keep(home, "newer.json", random_game(12), age=5)
    assert main(["replay", "--list"]) == 0
    listed = capsys.readouterr().out
    assert "older.json" in listed
    assert "coloretto replay FILE replays one" in listed
    monkeypatch.chdir(tmp_path)  # anywhere but the history
    assert main(["replay", "older.json"]) == 0
    (app,) = started
    assert app.replay.states[0].rules.players == 3


# ---------------------------------------------------------------------- whole at 80x24


def shown(widget: Static) -> str:
    """What ``widget`` shows on the screen, its lines joined (what does not fit is lost)."""
    lines = (
        "".join(segment.text for segment in widget.render_line(y))
        for y in range(widget.size.height)
    )
    return " ".join(" ".join(lines).split())


@asynctest
async def test_the_final_scores_show_whole_at_80x24() -> None:
    names = ("Annabelle-Marie", "Bartholomew Jr.", "Constantinople", "Dorothea-Louisa", "Ebenezer")
    replay = replay_of(random_game(3, players=5), names)
    async with ReplayApp(replay).run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        await pilot.press("end")
        await pilot.pause()
        bar = screen.query_one(TurnBar)
        assert shown(bar).startswith("▶ Final scores: Annabelle-Marie ")
        assert shown(bar).endswith("· Enter: the score cards")
        await pilot.press("left")  # back to one line: the board takes the room again
        await pilot.pause()
        assert bar.size.height == 1


@asynctest
async def test_enter_at_the_end_of_an_unfinished_game_says_it_was_not_finished() -> None:
    game = random_game(4, players=3, actions=25)
    async with ReplayApp(replay_of(game)).run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        await pilot.press("enter")  # not at the end yet
        assert "The scores come at the end of the game: End jumps there." in text_of(
            screen.query_one(Notice)
        )
        await pilot.press("end", "enter")
        said = text_of(screen.query_one(Notice))
        assert "End jumps there" not in said
        assert "the game was not finished, so no scores" in said


@asynctest
async def test_an_unfinished_game_keeps_its_seed_secret() -> None:
    for game, seed in ((random_game(4, players=3, actions=25), None), (random_game(4), "4")):
        async with ReplayApp(replay_of(game)).run_test(size=SIZE) as pilot:
            await pilot.pause()
            deal = screen_of(pilot).query_one(MoveLog).entries[0].plain
            if seed is None:
                assert deal.endswith("seed secret (the game was not finished).")
            else:
                assert deal.endswith(f"seed {seed}.")


def session_game(games: int = 1) -> tuple[Session, Replay]:
    """A game against bots at their levels, played to its end, and its replay."""
    config = GameConfig.build(Rules(players=3, games=games), humans=1, bot="normal", seed=9)
    session = Session(replace(config, players=(*config.players[:2], Player("Bot 2", "easy"))))
    rng = random.Random(9)
    while not session.game.is_over:
        session.apply(rng.choice(session.game.legal_actions()))
    return session, Replay.from_record(session_record(session), "game.json")


@asynctest
async def test_bots_show_their_levels_as_in_the_game() -> None:
    session, replay = session_game()
    assert [p.bot for p in replay.config.players] == [None, "normal", "easy"]
    async with ReplayApp(replay).run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        seats = [text_of(view) for view in screen.query(SeatView)]
        assert "Bot 1 (normal)" in seats[1]
        assert "Bot 2 (easy)" in seats[2]
        assert not any("thinking" in seat for seat in seats)  # nobody thinks in a replay
        deal = screen.query_one(MoveLog).entries[0].plain
        assert deal.endswith(f"seed {session.seed}.")


def test_a_game_of_a_match_with_games_to_come_keeps_the_seed_secret() -> None:
    _, replay = session_game(games=2)
    assert replay.shown_seed == "secret (its match had games to come, dealt from it)"
    assert replay.view(replay.last).shown_seed == replay.shown_seed
