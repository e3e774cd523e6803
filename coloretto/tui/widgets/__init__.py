"""The game's widgets: each shows one part of the table and is updated by its screen."""

from coloretto.tui.widgets.bars import KeysBar, Legend, Notice, TopBar, TurnBar
from coloretto.tui.widgets.log import MoveLog
from coloretto.tui.widgets.rows import DrawnCard, RowsPanel, RowView
from coloretto.tui.widgets.score_card import ScoreCard
from coloretto.tui.widgets.seats import SeatInfo, SeatsPanel, SeatView, SidePanel
from coloretto.tui.widgets.text_input import TextInput

__all__ = [
    "DrawnCard",
    "KeysBar",
    "Legend",
    "MoveLog",
    "Notice",
    "RowView",
    "RowsPanel",
    "ScoreCard",
    "SeatInfo",
    "SeatView",
    "SeatsPanel",
    "SidePanel",
    "TextInput",
    "TopBar",
    "TurnBar",
]
