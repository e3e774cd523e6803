"""The golden joker, the 2-player game, the four-rows and ghost variants, and an empty deck."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import (
    draw_is_next,
    first_take,
    make_setup,
    play_out,
    play_to_last_round_card,
    random_play,
    spread_place,
    start,
)

from coloretto.engine import (
    DRAW,
    Action,
    ActionKind,
    Card,
    GameState,
    IllegalAction,
    Move,
    Rules,
    Setup,
    new_game,
    score,
)

GOLD = Card.GOLDEN_JOKER
PLUS2 = Card.PLUS2


def draw_place(state: GameState, row: int) -> GameState:
    return state.apply("draw").apply(f"place {row}")


def gained(before: GameState, after: GameState, seat: int) -> Counter[Card]:
    return Counter(after.collection(seat)) - Counter(before.collection(seat))


# ------------------------------------------------------------ golden joker


def test_taking_the_golden_joker_draws_the_top_card_into_the_collection():
    rules = Rules(players=3, edition="anniversary")
    game = start(rules, top=(GOLD, Card.GREEN, PLUS2, Card.ORANGE), first_player=0)
    game = draw_place(game, 1)  # seat 0 puts the golden joker on row 1
    game = draw_place(game, 1)  # seat 1 adds green
    before = game
    game = game.apply("take 1")  # seat 2 takes it: +2 comes in from the deck
    assert gained(before, game, 2) == Counter({GOLD: 1, Card.GREEN: 1, PLUS2: 1})
    assert game.last_move == Move(2, Action.take(0), PLUS2, False)
    assert game.deck_size == before.deck_size - 1
    assert game.rows == ((), (), ())
    assert not game.last_round
    assert game.current_player == 0
    # the next draw is the card after the bonus card
    assert game.apply(DRAW).drawn_card is Card.ORANGE


def test_taking_a_row_without_the_golden_joker_draws_nothing():
    rules = Rules(players=3, edition="anniversary")
    game = start(rules, top=(Card.GREEN, GOLD, PLUS2), first_player=0)
    game = draw_place(game, 1)
    before = game
    game = game.apply("take 1")
    assert gained(before, game, 1) == Counter({Card.GREEN: 1})
    assert game.last_move == Move(1, Action.take(0), None, False)
    assert game.deck_size == before.deck_size


def test_golden_joker_scores_as_a_joker():
    rules = Rules(players=3, edition="anniversary")
    game = start(rules, top=(GOLD, Card.BROWN), first_player=0)
    game = draw_place(game, 1).apply("take 1")  # seat 1: brown (start), golden joker, brown
    assert game.collection(1) == {Card.BROWN: 2, GOLD: 1}
    assert game.scores()[1] == 6  # 3 brown
    assert game.score_breakdown(1).jokers == (Card.BROWN,)


def test_golden_joker_drawing_the_last_round_card_sets_it_aside_and_draws_again():
    rules = Rules(players=3, edition="anniversary")
    below = (PLUS2, Card.PINK)
    game = start(rules, before_last=(GOLD,), below=below, first_player=0)
    game = random_play(game, random.Random(1), until=draw_is_next(1))
    game = game.apply(DRAW)
    assert game.drawn_card is GOLD
    row = game.legal_actions()[0]
    game = game.apply(row)
    assert game.cards_before_last_round == 0
    taker, size, round_ = game.current_player, game.deck_size, game.round
    before = game
    game = game.apply(Action.take(row.row))
    assert game.last_round
    assert game.cards_before_last_round is None
    assert game.last_move == Move(taker, Action.take(row.row), PLUS2, True)
    assert gained(before, game, taker)[PLUS2] == 1 + before.rows[row.row].count(PLUS2)
    assert Card.LAST_ROUND not in game.collection(taker)
    assert game.deck_size == size - 1 == 14
    assert not game.is_over  # the round goes on, and it is the last
    assert game.apply(DRAW).drawn_card is Card.PINK
    game = play_out(game)
    assert game.is_over
    assert game.round == round_  # that round was the last


def test_golden_joker_with_an_empty_deck_draws_nothing():
    # 5 players: 15 cards below the Last Round card fill the 15 places of the last
    # round exactly, so the golden joker (the 15th card) is taken from an empty deck.
    rules = Rules(players=5, edition="anniversary")
    game = start(rules, bottom=(GOLD,), first_player=0)
    game = play_to_last_round_card(game)
    for _ in range(15):
        game = spread_place(game.apply(DRAW))
    assert game.last_round
    assert game.deck_size == 0
    assert all(len(row) == 3 for row in game.rows)
    row = next(i for i, cards in enumerate(game.rows) if GOLD in cards)
    while GOLD in game.rows[row]:
        assert DRAW not in game.legal_actions()
        action = Action.take(row) if game.is_legal(Action.take(row)) else first_take(game)
        before = game
        game = game.apply(action)
    assert gained(before, game, before.current_player) == Counter(before.rows[row])
    assert game.last_move.card is None
    game = play_out(game)
    assert game.is_over


# ------------------------------------------------------------ empty deck


def test_the_deck_can_run_out_in_the_last_round():
    # 5 players, anniversary: the golden joker comes right after the Last Round
    # card; taking it draws one card too many for the last round.
    rules = Rules(players=5, edition="anniversary")
    game = start(rules, below=(GOLD,), first_player=0)
    game = play_to_last_round_card(game)
    game = draw_place(game, 1)  # the Last Round card, then the golden joker
    assert game.last_round
    assert game.rows[0] == (GOLD,)
    game = draw_place(draw_place(game, 1), 1)
    game = game.apply("take 1")  # the golden joker brings one more card
    assert game.last_move.card is not None
    assert game.deck_size == 11
    for _ in range(11):
        game = spread_place(game.apply(DRAW))
    assert game.deck_size == 0
    assert game.unseen() == {}
    assert [len(row) for row in game.rows] == [0, 3, 3, 3, 2]  # row 5 still has room
    assert not game.is_over
    assert DRAW not in game.legal_actions()
    assert game.legal_actions() == (Action.take(1), Action.take(2), Action.take(3), Action.take(4))
    with pytest.raises(IllegalAction, match="the deck is empty"):
        game.apply(DRAW)
    while not game.is_over:
        assert DRAW not in game.legal_actions()
        game = game.apply(first_take(game))
    assert all(game.seats_out)
    assert len(game.final_scores()) == 5


def test_a_seat_that_can_neither_draw_nor_take_ends_the_game():
    # With a legal deal this cannot quite happen, so the deal is built by hand
    # (bypassing the 15-cards check): two cards after the Last Round card.
    rules = Rules(players=3)
    setup = Setup(
        removed=(Card.YELLOW,),
        starting=((Card.BLUE,), (Card.BROWN,), (Card.GRAY,)),
        deck=(Card.LAST_ROUND, Card.GREEN, Card.PINK),
        first_player=0,
    )
    game = GameState._start(rules, setup)
    game = draw_place(game, 1)  # seat 0: Last Round card, then green
    game = draw_place(game, 1)  # seat 1: pink, the deck is empty
    assert game.deck_size == 0
    assert game.legal_actions() == (Action.take(0),)  # seat 2 can only take
    game = game.apply("take 1")
    # seats 0 and 1 still need a row, but all open rows are empty and so is the deck
    assert game.is_over
    assert game.legal_actions() == ()
    assert game.final_scores() == (1, 1, 3)


# ---------------------------------------------------- 2 players (official)


def test_two_player_rows_hold_one_two_and_three_cards():
    game = new_game(Rules(players=2), seed=1)
    assert game.row_capacities == (1, 2, 3)
    assert len(game.rows) == 3
    game = draw_place(game, 1)
    game = game.apply(DRAW)
    assert Action.place(0) not in game.legal_actions()
    with pytest.raises(IllegalAction, match="row 1 is full"):
        game.apply("place 1")
    game = game.apply("place 2").apply(DRAW).apply("place 2")
    assert Action.place(1) not in game.apply(DRAW).legal_actions()


def test_two_player_round_discards_the_cards_left_on_the_third_row():
    blue, brown, gray, green = Card.BLUE, Card.BROWN, Card.GRAY, Card.GREEN
    rules = Rules(players=2)
    # colours in play with the default removal: blue, brown, gray, green, orange
    game = start(rules, top=(blue, brown, gray, green, PLUS2), first_player=1)
    game = draw_place(game, 3)  # seat 1: blue on row 3
    game = draw_place(game, 3)  # seat 0: brown on row 3
    game = draw_place(game, 1)  # seat 1: gray on row 1
    before = game
    game = game.apply("take 1")  # seat 0 takes gray
    assert gained(before, game, 0) == Counter({gray: 1})
    game = draw_place(game, 2)  # seat 1: green on row 2
    assert game.current_player == 1  # seat 0 is out
    game = game.apply("take 2")  # seat 1 takes: the round ends
    assert game.discards == (blue, brown)
    assert game.rows == ((), (), ())
    assert game.round == 2
    assert game.current_player == 1
    assert game.legal_actions() == (DRAW,)
    assert sum(game.unseen().values()) == game.deck_size


def test_two_player_discards_are_out_of_the_game():
    game = play_out(new_game(Rules(players=2), seed=5), 5)
    assert game.is_over
    total = Counter(game.discards) + Counter(game.unseen())
    for seat in range(2):
        total += Counter(game.collection(seat))
    assert sum(total.values()) == 5 * 9 + 13
    assert len(game.colours) == 5


# ------------------------------------------------------------- four rows


def test_four_rows_each_seat_takes_two_rows_on_separate_turns():
    rules = Rules(players=2, variant="four-rows")
    game = start(rules, first_player=0)
    assert len(game.rows) == 4
    game = draw_place(game, 1)  # seat 0
    game = game.apply("take 1")  # seat 1: first take
    assert game.takes_this_round == (0, 1)
    assert game.seats_out == (False, False)
    assert game.current_player == 0
    game = draw_place(game, 2)  # seat 0
    assert game.current_player == 1  # seat 1 keeps playing after its first take
    assert DRAW in game.legal_actions()
    game = draw_place(game, 3)  # seat 1 draws
    game = game.apply("take 2")  # seat 0: first take
    game = game.apply("take 3")  # seat 1: second take, now out
    assert game.takes_this_round == (1, 2)
    assert game.seats_out == (False, True)
    assert game.rows_taken == (True, True, True, False)
    assert game.current_player == 0
    assert game.legal_actions() == (DRAW,)
    game = draw_place(game, 4)
    assert game.current_player == 0  # seat 1 is out
    assert game.round == 1
    game = game.apply("take 4")
    assert game.round == 2
    assert game.current_player == 0  # took the last row
    assert game.takes_this_round == (0, 0)
    assert game.rows == ((), (), (), ())


def test_four_rows_random_games_take_two_rows_per_seat_each_round():
    rules = Rules(players=2, variant="four-rows")
    for seed in range(4):
        rng = random.Random(seed)
        game = new_game(rules, seed)
        takes = Counter()
        round_ = 1
        while not game.is_over:
            player = game.current_player
            assert takes[player] < 2
            action = rng.choice(game.legal_actions())
            game = game.apply(action)
            if action.kind is ActionKind.TAKE:
                takes[player] += 1
            if game.round != round_ or game.is_over:
                assert takes == Counter({0: 2, 1: 2})
                takes, round_ = Counter(), game.round
        assert len(game.final_scores()) == 2


def test_four_rows_scores_four_plus_colours():
    rules = Rules(players=2, variant="four-rows")
    for seed in range(6):
        game = play_out(new_game(rules, seed), seed)
        for seat in range(2):
            breakdown = game.score_breakdown(seat)
            assert len(breakdown.plus_colours) == min(4, len(breakdown.sets))
            assert breakdown.total == game.final_scores()[seat]
            counts = {c: game.collection(seat).get(c, 0) for c in game.colours}
            jokers = game.collection(seat).get(Card.JOKER, 0)
            jokers += game.collection(seat).get(Card.GOLDEN_JOKER, 0)
            plus2 = game.collection(seat).get(PLUS2, 0)
            assert game.final_scores()[seat] == (
                score(counts, jokers=jokers, plus2=plus2, plus_colours=4).total
            )


def test_four_rows_fourth_colour_scores_plus():
    # seat 1 ends with 4 colours of 2 cards: all plus with 4 plus colours
    rules = Rules(players=2, variant="four-rows")
    g, o, p, y = Card.GREEN, Card.ORANGE, Card.PINK, Card.YELLOW
    game = start(rules, top=(g, o, p, y, g, o), first_player=0)
    # default starting cards: seat 0 blue+brown, seat 1 gray+green
    game = draw_place(game, 1)  # seat 0: green
    game = draw_place(game, 1)  # seat 1: orange
    game = draw_place(game, 1)  # seat 0: pink
    game = game.apply("take 1")  # seat 1 takes green, orange, pink
    assert game.collection(1) == {Card.GRAY: 1, g: 2, o: 1, p: 1}
    breakdown = game.score_breakdown(1)
    assert len(breakdown.plus_colours) == 4
    assert breakdown.total == 3 + 1 + 1 + 1
    assert game.scores()[1] == 6


# ----------------------------------------------------------------- ghosts


def test_ghost_seats_are_moved_by_the_player_opposite():
    rules = Rules(players=2, variant="ghost")
    assert rules.seats == 4
    assert [rules.controller(s) for s in range(4)] == [0, 1, 0, 1]
    game = new_game(rules, seed=3)
    assert len(game.rows) == 4
    assert len(game.setup.starting) == 4
    assert all(len(hand) == 1 for hand in game.setup.starting)
    assert len(game.colours) == 7


def test_ghost_seats_score_on_their_own_and_rank_nowhere():
    rules = Rules(players=2, variant="ghost")
    for seed in range(4):
        game = play_out(new_game(rules, seed), seed)
        scores = game.final_scores()
        assert len(scores) == 4
        outcome = game.outcome()
        assert outcome is not None
        assert outcome.totals == scores[:2]  # individual scoring: each player's own seat
        for seat in range(4):
            assert scores[seat] == game.score_breakdown(seat).total


def test_ghost_turns_go_round_all_four_seats():
    rules = Rules(players=2, variant="ghost")
    game = start(rules, first_player=1)
    order = []
    for row in (1, 2, 3, 4):
        order.append(game.current_player)
        game = draw_place(game, row)
    assert order == [1, 2, 3, 0]
    assert [rules.controller(s) for s in order] == [1, 0, 1, 0]


def test_the_players_totals_are_the_seat_scores_without_ghosts():
    game = play_out(new_game(Rules(players=3), seed=4), 4)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.totals == game.final_scores()


def test_make_setup_helper_builds_valid_deals():
    # guards the helper the scripted tests rely on
    for rules in (Rules(players=5, edition="anniversary"), Rules(players=2, variant="ghost")):
        setup = make_setup(rules, top=(PLUS2,), below=(Card.JOKER,), bottom=(Card.BLUE,))
        deck = setup.deck
        at = deck.index(Card.LAST_ROUND)
        assert deck[0] is PLUS2
        assert deck[at + 1] is Card.JOKER
        assert deck[-1] in (Card.BLUE, GOLD)
        assert len(deck) - at - 1 == 15
