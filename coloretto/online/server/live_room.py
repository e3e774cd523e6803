"""A room in play as the server keeps it (``LiveRoom``: its state machine and what the
asyncio shell keeps beside it), a connection's place in it (``Seat``), and the error after
which a connection is closed."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from coloretto.online.server.connection import GuardedConnection
from coloretto.online.server.room_effects import TimerKind
from coloretto.online.server.room_machine import RoomMachine
from coloretto.online.server.rooms import Room
from coloretto.online.wire.protocol import ErrorCode

POLICY = 1008
"""The WebSocket close code for a client that broke the rules (flooding, guessing)."""


class ClosingError(Exception):
    """An error frame after which the server closes the connection."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(eq=False)
class LiveRoom:
    """A room in play: its state machine (the room, its connections, who is away, its
    clock: ``RoomMachine``) and what the asyncio shell keeps beside it."""

    machine: RoomMachine[GuardedConnection]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """One change at a time, each saved before it is told."""
    driver: asyncio.Task[None] | None = None
    """The task that lets the bots play the room's turns."""
    timers: dict[TimerKind, asyncio.TimerHandle] = field(default_factory=dict)
    """The machine's timers set now, by kind (``room_effects.Timer``)."""
    owner: str | None = None
    """The address (``address_key``) that opened the room: its bots share the workers as
    that address's (``BotPool``)."""

    @property
    def code(self) -> str:
        """The room's code."""
        return self.machine.room.code

    @property
    def room(self) -> Room:
        """The room (its game and people)."""
        return self.machine.room

    @property
    def connections(self) -> dict[GuardedConnection, int | None]:
        """The room's connections, with the player each one plays (``None``: watching)."""
        return self.machine.connections

    def stop_timers(self) -> None:
        """Cancel the room's timers (it leaves the memory)."""
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()


@dataclass
class Seat:
    """One connection's place: its room and player (``None``: a watcher)."""

    live: LiveRoom
    player: int | None
