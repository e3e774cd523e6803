"""What the parts of a ``RoomServer`` share: each reads the server's pieces through it, so
none keeps a copy that could drift from the server's own."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import logging

    from coloretto.online.server.limits import Limits
    from coloretto.online.server.live_room import LiveRoom
    from coloretto.online.server.room_server import RoomServer
    from coloretto.online.server.room_space import RoomSpace


class ServerPart:
    """One part of a server's work (``RoomKeeper``, ``RoomShell``, ``Door``, ``Hosting``)."""

    def __init__(self, server: RoomServer) -> None:
        self.server = server

    @property
    def space(self) -> RoomSpace:
        """Where the rooms are kept."""
        return self.server.space

    @property
    def log(self) -> logging.Logger:
        """The server's incident log."""
        return self.server.log

    @property
    def limits(self) -> Limits:
        """The server's limits."""
        return self.server.limits

    @property
    def rooms(self) -> dict[str, LiveRoom]:
        """The rooms played here, by code."""
        return self.server.rooms

    @property
    def clock(self) -> Callable[[], float]:
        """The server's clock (monotonic seconds)."""
        return self.server.clock
