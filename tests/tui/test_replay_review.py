"""A game reviewed by the coach, replayed: grades in the move list, the best move instead of
a weaker one in the turn bar, ``n`` to the next inaccuracy, mistake or blunder."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from coloretto.bots import Estimate
from coloretto.engine import GameState, Rules, load_record, to_record
from coloretto.play.analysis import HINTS_KEY, hints_meta
from coloretto.play.coach import COACH_BOT, Decision, Grade, StoredHint, Valuation
from coloretto.play.config import GameConfig
from coloretto.play.keeper import Keeper
from coloretto.play.replay import Replay
from coloretto.play.review import Review, analyse, pending, positions, review_of, with_review
from coloretto.play.saving import load_session, people
from coloretto.play.session import Session
from coloretto.play.table import LocalTable
from coloretto.store.history import annotate, finished_games
from coloretto.store.paths import DataDir
from coloretto.store.records import read_record
from coloretto.tui import ColorettoApp
from coloretto.tui.replay_app import ReplayApp
from coloretto.tui.screens import EndScreen
from coloretto.tui.screens.review import ReviewScreen
from coloretto.tui.widgets import KeysBar, MoveLog, Notice, TurnBar
from tests.test_review import PLUMBING, finished

from .conftest import SIZE, asynctest, text_of
from .test_replay import NAMES, random_game, screen_of, shown

LOSSES = {4: 0.2, 9: 0.12, 12: 0.0}
"""Plies judged, with the chance to win the move played lost: a blunder, a mistake, best."""


def judged(states: tuple[GameState, ...], ply: int, loss: float) -> Decision:
    """A decision at ``ply`` whose played action lost ``loss`` against another."""
    played = states[ply + 1].last_move
    assert played is not None
    estimates = {
        action: Estimate(0.3 if action == played.action else 0.3 + loss, 0.0)
        for action in states[ply].legal_actions()
    }
    return Decision(ply, states[ply].current_player, played.action, estimates)


def reviewed_replay() -> Replay:
    record = load_record(to_record(random_game(5), NAMES))
    states = positions(record)
    for ply in LOSSES:
        assert len(states[ply].legal_actions()) > 1
    decisions = {ply: judged(states, ply, loss) for ply, loss in LOSSES.items()}
    return Replay.from_record(with_review(record, Review("search", 0, decisions)), "game.json")


def test_a_replay_reads_the_review_kept_in_the_record() -> None:
    replay = reviewed_replay()
    assert replay.review is not None
    assert replay.decision(5) is not None
    assert replay.decision(5).grade is Grade.BLUNDER  # type: ignore[union-attr]
    assert replay.decision(10).grade is Grade.MISTAKE  # type: ignore[union-attr]
    assert replay.next_mistake(0) == 5
    assert replay.next_mistake(5) == 10
    assert replay.next_mistake(10) is None


@asynctest
async def test_grades_best_moves_and_the_next_mistake_key() -> None:
    app = ReplayApp(reviewed_replay())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        await pilot.press("n")
        assert screen.step == 5
        assert "⁇ blunder" in text_of(screen.query_one(Notice))
        bar = text_of(screen.query_one(TurnBar))
        assert "Best was: " in bar
        assert "n: next mistake" in bar
        entries = [e.plain for e in screen.query_one(MoveLog).entries]
        assert entries[-1].endswith("⁇ blunder")
        await pilot.press("n")
        assert screen.step == 10
        assert "? mistake" in text_of(screen.query_one(Notice))
        await pilot.press("n")
        assert screen.step == 10
        assert "No inaccuracy, mistake or blunder after this move" in text_of(
            screen.query_one(Notice)
        )
        await pilot.press("right", "right", "right")  # move 13: the best move, no mark
        assert screen.step == 13
        assert "Best was" not in text_of(screen.query_one(TurnBar))


@asynctest
async def test_the_best_move_shows_whole_at_80x24() -> None:
    async with ReplayApp(reviewed_replay()).run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        await pilot.press("n")
        await pilot.pause()
        bar = shown(screen.query_one(TurnBar))
        assert bar.startswith("▶ Best was: ")
        assert bar.endswith("chance to win) · n: next mistake")


async def footer_keys(pilot: Pilot[None]) -> list[str]:
    """The keys the footer shows (as drawn)."""
    await pilot.pause()
    return [shown for shown, _, _ in pilot.app.screen.query_one(KeysBar).keys]


@asynctest
async def test_n_in_a_game_not_reviewed_is_not_offered_and_says_how_to_review_it() -> None:
    record = load_record(to_record(random_game(5), NAMES))
    app = ReplayApp(Replay.from_record(record, "game.json"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        assert "←/→" in await footer_keys(pilot)
        assert "n" not in await footer_keys(pilot)
        await pilot.press("n")
        assert screen.step == 0
        assert "coloretto review FILE" in text_of(screen.query_one(Notice))
        await pilot.press("question_mark")
        assert "Home End" in text_of(screen.query_one(Notice))
        assert "mistake" not in text_of(screen.query_one(Notice))


@asynctest
async def test_n_is_offered_while_a_mistake_lies_ahead() -> None:
    app = ReplayApp(reviewed_replay())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        assert "n" in await footer_keys(pilot)
        await pilot.press("question_mark")
        assert "n: the next inaccuracy, mistake or blunder" in text_of(screen.query_one(Notice))
        await pilot.press("n", "n")  # the last mistake: none ahead
        await pilot.pause()
        assert screen.step == 10
        assert "n" not in await footer_keys(pilot)
        assert "next mistake" not in text_of(screen.query_one(TurnBar))
        await pilot.press("home")
        await pilot.pause()
        assert "n" in await footer_keys(pilot)


@asynctest
async def test_n_in_a_game_reviewed_without_mistakes_is_not_offered() -> None:
    record = load_record(to_record(random_game(5), NAMES))
    states = positions(record)
    review = Review("search", 0, {4: judged(states, 4, 0.03)})  # a good move at most
    app = ReplayApp(Replay.from_record(with_review(record, review), "game.json"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        assert "n" not in await footer_keys(pilot)
        await pilot.press("n")
        assert screen.step == 0
        assert "found no inaccuracy, mistake or blunder" in text_of(screen.query_one(Notice))
        await pilot.press(*["right"] * 5)  # move 5: the good move
        bar = text_of(screen.query_one(TurnBar))
        assert "Best was: " in bar
        assert "next mistake" not in bar


@asynctest
async def test_the_score_screen_offers_the_coachs_review(tmp_path: Path) -> None:
    path = finished(tmp_path, 3, seed=4, me="random")
    record = read_record(path)
    states = positions(record)
    plies = pending(states, Review(), people(record))
    done = {d.ply: d for d in analyse(states, plies[:-2], PLUMBING, 0)}  # the rest: on the screen
    annotate(DataDir(tmp_path), path, with_review(record, Review(PLUMBING, 0, done)))
    session = load_session(path)
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(EndScreen(session))
        await pilot.pause()
        assert app.screen.active_bindings["v"].binding.show  # the review, in the footer
        await pilot.press("v")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        body = screen.query_one("#review-body", Static)
        for _ in range(3000):
            if "accuracy" in text_of(body):
                break
            await pilot.pause(0.01)
        assert "You: accuracy " in text_of(body)
        kept = review_of(read_record(path), states)  # kept: coloretto review has it
        assert kept is not None
        assert sorted(kept.decisions) == plies
        await pilot.press("escape")
        assert isinstance(app.screen, EndScreen)


@asynctest
async def test_a_game_of_bots_alone_has_nobody_to_review(tmp_path: Path) -> None:
    config = GameConfig.build(Rules(players=3), humans=0, bot="random", seed=6)
    table = LocalTable(Session(config), Keeper(DataDir(tmp_path)))
    while not table.session.game.is_over:
        table.act(table.session.bot_move().action)
    path = finished_games(DataDir(tmp_path))[0]
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(ReviewScreen(read_record(path), path, DataDir(tmp_path)))
        await pilot.pause()
        body = app.screen.query_one("#review-body", Static)
        for _ in range(300):
            if "No decision" in text_of(body):
                break
            await pilot.pause(0.01)
        assert text_of(body).startswith("No decision to review: nobody played here.")
        assert "next mistake" not in text_of(body)  # no mistake to step to


@asynctest
async def test_the_hints_given_in_the_game_show_in_the_replays_move_list() -> None:
    record = load_record(to_record(random_game(5), NAMES))
    states = positions(record)
    followed, other = [p for p in range(len(states) - 1) if len(states[p].legal_actions()) > 1][:2]
    hints = {}
    for ply in (followed, other):
        move = states[ply + 1].last_move
        assert move is not None
        legal = states[ply].legal_actions()
        unlike = [a for a in legal if a != move.action]
        hinted = move.action if ply == followed else unlike[0]
        estimates = {a: Estimate(0.5 if a == hinted else 0.3, 0.0, 0.01, 0.5, 32) for a in legal}
        hints[ply] = StoredHint(hinted, Valuation(estimates), COACH_BOT, 0)
    kept = replace(record, meta={**record.meta, HINTS_KEY: hints_meta(hints)})
    async with ReplayApp(Replay.from_record(kept, "game.json")).run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        await pilot.press("end")  # the whole game in the log
        entries = [e.plain for e in screen.query_one(MoveLog).entries]
        with_hint = [e for e in entries if "· as hinted" in e or "· hint: " in e]
        assert len(with_hint) == 2
        assert with_hint[0].endswith("· as hinted")
        assert "· hint: " in with_hint[1]


@asynctest
async def test_a_move_within_the_error_of_the_top_one_is_not_said_worse() -> None:
    # Issue 59: a decision about as good as the top move (a 3% loss within its error,
    # graded best by the one rule) was shown "Best was: ..." as if it had been a lesser move.
    record = load_record(to_record(random_game(5), NAMES))
    states = positions(record)
    close = judged(states, 4, 0.03)
    estimates = {a: replace(e, win_error=0.02) for a, e in close.estimates.items()}
    close = replace(close, estimates=estimates)
    assert close.grade is Grade.BEST
    assert close.clear_loss == 0.0
    review = Review("search", 0, {4: close})
    app = ReplayApp(Replay.from_record(with_review(record, review), "game.json"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        await pilot.press(*["right"] * 5)  # move 5: about as good as the top move
        bar = text_of(screen.query_one(TurnBar))
        assert "About as good: " in bar
        assert "Best was" not in bar
