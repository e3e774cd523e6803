"""Practice from your mistakes (``coloretto.play.practice``): the puzzles are the reviewed
game's flaws, each at the position before the player's decision; an answer is checked with
the review's own measures; the results are kept, and survive a hostile file."""

from __future__ import annotations

import json
import multiprocessing
import os
import threading
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coloretto.bots import Estimate
from coloretto.engine import DRAW, Action
from coloretto.play.coach import CLEAR, Decision, Grade
from coloretto.play.config import YOU
from coloretto.play.practice import (
    Attempt,
    Outcome,
    Puzzle,
    practice_json,
    practice_lines,
    puzzles,
)
from coloretto.play.review import Review, positions, review_of
from coloretto.store import practice as store
from coloretto.store.lock import hold
from coloretto.store.paths import DataDir
from coloretto.store.practice import (
    MAX_PRACTICE_BYTES,
    PracticeResult,
    keep_result,
    practice_path,
    read_results,
)
from tests.tui.review_fixtures import reviewed_record

AT = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(3, 4))
def test_every_puzzle_is_the_position_before_a_flawed_decision(seed: int, players: int) -> None:
    record = reviewed_record(seed, players)
    states = positions(record)
    review = review_of(record, states)
    assert review is not None
    found = puzzles(record, "game.json")
    flaws = [d for d in review.decisions.values() if d.grade.is_flaw]
    assert [p.decision.ply for p in found] == sorted(d.ply for d in flaws)
    for puzzle in found:
        ply = puzzle.decision.ply
        assert puzzle.state == states[ply]  # the table before the decision
        assert puzzle.state.current_player == puzzle.seat  # the player's seat to move
        move = states[ply + 1].last_move
        assert move is not None
        assert move.action == puzzle.decision.played
        assert puzzle.grade.is_flaw
        assert puzzle.solves(puzzle.best)
        assert not puzzle.solves(puzzle.decision.played)  # the game's move is the flaw
        assert puzzle.names == record.seats


def test_puzzles_of_some_seats_only() -> None:
    record = reviewed_record(8, 3)
    everyone = puzzles(record, "g.json")
    mine = puzzles(record, "g.json", seats=(1,))
    assert mine == [p for p in everyone if p.seat == 1]
    assert {p.seat for p in everyone} > {1}


def test_a_game_not_reviewed_has_no_puzzles() -> None:
    record = reviewed_record(8, 3)
    assert puzzles(replace(record, meta={}), "g.json") == []
    assert puzzles(record, "g.json", review=Review()) == []


def decision_of(
    played: Action, others: dict[Action, tuple[float, float]], paired: float, points: float = 0.5
) -> Decision:
    """A decision at the deal of the fixture's game: ``played`` and each of ``others``
    valued (chance to win, margin), the differences' errors ``paired`` and ``points``."""
    estimates = {a: Estimate(w, m, 0.02, 0.5, 32) for a, (w, m) in others.items()}
    pairs = {
        (a, b): (paired, points) for i, a in enumerate(estimates) for b in list(estimates)[i + 1 :]
    }
    return Decision(0, 0, played, estimates, pairs)


TAKE, PLACE = Action.take(0), Action.take(1)
"""With ``DRAW``, the made-up decisions' moves (``PLACE``: the other row taken)."""


def puzzle_of(decision: Decision) -> Puzzle:
    """A puzzle of ``decision`` at the first position of the fixture's game where its three
    moves are legal."""
    record = reviewed_record(8, 3)
    states = positions(record)
    ply = next(p for p, s in enumerate(states) if all(s.is_legal(a) for a in (DRAW, TAKE, PLACE)))
    moved = replace(decision, ply=ply, seat=states[ply].current_player)
    return Puzzle("g.json", states[ply], moved, record.seats)


def test_an_answer_within_the_error_of_the_best_solves_it() -> None:
    values = {DRAW: (0.50, 0.0), TAKE: (0.48, 0.0), PLACE: (0.30, 0.0)}
    puzzle = puzzle_of(decision_of(PLACE, values, paired=0.02))
    assert puzzle.best == DRAW
    assert puzzle.solves(DRAW)
    assert puzzle.solves(TAKE)  # 2 points of % behind, within 2 errors of 2: about as good
    assert not puzzle.solves(PLACE)


def test_an_answer_clearly_worse_but_graded_good_does_not_solve_it() -> None:
    values = {DRAW: (0.50, 0.0), TAKE: (0.47, 0.0), PLACE: (0.30, 0.0)}
    puzzle = puzzle_of(decision_of(PLACE, values, paired=0.001))
    assert puzzle.tried(TAKE).grade is Grade.GOOD
    assert not puzzle.solves(TAKE)
    almost = {DRAW: (0.50, 0.0), TAKE: (0.495, 0.0), PLACE: (0.30, 0.0)}
    assert puzzle_of(decision_of(PLACE, almost, paired=0.004)).solves(TAKE)  # graded best


@settings(max_examples=300, deadline=None)
@given(
    wins=st.lists(st.floats(0.0, 1.0), min_size=3, max_size=3),
    margins=st.lists(st.floats(-20.0, 20.0), min_size=3, max_size=3),
    error=st.floats(0.0, 0.1),
    points=st.floats(0.0, 3.0),
    answer=st.sampled_from([DRAW, TAKE, PLACE]),
)
def test_solved_is_the_review_s_about_as_good(
    wins: list[float], margins: list[float], error: float, points: float, answer: Action
) -> None:
    actions = (DRAW, TAKE, PLACE)
    values = {a: (w, m) for a, w, m in zip(actions, wins, margins, strict=True)}
    puzzle = puzzle_of(decision_of(PLACE, values, paired=error, points=points))
    tried = puzzle.tried(answer)
    best = tried.estimates[tried.best]
    mine = tried.estimates[answer]
    clearly_worse = best.win - mine.win > CLEAR * error or best.margin - mine.margin > (
        CLEAR * points
    )
    assert puzzle.solves(answer) == (not clearly_worse or tried.grade is Grade.BEST)
    assert puzzle.solves(puzzle.best)


def test_two_tries_then_the_answer() -> None:
    values = {DRAW: (0.50, 0.0), TAKE: (0.20, 0.0), PLACE: (0.30, 0.0)}
    puzzle = puzzle_of(decision_of(PLACE, values, paired=0.01))
    first = Attempt(puzzle)
    assert first.answer(DRAW) is Outcome.FIRST
    second = Attempt(puzzle)
    assert second.answer(PLACE) is None
    assert not second.over
    assert second.answer(DRAW) is Outcome.SECOND
    assert second.answer(TAKE) is Outcome.SECOND  # over: answers change nothing
    missed = Attempt(puzzle)
    assert missed.answer(TAKE) is None
    assert missed.answer(PLACE) is Outcome.MISSED
    shown = Attempt(puzzle)
    assert shown.give_up() is Outcome.MISSED
    assert shown.answers == []
    result = second.result(AT)
    ply = puzzle.decision.ply
    player = puzzle.names[puzzle.seat]  # kept under the player's name
    assert result == PracticeResult("g.json", ply, puzzle.grade.value, "second", AT, player)


def test_the_answer_in_words() -> None:
    values = {DRAW: (0.50, 1.0), TAKE: (0.20, -3.0), PLACE: (0.30, 0.0)}
    puzzle = puzzle_of(decision_of(PLACE, values, paired=0.01, points=0.5))
    assert puzzle.worth() == (  # the final margin said as what it means
        "chance to win 50% (± 2%); on average you end 1.0 (± 0.5) points ahead of the best "
        "of the others"
    )
    assert puzzle.worth(TAKE) == (
        "chance to win 20% (± 2%); on average you end 3.0 (± 0.5) points behind the best of "
        "the others"
    )
    assert (
        puzzle.answer_words(TAKE)
        == "-4.0 ± 0.5 points of lead over the best rival, -30 ± 1% chance to win"
    )
    assert puzzle.where() == f"move {puzzle.decision.ply + 1}, round {puzzle.state.round}"


def test_why_names_the_game_s_move_and_says_what_it_came_to() -> None:
    values = {DRAW: (0.50, 1.0), TAKE: (0.20, -3.0), PLACE: (0.30, 0.0)}
    puzzle = puzzle_of(decision_of(PLACE, values, paired=0.01, points=0.5))
    why = puzzle.why()  # the review's sentence (coloretto.play.advice.why_costly)
    assert "this move" not in why  # the player's own move is another one
    cost = puzzle.answer_words(PLACE)
    assert why.endswith(f"; the game's move (take row 2): {cost}")


def test_an_answer_about_as_good_as_the_best_is_said_so() -> None:
    values = {DRAW: (0.50, 0.0), TAKE: (0.48, 0.0), PLACE: (0.30, 0.0)}
    puzzle = puzzle_of(decision_of(PLACE, values, paired=0.02))
    assert puzzle.about_as_good(TAKE) == "about as good as the best, within twice the error"
    assert puzzle.about_as_good(DRAW) is None  # the best itself
    assert puzzle.about_as_good(PLACE) is None  # does not solve it
    clearly = {DRAW: (0.50, 0.0), TAKE: (0.495, 0.0), PLACE: (0.30, 0.0)}
    less = puzzle_of(decision_of(PLACE, clearly, paired=0.001))  # clearly less, however little
    assert not less.solves(TAKE)
    assert less.about_as_good(TAKE) is None


# ---------------------------------------------------------------------- results kept


def result(
    n: int, outcome: str = "first", grade: str = "mistake", player: str = "Ana"
) -> PracticeResult:
    return PracticeResult("game.json", n, grade, outcome, AT + timedelta(minutes=n), player)


def test_results_round_trip(tmp_path: Path) -> None:
    data = DataDir(tmp_path / "home")
    kept = [
        result(n, o, g) for n, (o, g) in enumerate(zip(store.OUTCOMES, store.GRADES, strict=True))
    ]
    for one in kept:
        assert keep_result(data, one) is None
    assert read_results(data).results == tuple(kept)
    assert json.loads(practice_path(data).read_text())["format"] == "coloretto-practice/2"


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    kept=st.lists(
        st.builds(
            PracticeResult,
            game=st.text("abcxyz0123456789._- ", min_size=1, max_size=40),
            ply=st.integers(0, 10_000),
            grade=st.sampled_from(store.GRADES),
            outcome=st.sampled_from(store.OUTCOMES),
            at=st.datetimes(timezones=st.just(UTC)).map(lambda t: t.replace(microsecond=0)),
            player=st.text("AnaBenÉé李 -", min_size=1, max_size=16).filter(
                lambda name: name.strip() == name and name != ""
            ),
        ),
        max_size=8,
    )
)
def test_any_results_round_trip(tmp_path: Path, kept: list[PracticeResult]) -> None:
    data = DataDir(tmp_path / f"home-{len(list(tmp_path.iterdir()))}")
    for one in kept:
        assert keep_result(data, one) is None
    assert read_results(data).results == tuple(kept)


def test_results_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "MOST_RESULTS", 3)
    data = DataDir(tmp_path)
    for n in range(5):
        keep_result(data, result(n))
    assert [r.ply for r in read_results(data).results] == [2, 3, 4]


HOSTILE = {
    "not json": b"{not json",
    "not utf-8": b"\xff\xfe\x00",
    "nested": b"[" * 100_000 + b"]" * 100_000,
    "a list": b"[]",
    "no format": b'{"results": []}',
    "another format": b'{"format": "coloretto-record/1", "results": []}',
    "no list": b'{"format": "coloretto-practice/1", "results": {}}',
    "too large": b'{"format": "coloretto-practice/1", "results": []}' + b" " * MAX_PRACTICE_BYTES,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_file_is_put_aside(tmp_path: Path, name: str) -> None:
    data = DataDir(tmp_path)
    practice_path(data).write_bytes(HOSTILE[name])
    found = read_results(data)
    assert found.results == ()
    assert found.problem is not None
    assert "cannot be read" in found.problem
    assert keep_result(data, result(1)) is None
    assert read_results(data).results == (result(1),)
    assert (tmp_path / "practice.json.damaged").read_bytes() == HOSTILE[name]


def test_bad_entries_are_dropped(tmp_path: Path) -> None:
    good = result(3).to_json()
    entries = [
        good,
        "text",
        {**good, "ply": -1},
        {**good, "ply": True},
        {**good, "ply": 10**30},
        {**good, "grade": "best"},
        {**good, "outcome": "solved"},
        {**good, "at": "yesterday"},
        {**good, "at": "2026-12-07T20:00:00"},  # no time zone
        {**good, "at": 5},
        {**good, "game": None},
        {**good, "game": "\x1b[31mred\x07"},
        {**good, "player": None},
        {**good, "player": ""},
        {**good, "player": "  "},
        {**good, "player": "\x1b[31mBen\x07"},
        {**good, "player": "Cy" * 100},
    ]
    data = DataDir(tmp_path)
    practice_path(data).write_text(
        json.dumps({"format": "coloretto-practice/2", "results": entries})
    )
    found = read_results(data)
    assert found.problem is None
    assert [(r.ply, r.game, r.player) for r in found.results] == [
        (3, "game.json", "Ana"),
        (3, "red", "Ana"),
        (3, "game.json", "Ben"),
        (3, "game.json", "Cy" * 15 + "C…"),  # cut to the longest name shown
    ]


def test_a_newer_file_is_left_alone(tmp_path: Path) -> None:
    data = DataDir(tmp_path)
    newer = b'{"format": "coloretto-practice/3", "results": "elsewhere"}'
    practice_path(data).write_bytes(newer)
    assert "newer version" in (read_results(data).problem or "")
    problem = keep_result(data, result(1))
    assert problem is not None
    assert "newer version" in problem
    assert practice_path(data).read_bytes() == newer


def test_a_directory_or_a_pipe_is_not_read(tmp_path: Path) -> None:
    data = DataDir(tmp_path)
    os.mkfifo(practice_path(data))  # read, it would wait for a writer for ever
    assert "not a regular file" in (read_results(data).problem or "")
    assert keep_result(data, result(1)) is None
    assert read_results(data).results == (result(1),)
    other = DataDir(tmp_path / "other")
    practice_path(other).mkdir(parents=True)
    assert read_results(other).problem is not None
    assert keep_result(other, result(2)) is None
    assert read_results(other).results == (result(2),)


def test_an_unwritable_home_says_so(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    problem = keep_result(DataDir(blocked / "home"), result(1))
    assert problem is not None
    assert problem.startswith("the result was not kept")


# ---------------------------------------------------------------------- in words


def test_how_practice_goes_in_words() -> None:
    assert practice_lines([]) == []
    early = [result(n, "missed", "blunder") for n in range(10)]
    late = [result(10 + n, "first" if n < 7 else "second", "inaccuracy") for n in range(10)]
    lines = practice_lines(early + late)
    assert lines == [
        "Ana's practice: 20 puzzles tried: 7 solved at once, 3 at the second try, 10 missed.",
        "  By grade: blunders 0 of 10, inaccuracies 10 of 10 solved.",
        "  Lately: 10 of the last 10 solved (100%), up from 0% over the 10 before.",
    ]
    worse = practice_lines(late + early)[-1]
    assert worse == "  Lately: 0 of the last 10 solved (0%), down from 100% over the 10 before."
    same = practice_lines(early + early)[-1]
    assert same.endswith("about as many as over the 10 before (0%).")
    assert practice_json(early + late)["grades"] == {
        "inaccuracy": {"tried": 10, "first": 7, "second": 3, "missed": 0},
        "blunder": {"tried": 10, "first": 0, "second": 0, "missed": 10},
    }


def test_each_player_s_practice_apart() -> None:
    mixed = [result(0, "first", player="You"), result(1, "missed", player="Ben")]
    mixed += [result(2, "second", player="You")]
    assert practice_lines(mixed) == [
        "Ben's practice: 1 puzzle tried: 0 solved at once, 0 at the second try, 1 missed.",
        "  By grade: mistakes 0 of 1 solved.",
        "Your practice: 2 puzzles tried: 1 solved at once, 1 at the second try, 0 missed.",
        "  By grade: mistakes 2 of 2 solved.",
    ]
    figures = practice_json(mixed)
    assert figures["tried"] == 3
    assert figures["players"] == {
        "Ben": {
            "tried": 1, "first": 0, "second": 0, "missed": 1,
            "grades": {"mistake": {"tried": 1, "first": 0, "second": 0, "missed": 1}},
        },
        "You": {
            "tried": 2, "first": 1, "second": 1, "missed": 0,
            "grades": {"mistake": {"tried": 2, "first": 1, "second": 1, "missed": 0}},
        },
    }  # fmt: skip


def test_results_are_kept_by_player(tmp_path: Path) -> None:
    data = DataDir(tmp_path)
    for n, player in enumerate(("Ana", "Ben", "ana", "Cy")):
        assert keep_result(data, result(n, player=player)) is None
    assert [r.ply for r in read_results(data, "ANA").results] == [0, 2]  # ignoring case
    assert [r.ply for r in read_results(data, "Ben").results] == [1]
    assert read_results(data, "Dee").results == ()
    assert len(read_results(data).results) == 4


def test_a_version_1_file_is_read_as_the_default_player_s_and_upgraded(tmp_path: Path) -> None:
    assert store.DEFAULT_PLAYER == YOU
    data = DataDir(tmp_path)
    old = [{k: v for k, v in result(n).to_json().items() if k != "player"} for n in (1, 2)]
    practice_path(data).write_text(json.dumps({"format": "coloretto-practice/1", "results": old}))
    found = read_results(data)
    assert found.problem is None
    assert [(r.ply, r.player) for r in found.results] == [(1, YOU), (2, YOU)]
    assert keep_result(data, result(3, player="Ben")) is None
    kept = json.loads(practice_path(data).read_text())
    assert kept["format"] == "coloretto-practice/2"
    assert [(r["ply"], r["player"]) for r in kept["results"]] == [(1, YOU), (2, YOU), (3, "Ben")]


def test_a_result_waits_for_another_process_keeping_one(tmp_path: Path) -> None:
    data = DataDir(tmp_path)
    held = hold(tmp_path / store.LOCK_FILE)  # as if another process were keeping one
    done: list[str | None] = []
    keeping = threading.Thread(target=lambda: done.append(keep_result(data, result(1))))
    keeping.start()
    time.sleep(0.3)
    assert done == []  # waiting for the lock
    assert not practice_path(data).exists()
    held.release()
    keeping.join(timeout=store.LOCK_WAIT)
    assert done == [None]
    assert read_results(data).results == (result(1),)


def test_a_lock_held_too_long_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "LOCK_WAIT", 0.05)
    with hold(tmp_path / store.LOCK_FILE):
        problem = keep_result(DataDir(tmp_path), result(1))
    assert problem is not None
    assert problem.startswith("the result was not kept: ")
    assert "is held by process" in problem


def keep_many(home: str, player: str, count: int) -> None:
    """Keep ``count`` results of ``player`` in ``home`` (in a process of its own)."""
    for n in range(count):
        problem = keep_result(DataDir(Path(home)), result(n, player=player))
        assert problem is None, problem


def test_two_processes_keeping_results_at_once_lose_none(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=keep_many, args=(str(tmp_path), name, 40)) for name in ("Ana", "Ben")
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    kept = read_results(DataDir(tmp_path)).results
    assert sorted((r.player, r.ply) for r in kept) == [
        (name, n) for name in ("Ana", "Ben") for n in range(40)
    ]


def test_a_long_name_is_kept_cut_as_it_is_read_back(tmp_path: Path) -> None:
    values = {DRAW: (0.50, 0.0), TAKE: (0.20, 0.0), PLACE: (0.30, 0.0)}
    puzzle = puzzle_of(decision_of(PLACE, values, paired=0.01))
    names = list(puzzle.names)
    names[puzzle.seat] = "Ana" * 40  # a record from elsewhere
    long = replace(puzzle, names=tuple(names))
    attempt = Attempt(long)
    attempt.give_up()
    data = DataDir(tmp_path)
    assert keep_result(data, attempt.result(AT)) is None
    (kept,) = read_results(data).results
    assert kept.player == long.player == ("Ana" * 40)[:31] + "…"
