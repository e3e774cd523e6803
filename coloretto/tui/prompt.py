"""Whose turn it is and which keys play, in words for the terminal."""

from __future__ import annotations

from rich.text import Text

from coloretto.engine import ActionKind
from coloretto.play.config import YOU, possessive
from coloretto.play.table_view import Mover, TableView
from coloretto.play.words import row_list
from coloretto.tui.glyphs import card_name

WAITING = {Mover.BOT: "thinking…", Mover.PERSON: "to move", Mover.AWAY: "away"}
"""What a seat moved elsewhere is doing while the screen waits for its move."""


def turn_prompt(view: TableView, *, plain: bool = False) -> Text:
    """Whose turn it is, by name, and what they can do (with the keys)."""
    game = view.game
    if game.is_over:
        return Text("The game is over: press Enter for the scores.", "bold")
    seat = game.current_player
    name = view.seat_names[seat]
    if (mover := view.mover(seat)) is not Mover.HERE:
        return Text(f"{name} is {WAITING[mover]}")
    head = Text(f"{possessive(name)} turn", "bold")
    if seat >= game.rules.players:
        player = view.config.controller(seat).name
        head.append(" (you play it)" if player == YOU else f" ({player} plays it)")
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
