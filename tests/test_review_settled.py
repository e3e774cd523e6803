"""A review's grades across the mistake's threshold are settled: a decision whose estimate
could land on either side of it with other deals (a flaw near the threshold, or the best
move while another could be a mistake's loss better) is looked at again on new deals until
it is settled, so that reviews with other seeds never call the same move a mistake and
the best."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from coloretto.bots import Budget, Estimate
from coloretto.engine import Action, GameState, PlayerView
from coloretto.play import analysis
from coloretto.play.analysis import analyse_decision
from coloretto.play.coach import SETTLE, Decision, Grade
from coloretto.play.review import REFINE, analyse
from tests.test_bot_expert import FOUR, SPREAD, START, deal_and_play

DEALS = 32
"""The stub coach's deals per analysis (the coach's own number)."""
SEEDS = range(60)
"""The analysis seeds each decision is reviewed with."""


class Noisy:
    """A stub coach that gives its values deal by deal (``DealValuer``): every legal
    action's chance to win is alike, and its margin is the deal's luck plus, for the first
    action (the one played) nothing, for the second ``edge`` points with a spread of
    ``spread`` points from deal to deal, for the others 12 points less. The deals follow
    the seed, as the search bot's do."""

    def __init__(self, seed: int | None, edge: float, spread: float) -> None:
        self.rng = random.Random(seed)
        self.edge, self.spread = edge, spread

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        return legal[0]

    def reseed(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def deal_values(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> dict[Action, list[tuple[float, float]]]:
        values: dict[Action, list[tuple[float, float]]] = {action: [] for action in legal}
        for _ in range(DEALS):
            luck = self.rng.gauss(0.0, 5.0)
            edge = self.rng.gauss(self.edge, self.spread)
            for i, action in enumerate(legal):
                better = 0.0 if i == 0 else edge if i == 1 else -12.0
                values[action].append((0.3, luck + better))
        return values


def position() -> tuple[GameState, GameState]:
    """A decision with a choice (draw, take row 1 or row 2) and the position after the
    first of them was played."""
    state = deal_and_play(FOUR, START, [*SPREAD, "blue>1", "pink>2"])
    return state, state.apply(state.legal_actions()[0])


def reviewed(monkeypatch: pytest.MonkeyPatch, edge: float, spread: float) -> list[Decision]:
    """The decision reviewed once with each of ``SEEDS`` by the stub coach."""
    monkeypatch.setattr(analysis, "make_bot", lambda spec, seed=None: Noisy(seed, edge, spread))
    states = position()
    return [next(analyse(states, [0], "noisy", seed)) for seed in SEEDS]


def first_looks(monkeypatch: pytest.MonkeyPatch, edge: float, spread: float) -> list[Decision]:
    """The decision as the first analysis with each of ``SEEDS`` values it (the hint's
    look: no further deals)."""
    monkeypatch.setattr(analysis, "make_bot", lambda spec, seed=None: Noisy(seed, edge, spread))
    state, after = position()
    assert after.last_move is not None
    played = after.last_move.action
    looks = [analyse_decision(state, bot="noisy", seed=seed) for seed in SEEDS]
    return [Decision(0, state.current_player, played, v.estimates, v.paired) for v in looks]


def test_a_decision_whose_estimate_flips_with_the_seed_is_never_a_mistake_and_the_best(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The other move is 2.8 points better (a 7 % loss: an inaccuracy), measured with an
    # error of about 1.8 points (4.4 %) on 32 deals: the first looks with different seeds
    # find the move played the best, or a mistake or worse beyond two standard errors.
    edge, spread = 2.8, 10.0
    looks = first_looks(monkeypatch, edge, spread)
    assert min(d.loss for d in looks) < 0.01
    assert max(d.clear_loss for d in looks) >= 0.10
    decisions = reviewed(monkeypatch, edge, spread)
    grades = {d.grade for d in decisions}
    assert not (Grade.BEST in grades and grades & {Grade.MISTAKE, Grade.BLUNDER}), grades
    # The review looked again, on new deals, wherever the first look was unsettled.
    assert any(d.valuation.samples == (REFINE + 1) * DEALS for d in decisions)
    assert all(
        d.valuation.samples == DEALS
        for d, look in zip(decisions, looks, strict=True)
        if not look.unsettled
    )


@pytest.mark.parametrize(
    ("edge", "expected"), [(-12.0, Grade.BEST), (12.0, Grade.BLUNDER), (5.0, Grade.MISTAKE)]
)
def test_clear_grades_stand_whatever_the_seed(
    monkeypatch: pytest.MonkeyPatch, edge: float, expected: Grade
) -> None:
    # Looking again does not blur clear grades: a move 12 points worse than another (a
    # 30 % loss) is a blunder in every review, one 12 points better than the rest the
    # best, and one 5 points worse (12.5 %, measured more closely) a mistake.
    spread = 10.0 if abs(edge) > 10 else 1.5
    decisions = reviewed(monkeypatch, edge, spread)
    assert {d.grade for d in decisions} == {expected}


def test_a_grade_near_the_mistakes_threshold_or_a_best_move_that_could_be_one_is_unsettled() -> (
    None
):
    # Found the best, but another move could be 10 % better within four standard errors;
    # a 12 % loss that could be 8 % within four errors: both looked at again. The same
    # with smaller errors: settled.
    state, _ = position()
    draw, take = state.legal_actions()[:2]
    near = {draw: _estimate(0.0), take: _estimate(-0.5)}
    best = Decision(0, 1, draw, near, {(draw, take): (0.0, 1.0)})
    assert best.loss == 0.0
    assert best.possible_loss == pytest.approx(0.025 * (-0.5 + SETTLE))
    assert not best.unsettled
    unsure = Decision(0, 1, draw, near, {(draw, take): (0.0, 3.5)})
    assert unsure.unsettled
    assert unsure.grade is Grade.BEST
    flaw = {draw: _estimate(0.0), take: _estimate(4.8)}
    sure = Decision(0, 1, draw, flaw, {(draw, take): (0.0, 0.15)})
    assert sure.sure_loss == pytest.approx(0.025 * (4.8 - 0.15 * SETTLE))
    assert not sure.unsettled
    loose = Decision(0, 1, draw, flaw, {(draw, take): (0.0, 0.8)})
    assert loose.unsettled
    assert sure.grade is loose.grade is Grade.MISTAKE


def _estimate(margin: float) -> Estimate:
    return Estimate(0.3, margin, 0.01, 1.0, 32)
