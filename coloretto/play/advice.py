"""The coach in words: why a hint is the best move, and what a move played cost.

Every sentence says only what the table and the analysis support, in forms a test reads
back (``tests/test_coach_sentences.py``):

- a count on the table is said of a row as ``row 2 (+5 for you)`` (``for Ben``; ``at most
  +3 for the others``, ``nothing for the others``, ``-1 at best for the others``): what the
  row, with the drawn card when one is to be placed, is worth to them now;
- the analysis' figures come with their sign, unit and standard error, its points named
  for what they are, the final lead over the best rival (``LEAD``: what a move does to
  the others counts too): ``about 3.2 ± 0.6 points more lead over the best rival than
  drawing``, ``this move: -6.2 ± 0.9 points of lead over the best rival, -18 ± 3% chance
  to win`` (a chance to a tenth of a percent when its error is under one); a difference
  within ``CLEAR`` standard errors is said to be none ("about as good", graded best: the
  grade and the words go by one rule, ``Decision.verdict``);
- where the reason is not a count on the table, what the coach foresees for the rest of the
  round (``coloretto.play.foresight``): the row you take next and what it is worth to you,
  the colour the rival collects, the Last Round card before your next turn ("playing the
  round out 12 times, after drawing you take a row worth +4.2 ± 0.5 on average"), given
  only where it bears out the figures it stands beside (``_bears_out``);
- the Last Round card is "N cards away" for N of 1 or more, "the next card drawn" at 0.

The hint and the review of a decision compare a move with the same alternative, the best
other move (``_second``), in the same words (``_comparison``, ``_why``); when the review's
deeper look disagrees with the hint, one clause gives both figures.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from coloretto.bots import Estimate
from coloretto.engine import DRAW, Action, ActionKind, Card, GameState
from coloretto.play.coach import CLEAR, Decision, Valuation, Verdict, ranked
from coloretto.play.config import YOU
from coloretto.play.foresight import Outlook, foresee
from coloretto.play.words import (
    CARD_NAMES,
    Line,
    describe_action,
    ordinal,
    row_gain,
    row_list,
)

LEAD = "points of lead over the best rival"
"""What the analysis' points measure: the final margin, your score less the best other
score (``Estimate.margin``), so that what a move gives the others counts too."""

LAST_ROUND_NEAR = 4
"""Cards left before the Last Round card at which drawing is said to risk it."""

Foresee = Callable[[Action], Outlook]
"""What the coach foresees after an action of the decision (``foresight.foresee``)."""


@dataclass(frozen=True)
class _Rival:
    """The other seat a row is worth most to, and how much."""

    name: str
    gain: int


_NOBODY = _Rival("nobody", 0)
"""The rival when no other seat is still in the round."""


def _rival(state: GameState, seat: int, cards: Sequence[Card], names: Sequence[str]) -> _Rival:
    rules = state.rules
    mine = rules.controller(seat)
    others = [
        s
        for s in range(rules.seats)
        if not state.seats_out[s] and rules.controller(s) != mine and s != seat
    ]
    if not others:
        return _NOBODY
    best = max(others, key=lambda s: (row_gain(state, s, cards), -s))
    return _Rival(_name(names[best]), row_gain(state, best, cards))


def _name(name: str) -> str:
    return "you" if name == YOU else name


def _for_others(gain: int) -> str:
    """What a row is worth to the others at most, in words: ``at most +3 for the others``,
    ``nothing for the others``, ``-1 at best for the others``."""
    if gain > 0:
        return f"at most {gain:+d} for the others"
    if gain == 0:
        return "nothing for the others"
    return f"{gain:+d} at best for the others"


def _for(gain: int, who: str) -> str:
    """What a row is worth to ``who``: ``+5 for you``, ``nothing for Ben`` (never "+0")."""
    return f"{gain:+d} for {who}" if gain else f"nothing for {who}"


def _worth(row: int, gain: int, who: str = "you", *more: str) -> str:
    """``row 2 (+5 for you)``: a row (0-based in) and what it is worth to ``who`` now,
    then ``more`` of it (``row 2 (+5 for you, at most +3 for the others)``)."""
    return f"row {row + 1} ({', '.join((_for(gain, who), *more))})"


def _rows_worth(rows: Sequence[int], gain: int) -> str:
    """``rows 1 and 2 (+7 for you each)``: rows (0-based in) worth as much to you now.

    >>> _rows_worth([0, 2, 3], 0)
    'rows 1, 3 and 4 (nothing for you each)'
    """
    numbers = ", ".join(str(r + 1) for r in rows[:-1]) + f" and {rows[-1] + 1}"
    return f"rows {numbers} ({_for(gain, 'you')} each)"


def _others_worth(row: int, gain: int) -> str:
    """``row 2 (at most +3 for the others)``."""
    return f"row {row + 1} ({_for_others(gain)})"


def colour_note(state: GameState, seat: int, cards: Sequence[Card]) -> str | None:
    """What ``cards`` do to ``seat``'s colours when they cost points: a colour past the
    best count of the gray side, or colours left outside the plus colours, as the score
    counts them (``score``: the best plus colours and jokers, ties as the players' panel
    shows them).

    >>> from coloretto.engine import Rules, new_game
    >>> game = new_game(Rules(players=3), seed=4)
    >>> colour_note(game, 0, [])
    """
    rules = state.rules
    table = rules.scoring.table
    peak = max(range(len(table)), key=lambda n: table[n])
    scored = state.score_breakdown(seat, cards)
    plus = set(scored.plus_colours)
    new = list(dict.fromkeys(c for c in cards if c.is_colour))
    for card in new:
        count = next(s.count for s in scored.sets if s.colour == card)
        if peak < len(table) - 1 and count > peak and card in plus:
            return f"a {ordinal(count)} {CARD_NAMES[card]} card on the gray side"
    minus = [c for c in new if c not in plus]
    if minus and row_gain(state, seat, cards) < 0:
        names = " and ".join(CARD_NAMES[c] for c in minus)
        colours = "a minus colour" if len(minus) == 1 else "minus colours"
        return f"{names} as {colours} (with {_plus_names(plus)} as your plus colours)"
    return None


def _plus_names(colours: set[Card]) -> str:
    names = sorted(CARD_NAMES[c] for c in colours)
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)


def _last_round_risk(state: GameState, *, past: bool) -> str | None:
    """The Last Round card's threat, said of a move played (``past``) or to play."""
    verb = "was" if past else "is"
    if state.last_round:
        return f"this {verb} the last round: every row must be taken"
    before = state.cards_before_last_round
    if before == 0:
        return f"the next card drawn {verb} the Last Round card"
    if before is not None and before < LAST_ROUND_NEAR:
        cards = "card" if before == 1 else "cards"
        return f"the Last Round card {verb} only {before} {cards} away"
    return None


def _rows_grow(state: GameState) -> bool:
    """True when the rows can be said to be still likely to grow: the Last Round card is
    neither out nor the next card drawn."""
    before = state.cards_before_last_round
    return before is not None and before >= 1


def _placed(state: GameState, row: int) -> tuple[Card, ...]:
    card = state.drawn_card
    assert card is not None
    return (*state.rows[row], card)


def _cards(state: GameState, row: int) -> tuple[Card, ...]:
    """The row as the decision sees it: with the drawn card when one is to be placed."""
    return _placed(state, row) if state.drawn_card is not None else state.rows[row]


def point_digits(error: float) -> int:
    """Decimals for points with this standard error: tenths, hundredths when the error is
    under half a tenth (so that it never shows as "± 0.0").

    >>> point_digits(0.4), point_digits(0.03), point_digits(0.0)
    (1, 2, 1)
    """
    return 2 if 0 < error < 0.05 else 1


def chance_digits(error: float) -> int:
    """Decimals for a chance in percent with this standard error (a share): whole, a tenth
    under one percent, a hundredth under a tenth (so that it never shows as "± 0.0%").

    >>> chance_digits(0.03), chance_digits(0.004), chance_digits(0.0004), chance_digits(0.0)
    (0, 1, 2, 0)
    """
    if not 0 < error < 0.01:
        return 0
    return 1 if error >= 0.0005 else 2


def signed(value: float, digits: int = 1) -> str:
    """``value`` to ``digits`` decimals with its sign; none for nothing ("0.0", never
    "-0.0").

    >>> signed(-0.04), signed(2.25), signed(-0.123, 2)
    ('0.0', '+2.2', '-0.12')
    """
    shown = f"{value:+.{digits}f}"
    return f"{0:.{digits}f}" if float(shown) == 0 else shown


def points_words(value: float, error: float) -> str:
    """Points (unsigned) and their standard error, to the error's precision (``point_digits``):
    "1.3 ± 0.8", "0.12 ± 0.03", "0.3" (an exact figure).

    >>> points_words(1.34, 0.8), points_words(0.123, 0.03), points_words(0.3, 0.0)
    ('1.3 ± 0.8', '0.12 ± 0.03', '0.3')
    """
    digits = point_digits(error)
    return f"{value:.{digits}f}{_error(f'{error:.{digits}f}')}"


def percent(share: float) -> str:
    """A share's error in percent, to its own precision (``chance_digits``).

    >>> percent(0.034), percent(0.0042), percent(0.0004)
    ('3', '0.4', '0.04')
    """
    return f"{100 * share:.{chance_digits(share)}f}"


def _error(error: str) -> str:
    """`` ± error``; nothing for an exact figure (no error)."""
    return f" ± {error}" if float(error) > 0 else ""


def chance_figure(share: float, error: float, *, sign: bool = True) -> str:
    """A chance to win (a difference, 0 to 1) in percent, to the precision of its error
    (``chance_digits``), so that the figure and its error read alike; "" when it shows as
    nothing.

    >>> chance_figure(-0.18, 0.03), chance_figure(-0.008, 0.0044), chance_figure(0.0004, 0.004)
    ('-18', '-0.8', '')
    >>> chance_figure(-0.0023, 0.0004)
    '-0.23'
    """
    shown = f"{100 * share:{'+' if sign else ''}.{chance_digits(error)}f}"
    return "" if float(shown) == 0 else shown


def chance(share: float, error: float, *, sign: bool = True) -> str:
    """A chance to win (a difference) in percent with its error (``chance_figure``); ""
    when it shows as nothing.

    >>> chance(-0.18, 0.03), chance(-0.008, 0.0044), chance(0.013, 0.004, sign=False)
    ('-18 ± 3%', '-0.8 ± 0.4%', '1.3 ± 0.4%')
    >>> chance(0.0004, 0.004), chance(0.004, 0.0)
    ('', '')
    """
    shown = chance_figure(share, error, sign=sign)
    return f"{shown}{_error(percent(error))}%" if shown else ""


def cost_words(decision: Decision) -> str:
    """What the played action came to against the best (negative: it lost), with the
    standard errors of the differences: "-6.2 ± 0.9 points of lead over the best rival,
    -18 ± 3% chance to win".

    >>> from coloretto.engine import DRAW
    >>> take = Action.take(0)
    >>> estimates = {DRAW: Estimate(0.4, 1.0, 0.02, 1.0), take: Estimate(0.22, -5.0, 0.02, 1.0)}
    >>> cost_words(Decision(7, 1, take, estimates, {(DRAW, take): (0.03, 0.5)}))
    '-6.0 ± 0.5 points of lead over the best rival, -18 ± 3% chance to win'
    """
    return _against(decision.valuation, decision.played, decision.best)


def _against(valuation: Valuation, action: Action, other: Action) -> str:
    """``action``'s points (``LEAD``) and chance to win less ``other``'s, with the errors
    of the differences (the chance only when it shows as something: ``chance``)."""
    mine, theirs = valuation.estimates[action], valuation.estimates[other]
    win_error, points_error = valuation.difference_error(action, other)
    digits = point_digits(points_error)
    error = _error(f"{points_error:.{digits}f}")
    words = f"{signed(mine.margin - theirs.margin, digits)}{error} {LEAD}"
    if shown := chance(mine.win - theirs.win, win_error):
        words += f", {shown} chance to win"
    return words


def _alike(valuation: Valuation, a: Action, b: Action) -> bool:
    """True for the same action, or two the analysis values alike (rows alike)."""
    estimates = valuation.estimates
    return a == b or (a in estimates and b in estimates and estimates[a] == estimates[b])


def why_costly(
    state: GameState, decision: Decision, names: Sequence[str], outlook: Foresee | None = None
) -> Line:
    """The review of a decision in one sentence a player can check, by the rule its grade
    goes by too (``Decision.verdict``): the best move, compared in the hint's words
    (``_comparison``, ``_why``) with the move the hint compared it with, or with the move
    the hint recommended when it was another (``_hinted``); a move about as good as the
    best, one of the best moves, compared with it in the same words; or why the best was
    better (``_counted``, else what the coach foresees), with
    what the move came to against it: "taking row 2 gave you a 4th gray card on the gray
    side: row 2 (-1 for you), row 1 (+8 for you); this move: -6.2 ± 0.9 points of lead over
    the best rival, -18 ± 3% chance to win"; then what the hint in the game said, when it
    differs (``hint_words``)."""
    seat, played, best = decision.seat, decision.played, decision.best
    valuation = decision.valuation
    look = outlook if outlook is not None else _foreseer(state)
    cost = f"this move: {cost_words(decision)}"  # after a semicolon: no row's "(...)"
    verdict = decision.verdict
    if verdict is Verdict.BEST:
        line = f"{_doing(played, state)} was the best move"
        other = _hinted(decision) or _second(valuation, played)
        line += _edge(state, seat, played, valuation, names, look=look, other=other)
        line += _hint_look(decision, state, other)
    elif verdict is Verdict.WITHIN_ERROR:  # the hint's words for a move about as good
        line = f"{_doing(played, state)} was one of the best moves"
        line += _edge(state, seat, played, valuation, names, look=look, other=best)
        line += _hint_look(decision, state, best)
    elif verdict is Verdict.HINTED:
        line = (
            f"{_doing(best, state)} rated better on this look, which is no deeper than the "
            f"hint's that recommended this move; {cost}"
        )
    else:
        why = _counted(state, seat, best, played, names, past=True)
        if why is None:  # what the coach foresees, after what was better
            foreseen = _foreseen(state, best, played, names, look=look, valuation=valuation)
            why = f"{_doing(best, state)} {_better(decision)}{_joined(foreseen)}"
        line = f"{why}; {cost}"
    if (said := hint_words(decision, state)) is not None:
        line += f"; {said}"
    return Line((line,))


def _hinted(decision: Decision) -> Action | None:
    """The move a review of a best move compares it with, so that it says what the hint
    said: the move the hint recommended, if another; else the one the hint compared it
    with (``_second`` by the hint's look, which a deeper review may rank otherwise);
    ``None`` (the best other by this look) without a hint, or when this look has no
    such move apart from the played one."""
    hint, played = decision.hint, decision.played
    if hint is None:
        return None
    if not hint.recommends(played):
        return hint.action
    other = _second(hint.valuation, hint.action)
    if other is None or _alike(decision.valuation, other, played):
        return None
    return other if other in decision.estimates else None


def _hint_look(decision: Decision, state: GameState, other: Action | None) -> str:
    """For a move the hint recommended, graded best on a look other than the hint's (a
    deeper one): the hint's own figures of the same pair, so that figures that differ
    from the hint's are seen to come from another look ("; the hint's analysis, on 54
    deals: +0.3 ± 0.7 points of lead over the best rival against putting the card on row 2;
    this look is on 268 deals"); "" otherwise."""
    hint, played = decision.hint, decision.played
    if hint is None or other is None or not hint.recommends(played):
        return ""
    told = hint.valuation
    if told.estimates == decision.estimates or not {played, other} <= told.estimates.keys():
        return ""
    return (
        f"; the hint's analysis, on {told.samples} deals: {_against(told, played, other)} "
        f"against {_doing(other, state)}; this look is on {decision.valuation.samples} deals"
    )


def _better(decision: Decision) -> str:
    """What the best move was clearly better for than the move played (the measures
    ``Decision.clear_loss`` goes by): "was better for your chance to win", "was better
    for your lead over the best rival", or both when both are clear."""
    mine, best = decision.estimates[decision.played], decision.estimates[decision.best]
    win_error, points_error = decision.errors
    clear_win = best.win - mine.win > CLEAR * win_error
    clear_points = best.margin - mine.margin > CLEAR * points_error
    if clear_win and clear_points:
        return "was better for your chance to win and your lead over the best rival"
    if clear_win:
        return "was better for your chance to win"
    return "was better for your lead over the best rival"


def hint_words(decision: Decision, state: GameState) -> str | None:
    """What the hint in the game said of the decision, beside the review's verdict, when
    it recommended another move (with its look's figures of the move against it, when that
    look is not this one: the same pair the review compares when both find the same best)
    or was overruled (``Decision.hint_overruled``: then both looks' figures, of the move
    against the review's best); ``None`` when there was no hint, or it recommended the move
    and the review agrees."""
    hint = decision.hint
    if hint is None:
        return None
    played = decision.played
    if not hint.recommends(played):
        said = f"the hint in the game was to {describe_action(hint.action, state)}"
        told = hint.valuation
        if told.estimates != decision.estimates and played in told.estimates:
            figures = _against(told, played, hint.action)
            said += (
                f"; its analysis, on {told.samples} deals: {figures} against "
                f"{_doing(hint.action, state)}; this look is on {decision.valuation.samples} deals"
            )
        return said
    if not decision.hint_overruled:
        return None
    best = decision.best
    if best not in hint.valuation.estimates:
        return None
    against = f"against {_doing(best, state)}"
    return (
        f"the hint in the game recommended it, on {hint.valuation.samples} deals: "
        f"{_against(hint.valuation, decision.played, best)} {against}; this deeper look, on "
        f"{decision.valuation.samples} deals: {cost_words(decision)} {against}"
    )


def _doing(action: Action, state: GameState) -> str:
    """An action as something done, with the card put: "putting the pink card on row 3"."""
    if action.kind is ActionKind.PLACE and state.drawn_card is not None:
        return f"putting the {CARD_NAMES[state.drawn_card]} card on row {(action.row or 0) + 1}"
    return doing(action, state)


def _foreseer(state: GameState) -> Foresee:
    return lambda action: foresee(state, action)


def _why(
    state: GameState,
    seat: int,
    best: Action,
    other: Action,
    names: Sequence[str],
    *,
    valuation: Valuation,
    look: Foresee,
    past: bool,
) -> str:
    """Why ``best`` rather than ``other``, for a hint (``past`` false) or a review: a count
    on the table when one says it (``_counted``), else what the coach foresees
    (``_foreseen``)."""
    counted = _counted(state, seat, best, other, names, past=past)
    if counted is not None:
        return counted
    return _foreseen(state, best, other, names, look=look, valuation=valuation)


def _counted(
    state: GameState,
    seat: int,
    best: Action,
    other: Action,
    names: Sequence[str],
    *,
    past: bool,
) -> str | None:
    """Why ``best`` rather than ``other`` by a count on the table; ``None`` when no count
    says it."""
    rows = state.rows
    if other.kind is ActionKind.TAKE and other.row is not None:
        mine = row_gain(state, seat, rows[other.row])
        note = colour_note(state, seat, rows[other.row])
        what = f"taking row {other.row + 1}"
        verb = "gave" if past else "gives"
        if best.kind is ActionKind.TAKE and best.row is not None:
            theirs = row_gain(state, seat, rows[best.row])
            if mine < theirs:
                got = f"{verb} you {note}" if note else f"{verb} you less"
                return f"{what} {got}: {_worth(other.row, mine)}, {_worth(best.row, theirs)}"
            rival = _rival(state, seat, rows[best.row], names)
            spared = _rival(state, seat, rows[other.row], names)
            if rival.gain > spared.gain and rival.gain > 0:
                left = "left" if past else "leaves"
                kept = _worth(best.row, theirs, "you", _for(rival.gain, rival.name))
                return (
                    f"{what} {left} {kept} to {rival.name}, rather than "
                    f"{_others_worth(other.row, spared.gain)}"
                )
        elif note:
            return f"{what} {verb} you {note}: {_worth(other.row, mine)}"
    if other.kind is ActionKind.DRAW and best.row is not None and best.kind is ActionKind.TAKE:
        theirs = row_gain(state, seat, rows[best.row])
        rival = _rival(state, seat, rows[best.row], names)
        risk = _last_round_risk(state, past=past)
        if (rival.gain > 0 and rival.gain >= theirs - 1) or risk is not None:
            left = "left" if past else "leaves"
            more = [_for(rival.gain, rival.name)] if rival.gain > 0 else []
            text = f"drawing {left} {_worth(best.row, theirs, 'you', *more)} on the table"
            return f"{text}; {risk}" if risk else text
    if other.kind is ActionKind.PLACE and other.row is not None and best.row is not None:
        there, here = _placed(state, other.row), _placed(state, best.row)
        gift, spared = _rival(state, seat, there, names), _rival(state, seat, here, names)
        mine, better = row_gain(state, seat, there), row_gain(state, seat, here)
        if gift.gain > spared.gain and gift.gain > 0 and better >= mine:
            return (
                f"{_doing(other, state)} makes {_worth(other.row, gift.gain, gift.name)}, "
                f"rather than {_others_worth(best.row, spared.gain)}"
            )
        if better > mine and spared.gain <= gift.gain:
            return f"with the card, {_worth(best.row, better)} against {_worth(other.row, mine)}"
    return None


UNSHOWN = "does not show why"
"""What the coach says of the rest of the round when it does not bear out the analysis'
figures beside it (``_bears_out``): "playing the round out 12 times does not show why",
rather than a reason nobody can check."""


def _joined(why: str) -> str:
    """A reason after what it explains: ": because"; a "does not show why" (``UNSHOWN``),
    which explains nothing, after a semicolon."""
    return f"; {why}" if why.endswith(UNSHOWN) else f": {why}"


def _foreseen(
    state: GameState,
    best: Action,
    other: Action,
    names: Sequence[str],
    *,
    look: Foresee,
    valuation: Valuation,
) -> str:
    """What the coach foresees after ``best`` and after ``other``: the rest of the round
    on the coach's playouts, in terms the player can check as it goes; that it does not
    show why (``UNSHOWN``) when it does not bear out the analysis' figures beside it."""
    one, two = look(best), look(other)
    if not _bears_out(state, valuation, (best, one), (other, two)):
        return f"playing the round out {one.playouts} times {UNSHOWN}"
    return (
        f"playing the round out {one.playouts} times, {_outlook(state, best, one, names)}; "
        f"{_outlook(state, other, two, names)}"
    )


def _net(state: GameState, action: Action, outlook: Outlook) -> tuple[float, float] | None:
    """What ``action`` does to the seat's lead this round as ``_outlook`` says it, with its
    standard error: the row it takes next on average; or the row it takes now, less what
    the rival named then takes on average (``None`` when the outlook names no figure)."""
    if outlook.mine is not None:
        return round(outlook.mine, 1), outlook.mine_error
    if action.kind is not ActionKind.TAKE or action.row is None:
        return None
    now = float(row_gain(state, state.current_player, state.rows[action.row]))
    if outlook.rival is None or outlook.rival_colour is None:
        return now, 0.0
    return now - round(outlook.rival_gain, 1), 0.0


def _bears_out(
    state: GameState,
    valuation: Valuation,
    best: tuple[Action, Outlook],
    other: tuple[Action, Outlook],
) -> bool:
    """True when what the coach foresees after the better action and the other agrees
    with the analysis' figures that say it is better: the better one does more for the
    seat's lead this round, as the sentence says it (``_net``); and in the last
    round, when nobody else takes a row after either (the lead then moves as the seat's
    points do), the two differ by the analysis' points within ``CLEAR`` standard errors
    of both."""
    one, two = _net(state, *best), _net(state, *other)
    if one is None or two is None:
        return True
    net, net_error = one[0] - two[0], math.hypot(one[1], two[1])
    if net <= 0:  # the same for both is no reason either
        return False
    if not state.last_round or best[1].rival is not None or other[1].rival is not None:
        return True
    estimates = valuation.estimates
    points = estimates[best[0]].margin - estimates[other[0]].margin
    points_error = valuation.difference_error(best[0], other[0])[1]
    return abs(net - points) <= CLEAR * math.hypot(net_error, points_error)


def _outlook(state: GameState, action: Action, outlook: Outlook, names: Sequence[str]) -> str:
    """One action's outlook: "after drawing you take a row worth +4.2 ± 0.5 on average (the
    Last Round card before your next turn in 3 of 12)"; "after taking row 1 (+2 for you)
    Ben takes pink in 9 of 12 (+4.5 for them on average)"."""
    words = f"after {_doing(action, state)}"
    if action.kind is ActionKind.TAKE and action.row is not None:
        seat = state.current_player
        words += f" ({_for(row_gain(state, seat, state.rows[action.row]), 'you')})"
    if outlook.mine is not None:
        error = _error(f"{outlook.mine_error:.1f}")
        words += f" you take a row worth {signed(outlook.mine)}{error} on average"
        if outlook.last_round_first and not state.last_round:
            words += (
                f" (the Last Round card before your next turn in "
                f"{outlook.last_round_first} of {outlook.playouts})"
            )
        return words
    if outlook.rival is None or outlook.rival_colour is None:
        return words + " nobody else takes a row this round"
    name = _name(names[outlook.rival])
    colour = CARD_NAMES[outlook.rival_colour]
    if not _on_table(state, outlook.rival_colour):  # from the playouts' draws
        colour += " (none on the table yet)"
    return (
        f"{words} {name} takes {colour} in "
        f"{outlook.rival_colour_count} of {outlook.playouts} ({signed(outlook.rival_gain)} for "
        f"{'you' if name == 'you' else 'them'} on average)"
    )


def _on_table(state: GameState, card: Card) -> bool:
    """True when ``card``'s colour is in a row still open, or is the card drawn."""
    open_rows = (cards for row, cards in enumerate(state.rows) if not state.rows_taken[row])
    return card == state.drawn_card or any(card in cards for cards in open_rows)


def forced(state: GameState) -> Action | None:
    """The action to play when there is no choice to make (a hint needs no search): the
    only legal one, or the first of legal actions that all come to the same, the drawn
    card put on rows alike or rows alike taken (the same cards, the same room).

    >>> from coloretto.engine import Rules, new_game
    >>> game = new_game(Rules(players=4), seed=1)
    >>> forced(game), forced(game.apply("draw"))  # nothing on the table: draw; then any row
    (Action.parse('draw'), Action.parse('place 1'))
    >>> forced(game.apply("draw").apply("place 1").apply("draw")) is None  # row 1 or another
    True
    """
    legal = state.legal_actions()
    kinds = {_outcome(state, action) for action in legal}
    return legal[0] if len(kinds) == 1 else None


def no_choice_hint(state: GameState, names: Sequence[str]) -> tuple[Action, str] | None:
    """The hint for a move with no choice to make (``forced``), in words, with the rows
    alike where there are several; ``None`` when there is a choice.

    >>> from coloretto.engine import Rules, new_game
    >>> game = new_game(Rules(players=4), seed=1).apply("draw")
    >>> no_choice_hint(game, ["Ana", "Ben", "Cy", "Di"])[1].rsplit("; ", 1)[-1]
    'rows 1\N{EN DASH}4 are alike for it'
    """
    action = forced(state)
    if action is None:
        return None
    words = explain_hint(state, state.current_player, action, {}, names)
    rows = [a.row for a in state.legal_actions() if a.row is not None]
    if len(rows) > 1:
        words += f"; rows {row_list(rows)} are alike for it"
    return action, words


def _outcome(state: GameState, action: Action) -> tuple[object, ...]:
    """What ``action`` comes to, whichever row it is played on."""
    if action.row is None:
        return (action.kind,)
    row = action.row
    return (action.kind, tuple(sorted(state.rows[row])), state.row_capacities[row])


def explain_hint(
    state: GameState,
    seat: int,
    action: Action,
    estimates: Mapping[Action, Estimate] | Valuation,
    names: Sequence[str],
    *,
    outlook: Foresee | None = None,
) -> str:
    """The hint in words: the best action, what it gives you and the others now (your
    colours, the Last Round card), and how it compares with the best other move
    (``_second``, the one the review compares with too): the figures with the standard
    error of the difference (``Valuation.difference_error``), "about as good" within
    ``CLEAR`` of it, and why this one where the table alone does not say (the review's
    words, ``_why``). ``outlook``: what the coach foresees (``foresight.foresee`` unless
    given).

    >>> from coloretto.engine import DRAW, Rules, new_game
    >>> game = new_game(Rules(players=3), seed=1)
    >>> explain_hint(game, 0, DRAW, {DRAW: Estimate(0.3, 0.0)}, ["You", "Ben", "Cy"])
    'draw a card: no row holds cards yet'
    """
    valuation = estimates if isinstance(estimates, Valuation) else Valuation(estimates)
    look = outlook if outlook is not None else _foreseer(state)
    what = describe_action(action, state)
    second = _second(valuation, action)
    # A row argued against only where the figures bear it out, not one about as good.
    clearly = second if second is not None and _clearly_better(valuation, action, second) else None
    reason = _hint_reason(state, seat, action, names, clearly)
    text = f"{what}: {reason}" + _edge(state, seat, action, valuation, names, look=look)
    top = ranked(valuation.estimates)[0] if action in valuation.estimates else action
    if not _alike(valuation, top, action):  # why not the move the figures rate higher
        text += f"; {KEPT}"
    return text


KEPT = "the coach keeps its first choice where the analysis cannot tell two moves apart"
"""Said of a hint whose analysis rates another move a little higher, within the error:
the hint keeps the expert's choice (the search's starting point) unless another is
clearly better (``coloretto.play.analysis.recommended``), which the hint follower found
better than chasing the noise of the top estimate (docs/coach.md)."""


def _second(valuation: Valuation, action: Action) -> Action | None:
    """The best other move than ``action``, the one a hint and a review compare it with:
    the first by the analysis (``ranked``) not valued alike; ``None`` if there is none."""
    estimates = valuation.estimates
    if action not in estimates:
        return None
    mine = estimates[action]
    others = [a for a in ranked(estimates) if a != action and estimates[a] != mine]
    return others[0] if others else None


def _clearly_better(valuation: Valuation, action: Action, other: Action) -> bool:
    """True when ``action`` is better than ``other`` beyond ``CLEAR`` standard errors of the
    difference, in chance to win or in points (what ``_comparison`` calls better)."""
    mine, theirs = valuation.estimates[action], valuation.estimates[other]
    win_error, points_error = valuation.difference_error(action, other)
    win, points = mine.win - theirs.win, mine.margin - theirs.margin
    return (bool(chance(win, win_error)) and win > CLEAR * win_error) or (
        _shows(points, points_error) and points > CLEAR * points_error
    )


def _shows(points: float, error: float) -> bool:
    """True when ``points`` (more than nothing) shows as more than nothing at the precision
    its ``error`` gives it (``points_words``)."""
    return round(points, point_digits(error)) > 0


def _comparison(state: GameState, valuation: Valuation, action: Action, other: Action) -> str:
    """How ``action`` compares with ``other`` by the analysis, in the words a hint and a
    review share: "about 3.2 ± 0.6 points more lead over the best rival than drawing"
    (each measure only where it is better beyond ``CLEAR`` standard errors, with "though"
    what it is clearly worse in); else "drawing is about as good (0.8 ± 0.6 points more
    lead, within twice the error), so either will do" (``_apart``); "" for exact figures (no
    errors) not better."""
    mine, theirs = valuation.estimates[action], valuation.estimates[other]
    win_error, points_error = valuation.difference_error(action, other)
    win, points = mine.win - theirs.win, mine.margin - theirs.margin
    more = []
    if (shown := chance(win, win_error, sign=False)) and win > CLEAR * win_error:
        more.append(f"{shown} more chance to win")
    if _shows(points, points_error) and points > CLEAR * points_error:
        more.append(f"{points_words(points, points_error)} points more lead")
    if not more:
        if not points_error and not win_error:
            return ""
        # The other clearly better in one measure, this one (not clearly) in the other:
        # ranked alike by the coach (``ranked``), but not "within twice the error".
        beaten = -win > CLEAR * win_error or -points > CLEAR * points_error
        why = "each is better in one" if beaten else "within twice the error"
        apart = f"({_apart(win, win_error, points, points_error)}, {why})"
        return f"{_doing(other, state)} is about as good {apart}, so either will do"
    text = f"about {' and '.join(more)}"
    if more[-1].endswith("lead"):
        text += " over the best rival"
    text += f" than {_doing(other, state)}"
    if (less := chance(-win, win_error, sign=False)) and -win > CLEAR * win_error:
        text += f", though {less} less chance to win"
    elif _shows(-points, points_error) and -points > CLEAR * points_error:
        less = points_words(-points, points_error)
        text += f", though {less} points less lead over the best rival"
    return text


def _apart(win: float, win_error: float, points: float, points_error: float) -> str:
    """How the other move stands against the one spoken of, where neither is clearly
    better (``win`` and ``points``: the one spoken of less the other), which way each gap
    runs: "1.3 ± 0.8 points more lead, 2 ± 1% less chance to win".

    >>> _apart(0.02, 0.01, -1.3, 0.8)
    '1.3 ± 0.8 points more lead, 2 ± 1% less chance to win'
    >>> _apart(0.0, 0.01, 0.02, 0.5)
    '0.0 ± 0.5 points of lead apart'
    """
    shown = points_words(abs(points), points_error)
    apart = round(points, point_digits(points_error)) == 0
    way = "of lead apart" if apart else f"{'more' if points < 0 else 'less'} lead"
    text = f"{shown} points {way}"
    if odds := chance(abs(win), win_error, sign=False):
        text += f", {odds} {'more' if win < 0 else 'less'} chance to win"
    return text


def _edge(
    state: GameState,
    seat: int,
    action: Action,
    valuation: Valuation,
    names: Sequence[str],
    *,
    look: Foresee,
    other: Action | None = None,
) -> str:
    """How ``action`` compares with ``other`` (unless given, the best other move:
    ``_second``), in words (``_comparison``); and why, where the table alone does not say
    it (``_why``): for a move about as good, only where what the coach foresees says it
    (else "either will do" is all there is to say)."""
    second = other if other is not None else _second(valuation, action)
    if second is None:
        return ""
    words = _comparison(state, valuation, action, second)
    if not words:
        return ""
    text = f"; {words}"
    if _table_favours(state, seat, second, action, names):  # why this one, then
        why = _why(state, seat, action, second, names, valuation=valuation, look=look, past=False)
        if not why.endswith(UNSHOWN) or not words.endswith("either will do"):
            text += _joined(why)
    return text


def _table_favours(
    state: GameState, seat: int, one: Action, other: Action, names: Sequence[str]
) -> bool:
    """True when the table's count speaks for ``one`` against ``other``: it takes a row
    worth more to you now than ``other`` takes, or puts the card where it is worth more
    to you or less to the others. The hint then says why ``other`` is recommended."""
    if one.row is None or one.kind is ActionKind.DRAW:
        return False
    mine = row_gain(state, seat, _cards(state, one.row))
    if other.row is None or other.kind is ActionKind.DRAW:
        return one.kind is ActionKind.TAKE and mine > 0
    if mine > row_gain(state, seat, _cards(state, other.row)):
        return True
    if one.kind is not ActionKind.PLACE:
        return False
    gift = _rival(state, seat, _placed(state, other.row), names).gain
    return gift > max(0, _rival(state, seat, _placed(state, one.row), names).gain)


def _hint_reason(
    state: GameState, seat: int, action: Action, names: Sequence[str], second: Action | None
) -> str:
    """What the hinted ``action`` does now, by the table: the row taken and the next best
    for you; the best row left when drawing; the row the card builds for you, or what it
    is worth to the others there and on ``second``'s row (the move the hint compares it
    with, given only when the action is clearly better than it)."""
    rows = state.rows
    open_rows = [r for r, cards in enumerate(rows) if cards and not state.rows_taken[r]]
    if action.kind is ActionKind.TAKE and action.row is not None:
        gain = row_gain(state, seat, rows[action.row])
        now = state.scores()[seat]
        text = f"{_for(gain, 'you')} now ({now} → {now + gain})"
        rest = {r: row_gain(state, seat, rows[r]) for r in open_rows if r != action.row}
        if not rest:
            text = f"the only row you can take; {text}"
        else:
            top = max(rest, key=lambda r: (rest[r], -r))
            tied = [r for r in rest if rest[r] == rest[top]]  # every one of them named
            named = _worth(top, rest[top]) if len(tied) == 1 else _rows_worth(tied, rest[top])
            give = "gives" if len(tied) == 1 else "give"
            if rest[top] < gain:
                best = "is" if len(tied) == 1 else "are"
                text += f"; the next best for you {best} {named}"
            elif rest[top] == gain:
                text += f"; {named} {give} you as much"
            else:
                text += f"; {named} {give} you more now"
        rival = _rival(state, seat, rows[action.row], names)
        if rival.gain > 0 and state.is_legal(DRAW):
            text += (
                f", and waiting would leave {_worth(action.row, rival.gain, rival.name)} "
                f"to {rival.name}"
            )
        risk = _last_round_risk(state, past=False)
        return f"{text}; {risk}" if risk else text
    if action.kind is ActionKind.DRAW:
        if not open_rows:
            return "no row holds cards yet"
        gains = {r: row_gain(state, seat, rows[r]) for r in open_rows}
        top = max(gains, key=lambda r: (gains[r], -r))
        tied = [r for r in open_rows if gains[r] == gains[top]]
        if len(tied) > 1:  # no one row named where several are worth as much
            text = f"the rows worth most to you now are {_rows_worth(tied, gains[top])}"
        else:
            text = f"the row worth most to you now is {_worth(top, gains[top])}"
            if note := colour_note(state, seat, rows[top]):
                text += f", with {note}"
        risk = _last_round_risk(state, past=False)
        if risk is None and _rows_grow(state):
            return f"{text}; the rows should still grow"
        return f"{text}; {risk}" if risk else text
    assert action.row is not None
    here = _placed(state, action.row)
    mine = row_gain(state, seat, here)
    rival = _rival(state, seat, here, names)
    if mine > 0 and mine >= rival.gain:
        others = _for_others(rival.gain) if rival != _NOBODY else "nobody else takes it"
        return f"it builds {_worth(action.row, mine, 'you', others)}"
    return _placement_reason(state, seat, action.row, rival, names, second=second)


def _placement_reason(
    state: GameState,
    seat: int,
    row: int,
    rival: _Rival,
    names: Sequence[str],
    *,
    second: Action | None,
) -> str:
    """What the card is worth on ``row``, to you and to the others (``rival``), against
    the other rows it could go on: "it helps the others least there", and what it would
    make of ``second``'s row (the move the hint compares it with) when that is more; never
    a row it feeds given as the reason (the hint's comparison with ``second`` says why)."""
    if rival == _NOBODY:
        return "nobody else is still in the round"
    others = [r for r in range(len(state.rows)) if r != row and _has_room(state, r)]
    here = _others_worth(row, rival.gain)
    if not others:
        return f"the only row it can go on: {here}"
    gifts = {r: _rival(state, seat, _placed(state, r), names) for r in others}
    if all(gifts[r].gain == rival.gain for r in others):
        return f"on any row it would be worth as much to the others: {here}"
    if rival.gain <= min(gifts[r].gain for r in others):
        text = f"it helps the others least there: {here}"
        there = second.row if second is not None and second.kind is ActionKind.PLACE else None
        if there is not None and there in gifts and gifts[there].gain > rival.gain:
            gift = gifts[there]
            text += f", rather than {_worth(there, gift.gain, gift.name)}"
        return text
    mine = row_gain(state, seat, _placed(state, row))
    return f"there it makes {_worth(row, mine, 'you', _for(rival.gain, rival.name))}"


def doing(action: Action, state: GameState) -> str:
    """An action as something done: "drawing", "taking row 2", "putting it on row 3".

    >>> from coloretto.engine import DRAW, new_game
    >>> doing(DRAW, new_game(seed=1)), doing(Action.take(1), new_game(seed=1))
    ('drawing', 'taking row 2')
    """
    if action.kind is ActionKind.DRAW:
        return "drawing"
    if action.kind is ActionKind.TAKE:
        return f"taking row {(action.row or 0) + 1}"
    return f"putting it on row {(action.row or 0) + 1}"


def _has_room(state: GameState, row: int) -> bool:
    return not state.rows_taken[row] and len(state.rows[row]) < state.row_capacities[row]
