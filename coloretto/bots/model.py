"""Opponent models: what each seat has done this game, fitted to simple explanations.

The public history is replayed from the deal (the deck's hidden part does not matter:
every card drawn so far is in the history), which gives every earlier decision as the
seat saw it. Two models are fitted per seat:

- a *take threshold*: the worth of its best row (points it would gain) at which it takes
  rather than draws, the expert's model of a rival, fitted by maximum likelihood with a
  prior at the expert's default; a seat that never takes early gets a high threshold, one
  that snatches any gain a low one;
- a *policy*: the member of ``FAMILY`` (simple styles, the greedy and the expert) that
  best explains its recent decisions, for the search bot's rollouts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from coloretto.bots.base import Bot
from coloretto.bots.greedy import GreedyBot
from coloretto.bots.styles import BuilderBot, CollectorBot, DenialBot, NetGainBot, TakerBot
from coloretto.engine import Action, ActionKind, GameState, PlayerView

THRESHOLDS = tuple(t / 2 for t in range(-2, 41))
"""Take thresholds tried, in points (-1 to 20)."""
PRIOR_SPREAD = 2.0
"""Standard deviation (points) of the prior on a seat's threshold around the default."""
SOFTNESS = 1.0
"""Points over which a seat's wish to take grows from unlikely to likely."""
POLICY_NOISE = 0.15
"""Chance that a seat's move is not the one its policy would make."""
POLICY_WINDOW = 24
"""The latest decisions of a seat that its policy is fitted on."""
POLICY_MARGIN = 2.0
"""Log-likelihood by which a style must explain a seat better than the default policy."""

FAMILY: dict[str, Callable[[], Bot]] = {
    "builder": BuilderBot,
    "netgain": NetGainBot,
    "taker": TakerBot,
    "collector": CollectorBot,
    "denial": DenialBot,
    "greedy": GreedyBot,
}
"""Simple policies an opponent may be playing, besides the default (the expert)."""


@dataclass(frozen=True)
class Decision:
    """One earlier decision: the position the seat saw, what it could do, what it did."""

    seat: int
    view: PlayerView
    legal: tuple[Action, ...]
    action: Action


def decisions(view: PlayerView) -> list[Decision]:
    """Every earlier decision with a choice, replayed from the deal."""
    state = GameState.from_setup(view.rules, view.sample(random.Random(0)).setup)
    found = []
    for move in view.history():
        legal = state.legal_actions()
        if len(legal) > 1:
            found.append(Decision(move.player, state.view(move.player), legal, move.action))
        state = state.apply(move.action)
    return found


def take_thresholds(view: PlayerView, default: float, past: Sequence[Decision]) -> list[float]:
    """Per seat: the most likely take threshold given its take-or-draw decisions."""
    evidence: list[list[tuple[float, bool]]] = [[] for _ in range(view.seats)]
    for decision in past:
        seen = decision.view
        if seen.drawn_card is not None or decision.legal[0].kind is not ActionKind.DRAW:
            continue
        now = seen.score_with(decision.seat)
        best = max(
            seen.score_with(decision.seat, seen.rows[a.row or 0]) - now
            for a in decision.legal
            if a.kind is ActionKind.TAKE
        )
        evidence[decision.seat].append((best, decision.action.kind is ActionKind.TAKE))
    return [_most_likely(seen, default) for seen in evidence]


def _most_likely(evidence: Sequence[tuple[float, bool]], default: float) -> float:
    """The threshold that best explains ``evidence`` (worth of the best row, taken or not):
    the highest log-likelihood, the prior's log less each decision's ``_surprise``, summed
    for every threshold at once (the same sums, in the same order, as one at a time).

    >>> _most_likely([], 3.0), _most_likely([(1, True)] * 6, 3.0)  # a snatcher: far lower
    (3.0, -0.5)
    """
    if not evidence:
        return default
    totals = [-((threshold - default) ** 2) / (2 * PRIOR_SPREAD**2) for threshold in THRESHOLDS]
    for worth, took in evidence:
        totals = [total - term for total, term in zip(totals, _surprise(worth, took), strict=True)]
    return THRESHOLDS[max(range(len(THRESHOLDS)), key=totals.__getitem__)]


_SURPRISES: dict[tuple[float, bool], tuple[float, ...]] = {}
"""``_surprise`` by its arguments: a row's worth is a whole number of points, so few."""


def _surprise(worth: float, took: bool) -> tuple[float, ...]:
    """Per threshold in ``THRESHOLDS``: minus the log-likelihood that a seat with that
    threshold took a row worth ``worth`` (``took``), or drew instead."""
    key = (worth, took)
    terms = _SURPRISES.get(key)
    if terms is None:
        xs = [(worth - threshold) / SOFTNESS for threshold in THRESHOLDS]
        terms = tuple(_softplus(-x) if took else _softplus(x) for x in xs)
        if len(_SURPRISES) >= 10_000:
            _SURPRISES.clear()
        _SURPRISES[key] = terms
    return terms


def _softplus(x: float) -> float:
    """log(1 + e^x), without overflow: minus the log-likelihood of a logistic outcome."""
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def policies(
    view: PlayerView, default: Bot, past: Sequence[Decision]
) -> list[tuple[str, Bot | None]]:
    """Per seat: the family member that explains its latest decisions clearly better than
    ``default`` does, as ``(name, bot)``, or ``("default", None)``."""
    chosen: list[tuple[str, Bot | None]] = []
    for seat in range(view.seats):
        mine = [d for d in past if d.seat == seat][-POLICY_WINDOW:]
        if seat == view.seat or not mine:
            chosen.append(("default", None))
            continue
        best_name, best_bot, best_fit = "default", None, _fit(default, mine) + POLICY_MARGIN
        for name, make in FAMILY.items():
            bot = make()
            fit = _fit(bot, mine)
            if fit > best_fit:
                best_name, best_bot, best_fit = name, bot, fit
        chosen.append((best_name, best_bot))
    return chosen


def _fit(bot: Bot, past: Sequence[Decision]) -> float:
    """Log-likelihood of ``past`` if the seat plays ``bot`` but for some noise."""
    total = 0.0
    for decision in past:
        if bot.choose(decision.view, decision.legal) == decision.action:
            total += math.log(1 - POLICY_NOISE)
        else:
            total += math.log(POLICY_NOISE / (len(decision.legal) - 1))
    return total
