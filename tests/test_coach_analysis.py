"""The one analysis of a decision: the hint and the review of the same decision agree, a
difference within its error is no flaw, and the hints given in a game are kept with it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coloretto.bots import Estimate
from coloretto.bots.expert import ExpertBot
from coloretto.engine import DRAW, Action, GameState, Rules
from coloretto.play.advice import cost_words, explain_hint, why_costly
from coloretto.play.analysis import (
    HINTS_KEY,
    Coach,
    Hints,
    analyse_decision,
    hints_of,
    kept,
)
from coloretto.play.coach import Decision, Grade, StoredHint, Valuation
from coloretto.play.config import GameConfig
from coloretto.play.keeper import Keeper
from coloretto.play.replay import Replay
from coloretto.play.review import Review, Reviewing, analyse, pending, positions, review_of
from coloretto.play.saving import load_session, people, session_record
from coloretto.play.session import Session
from coloretto.play.table import LocalTable
from coloretto.store.history import finished_games
from coloretto.store.paths import DataDir
from coloretto.store.records import read_record
from coloretto.store.saves import save_path
from tests.test_bot_expert import FOUR, SPREAD, START, deal_and_play

COACH = "search:iterations=6:sample=true"
"""A quicker coach for the tests (the same bot, fewer deals)."""


def played_game(tmp_path: Path, *, hints_every: int = 1, stop: int | None = None) -> LocalTable:
    """A four-player game the person at seat 0 plays by the hints (asked at every
    ``hints_every``-th decision of theirs; the others by the greedy bot), to its end or to
    ``stop`` actions, saved as it goes."""
    config = GameConfig.build(Rules(players=4), humans=1, bot="expert", seed=11, hint_bot=COACH)
    table = LocalTable(Session(config), Keeper(DataDir(tmp_path)))
    asked = 0
    while not table.session.game.is_over and (stop is None or table.session.game.ply < stop):
        game = table.session.game
        if table.bots_move(game.current_player):
            table.act(table.session.bot_move().action)
            continue
        asked += 1
        if asked % hints_every == 0:
            table.act(table.hint().action)
        else:
            table.act(game.legal_actions()[-1])
    return table


def test_a_kept_coach_and_a_new_one_value_every_decision_alike() -> None:
    game: GameState = deal_and_play(FOUR, START, [*SPREAD, "blue>1", "pink>2", "draw"])
    kept_coach = Coach(COACH)
    expert = ExpertBot()
    for _ in range(12):
        if len(game.legal_actions()) > 1:
            assert kept_coach.analyse(game) == analyse_decision(game, bot=COACH)
        game = game.apply(expert.choose(game.view(game.current_player), game.legal_actions()))


def test_the_hint_and_the_review_of_a_decision_give_the_same_values(tmp_path: Path) -> None:
    table = played_game(tmp_path)
    record = read_record(finished_games(DataDir(tmp_path))[0])
    states = positions(record)
    hints = hints_of(record.meta, states)
    plies = pending(states, Review(), people(record))
    assert plies
    assert set(plies) <= set(hints)
    review = {d.ply: d for d in analyse(states, plies, COACH, 0)}
    first = [p for p in plies if review[p].valuation.samples == hints[p].valuation.samples]
    assert len(first) >= len(plies) / 2  # the others were looked at again on more deals
    for ply in first:
        hint = hints[ply]
        assert (hint.bot, hint.seed) == (COACH, 0)
        assert review[ply].valuation == hint.valuation
    assert table.session.game.is_over


def test_a_hinted_move_is_graded_best_by_the_review_with_the_hints_seed(tmp_path: Path) -> None:
    played_game(tmp_path, stop=60)
    record = session_record(load_session(save_path(DataDir(tmp_path), _only_save(tmp_path))))
    reviewing = Reviewing(record, Review(COACH, 0), people(record), None)
    reviewing.run()
    hinted = [d for d in reviewing.review.decisions.values() if d.hint is not None]
    assert hinted
    for decision in hinted:
        assert decision.hint is not None
        assert decision.hint.recommends(decision.played)
        assert decision.grade in (Grade.BEST, Grade.GOOD)


def _only_save(home: Path) -> str:
    (path,) = DataDir(home).saves.glob("*.json")
    return path.stem


def test_the_hints_survive_save_and_resume_and_show_in_the_review_and_replay(
    tmp_path: Path,
) -> None:
    table = played_game(tmp_path, hints_every=2, stop=40)
    given = table.session.hints.for_game(1)
    assert given
    resumed = load_session(save_path(DataDir(tmp_path), table.session.id))
    assert resumed.hints.for_game(resumed.match.game_number) == given
    record = session_record(resumed)
    states = positions(record)
    replay = Replay.from_record(record)
    for ply, hint in given.items():
        assert replay.hint(ply + 1) == hint
    review = Review(COACH, 0)
    reviewing = Reviewing(record, review, people(record), None)
    assert review.hints == given
    reviewing.run()
    for ply in given:
        if ply in review.decisions:
            assert review.decisions[ply].hint == given[ply]
    again = review_of(record, states)
    assert again is None  # nothing kept in the record (no keeper): the hints alone


def test_hints_that_do_not_fit_the_game_are_dropped(tmp_path: Path) -> None:
    table = played_game(tmp_path, stop=30)
    record = session_record(table.session)
    states = positions(record)
    meta = json.loads(json.dumps(record.meta))
    entries = meta[HINTS_KEY]["hints"]
    assert entries
    good = len(hints_of(meta, states))
    entries[0]["ply"] = 10_000
    entries.append({"ply": 0, "action": "take 9", "bot": COACH, "seed": 0, "options": []})
    entries.append({"ply": "x"})
    entries.append("nonsense")
    if len(entries) > 4:
        entries[1]["options"][0]["win"] = 7.0
        entries[2]["pairs"] = [{"a": "draw", "b": "draw", "win_error": -1, "margin_error": 1}]
    found = hints_of(meta, states)
    assert len(found) == good - (2 if len(entries) > 4 else 1)
    for hint in found.values():
        assert all(w >= 0 and m >= 0 for w, m in hint.valuation.paired.values())
    assert hints_of({HINTS_KEY: "no"}, states) == {}


def _decision(loss: float, error: float, *, samples: int = 32) -> Decision:
    """``take 1`` played, ``draw`` better by ``loss`` chance to win (margins alike), the
    difference measured with the standard error ``error``."""
    take = Action.take(0)
    estimates = {
        DRAW: Estimate(0.4 + loss, 0.0, 0.05, 3.0, samples),
        take: Estimate(0.4, 0.0, 0.05, 3.0, samples),
    }
    return Decision(9, 0, take, estimates, {(DRAW, take): (error, 0.5)})


@pytest.mark.parametrize("loss", [0.02, 0.06, 0.11, 0.2])
def test_a_move_within_the_error_of_the_best_is_never_a_flaw(loss: float) -> None:
    unsure = _decision(loss, error=loss / 1.9)
    assert unsure.clear_loss == 0.0
    assert unsure.grade is Grade.BEST  # about as good, within twice the error: one grade for it
    sure = _decision(loss, error=loss / 2.1)
    assert sure.clear_loss == pytest.approx(loss)
    assert sure.grade is (Grade.GOOD if loss < 0.05 else sure.grade)
    assert sure.grade.is_flaw == (loss >= 0.05)


def test_independent_errors_are_assumed_when_the_pairs_are_not_known() -> None:
    decision = _decision(0.12, error=0.01)
    bare = Decision(decision.ply, decision.seat, decision.played, decision.estimates)
    assert bare.errors[0] == pytest.approx(0.05 * 2**0.5)
    assert bare.grade is Grade.BEST  # 0.12 lost, within two errors of 0.07 (as if unpaired)
    assert decision.grade is Grade.MISTAKE  # measured deal by deal: beyond doubt
    assert decision.noise < bare.noise


def test_a_move_the_hint_recommended_is_good_at_worst_unless_a_deeper_look_overrules_it() -> None:
    decision = _decision(0.2, error=0.01)
    take = decision.played
    hint = StoredHint(take, Valuation(dict(decision.estimates)), COACH, 0)
    alike = Decision(9, 0, take, decision.estimates, decision.paired, hint)
    assert alike.grade is Grade.GOOD
    assert not alike.hint_overruled
    deeper = _decision(0.2, error=0.01, samples=96)
    overruled = Decision(9, 0, take, deeper.estimates, deeper.paired, hint)
    assert overruled.hint_overruled
    assert overruled.grade is Grade.BLUNDER
    state = deal_and_play(FOUR, START, [*SPREAD, "blue>1", "pink>2"])
    why = why_costly(state, overruled, ["You", "Ben", "Cy", "Di"]).plain
    # Both looks' figures, of the move against the review's best, in one clause.
    assert "the hint in the game recommended it, on 32 deals: " in why
    assert f"this deeper look, on 96 deals: {cost_words(overruled)} against " in why


def test_a_hint_says_the_moves_are_about_equal_within_the_error() -> None:
    state = deal_and_play(FOUR, START, [*SPREAD, "blue>1", "pink>2", "draw"])
    legal = state.legal_actions()
    best, second = legal[0], legal[1]
    names = ["You", "Ben", "Cy", "Di"]

    def hint(points: float, error: float) -> str:
        estimates = {a: Estimate(0.3, -5.0, 0.05, 2.0, 32) for a in legal}
        estimates[best] = Estimate(0.31, -5.0 + points, 0.05, 2.0, 32)
        estimates[second] = Estimate(0.3, -5.0, 0.05, 2.0, 32)
        paired = {(best, a): (0.01, error) for a in legal if a != best}
        return explain_hint(state, 0, best, Valuation(estimates, paired), names)

    assert "about 2.5 ± 0.5 points more lead over the best rival than" in hint(2.5, 0.5)
    assert (
        "is about as good (2.5 ± 1.5 points less lead, 1 ± 1% less chance to win, within twice "
        "the error)" in hint(2.5, 1.5)
    )


def test_the_hints_of_a_match_are_kept_by_game() -> None:
    hints = Hints(COACH)
    state = deal_and_play(FOUR, START, [*SPREAD, "blue>1", "pink>2", "draw"])
    advice = hints.advise(state, 1, time_limit=30)
    assert advice.problem is None
    assert advice.valuation is not None
    assert hints.for_game(1) == {state.ply: StoredHint(advice.action, advice.valuation, COACH, 0)}
    assert hints.for_game(2) == {}
    assert advice.valuation == kept(analyse_decision(state, bot=COACH))


def test_a_hint_bot_that_only_chooses_still_gives_its_choice() -> None:
    state = deal_and_play(FOUR, START, [*SPREAD, "blue>1", "pink>2", "draw"])
    advice = Hints("greedy").advise(state, 1, time_limit=30)
    assert advice.valuation is None
    assert advice.problem is None
    assert advice.action in state.legal_actions()
    broken = Hints("no-such-bot").advise(state, 1, time_limit=30)
    assert broken.problem is not None
    assert broken.action in state.legal_actions()
