"""The game's flow, for every front end (no Textual here): who sits at the table, the
session that plays a match turn by turn, the table a front end talks to, saving as it goes,
replays, and the game in words.

>>> from coloretto.engine import Rules
>>> from coloretto.play import GameConfig, LocalTable, Session
>>> table = LocalTable(Session(GameConfig.build(Rules(players=3), bot="easy", seed=1)))
>>> table.plays_here(0), table.bots_move(1)
(True, True)
"""

from coloretto.play.config import GameConfig, Player
from coloretto.play.keeper import Keeper
from coloretto.play.replay import Replay
from coloretto.play.session import Session
from coloretto.play.table import (
    BotFailed,
    BotMove,
    Event,
    Hint,
    LocalTable,
    MovePlayed,
    NotSaved,
    Table,
)
from coloretto.play.words import Line, describe_move

__all__ = [
    "BotFailed",
    "BotMove",
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
