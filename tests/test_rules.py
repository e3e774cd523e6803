"""Rules validation and the deal."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import pytest
from conftest import rules_id

from coloretto.engine import (
    COLOURS,
    Card,
    Edition,
    GameState,
    Rules,
    Scoring,
    Variant,
    deal,
    new_game,
)
from coloretto.engine.record import RulesForm

# ----------------------------------------------------------------- rules


@pytest.mark.parametrize(
    ("players", "colours", "capacities"),
    [
        (2, 5, (1, 2, 3)),
        (3, 6, (3, 3, 3)),
        (4, 7, (3, 3, 3, 3)),
        (5, 7, (3, 3, 3, 3, 3)),
    ],
)
def test_player_counts_set_colours_and_rows(players, colours, capacities):
    rules = Rules(players=players)
    assert rules.seats == players
    assert rules.colour_count == colours
    assert rules.row_capacities == capacities
    assert rules.takes_per_round == 1
    assert rules.plus_colours == 3
    assert rules.starting_cards == (2 if players == 2 else 1)


def test_four_rows_variant_layout():
    rules = Rules(players=2, variant="four-rows")
    assert rules.seats == 2
    assert rules.colour_count == 7
    assert rules.row_capacities == (3, 3, 3, 3)
    assert rules.takes_per_round == 2
    assert rules.plus_colours == 4
    assert rules.starting_cards == 2


def test_ghost_variant_layout():
    rules = Rules(players=2, variant="ghost")
    assert rules.seats == 4
    assert rules.colour_count == 7
    assert rules.row_capacities == (3, 3, 3, 3)
    assert rules.takes_per_round == 1
    assert rules.plus_colours == 3
    assert rules.starting_cards == 1
    assert [rules.controller(s) for s in range(4)] == [0, 1, 0, 1]
    assert rules.player_totals((4, 8, 26, 21)) == (4, 8)  # a ghost's points are its own


def test_standard_controller_is_the_seat():
    rules = Rules(players=5)
    assert [rules.controller(s) for s in range(5)] == [0, 1, 2, 3, 4]
    assert rules.player_totals((1, 2, 3, 4, 5)) == (1, 2, 3, 4, 5)


def test_defaults():
    rules = Rules()
    assert (rules.players, rules.scoring, rules.edition, rules.variant, rules.games) == (
        4,
        Scoring.BROWN,
        Edition.CLASSIC,
        Variant.STANDARD,
        1,
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 6}, "players must be 2 to 5, not 6"),
        ({"players": 1}, "players must be 2 to 5, not 1"),
        ({"players": 0}, "players must be 2 to 5, not 0"),
        ({"players": "3"}, "players must be a whole number"),
        ({"players": True}, "players must be a whole number"),
        ({"players": 3, "variant": "ghost"}, "the ghost variant is for 2 players, not 3"),
        ({"players": 4, "variant": "four-rows"}, "the four-rows variant is for 2 players, not 4"),
        ({"games": 0}, "games must be 1 to 99, not 0"),
        ({"games": 100}, "games must be 1 to 99, not 100"),
        ({"games": 2.5}, "games must be a whole number"),
        ({"scoring": "purple"}, "scoring must be one of brown, gray, not 'purple'"),
        ({"edition": "deluxe"}, "edition must be one of classic, anniversary, not 'deluxe'"),
        ({"variant": "solo"}, "variant must be one of standard, four-rows, ghost, not 'solo'"),
    ],
)
def test_invalid_rules_raise_value_error_with_a_clear_message(kwargs, message):
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        Rules(**kwargs)


def test_strings_are_accepted_for_enums():
    rules = Rules(players=2, scoring="gray", edition="anniversary", variant="four-rows")
    assert rules.scoring is Scoring.GRAY
    assert rules.edition is Edition.ANNIVERSARY
    assert rules.variant is Variant.FOUR_ROWS
    assert rules == Rules(
        players=2, scoring=Scoring.GRAY, edition=Edition.ANNIVERSARY, variant=Variant.FOUR_ROWS
    )


def test_rules_are_immutable_and_hashable():
    rules = Rules(players=3)
    with pytest.raises(AttributeError):
        rules.players = 4  # type: ignore[misc]
    assert {rules: 1}[Rules(players=3)] == 1


def test_rules_form_is_plain_json_values():
    rules = Rules(players=2, scoring="gray", edition="anniversary", variant="ghost", games=3)
    assert RulesForm.of(rules).to_json() == {
        "players": 2,
        "scoring": "gray",
        "edition": "anniversary",
        "variant": "ghost",
        "games": 3,
    }
    assert Rules(**RulesForm.of(rules).to_json()) == rules  # type: ignore[arg-type]


def test_scoring_tables_match_the_rule_book():
    assert Scoring.BROWN.table == (0, 1, 3, 6, 10, 15, 21)
    assert Scoring.GRAY.table == (0, 1, 4, 8, 7, 6, 5)


def test_card_names():
    assert [c.text for c in COLOURS] == [
        "blue",
        "brown",
        "gray",
        "green",
        "orange",
        "pink",
        "yellow",
    ]
    assert Card.JOKER.text == "joker"
    assert Card.GOLDEN_JOKER.text == "golden-joker"
    assert Card.PLUS2.text == "+2"
    assert Card.LAST_ROUND.text == "last-round"
    for card in Card:
        assert Card.from_text(card.text) is card
    assert Card.from_text(" Blue ") is Card.BLUE
    with pytest.raises(ValueError, match="unknown card 'purple'"):
        Card.from_text("purple")


# ------------------------------------------------------------------ deal

RULES_FOR_DEAL = [
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=5),
    Rules(players=5, edition="anniversary"),
    Rules(players=3, edition="anniversary"),
    Rules(players=2, variant="four-rows"),
    Rules(players=2, variant="ghost", edition="anniversary"),
]


@pytest.mark.parametrize("rules", RULES_FOR_DEAL, ids=rules_id)
def test_same_rules_and_seed_give_the_same_deal(rules):
    assert deal(rules, 17) == deal(rules, 17)
    assert deal(rules, "abc") == deal(rules, "abc")
    a, b = new_game(rules, seed=99), new_game(rules, seed=99)
    assert a.setup == b.setup


@pytest.mark.parametrize("rules", RULES_FOR_DEAL, ids=rules_id)
def test_different_seeds_give_different_deals(rules):
    decks = {deal(rules, seed).deck for seed in range(10)}
    assert len(decks) == 10


@pytest.mark.parametrize("rules", RULES_FOR_DEAL, ids=rules_id)
def test_deal_is_a_valid_setup(rules):
    for seed in range(5):
        setup = deal(rules, seed)
        setup.check(rules)  # raises if invalid
        assert setup.seed == seed


@pytest.mark.parametrize("rules", RULES_FOR_DEAL, ids=rules_id)
def test_starting_cards_are_all_different_colours(rules):
    for seed in range(20):
        setup = deal(rules, seed)
        assert len(setup.starting) == rules.seats
        dealt = [card for hand in setup.starting for card in hand]
        assert all(len(hand) == rules.starting_cards for hand in setup.starting)
        assert all(card.is_colour for card in dealt)
        assert len(set(dealt)) == len(dealt)
        assert not set(dealt) & set(setup.removed)


def test_two_players_start_with_four_distinct_colours():
    for seed in range(20):
        setup = deal(Rules(players=2), seed)
        assert [len(hand) for hand in setup.starting] == [2, 2]
        assert len({c for hand in setup.starting for c in hand}) == 4


@pytest.mark.parametrize(("players", "removed"), [(2, 2), (3, 1), (4, 0), (5, 0)])
def test_removed_colours_never_appear(players, removed):
    rules = Rules(players=players)
    removed_seen = set()
    for seed in range(20):
        setup = deal(rules, seed)
        assert len(setup.removed) == removed
        assert len(set(setup.removed)) == removed
        assert all(c.is_colour for c in setup.removed)
        removed_seen.update(setup.removed)
        in_game = set(setup.deck) | {c for hand in setup.starting for c in hand}
        assert not in_game & set(setup.removed)
        game = new_game(rules, seed)
        assert set(game.colours) == set(COLOURS) - set(setup.removed)
        assert len(game.colours) == rules.colour_count
        assert game.removed_colours == setup.removed
    if removed:
        assert len(removed_seen) > removed  # the removed colours are random


@pytest.mark.parametrize("rules", RULES_FOR_DEAL, ids=rules_id)
def test_last_round_card_has_exactly_15_cards_below(rules):
    for seed in range(10):
        deck = deal(rules, seed).deck
        assert deck.count(Card.LAST_ROUND) == 1
        assert len(deck) - 1 - deck.index(Card.LAST_ROUND) == 15


@pytest.mark.parametrize("rules", RULES_FOR_DEAL, ids=rules_id)
def test_deck_composition(rules):
    setup = deal(rules, 3)
    cards = Counter(c for c in setup.deck if c is not Card.LAST_ROUND)
    cards += Counter(c for hand in setup.starting for c in hand)
    in_play = [c for c in COLOURS if c not in setup.removed]
    assert len(in_play) == rules.colour_count
    for colour in in_play:
        assert cards[colour] == 9
    assert cards[Card.PLUS2] == 10
    if rules.edition is Edition.ANNIVERSARY:
        assert cards[Card.JOKER] == 2
        assert cards[Card.GOLDEN_JOKER] == 1
    else:
        assert cards[Card.JOKER] == 3
        assert cards[Card.GOLDEN_JOKER] == 0
    assert sum(cards.values()) == 9 * rules.colour_count + 13


def test_deck_sizes_per_player_count():
    # all cards minus the starting cards, plus the Last Round card
    assert len(deal(Rules(players=2), 1).deck) == 5 * 9 + 13 - 4 + 1
    assert len(deal(Rules(players=3), 1).deck) == 6 * 9 + 13 - 3 + 1
    assert len(deal(Rules(players=4), 1).deck) == 7 * 9 + 13 - 4 + 1
    assert len(deal(Rules(players=5), 1).deck) == 7 * 9 + 13 - 5 + 1


@pytest.mark.parametrize("rules", RULES_FOR_DEAL, ids=rules_id)
def test_first_player_varies_with_the_seed(rules):
    firsts = {deal(rules, seed).first_player for seed in range(30)}
    assert firsts <= set(range(rules.seats))
    assert len(firsts) > 1
    assert firsts != {0}


def test_first_player_can_be_chosen():
    assert deal(Rules(players=4), 5, first_player=2).first_player == 2
    first = deal(Rules(players=4), 5).first_player
    assert new_game(Rules(players=4), seed=5).current_player == first


def test_new_game_starts_with_the_starting_cards():
    rules = Rules(players=3)
    game = new_game(rules, seed=8)
    setup = game.setup
    for seat, hand in enumerate(setup.starting):
        assert game.collection(seat) == dict(Counter(hand))
    assert game.round == 1
    assert not game.last_round
    assert game.rows == ((), (), ())
    assert game.deck_size == len(setup.deck) - 1
    assert game.cards_before_last_round == len(setup.deck) - 16
    assert game.history() == ()
    assert game.last_move is None


def test_setup_check_rejects_bad_deals():
    rules = Rules(players=3)
    good = deal(rules, 1)
    deck = list(good.deck)
    i = deck.index(Card.LAST_ROUND)
    deck[i], deck[i + 1] = deck[i + 1], deck[i]
    with pytest.raises(ValueError, match="15 cards below it, not 14"):
        GameState.from_setup(rules, replace(good, deck=tuple(deck)))
    with pytest.raises(ValueError, match="do not match"):
        GameState.from_setup(rules, replace(good, deck=good.deck[1:]))
    with pytest.raises(ValueError, match="first player"):
        GameState.from_setup(rules, replace(good, first_player=3))
    with pytest.raises(ValueError, match="different colours"):
        GameState.from_setup(rules, replace(good, starting=(good.starting[0],) * 3))
    with pytest.raises(ValueError, match="removed"):
        GameState.from_setup(rules, replace(good, removed=()))
