"""The practice screen: a reviewed game's mistakes as puzzles on the table, answered with
the game's keys (``d``, ``1``-``5``), a second try, the answer (``a``), the next puzzle
(``n``), leaving (Esc); opened from the review (``t``) and by ``coloretto practice``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot

from coloretto.engine import ActionKind
from coloretto.play.keeper import Keeper
from coloretto.play.practice import Puzzle, puzzles
from coloretto.play.replay import Replay
from coloretto.play.review import Review, positions, review_of, with_review
from coloretto.store.paths import DataDir
from coloretto.store.practice import keep_result, read_results
from coloretto.tui import ColorettoApp
from coloretto.tui.practice_app import PracticeApp
from coloretto.tui.screens.practice import PracticeScreen
from coloretto.tui.screens.review import ReviewScreen
from coloretto.tui.widgets import KeysBar, MoveLog, Notice, TurnBar
from tests.test_practice import DRAW, PLACE, TAKE, decision_of, puzzle_of

from .conftest import SIZE, asynctest, text_of
from .review_fixtures import reviewed_record
from .test_review_chart import SnapCompare, opened


def practice_app(home: Path, seed: int = 8) -> PracticeApp:
    """``coloretto practice`` of the fixture's reviewed game, its results kept in ``home``."""
    record = reviewed_record(seed)
    data = DataDir(home)
    found = puzzles(record, "game.json")
    replay = Replay.from_record(record, "game.json")
    return PracticeApp(replay, found, lambda r: keep_result(data, r), Keeper(data))


def key_of(puzzle: Puzzle, best: bool = True) -> str:
    """The key that plays the puzzle's best move (``best``), else a legal move that does
    not solve it."""
    if best:
        action = puzzle.best
    else:
        action = next(a for a in puzzle.state.legal_actions() if not puzzle.solves(a))
    return "d" if action.kind is ActionKind.DRAW else str((action.row or 0) + 1)


def shown(pilot: Pilot[None]) -> PracticeScreen:
    screen = pilot.app.screen
    assert isinstance(screen, PracticeScreen)
    return screen


@asynctest
async def test_a_puzzle_solved_at_the_first_try_is_kept(tmp_path: Path) -> None:
    app = practice_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = shown(pilot)
        puzzle = screen.puzzles[0]
        notice = text_of(screen.query_one(Notice))
        assert f"Puzzle 1 of {len(screen.puzzles)}" in notice
        name = screen.replay.seats[puzzle.seat]  # a hotseat game: people by name
        assert f"{puzzle.where()}: in the game {name} chose to" in " ".join(notice.split())
        assert f"{name}'s move" in text_of(screen.query_one(TurnBar))
        offered = [k[2] for k in screen.query_one(KeysBar).keys]
        assert offered[-3:] == ["Answer", "Next", "Leave"]
        assert "Row" in offered or "Draw" in offered
        log = [line.plain for line in screen.query_one(MoveLog).entries]
        assert len(log) >= puzzle.decision.ply  # every move before the decision
        await pilot.press(key_of(puzzle))
        await pilot.pause()
        told = " ".join(text_of(screen.query_one(Notice)).split())
        assert "Solved at the first try!" in told
        assert "Best: " in told
        assert "(your answer): chance to win" in told
        assert f"Why: {' '.join(puzzle.why().split())}"[:60] in told
        assert "this move" not in told
        assert "final margin" not in told
        assert [k[2] for k in screen.query_one(KeysBar).keys] == ["Next", "Leave"]
    results = read_results(DataDir(tmp_path)).results
    assert [(r.ply, r.outcome, r.grade) for r in results] == [
        (puzzle.decision.ply, "first", puzzle.grade.value)
    ]


@asynctest
async def test_a_wrong_answer_gets_a_second_try(tmp_path: Path) -> None:
    app = practice_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = shown(pilot)
        puzzle = screen.puzzles[0]
        await pilot.press(key_of(puzzle, best=False))
        await pilot.pause()
        told = " ".join(text_of(screen.query_one(Notice)).split())
        assert "is not the best move here: chance to win" in told
        assert "; against the best: " in told
        assert told.endswith("A second try (a shows the answer).")
        assert read_results(DataDir(tmp_path)).results == ()
        await pilot.press(key_of(puzzle))
        await pilot.pause()
        assert "Solved at the second try." in text_of(screen.query_one(Notice))
        await pilot.press("n")  # the next puzzle: missed twice
        await pilot.pause()
        second = screen.puzzles[1]
        assert "Puzzle 2 of" in text_of(screen.query_one(Notice))
        await pilot.press(key_of(second, best=False), key_of(second, best=False))
        await pilot.pause()
        told = " ".join(text_of(screen.query_one(Notice)).split())
        assert "Not solved this time." in told
        assert "Your answer (" in told
        await pilot.press("n", "a")  # the third: the answer at once
        await pilot.pause()
        assert "Not solved this time." in text_of(screen.query_one(Notice))
    outcomes = [r.outcome for r in read_results(DataDir(tmp_path)).results]
    assert outcomes == ["second", "missed", "missed"]


@asynctest
async def test_keys_that_do_nothing_say_so_and_the_last_puzzle_ends(tmp_path: Path) -> None:
    app = practice_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = shown(pilot)
        await pilot.press("x")
        await pilot.pause()
        assert "x does nothing here" in text_of(screen.query_one(Notice))
        legal_rows = {a.row for a in screen.puzzles[0].state.legal_actions()}
        unplayable = next(n for n in range(1, 6) if n - 1 not in legal_rows)
        await pilot.press(str(unplayable))
        await pilot.pause()
        assert "is not a move here" in text_of(screen.query_one(Notice))
        placing = next(p for p in screen.puzzles if p.state.drawn_card is not None)
        screen.index = screen.puzzles.index(placing) - 1
        await pilot.press("n", "d")  # a card to place: drawing is no answer
        await pilot.pause()
        assert "Drawing is not a move here: put the card on a row" in " ".join(
            text_of(screen.query_one(Notice)).split()
        )
        await pilot.press("a", "1")
        await pilot.pause()
        assert "1 does nothing here: n: the next puzzle, Esc leaves" in text_of(
            screen.query_one(Notice)
        )
        screen.index = len(screen.puzzles) - 2
        await pilot.press("n")  # the last puzzle
        await pilot.pause()
        assert f"Puzzle {len(screen.puzzles)} of" in text_of(screen.query_one(Notice))
        await pilot.press("a", "n")
        await pilot.pause()
        skipped = len(screen.puzzles) - 2  # the puzzles jumped over
        said = f"That was the last puzzle: 0 of the 2 tried solved (0 at the first try), {skipped}"
        assert f"{said} skipped. Esc leaves." in " ".join(text_of(screen.query_one(Notice)).split())
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code == 0
    assert [r.outcome for r in read_results(DataDir(tmp_path)).results] == ["missed", "missed"]


@asynctest
async def test_a_result_not_kept_is_said(tmp_path: Path) -> None:
    record = reviewed_record()
    found = puzzles(record, "game.json")
    replay = Replay.from_record(record, "game.json")
    app = PracticeApp(
        replay, found, lambda r: "the result was not kept: disk full", Keeper(DataDir(tmp_path))
    )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        assert "the result was not kept: disk full" in text_of(shown(pilot).query_one(Notice))


@asynctest
async def test_practice_opens_from_the_review_and_goes_back_to_it(tmp_path: Path) -> None:
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        review = await opened(pilot, reviewed_record(), tmp_path)
        assert ("t", "t", "Practice mistakes") in review.query_one(KeysBar).keys
        await pilot.press("t")
        await pilot.pause()
        screen = shown(pilot)
        assert len(screen.puzzles) == len(puzzles(reviewed_record(), "g"))
        await pilot.press(key_of(screen.puzzles[0]))
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is review
    assert len(read_results(DataDir(tmp_path)).results) == 1


def one_puzzle_app(home: Path, puzzle: Puzzle) -> PracticeApp:
    """Practice of the one made-up ``puzzle`` (on the fixture's game of ``puzzle_of``)."""
    data = DataDir(home)
    replay = Replay.from_record(reviewed_record(8, 3), "g.json")
    return PracticeApp(replay, [puzzle], lambda r: keep_result(data, r), Keeper(data))


@asynctest
async def test_a_wrong_try_is_told_its_worth_and_the_answer_what_each_move_was_worth(
    tmp_path: Path,
) -> None:
    values = {DRAW: (0.50, 1.0), TAKE: (0.20, -3.0), PLACE: (0.30, -2.0)}
    puzzle = puzzle_of(decision_of(PLACE, values, paired=0.01, points=0.5))
    async with one_puzzle_app(tmp_path, puzzle).run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = shown(pilot)
        await pilot.press("2")  # the game's move again
        await pilot.pause()
        told = " ".join(text_of(screen.query_one(Notice)).split())
        assert told == (
            "! Taking row 2, the move played in the game, is not the best move here: chance "
            "to win 30% (± 2%); on average you end 2.0 (± 0.5) points behind the best of the "
            "others; against the best: -3.0 ± 0.5 points of lead over the best rival, -20 ± "
            "1% chance to win. A second try (a shows the answer)."
        )
        await pilot.press("1")  # wrong again: missed
        await pilot.pause()
        told = " ".join(text_of(screen.query_one(Notice)).split())
        assert told.startswith(
            "Not solved this time. Best: draw a card: chance to win 50% (± 2%); on average "
            "you end 1.0 (± 0.5) points ahead of the best of the others. Your answer (take "
            "row 1): chance to win 20% (± 2%); on average you end 3.0 (± 0.5) points behind "
            "the best of the others; against the best: -4.0 ± 0.5 points of lead over the best "
            "rival, -30 ± 1% chance to win. Why: "
        )
        assert told.endswith(
            "; the game's move (take row 2): -3.0 ± 0.5 points of lead over the best rival, "
            "-20 ± 1% chance to win."
        )
        assert "this move" not in told
        assert "final margin" not in told


@asynctest
async def test_an_answer_about_as_good_as_the_best_solves_it_and_is_said_so(
    tmp_path: Path,
) -> None:
    values = {DRAW: (0.50, 0.0), TAKE: (0.48, 0.0), PLACE: (0.30, 0.0)}
    puzzle = puzzle_of(decision_of(PLACE, values, paired=0.02))
    async with one_puzzle_app(tmp_path, puzzle).run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        told = " ".join(text_of(shown(pilot).query_one(Notice)).split())
        assert told.startswith("Solved at the first try! Best: draw a card: chance to win 50%")
        assert (
            "Your answer (take row 1): chance to win 48% (± 2%); on average you end level "
            "with the best of the others (± 0.5 points); about as good as the best, within "
            "twice the error (against the best: 0.0 ± 0.5 points of lead over the best rival, -2 ± "
            "2% chance to win)."
        ) in told
    assert [r.outcome for r in read_results(DataDir(tmp_path)).results] == ["first"]


def test_no_practice_key_in_a_review_without_mistakes(tmp_path: Path) -> None:
    record = reviewed_record()
    review = review_of(record, positions(record))
    assert review is not None
    alike = {  # every move valued as the one played: all best
        ply: replace(d, estimates=dict.fromkeys(d.estimates, d.estimates[d.played]))
        for ply, d in review.decisions.items()
    }
    clean = with_review(record, Review(review.bot, review.seed, alike))
    assert not ReviewScreen(clean, None, DataDir(tmp_path)).check_action("practice", ())
    assert ReviewScreen(record, None, DataDir(tmp_path)).check_action("practice", ())


@pytest.mark.parametrize("keys", [(), ("a",)], ids=["asked", "answered"])
def test_practice_snapshot(
    snap_compare: SnapCompare, tmp_path: Path, keys: tuple[str, ...]
) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.press(*keys)
        await pilot.pause()

    assert snap_compare(practice_app(tmp_path), terminal_size=SIZE, run_before=run_before)
