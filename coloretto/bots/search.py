"""``search``: information-set Monte Carlo tree search over sampled deals."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from coloretto.bots.base import Budget
from coloretto.engine import DRAW, Action, ActionKind, Card, GameState, PlayerView

DEFAULT_ITERATIONS = 400
_TAKE = ActionKind.TAKE


class _Edge:
    """Statistics of one action from one node, and the nodes it led to (by revealed card)."""

    __slots__ = ("children", "rewards", "visits")

    def __init__(self, seats: int) -> None:
        self.visits = 0
        self.rewards = [0.0] * seats
        self.children: dict[Card | None, _Node] = {}


class _Node:
    """An information set: the public history of play since the root."""

    __slots__ = ("edges", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.edges: dict[Action, _Edge] = {}


class _Policy:
    """The fast playout policy: a greedy player with a little randomness."""

    def __init__(self, threshold: int, epsilon: float) -> None:
        self.threshold = threshold
        self.epsilon = epsilon

    def choose(self, state: GameState, legal: tuple[Action, ...], rng: random.Random) -> Action:
        """A playout move: greedy, random with probability ``epsilon``."""
        if len(legal) == 1:
            return legal[0]
        if rng.random() < self.epsilon:
            return legal[int(rng.random() * len(legal))]
        seat = state.current_player
        rows = state.rows
        card = state.drawn_card
        if card is not None:
            return max(legal, key=lambda a: state.score_with(seat, (*rows[a.row or 0], card)))
        now = state.score_with(seat)
        best, gain = legal[0], -1000
        for action in legal:
            if action.kind is _TAKE:
                value = state.score_with(seat, rows[action.row or 0]) - now
                if value > gain:
                    best, gain = action, value
        if best is DRAW or gain >= self.threshold or legal[0] is not DRAW:
            return best
        return DRAW


class SearchBot:
    """Information-set Monte Carlo tree search over deals sampled from what it knows.

    Each iteration deals the unseen cards at random, consistent with what the
    seat knows (the Last Round card stays where everyone knows it lies), walks
    a tree of public histories shared by all deals with UCB1 (each seat
    maximising its own reward; a draw branches on the card revealed), and
    finishes the game with a fast greedy playout. The reward is the win
    (shared on ties) plus a little for the score margin.

    Options: ``iterations`` (default 400) and/or ``seconds`` per move,
    ``exploration`` (UCB constant), ``threshold`` and ``epsilon`` for playouts.
    With an iteration budget alone the bot is fully deterministic for a seed;
    a time limit makes the depth of search depend on the machine.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.6,
        threshold: int = 3,
        epsilon: float = 0.1,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.budget = Budget(seconds=seconds, iterations=iterations)
        if exploration < 0 or not 0 <= epsilon <= 1:
            raise ValueError("exploration must be >= 0 and epsilon between 0 and 1")
        self.exploration = exploration
        self._policy = _Policy(threshold, epsilon)
        self._rng = random.Random(seed)
        self.last_iterations = 0
        """Iterations run for the latest move (for benchmarks)."""

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """The most visited action at the root after the budget is spent."""
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        budget = budget or self.budget
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        limit = budget.iterations
        root = _Node()
        rng = self._rng
        done = 0
        while limit is None or done < limit:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            state = view.sample(rng)
            self._iterate(root, state, rng)
            done += 1
        self.last_iterations = done
        allowed = set(legal)
        edges = [(a, e) for a, e in root.edges.items() if a in allowed]
        if not edges:
            return legal[0]
        seat = view.seat
        return max(edges, key=lambda ae: (ae[1].visits, ae[1].rewards[seat]))[0]

    def _iterate(self, root: _Node, state: GameState, rng: random.Random) -> None:
        """One pass: select and expand in the tree, play out, back up the rewards."""
        path: list[_Edge] = []
        node = root
        seats = state.rules.seats
        c = self.exploration
        while not state.is_over:
            legal = state.legal_actions()
            player = state.current_player
            untried = [a for a in legal if a not in node.edges]
            if untried:
                action = untried[int(rng.random() * len(untried))]
                edge = node.edges[action] = _Edge(seats)
            else:
                log_n = math.log(node.visits + 1)
                action = max(
                    legal,
                    key=lambda a: _ucb(node.edges[a], player, log_n, c),
                )
                edge = node.edges[action]
            node.visits += 1
            path.append(edge)
            state = state.apply(action)
            move = state.last_move
            key = move.card if move is not None else None
            child = edge.children.get(key)
            if child is None:
                edge.children[key] = _Node()
                break
            node = child
        while not state.is_over:
            state = state.apply(self._policy.choose(state, state.legal_actions(), rng))
        rewards = _rewards(state.final_scores())
        for edge in path:
            edge.visits += 1
            totals = edge.rewards
            for s in range(seats):
                totals[s] += rewards[s]


def _ucb(edge: _Edge, player: int, log_n: float, c: float) -> float:
    return edge.rewards[player] / edge.visits + c * math.sqrt(log_n / edge.visits)


def _rewards(scores: tuple[int, ...]) -> list[float]:
    """Per seat: the win (shared on ties) plus a small bonus for the margin over the rest."""
    best = max(scores)
    winners = scores.count(best)
    rewards = []
    for seat, own in enumerate(scores):
        rival = max(s for i, s in enumerate(scores) if i != seat)
        margin = max(-1.0, min(1.0, (own - rival) / 40))
        rewards.append((0.8 / winners if own == best else 0.0) + 0.1 * (1 + margin))
    return rewards
