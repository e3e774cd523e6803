"""What a room's state machine (``room_machine.RoomMachine``) asks of its caller: each
event answers with these effects, which the asyncio shell (``room_shell.RoomShell``)
carries out and a test reads as they are."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from coloretto.engine import Move
from coloretto.online.wire.messages import ServerMessage
from coloretto.online.wire.protocol import ErrorCode

C = TypeVar("C", bound=Hashable)
"""A connection, as the caller knows it (the machine only compares them)."""


@dataclass(frozen=True)
class Send(Generic[C]):
    """Send ``message`` to each of ``to`` (the same bytes to all)."""

    to: tuple[C, ...]
    message: ServerMessage


@dataclass(frozen=True)
class Close(Generic[C]):
    """Tell ``connection`` (of ``player``'s seat) why (an error frame), then close it."""

    connection: C
    player: int
    code: ErrorCode
    message: str


@dataclass(frozen=True)
class KeepMove:
    """Keep an action of the game: ``last``, the game's last (kept with the room's status
    and ratings in one go, ``RoomSpace.end_game``), else appended (``RoomSpace.append``)."""

    ply: int
    move: Move
    covered: bool
    notes: dict[str, Any]
    last: bool


@dataclass(frozen=True)
class KeepRoom:
    """Keep the whole room as it stands now (``RoomSpace.save``)."""


TimerKind = Literal["wake", "deal", "fill", "idle", "lobby"]
"""The room's timers, one of each at most: ``wake``, a person's wait or time runs out (the
bots may play for them); ``deal``, the server deals a match's next game for its absent
host; ``fill``, a public table's wait is over (bots fill it, its game starts); ``idle``,
nobody has been in the room for a while (it may leave the memory); ``lobby``, the lobby's
changes of the last moments are told together."""


@dataclass(frozen=True)
class Timer:
    """Come back with ``kind``'s event in ``seconds`` (``None``: not any more); a timer
    of the same kind set before is replaced."""

    kind: TimerKind
    seconds: float | None


@dataclass(frozen=True)
class Note:
    """A line for the log."""

    text: str


LetGoWhy = Literal["archive", "forget", "remove", "leave-alone"]
"""How a room nobody is in leaves the memory: its match over, ``archive`` it; a game over
(a match waiting for its host), ``forget`` it (it stays kept); a table whose game never
started, ``remove`` it; a game whose people all left long ago, ``leave-alone`` (kept as it
stands, taken again when one of them asks for it)."""


@dataclass(frozen=True)
class LetGo:
    """The room leaves the memory (``why``: how, ``LetGoWhy``)."""

    why: LetGoWhy


Effect = Send[C] | Close[C] | Timer | Note | LetGo
"""What an event asks of its caller (records to keep come back on their own)."""
