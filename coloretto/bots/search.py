"""``search``: Monte Carlo search over sampled deals, the expert playing the rollouts."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence

from coloretto.bots.base import Bot, Budget, Estimate
from coloretto.bots.evaluation import (
    DEFAULT_FORESIGHT,
    MAX_COUNT,
    PROSPECT_DECIMALS,
    building,
    default_junk,
    expected_cards,
    expected_junk,
    future_cards,
    less_junk,
    prospect_table,
)
from coloretto.bots.expert import ExpertBot
from coloretto.bots.model import Memory, OpponentFit, fit_opponents, take_thresholds
from coloretto.bots.options import flag, number, whole
from coloretto.engine import Action, Card, GameState, Outcome, PlayerView, best_total

DEFAULT_ITERATIONS = 16
PLAYOUT_MOVES = 30
"""``analyse``: the moves a deal's playouts are expected to run (per action) at least."""
SHORT_PLAYOUTS = 8
"""``analyse``: at most this many times the iterations, when the playouts are short."""
RACE_AFTER = 8
"""``choose``: the deals after which candidates clearly behind the expert's choice drop out."""
RACE_ERRORS = 2.0
"""``choose``: how many standard errors behind the expert's choice a candidate drops out."""
FIT_SHARE = 0.5
"""The share of a move's time cap that fitting the opponents' policies may take."""
_JOKER = Card.JOKER
_GOLDEN = Card.GOLDEN_JOKER
_PLUS2 = Card.PLUS2


class SearchBot:
    """Monte Carlo search over deals sampled from what it knows; in its rollouts the expert
    plays, and each opponent plays as it has been seen to play.

    Every iteration deals the unseen cards at random, consistent with what
    the seat knows (the Last Round card stays where everyone knows it lies).
    The expert first rates the legal actions (its one-turn outlooks, in
    points); those within ``prune`` points of its best are the candidates
    (one of each set that cannot differ: placing on, or taking, rows alike).
    Each deal is played out once after every candidate, the expert moving for
    its own seat and each other seat moving as its play so far suggests
    (``observe``, below) to the end of the round, where each seat's score plus
    the prospects of its colours gives a win chance (or to the end of the game,
    which gives the result). The candidates share the deals, so their
    differences have little noise; the expert's choice stays unless another
    candidate beats it on average by ``confidence`` standard errors. This is a
    rollout (policy improvement) search over the expert, so it plays at least
    as well where the rollouts are right, and better where they show the
    expert's one-turn view is wrong.

    Options: ``iterations`` (deals; default 16) and/or ``seconds`` per move,
    ``at_five`` (the deals at five seats, where each costs the most; by
    default ``iterations``),
    ``prune`` (points; negative searches every distinct legal action), ``confidence``,
    ``extend`` (a factor, 1 by default: while a candidate is still within two standard
    errors of the expert's choice, either way, once the deals are spent, the search goes
    on up to ``extend`` times as many deals),
    ``rounds`` (rounds played out before the estimate; 0 plays to the end),
    ``junk`` (the share of a seat's cards to come that its estimate expects
    in colours it does not build; by default 0.5 on the gray side up to four
    seats, 0 otherwise: ``coloretto.bots.evaluation.default_junk``),
    ``spread`` (points of estimated margin per unit of log-odds), ``margin``
    (the weight of the score margin in a finished game's reward). ``observe``
    (default true) fits the other seats first (``coloretto.bots.model``): the
    expert expects each seat's own take threshold, and in the rollouts each
    opponent takes and places by the simple rules (a style's, or parametric
    ones) that its decisions this game make likely: by the rules that explain
    it clearly better than the expert, if any, or with ``sample`` (default
    false; the hard level's) by rules drawn for each deal from the belief its
    decisions give (``coloretto.bots.model.OpponentFit``), the expert's among
    them. The ``seconds`` cap covers all of it, rollouts included: a deal cut
    short is dropped. With an iteration budget alone the bot is fully
    deterministic for a seed; a time limit makes the depth of search depend on
    the machine.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        at_five: int | None = None,
        margin: float = 0.2,
        rounds: int | None = 1,
        foresight: float | None = None,
        junk: float | None = None,
        spread: float = 8.0,
        prune: float = 3.0,
        confidence: float = 1.0,
        extend: float = 1.0,
        observe: bool = True,
        sample: bool = False,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.budget = Budget(seconds=seconds, iterations=iterations)
        self.budget_at_five = (
            self.budget if at_five is None else Budget(seconds, whole("at_five", at_five, low=1))
        )
        self.margin = number("margin", margin, low=0, high=1)
        self.rounds = None if rounds is None else whole("rounds", rounds, low=0) or None
        self.foresight = None if foresight is None else number("foresight", foresight, low=0)
        self.junk = None if junk is None else number("junk", junk, low=0)
        self.spread = number("spread", spread, above=0)
        self._horizon: int | None = None
        self.prune = number("prune", prune)
        self.confidence = number("confidence", confidence)
        self.extend = number("extend", extend, low=1)
        self.observe = flag("observe", observe)
        self.sample = flag("sample", sample)
        self._expert = ExpertBot()
        self._memory = Memory()
        """The game's decisions so far, and what the fitted policies would have played."""
        self._opponents: OpponentFit | None = None
        """The other seats fitted to their decisions (``observe``), if any."""
        self._players: list[Bot] = []
        """Who plays each seat in the deal being played out (the expert, or a fitted policy)."""
        self._expert_moves: dict[Hashable, Action] = {}
        """The expert's rollout decisions in this search, by public position."""
        self._rng = random.Random(seed)
        self.last_iterations = 0
        """Iterations run for the latest move (for benchmarks)."""

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """The best candidate on the sampled deals once the budget is spent.

        A move with a single candidate (one legal action, or one the expert
        rates far ahead of the rest) is played at once, without search.
        """
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        start = time.perf_counter()
        budget = self._budget(view).within(budget)
        self._observe(view, start, budget.seconds)
        candidates = self._candidates(view, legal)
        if len(candidates) == 1:
            self.last_iterations = 0
            return candidates[0]
        self._horizon = None if self.rounds is None else view.round + self.rounds
        deadline = None if budget.seconds is None else start + budget.seconds
        return self._compare(view, candidates, budget.iterations, deadline)

    def reseed(self, seed: int) -> None:
        """Draw the deals from ``seed`` from now on (``coloretto.bots.players.Reseeded``)."""
        self._rng = random.Random(seed)

    def catch_up(self, view: PlayerView) -> None:
        """Fit the other seats to the game so far, without a time limit: a bot made in the
        middle of a game (``coloretto.bots.players.CatchesUp``) then knows them as well as
        one that saw every move."""
        self._observe(view, time.perf_counter(), None)

    def _budget(self, view: PlayerView) -> Budget:
        """The bot's own budget at ``view``'s table (``at_five`` deals at five seats)."""
        return self.budget_at_five if view.seats >= 5 else self.budget

    def _observe(self, view: PlayerView, start: float, seconds: float | None) -> None:
        """Fit the other seats to what they have done this game (``observe``): the expert
        expects each seat's own take threshold, and the rollouts play each seat by a
        policy drawn for each deal from what its decisions make likely (``sample``), or
        by the simple policy that explains it clearly better than the expert, if any.

        Under a time cap the policies' fit may take ``FIT_SHARE`` of it; one not done by
        then leaves this game's last fit (the expert for every seat if none), and goes
        on at the next move from what it worked out.
        """
        expert = self._expert
        self._opponents = None
        self._players = [expert] * view.seats
        self._expert_moves.clear()
        if not self.observe:
            expert.thresholds = [expert.threshold] * view.seats
            return
        past = self._memory.decisions(view)
        expert.thresholds = take_thresholds(view, expert.threshold, past)
        deadline = None if seconds is None else start + FIT_SHARE * seconds
        # The expert's choices depend on the thresholds it expects (its options are fixed).
        thresholds = tuple(expert.thresholds)
        self._opponents = fit_opponents(
            view, expert, past, self._memory, thresholds, deadline=deadline
        )
        if self._opponents is not None and not self.sample:
            for seat, (_, bot) in enumerate(self._opponents.likeliest):
                if bot is not None:
                    self._players[seat] = bot

    def _deal(self, view: PlayerView) -> GameState:
        """A deal consistent with ``view``, and who plays each seat in it (``sample``)."""
        if self.sample and self._opponents is not None:
            self._players = self._opponents.sample(self._rng)
        return self._cards(view)

    def _cards(self, view: PlayerView) -> GameState:
        """The order of the deck in one deal: the unseen cards shuffled (the oracle,
        ``coloretto.bots.oracle``, is given the real order instead)."""
        return view.sample(self._rng)

    def _compare(
        self,
        view: PlayerView,
        candidates: tuple[Action, ...],
        limit: int | None,
        deadline: float | None,
    ) -> Action:
        """Compare the candidates on the same sampled deals, each played out by the seats'
        policies.

        Every deal is played out once after each candidate, every seat moving by
        the policy it has in that deal (``_deal``) to the end of the round (then the
        position is estimated) or of the game. The candidates share the deals, so their
        differences are measured with little noise. The expert's own choice
        (the first candidate) is kept unless another beats it by ``confidence``
        standard errors. A deal cut short by the deadline does not count. From
        ``RACE_AFTER`` deals on, a candidate behind the expert's choice by more
        than ``RACE_ERRORS`` standard errors is dropped, so the deals left go to
        the candidates that can still win; once the expert's choice is left alone, the
        search ends there. Past the budget's deals it goes on while the comparison is
        close (``_extended``), up to ``extend`` times the deals.
        """
        player = view.rules.controller(view.seat)
        count = len(candidates)
        sums = [0.0] * count
        squares = [0.0] * count
        active = list(range(count))
        done = 0
        most = 0 if limit is None else round(limit * self.extend)  # for close comparisons
        while limit is None or done < limit or self._extended(done, most, sums, squares, active):
            state = self._deal(view)
            values = []
            for i in active:
                value = self._rollout(state.apply(candidates[i]), player, deadline)
                if value is None:
                    break
                values.append(value)
            if len(values) < len(active):
                break
            for i, value in zip(active, values, strict=True):
                diff = value - values[0]
                sums[i] += value
                squares[i] += diff * diff
            done += 1
            if done >= RACE_AFTER:
                active = [i for i in active if _edge(sums, squares, i, done, RACE_ERRORS) >= 0]
                if len(active) == 1:  # the expert's choice alone: nothing left to compare
                    break
        self.last_iterations = done
        best = 0
        if not done:
            return candidates[best]
        for i in active[1:]:
            if _edge(sums, squares, i, done, -self.confidence) > 0 and sums[i] > sums[best]:
                best = i
        return candidates[best]

    @staticmethod
    def _extended(
        done: int, most: int, sums: list[float], squares: list[float], active: list[int]
    ) -> bool:
        """Whether to play one more deal past the budget's (``extend``): while fewer than
        ``most`` are done and a candidate in the race is within ``RACE_ERRORS`` standard
        errors of the expert's choice either way (the comparison is not settled)."""
        return done < most and any(
            _edge(sums, squares, i, done, -RACE_ERRORS) <= 0 for i in active[1:]
        )

    def _rollout(self, state: GameState, player: int, deadline: float | None) -> float | None:
        """Every seat played by its policy to the horizon or the end: ``player``'s reward,
        or ``None`` if the deadline passes first."""
        end = self._play_out(state, deadline)
        if end is None:
            return None
        outcome = end.outcome()
        if outcome is not None:
            return _rewards(outcome, self.margin)[player]
        return self._estimate(end)[player]

    def _play_out(self, state: GameState, deadline: float | None) -> GameState | None:
        """Every seat played by its policy to the horizon or the end; ``None`` if the
        deadline passes first.

        The expert's decisions are remembered for the rest of the search: with its
        thresholds fixed, they depend only on the public position, which the sampled
        deals and the candidates share for the first moves and often meet again.
        """
        players = self._players
        expert = self._expert
        known = self._expert_moves
        horizon = self._horizon
        clock = time.perf_counter
        while not state.is_over and (horizon is None or state.round < horizon):
            if deadline is not None and clock() >= deadline:
                return None
            legal = state.legal_actions()
            player = state.current_player
            if len(legal) == 1:
                action = legal[0]
            elif players[player] is expert:
                key = _public_position(state)
                remembered = known.get(key)
                if remembered is None:
                    remembered = known[key] = expert.choose(state.view(player), legal)
                action = remembered
            else:
                action = players[player].choose(state.view(player), legal)
            state = state.apply(action)
        return state

    def analyse(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> dict[Action, Estimate]:
        """Every one of ``legal`` valued for ``view.seat``: its chance to win and expected
        final margin, with their standard errors (the ``Analyst`` interface), from the
        deals of ``deal_values``."""
        values = self.deal_values(view, legal, budget)
        return {
            action: Estimate.of_deals([win for win, _ in results], [m for _, m in results])
            for action, results in values.items()
        }

    def deal_values(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> dict[Action, list[tuple[float, float]]]:
        """Every one of ``legal`` valued for ``view.seat`` on each sampled deal: its chance
        to win and final margin, one pair a deal, the same deals in the same order for
        every action (so the differences between two actions can be measured deal by deal).

        As in ``choose``, every sampled deal is played out after each
        action by the same policies to the horizon, so the actions are compared on the
        same deals. A finished game gives the exact result; at a round's end each seat's
        value is its score plus its colours' prospects, the margin is the player's value
        less the best other's, and the chance to win is a softmax of the values whose
        spread grows with the cards still to come (``analysis_spread``). The first deal
        is always played out; the budget's seconds stop the deals after it. Where the
        playouts are short (near a round's end, where the game's end makes results all or
        nothing) more deals are played, so that every estimate rests on about as many
        moves (``PLAYOUT_MOVES`` a deal, up to ``SHORT_PLAYOUTS`` times the iterations).
        """
        if not legal:
            return {}
        alike = _distinct(view, legal)  # actions on rows alike share one estimate
        actions = tuple(alike.values())
        start = time.perf_counter()
        budget = self._budget(view).within(budget)
        self._observe(view, start, budget.seconds)
        self._horizon = None if self.rounds is None else view.round + self.rounds
        deadline = None if budget.seconds is None else start + budget.seconds
        limit = budget.iterations
        seat = view.seat
        values: list[list[tuple[float, float]]] = [[] for _ in actions]
        done = moves = 0
        while limit is None or done < limit or self._short(done, moves, limit, len(actions)):
            state = self._deal(view)
            results = []
            for action in actions:
                end = self._play_out(state.apply(action), deadline if done else None)
                if end is None:
                    break
                moves += end.ply - state.ply
                results.append(_judge(end, seat))
            if len(results) < len(actions):
                break
            for i, result in enumerate(results):
                values[i].append(result)
            done += 1
        self.last_iterations = done
        by_effect = {effect: values[i] for i, effect in enumerate(alike)}
        return {action: list(by_effect[_effect(view, action)]) for action in legal}

    @staticmethod
    def _short(done: int, moves: int, limit: int, actions: int) -> bool:
        """True while the playouts have been short (a round's end, the game's): more deals,
        up to ``SHORT_PLAYOUTS`` times the limit, until they add up to as many moves as
        ``limit`` deals of ``PLAYOUT_MOVES`` each would."""
        return done < SHORT_PLAYOUTS * limit and moves < limit * actions * PLAYOUT_MOVES

    def _candidates(self, view: PlayerView, legal: Sequence[Action]) -> tuple[Action, ...]:
        """The actions worth searching, the expert's choice first (the one ``confidence``
        keeps): those the expert rates within ``prune`` of its best.

        The expert's values are its one-turn outlooks (in points); a negative
        ``prune`` keeps every legal action. Of actions that cannot differ (on two rows
        alike, ``_effect``) only the better rated is searched.
        """
        values = self._expert.rate(view, legal)
        best = max(values.values())
        ranked = sorted(legal, key=lambda a: -values[a])
        if self.prune >= 0:
            ranked = [a for a in ranked if values[a] >= best - self.prune]
        return tuple(_distinct(view, ranked).values())

    def _estimate(self, state: GameState) -> list[float]:
        """Per player, the chance to win estimated at a round's end (the game goes on).

        Each seat's value is its score plus the prospects of the colours it
        builds (as the expert reckons them: its share of the unseen cards of
        each colour, shared with the seats that collect it too), less what its
        junk to come should cost (``junk``); a player's is their own seat's
        (``Rules.player_totals``, as the outcome ranks them), and the reward is a
        logistic function of its margin over the best other player's.
        """
        values = state.rules.player_totals(_values(state, self.foresight, self.junk))
        spread = self.spread
        rewards = []
        for p in range(len(values)):
            rival = max(v for o, v in enumerate(values) if o != p)
            x = max(-30.0, min(30.0, (values[p] - rival) / spread))
            rewards.append(1.0 / (1.0 + math.exp(-x)))
        return rewards


def _edge(sums: list[float], squares: list[float], i: int, done: int, errors: float) -> float:
    """Candidate ``i``'s mean edge over the first in ``done`` deals, moved by ``errors``
    standard errors (up if positive): ``sums`` of its values, ``squares`` of its
    differences from the first's."""
    mean = (sums[i] - sums[0]) / done
    return mean + errors * math.sqrt(max(0.0, squares[i] / done - mean * mean) / done)


def _effect(view: PlayerView, action: Action) -> Hashable:
    """What ``action`` does, with its row named by what the row is: placing on (or taking)
    either of two rows with the same cards and capacity leads to the same game.

    >>> from coloretto.engine import Rules, new_game
    >>> view = new_game(Rules(players=4), seed=1).apply("draw").view(0)
    >>> len({_effect(view, a) for a in view.legal_actions()})
    1
    """
    if action.row is None:
        return action
    return (action.kind, view.rows[action.row], view.row_capacities[action.row])


def _distinct(view: PlayerView, actions: Sequence[Action]) -> dict[Hashable, Action]:
    """The first of ``actions`` with each ``_effect``, by effect."""
    first: dict[Hashable, Action] = {}
    for action in actions:
        first.setdefault(_effect(view, action), action)
    return first


def _public_position(state: GameState) -> Hashable:
    """Everything a seat sees of ``state`` that is not the same throughout one search.

    Within a search every state comes from the same position, so where the cards are
    (rows, collections, discards, the drawn card) also gives which are unseen.
    """
    return (
        state.rows,
        state.rows_taken,
        state.takes_this_round,
        state.current_player,
        state.drawn_card,
        state.deck_size,
        state.last_round,
        state.round,
        state.discards,
        tuple(state.counts(s) for s in range(state.rules.seats)),
    )


def _values(state: GameState, foresight: float | None, junk: float | None) -> list[float]:
    """Per seat, its score plus the prospects of the colours it builds (as the expert
    reckons them, with ``foresight``, by default the scoring side's) less what its junk
    should cost: ``junk`` (by default ``default_junk``) times its share of the cards to
    come, spread over its other colours by their unseen cards (``junk_cost``)."""
    rules = state.rules
    seats = rules.seats
    scoring = rules.scoring
    table = scoring.table
    plus = rules.plus_colours
    colours = state.colours
    counts = [state.counts(s) for s in range(seats)]
    # At a round's end the game goes on: in the last round, only its rows are to come.
    before = state.cards_before_last_round or 0
    foresight = DEFAULT_FORESIGHT[scoring] if foresight is None else foresight
    capacity = sum(state.row_capacities)
    future = future_cards(before, capacity, seats, foresight)
    junk = default_junk(scoring, seats) if junk is None else junk
    unseen = state.unseen()
    left = [unseen.get(c, 0) for c in colours]
    share = junk * future_cards(before, capacity, seats, 1.0)
    junk_cards = expected_junk(share, left, sum(unseen.values()))
    holders = [sum(1 for held in counts if held[c]) for c in colours]
    values = []
    for s in range(seats):
        held = counts[s]
        own = [held[c] for c in colours]
        points: float = best_total(own, held[_JOKER] + held[_GOLDEN], held[_PLUS2], table, plus)
        rivals = [n - 1 if mine else n for n, mine in zip(holders, own, strict=True)]
        expected = expected_cards(future, left, rivals)
        built = building(own, plus)
        for i in built:
            prospects = prospect_table(table, round(expected[i], PROSPECT_DECIMALS))
            points += prospects[min(own[i], MAX_COUNT)]
        values.append(less_junk(points, table, own, built, junk_cards))
    return values


ANALYSIS_SPREAD = (4.0, 2.0)
"""``analysis_spread``: the points of margin per unit of log-odds are at least the first
figure, and the second times the square root of the cards still in the deck."""


def analysis_spread(cards_left: int) -> float:
    """How uncertain a margin still is with ``cards_left`` cards to come, in points.

    >>> analysis_spread(0), analysis_spread(64)
    (4.0, 16.0)
    """
    least, per_card = ANALYSIS_SPREAD
    return max(least, per_card * math.sqrt(cards_left))


def _judge(state: GameState, seat: int) -> tuple[float, float]:
    """``seat``'s player's chance to win and margin (points) at the end of a rollout.

    A finished game's are exact (``GameState.outcome``). At a round's end each player's
    value (their own seat's score and prospects: ``Rules.player_totals``) gives the
    margin over the best other, and a softmax of the values (``analysis_spread``) the
    chance to win.
    """
    rules = state.rules
    player = rules.controller(seat)
    outcome = state.outcome()
    if outcome is not None:
        return outcome.share(player), float(outcome.margin(player))
    values = rules.player_totals(_values(state, None, None))
    rival = max((v for p, v in enumerate(values) if p != player), default=values[player])
    spread = analysis_spread(state.deck_size)
    top = max(values)
    weights = [math.exp((v - top) / spread) for v in values]
    return weights[player] / sum(weights), values[player] - rival


def _rewards(outcome: Outcome, weight: float) -> list[float]:
    """Per player: the win (shared on ties), and with ``weight`` the margin over the rest."""
    win = 1.0 - weight
    rewards = []
    for player in range(len(outcome.totals)):
        margin = max(-1.0, min(1.0, outcome.margin(player) / 40))
        won = win / len(outcome.winners) if player in outcome.winners else 0.0
        rewards.append(won + weight * 0.5 * (1 + margin))
    return rewards
