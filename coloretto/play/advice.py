"""The coach in words: why a move was costly, and why a hint is the best move.

Every reason is made of what a player can check on the table: what a row gives them now,
what it would give the others, what a card does to their plus colours, and how close the
Last Round card is. The bot's estimates only decide which action is best and what the
difference is worth; they are quoted as such, with their standard error ("about 3.2 ± 0.8
points better"), and a difference within ``CLEAR`` standard errors is said to be none
("drawing is about as good").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from coloretto.bots import Estimate
from coloretto.engine import DRAW, Action, ActionKind, Card, GameState
from coloretto.play.coach import CLEAR, Decision, Valuation, ranked
from coloretto.play.config import YOU
from coloretto.play.words import (
    CARD_NAMES,
    Line,
    describe_action,
    ordinal,
    row_gain,
    row_list,
)

LAST_ROUND_NEAR = 4
"""Cards left before the Last Round card at which drawing is said to risk it."""


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
    name = names[best]
    return _Rival("you" if name == YOU else name, row_gain(state, best, cards))


def colour_note(state: GameState, seat: int, cards: Sequence[Card]) -> str | None:
    """What ``cards`` do to ``seat``'s colours when they cost points: a colour past the
    best count of the gray side, or a colour outside the plus colours.

    >>> from coloretto.engine import Rules, new_game
    >>> game = new_game(Rules(players=3), seed=4)
    >>> colour_note(game, 0, [])
    """
    rules = state.rules
    table = rules.scoring.table
    peak = max(range(len(table)), key=lambda n: table[n])
    held = state.collection(seat)
    after = dict(held)
    for card in cards:
        if card.is_colour:
            after[card] = after.get(card, 0) + 1
    colours = [c for c in after if c.is_colour and after[c]]
    ranked_colours = sorted(colours, key=lambda c: -after[c])
    plus = set(ranked_colours[: rules.plus_colours])
    for card in dict.fromkeys(c for c in cards if c.is_colour):
        count = after[card]
        if peak < len(table) - 1 and count > peak and card in plus:
            return f"a {ordinal(count)} {CARD_NAMES[card]} card on the gray side"
        if card not in plus and row_gain(state, seat, cards) < 0:
            return f"{CARD_NAMES[card]} as a minus colour (you already collect {_plus_names(plus)})"
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
    if before is not None and before < LAST_ROUND_NEAR:
        cards = "card" if before == 1 else "cards"
        return f"the Last Round card {verb} only {before} {cards} away"
    return None


def _placed(state: GameState, row: int) -> tuple[Card, ...]:
    card = state.drawn_card
    assert card is not None
    return (*state.rows[row], card)


def why_costly(state: GameState, decision: Decision, names: Sequence[str]) -> Line:
    """Why the played action was worse than the best, in a sentence a player can check,
    with what it cost and its standard error: "taking row 2 gave you a 4th gray card on
    the gray side: -1 instead of +8 for row 1 (-6.2 ± 0.9 points, -18 ± 3% chance to
    win)"; and, when the hint in the game recommended the move, why this look differs."""
    seat, played, best = decision.seat, decision.played, decision.best
    line = _why(state, seat, played, best, names) + f" ({cost_words(decision)})"
    if (hinted := hint_words(decision, state)) is not None:
        line += f"; {hinted}"
    return Line((line,))


def cost_words(decision: Decision) -> str:
    """What the played action lost against the best, with the standard errors of the
    differences: "-6.2 ± 0.9 points, -18 ± 3% chance to win".

    >>> from coloretto.engine import DRAW
    >>> take = Action.take(0)
    >>> estimates = {DRAW: Estimate(0.4, 1.0, 0.02, 1.0), take: Estimate(0.22, -5.0, 0.02, 1.0)}
    >>> cost_words(Decision(7, 1, take, estimates, {(DRAW, take): (0.03, 0.5)}))
    '-6.0 ± 0.5 points, -18 ± 3% chance to win'
    """
    win_error, points_error = decision.errors
    chance = round(100 * decision.win_loss)
    words = f"{signed(-decision.cost)}{_error(f'{points_error:.1f}')} points"
    if chance:
        words += f", {-chance:+d}{_error(percent(win_error))}% chance to win"
    return words


def signed(value: float) -> str:
    """``value`` to a tenth with its sign; none for nothing ("0.0", never "-0.0").

    >>> signed(-0.04), signed(2.25)
    ('0.0', '+2.2')
    """
    shown = f"{value:+.1f}"
    return "0.0" if float(shown) == 0 else shown


def percent(share: float) -> str:
    """A share's error in percent: whole, or to a tenth under one percent.

    >>> percent(0.034), percent(0.0042)
    ('3', '0.4')
    """
    return f"{100 * share:.0f}" if 100 * share >= 1 else f"{100 * share:.1f}"


def _error(error: str) -> str:
    """`` ± error``; nothing for an exact figure (no error)."""
    return f" ± {error}" if float(error) > 0 else ""


def hint_words(decision: Decision, state: GameState) -> str | None:
    """What the hint in the game said of the decision, beside the review's verdict, when
    it recommended another move or was overruled (``Decision.hint_overruled``); ``None``
    when there was no hint, or it recommended the move and the review agrees."""
    hint = decision.hint
    if hint is None:
        return None
    if not hint.recommends(decision.played):
        return f"the hint in the game was to {describe_action(hint.action, state)}"
    if not decision.hint_overruled:
        return None
    win_error, points_error = decision.errors
    if decision.cost > CLEAR * points_error:
        by = f"{decision.cost:.1f} ± {points_error:.1f} points"
        beyond = f"{decision.cost - CLEAR * points_error:.1f} points"
    else:  # the chance to win is what is clearly lost
        won = 100 * decision.win_loss
        by = f"{won:.0f} ± {100 * win_error:.1f}% chance to win"
        beyond = f"{won - CLEAR * 100 * win_error:.1f}%"
    return (
        f"the hint in the game recommended it, on {hint.valuation.samples} deals; this deeper "
        f"look, on {decision.valuation.samples} deals, finds {doing(decision.best, state)} "
        f"better by {by} ({beyond} beyond two standard errors)"
    )


def _why(state: GameState, seat: int, played: Action, best: Action, names: Sequence[str]) -> str:
    if played == best:
        return f"{describe_action(played, state)} was the best move"
    rows = state.rows
    if played.kind is ActionKind.TAKE and played.row is not None:
        mine = row_gain(state, seat, rows[played.row])
        note = colour_note(state, seat, rows[played.row])
        what = f"taking row {played.row + 1}"
        if best.kind is ActionKind.TAKE and best.row is not None:
            theirs = row_gain(state, seat, rows[best.row])
            if mine < theirs:
                got = f"gave you {note}" if note else "gave you less"
                return f"{what} {got}: {mine:+d} instead of {theirs:+d} for row {best.row + 1}"
            rival = _rival(state, seat, rows[best.row], names)
            spared = _rival(state, seat, rows[played.row], names)
            if rival.gain > spared.gain:
                return (
                    f"{what} ({mine:+d}) left row {best.row + 1} ({theirs:+d} for you) to "
                    f"{rival.name} ({rival.gain:+d} for them), where row {played.row + 1} "
                    f"was worth at most {spared.gain:+d} to the others"
                )
            now = (
                f"more now ({mine:+d} against {theirs:+d})"
                if mine > theirs
                else (f"as much now ({mine:+d})")
            )
            return (
                f"{what} gave you {now} than row {best.row + 1}, but the rest of the round "
                f"goes better after taking row {best.row + 1}"
            )
        if note:
            return f"{what} gave you {note}: {mine:+d}; drawing kept your options open"
        return (
            f"{what} ({mine:+d} for you) ended your round early: the rows were still "
            "likely to grow, so drawing was worth more"
        )
    if played.kind is ActionKind.DRAW and best.row is not None:
        theirs = row_gain(state, seat, rows[best.row])
        text = f"drawing left row {best.row + 1} ({theirs:+d} for you) on the table"
        rival = _rival(state, seat, rows[best.row], names)
        if rival.gain > 0:
            text += f" for {rival.name} to take ({rival.gain:+d} for them)"
        risk = _last_round_risk(state, past=True)
        return f"{text}; {risk}" if risk else text
    if played.row is not None and best.row is not None and state.drawn_card is not None:
        card = CARD_NAMES[state.drawn_card]
        there, here = _placed(state, played.row), _placed(state, best.row)
        gift, spared = _rival(state, seat, there, names), _rival(state, seat, here, names)
        mine, better = row_gain(state, seat, there), row_gain(state, seat, here)
        what = f"putting the {card} card on row {played.row + 1}"
        if gift.gain - spared.gain >= better - mine and gift.gain > spared.gain:
            return (
                f"{what} made it worth {gift.gain:+d} to {gift.name}; on row {best.row + 1} "
                f"it would have been worth at most {spared.gain:+d} to the others"
            )
        if better > mine:
            return (
                f"{what} made it worth {mine:+d} to you; on row {best.row + 1} it would "
                f"have been worth {better:+d} to you"
            )
        return f"{what} rather than row {best.row + 1} left the others better rows to take"
    return f"{describe_action(played, state)} rather than {describe_action(best, state)}"


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
) -> str:
    """The hint in words: the best action, why (what it gives you and the others now, your
    colours, the Last Round card), and how much better than the next best it is rated,
    with the standard error of the difference (``Valuation.difference_error``): within
    ``CLEAR`` of them, the two are said to be about as good.

    >>> from coloretto.engine import DRAW, Rules, new_game
    >>> game = new_game(Rules(players=3), seed=1)
    >>> explain_hint(game, 0, DRAW, {DRAW: Estimate(0.3, 0.0)}, ["You", "Ben", "Cy"])
    'draw a card: no row holds cards yet'
    """
    valuation = estimates if isinstance(estimates, Valuation) else Valuation(estimates)
    what = describe_action(action, state)
    why = _hint_reason(state, seat, action, names)
    return f"{what}: {why}" + _edge(state, action, valuation)


def _edge(state: GameState, action: Action, valuation: Valuation) -> str:
    """How much better ``action`` is rated than the next best unlike it, in words."""
    estimates = valuation.estimates
    if action not in estimates:
        return ""
    mine = estimates[action]
    others = [a for a in ranked(estimates) if a != action and estimates[a] != mine]
    if not others:
        return ""
    second = others[0]
    points = mine.margin - estimates[second].margin
    _, error = valuation.difference_error(action, second)
    plus = _error(f"{error:.1f}")
    if points > CLEAR * error and points >= 0.1:
        return f"; about {points:.1f}{plus} points better than {doing(second, state)}"
    if error:
        return f"; {doing(second, state)} is about as good ({abs(points):.1f}{plus} points apart)"
    return ""


def _hint_reason(state: GameState, seat: int, action: Action, names: Sequence[str]) -> str:
    rows = state.rows
    open_rows = [r for r, cards in enumerate(rows) if cards and not state.rows_taken[r]]
    if action.kind is ActionKind.TAKE and action.row is not None:
        gain = row_gain(state, seat, rows[action.row])
        now = state.scores()[seat]
        text = f"{gain:+d} for you now ({now} → {now + gain})"
        rest = [row_gain(state, seat, rows[r]) for r in open_rows if r != action.row]
        if not rest:
            return f"the only row you can take; {text}"
        if max(rest) < gain:
            text += f"; the other rows give you at most {max(rest):+d}"
        else:
            text += "; no other row gives you more"
        rival = _rival(state, seat, rows[action.row], names)
        if rival.gain > 0 and state.is_legal(DRAW):
            text += f", and waiting would leave it to {rival.name} ({rival.gain:+d} for them)"
        risk = _last_round_risk(state, past=False)
        return f"{text}; {risk}" if risk else text
    if action.kind is ActionKind.DRAW:
        if not open_rows:
            return "no row holds cards yet"
        gains = {r: row_gain(state, seat, rows[r]) for r in open_rows}
        top = max(gains, key=lambda r: (gains[r], -r))
        note = colour_note(state, seat, rows[top])
        text = f"the best row now (row {top + 1}) gives you {gains[top]:+d}"
        if note:
            text += f" and {note}"
        return f"{text}; the rows should still grow"
    assert action.row is not None
    here = _placed(state, action.row)
    mine = row_gain(state, seat, here)
    rival = _rival(state, seat, here, names)
    if mine > 0 and mine >= rival.gain:
        return (
            f"it builds row {action.row + 1} for you ({mine:+d} for you, at most "
            f"{rival.gain:+d} for the others)"
        )
    return _placement_reason(state, seat, action.row, rival, names)


def _placement_reason(
    state: GameState, seat: int, row: int, rival: _Rival, names: Sequence[str]
) -> str:
    """Why a card that does not build a row for you goes on ``row``: what it is worth to
    the others there (``rival``) against the other rows it could go on."""
    others = [r for r in range(len(state.rows)) if r != row and _has_room(state, r)]
    if not others:
        worth = "" if rival == _NOBODY else f" ({rival.gain:+d} for {rival.name})"
        return f"the only row it can go on{worth}"
    gifts = {r: _rival(state, seat, _placed(state, r), names) for r in others}
    worst = max(others, key=lambda r: gifts[r].gain)
    least = min(others, key=lambda r: gifts[r].gain)
    if gifts[least].gain == gifts[worst].gain == rival.gain:
        return f"on any row it would be worth about as much to the others ({rival.gain:+d})"
    if rival.gain <= gifts[least].gain:
        return (
            f"it helps the others least there (at most {rival.gain:+d} for them); "
            f"on row {worst + 1} it would be worth {gifts[worst].gain:+d} to {gifts[worst].name}"
        )
    return (
        f"it makes row {row + 1} worth {rival.gain:+d} to {rival.name} (on row {least + 1} "
        f"at most {gifts[least].gain:+d} to the others), but the round played out goes "
        "better for you this way"
    )


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
