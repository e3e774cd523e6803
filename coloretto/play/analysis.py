"""The one analysis of a decision, which the hints and the reviews both ask.

A decision is valued by the coach's bot (``COACH_BOT``, or another analyst named) from what
the seat to move knows: the bot takes in the game so far (it fits the other seats to their
decisions, without a time limit), is reseeded for the decision (``decision_seed``, from the
analysis seed and the ply), and values every legal action on deals it samples, all actions
on the same deals, within its own budget of deals (no clock). So the same decision with the
same seed gets the same values wherever it is asked: a hint in the game, a review later,
in this process or another. A bot kept from one decision to the next (``Coach``) only
saves the work of fitting the game again; its values are those of a new one.

The search bot gives its values deal by deal (``deal_values``): the differences between two
actions are then measured on each deal, and their standard errors (``Valuation.paired``)
are measured, not assumed: as small as the deals' luck common to both makes them.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol, TypeGuard, runtime_checkable

from coloretto.bots import Analyst, Bot, Budget, Estimate
from coloretto.bots.base import standard_error
from coloretto.bots.expert import ExpertBot
from coloretto.bots.guard import (
    checked_estimates,
    fallback,
    guarded_analysis,
    guarded_choice,
)
from coloretto.bots.players import CatchesUp, Reseeded
from coloretto.bots.registry import BotError, make_bot
from coloretto.engine import Action, GameState, PlayerView
from coloretto.engine.seeds import decision_seed
from coloretto.play.coach import CLEAR, COACH_BOT, Pairs, StoredHint, Valuation, ranked

COACH_SEED = 0
"""The analysis seed of the hints (and of a review unless it is given another): it picks the
deals the coach samples, never the game's cards."""


@runtime_checkable
class DealValuer(Protocol):
    """An analyst that gives every action's value deal by deal (the search bot does)."""

    def deal_values(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Mapping[Action, Sequence[tuple[float, float]]]:
        """Per action, its (chance to win, margin) on each deal, the same deals for all."""
        ...


def valuation(bot: Bot, view: PlayerView, legal: Sequence[Action]) -> Valuation:
    """``bot``'s valuation of every one of ``legal`` at ``view``, within its own budget:
    with the differences' errors measured deal by deal when it gives its deals
    (``DealValuer``). Raises ``BotError`` if it cannot analyse or answers nonsense."""
    if isinstance(bot, DealValuer):
        return _from_deals(bot.deal_values(view, legal), legal)
    if not isinstance(bot, Analyst):
        raise BotError("the bot cannot analyse positions (it has no analyse method)")
    estimates, problem = checked_estimates(bot.analyse(view, legal), legal)
    if estimates is None:
        raise BotError(f"the bot's analysis: {problem}")
    return Valuation(estimates)


def _from_deals(
    values: Mapping[Action, Sequence[tuple[float, float]]], legal: Sequence[Action]
) -> Valuation:
    """The estimates and paired errors of deal-by-deal values (checked: one value a deal,
    as many deals for every action, finite numbers in range)."""
    rows = [values.get(action) for action in legal]
    if len(values) != len(legal) or any(row is None for row in rows):
        raise BotError("the bot's analysis does not value exactly the legal actions")
    counts = {len(row) for row in rows if row is not None}
    if len(counts) != 1 or 0 in counts:
        raise BotError("the bot's analysis does not value every action on the same deals")
    columns = {action: tuple(zip(*values[action], strict=True)) for action in legal}
    estimates = {
        action: Estimate.of_deals(wins, margins) for action, (wins, margins) in columns.items()
    }
    checked, problem = checked_estimates(estimates, legal)
    if checked is None:
        raise BotError(f"the bot's analysis: {problem}")
    paired: dict[tuple[Action, Action], tuple[float, float]] = {}
    for i, a in enumerate(legal):
        for b in legal[i + 1 :]:
            (wins_a, margins_a), (wins_b, margins_b) = columns[a], columns[b]
            paired[a, b] = (
                standard_error([x - y for x, y in zip(wins_a, wins_b, strict=True)]),
                standard_error([x - y for x, y in zip(margins_a, margins_b, strict=True)]),
            )
    return Valuation(checked, paired)


class Coach:
    """The coach's bot ``bot`` for one game, analysing its decisions with ``seed``
    (``analyse``). The bot is kept between decisions, for what it remembers of the game
    (the fits of the seats' earlier decisions); a decision asked while another is being
    analysed gets a new bot, which answers alike."""

    def __init__(self, bot: str = COACH_BOT, seed: int = COACH_SEED) -> None:
        self.bot = bot
        self.seed = seed
        self._kept: Bot | None = None
        self._busy = threading.Lock()
        self._analyst: bool | None = None

    def analyses(self) -> bool:
        """True when the coach's bot can analyse (an ``Analyst``); raises ``BotError`` for a
        bot that cannot be made."""
        if self._analyst is None:
            self._analyst = isinstance(make_bot(self.bot, seed=self.seed), Analyst)
        return self._analyst

    def chooser(self, state: GameState) -> Bot:
        """A bot of the coach's for a choice at ``state`` (one that cannot analyse gives
        hints by its choice): a new one, caught up with the game and reseeded for it."""
        bot = make_bot(self.bot, seed=decision_seed(self.seed, state.ply))
        view = state.view(state.current_player)
        if view.history() and isinstance(bot, CatchesUp):
            bot.catch_up(view)
        return bot

    def analyse(self, state: GameState, again: int = 0) -> Valuation:
        """The valuation of every legal action of the seat to move in ``state`` (the
        ``again``-th further analysis on new deals: ``decision_seed``). Raises
        ``BotError`` for a bot that cannot analyse."""
        free = self._busy.acquire(blocking=False)
        try:
            bot = self._kept if free and self._kept is not None else None
            if bot is None:
                bot = make_bot(self.bot, seed=decision_seed(self.seed, state.ply, again))
                if free:
                    self._kept = bot
            view = state.view(state.current_player)
            if view.history() and isinstance(bot, CatchesUp):
                bot.catch_up(view)
            if isinstance(bot, Reseeded):
                bot.reseed(decision_seed(self.seed, state.ply, again))
            return valuation(bot, view, state.legal_actions())
        finally:
            if free:
                self._busy.release()


@dataclass(frozen=True)
class Advice:
    """The coach's advice for one decision: the action, the valuation it rests on (``None``
    from a bot that only chooses), and what went wrong (``None`` if nothing: else the
    action is a fallback's)."""

    action: Action
    valuation: Valuation | None
    problem: str | None = None


class Hints:
    """The hints of one game or match, by the coach ``bot`` with ``seed`` (``advise``), and
    those given so far, by game and ply (``given``: kept with the game, ``for_game``)."""

    def __init__(self, bot: str = COACH_BOT, seed: int = COACH_SEED) -> None:
        self.coach = Coach(bot, seed)
        self.given: dict[tuple[int, int], StoredHint] = {}
        """The hints given, by game and ply (replaced as a whole when one is added)."""

    def advise(self, state: GameState, game_number: int, time_limit: float) -> Advice:
        """The best action for the seat to move in ``state`` (game ``game_number`` of its
        match) by the one analysis (``Coach.analyse``), through the guard (within
        ``time_limit`` seconds, a fallback if the bot fails), kept in ``given``. A bot
        that cannot analyse is asked for its choice instead."""
        coach = self.coach
        view = state.view(state.current_player)
        legal = state.legal_actions()
        try:
            analyses = coach.analyses()
        except BotError as error:
            return Advice(fallback(view, legal), None, str(error))
        if not analyses:
            answer = guarded_choice(lambda: coach.chooser(state), view, legal, time_limit)
            return Advice(answer.action, None, answer.problem)
        asked = _Asked(coach, state)
        analysis = guarded_analysis(lambda: asked, view, legal, time_limit)
        if analysis.estimates is None or asked.found is None:
            return Advice(fallback(view, legal), None, analysis.problem or "no analysis")
        found = kept(asked.found)
        best = recommended(found, ExpertBot().choose(view, legal))
        hint = StoredHint(best, found, coach.bot, coach.seed)
        # Replaced whole: the thread that saves the game reads it while hints are given.
        self.given = {**self.given, (game_number, state.ply): hint}
        return Advice(best, found)

    def for_game(self, game_number: int) -> dict[int, StoredHint]:
        """The hints given in game ``game_number``, by ply."""
        return {ply: hint for (game, ply), hint in self.given.items() if game == game_number}


def recommended(found: Valuation, prior: Action) -> Action:
    """The move to recommend: the best by ``found``, unless it is not clearly better than
    ``prior`` (the expert's choice, the search's starting point) in chance to win or in
    points (by ``CLEAR`` standard errors of the difference): then ``prior``, as the search
    bot keeps the expert's choice unless another beats it. Recommending the top of noisy
    estimates would chase their noise.

    >>> from coloretto.engine import DRAW
    >>> take = Action.take(0)
    >>> estimates = {DRAW: Estimate(0.5, 1.0), take: Estimate(0.49, 0.5)}
    >>> close = Valuation(estimates, {(DRAW, take): (0.02, 1.0)})
    >>> recommended(close, take), recommended(close, DRAW)
    (Action.parse('take 1'), Action.parse('draw'))
    >>> clear = Valuation(close.estimates, {(DRAW, take): (0.001, 0.1)})
    >>> recommended(clear, take)
    Action.parse('draw')
    """
    estimates = found.estimates
    best = ranked(estimates)[0]
    win_error, margin_error = found.difference_error(best, prior)
    win = estimates[best].win - estimates[prior].win
    margin = estimates[best].margin - estimates[prior].margin
    return best if win > CLEAR * win_error or margin > CLEAR * margin_error else prior


class _Asked:
    """The coach asked about one decision through the guard; its valuation is kept."""

    def __init__(self, coach: Coach, state: GameState) -> None:
        self.coach, self.state = coach, state
        self.found: Valuation | None = None

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """The best action by the analysis."""
        return ranked(self.analyse(view, legal, budget))[0]

    def analyse(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Mapping[Action, Estimate]:
        """The coach's estimates for the decision (its own budget: the analysis is the
        same wherever it is asked)."""
        self.found = self.coach.analyse(self.state)
        return self.found.estimates


def analyse_decision(
    state: GameState, *, bot: str = COACH_BOT, seed: int = COACH_SEED, again: int = 0
) -> Valuation:
    """The one analysis of the decision at ``state`` (the game so far: ``state`` holds its
    history) for the seat to move, by a new ``bot`` with the analysis ``seed``
    (``Coach.analyse``). Raises ``BotError`` for a bot that cannot analyse."""
    return Coach(bot, seed).analyse(state, again)


def paired_json(paired: Pairs) -> list[dict[str, object]]:
    """The paired errors as a record keeps them: one entry a pair, ``a`` and ``b`` the
    actions, the errors rounded as estimates are (chance to 4 decimals, points to 2)."""
    return [
        {"a": str(a), "b": str(b), "win_error": round(w, 4), "margin_error": round(m, 2)}
        for (a, b), (w, m) in paired.items()
    ]


def paired_of(entries: object, legal: Sequence[Action]) -> Pairs:
    """The paired errors kept in a record (``paired_json``), those that fit ``legal``; an
    entry that does not fit is dropped (the pair is then taken as independent)."""
    if not isinstance(entries, list):
        return {}
    paired: dict[tuple[Action, Action], tuple[float, float]] = {}
    for entry in entries:
        pair = _pair(entry, legal)
        if pair is not None:
            paired[pair[0]] = pair[1]
    return paired


def _pair(
    entry: object, legal: Sequence[Action]
) -> tuple[tuple[Action, Action], tuple[float, float]] | None:
    if not isinstance(entry, Mapping):
        return None
    first, second, win, margin = (entry.get(k) for k in ("a", "b", "win_error", "margin_error"))
    if not isinstance(first, str) or not isinstance(second, str):
        return None
    if (
        not finite(win)
        or not finite(margin)
        or not 0 <= min(win, margin) <= max(win, margin) <= MOST_ERROR
    ):
        return None
    try:
        a, b = Action.parse(first), Action.parse(second)
    except ValueError:
        return None
    if a not in legal or b not in legal or a == b:
        return None
    return (a, b), (float(win), float(margin))


MOST_ERROR = 1000.0
"""The largest standard error (points) a record may claim."""


def finite(value: object) -> TypeGuard[float]:
    """True for a finite number (not a bool): what a record's figures must be.

    >>> finite(1), finite(2.5), finite(float("nan")), finite(True), finite("1")
    (True, True, False, False, False)
    """
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def rounded(estimate: Estimate) -> Estimate:
    """The estimate as a record keeps it: chances to 4 decimals, points to 2.

    >>> rounded(Estimate(0.123456, -1.23456, 0.01234567, 0.4567, 8))
    Estimate(win=0.1235, margin=-1.23, win_error=0.0123, margin_error=0.46, samples=8)
    """
    return Estimate(
        round(estimate.win, 4),
        round(estimate.margin, 2),
        round(estimate.win_error, 4),
        round(estimate.margin_error, 2),
        estimate.samples,
    )


def kept(valuation: Valuation) -> Valuation:
    """``valuation`` as a record keeps it (``rounded``; the paired errors alike)."""
    return Valuation(
        {action: rounded(estimate) for action, estimate in valuation.estimates.items()},
        {pair: (round(w, 4), round(m, 2)) for pair, (w, m) in valuation.paired.items()},
    )


def valuation_json(valuation: Valuation) -> dict[str, Any]:
    """``valuation`` as a record keeps it: ``options`` (each action's estimate) and
    ``pairs`` (``paired_json``)."""
    return {
        "options": [
            {"action": str(action), **asdict(rounded(estimate))}
            for action, estimate in valuation.estimates.items()
        ],
        "pairs": paired_json(valuation.paired),
    }


def valuation_of(entry: Mapping[str, Any], legal: Sequence[Action]) -> Valuation | None:
    """The valuation kept in a record's ``entry`` (``valuation_json``) if it values exactly
    ``legal``, else ``None``; pairs that do not fit are dropped."""
    options = entry.get("options")
    if not isinstance(options, list):
        return None
    estimates: dict[Action, Estimate] = {}
    for option in options:
        parsed = _option(option)
        if parsed is None or parsed[0] not in legal or parsed[0] in estimates:
            return None
        estimates[parsed[0]] = parsed[1]
    if len(estimates) != len(legal):
        return None
    return Valuation(estimates, paired_of(entry.get("pairs"), legal))


def _option(option: object) -> tuple[Action, Estimate] | None:
    if not isinstance(option, Mapping) or not isinstance(option.get("action"), str):
        return None
    try:
        action = Action.parse(option["action"])
    except ValueError:
        return None
    win, margin, win_error, margin_error = (
        option.get(k) for k in ("win", "margin", "win_error", "margin_error")
    )
    samples = option.get("samples")
    if not (finite(win) and finite(margin) and finite(win_error) and finite(margin_error)):
        return None
    if type(samples) is not int or not 0.0 <= win <= 1.0 or abs(margin) > MOST_ERROR:
        return None
    if min(win_error, margin_error) < 0:
        return None
    return action, Estimate(
        float(win), float(margin), float(win_error), float(margin_error), samples
    )


HINTS_KEY = "hints"
"""The key of the hints given in the game, in its record's metadata."""

HINTS_FORMAT = "coloretto-hints/1"

MAX_BOT_SPEC = 200
"""The longest bot spec a record may name."""


def hints_meta(hints: Mapping[int, StoredHint]) -> dict[str, Any]:
    """The hints given in a game (by ply) as JSON-ready metadata (``meta.hints``)."""
    return {
        "format": HINTS_FORMAT,
        "hints": [
            {
                "ply": ply,
                "action": str(hint.action),
                "bot": hint.bot,
                "seed": hint.seed,
                **valuation_json(hint.valuation),
            }
            for ply, hint in sorted(hints.items())
        ],
    }


def hints_of(meta: Mapping[str, Any], states: Sequence[GameState]) -> dict[int, StoredHint]:
    """The hints kept in a record's metadata (``hints_meta``), by ply: only those that fit
    the game (``states[i]``: the position after ``i`` actions; a hint's position is one of
    them, its action and options legal there)."""
    data = meta.get(HINTS_KEY)
    if not isinstance(data, Mapping) or data.get("format") != HINTS_FORMAT:
        return {}
    entries = data.get("hints")
    found: dict[int, StoredHint] = {}
    for entry in entries if isinstance(entries, list) else ():
        hint = _hint(entry, states)
        if hint is not None:
            found[hint[0]] = hint[1]
    return found


def _hint(entry: object, states: Sequence[GameState]) -> tuple[int, StoredHint] | None:
    if not isinstance(entry, Mapping):
        return None
    ply, text, bot, seed = (entry.get(k) for k in ("ply", "action", "bot", "seed"))
    if type(ply) is not int or not 0 <= ply < len(states) or not isinstance(text, str):
        return None
    if not isinstance(bot, str) or not 0 < len(bot) <= MAX_BOT_SPEC or type(seed) is not int:
        return None
    legal = states[ply].legal_actions()
    try:
        action = Action.parse(text)
    except ValueError:
        return None
    found = valuation_of(entry, legal)
    if found is None or action not in legal:
        return None
    return ply, StoredHint(action, found, bot, seed)
