"""The opponent styles: legal play everywhere, and each behaves as its description says."""

from __future__ import annotations

import math

import pytest
from test_bot_expert import FOUR, SPREAD, START, deal_and_play
from test_bots import ALL_RULES, _positions, _short, play

from coloretto.bots.parametric import ParametricBot
from coloretto.bots.registry import available, make_bot
from coloretto.bots.styles import first_colours, likely_taker
from coloretto.engine import DRAW, Action, Card, GameState, Rules

STYLES = ["builder", "netgain", "taker", "collector", "denial"]


def move(spec: str, state: GameState) -> Action:
    """What ``spec`` plays for the seat to move."""
    seat = state.current_player
    return make_bot(spec, seed=1).choose(state.view(seat), state.legal_actions())


def test_the_styles_are_registered() -> None:
    assert set(STYLES) <= set(available())


@pytest.mark.parametrize("spec", STYLES)
def test_each_style_plays_legal_games_under_every_rules_combination(spec: str) -> None:
    for game, rules in enumerate(ALL_RULES):
        play(rules, [spec, "expert", spec, "greedy", "random"], seed=game)


@pytest.mark.parametrize("rules", ALL_RULES, ids=_short)
def test_each_style_chooses_legally_in_every_kind_of_position(rules: Rules) -> None:
    # The kinds of decision that seldom come up in a game, each put to every style: the
    # positions test_fast_bots_choose_legally_in_every_kind_of_position gives the fast bots.
    for situation, states in _positions(rules).items():
        for i, state in enumerate(states):
            legal = state.legal_actions()
            for spec in STYLES:
                action = make_bot(spec, seed=i).choose(state.view(state.current_player), legal)
                assert action in legal, f"{spec} chose {action} facing {situation} in {state}"


# Round 1 from the expert's tests: each seat fills its own row and takes it. Seat 0 holds
# blue 2, orange 1, green 1; seat 1 pink 2, gray 1, brown 1. Seat 3 opens round 2.
PAIRS = [
    f"{colour}>{row}"
    for colour, row in zip(("blue", "pink", "green", "yellow") * 2, [1, 2, 3, 4] * 2, strict=True)
]
"""From the deal: each seat puts two cards of its starting colour on its own row."""


def test_the_builder_draws_until_every_row_is_full_then_takes_its_best() -> None:
    state = deal_and_play(FOUR, START, PAIRS)  # row 1 (blue, blue) is worth 5 to seat 0
    assert move("builder", state) == DRAW
    full = deal_and_play(FOUR, START, PAIRS + PAIRS[:4])
    assert move("builder", full) == Action.take(0)


def test_the_builder_places_a_wanted_card_on_its_best_row() -> None:
    state = deal_and_play(FOUR, START, [*PAIRS, "draw blue"])
    assert move("builder", state) == Action.place(0)


def test_the_taker_takes_any_row_with_a_positive_gain() -> None:
    state = deal_and_play(FOUR, START, ["blue>1", "pink>2", "green>3", "yellow>4"])
    assert move("taker", state) == Action.take(0)  # one blue card: +2
    assert move("greedy", state) == DRAW  # the project's greedy waits for 3


def test_the_net_gain_player_weighs_the_best_other_seat() -> None:
    # Two blue cards are worth 5 to seat 0 and 3 to any other seat: net 2, taken.
    state = deal_and_play(FOUR, START, PAIRS)
    assert move("netgain", state) == Action.take(0)
    # One blue card: 2 to seat 0, 1 to the others: net 1, not enough.
    state = deal_and_play(FOUR, START, ["blue>1", "pink>2", "green>3", "yellow>4"])
    assert move("netgain", state) == DRAW


def test_the_collector_keeps_to_its_first_three_colours() -> None:
    # Round 2: row 1 holds three pink cards (+4 to seat 0, but pink is not one of its colours).
    state = deal_and_play(
        FOUR, START, [*SPREAD, "pink>1", "green>2", "pink>1", "yellow>2", "pink>1"]
    )
    view = state.view(0)
    assert first_colours(view, 0) == (Card.BLUE, Card.ORANGE, Card.GREEN)
    assert first_colours(view, 1) == (Card.PINK, Card.GRAY, Card.BROWN)
    assert move("taker", state) == Action.take(0)
    assert move("collector", state) == DRAW
    mine = deal_and_play(
        FOUR, START, [*SPREAD, "blue>1", "pink>2", "orange>1", "yellow>2", "pink>3"]
    )
    assert move("collector", mine) == Action.take(0)  # blue and orange: worth 2


def test_the_denial_player_spoils_the_likely_takers_row() -> None:
    # Row 1 holds pink: seat 1 (pink 2) would take it. Orange is as good to seat 0 on
    # either row, but costs seat 1 a point on row 1.
    state = deal_and_play(FOUR, START, [*SPREAD, "pink>1", "draw orange"])
    assert likely_taker(state.view(0)) == 1
    assert move("denial", state) == Action.place(0)
    assert move("builder", state) == Action.place(1)


def test_the_parametric_player_takes_at_its_threshold_or_under_a_threat() -> None:
    # Row 1 holds one blue card: +2 to seat 0; each other seat could gain 2 from its row.
    state = deal_and_play(FOUR, START, ["blue>1", "pink>2", "green>3", "yellow>4"])
    view, legal = state.view(0), state.legal_actions()
    assert ParametricBot(threshold=2).choose(view, legal) == Action.take(0)
    assert ParametricBot(threshold=3).choose(view, legal) == DRAW
    assert ParametricBot(threshold=10, threat=2).choose(view, legal) == Action.take(0)
    assert ParametricBot(threshold=10, threat=3).choose(view, legal) == DRAW


def test_the_parametric_player_waits_while_one_more_card_is_worth_waiting_for() -> None:
    # Row 1 holds one blue card (+2 to seat 0), and every row has room: some unseen
    # cards (blue ones) would make it worth more, so only a tolerant waiter takes now.
    state = deal_and_play(FOUR, START, ["blue>1", "pink>2", "green>3", "yellow>4"])
    view, legal = state.view(0), state.legal_actions()
    assert ParametricBot(threshold=math.inf, wait=0).choose(view, legal) == DRAW
    assert ParametricBot(threshold=math.inf, wait=0.5).choose(view, legal) == DRAW
    assert ParametricBot(threshold=math.inf, wait=3).choose(view, legal) == Action.take(0)
    # Every row is full: no card can come, so waiting is worth nothing.
    full = deal_and_play(FOUR, START, PAIRS + PAIRS[:4])
    view, legal = full.view(0), full.legal_actions()
    assert ParametricBot(threshold=math.inf, wait=0).choose(view, legal) == Action.take(0)


def test_the_parametric_player_places_with_spite_then_by_row_length() -> None:
    # Orange is as good to seat 0 on any row, but costs seat 1 (pink) a point on row 1.
    state = deal_and_play(FOUR, START, [*SPREAD, "pink>1", "draw orange"])
    view, legal = state.view(0), state.legal_actions()
    assert ParametricBot(spite=1, longer=False).choose(view, legal) == Action.place(0)
    assert ParametricBot(spite=1, victim="next").choose(view, legal) == Action.place(0)
    assert ParametricBot(longer=False).choose(view, legal) == Action.place(1)
    assert ParametricBot(longer=True).choose(view, legal) == Action.place(0)


def test_the_parametric_player_plays_legal_games_under_every_rules_combination() -> None:
    players = [ParametricBot(threshold=2, threat=4, spite=2, victim="next"), "expert"]
    for game, rules in enumerate(ALL_RULES):
        play(rules, [*players, ParametricBot(spite=1, longer=False), "greedy", "random"], game)
