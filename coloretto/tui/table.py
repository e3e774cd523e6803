"""The table as a screen shows it: the game screen during play, the replay screen after.

``table_widgets`` makes the widgets (top bar, rows and move log, players, turn bar, message
line, legend) and ``show_table`` draws a table's current game on them, so that a replay
shows exactly the board that was seen during play.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.text import Text
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widget import Widget

from coloretto.engine import GameState
from coloretto.play.table_view import Mover, TableView, row_takers
from coloretto.play.words import row_list
from coloretto.tui.prompt import WAITING, turn_prompt
from coloretto.tui.widgets import (
    Legend,
    MoveLog,
    Notice,
    RowsPanel,
    SeatInfo,
    SeatsPanel,
    SidePanel,
    TopBar,
    TurnBar,
)


def table_widgets(game: GameState) -> Iterator[Widget]:
    """Top bar; the table in the middle, players and log beside it; turn, notice, legend."""
    yield TopBar(id="top")
    yield Horizontal(
        RowsPanel(len(game.row_capacities), id="rows"),
        SidePanel(SeatsPanel(game.rules.seats, id="seats"), MoveLog(id="log"), id="side"),
        id="board",
    )
    yield TurnBar(id="turn")
    yield Notice(id="notice")
    yield Legend(id="legend")


TABLE_PARTS = (TopBar, RowsPanel, SeatsPanel, MoveLog, TurnBar, Notice, Legend)
"""The widgets ``table_widgets`` makes that ``show_table`` and a screen's log write to."""


def table_whole(screen: Screen[Any]) -> bool:
    """True while every widget ``table_widgets`` made is on ``screen``: a screen being
    taken down loses its widgets one by one, before it is unmounted."""
    return all(screen.query(part) for part in TABLE_PARTS)


def seat_status(view: TableView, seat: int, takers: dict[int, int]) -> str:
    """What a seat's panel says under its name: the rows it took, or that it is to move."""
    game = view.game
    taken = sorted(row for row, taker in takers.items() if taker == seat)
    if taken:
        status = f"took row{'s' if len(taken) > 1 else ''} {row_list(taken)}"
        return status.replace(" or ", " and ")
    if not game.is_over and seat == game.current_player:
        mover = view.mover(seat)
        return "to move" if mover is Mover.HERE else WAITING[mover]
    return ""


def seat_info(view: TableView, seat: int, takers: dict[int, int]) -> SeatInfo:
    """What ``seat``'s panel shows now."""
    game = view.game
    breakdown = game.score_breakdown(seat)
    match = view.match
    earlier = sum(scores[seat] for scores in match.results)
    return SeatInfo(
        view.seat_names[seat],
        view.config.controller(seat).bot,
        game.collection(seat),
        breakdown,
        seat_status(view, seat, takers),
        not game.is_over and seat == game.current_player,
        earlier + breakdown.total if game.rules.games > 1 else None,
    )


YOU_MARK = " (you)"
"""After the name of the one player's own seat at an online table (panel, score card)."""


def show_table(
    screen: Screen[Any],
    view: TableView,
    *,
    fresh_row: int | None = None,
    prompt: Text | None = None,
    played: bool = True,
    you: int | None = None,
) -> None:
    """Draw ``view``'s current game on ``screen``'s table widgets.

    ``fresh_row`` is the row a card was just put on (highlighted); ``prompt`` replaces the
    turn bar's usual words (whose turn it is and which keys play); ``played`` is false
    where the keys do not play the game (a replay): the deck does not offer ``d``; ``you``
    is the seat of the one player at this front end (online), marked ``YOU_MARK``.
    """
    game = view.game
    names = view.seat_names
    plain = screen.app.no_color
    takers = row_takers(view.game)
    screen.query_one(TopBar).show(view)
    screen.query_one(RowsPanel).show(
        game.rows,
        game.row_capacities,
        {row: names[seat] for row, seat in takers.items()},
        game.drawn_card,
        game.deck_size,
        fresh_row=fresh_row,
        plain=plain,
        drawable=played and not game.is_over and game.deck_size > 0,
    )
    seats = [seat_info(view, seat, takers) for seat in range(game.rules.seats)]
    if you is not None:
        seats[you] = seats[you]._replace(name=seats[you].name + YOU_MARK)
    screen.query_one(SeatsPanel).show(seats, plain=plain)
    waiting = not game.is_over and view.mover(game.current_player) is not Mover.HERE
    if prompt is None:
        prompt = turn_prompt(view, plain=plain)
    screen.query_one(TurnBar).show(prompt, waiting=waiting)
