"""The coach: the analyst interface, grades, the game review and its command."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.cells import cell_len

from coloretto.bots import Analyst, Budget, Estimate
from coloretto.bots.guard import guarded_analysis
from coloretto.bots.registry import make_bot
from coloretto.bots.search import SearchBot
from coloretto.engine import Action, PlayerView, Rules, new_game, record_text
from coloretto.play.advice import chance_figure, percent, why_costly
from coloretto.play.analysis import analyse_decision
from coloretto.play.coach import Decision, Grade, grade
from coloretto.play.config import GameConfig
from coloretto.play.foresight import foresee
from coloretto.play.keeper import Keeper
from coloretto.play.review import (
    ANALYSIS_KEY,
    Review,
    analyse,
    pending,
    positions,
    review_of,
    summaries,
    with_review,
)
from coloretto.play.saving import load_session, people
from coloretto.play.session import Session
from coloretto.play.table import LocalTable
from coloretto.store.history import annotate, finished_games
from coloretto.store.paths import DataDir
from coloretto.store.records import read_record
from coloretto.store.stats import Stats
from tests.conftest import ROOT, run_coloretto
from tests.test_bot_expert import FOUR, SPREAD, START, deal_and_play
from tests.tui.review_fixtures import reviewed_record

FAST = "search:iterations=12"
"""A quicker analyst for the tests that review whole games and check the grades."""
PLUMBING = "search:iterations=4"
"""A rough analyst, for the tests of what a review keeps, prints and continues (not of
grades)."""


def finished(home: Path, players: int, seed: int, me: str, others: str = "expert") -> Path:
    """A game the person at seat 0 played with the bot ``me`` against deterministic
    bots (``others``: no clock cap, so the same game on any machine), kept in the history."""
    config = GameConfig.build(Rules(players=players), humans=1, bot=others, seed=seed)
    session = Session(config)
    keeper = Keeper(DataDir(home))
    mine = make_bot(me, seed=seed)
    while not session.game.is_over:
        game = session.game
        seat = game.current_player
        if session.is_bot(seat):
            session.apply(session.bot_move().action)
        else:
            session.apply(mine.choose(game.view(seat), game.legal_actions()))
    assert keeper.save(session) is None
    assert keeper.finish(session) is None
    (path,) = finished_games(DataDir(home))
    return path


def test_the_search_bot_values_every_legal_action() -> None:
    bot = SearchBot(seed=1, iterations=4)
    assert isinstance(bot, Analyst)
    state = deal_and_play(FOUR, START, [*SPREAD, "blue>1", "pink>2"])
    legal = state.legal_actions()
    estimates = bot.analyse(state.view(state.current_player), legal)
    assert list(estimates) == list(legal)
    assert len({e.samples for e in estimates.values()}) == 1  # the same deals for all
    for estimate in estimates.values():
        assert 0.0 <= estimate.win <= 1.0
        assert 4 <= estimate.samples <= 32  # more deals when the playouts are short
        assert estimate.win_error >= 0.0
        assert estimate.margin_error >= 0.0


def test_the_guard_checks_an_analysis() -> None:
    state = deal_and_play(FOUR, START, [*SPREAD, "blue>1"])
    view, legal = state.view(state.current_player), state.legal_actions()

    class Liar:
        def choose(
            self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
        ) -> Action:
            return legal[0]

        def analyse(
            self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
        ) -> dict[Action, Estimate]:
            return {legal[0]: Estimate(win=2.0, margin=0.0)}

    class Plain:
        def choose(
            self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
        ) -> Action:
            return legal[0]

    bad = guarded_analysis(Liar, view, legal, 5)
    assert bad.estimates is None
    assert bad.problem == "its answer does not value exactly the legal actions"
    plain = guarded_analysis(Plain, view, legal, 5)
    assert (plain.estimates, plain.problem) == (None, None)


def test_a_clear_blunder_is_graded_so() -> None:
    # Seat 0 (blue 2, orange, green) must take a row: row 1 (blue, blue, +2) gives +9,
    # row 2 (blue, orange, +2) +7, row 3 (pink, yellow, gray: three minus colours) -3.
    script = [
        *SPREAD,
        *("blue>1", "blue>1", "+2>1", "blue>2", "orange>2", "+2>2"),
        *("pink>3", "pink>4", "yellow>3", "gray>3", "pink>4", "yellow>4", "take 4"),
    ]
    state = deal_and_play(FOUR, START, script)
    estimates = analyse_decision(state).estimates
    graded = {a.row: Decision(0, 0, a, estimates).grade for a in state.legal_actions()}
    assert graded[0] is Grade.BEST
    assert graded[1] in (Grade.GOOD, Grade.INACCURACY)
    assert graded[2] is Grade.BLUNDER
    assert Decision(0, 0, Action.take(2), estimates).best == Action.take(0)


def test_grades_follow_the_thresholds() -> None:
    assert [grade(x).value for x in (0.0, 0.009, 0.01, 0.05, 0.1, 0.15, 0.9)] == [
        "best",
        "best",
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
        "blunder",
    ]


@pytest.mark.parametrize("game", [4])
def test_blunders_do_not_depend_on_the_seed(tmp_path: Path, game: int) -> None:
    # The person plays at random. Reviews with two seeds find the same clear blunders; a
    # loss at the blunder's threshold itself (within its noise) is a mistake or a
    # blunder in both, never less.
    path = finished(tmp_path, 3, seed=game, me="random")
    record = read_record(path)
    states = positions(record)
    plies = pending(states, Review(), people(record))
    reviews = [{d.ply: d for d in analyse(states, plies, FAST, seed)} for seed in (1, 2)]
    blunders = [{p for p, d in r.items() if d.grade is Grade.BLUNDER} for r in reviews]
    assert blunders[0] | blunders[1], "a random player should blunder at least once"
    for ply in blunders[0] ^ blunders[1]:
        for review in reviews:
            decision = review[ply]
            assert decision.grade in (Grade.MISTAKE, Grade.BLUNDER)
            assert abs(decision.loss - 0.15) < 2 * decision.noise + 0.01
    clear = [
        {p for p in found if reviews[i][p].loss > 0.15 + 2 * reviews[i][p].noise + 0.01}
        for i, found in enumerate(blunders)
    ]
    assert clear[0] <= blunders[1]
    assert clear[1] <= blunders[0]


def test_following_the_hints_is_accurate(tmp_path: Path) -> None:
    config = GameConfig.build(
        Rules(players=3), humans=1, bot="expert", seed=8, hint_bot="search:iterations=12"
    )
    table = LocalTable(Session(config), Keeper(DataDir(tmp_path)))
    while not table.session.game.is_over:
        game = table.session.game
        seat = game.current_player
        if table.bots_move(seat):
            table.act(table.session.bot_move().action)
        else:
            table.act(table.hint().action)
    record = read_record(finished_games(DataDir(tmp_path))[0])
    states = positions(record)
    plies = pending(states, Review(), people(record))
    review = Review(FAST, 3, {d.ply: d for d in analyse(states, plies, FAST, 3)})
    (summary,) = summaries(review, states, record.seats, people(record))
    assert summary.accuracy >= 95
    assert summary.grades[Grade.BLUNDER] == summary.grades[Grade.MISTAKE] == 0
    assert all(costly.decision.grade.is_flaw for costly in summary.costliest)


def test_only_decisions_worth_pointing_out_are_among_the_costliest() -> None:
    game = new_game(Rules(players=3), seed=5)
    states = [game]
    while not game.is_over:
        game = game.apply(game.legal_actions()[0])
        states.append(game)
    choices = [p for p in range(len(states) - 1) if len(states[p].legal_actions()) > 1]
    mine = [p for p in choices if states[p].current_player == 0][:3]

    def decision(ply: int, lost_points: float) -> Decision:
        played, other = states[ply].legal_actions()[:2]
        estimates = {played: Estimate(0.3, -lost_points), other: Estimate(0.3, 0.0)}
        return Decision(ply, 0, played, estimates)

    close = {mine[0]: decision(mine[0], 1.3), mine[1]: decision(mine[1], 0.5)}
    review = Review(FAST, 0, close)
    (summary,) = summaries(review, states, ["You", "Ben", "Cy"], [0])
    assert summary.grades[Grade.GOOD] == 2
    assert summary.costliest == ()  # a good decision is no lesson, even the hints' own
    flawed = {**close, mine[2]: decision(mine[2], 3.0)}
    (summary,) = summaries(Review(FAST, 0, flawed), states, ["You", "Ben", "Cy"], [0])
    assert [c.decision.ply for c in summary.costliest] == [mine[2]]
    assert summary.costliest[0].where.startswith(f"Move {mine[2] + 1} (round ")


def test_the_analysis_kept_in_a_record_is_checked(tmp_path: Path) -> None:
    path = finished(tmp_path, 3, seed=2, me="greedy")
    record = read_record(path)
    states = positions(record)
    plies = pending(states, Review(), people(record))[:3]
    review = Review(FAST, 0, {d.ply: d for d in analyse(states, plies, FAST, 0)})
    annotate(DataDir(tmp_path), path, with_review(record, review))
    kept = review_of(read_record(path), states)
    assert kept is not None
    assert sorted(kept.decisions) == plies
    assert pending(states, kept, people(record)) == pending(states, Review(), people(record))[3:]
    # A hostile analysis: wrong plies, actions, numbers; the rest is dropped, not trusted.
    meta = kept.to_meta()
    meta["decisions"][0]["options"][0]["win"] = float("nan")
    meta["decisions"][1]["played"] = "take 5"
    meta["decisions"].append({"ply": 10**6, "seat": 0, "played": "draw", "options": []})
    meta["decisions"].append("nonsense")
    hostile = review_of(
        type(record)(record.rules, record.seats, record.state, {ANALYSIS_KEY: meta}), states
    )
    assert hostile is not None
    assert sorted(hostile.decisions) == plies[2:]
    junks: list[object] = [
        {"format": "x"},
        [],
        "text",
        {"format": "coloretto-analysis/1", "bot": 3},
    ]
    for junk in junks:
        assert (
            review_of(
                type(record)(record.rules, record.seats, record.state, {ANALYSIS_KEY: junk}), states
            )
            is None
        )


def test_a_save_in_progress_is_never_written(tmp_path: Path) -> None:
    data = DataDir(tmp_path)
    data.ensure()
    path = finished(tmp_path, 3, seed=2, me="greedy")
    record = read_record(path)
    with pytest.raises(ValueError, match="game in progress"):
        annotate(data, data.saves / "x.json", record)


# ---------------------------------------------------------------- the command


def review(
    home: Path, *argv: str, bot: str = PLUMBING, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return run_coloretto(home, "review", "--bot", bot, *argv, timeout=timeout)


def test_the_review_command_keeps_its_analysis_and_prints_json(tmp_path: Path) -> None:
    # Heads-up: the analyses are three times quicker than at three seats (its costliest
    # decisions are a mistake and two inaccuracies, each with why).
    path = finished(tmp_path, 2, seed=6, me="greedy")
    done = review(tmp_path, "--json", "--jobs", "2", bot=PLUMBING)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["complete"] is True
    assert data["bot"] == PLUMBING
    (player,) = data["players"]
    assert player["name"] == "You"
    assert 0 <= player["accuracy"] <= 100
    assert set(data["thresholds"]) == {"good", "inaccuracy", "mistake", "blunder"}
    decisions = data["decisions"]
    assert decisions
    assert all(d["seat"] == 0 for d in decisions)
    for decision in decisions:
        assert decision["played"] in [o["action"] for o in decision["options"]]
        assert decision["grade"] in {g.value for g in Grade}
    assert len(player["costliest"]) <= 3
    assert all(c["why"] for c in player["costliest"])
    kept = read_record(path).meta[ANALYSIS_KEY]
    assert len(kept["decisions"]) == len(decisions)
    # Done once: a second review reads it back, and prints the same.
    start = time.perf_counter()
    again = review(tmp_path, "--json", bot=PLUMBING)
    assert time.perf_counter() - start < 10
    assert json.loads(again.stdout)["decisions"] == decisions
    text = review(tmp_path, bot=PLUMBING)
    assert text.returncode == 0
    assert "You: accuracy" in text.stdout
    # --all reviews the bots' decisions too.
    everyone = json.loads(review(tmp_path, "--json", "--all", "--jobs", "2", bot=PLUMBING).stdout)
    assert {d["seat"] for d in everyone["decisions"]} == {0, 1}
    # The statistics keep the accuracy; lost, they are counted again from the record.
    counted = json.loads(run_coloretto(tmp_path, "stats", "--json").stdout)["accuracy"]
    assert [a["player"] for a in counted] == ["You"]
    assert (tmp_path / "stats.sqlite3").exists()
    for name in ("stats.sqlite3", "stats.sqlite3-wal", "stats.sqlite3-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    again = json.loads(run_coloretto(tmp_path, "stats", "--json").stdout)
    assert again["games"] == 1
    assert again["accuracy"] == counted


def test_an_interrupted_review_continues_where_it_stopped(tmp_path: Path) -> None:
    path = finished(tmp_path, 3, seed=9, me="greedy")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLORETTO_HOME": str(tmp_path)}
    argv = ["review", "--bot", PLUMBING, "--all", "--jobs", "1"]
    command = [sys.executable, "-m", "coloretto", *argv]
    # Ctrl+C as in a terminal, even where the tests run with SIGINT ignored (a job started
    # in the background by a shell): an ignored SIGINT would be inherited by the review.
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    process = subprocess.Popen(
        command,
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    if ignored:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        deadline = time.monotonic() + 60
        while ANALYSIS_KEY not in read_record(path).meta and time.monotonic() < deadline:
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130, err
    assert "run the same command again to continue" in err
    first = read_record(path).meta[ANALYSIS_KEY]["decisions"]
    done = review(tmp_path, "--all", "--json", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    final = read_record(path).meta[ANALYSIS_KEY]["decisions"]
    assert len(final) > len(first)
    by_ply = {d["ply"]: d for d in final}
    assert all(by_ply[d["ply"]] == d for d in first)  # kept, not analysed again


def test_review_says_what_is_wrong_in_one_line(tmp_path: Path) -> None:
    nothing = run_coloretto(tmp_path, "review")
    assert nothing.returncode == 2
    assert "no finished games" in nothing.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    wrong = run_coloretto(tmp_path, "review", str(bad))
    assert wrong.returncode == 2
    assert "not a valid game record" in wrong.stderr
    finished(tmp_path, 3, seed=2, me="greedy")
    plain = run_coloretto(tmp_path, "review", "--bot", "greedy")
    assert plain.returncode == 2
    assert "cannot analyse" in plain.stderr
    assert "Traceback" not in plain.stderr + wrong.stderr + nothing.stderr


def test_records_with_an_analysis_load_everywhere(tmp_path: Path) -> None:
    path = finished(tmp_path, 2, seed=6, me="greedy")  # heads-up: a quicker review
    assert review(tmp_path, "--jobs", "1").returncode == 0
    assert ANALYSIS_KEY in read_record(path).meta
    session = load_session(path)  # what play --load does
    assert session.game.is_over
    listing = run_coloretto(tmp_path, "replay", "--list")
    assert listing.returncode == 0
    assert path.name in listing.stdout
    stats = run_coloretto(tmp_path, "stats")
    assert stats.returncode == 0
    assert "Accuracy over time" in stats.stdout
    (accuracy,) = json.loads(run_coloretto(tmp_path, "stats", "--json").stdout)["accuracy"]
    assert accuracy["player"] == "You"
    assert accuracy["games"] == 1
    assert 0 <= accuracy["accuracy"] <= 100


def test_only_games_in_the_statistics_get_an_accuracy(tmp_path: Path) -> None:
    finished(tmp_path, 3, seed=6, me="greedy")
    stats = Stats(DataDir(tmp_path).stats)
    assert not stats.add_accuracy("no-such-game/1", 0, 80.0, 10)
    (game_id,) = {
        row[0] for row in sqlite3.connect(stats.path).execute("SELECT game_id FROM games")
    }
    assert not stats.add_accuracy(game_id, 1, 80.0, 10)  # a bot's seat
    assert stats.add_accuracy(game_id, 0, 80.0, 10)
    assert stats.add_accuracy(game_id, 0, 90.0, 12)  # a newer review replaces it
    (point,) = stats.summary().accuracy
    assert (point.player, point.games, point.accuracy) == ("You", 1, 90.0)
    with pytest.raises(ValueError, match="0 to 100"):
        stats.add_accuracy(game_id, 0, 101.0, 1)


def test_why_a_move_was_costly_is_said_in_terms_of_the_table() -> None:
    # Gray side: seat 0 (blue 2, orange, green) takes row 1 (blue, blue, +2: a 4th blue)
    # rather than row 2 (blue, orange, +2).
    script = [
        *SPREAD,
        *("blue>1", "blue>1", "+2>1", "blue>2", "orange>2", "+2>2"),
        *("green>3", "pink>4", "yellow>3", "green>3", "pink>4", "yellow>4", "take 4"),
    ]
    state = deal_and_play(Rules(players=4, scoring="gray"), START, script)
    estimates = {
        Action.take(0): Estimate(0.20, -3.0),
        Action.take(1): Estimate(0.35, 2.5),
        Action.take(2): Estimate(0.30, 1.0),
    }
    decision = Decision(0, 0, Action.take(0), estimates)
    why = why_costly(state, decision, ["You", "Ben", "Cy", "Di"]).plain
    assert why == (
        "taking row 1 gave you a 4th blue card on the gray side: row 1 (+5 for you), "
        "row 2 (+9 for you); this move: -5.5 points of lead over the best rival, -15% chance to "
        "win"
    )
    # Rows 1, 2 and 3 are worth +5, +9 and +6 to you; to the others still in the round at
    # most +4 (Ben), +0 and +6 (Cy).
    names = ["You", "Ben", "Cy", "Di"]
    gift = Decision(0, 0, Action.take(1), {**estimates, Action.take(0): Estimate(0.5, 4.0)})
    assert why_costly(state, gift, names).plain.startswith(
        "taking row 2 left row 1 (+5 for you, +4 for Ben) to Ben, rather than row 2 "
        "(nothing for the others); this move: -1.5 points of lead over the best rival"
    )
    # Row 3 gives you more now than row 1, and no more to the others: no count on the
    # table says why row 1 is better, nor does the round played out (after row 3 you stay
    # as far ahead of what the rival then takes): the sentence says so rather than give a
    # reason nobody can check, and quotes no figure that says otherwise.
    later = Decision(0, 0, Action.take(2), {**estimates, Action.take(0): Estimate(0.5, 4.0)})
    one, three = foresee(state, Action.take(0)), foresee(state, Action.take(2))
    assert 5 - one.rival_gain < 6 - three.rival_gain
    assert why_costly(state, later, names).plain == (
        "taking row 1 was better for your chance to win and your lead over the best rival; "
        "playing the round out 12 times does not show why; this move: -3.0 "
        "points of lead over the best rival, -20% chance to win"
    )


def test_the_review_reads_at_80_columns_and_tells_people_apart(tmp_path: Path) -> None:
    # A hotseat game's people are "Player 1", "Player 2"...: cut to fit, they read alike.
    names = ("Player 1", "Player 2", "Player 3")
    record = reviewed_record(names=names)
    path = tmp_path / "hotseat.json"
    path.write_text(record_text(record.state, record.seats, record.meta), encoding="utf-8")
    done = run_coloretto(tmp_path, "review", str(path), "--bot", "search", columns=80)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert max(cell_len(line) for line in lines) <= 80
    assert "…" not in done.stdout  # nothing cut: headers, figures, names
    for name in names:
        assert f"Decisions of {name}" in lines
        assert any(line.startswith(f"{name}: accuracy ") for line in lines)
    mine = review_of(record, positions(record))
    assert mine is not None
    shown = 0
    for decision in mine.decisions.values():
        chance = chance_figure(-decision.win_loss, decision.errors[0])
        if decision.grade is Grade.BEST or not chance:
            continue
        win = f"{chance}±{percent(decision.errors[0])}"
        row = [line for line in lines if line.split()[:1] == [str(decision.ply + 1)]]
        assert any(win in line.split() for line in row), (decision.ply, win)
        shown += 1
    assert shown > 10
