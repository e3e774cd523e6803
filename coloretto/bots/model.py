"""Opponent models: what each seat has done this game, fitted to simple explanations.

The public history is replayed from the deal (the deck's hidden part does not matter:
every card drawn so far is in the history), which gives every earlier decision as the
seat saw it. Two models are fitted per seat:

- a *take threshold*: the worth of its best row (points it would gain) at which it takes
  rather than draws, the expert's model of a rival, fitted by maximum likelihood with a
  prior at the expert's default; a seat that never takes early gets a high threshold, one
  that snatches any gain a low one;
- a *policy*, for the search bot's rollouts: its take-or-draw decisions and its
  placements are each fitted to the rule that explains them best, among the ``FAMILY``
  (simple styles and the greedy), parametric rules around them (``TAKE_RULES``,
  ``PLACE_RULES``) and the expert, so that a seat playing a style nobody named is
  still modelled by rules close to its own; when one policy explains every opponent
  about as well as each one's own does, they all get it (a table of one style is
  recognised from everyone's decisions). The fits give a belief over the rules as
  well (``OpponentFit.sample``): early in a game, when few decisions tell the rules apart,
  the search plays each deal's opponents by rules drawn from it rather than by the
  one likeliest.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, partial

from coloretto.bots.base import Bot, Budget
from coloretto.bots.greedy import GreedyBot
from coloretto.bots.parametric import ParametricBot
from coloretto.bots.styles import BuilderBot, CollectorBot, DenialBot, NetGainBot, TakerBot
from coloretto.engine import Action, ActionKind, Card, GameState, Move, PlayerView

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
DEFAULT_BELIEF = 0.5
"""A priori, the chance that a seat plays as the default policy (``OpponentFit.sample``)."""

FAMILY: dict[str, Callable[[], Bot]] = {
    "builder": BuilderBot,
    "netgain": NetGainBot,
    "taker": TakerBot,
    "collector": CollectorBot,
    "denial": DenialBot,
    "greedy": GreedyBot,
}
"""Simple policies an opponent may be playing, besides the default (the expert)."""

TAKE_RULES: dict[str, Callable[[], Bot]] = {
    **{f"take{t}": partial(ParametricBot, threshold=t) for t in (1, 2, 3, 4, 5, 6, 8, 10)},
    **{
        f"take{t}-threat{u}": partial(ParametricBot, threshold=t, threat=u)
        for t in (2, 3, 4, 6, 10)
        for u in (3, 5)
    },
    **{f"wait{w}": partial(ParametricBot, threshold=math.inf, wait=w) for w in (0, 0.5, 1, 2)},
}
"""Take-or-draw rules a seat's takes are fitted to, besides the family's: at a gain of
``t``, or of 0 once a rival could gain ``u``, or once one more card is expected to add
no more than ``w`` (``coloretto.bots.parametric``)."""
PLACE_RULES: dict[str, Callable[[], Bot]] = {
    **{
        f"spite0-{'long' if longer else 'short'}": partial(ParametricBot, longer=longer)
        for longer in (True, False)
    },
    **{
        f"spite{spite}-{victim}-{'long' if longer else 'short'}": partial(
            ParametricBot, spite=spite, victim=victim, longer=longer
        )
        for spite in (0.5, 1, 2, 4)
        for victim in ("next", "likely")
        for longer in (True, False)
    },
}
"""Placement rules a seat's placements are fitted to, besides the family's: its own gain
less ``spite`` times the next or the likeliest taker's, ties to the longer or shorter row."""

_LAST_ROUND = Card.LAST_ROUND


@dataclass(frozen=True)
class SeenDecision:
    """One earlier decision: the position the seat saw, what it could do, what it did."""

    seat: int
    view: PlayerView
    legal: tuple[Action, ...]
    action: Action
    ply: int = 0
    """The moves played before it."""
    rules: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)
    """Per rule of ``FAMILY``, ``TAKE_RULES`` and ``PLACE_RULES`` asked about so far (by
    name), whether it plays the action the seat played (``_fit_rule``)."""

    @cached_property
    def taking(self) -> tuple[float, bool] | None:
        """For a choice between drawing and taking a row: the worth of the best row (the
        points the seat would gain) and whether the seat took; ``None`` for other choices."""
        seen = self.view
        if seen.drawn_card is not None or self.legal[0].kind is not ActionKind.DRAW:
            return None
        now = seen.score_with(self.seat)
        best = max(
            seen.score_with(self.seat, seen.rows[a.row or 0]) - now
            for a in self.legal
            if a.kind is ActionKind.TAKE
        )
        return best, self.action.kind is ActionKind.TAKE


def decisions(view: PlayerView) -> list[SeenDecision]:
    """Every earlier decision with a choice, replayed from the deal (a bot deciding again
    later in the game keeps a ``Memory`` instead: it replays only the moves since)."""
    return Memory().decisions(view)


def take_thresholds(view: PlayerView, default: float, past: Sequence[SeenDecision]) -> list[float]:
    """Per seat: the most likely take threshold given its take-or-draw decisions."""
    evidence: list[list[tuple[float, bool]]] = [[] for _ in range(view.seats)]
    for decision in past:
        taking = decision.taking
        if taking is not None:
            evidence[decision.seat].append(taking)
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


class Memory:
    """What a bot keeps from one of its moves to the next in a game: the earlier decisions
    (``decisions``, replayed from the deal once, then only the moves since) and whether
    a policy plays each of them as the seat did (``plays``).

    Both depend on the public history only: an earlier decision's position does not
    change as the game goes on, and the policies asked about are deterministic and keep
    no state (the default is asked under a key that names what its choices depend on).
    A view of another game, or of an earlier point of this one, starts afresh. What is
    kept is replaced as a whole, so a move still thought about in an abandoned thread
    (a bot over its time limit) cannot leave it half updated.
    """

    def __init__(self) -> None:
        self._kept: _Kept | None = None

    def decisions(self, view: PlayerView) -> list[SeenDecision]:
        """``decisions(view)``, replaying only the moves since the last call when ``view``
        is a later point of the same game."""
        setup = view.sample(random.Random(0)).setup
        game = (view.rules, setup.removed, setup.starting, setup.first_player)
        history = view.history()
        kept = self._kept
        if kept is None or kept.game != game or history[: len(kept.history)] != kept.history:
            kept = _Kept(game, (), GameState.from_setup(view.rules, setup), 0, (), {}, None)
        state, drawn, found = kept.state, kept.drawn, list(kept.found)
        if len(history) > len(kept.history):
            # The cards drawn since, in their places: the deal the replay began with
            # knew only the cards drawn before.
            state = state.with_deck_order([c for c in setup.deck[drawn:] if c != _LAST_ROUND])
        known = _shared(game, history) if not kept.history else {}
        for ply in range(len(kept.history), len(history)):
            move = history[ply]
            legal = state.legal_actions()
            if len(legal) > 1:
                found.append(
                    known.get(ply)
                    or SeenDecision(move.player, state.view(move.player), legal, move.action, ply)
                )
            state = state.apply(move.action)
            drawn += (move.card is not None) + move.last_round  # cards taken from the deck
        found_now = tuple(found)
        _share(game, history, found_now)
        self._kept = _Kept(game, history, state, drawn, found_now, kept.verdicts, kept.fitted)
        return found

    @property
    def fitted(self) -> OpponentFit | None:
        """The opponents last fitted with this memory in the game last seen, if any."""
        return None if self._kept is None else self._kept.fitted

    def remember(self, fitted: OpponentFit) -> None:
        """Keep ``fitted``, the opponents just fitted to the game last seen."""
        if self._kept is not None:
            self._kept = replace(self._kept, fitted=fitted)

    def verdict(self, key: Hashable, decision: SeenDecision) -> bool | None:
        """``plays``'s answer for ``key`` at ``decision`` if it is kept, else ``None``."""
        return None if self._kept is None else self._kept.verdicts.get((key, decision.ply))

    def plays(self, key: Hashable, bot: Bot, decision: SeenDecision) -> bool:
        """Whether ``bot`` (asked under ``key``) chooses the action the seat played at
        ``decision``, one of the decisions of the game last seen."""
        verdicts = self._kept.verdicts if self._kept is not None else {}
        known = verdicts.get((key, decision.ply))
        if known is None:
            known = verdicts[key, decision.ply] = (
                bot.choose(decision.view, decision.legal) == decision.action
            )
        return known


@dataclass(frozen=True)
class _Kept:
    """A ``Memory``'s content: the game (its rules and the public part of its deal), the
    moves replayed, the position after them and the deck's cards they drew, the decisions
    found, the policies' verdicts on them, and the opponents last fitted."""

    game: tuple[object, ...]
    history: tuple[Move, ...]
    state: GameState
    drawn: int
    found: tuple[SeenDecision, ...]
    verdicts: dict[tuple[Hashable, int], bool]
    fitted: OpponentFit | None


SHARED_GAMES = 16
"""Games whose decisions are shared by every ``Memory`` of the process (then forgotten)."""

_SHARED: dict[tuple[object, ...], tuple[tuple[Move, ...], tuple[SeenDecision, ...]]] = {}
"""Per game (its rules and the public part of its deal), the longest history replayed and
the decisions found in it: a bot made in the middle of a game (the coach's, a hint's)
finds the decisions, and the rules' verdicts on them, that another worked out."""


def _shared(game: tuple[object, ...], history: tuple[Move, ...]) -> dict[int, SeenDecision]:
    """By ply, the shared decisions of ``game`` that ``history`` also reached: those before
    the first move where the two histories part."""
    entry = _SHARED.get(game)
    if entry is None:
        return {}
    seen, found = entry
    same = 0
    for mine, theirs in zip(history, seen, strict=False):
        if mine != theirs:
            break
        same += 1
    return {d.ply: d for d in found if d.ply < same}


def _share(
    game: tuple[object, ...], history: tuple[Move, ...], found: tuple[SeenDecision, ...]
) -> None:
    """Share ``found``, the decisions of ``history``, unless a longer history is shared."""
    entry = _SHARED.get(game)
    if entry is not None and len(entry[0]) >= len(history):
        return
    if entry is None and len(_SHARED) >= SHARED_GAMES:
        _SHARED.clear()
    _SHARED[game] = (history, found)


def fit_opponents(
    view: PlayerView,
    default: Bot,
    past: Sequence[SeenDecision],
    memory: Memory | None = None,
    default_key: Hashable = None,
    *,
    deadline: float | None = None,
) -> OpponentFit | None:
    """What the other seats play, fitted to their latest decisions (an ``OpponentFit``).

    Each seat's take-or-draw decisions and its placements are fitted apart, each to
    every rule: a ``FAMILY`` member's, one of the ``TAKE_RULES`` or ``PLACE_RULES``, or
    the default's. All the opponents are also fitted together, as one style, which the
    fit keeps when it explains them all about as well as their own fits do (within
    ``POLICY_MARGIN`` for each policy more): a table of one style is recognised from
    everyone's decisions, so sooner. With ``memory`` (which gave ``past``), what each
    rule would have done is kept for the next move: the others' answers always, the
    default's under ``default_key`` if given (anything hashable that fixes its choices,
    besides the bot itself).

    If the clock (``time.perf_counter``) reaches ``deadline`` first, the answer is
    the opponents last fitted with ``memory`` in this game, or ``None`` if there are none;
    what the fit cut short worked out is kept, so the next one goes on from it.
    """
    try:
        fitted = _fit_opponents(view, default, past, memory, default_key, deadline=deadline)
    except _Late:
        return None if memory is None else memory.fitted
    if memory is not None:
        memory.remember(fitted)
    return fitted


class _Late(Exception):
    """The fit's deadline passed."""


def _fit_opponents(
    view: PlayerView,
    default: Bot,
    past: Sequence[SeenDecision],
    memory: Memory | None,
    default_key: Hashable,
    *,
    deadline: float | None,
) -> OpponentFit:
    """``fit_opponents``, raising ``_Late`` once the deadline passes."""
    family = {name: make() for name, make in FAMILY.items()}
    takers = {**family, **{name: make() for name, make in TAKE_RULES.items()}}
    placers = {**family, **{name: make() for name, make in PLACE_RULES.items()}}
    keyed = None if default_key is None else ("default", default_key)
    take_fits: list[dict[str, float]] = []
    place_fits: list[dict[str, float]] = []
    fitted: dict[int, _Fitted] = {}
    for seat in range(view.seats):
        mine = [d for d in past if d.seat == seat][-POLICY_WINDOW:]
        if seat == view.seat or not mine:
            continue
        takes = [d for d in mine if d.view.drawn_card is None]
        places = [d for d in mine if d.view.drawn_card is not None]
        take_fits.append(_fits(default, keyed, takers, takes, memory, deadline=deadline))
        place_fits.append(_fits(default, keyed, placers, places, memory, deadline=deadline))
        fitted[seat] = _Fitted.of(take_fits[-1], place_fits[-1], takers, placers)
    shared = None
    if len(fitted) > 1:
        together = _Fitted.of(_summed(take_fits), _summed(place_fits), takers, placers)
        own = sum(fit.fit for fit in fitted.values())
        if together.fit + POLICY_MARGIN * (len(fitted) - 1) >= own:
            shared = together
    return OpponentFit(
        seat=view.seat,
        seats=view.seats,
        fitted=fitted,
        shared=shared,
        default=default,
        takers=takers,
        placers=placers,
    )


@dataclass(eq=False)
class OpponentFit:
    """What the other seats play, fitted to their decisions this game (``fit_opponents``).

    ``likeliest`` gives each seat the one policy that explains its decisions clearly
    better than the default does (by ``POLICY_MARGIN``), if any. ``sample`` draws a
    policy for each seat from what its decisions make likely: a priori the default with
    ``DEFAULT_BELIEF``, else any pair of a take-or-draw rule and a placement rule
    alike, each then weighted by how well it explains the seat's decisions, or the
    whole table's (one draw for all) when the table plays as one style. A seat without
    decisions yet has the prior alone, or the table's style.
    """

    seat: int
    """The seat of the bot that fitted its opponents."""
    seats: int
    fitted: Mapping[int, _Fitted]
    """The seats with decisions to fit, by seat."""
    shared: _Fitted | None
    """The fit of the whole table as one style, if it explains every seat about as well."""
    default: Bot
    takers: Mapping[str, Bot]
    placers: Mapping[str, Bot]
    _bots: dict[tuple[str, str], Bot] = field(default_factory=dict, init=False)

    @cached_property
    def _prior(self) -> _Fitted:
        """The belief in a seat without decisions: every rule as likely."""
        nothing = {"default": 0.0}
        return _Fitted.of(
            nothing | dict.fromkeys(self.takers, 0.0),
            nothing | dict.fromkeys(self.placers, 0.0),
            self.takers,
            self.placers,
        )

    @cached_property
    def likeliest(self) -> list[tuple[str, Bot | None]]:
        """Per seat, as ``(name, bot)``: the policy that explains it clearly better than
        the default, or ``("default", None)``; ``name`` is ``taking/placing`` where the
        two rules differ."""
        chosen: list[tuple[str, Bot | None]] = []
        for seat in range(self.seats):
            fit = self.fitted.get(seat)
            if fit is not None and self.shared is not None:
                fit = self.shared
            if fit is None or fit.fit <= fit.default + POLICY_MARGIN:
                chosen.append(("default", None))
            else:
                same = fit.taking == fit.placing
                name = fit.taking if same else f"{fit.taking}/{fit.placing}"
                chosen.append((name, self._bot(fit.taking, fit.placing)))
        return chosen

    def sample(self, rng: random.Random) -> list[Bot]:
        """A policy per seat drawn from the belief (the default for the bot's own seat)."""
        if self.shared is not None:
            bot = self._bot(*self.shared.draw(rng))
            return [self.default if s == self.seat else bot for s in range(self.seats)]
        drawn = [self.fitted.get(s, self._prior).draw(rng) for s in range(self.seats)]
        return [self.default if s == self.seat else self._bot(*drawn[s]) for s in range(self.seats)]

    def _bot(self, taking: str, placing: str) -> Bot:
        """The policy that takes or draws by rule ``taking`` and places by ``placing``."""
        bot = self._bots.get((taking, placing))
        if bot is None:
            if taking == placing:
                bot = self.takers.get(taking, self.default)
            else:
                take = self.takers.get(taking, self.default)
                bot = Mixed(take, self.placers.get(placing, self.default))
            self._bots[taking, placing] = bot
        return bot


@dataclass(frozen=True)
class _Fitted:
    """The rules that explain some decisions best, for taking and for placing, their
    fit (log-likelihood) and the default policy's, and every rule's fit to the takes
    and to the placements (``take``, ``place``: the belief that ``draw`` samples)."""

    taking: str
    placing: str
    fit: float
    default: float
    take: Mapping[str, float]
    place: Mapping[str, float]

    @classmethod
    def of(
        cls,
        take: Mapping[str, float],
        place: Mapping[str, float],
        takers: Mapping[str, Bot],
        placers: Mapping[str, Bot],
    ) -> _Fitted:
        """The best rules given each rule's fit to the takes and to the placements
        (one rule that explains both as well as any pair is kept whole)."""
        taking, placing = _best(take), _best(place)
        fit = take[taking] + place[placing]
        if placing in takers and take[placing] >= take[taking]:
            taking = placing
        elif taking in placers and place[taking] >= place[placing]:
            placing = taking
        return cls(taking, placing, fit, take["default"] + place["default"], take, place)

    def draw(self, rng: random.Random) -> tuple[str, str]:
        """A take-or-draw rule and a placement rule, each as likely as it explains the
        decisions, the default pair (``"default"`` twice) with ``DEFAULT_BELIEF`` a priori."""
        takes, take_weights = self._takes
        places, place_weights = self._places
        extra = self._extra
        if rng.random() * (take_weights[-1] * place_weights[-1] + extra) < extra:
            return "default", "default"
        return (
            rng.choices(takes, cum_weights=take_weights)[0],
            rng.choices(places, cum_weights=place_weights)[0],
        )

    @cached_property
    def _takes(self) -> tuple[list[str], list[float]]:
        return _cumulative(self.take)

    @cached_property
    def _places(self) -> tuple[list[str], list[float]]:
        return _cumulative(self.place)

    @cached_property
    def _extra(self) -> float:
        """The default pair's weight besides the one it has as any pair: its prior."""
        pairs = len(self.take) * len(self.place)
        odds = max(0.0, DEFAULT_BELIEF * (pairs - 1) / (1 - DEFAULT_BELIEF) - 1)
        take, place = self.take, self.place
        return odds * math.exp(
            take["default"] - max(take.values()) + place["default"] - max(place.values())
        )


def _cumulative(fits: Mapping[str, float]) -> tuple[list[str], list[float]]:
    """The rules and their likelihoods relative to the best one's, added up in order."""
    top = max(fits.values())
    return list(fits), list(itertools.accumulate(math.exp(f - top) for f in fits.values()))


def _fits(
    default: Bot,
    default_key: Hashable,
    rules: Mapping[str, Bot],
    past: Sequence[SeenDecision],
    memory: Memory | None,
    *,
    deadline: float | None,
) -> dict[str, float]:
    """The fit (log-likelihood) of ``past`` under the default policy (named
    ``"default"``) and under each of ``rules``, in that order."""
    fits = {"default": _fit(default, past, memory, default_key, deadline=deadline)}
    for name, bot in rules.items():
        fits[name] = _fit_rule(name, bot, past, deadline=deadline)
    return fits


def _summed(fits: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Per rule: its fits added up."""
    return {name: sum(fit[name] for fit in fits) for name in fits[0]}


def _best(fits: Mapping[str, float]) -> str:
    """The name of the best fit; ties go to the one named first (the default first)."""
    best_name, best_fit = "default", fits["default"]
    for name, fit in fits.items():
        if fit > best_fit:
            best_name, best_fit = name, fit
    return best_name


class Mixed:
    """A seat's policy that takes or draws as one bot and places as another."""

    def __init__(self, taking: Bot, placing: Bot) -> None:
        self.taking = taking
        self.placing = placing

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """``placing``'s choice for a drawn card, else ``taking``'s."""
        bot = self.placing if view.drawn_card is not None else self.taking
        return bot.choose(view, legal, budget)


def _fit_rule(
    name: str, bot: Bot, past: Sequence[SeenDecision], *, deadline: float | None
) -> float:
    """``_fit`` of the rule ``name`` (``bot``, one of ``FAMILY``, ``TAKE_RULES`` or
    ``PLACE_RULES``: deterministic, so what it plays is kept with each decision, shared
    by every memory that found it)."""
    total = 0.0
    for decision in past:
        verdicts = decision.rules
        same = verdicts.get(name)
        if same is None:
            if deadline is not None and time.perf_counter() >= deadline:
                raise _Late
            same = verdicts[name] = bot.choose(decision.view, decision.legal) == decision.action
        total += _likelihood(decision, same=same)
    return total


def _likelihood(decision: SeenDecision, *, same: bool) -> float:
    """The log-likelihood of ``decision`` if the seat's policy plays the action it played
    (``same``) or another, but for some noise."""
    if same:
        return math.log(1 - POLICY_NOISE)
    return math.log(POLICY_NOISE / (len(decision.legal) - 1))


def _fit(
    bot: Bot,
    past: Sequence[SeenDecision],
    memory: Memory | None = None,
    key: Hashable = None,
    *,
    deadline: float | None = None,
) -> float:
    """Log-likelihood of ``past`` if the seat plays ``bot`` but for some noise (what it
    plays is looked up in ``memory`` under ``key``, if both are given). Raises ``_Late``
    if the clock reaches ``deadline`` before ``bot`` is asked about a decision."""
    total = 0.0
    kept = memory if key is not None else None
    for decision in past:
        same = None if kept is None else kept.verdict(key, decision)
        if same is None:
            if deadline is not None and time.perf_counter() >= deadline:
                raise _Late
            if kept is not None:
                same = kept.plays(key, bot, decision)
            else:
                same = bot.choose(decision.view, decision.legal) == decision.action
        total += _likelihood(decision, same=same)
    return total
