"""The game in words: moves for the log, whose turn it is, and short reasons for hints."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

from coloretto.engine import Action, ActionKind, Card, GameState, Move
from coloretto.tui.config import possessive
from coloretto.tui.glyphs import card_name, cards_in_words
from coloretto.tui.session import Session

DASH = "\N{EN DASH}"
"""The dash between row numbers (1-5) and before advice in messages: an en dash."""


def row_list(rows: Iterable[int]) -> str:
    """Row numbers (0-based in) as players read them: ``"1, 2 or 4"``.

    >>> row_list([0, 1, 3]), row_list([2]), row_list([0, 1, 2, 3, 4])
    ('1, 2 or 4', '3', '1\N{EN DASH}5')
    """
    numbers = [r + 1 for r in rows]
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}{DASH}{numbers[-1]}"
    if len(numbers) <= 1:
        return "".join(map(str, numbers))
    return ", ".join(map(str, numbers[:-1])) + f" or {numbers[-1]}"


def describe_move(
    move: Move, before: GameState, after: GameState, names: Sequence[str], *, plain: bool = False
) -> list[Text]:
    """The move in words, then what followed from it (Last Round, end of round, discards).

    ``before`` and ``after`` are the states around the move.
    """
    who = names[move.player]
    lines: list[Text] = []
    kind = move.action.kind
    row = move.action.row
    if kind is ActionKind.DRAW:
        if move.last_round:
            lines.append(Text("The Last Round card came up: this round is the last!", "bold"))
        assert move.card is not None
        lines.insert(0, Text.assemble(f"{who} drew ", card_name(move.card, plain=plain), "."))
    elif kind is ActionKind.PLACE:
        assert row is not None
        assert before.drawn_card is not None
        lines.append(
            Text.assemble(
                f"{who} put ", card_name(before.drawn_card, plain=plain), f" on row {row + 1}."
            )
        )
    else:
        assert row is not None
        taken = before.rows[row]
        line = Text.assemble(f"{who} took row {row + 1}: ", cards_in_words(taken, plain=plain))
        if move.card is not None:
            line.append_text(
                Text.assemble("; the golden joker brought in ", card_name(move.card, plain=plain))
            )
        line.append(".")
        lines.append(line)
        if move.last_round:
            lines.append(Text("The Last Round card came up: this round is the last!", "bold"))
        discarded = after.discards[len(before.discards) :]
        if discarded:
            lines.append(
                Text.assemble("Left on the rows and discarded: ", cards_in_words(discarded), ".")
            )
        if after.is_over:
            lines.append(Text("The game is over.", "bold"))
        elif after.round != before.round:
            lines.append(
                Text(
                    f"Round {before.round} is over; {names[after.current_player]} "
                    f"{starts(names[after.current_player])} round {after.round}."
                )
            )
    return lines


def starts(name: str) -> str:
    """The verb for ``name``: "You start", "Ana starts".

    >>> starts("You"), starts("Ana")
    ('start', 'starts')
    """
    return "start" if name == "You" else "starts"


def turn_prompt(session: Session, *, plain: bool = False) -> Text:
    """Whose turn it is, by name, and what they can do (with the keys)."""
    game = session.game
    if game.is_over:
        return Text("The game is over: press Enter for the scores.", "bold")
    seat = game.current_player
    name = session.seat_names[seat]
    if session.is_bot(seat):
        return Text(f"{name} is thinking…")
    head = Text(f"{possessive(name)} turn", "bold")
    if seat >= game.rules.players:
        head.append(f" ({session.controller_name(seat)} plays it)")
    legal = game.legal_actions()
    rows = [a.row for a in legal if a.row is not None]
    if game.drawn_card is not None:
        return Text.assemble(
            head,
            ": put the ",
            card_name(game.drawn_card, plain=plain),
            f" card on a row ({row_list(rows)})",
        )
    can_draw = any(a.kind is ActionKind.DRAW for a in legal)
    if can_draw and rows:
        return Text.assemble(head, f": draw a card (d) or take a row ({row_list(rows)})")
    if can_draw:
        return Text.assemble(head, ": draw a card (d); no row holds cards yet")
    return Text.assemble(head, f": take a row ({row_list(rows)}); no row has room for a card")


def row_gain(state: GameState, seat: int, cards: Iterable[Card]) -> int:
    """How much ``seat``'s score (best joker assignment) would change on collecting ``cards``.

    >>> from coloretto.engine import Rules, new_game
    >>> game = new_game(Rules(players=3), seed=1)
    >>> row_gain(game, 0, [])
    0
    """
    return state.score_with(seat, cards) - state.score_with(seat)


def describe_action(action: Action, state: GameState) -> str:
    """An action as a player would say it: "draw", "take row 2", "put it on row 3"."""
    if action.kind is ActionKind.DRAW:
        return "draw a card"
    assert action.row is not None
    if action.kind is ActionKind.TAKE:
        return f"take row {action.row + 1}"
    card = state.drawn_card
    what = card_name(card).plain if card is not None else "it"
    return f"put the {what} card on row {action.row + 1}"


def explain_hint(state: GameState, seat: int, action: Action) -> str:
    """The hint in a few words: what to do, and what it does to the scores now.

    >>> from coloretto.engine import DRAW, Rules, new_game
    >>> explain_hint(new_game(Rules(players=3), seed=1), 0, DRAW)
    'draw a card: no row holds cards yet'
    """
    what = describe_action(action, state)
    takes = [
        r
        for r, cards in enumerate(state.rows)
        if cards and not state.rows_taken[r] and state.drawn_card is None
    ]
    if action.kind is ActionKind.TAKE:
        assert action.row is not None
        gain = row_gain(state, seat, state.rows[action.row])
        now = state.scores()[seat]
        best = max(row_gain(state, seat, state.rows[r]) for r in takes)
        why = f"{gain:+d} for you now ({now} → {now + gain})"
        if len(takes) == 1:
            return f"{what}: the only row you can take; {why}"
        if gain >= best:
            return f"{what}: the best row for you, {why}"
        return f"{what}: {why}, and it keeps the other rows from growing"
    if action.kind is ActionKind.DRAW:
        if not takes:
            return f"{what}: no row holds cards yet"
        gains = {r: row_gain(state, seat, state.rows[r]) for r in takes}
        best_row = max(gains, key=lambda r: (gains[r], -r))
        return (
            f"{what}: the best row now (row {best_row + 1}) is worth only "
            f"{gains[best_row]:+d} to you; wait for better"
        )
    assert action.row is not None
    after = state.apply(action)
    cards = after.rows[action.row]
    mine = row_gain(after, seat, cards)
    others = [
        row_gain(after, s, cards)
        for s in range(state.rules.seats)
        if not after.seats_out[s] and state.rules.controller(s) != state.rules.controller(seat)
    ]
    why = f"row {action.row + 1} is then worth {mine:+d} to you"
    if others:
        why += f" and at most {max(others):+d} to the others"
    return f"{what}: {why}"
