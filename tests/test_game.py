"""Turn rules, rounds, the Last Round card, immutability, text forms and player views."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import (
    ALL_RULES,
    cards_consumed,
    draw_is_next,
    play_out,
    random_play,
    rules_id,
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
    PlayerView,
    Rules,
    deal,
    new_game,
)
from coloretto.engine.setup import full_deck

B, G, Y = Card.BLUE, Card.GREEN, Card.ORANGE
TOP = (B, G, Y, B, G, Y, B, G, Y, B, G, Y)


def three_players() -> GameState:
    """3 players, seat 0 first, the deck starting blue, green, yellow, blue..."""
    return start(Rules(players=3), top=TOP, first_player=0)


def draw_place(state: GameState, row: int) -> GameState:
    """Draw and place on ``row`` (1-based, as in the text form)."""
    return state.apply("draw").apply(f"place {row}")


def all_actions() -> list[Action]:
    """Every action value there is (rows 1-5), legal or not."""
    return [DRAW] + [Action.place(r) for r in range(5)] + [Action.take(r) for r in range(5)]


# ------------------------------------------------------------- turn rules


def test_a_turn_starts_with_draw_only_when_no_row_can_be_taken():
    game = three_players()
    assert game.current_player == 0
    assert game.legal_actions() == (DRAW,)


def test_after_a_draw_the_only_legal_actions_are_placements():
    game = three_players().apply(DRAW)
    assert game.drawn_card is B
    assert game.current_player == 0  # still seat 0's turn
    assert game.legal_actions() == (Action.place(0), Action.place(1), Action.place(2))
    with pytest.raises(IllegalAction, match="already drawn"):
        game.apply(DRAW)
    with pytest.raises(IllegalAction, match="place the drawn card"):
        game.apply("take 1")


def test_placing_puts_the_card_on_the_row_and_passes_the_turn():
    game = draw_place(three_players(), 2)
    assert game.rows == ((), (B,), ())
    assert game.drawn_card is None
    assert game.current_player == 1
    assert game.legal_actions() == (DRAW, Action.take(1))
    assert game.deck_size == three_players().deck_size - 1


def test_place_without_a_drawn_card_is_illegal():
    with pytest.raises(IllegalAction, match="draw a card first"):
        three_players().apply("place 1")


def test_cannot_place_on_a_full_row():
    game = three_players()
    for _ in range(3):
        game = draw_place(game, 2)
    assert game.rows[1] == (B, G, Y)
    game = game.apply(DRAW)
    assert Action.place(1) not in game.legal_actions()
    with pytest.raises(IllegalAction, match=r"^row 2 is full$"):
        game.apply("place 2")


def test_cannot_place_on_or_take_a_row_taken_this_round():
    game = draw_place(three_players(), 3)
    game = game.apply("take 3")  # seat 1 takes row 3
    assert game.rows_taken == (False, False, True)
    assert game.current_player == 2
    with pytest.raises(IllegalAction, match=r"^row 3 was taken this round$"):
        game.apply("take 3")
    drawn = game.apply(DRAW)
    assert Action.place(2) not in drawn.legal_actions()
    with pytest.raises(IllegalAction, match=r"^row 3 was taken this round$"):
        drawn.apply("place 3")


def test_cannot_take_an_empty_row():
    game = three_players()
    with pytest.raises(IllegalAction, match=r"^row 1 is empty$"):
        game.apply("take 1")
    game = draw_place(game, 2)
    with pytest.raises(IllegalAction, match=r"^row 3 is empty$"):
        game.apply("take 3")


def test_taking_a_row_moves_its_cards_to_the_collection():
    game = three_players()
    before = game.collection(2)
    game = draw_place(draw_place(game, 1), 1)  # seats 0 and 1 put blue, green on row 1
    game = game.apply("take 1")  # seat 2
    after = Counter(before) + Counter({B: 1, G: 1})
    assert game.collection(2) == dict(after)
    assert game.rows[0] == ()
    assert game.takes_this_round == (0, 0, 1)
    assert game.seats_out == (False, False, True)


def test_must_take_when_every_open_row_is_full():
    game = three_players()
    for row in (1, 2, 3) * 3:
        game = draw_place(game, row)
    assert all(len(row) == 3 for row in game.rows)
    assert game.legal_actions() == (Action.take(0), Action.take(1), Action.take(2))
    with pytest.raises(IllegalAction, match="take a row"):
        game.apply(DRAW)


def test_must_take_when_the_open_rows_that_are_not_full_are_taken():
    game = three_players()
    for row in (1, 2, 3, 1, 2, 1):  # row 1 full, row 2 two cards, row 3 one card
        game = draw_place(game, row)
    game = game.apply("take 3")  # seat 0 takes row 3
    game = draw_place(game, 2)  # seat 1 fills row 2
    assert game.current_player == 2
    assert game.legal_actions() == (Action.take(0), Action.take(1))
    assert not game.is_legal(DRAW)


def test_must_draw_when_no_row_can_be_taken():
    game = draw_place(three_players(), 1).apply("take 1")
    assert game.current_player == 2
    assert game.rows == ((), (), ())
    assert game.legal_actions() == (DRAW,)


def test_last_seat_left_keeps_drawing_while_a_row_has_room():
    game = draw_place(three_players(), 1).apply("take 1")  # seat 1 is out
    game = draw_place(game, 2).apply("take 2")  # seat 2 places, seat 0 takes: out
    assert game.seats_out == (True, True, False)
    assert game.current_player == 2
    for n in range(1, 4):
        assert game.legal_actions()[0] == DRAW
        game = draw_place(game, 3)
        assert game.current_player == 2  # nobody else moves
        assert len(game.rows[2]) == n
    assert game.legal_actions() == (Action.take(2),)


def test_round_ends_when_everyone_took_and_the_last_taker_starts():
    game = draw_place(three_players(), 1).apply("take 1")  # seat 1 out
    game = draw_place(game, 2)  # seat 2 places
    game = draw_place(game, 3)  # seat 0 places
    assert game.round == 1
    game = game.apply("take 2")  # seat 2 takes row 2
    assert game.current_player == 0
    game = game.apply("take 3")  # seat 0 takes the last row
    assert game.round == 2
    assert game.current_player == 0
    assert game.rows == ((), (), ())
    assert game.rows_taken == (False, False, False)
    assert game.takes_this_round == (0, 0, 0)
    assert game.seats_out == (False, False, False)
    assert game.legal_actions() == (DRAW,)
    assert not game.is_over


@pytest.mark.parametrize("rules", [r for r in ALL_RULES if r.variant != "four-rows"], ids=rules_id)
def test_a_seat_that_took_never_moves_again_that_round(rules):
    rng = random.Random(rules_id(rules))
    for seed in range(3):
        game = new_game(rules, seed)
        took: set[int] = set()
        round_ = game.round
        while not game.is_over:
            assert game.current_player not in took
            action = rng.choice(game.legal_actions())
            if action.kind is ActionKind.TAKE:
                took.add(game.current_player)
            game = game.apply(action)
            if game.round != round_:
                assert took == set(range(rules.seats))  # everyone took, then a new round
                round_, took = game.round, set()
                # the seat that took the last row starts the new round
                assert game.current_player == game.last_move.player
                assert all(not row for row in game.rows)
        assert took == set(range(rules.seats))  # the last round ended the same way


def test_play_goes_around_the_table_in_order():
    game = start(Rules(players=5), first_player=3)
    seen = []
    for _ in range(5):
        seen.append(game.current_player)
        game = draw_place(game, 1 + len(seen) % 5)
    assert seen == [3, 4, 0, 1, 2]


# ----------------------------------------------------- errors, immutability


def test_illegal_action_is_a_value_error_and_leaves_the_state_unchanged():
    game = draw_place(three_players(), 1)
    rows, legal, history, player = game.rows, game.legal_actions(), game.history(), 1
    with pytest.raises(ValueError, match="row 2 is empty"):
        game.apply("take 2")
    assert issubclass(IllegalAction, ValueError)
    assert game.rows == rows
    assert game.legal_actions() == legal
    assert game.history() == history
    assert game.current_player == player


def test_apply_returns_a_new_state_and_never_changes_the_old_one():
    game = three_players()
    drawn = game.apply(DRAW)
    assert drawn is not game
    assert game.drawn_card is None
    assert game.legal_actions() == (DRAW,)
    placed = drawn.apply("place 1")
    assert drawn.drawn_card is B
    assert drawn.rows == ((), (), ())
    taken = placed.apply("take 1")
    assert placed.rows == ((B,), (), ())
    assert placed.collection(1) == game.collection(1)
    assert taken.collection(1) != game.collection(1)
    # the same state can be continued in two different ways
    other = drawn.apply("place 3")
    assert other.rows == ((), (), (B,))
    assert placed.rows == ((B,), (), ())
    assert len(game.history()) == 0
    assert len(drawn.history()) == 1


def test_states_cannot_be_modified_or_built_directly():
    game = three_players()
    with pytest.raises(TypeError):
        GameState()
    with pytest.raises((AttributeError, TypeError)):
        game.rows = ()  # type: ignore[misc]


@pytest.mark.parametrize("rules", ALL_RULES[::3], ids=rules_id)
def test_is_legal_agrees_with_legal_actions(rules):
    rng = random.Random(7)
    game = new_game(rules, seed=11)
    actions = all_actions()
    while not game.is_over:
        legal = set(game.legal_actions())
        assert legal == {a for a in actions if game.is_legal(a)}
        assert len(legal) == len(game.legal_actions())  # no duplicates
        game = game.apply(rng.choice(game.legal_actions()))
    assert game.legal_actions() == ()
    assert not any(game.is_legal(a) for a in actions)


def test_every_action_after_the_end_is_refused():
    game = play_out(new_game(Rules(players=3), seed=2))
    assert game.is_over
    for action in ("draw", "place 1", "take 1"):
        with pytest.raises(IllegalAction, match="the game is over"):
            game.apply(action)


# --------------------------------------------------------------- text forms


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("draw", DRAW),
        ("place 1", Action.place(0)),
        ("place 5", Action.place(4)),
        ("take 2", Action.take(1)),
        ("  take   3 ", Action.take(2)),
    ],
)
def test_action_parse_and_str(text, action):
    assert Action.parse(text) == action
    assert Action.parse(str(action)) == action
    assert str(action) == " ".join(text.split())


def test_action_values():
    assert Action.take(0) == Action(ActionKind.TAKE, 0)
    assert Action.place(2).row == 2
    assert DRAW.row is None
    assert str(Action.take(0)) == "take 1"
    with pytest.raises(ValueError, match="draw takes no row"):
        Action(ActionKind.DRAW, 1)
    with pytest.raises(ValueError, match="row index"):
        Action.take(5)
    with pytest.raises(ValueError, match="row index"):
        Action.place(-1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("take 9", "rows are numbered 1 to 5"),
        ("take 0", "rows are numbered 1 to 5"),
        ("place x", "the row must be a number"),
        ("take -1", "the row must be a number"),
        ("jump", "is not an action"),
        ("draw 2", "is not an action"),
        ("take", "is not an action"),
        ("", "is not an action"),
    ],
)
def test_bad_action_text(text, message):
    with pytest.raises(ValueError, match=message):
        Action.parse(text)
    with pytest.raises(IllegalAction, match=message):
        three_players().apply(text)


def test_apply_accepts_text():
    game = three_players()
    a = game.apply("draw").apply("place 2").apply("take 2")
    b = game.apply(DRAW).apply(Action.place(1)).apply(Action.take(1))
    assert a.rows == b.rows
    assert a.collection(1) == b.collection(1)
    assert a.history() == b.history()


def test_a_row_the_table_does_not_have_is_illegal():
    game = three_players()
    with pytest.raises(IllegalAction, match="there is no row 4"):
        game.apply("take 4")
    with pytest.raises(IllegalAction, match="there is no row 5"):
        game.apply(DRAW).apply(Action.place(4))


def test_history_records_every_move():
    game = draw_place(three_players(), 1).apply("take 1")
    assert game.history() == (
        Move(0, DRAW, B, False),
        Move(0, Action.place(0)),
        Move(1, Action.take(0)),
    )
    assert game.last_move == Move(1, Action.take(0))


# ------------------------------------------------------- the Last Round card


def at_last_round_card(rules: Rules, seed: int) -> GameState:
    """A game at a turn where the next card drawn is the Last Round card."""
    game = random_play(new_game(rules, seed), random.Random(seed), until=draw_is_next(0))
    assert game.cards_before_last_round == 0
    return game


@pytest.mark.parametrize("rules", ALL_RULES[::2], ids=rules_id)
def test_drawing_the_last_round_card(rules):
    game = at_last_round_card(rules, seed=4)
    deck = game.setup.deck
    at = deck.index(Card.LAST_ROUND)
    player, size = game.current_player, game.deck_size
    assert not game.last_round
    drawn = game.apply(DRAW)
    assert drawn.last_round
    assert drawn.cards_before_last_round is None
    assert drawn.current_player == player  # the same player goes on
    assert drawn.drawn_card is deck[at + 1]  # holding the card after it
    assert drawn.drawn_card is not Card.LAST_ROUND
    assert drawn.deck_size == size - 1 == 14
    assert drawn.last_move == Move(player, DRAW, deck[at + 1], True)
    assert drawn.history()[-1].last_round
    assert not any(m.last_round for m in drawn.history()[:-1])
    assert all(Card.LAST_ROUND not in c for c in map(drawn.collection, range(rules.seats)))
    assert drawn.legal_actions()
    assert all(a.kind is ActionKind.PLACE for a in drawn.legal_actions())


@pytest.mark.parametrize("rules", ALL_RULES[1::2], ids=rules_id)
def test_the_game_ends_exactly_when_the_last_round_ends(rules):
    game = at_last_round_card(rules, seed=9).apply(DRAW)
    round_ = game.round
    rng = random.Random(1)
    while not game.is_over:
        with pytest.raises(ValueError, match="not over"):
            game.final_scores()
        assert game.round == round_
        before = game
        game = game.apply(rng.choice(game.legal_actions()))
    # the move that ended the game was the take that ended the round
    assert before.last_round
    assert game.last_move.action.kind is ActionKind.TAKE
    assert all(game.seats_out)
    assert game.round == round_
    assert game.legal_actions() == ()
    assert game.final_scores() == game.scores()
    assert len(game.final_scores()) == rules.seats


def test_final_scores_raises_before_the_end():
    game = new_game(Rules(players=4), seed=1)
    with pytest.raises(ValueError, match="the game is not over yet"):
        game.final_scores()
    assert game.scores() == (1, 1, 1, 1)  # one starting card each


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_random_games_finish_with_every_card_accounted_for(rules):
    for seed in range(2):
        game = play_out(new_game(rules, seed), seed)
        assert game.is_over
        assert game.last_round
        total = Counter(game.unseen()) + Counter(game.discards)
        for seat in range(rules.seats):
            total += Counter(game.collection(seat))
        for row in game.rows:
            total += Counter(row)
        assert total == full_deck(rules, game.setup.removed)
        outcome = game.outcome()
        assert outcome is not None
        assert max(outcome.totals) == game.final_scores()[outcome.winners[0]]


# ------------------------------------------------------------------- views


def undrawn(state: GameState) -> list[Card]:
    return [c for c in state.setup.deck[cards_consumed(state) :] if c is not Card.LAST_ROUND]


def public(view: PlayerView | GameState) -> tuple[object, ...]:
    seats = view.rules.seats
    return (
        view.current_player,
        view.is_over,
        view.round,
        view.rows,
        view.row_capacities,
        view.rows_taken,
        view.takes_this_round,
        view.seats_out,
        view.drawn_card,
        view.deck_size,
        view.cards_before_last_round,
        view.last_round,
        view.colours,
        view.removed_colours,
        view.discards,
        view.last_move,
        view.history(),
        view.unseen(),
        view.legal_actions(),
        view.scores(),
        tuple(view.collection(s) for s in range(seats)),
        tuple(view.score_breakdown(s) for s in range(seats)),
    )


def mid_game(rules: Rules, seed: int, steps: int) -> GameState:
    return random_play(new_game(rules, seed), random.Random(seed), steps=steps)


def test_view_hides_the_deck_order():
    view = new_game(Rules(players=3), seed=5).view(1)
    assert view.seat == 1
    names = {n for n in dir(view) if not n.startswith("_")}
    assert not names & {"setup", "deck", "with_deck_order", "shuffled", "seed"}
    with pytest.raises(ValueError, match="no seat 3"):
        new_game(Rules(players=3), seed=5).view(3)


@pytest.mark.parametrize("rules", ALL_RULES[::2], ids=rules_id)
def test_view_shows_the_public_state(rules):
    for steps in (0, 7, 40, 10_000):
        game = mid_game(rules, 3, steps)
        view = game.view(game.current_player)
        assert public(view) == public(game)
        assert view.rules == rules


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_unseen_is_the_undrawn_cards_without_the_last_round_card(rules):
    for steps in (0, 1, 25, 60, 10_000):
        game = mid_game(rules, 8, steps)
        assert game.unseen() == dict(Counter(undrawn(game)))
        assert Card.LAST_ROUND not in game.unseen()
        assert sum(game.unseen().values()) == game.deck_size
        # independently: every card of the game minus the ones in sight
        seen = Counter(game.discards)
        for seat in range(rules.seats):
            seen += Counter(game.collection(seat))
        for row in game.rows:
            seen += Counter(row)
        if game.drawn_card is not None:
            seen[game.drawn_card] += 1
        assert game.unseen() == dict(full_deck(rules, game.setup.removed) - seen)


@pytest.mark.parametrize("rules", ALL_RULES[::2], ids=rules_id)
def test_sample_is_consistent_with_the_view(rules):
    for steps in (0, 5, 33, 90):
        game = mid_game(rules, 21, steps)
        view = game.view(0)
        orders = set()
        for s in range(4):
            guess = view.sample(random.Random(s))
            assert public(guess) == public(game)
            assert guess.rules == rules
            deck, real = guess.setup.deck, game.setup.deck
            used = cards_consumed(game)
            assert deck[:used] == real[:used]  # the drawn part is known
            assert deck.index(Card.LAST_ROUND) == real.index(Card.LAST_ROUND)
            assert sorted(undrawn(guess)) == sorted(undrawn(game))
            orders.add(tuple(undrawn(guess)))
            # the sample can be played on to the end
            assert play_out(guess, s).is_over
        if len(undrawn(game)) > 3 and len(set(undrawn(game))) > 1:
            assert len(orders) > 1  # the hidden order is really shuffled


def test_sample_does_not_depend_on_the_hidden_deck_order():
    rules = Rules(players=4, edition="anniversary")
    a = mid_game(rules, 6, 12)
    hidden = undrawn(a)
    b = a.with_deck_order(list(reversed(hidden)))
    assert undrawn(b) != hidden
    assert b.setup.deck != a.setup.deck
    assert public(a.view(2)) == public(b.view(2))
    for seed in range(2):
        sa, sb = a.view(2).sample(random.Random(seed)), b.view(2).sample(random.Random(seed))
        assert sa.setup.deck == sb.setup.deck
        ra, rb = random.Random(seed), random.Random(seed)
        while not sa.is_over:
            action = ra.choice(sa.legal_actions())
            assert action == rb.choice(sb.legal_actions())
            sa, sb = sa.apply(action), sb.apply(action)
            assert public(sa) == public(sb)
        assert sb.is_over


def test_sample_does_not_reveal_the_seed_of_the_real_deal():
    # A bot sees only its view; a sample must not carry anything that gives
    # the real deck order away, such as the seed it was dealt from.
    rules = Rules(players=3)
    game = mid_game(rules, 31, 10)
    guess = game.view(1).sample(random.Random(0))
    seed = guess.setup.seed
    assert seed is None or deal(rules, seed).deck != game.setup.deck


def test_with_deck_order_requires_the_undrawn_cards():
    game = mid_game(Rules(players=3), 2, 10)
    rest = undrawn(game)
    with pytest.raises(ValueError, match="undrawn cards"):
        game.with_deck_order(rest[1:])
    with pytest.raises(ValueError, match="undrawn cards"):
        game.with_deck_order([*rest[1:], Card.PLUS2 if rest[0] != Card.PLUS2 else Card.BLUE])
    same = game.with_deck_order(rest)
    assert same.setup.deck == game.setup.deck
