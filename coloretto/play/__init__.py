"""The game's flow, for every front end (no Textual here): who sits at the table, the
session that plays a match turn by turn, the table a front end talks to, saving as it goes,
replays, and the game in words.

>>> from coloretto.engine import Rules
>>> from coloretto.play import GameConfig, LocalTable, Session
>>> table = LocalTable(Session(GameConfig.build(Rules(players=3), bot="easy", seed=1)))
>>> table.plays_here(0), table.bots_move(1)
(True, True)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coloretto.play.config import GameConfig, Player
    from coloretto.play.keeper import Keeper
    from coloretto.play.replay import Replay
    from coloretto.play.session import Session
    from coloretto.play.table import (
        BotFailed,
        Event,
        Hint,
        LocalTable,
        MovePlayed,
        NotSaved,
        Table,
    )
    from coloretto.play.words import Line, describe_move

_MODULES = {
    "BotFailed": "table",
    "Event": "table",
    "GameConfig": "config",
    "Hint": "table",
    "Keeper": "keeper",
    "Line": "words",
    "LocalTable": "table",
    "MovePlayed": "table",
    "NotSaved": "table",
    "Player": "config",
    "Replay": "replay",
    "Session": "session",
    "Table": "table",
    "describe_move": "words",
}
"""Each name's module: imported on first use, so that a game starts without the replays
and the coach."""

__all__ = [
    "BotFailed",
    "Event",
    "GameConfig",
    "Hint",
    "Keeper",
    "Line",
    "LocalTable",
    "MovePlayed",
    "NotSaved",
    "Player",
    "Replay",
    "Session",
    "Table",
    "describe_move",
]


def __getattr__(name: str) -> object:
    if name in _MODULES:
        return getattr(import_module(f"{__name__}.{_MODULES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
