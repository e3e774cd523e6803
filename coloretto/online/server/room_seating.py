"""Who sits where in a room in play (``Seating``): a person taking a free seat, one taking
theirs up again with its token, the host removing a person or closing the table. Pure,
like the ``RoomMachine`` it is a part of: each event answers with its effects."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic

from coloretto.online.server.room_effects import C, Close, Effect
from coloretto.online.server.rooms import RoomError
from coloretto.online.wire.protocol import ErrorCode

if TYPE_CHECKING:
    from coloretto.online.server.room_machine import RoomMachine


class Seating(Generic[C]):
    """The seats of a ``RoomMachine``'s room: who takes which, who is sent away. A seat
    taken is told once its connection arrives (``RoomMachine.arrive``)."""

    def __init__(self, machine: RoomMachine[C]) -> None:
        self.machine = machine

    def join(self, name: str, account: str | None) -> tuple[int, str]:
        """A person takes the first free seat (``Room.join``: ``RoomError`` saying why
        not); their player number and the seat's new token. If the seat cannot be kept,
        ``remove`` frees it again."""
        return self.machine.room.join(name, account)

    def resume(self, token: str) -> tuple[int, list[Effect[C]]]:
        """A person takes their seat up again with its ``token``: their player number;
        the connections that held it are closed (``replaced``). ``RoomError``
        (``bad-token``) if the token is no seat's in this room."""
        player = self.machine.room.player_of(token)
        if player is None:
            raise RoomError("that token is not a seat's in this room", ErrorCode.BAD_TOKEN)
        return player, self.dismiss(
            player, ErrorCode.REPLACED, "your seat was taken up on another connection"
        )

    def dismiss(self, player: int, code: ErrorCode, message: str) -> list[Effect[C]]:
        """Close every connection holding ``player``'s seat (told ``code``, ``message``);
        they leave the room's connections at once."""
        connections = self.machine.connections
        closing = [c for c, seated in connections.items() if seated == player]
        for connection in closing:
            del connections[connection]
        return [Close(c, player, code, message) for c in closing]

    def remove(self, player: int) -> list[Effect[C]]:
        """The host removes ``player`` before the start (``Room.remove``: ``RoomError``
        saying why not): their connections are closed, the lobby told."""
        machine = self.machine
        machine.room.remove(player)
        machine.away_since.pop(player, None)
        closing = self.dismiss(player, ErrorCode.REMOVED, "the host removed you from the table")
        return [*closing, *machine.lobby_soon()]

    def lock(self, locked: bool) -> list[Effect[C]]:
        """The host closes the table to new players (``locked``) or opens it again, before
        the start (``RoomError`` once started); the lobby is told."""
        self.machine.room.lock(locked)
        return self.machine.lobby_soon()
