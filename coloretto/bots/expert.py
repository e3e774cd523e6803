"""``expert``: a heuristic player that counts cards, reads the table and poisons rows.

No tree search. Every decision rests on two estimates:

- what a set of cards is worth to a seat: the exact change in its best score
  (jokers and "+2" cards included, on either scoring side). For itself the bot
  adds the change in its *prospects*: the points the colours it builds should
  still bring, from the unseen cards of each colour shared with the seats that
  collect it too, less (on the gray side) what the cards it should still get in
  the colours it does not build would cost (its *junk*). Prospects and junk
  shrink as the Last Round card nears and vanish in the last round, where only
  the score counts;
- a one-cycle outlook of the current round: each other seat still in the round
  takes its best row with a probability that grows with that row's worth, or
  draws and adds a card; then the bot takes the best row left, and the seats
  that waited get the best of what remains.

Taking, drawing and placing are all compared through that outlook, so the bot
takes a short row early when the rows are turning against it, and places a
card it does not want where it hurts the likely takers most.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from functools import cache
from typing import NamedTuple

from coloretto.bots import evaluation
from coloretto.bots.base import Budget
from coloretto.bots.evaluation import (
    DEFAULT_FORESIGHT,
    MAX_COUNT,
    PROSPECT_DECIMALS,
    building,
    expected_cards,
    expected_junk,
    future_cards,
    less_junk,
    prospect_table,
)
from coloretto.bots.model import Memory, take_thresholds
from coloretto.bots.options import flag, number
from coloretto.engine import Action, ActionKind, Card, PlayerView, Rules, Scoring, best_total

Row = tuple[Card, ...]

_JOKER = Card.JOKER
_GOLDEN = Card.GOLDEN_JOKER
_PLUS2 = Card.PLUS2

DEFAULT_DENIAL = 0.5
DEFAULT_THRESHOLD = 3.0
DEFAULT_SOFTNESS = 1.0
EARLY_CARDS = 45
"""How far (cards before the Last Round card) the ``early`` term of the timing looks."""


class Timing(NamedTuple):
    """The points by which taking must beat drawing, as a sum of terms.

    ``patience``, plus ``waiting`` times the share of the open rows' places still free,
    ``crowd`` times the share of the other seats still in the round, ``final`` in the last
    round, and ``early`` times how far the Last Round card still is (1 with
    ``EARLY_CARDS`` or more cards before it, 0 when it is drawn).

    >>> brown = Timing(patience=-2.0, waiting=8.0)
    >>> brown.points(free=6, room=12, crowd=1.0, final=False, early=1.0)
    2.0
    """

    patience: float = 0.0
    waiting: float = 0.0
    crowd: float = 0.0
    final: float = 0.0
    early: float = 0.0

    def points(self, *, free: int, room: int, crowd: float, final: bool, early: float) -> float:
        """The sum for a table with ``free`` of the open rows' ``room`` places free and these
        shares (0-1)."""
        return (
            self.patience
            + (self.waiting * free / room if room else 0.0)
            + self.crowd * crowd
            + (self.final if final else 0.0)
            + self.early * early
        )


def default_timing(scoring: Scoring, seats: int) -> Timing:
    """The expert's timing by scoring side and number of seats.

    Waiting pays on the brown side while the rows can still grow (full rows of one's
    colours score big); once they are nearly full, taking early pays. Heads-up a fixed
    patience plays better (the one other seat's turn is most of the round). On the gray
    side with up to four seats the timing is best left as the outlook sees it; with five,
    terms fitted by a cross-entropy search over 4- and 5-player tables of the population
    (kept for five seats only, where they held on fresh deals; docs/bot-strength.md, "The
    expert's timing at five gray seats").

    >>> default_timing(Scoring.GRAY, 4)
    Timing(patience=0.0, waiting=0.0, crowd=0.0, final=0.0, early=0.0)
    """
    if seats == 2:
        return Timing(patience=2.0) if scoring is Scoring.BROWN else Timing()
    if scoring is Scoring.BROWN:
        return Timing(patience=-2.0, waiting=8.0)
    if seats >= 5:
        return Timing(patience=0.4, waiting=0.2, crowd=0.6, final=-0.9, early=-0.8)
    return Timing()


_MAX_DENIAL = 2.0
_MAX_FORESIGHT = 20.0
_MAX_JUNK = 4.0
JUNK_SHARE = 0.5
"""The expert's ``junk`` as a share of the search's: the search values a round's end,
where the expert weighs every take and placement."""


def default_junk(scoring: Scoring, seats: int) -> float:
    """The expert's ``junk`` by scoring side and number of seats: ``JUNK_SHARE`` of the
    search's (``coloretto.bots.evaluation.default_junk``).

    Only the gray side has junk to fear. With five seats its fitted timing
    (``default_timing``) already plays for it: the term lowered the expert's results
    there, where it raised them at three and four seats (docs/bot-strength.md, "The
    expert's junk").

    >>> default_junk(Scoring.GRAY, 4), default_junk(Scoring.GRAY, 5), default_junk(Scoring.BROWN, 4)
    (0.25, 0.0, 0.0)
    """
    return JUNK_SHARE * evaluation.default_junk(scoring, seats)


class ExpertBot:
    """Counts cards, reads how soon each seat takes, weighs each row for itself and for its
    opponents, and poisons rows.

    Options (all with sane defaults):

    - ``denial`` (0-2): how much opponents' gains count against its own when it
      places a card. (Weighing them when choosing between taking and drawing as
      well made it take too early and lose more games, so it does not.)
    - ``foresight`` (0-20): how far it trusts the prospects of the colours it builds;
      by default 0.5 on the brown side and 6 on the gray side.
    - ``threshold``: the worth (points) at which it expects an opponent to take a row.
    - ``softness``: how gradually that expectation sets in (points).
    - ``patience``, ``waiting``, ``crowd``, ``final`` and ``early``: the terms of the
      points by which taking must beat drawing before it takes (``Timing``); each one
      given replaces that term of ``default_timing``. The outlook sees only one turn
      ahead, so it undervalues waiting while the rows can grow and overvalues it once
      they are nearly full: by default ``patience`` -2 and ``waiting`` 8 on the brown
      side with three or more players (6 points to beat when the rows are empty, -2 when
      they are full), ``patience`` 2 heads-up; on the gray side nothing up to four
      players, and fitted terms with five.
    - ``junk`` (0-4): the share of its cards to come it expects in colours it does not
      build, whose cost (``coloretto.bots.evaluation.junk_cost``) counts against a
      collection already spread over them; by default 0.25 on the gray side up to four
      seats, where a second or third card of a minus colour costs 3 or 4 points, and 0
      otherwise (``default_junk``).
    - ``observe`` (default true): fit each seat's threshold to what it has done this
      game (``coloretto.bots.model``) instead of expecting ``threshold`` of everyone.

    Deterministic: it uses no randomness, so the seed only completes the interface.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        denial: float = DEFAULT_DENIAL,
        foresight: float | None = None,
        threshold: float = DEFAULT_THRESHOLD,
        softness: float = DEFAULT_SOFTNESS,
        patience: float | None = None,
        waiting: float | None = None,
        crowd: float | None = None,
        final: float | None = None,
        early: float | None = None,
        junk: float | None = None,
        observe: bool = True,
    ) -> None:
        self.seed = seed
        self.observe = flag("observe", observe)
        self.thresholds: Sequence[float] | None = None
        """Per seat, the take threshold to expect; fixed by a search for its rollouts."""
        self._memory = Memory()
        """The game's decisions so far (``observe``), kept from one move to the next."""
        self.denial = number("denial", denial, low=0, high=_MAX_DENIAL)
        self.foresight = (
            None
            if foresight is None
            else number("foresight", foresight, low=0, high=_MAX_FORESIGHT)
        )
        self.junk = None if junk is None else number("junk", junk, low=0, high=_MAX_JUNK)
        self.threshold = number("threshold", threshold)
        self.softness = number("softness", softness, above=0)
        self.patience = _optional("patience", patience)
        self.waiting = _optional("waiting", waiting)
        self.crowd = _optional("crowd", crowd)
        self.final = _optional("final", final)
        self.early = _optional("early", early)

    def timing(self, scoring: Scoring, seats: int) -> Timing:
        """The timing it plays with: ``default_timing`` with the terms given replaced.

        >>> ExpertBot(final=0).timing(Scoring.GRAY, 5).final
        0.0
        """
        given = (self.patience, self.waiting, self.crowd, self.final, self.early)
        return _timing(scoring, seats, given)

    def junk_share(self, scoring: Scoring, seats: int) -> float:
        """The ``junk`` it plays with: the option if given, else ``default_junk``.

        >>> ExpertBot().junk_share(Scoring.GRAY, 4), ExpertBot(junk=1).junk_share(Scoring.BROWN, 4)
        (0.25, 1.0)
        """
        return default_junk(scoring, seats) if self.junk is None else self.junk

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """The expert's choice among ``legal`` for the seat ``view.seat``."""
        if len(legal) == 1:
            return legal[0]
        if view.drawn_card is not None:
            if _alike(view, legal):  # every outlook the first one: the first is the best
                return legal[0]
            placing = _Outlook(view, self, self.denial, self.expected_thresholds(view))
            return placing.best_placement(view.drawn_card, legal)
        return _Outlook(view, self, 0.0, self.expected_thresholds(view)).take_or_draw(legal)

    def expected_thresholds(self, view: PlayerView) -> Sequence[float]:
        """Per seat, the worth of a row at which it is expected to take it: fixed, observed
        from this game's decisions (``observe``), or the ``threshold`` option for all."""
        if self.thresholds is not None:
            return self.thresholds
        if self.observe:
            return take_thresholds(view, self.threshold, self._memory.decisions(view))
        return [self.threshold] * view.seats

    def rate(self, view: PlayerView, legal: Sequence[Action]) -> dict[Action, float]:
        """Each of ``legal`` valued in points, as the expert sees it one turn ahead.

        Its own choice is (nearly always) the best rated; a search uses the ratings
        to decide which actions are worth a closer look.
        """
        if view.drawn_card is not None:
            placing = _Outlook(view, self, self.denial, self.expected_thresholds(view))
            return {a: placing.place_value(view.drawn_card, a.row or 0) for a in legal}
        table = _Outlook(view, self, 0.0, self.expected_thresholds(view))
        values = {a: table.take_value(a.row or 0) for a in legal if a.kind is ActionKind.TAKE}
        for action in legal:
            if action.kind is ActionKind.DRAW:
                values[action] = table.draw_value() + table.patience
        return values


@cache
def _timing(
    scoring: Scoring,
    seats: int,
    given: tuple[float | None, float | None, float | None, float | None, float | None],
) -> Timing:
    """``default_timing`` with the terms ``given`` (in ``Timing``'s order) replaced."""
    terms = {
        name: value for name, value in zip(Timing._fields, given, strict=True) if value is not None
    }
    return default_timing(scoring, seats)._replace(**terms)


GAINS_KEPT = 4_000
"""Collections whose what-if gains are remembered between decisions (then forgotten)."""

_JOKER_SLOT = -1
_PLUS2_SLOT = -2
_NO_SLOT = -3


class _Collector:
    """One seat's collection, scored what-if: exact points, plus prospects if given.

    A collector is kept by collection (``_GAINS``, through ``_collector``) with the gains
    asked about so far, so only new questions are scored. The rows are kept as plain
    numbers (a card equals its number, so a row of cards finds them): tuples of numbers
    are not tracked by Python's garbage collector, whose full collections would otherwise
    walk every row ever asked about.
    """

    __slots__ = ("base", "counts", "game", "jokers", "junk", "plus", "plus2", "prospects",
                 "rows", "slots", "table")  # fmt: skip

    def __init__(
        self,
        game: tuple[tuple[int, ...], int, tuple[Card, ...]],
        held: tuple[int, ...],
        expected: tuple[float, ...] | None,
        junk: tuple[float, ...] | None,
    ) -> None:
        table, plus, colours = game
        self.game = game
        self.slots = _slots(colours)
        """Per card value: its colour's index, or ``_JOKER_SLOT``, ``_PLUS2_SLOT``,
        ``_NO_SLOT``."""
        self.counts = [held[c] for c in colours]
        self.jokers = held[_JOKER] + held[_GOLDEN]
        self.plus2 = held[_PLUS2]
        self.table = table
        self.plus = plus
        self.prospects = None if expected is None else [_prospects(table, e) for e in expected]
        self.junk = junk
        self.rows: dict[tuple[int, ...], float] = {}
        self.base = self.value(())

    def value(self, cards: Row) -> float:
        """The score after adding ``cards``, plus the prospects of the colours being built,
        less the cost of the junk to come in the others."""
        counts = list(self.counts)
        jokers, plus2, slots = self.jokers, self.plus2, self.slots
        for card in cards:
            slot = slots[card]
            if slot >= 0:
                counts[slot] += 1
            elif slot == _PLUS2_SLOT:
                plus2 += 1
            elif slot == _JOKER_SLOT:
                jokers += 1
        prospects, junk = self.prospects, self.junk
        if prospects is None and junk is None:
            return best_total(counts, jokers, plus2, self.table, self.plus)
        key = (*counts, jokers, plus2)
        scored = _SCORED.get(key)
        if scored is None or scored[0] != self.game:
            if len(_SCORED) >= SCORED_KEPT:
                _SCORED.clear()
            total = best_total(counts, jokers, plus2, self.table, self.plus)
            scored = _SCORED[key] = (self.game, total, building(counts, self.plus))
        _, points, built = scored
        if prospects is not None:
            points += sum([prospects[i][counts[i]] for i in built])
        return points if junk is None else less_junk(points, self.table, counts, built, junk)

    def gain(self, cards: Row) -> float:
        """How much taking ``cards`` changes the value."""
        rows = self.rows
        gain = rows.get(cards)
        if gain is None:
            gain = rows[tuple(map(int, cards))] = self.value(cards) - self.base
        return gain


SCORED_KEPT = 20_000
"""Collections whose score and colours built are remembered (then forgotten)."""

_SCORED: dict[tuple[int, ...], tuple[Hashable, float, list[int]]] = {}
"""By a collection's counts (per colour in play, then its jokers and "+2" cards): the game
(scoring table, plus colours, colours in play) it was scored in, its score (``best_total``)
and the colours it builds (``building``), for ``_Collector.value``."""

_GAINS: dict[Hashable, _Collector] = {}
"""Collectors by collection: the same collections come back in decision after decision
(an opponent's collection changes only when it takes a row), in play and in rollouts."""


def _collector(
    game: tuple[tuple[int, ...], int, tuple[Card, ...]],
    held: tuple[int, ...],
    expected: tuple[float, ...] | None,
    junk: tuple[float, ...] | None,
) -> _Collector:
    """The collector of ``held`` (counts by card value) in ``game`` (the scoring table, the
    plus colours and the colours in play), with these rounded expectations."""
    key = (game, held, expected, junk)
    collector = _GAINS.get(key)
    if collector is None:
        if len(_GAINS) >= GAINS_KEPT:
            _GAINS.clear()
        collector = _GAINS[key] = _Collector(game, held, expected, junk)
    return collector


LONGEST = 64
"""More cards than a colour has: ``_prospects`` tables reach this far."""


@cache
def _prospects(table: tuple[int, ...], expected: float) -> tuple[float, ...]:
    """``prospect_table`` for any count up to ``LONGEST`` (``MAX_COUNT`` or more alike)."""
    prospects = prospect_table(table, expected)
    return prospects + prospects[MAX_COUNT:] * (LONGEST - len(prospects))


@cache
def _slots(colours: tuple[Card, ...]) -> tuple[int, ...]:
    """Per card value, where ``_Collector.value`` counts it (``_Collector.slots``)."""
    slots = [_NO_SLOT] * len(Card)
    for i, colour in enumerate(colours):
        slots[colour] = i
    slots[_JOKER] = slots[_GOLDEN] = _JOKER_SLOT
    slots[_PLUS2] = _PLUS2_SLOT
    return tuple(slots)


class _Outlook:
    """One decision's analysis of the table, from the point of view of the seat to move.

    The hot path of the search bot's rollouts: the loops are written out, and rows and
    seats are indexed by number (lists rather than dicts).
    """

    def __init__(
        self, view: PlayerView, bot: ExpertBot, against: float, thresholds: Sequence[float]
    ) -> None:
        rules = view.rules
        seats = rules.seats
        me = view.seat
        self.view = view
        self.thresholds = thresholds
        self.softness = bot.softness
        self.me = me
        self.rows = view.rows
        self.caps = view.row_capacities
        self.open_rows = [r for r, taken in enumerate(view.rows_taken) if not taken]
        out = view.seats_out
        self.others = [s for s in ((me + k) % seats for k in range(1, seats)) if not out[s]]
        self.weight = _weights(rules, me, against)
        unseen = view.unseen()
        total = sum(unseen.values())
        self.deck = [(card, n / total) for card, n in unseen.items()] if total else []
        self.can_draw = view.deck_size > 0
        held = [view.counts(s) for s in range(seats)]
        scoring = rules.scoring
        foresight = DEFAULT_FORESIGHT[scoring] if bot.foresight is None else bot.foresight
        self.patience = self._patience(bot.timing(scoring, seats))
        expected = _rounded(self._expected_cards(view, unseen, held, foresight))
        junk = _rounded(self._junk(view, unseen, bot.junk_share(scoring, seats)))
        game = (scoring.table, rules.plus_colours, view.colours)
        self.collectors = [
            _collector(game, counts, expected, junk)
            if s == me
            else _collector(game, counts, None, None)
            for s, counts in enumerate(held)
        ]
        self._worths: list[dict[Row, float]] = [{} for _ in range(seats)]
        self._means: list[float | None] = [None] * seats
        self._placed: dict[tuple[Card, Row, int], float] = {}
        self._takes: dict[int, float] = {}

    # ------------------------------------------------------------ values

    def _patience(self, timing: Timing) -> float:
        """Points by which taking must beat drawing at this table (``Timing``)."""
        view = self.view
        before = view.cards_before_last_round
        return timing.points(
            free=sum(self.caps[r] - len(self.rows[r]) for r in self.open_rows),
            room=sum(self.caps[r] for r in self.open_rows),
            crowd=len(self.others) / max(1, view.rules.seats - 1),
            final=before is None,
            early=0.0 if before is None else min(before, EARLY_CARDS) / EARLY_CARDS,
        )

    def _expected_cards(
        self,
        view: PlayerView,
        unseen: dict[Card, int],
        held: list[tuple[int, ...]],
        foresight: float,
    ) -> list[float] | None:
        """Per colour in play: how many more cards of it I may collect after this round.

        The cards still to come are shared among the seats, and a colour other
        seats collect too is shared with them. ``None`` in the last round.
        """
        before = view.cards_before_last_round
        if before is None or foresight == 0.0:
            return None
        future = future_cards(before, sum(self.caps), view.rules.seats, foresight)
        others = [counts for s, counts in enumerate(held) if s != self.me]
        rivals = [sum([1 for counts in others if counts[colour]]) for colour in view.colours]
        return expected_cards(future, [unseen.get(c, 0) for c in view.colours], rivals)

    def _junk(self, view: PlayerView, unseen: dict[Card, int], junk: float) -> list[float] | None:
        """Per colour in play: how many more cards of it I should expect whether I want
        them or not, ``junk`` times my share of the cards to come spread by the unseen
        cards (``junk_cost``). ``None`` in the last round or without ``junk``."""
        before = view.cards_before_last_round
        if before is None or junk == 0.0:
            return None
        share = junk * future_cards(before, sum(self.caps), view.rules.seats, 1.0)
        left = [unseen.get(c, 0) for c in view.colours]
        return expected_junk(share, left, sum(left))

    def mean(self, seat: int) -> float:
        """What one random unseen card is worth to ``seat``."""
        mean = self._means[seat]
        if mean is None:
            gain = self.collectors[seat].gain
            mean = self._means[seat] = sum(p * gain((card,)) for card, p in self.deck)
        return mean

    def worth(self, seat: int, cards: Row) -> float:
        """What taking ``cards`` is worth to ``seat`` (a golden joker brings a card)."""
        known = self._worths[seat]
        value = known.get(cards)
        if value is None:
            value = self.collectors[seat].gain(cards)
            if self.can_draw and _GOLDEN in cards:
                value += self.mean(seat)
            known[cards] = value
        return value

    # ------------------------------------------------------------ outlook

    def outlook(self, rows: tuple[Row, ...], open_rows: list[int], active: bool) -> float:
        """Expected worth of the rest of this round to me, less weighted opponents' gains.

        ``active`` says whether I still take a row after the others have moved. Each other
        seat still in the round takes its best row with a chance that grows with its worth
        (``thresholds``, ``softness``: certainly once no card can be added), its best left
        if that one is gone, and so on; or draws. Then I take my best surviving row
        (``_best_left``), and the seats that drew theirs, for what they count against me.
        """
        caps = self.caps
        survive = [1.0] * len(caps)
        room = [r for r in open_rows if len(rows[r]) < caps[r]]
        sure = not room or not self.can_draw
        filled = [r for r in open_rows if rows[r]]
        thresholds = self.thresholds
        softness = self.softness
        weights = self.weight
        worths = self._worths
        worth = self.worth
        draws = 0.0
        against = 0.0
        waiting: list[tuple[int, float]] = []
        for seat in self.others:
            known = worths[seat]
            ranked = []
            for r in filled:
                cards = rows[r]
                value = known.get(cards)
                ranked.append((worth(seat, cards) if value is None else value, r))
            if not ranked:
                p = 0.0
            else:
                ranked.sort(reverse=True)
                if sure:
                    p = 1.0
                else:
                    x = (ranked[0][0] - thresholds[seat]) / softness
                    p = 0.0 if x < -30.0 else 1.0 if x > 30.0 else 1.0 / (1.0 + math.exp(-x))
            left = p
            weight = weights[seat]
            for value, r in ranked:
                taken = left * survive[r]
                survive[r] -= taken
                left -= taken
                if weight:
                    against += weight * taken * value
            draws += 1.0 - p
            if 1.0 - p > 0.0 and weight > 0.0:
                waiting.append((seat, 1.0 - p))
        fills = [0.0] * len(caps)
        if room:
            free = [caps[r] - len(rows[r]) for r in room]
            slots = sum(free)
            for r, n in zip(room, free, strict=True):
                share = draws * n / slots
                fills[r] = share if share < n else n  # min(n, share)
        mine = 0.0
        if active:
            mine = self._best_left(self.me, rows, open_rows, survive, fills, taking=bool(waiting))
        for seat, p in waiting:
            later = self._best_left(seat, rows, open_rows, survive, fills, taking=False)
            against += weights[seat] * p * later
        return mine - against

    def _best_left(
        self,
        seat: int,
        rows: tuple[Row, ...],
        open_rows: list[int],
        survive: list[float],
        fills: list[float],
        *,
        taking: bool,
    ) -> float:
        """The expected worth to ``seat`` of the best surviving row; with ``taking``, the
        rows it takes are gone (``survive`` lowered by the chance it takes each).

        A row's worth includes the cards it is expected to receive (``fills``).
        """
        mean = self._means[seat]
        if mean is None:
            mean = self.mean(seat)
        known = self._worths[seat]
        worth = self.worth
        ranked = []
        for r in open_rows:
            fill = fills[r]
            cards = rows[r]
            if cards:
                value = known.get(cards)
                if value is None:
                    value = worth(seat, cards)
                ranked.append((value + (0.0 if fill < 0.0 else fill) * mean, r))  # max(fill, 0)
            else:
                # An empty row cannot be taken before it holds at least one card.
                ranked.append(((1.0 if fill < 1.0 else fill) * mean, r))  # max(fill, 1)
        ranked.sort(reverse=True)
        expected = 0.0
        missing = 1.0
        if not taking:
            for value, r in ranked:
                p = missing * survive[r]
                expected += p * value
                missing -= p
            if ranked and missing > 0.0:
                expected += missing * ranked[-1][0]
            return expected
        takes: dict[int, float] = {}
        for value, r in ranked:
            p = missing * survive[r]
            expected += p * value
            takes[r] = p
            missing -= p
        if ranked and missing > 0.0:
            value, r = ranked[-1]
            expected += missing * value
            takes[r] = takes.get(r, 0.0) + missing
        for r, taken in takes.items():
            left = survive[r] - taken
            survive[r] = left if left > 0.0 else 0.0  # max(0, left)
        return expected

    # ------------------------------------------------------------ decisions

    def take_value(self, row: int) -> float:
        """Taking ``row`` now: its worth, what I may still take, less opponents' prospects."""
        value = self._takes.get(row)
        if value is None:
            rest = [r for r in self.open_rows if r != row]
            rows = tuple(() if r == row else cards for r, cards in enumerate(self.rows))
            view = self.view
            still_in = view.takes_this_round[self.me] + 1 < view.rules.takes_per_round
            value = self.worth(self.me, self.rows[row]) + self.outlook(rows, rest, still_in)
            self._takes[row] = value
        return value

    def place_value(self, card: Card, row: int) -> float:
        """Putting ``card`` on ``row`` and letting the others move.

        Rows alike (the same cards and capacity) are worth the same: the first one asked
        about answers for all.
        """
        key = (card, self.rows[row], self.caps[row])
        value = self._placed.get(key)
        if value is None:
            rows = list(self.rows)
            rows[row] = (*rows[row], card)
            value = self._placed[key] = self.outlook(tuple(rows), self.open_rows, True)
        return value

    def draw_value(self) -> float:
        """The expected outlook after drawing a card and placing it as well as possible."""
        room = [r for r in self.open_rows if len(self.rows[r]) < self.caps[r]]
        place = self.place_value
        return sum(p * max([place(card, r) for r in room]) for card, p in self.deck)

    def best_placement(self, card: Card, legal: Sequence[Action]) -> Action:
        """The placement of ``card`` with the best outlook."""
        return max(legal, key=lambda a: self.place_value(card, _row(a)))

    def take_or_draw(self, legal: Sequence[Action]) -> Action:
        """Take the best row, unless drawing promises more."""
        takes = [a for a in legal if a.kind is ActionKind.TAKE]
        draw = next((a for a in legal if a.kind is ActionKind.DRAW), None)
        if not takes and draw is not None:
            return draw
        best = max(takes, key=lambda a: self.take_value(_row(a)))
        if draw is None:
            return best
        if self.draw_value() + self.patience > self.take_value(_row(best)):
            return draw
        return best


@cache
def _weights(rules: Rules, me: int, against: float) -> tuple[float, ...]:
    """How much each seat's gain counts against mine.

    Seats moved by the same player (the ghost variant) count for nothing;
    with several opponents each counts less, as harming one of them helps
    less than gaining the same points.
    """
    mine = rules.controller(me)
    opponents = [s for s in range(rules.seats) if rules.controller(s) != mine]
    share = against / math.sqrt(max(1, len(opponents)))
    return tuple(share if s in opponents else 0.0 for s in range(rules.seats))


def _alike(view: PlayerView, legal: Sequence[Action]) -> bool:
    """Whether every one of ``legal`` names a row alike (the same cards and capacity):
    ``_Outlook.place_value`` then answers the first one's value for all."""
    rows, caps = view.rows, view.row_capacities
    first = _row(legal[0])
    row, cap = rows[first], caps[first]
    return all(rows[r] == row and caps[r] == cap for r in map(_row, legal))


def _row(action: Action) -> int:
    """The row a place or take action names."""
    if action.row is None:
        raise ValueError(f"{action} names no row")
    return action.row


def _rounded(values: list[float] | None) -> tuple[float, ...] | None:
    """Expectations rounded to ``PROSPECT_DECIMALS``, so collections' gains are shared."""
    return None if values is None else tuple(round(x, PROSPECT_DECIMALS) for x in values)


def _optional(name: str, value: float | None) -> float | None:
    """An optional number option, checked (``number``)."""
    return None if value is None else number(name, value)
