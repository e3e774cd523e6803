"""How the search bot values a round's end: score, prospects, and the junk still to come."""

from __future__ import annotations

import random

import pytest

from coloretto.bots.evaluation import junk_cost
from coloretto.bots.registry import BotError, make_bot
from coloretto.bots.search import _values
from coloretto.engine import GameState, Rules, new_game

GRAY = (0, 1, 4, 8, 7, 6, 5)


def _positions(rules: Rules, games: int) -> list[GameState]:
    """Every fifth position of random games."""
    found = []
    rng = random.Random(7)
    for seed in range(games):
        state = new_game(rules, seed=seed)
        while not state.is_over:
            if len(state.history()) % 5 == 0:
                found.append(state)
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
    return found


def test_a_second_or_third_card_of_a_minus_colour_costs_most_on_the_gray_side() -> None:
    costs = [junk_cost(GRAY, held, 1.0) for held in range(7)]
    assert costs[1] > costs[0] > 0  # the second card costs 3, the first 1
    assert costs[2] > costs[0]
    assert costs[3] < 0  # a fourth card lowers a minus colour's count: -8 to -7
    assert junk_cost(GRAY, 2, 0.0) == 0.0


def test_the_junk_to_come_lowers_a_spread_collection_on_the_gray_side_up_to_four_seats() -> None:
    lowered = 0
    for state in _positions(Rules(players=4, scoring="gray"), 6):
        with_junk, without = _values(state, None, None), _values(state, None, 0.0)
        for seat, (a, b) in enumerate(zip(with_junk, without, strict=True)):
            spread = sorted(state.counts(seat)[:7], reverse=True)[3:]
            if not any(spread):  # three colours or fewer: nothing of it is junk
                assert a == b
            lowered += a < b
    assert lowered > 50
    for rules in (Rules(players=4), Rules(players=5, scoring="gray")):
        for state in _positions(rules, 3):
            assert _values(state, None, None) == _values(state, None, 0.0)


def test_more_junk_to_come_costs_more() -> None:
    state = next(
        s
        for s in _positions(Rules(players=4, scoring="gray"), 4)
        if s.cards_before_last_round and any(sorted(s.counts(0)[:7])[:4])
    )
    light, heavy = _values(state, None, 0.25)[0], _values(state, None, 1.0)[0]
    assert heavy < light


@pytest.mark.parametrize("junk", ["-1", "nan", "lots"])
def test_a_bad_junk_option_names_it(junk: str) -> None:
    with pytest.raises(BotError, match="junk"):
        make_bot(f"search:junk={junk}")
