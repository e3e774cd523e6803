"""Each room's state machine fed its events and its effects carried out: messages sent,
records kept before anything is told, timers, rooms let go, the bots' turns
(``RoomShell``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from typing import ClassVar

from coloretto.bots.driver import BotTurn, play_bots
from coloretto.bots.guard import Answer
from coloretto.engine import Action
from coloretto.online.server.connection import GuardedConnection
from coloretto.online.server.database import StoreError
from coloretto.online.server.live_room import POLICY, LiveRoom, Seat
from coloretto.online.server.relay import deliver
from coloretto.online.server.room_effects import TimerKind
from coloretto.online.server.room_machine import (
    Close,
    Effect,
    KeepMove,
    KeepRoom,
    LetGo,
    Send,
    Timer,
)
from coloretto.online.server.rooms import RoomError
from coloretto.online.server.server_part import ServerPart
from coloretto.online.wire.messages import ErrorMessage, RatingChange
from coloretto.online.wire.protocol import ErrorCode, LockTable, Remove, encode


class RoomShell(ServerPart):
    """The asyncio shell around each room's ``RoomMachine``: it feeds the machine its
    events (requests, connections coming and going, timers, bots' answers, the database's
    answers) and carries out its effects (messages, closings, timers, rooms let go,
    records kept before anything is told)."""

    _farewells: ClassVar[set[asyncio.Task[None]]] = set()
    """Connections being closed (kept here until they are)."""

    # ------------------------------------------------------------------ effects

    def run(self, live: LiveRoom, effects: Iterable[Effect[GuardedConnection]]) -> None:
        """Carry out the machine's ``effects`` for ``live``."""
        for effect in effects:
            if isinstance(effect, Send):
                deliver(effect.to, encode(effect.message))
            elif isinstance(effect, Close):
                self._close(live, effect)
            elif isinstance(effect, Timer):
                self._timer(live, effect)
            elif isinstance(effect, LetGo):
                self.server.keeper.spawn(self.server.keeper.let_go(live, effect.why))
            else:
                self.log.info("%s", effect.text)

    def _close(self, live: LiveRoom, close: Close[GuardedConnection]) -> None:
        self.log.info(
            "room %s: a connection of player %d closed (%s)", live.code, close.player, close.code
        )
        task = asyncio.get_running_loop().create_task(
            self._farewell(close.connection, close.code, close.message)
        )
        self._farewells.add(task)
        task.add_done_callback(self._farewells.discard)

    async def _farewell(self, ws: GuardedConnection, code: ErrorCode, message: str) -> None:
        """Say why, then close (``broadcast``: a connection that does not read never
        holds this up; ``close`` gives up after the server's ``close_timeout``)."""
        deliver([ws], encode(ErrorMessage(code=code, message=message)))
        await ws.close(POLICY, code)

    def _timer(self, live: LiveRoom, timer: Timer) -> None:
        """Set ``timer`` (in place of the one of its kind set before)."""
        if (handle := live.timers.pop(timer.kind, None)) is not None:
            handle.cancel()
        if timer.seconds is not None:
            live.timers[timer.kind] = asyncio.get_running_loop().call_later(
                timer.seconds, self._fire, live, timer.kind
            )

    def _fire(self, live: LiveRoom, kind: TimerKind) -> None:
        """A timer of ``live``'s fired: its event goes to the machine (at once, or as a
        task when the room's lock is needed)."""
        live.timers.pop(kind, None)
        if self.rooms.get(live.code) is not live:
            return
        keeper = self.server.keeper
        if kind == "wake":
            self.kick(live)
        elif kind == "deal":
            keeper.spawn(self._deal_for_host(live))
        elif kind == "fill":
            keeper.spawn(self._fill(live))
        elif kind == "idle":
            self.run(live, live.machine.idle(self.clock()))
        else:
            self.run(live, live.machine.tell_lobby(time.time()))

    async def kept(self, live: LiveRoom, keep: KeepMove | KeepRoom) -> None:
        """Keep the machine's pending change (call it holding the lock), then tell it; if
        the database refuses, the change is undone and ``RoomError`` (``not-saved``) says
        so."""
        room = live.room
        changes: list[RatingChange] = []
        try:
            if isinstance(keep, KeepRoom):
                await self.space.save(room)
            elif keep.last:
                changes = await self.space.end_game(room, keep.move, keep.covered, keep.notes)
            else:
                await self.space.append(room.code, keep.ply, keep.move, keep.covered, keep.notes)
        except (StoreError, ValueError) as error:
            problem = live.machine.refuse()
            what = "" if isinstance(keep, KeepRoom) else f"move {keep.ply + 1} "
            self.server.keeper.failed(room, f"{what}not saved: {error}")
            raise problem from None
        self.run(live, live.machine.confirm(self.clock(), changes))
        self.kick(live)

    # ------------------------------------------------------------------ events

    async def play(self, live: LiveRoom, player: int, ply: int, action: Action) -> None:
        """Play a person's ``action`` (``RoomError`` or ``IllegalAction`` if it is not
        theirs to play); saved, then told."""
        async with live.lock:
            keep = live.machine.play(player, ply, action, self.clock())
            await self.kept(live, keep)

    async def start(self, live: LiveRoom) -> None:
        """Start the game (the host's request, or a public table's wait over): saved,
        then told."""
        async with live.lock:
            await self.kept(live, live.machine.start(self.clock()))

    async def deal_next(self, live: LiveRoom, number: int) -> None:
        """Deal game ``number`` of the match (the host's request): saved, then told."""
        async with live.lock:
            await self.kept(live, live.machine.deal(number))

    async def _deal_for_host(self, live: LiveRoom) -> None:
        """Deal the next game, the host being away (unless that changed meanwhile); if the
        database refuses, try again later."""
        await self._timed(
            live,
            live.machine.deal_for_host,
            lambda problem: [live.machine.dealer.plan(self.clock())],
        )

    async def _timed(
        self,
        live: LiveRoom,
        step: Callable[[float], tuple[KeepRoom | None, list[Effect[GuardedConnection]]]],
        refused: Callable[[RoomError], list[Effect[GuardedConnection]]],
    ) -> None:
        """A timer's ``step`` of the machine for ``live`` (unless the room has left the
        memory meanwhile): its effects carried out, its change kept, then told; if the
        database refuses the change, ``refused``'s effects."""
        async with live.lock:
            if self.rooms.get(live.code) is not live:
                return
            keep, effects = step(self.clock())
            self.run(live, effects)
            if keep is None:
                return
            try:
                await self.kept(live, keep)
            except RoomError as problem:
                self.run(live, refused(problem))

    def arrive(
        self, live: LiveRoom, ws: GuardedConnection, player: int | None, token: str | None
    ) -> None:
        """A connection takes its seat in the room (kept already; ``token``: the seat's,
        when new): welcomed, then told the room as it stands."""
        self.run(live, live.machine.arrive(ws, player, token, self.clock(), time.time()))
        self.kick(live)

    def leave(self, ws: GuardedConnection, seat: Seat) -> None:
        """A connection of the room closed."""
        live = seat.live
        effects = live.machine.leave(ws, self.clock())
        self.run(live, effects)
        if not any(isinstance(effect, LetGo) for effect in effects):
            self.kick(live)  # its person may be away now: the bots may play for them

    async def seating(self, live: LiveRoom, request: Remove | LockTable) -> None:
        """The host, before the start, removes a person (their connections closed with
        the error ``removed``) or closes the table to new players (or opens it again);
        the room is saved and everyone sees the lobby again. A lock the disk refuses is
        undone; a removal holds (its person is gone) while the server runs. Either way
        the host gets ``not-saved``."""
        room, seating = live.room, live.machine.seating
        async with live.lock:
            if isinstance(request, Remove):
                self.run(live, seating.remove(request.seat))
                saved = await self.server.keeper.save(room)
            else:
                was = room.locked
                self.run(live, seating.lock(request.locked))
                if not (saved := await self.server.keeper.save(room)):
                    self.run(live, seating.lock(was))
        if not saved:
            done = "they are removed until it stops" if isinstance(request, Remove) else "try again"
            raise RoomError(f"the server could not save the room: {done}", ErrorCode.NOT_SAVED)

    async def _fill(self, live: LiveRoom) -> None:
        """A public table's wait is over: bots fill it and its game starts (saved, then
        told; a refusal is told to everyone)."""
        await self._timed(
            live, live.machine.fill, lambda problem: [live.machine.news.error(problem)]
        )

    # ------------------------------------------------------------------ bots

    def kick(self, live: LiveRoom) -> None:
        """Let bots play the room's turns (one driver per room, started if idle)."""
        task = live.driver
        if task is None or task.done():
            live.driver = asyncio.get_running_loop().create_task(self._drive(live))

    async def _drive(self, live: LiveRoom) -> None:
        """Play ``live``'s bots' turns (the bot loop, ``play_bots``), each asked in the
        room's worker (``BotPool``), at the room's pace."""
        session = live.room.session
        bots = self.server.bots

        async def ask(turn: BotTurn) -> Answer:
            return await bots.choose(
                live.room.code,
                live.room.bot_specs(),
                seed=session.bots.seed,
                state=turn.state,
                game_number=turn.game_number,
                player=turn.player,
                limit=session.config.time_limit,
                owner=live.owner,
            )

        await play_bots(_RoomBots(self, live), ask, lambda: session.config.delay)


class _RoomBots:
    """A room as the bot loop sees it: a bot's turn is one when a bot plays the player to
    move, or stands in for a person away long enough (``RoomMachine.bot_turn``)."""

    def __init__(self, shell: RoomShell, live: LiveRoom) -> None:
        self.shell = shell
        self.live = live
        self.failures = 0
        """Moves in a row the disk refused to keep."""

    def bot_turn(self) -> BotTurn | None:
        """The bots' turn now, if it is one (its wake-up timer set while it is not)."""
        live = self.live
        if self.shell.rooms.get(live.code) is not live:
            return None
        turn, effects = live.machine.bot_turn(self.shell.clock())
        self.shell.run(live, effects)
        return turn

    async def play_bot(self, turn: BotTurn, answer: Answer) -> bool:
        """Play the answer if the room still stands at ``turn`` (else ask again), saved
        before it is told; a move the disk refuses is told once, then retried ever later."""
        shell, live = self.shell, self.live
        if answer.problem is not None:
            shell.log.warning("room %s: bot failed: %s", live.code, answer.problem)
        async with live.lock:
            if shell.rooms.get(live.code) is not live:
                return True
            keep = live.machine.play_bot(turn, answer.action, shell.clock())
            if keep is None:
                return True  # someone played meanwhile (a person back in time)
            try:
                await shell.kept(live, keep)
                self.failures = 0
            except RoomError as problem:
                self.failures += 1
                if self.failures == 1:
                    shell.run(live, [live.machine.news.error(problem)])
        if self.failures:
            await asyncio.sleep(min(30.0, 2.0**self.failures))  # the disk may come back
        return True
