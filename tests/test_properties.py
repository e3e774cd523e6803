"""Property tests of the rules engine: random legal games under every rules combination.

The state machine deals a game under rules drawn from every combination (2-5 players with
the standard layout, the two 2-player variants, both scorings, both editions), plays
random legal actions and checks the engine's invariants after each one. When a game ends
it checks the end of the game, then deals the next one, so one run may cover several games.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations, product
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from coloretto.engine import (
    COLOURS,
    DRAW,
    Action,
    ActionKind,
    Card,
    GameState,
    IllegalAction,
    Move,
    Rules,
    best_total,
    load_record,
    new_game,
    score,
    to_record,
)
from coloretto.engine.setup import full_deck

# ------------------------------------------------------------------ rules and strategies

LAYOUTS: tuple[tuple[int, str], ...] = (
    (2, "standard"),
    (3, "standard"),
    (4, "standard"),
    (5, "standard"),
    (2, "four-rows"),
    (2, "ghost"),
)
SCORINGS = ("brown", "gray")
EDITIONS = ("classic", "anniversary")

ALL_RULES: tuple[Rules, ...] = tuple(
    Rules(players=players, variant=variant, scoring=scoring, edition=edition)
    for (players, variant), scoring, edition in product(LAYOUTS, SCORINGS, EDITIONS)
)

rules_strategy = st.builds(
    lambda layout, scoring, edition: Rules(
        players=layout[0], variant=layout[1], scoring=scoring, edition=edition
    ),
    st.sampled_from(LAYOUTS),
    st.sampled_from(SCORINGS),
    st.sampled_from(EDITIONS),
)
seed_strategy = st.one_of(st.integers(0, 2**32 - 1), st.text(max_size=6))

# Every action there can be, legal or not: draw, and place/take on rows 1 to 5.
EVERY_ACTION: tuple[Action, ...] = (
    DRAW,
    *(Action.place(r) for r in range(5)),
    *(Action.take(r) for r in range(5)),
)

MAX_ACTIONS = 400
"""No game should need this many actions (random games take at most ~190 under any rules)."""

REPLAY_EVERY = 25
"""Check the record round trip every this many actions (and at the end of each game)."""


# ------------------------------------------------------------------ helpers


def collections(state: GameState) -> list[dict[Card, int]]:
    return [state.collection(seat) for seat in range(state.rules.seats)]


def all_cards(state: GameState) -> Counter[Card]:
    """Every card of the game, wherever it is now (the Last Round card aside)."""
    cards: Counter[Card] = Counter()
    for held in collections(state):
        cards.update(held)
    for row in state.rows:
        cards.update(row)
    cards.update(state.discards)
    cards.update(state.unseen())
    if state.drawn_card is not None:
        cards[state.drawn_card] += 1
    return +cards


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Everything a caller can observe of a state, as plain comparable values."""
    return (
        state.rows,
        collections(state),
        state.legal_actions(),
        state.current_player,
        state.drawn_card,
        state.deck_size,
        state.cards_before_last_round,
        state.last_round,
        state.round,
        state.is_over,
        state.rows_taken,
        state.seats_out,
        state.takes_this_round,
        state.discards,
        state.unseen(),
        state.scores(),
        state.last_move,
    )


def replayed(state: GameState) -> GameState:
    """The state rebuilt from its record, after a trip through JSON text."""
    record = json.loads(json.dumps(to_record(state)))
    return load_record(record).state


def assert_same_game(replay: GameState, state: GameState) -> None:
    assert replay.rules == state.rules
    assert replay.rows == state.rows
    assert collections(replay) == collections(state)
    assert replay.current_player == state.current_player
    assert replay.drawn_card == state.drawn_card
    assert replay.scores() == state.scores()
    assert replay.history() == state.history()
    assert replay.is_over == state.is_over
    assert replay.round == state.round
    assert replay.deck_size == state.deck_size
    assert replay.discards == state.discards
    assert replay.rows_taken == state.rows_taken
    assert replay.seats_out == state.seats_out
    assert replay.legal_actions() == state.legal_actions()


def check_finished(state: GameState) -> None:
    """What must hold once a game has ended."""
    assert state.is_over
    assert state.legal_actions() == ()
    final = state.final_scores()
    assert len(final) == state.rules.seats
    assert final == state.scores()
    assert final == tuple(state.score_breakdown(s).total for s in range(state.rules.seats))
    assert all(row == () for row in state.rows), "cards were left on the rows at the end"
    assert state.drawn_card is None
    for action in EVERY_ACTION:
        with pytest.raises(IllegalAction):
            state.apply(action)


def next_seat(state: GameState, seat: int) -> int:
    """The first seat after ``seat``, going round the table, that does not sit out."""
    seats = state.rules.seats
    following = [(seat + k) % seats for k in range(1, seats + 1)]
    return next(s for s in following if not state.seats_out[s])


def check_move(before: GameState, action: Action, after: GameState) -> None:
    """What one action did, compared with what the rules say it does."""
    player = before.current_player
    move = after.last_move
    assert move is not None
    assert (move.player, move.action) == (player, action)
    if move.last_round:
        assert not before.last_round
        assert after.last_round
    others = [s for s in range(before.rules.seats) if s != player]
    assert [after.collection(s) for s in others] == [before.collection(s) for s in others]

    if action.kind is ActionKind.DRAW:
        # The top card is revealed (the Last Round card is set aside) and waits to be placed.
        assert move.card is not None
        assert move.card is not Card.LAST_ROUND
        assert move.card == after.drawn_card
        assert after.deck_size == before.deck_size - 1
        assert after.rows == before.rows
        assert after.collection(player) == before.collection(player)
        assert after.current_player == player
        return

    assert action.row is not None
    row = action.row
    if action.kind is ActionKind.PLACE:
        assert move.card is None
        assert before.drawn_card is not None
        assert after.drawn_card is None
        assert after.rows[row] == (*before.rows[row], before.drawn_card)
        assert [r for i, r in enumerate(after.rows) if i != row] == [
            r for i, r in enumerate(before.rows) if i != row
        ]
        assert after.deck_size == before.deck_size
        assert after.collection(player) == before.collection(player)
        assert after.current_player == next_seat(after, player)
        return

    # A take: the row's cards go to the taker, plus the top card if a golden joker was there.
    taken = before.rows[row]
    golden_draw = Card.GOLDEN_JOKER in taken and before.deck_size > 0
    assert (move.card is not None) == golden_draw, "golden joker: wrong extra draw"
    assert after.deck_size == before.deck_size - golden_draw
    gained = Counter(taken) + Counter([move.card] if move.card is not None else [])
    assert Counter(after.collection(player)) == Counter(before.collection(player)) + gained
    leftover = Counter(c for i, r in enumerate(before.rows) if i != row for c in r)
    if after.round != before.round or (after.is_over and all(after.seats_out)):
        # The round ended: what was left on the rows is discarded, and the taker starts.
        assert all(r == () for r in after.rows)
        assert Counter(after.discards) == Counter(before.discards) + leftover
        assert after.current_player == player
    else:
        assert after.rows[row] == ()
        assert after.discards == before.discards
        if not after.is_over:
            assert after.current_player == next_seat(after, player)


# ------------------------------------------------------------------ the state machine


class RandomGames(RuleBasedStateMachine):
    """Random legal games, with the engine's invariants checked after every action."""

    state: GameState

    @initialize(rules=rules_strategy, seed=seed_strategy)
    def deal(self, rules: Rules, seed: int | str) -> None:
        self.games = 0
        self.start(rules, seed)

    def start(self, rules: Rules, seed: int | str) -> None:
        self.state = new_game(rules, seed)
        self.deck = full_deck(rules, self.state.removed_colours)
        self.actions = 0
        self.moves: list[Move] = []
        self.took: Counter[int] = Counter()  # takes per seat since the round last changed
        self.games += 1

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        before = self.state
        if before.is_over:
            # The game has ended: check it once more, then deal the next one.
            check_finished(before)
            assert_same_game(replayed(before), before)
            self.start(data.draw(rules_strategy, "rules"), data.draw(seed_strategy, "seed"))
            return
        legal = before.legal_actions()
        action = data.draw(st.sampled_from(legal), label="action")
        seen = snapshot(before)
        after = before.apply(action)
        assert snapshot(before) == seen, f"apply({action}) changed the state it was called on"
        assert snapshot(before.apply(str(action))) == snapshot(after), "text and Action differ"

        check_move(before, action, after)
        assert after.last_move is not None
        self.moves.append(after.last_move)
        assert after.history() == tuple(self.moves)

        # Monotone quantities.
        assert after.round >= before.round, "the round number went down"
        assert after.round <= before.round + 1
        assert after.deck_size <= before.deck_size, "the deck grew"
        assert after.last_round or not before.last_round, "the Last Round card went back"

        # Who took what this round.
        if after.round != before.round:
            assert action.kind is ActionKind.TAKE
            self.took = Counter()
        elif action.kind is ActionKind.TAKE:
            self.took[before.current_player] += 1

        self.state = after
        self.actions += 1
        assert self.actions < MAX_ACTIONS, f"the game has not ended after {self.actions} actions"
        if self.actions % REPLAY_EVERY == 0 or after.is_over:
            assert_same_game(replayed(after), after)
        if after.is_over:
            event("a game was played to the end")

    # ------------------------------------------------------------ invariants

    @invariant()
    def no_card_lost_or_duplicated(self) -> None:
        assert all_cards(self.state) == self.deck
        assert self.state.deck_size == sum(self.state.unseen().values())

    @invariant()
    def rows_respect_capacity(self) -> None:
        state = self.state
        assert state.row_capacities == state.rules.row_capacities
        assert len(state.rows) == len(state.row_capacities)
        for row, capacity, taken in zip(
            state.rows, state.row_capacities, state.rows_taken, strict=True
        ):
            assert len(row) <= capacity
            assert Card.LAST_ROUND not in row
            if taken:
                assert row == (), "a row taken this round still holds cards"

    @invariant()
    def seats_out_do_not_move(self) -> None:
        state = self.state
        quota = state.rules.takes_per_round
        assert state.takes_this_round == tuple(self.took[s] for s in range(state.rules.seats))
        assert state.seats_out == tuple(self.took[s] >= quota for s in range(state.rules.seats))
        if not state.is_over:
            assert not state.seats_out[state.current_player], "a seat that sits out is to move"
            assert self.took[state.current_player] < quota, "a seat moves again after taking"

    @invariant()
    def legal_actions_match_the_rules(self) -> None:
        state = self.state
        legal = state.legal_actions()
        if state.is_over:
            assert legal == ()
            return
        assert legal, "the game is not over but nothing is legal"
        assert len(set(legal)) == len(legal)
        if state.drawn_card is not None:
            assert all(a.kind is ActionKind.PLACE for a in legal)
        for action in legal:
            assert action.row is None or action.row < len(state.rows)
            if action.kind is ActionKind.PLACE:
                assert not state.rows_taken[action.row]
                assert len(state.rows[action.row]) < state.row_capacities[action.row]
            elif action.kind is ActionKind.TAKE:
                assert not state.rows_taken[action.row]
                assert state.rows[action.row]
        # Everything else is refused with IllegalAction, and leaves the state alone.
        for action in EVERY_ACTION:
            if action not in legal:
                with pytest.raises(IllegalAction):
                    state.apply(action)
                assert not state.is_legal(action)
            else:
                assert state.is_legal(action)

    @invariant()
    def views_hide_only_the_deck_order(self) -> None:
        state = self.state
        seat = state.current_player
        view = state.view(seat)
        assert view.legal_actions() == state.legal_actions()
        assert view.unseen() == state.unseen()
        guess = view.sample(random.Random(self.actions))
        # A determinisation differs from the real game at most in the deck order.
        assert snapshot(guess) == snapshot(state)
        assert all_cards(guess) == self.deck

    @invariant()
    def over_games_are_finished(self) -> None:
        if self.state.is_over:
            check_finished(self.state)


RandomGames.TestCase.settings = settings(
    max_examples=50,
    stateful_step_count=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestRandomGames = RandomGames.TestCase


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.players}p-{r.variant}-"
                         f"{r.scoring}-{r.edition}")  # fmt: skip
@settings(max_examples=8, deadline=None)
@given(seed=seed_strategy, rng=st.randoms(use_true_random=False))
def test_random_games_always_end(rules: Rules, seed: int | str, rng: random.Random) -> None:
    state = new_game(rules, seed)
    deck = full_deck(rules, state.removed_colours)
    actions = 0
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, f"no legal action after {actions} actions, but the game is not over"
        state = state.apply(rng.choice(legal))
        actions += 1
        assert actions < MAX_ACTIONS, "the game does not end"
    check_finished(state)
    assert len(state.final_scores()) == rules.seats
    assert all_cards(state) == deck
    assert_same_game(replayed(state), state)


@pytest.mark.parametrize("rules", ALL_RULES[::5])
def test_final_scores_refused_while_the_game_goes_on(rules: Rules) -> None:
    state = new_game(rules, seed=1)
    with pytest.raises(ValueError, match="not over"):
        state.final_scores()


# ------------------------------------------------------------------ scoring

# The score tables as printed in docs/rules.md: an oracle independent of the engine.
TABLES = {"brown": (0, 1, 3, 6, 10, 15, 21), "gray": (0, 1, 4, 8, 7, 6, 5)}

counts_strategy = st.lists(st.integers(0, 9), min_size=1, max_size=7)


def as_colours(counts: list[int]) -> dict[Card, int]:
    return {COLOURS[i]: n for i, n in enumerate(counts)}


def brute_force(counts: list[int], jokers: int, plus2: int, scoring: str, plus: int) -> int:
    """Try every joker placement and every choice of plus colours."""
    table = TABLES[scoring]
    best = None
    for places in product(range(len(counts)), repeat=jokers):
        final = list(counts)
        for i in places:
            final[i] += 1
        points = [table[min(n, 6)] for n in final]
        for chosen in combinations(range(len(final)), min(plus, len(final))):
            total = sum(p if i in chosen else -p for i, p in enumerate(points))
            best = total if best is None else max(best, total)
    assert best is not None
    return best + 2 * plus2


@settings(max_examples=150, deadline=None)
@given(
    counts=counts_strategy,
    jokers=st.integers(0, 3),
    plus2=st.integers(0, 10),
    scoring=st.sampled_from(SCORINGS),
    plus=st.sampled_from((3, 4)),
    data=st.data(),
)
def test_score_does_not_depend_on_colour_order(
    counts: list[int],
    jokers: int,
    plus2: int,
    scoring: str,
    plus: int,
    *,
    data: st.DataObject,
) -> None:
    order = data.draw(st.permutations(range(len(counts))), label="order")
    colours = as_colours(counts)
    shuffled = {COLOURS[i]: counts[i] for i in order}
    first = score(colours, jokers=jokers, plus2=plus2, scoring=scoring, plus_colours=plus)
    again = score(shuffled, jokers=jokers, plus2=plus2, scoring=scoring, plus_colours=plus)
    assert first.total == again.total
    permuted = [counts[i] for i in order]
    assert best_total(permuted, jokers, plus2, TABLES[scoring], plus) == first.total


@settings(max_examples=150, deadline=None)
@given(
    counts=counts_strategy,
    jokers=st.integers(0, 3),
    plus2=st.integers(0, 10),
    scoring=st.sampled_from(SCORINGS),
    plus=st.sampled_from((3, 4)),
)
def test_score_breakdown_adds_up(
    counts: list[int], jokers: int, plus2: int, scoring: str, plus: int
) -> None:
    result = score(
        as_colours(counts), jokers=jokers, plus2=plus2, scoring=scoring, plus_colours=plus
    )
    table = TABLES[scoring]
    assert result.total == sum(s.points for s in result.sets) + 2 * plus2
    assert result.plus2 == plus2
    assert len(result.jokers) == jokers
    assert sum(s.jokers for s in result.sets) == jokers
    assert Counter(result.jokers) == Counter({s.colour: s.jokers for s in result.sets})
    assert len(result.plus_colours) <= plus
    for s in result.sets:
        assert s.count > 0
        assert s.cards == counts[COLOURS.index(s.colour)]
        assert abs(s.points) == table[min(s.count, 6)]
        assert (s.points >= 0) == s.plus
    # Every colour with cards appears exactly once.
    assert sorted(s.colour for s in result.sets) == sorted(
        c for c, n in as_colours(counts).items() if n or c in result.jokers
    )
    assert result.total == brute_force(counts, jokers, plus2, scoring, plus)


@settings(max_examples=150, deadline=None)
@given(
    counts=counts_strategy,
    jokers=st.integers(0, 2),
    plus2=st.integers(0, 10),
    plus=st.sampled_from((3, 4)),
)
def test_a_joker_never_lowers_the_brown_score(
    counts: list[int], jokers: int, plus2: int, plus: int
) -> None:
    colours = as_colours(counts)
    without = score(colours, jokers=jokers, plus2=plus2, scoring="brown", plus_colours=plus)
    with_one_more = score(
        colours, jokers=jokers + 1, plus2=plus2, scoring="brown", plus_colours=plus
    )
    assert with_one_more.total >= without.total


# ------------------------------------------------------------------ actions

actions_strategy = st.one_of(
    st.just(DRAW),
    st.builds(Action.place, st.integers(0, 4)),
    st.builds(Action.take, st.integers(0, 4)),
    st.builds(Action, st.sampled_from([ActionKind.PLACE, ActionKind.TAKE]), st.integers(0, 4)),
)


@given(actions_strategy)
def test_action_text_round_trips(action: Action) -> None:
    assert Action.parse(str(action)) == action
    assert str(Action.parse(str(action))) == str(action)


def test_every_action_round_trips() -> None:
    for action in EVERY_ACTION:
        assert Action.parse(str(action)) == action
