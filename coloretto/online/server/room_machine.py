"""A room in play as a state machine without IO, in the manner of h11 and wsproto.

``RoomMachine`` holds a room (``rooms.Room``: the game's data) and what a server keeps of
it while it runs: its connections and the seat each one holds, who is away since when,
when the mover's clock started, when the last game ended. It never reads a clock, a
socket or a database: every event brings the time (``now``, seconds of a monotonic
clock; ``wall``, seconds since the epoch, where a time is told to clients), and every
event answers with effects for its caller to carry out (``room_effects``):

- ``Send``: a message, and the connections to send it to (encoded once for all of them);
- ``Close``: a connection to tell why, then close;
- ``KeepMove`` / ``KeepRoom``: a record to keep before anything more happens; the caller
  answers with ``confirm`` (kept) or ``refuse`` (not kept: the change is undone);
- ``Timer``: when to come back, and with which event (``wake``: ``bot_turn``; ``deal``:
  ``deal_for_host``; ``fill``: ``fill``; ``idle``: ``idle``; ``lobby``: ``tell_lobby``);
- ``LetGo``: the room leaves the memory (nobody is in it);
- ``Note``: a line for the log.

A connection's life in the room: a seat is taken (``seating.join``, ``seating.resume``;
the host's is the new room's first), kept by the caller, then the connection
``arrive``s (its welcome, the lobby or the game) and one day ``leave``s.

A change is told only once its record is kept: ``play`` (a person's action), ``play_bot``
(a bot's answer), ``start`` and ``deal`` return the record to keep and hold the change
pending; ``confirm`` then gives the messages, ``refuse`` undoes it. One change is pending
at a time (the caller serialises them).

>>> from coloretto.engine import Rules
>>> from coloretto.online.wire.protocol import Host
>>> from coloretto.online.server.rooms import Room
>>> room, _ = Room.open("ABCDEF", Host.of("Ana", Rules(players=2), "easy", 0, 30))
>>> machine = RoomMachine(room, alone_seconds=600)
>>> [type(e.message).__name__ for e in machine.arrive("ws-ana", 0, None, 0.0, 0.0)
...  if isinstance(e, Send)]
['WelcomeMessage', 'PresenceMessage', 'LobbyMessage']
>>> keep = machine.start(now=1.0)
>>> [type(e).__name__ for e in machine.confirm(now=1.0)]
['Send', 'Timer']
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic

from coloretto.bots.driver import BotTurn
from coloretto.engine import Action, Match, Move
from coloretto.online.server.limits import Limits
from coloretto.online.server.room_effects import (
    C,
    Close,
    Effect,
    KeepMove,
    KeepRoom,
    LetGo,
    Note,
    Send,
    Timer,
)
from coloretto.online.server.room_seating import Seating
from coloretto.online.server.rooms import Room, RoomError, over_record, stand_in
from coloretto.online.wire.clock import MAX_TIMEOUTS, Standing
from coloretto.online.wire.messages import (
    ErrorMessage,
    GameMessage,
    LobbyMessage,
    LobbySeat,
    MoveMessage,
    OverMessage,
    PresenceMessage,
    RatedMessage,
    RatingChange,
    ServerMessage,
    Timing,
    WelcomeMessage,
)
from coloretto.online.wire.protocol import ErrorCode
from coloretto.online.wire.public import PublicSetup

__all__ = [
    "Close", "Effect", "KeepMove", "KeepRoom", "LetGo", "Note", "RoomMachine", "Send",
    "StandIn", "Timer",
]  # fmt: skip

LOBBY_PAUSE = 0.2
"""Seconds a lobby update waits for more changes to tell with it (people coming and
going close together are told once)."""

NEXT_GAME_SECONDS = 60.0
"""At a table with a clock, the longest wait between two games of a match (a quicker
clock's bank is shorter): then the server deals the next one itself, its host there or
not."""


class StandIn(enum.Enum):
    """Why a bot plays a person's move."""

    AWAY = "away past the wait"
    TIMEOUT = "out of time"
    GONE = f"out of time {MAX_TIMEOUTS} times"


@dataclass
class _Pending:
    """A change made and not yet kept: what to go back to, what to tell once kept."""

    match: Match
    covered: list[int]
    started: bool
    standing: Standing
    move: KeepMove | None = None
    player: int = 0
    why: StandIn | None = None
    dealt: bool = False


class RoomNews(Generic[C]):
    """What a room tells, and to whom: the messages of its ``RoomMachine``'s state."""

    def __init__(self, machine: RoomMachine[C]) -> None:
        self.machine = machine

    def to_all(self, message: ServerMessage) -> Send[C]:
        """``message`` for every connection of the room."""
        return Send(tuple(self.machine.connections), message)

    def presence(self, now: float) -> Send[C]:
        """Who is away, and when the next game comes without its host."""
        return self.to_all(
            PresenceMessage(
                away=tuple(self.machine.away()), next_in=self.machine.dealer.next_in(now)
            )
        )

    def games(self, now: float) -> list[Effect[C]]:
        """The game as each seat sees it (one message a seat, for all its connections)."""
        by_player: dict[int | None, list[C]] = {}
        for connection, player in self.machine.connections.items():
            by_player.setdefault(player, []).append(connection)
        return [Send(tuple(cs), self.game_message(p, now)) for p, cs in by_player.items()]

    def game_message(self, player: int | None, now: float) -> GameMessage:
        """The game as ``player`` sees it now (``None``: a watcher)."""
        room = self.machine.room
        session = room.session
        game = session.game
        return GameMessage.of(
            room=room.code,
            id=session.id,
            player=player,
            rules=game.rules,
            players=session.config.players,
            level=room.level,
            delay=session.config.delay,
            away_after=room.away_after,
            setup=PublicSetup.of(game.setup),
            moves=game.history(),
            number=session.match.game_number,
            results=session.match.results,
            away=tuple(self.machine.away()),
            covered=room.covered,
            next_in=self.machine.dealer.next_in(now),
            timing=self.timing(now),
        )

    def timing(self, now: float) -> Timing | None:
        """The game's clock and standing: the player to move's time as of ``now``."""
        room = self.machine.room
        standing, clock = room.standing, room.table.clock
        if clock is None and not any(standing.timeouts) and not standing.left:
            return None
        banks = list(standing.banks)
        mover = room.mover()
        if mover is not None and (left := self.machine.time_left(mover, now)) is not None:
            banks[mover] = max(0.0, left)
        return Timing(
            clock=clock,
            banks=tuple(banks),
            timeouts=tuple(standing.timeouts),
            left=tuple(sorted(standing.left)),
        )

    def lobby_message(self, wall: float) -> LobbyMessage:
        """Who sits where before the start; ``wall``: seconds since the epoch (a public
        table fills at a time every process tells the same)."""
        room = self.machine.room
        away = set(self.machine.away())
        seats = tuple(
            None if name is None else LobbySeat(name=name, present=p not in away)
            for p, name in enumerate(room.people)
        )
        table = room.table
        fill_in = None if table.fill_at is None else round(max(0.0, table.fill_at - wall), 1)
        return LobbyMessage.of(
            room=room.code,
            rules=room.session.config.rules,
            bot=room.level,
            seats=seats,
            locked=room.locked,
            public=table.public,
            rated=table.rated,
            fill_in=fill_in,
            clock=table.clock,
        )

    def error(self, problem: RoomError) -> Send[C]:
        """A refusal told to everyone in the room (a bot's move the store refused)."""
        return self.to_all(ErrorMessage(code=problem.code, message=str(problem)))


@dataclass(eq=False)
class RoomMachine(Generic[C]):
    """A room in play: its game (``room``) and its connections, each event's effects out.
    ``alone_seconds``: how long bots play on for people who all left a game not rated;
    ``idle_seconds`` (``lobby_seconds`` before the start): how long a room nobody is in
    stays in memory."""

    room: Room
    alone_seconds: float
    idle_seconds: float = Limits.idle_seconds
    lobby_seconds: float = Limits.lobby_seconds
    connections: dict[C, int | None] = field(default_factory=dict)
    """The room's connections, with the player each one plays (``None``: watching)."""
    away_since: dict[int, float] = field(default_factory=dict)
    """Since when each person away has had no connection."""
    turn_at: float | None = None
    """When the clock of the player to move started (their last move, or the start)."""
    ended: float | None = None
    """When the last game ended (a match between two games waits from then)."""
    _pending: _Pending | None = field(default=None, init=False, repr=False)
    _lobby_due: bool = field(default=False, init=False, repr=False)
    news: RoomNews[C] = field(init=False, repr=False)
    """The messages of the room's state (``RoomNews``)."""
    seating: Seating[C] = field(init=False, repr=False)
    """Who sits where: seats taken, taken up again, removed (``Seating``)."""
    dealer: HostAway[C] = field(init=False, repr=False)
    """When the server deals a match's next game for its absent host (``HostAway``)."""

    def __post_init__(self) -> None:
        self.news = RoomNews(self)
        self.seating = Seating(self)
        self.dealer = HostAway(self)

    @property
    def pending(self) -> bool:
        """True while a change waits for its record to be kept."""
        return self._pending is not None

    # ------------------------------------------------------------------ who is there

    def opened(self, now: float, wall: float, *, taken: bool) -> list[Effect[C]]:
        """The room is in memory from now on, nobody in it yet: just opened, or ``taken``
        from the store (then its people are away until they connect, and the time a move
        took before is forgiven). Its timers: the idle wait, and a public table's fill
        at its ``fill_at`` (``wall``: seconds since the epoch)."""
        room = self.room
        if taken:
            self.turn_at = now
            for player in range(len(room.people)):
                if room.is_person(player):
                    self.away_since[player] = now
        effects: list[Effect[C]] = [self._idle_timer()]
        if room.table.fill_at is not None and not room.started:
            effects.append(Timer("fill", max(0.0, room.table.fill_at - wall)))
        return effects

    def away(self) -> list[int]:
        """The room's people with no connection now."""
        present = set(self.connections.values())
        room = self.room
        return [p for p in range(len(room.people)) if room.is_person(p) and p not in present]

    def arrive(
        self, connection: C, player: int | None, token: str | None, now: float, wall: float
    ) -> list[Effect[C]]:
        """A connection takes its seat (``player``, kept already; ``None``: a watcher):
        it is welcomed (``token``: the seat's, when new), everyone learns the person is
        there, and it is told the lobby or the game as it stands."""
        room = self.room
        welcome = WelcomeMessage(room=room.code, seat=player, token=token)
        effects: list[Effect[C]] = [Send((connection,), welcome), Timer("idle", None)]
        self.connections[connection] = player
        effects.append(self.dealer.plan(now))
        if player is not None:
            self.away_since.pop(player, None)
            effects.append(self.news.presence(now))
        if not room.started:
            effects.append(Send((connection,), self.news.lobby_message(wall)))
            return effects if player is None else [*effects, *self.lobby_soon()]
        effects.append(Send((connection,), self.news.game_message(player, now)))
        if room.session.game.is_over:  # over, or a match between two games
            effects.append(Send((connection,), OverMessage(record=over_record(room))))
        return effects

    def leave(self, connection: C, now: float) -> list[Effect[C]]:
        """A connection closed. Its person, if it held their last connection, is away
        from ``now`` on. A room left empty waits (``idle``), or, its match over, is let
        go at once."""
        player = self.connections.pop(connection, None)
        room = self.room
        effects: list[Effect[C]] = []
        if not self.connections:
            if room.session.match.is_over:
                return [LetGo("archive")]
            effects.append(self._idle_timer())
        if player is None or not room.is_person(player) or player in self.connections.values():
            return effects
        self.away_since[player] = now
        effects += [self.dealer.plan(now), self.news.presence(now)]
        return effects if room.started else [*effects, *self.lobby_soon()]

    def _idle_timer(self) -> Timer:
        """How long the room waits for someone before it may leave the memory."""
        return Timer("idle", self.idle_seconds if self.room.started else self.lobby_seconds)

    def idle(self, now: float) -> list[Effect[C]]:
        """The ``idle`` timer fired: a room still empty leaves the memory (``LetGo``): its
        match over, archived; a game over, forgotten (kept; a server goes on with it when
        asked); never started, removed; a game in play, left alone once its bots no
        longer play for its people (``bots_may_think``), else it stays."""
        room = self.room
        if self.connections:
            return []
        if room.session.match.is_over:
            return [LetGo("archive")]
        if room.session.game.is_over:
            return [LetGo("forget")]
        if not room.started:
            return [LetGo("remove")]
        return [] if self.bots_may_think(now) else [LetGo("leave-alone")]

    def lobby_soon(self) -> list[Effect[C]]:
        """Tell the lobby soon (``LOBBY_PAUSE``), with any change that comes meanwhile."""
        if self._lobby_due:
            return []
        self._lobby_due = True
        return [Timer("lobby", LOBBY_PAUSE)]

    def tell_lobby(self, wall: float) -> list[Effect[C]]:
        """The ``lobby`` timer fired: everyone learns who sits where (before the start)."""
        self._lobby_due = False
        if self.room.started:
            return []
        return [self.news.to_all(self.news.lobby_message(wall))]

    # ------------------------------------------------------------------ the clock

    def time_left(self, player: int, now: float) -> float | None:
        """Seconds ``player`` has left for the move they are to make now (below 0 once
        past), at a table with a clock; ``None`` without one, or for a bot's seat."""
        room = self.room
        if room.table.clock is None or self.turn_at is None or not room.is_person(player):
            return None
        return room.standing.banks[player] - (now - self.turn_at)

    def stand_in(self, player: int, now: float) -> StandIn | None:
        """Why a bot plays ``player``'s move now, if it does: their person has run out of
        time too often (``GONE``), has been away long enough (``AWAY``), or their time for
        this move is out (``TIMEOUT``)."""
        if self.room.standing.out_of_time(player):
            return StandIn.GONE
        since = self.away_since.get(player)
        if since is not None and since + self.room.away_after - now <= 0:
            return StandIn.AWAY
        left = self.time_left(player, now)
        if left is not None and left <= 0:
            return StandIn.TIMEOUT
        return None

    def _wake(self, player: int, now: float) -> Timer:
        """When a bot will stand in for ``player`` if nothing changes (``None``: never)."""
        waits = []
        if (since := self.away_since.get(player)) is not None:
            waits.append(since + self.room.away_after - now)
        if (left := self.time_left(player, now)) is not None:
            waits.append(left)
        return Timer("wake", min(waits) if waits else None)

    def bots_may_think(self, now: float) -> bool:
        """False once none of the room's people has been connected for
        ``alone_seconds``: bots think only for people (watchers do not count). A rated
        game is played to its end all the same: leaving it must not escape its rating."""
        room = self.room
        if room.table.rated:
            return True
        present = set(self.connections.values())
        people = [p for p in range(len(room.people)) if room.is_person(p)]
        if any(p in present for p in people):
            return True
        left = max((self.away_since.get(p, 0.0) for p in people), default=0.0)
        return now - left < self.alone_seconds

    def bot_turn(self, now: float) -> tuple[BotTurn | None, list[Effect[C]]]:
        """The bots' turn now, if it is one: a bot's seat is to move, or a person a bot
        stands in for (``stand_in``). While a person is to move and no bot stands in for
        them yet, a ``wake`` timer says when one will."""
        room = self.room
        player = room.mover()
        if player is None or self._pending is not None or not self.bots_may_think(now):
            return None, []
        number = room.session.match.game_number
        if not room.is_person(player):
            return BotTurn(room.session.game, number), []
        if self.stand_in(player, now) is not None:
            return BotTurn(room.session.game, number, stand_in(player)), []
        return None, [self._wake(player, now)]

    # ------------------------------------------------------------------ changes

    def _hold(self) -> _Pending:
        if self._pending is not None:
            raise RuntimeError("a change is waiting for its record to be kept")
        room = self.room
        return _Pending(room.session.match, list(room.covered), room.started, room.standing)

    def play(self, player: int, ply: int, action: Action, now: float) -> KeepMove:
        """A person's ``action`` at ``ply``, played and pending; ``RoomError`` or
        ``IllegalAction`` (nothing changed) if it is not theirs to play."""
        room = self.room
        if room.mover() == player:
            if room.standing.out_of_time(player):
                raise RoomError(
                    f"you ran out of time {MAX_TIMEOUTS} times: a bot plays for you "
                    "for the rest of this game",
                    ErrorCode.OUT_OF_TIME,
                )
            if (left := self.time_left(player, now)) is not None and left <= 0:
                raise RoomError(
                    "your time ran out: a bot plays this move for you", ErrorCode.OUT_OF_TIME
                )
        pending = self._hold()
        move = room.act(player, ply, action)
        return self._note(pending, move, player, now, None)

    def play_bot(self, turn: BotTurn, action: Action, now: float) -> KeepMove | None:
        """A bot's answer at ``turn``, played and pending; ``None`` if the room no longer
        stands at ``turn`` (someone played meanwhile)."""
        current, _ = self.bot_turn(now)
        if current is None or current.state is not turn.state or current.player != turn.player:
            return None
        room = self.room
        player = room.mover()
        assert player is not None
        why = self.stand_in(player, now) if room.is_person(player) else None
        pending = self._hold()
        move = room.session.apply(action)
        return self._note(pending, move, player, now, why)

    def _note(
        self, pending: _Pending, move: Move, player: int, now: float, why: StandIn | None
    ) -> KeepMove:
        room = self.room
        pending.standing = room.standing.copy()
        spent = 0.0 if self.turn_at is None else now - self.turn_at
        gone = why is StandIn.AWAY and (room.table.clock is not None or room.table.rated)
        notes = room.note_move(player, spent, timeout=why is StandIn.TIMEOUT, gone=gone)
        keep = KeepMove(room.ply - 1, move, why is not None, notes, room.session.game.is_over)
        pending.move, pending.player, pending.why = keep, player, why
        self._pending = pending
        return keep

    def start(self, now: float) -> KeepRoom:
        """Start the game (``Room.start``), pending. ``RoomError`` once started."""
        if self.room.started:
            raise RoomError("the game has started already", ErrorCode.STARTED)
        pending = self._hold()
        self.room.start()
        self._pending = pending
        return KeepRoom()

    def fill(self, now: float) -> tuple[KeepRoom | None, list[Effect[C]]]:
        """The ``fill`` timer fired: a public table's wait is over, bots take its free
        seats and its game starts (pending, as ``start``), unless it has started."""
        if self.room.started:
            return None, []
        note = Note(f"room {self.room.code}: its wait is over: bots fill the free seats")
        return self.start(now), [note]

    def deal(self, number: int) -> KeepRoom:
        """Deal game ``number`` of the match (``Room.next_game``), pending."""
        pending = self._hold()
        self.room.next_game(number)
        pending.dealt = True
        self._pending = pending
        return KeepRoom()

    def deal_for_host(self, now: float) -> tuple[KeepRoom | None, list[Effect[C]]]:
        """The ``deal`` timer fired: deal the next game if the host is still away (a timer
        that woke early is set again)."""
        at = self.dealer.next_at()
        if at is None:
            return None, []
        if at > now:
            return None, [self.dealer.plan(now)]
        number = self.room.session.match.game_number + 1
        note = Note(f"room {self.room.code}: game {number} dealt by the server for its host")
        return self.deal(number), [note]

    def refuse(self) -> RoomError:
        """The pending change's record was not kept: it is undone, nobody is told of it;
        the error says so."""
        pending, self._pending = self._pending, None
        assert pending is not None
        room = self.room
        room.session.match, room.covered = pending.match, pending.covered
        room.started, room.standing = pending.started, pending.standing
        if pending.move is None:
            return RoomError("the server could not save that: try again", ErrorCode.NOT_SAVED)
        return RoomError(
            "the server could not save that move, so it was not played: try again",
            ErrorCode.NOT_SAVED,
        )

    def confirm(self, now: float, changes: Sequence[RatingChange] = ()) -> list[Effect[C]]:
        """The pending change's record was kept (``changes``: the ratings a game's end
        changed): what to tell, and the timers that follow."""
        pending, self._pending = self._pending, None
        assert pending is not None
        self.turn_at = now
        keep = pending.move
        if keep is None:
            if pending.dealt:
                self.ended = None
            return [*self.news.games(now), self.dealer.plan(now)]
        room = self.room
        if keep.covered:
            room.covered.append(keep.ply)
        notes = keep.notes
        effects: list[Effect[C]] = []
        if notes.get("left"):
            reason = "out of time" if pending.why is None else pending.why.value
            effects.append(
                Note(f"room {self.room.code}: player {pending.player} has left the game ({reason})")
            )
        effects.append(
            self.news.to_all(
                MoveMessage.of(
                    ply=keep.ply,
                    move=keep.move,
                    covered=keep.covered,
                    bank=notes.get("bank"),
                    timeout="timeout" in notes,
                    left="left" in notes,
                )
            )
        )
        if not room.session.game.is_over:
            return effects
        effects.append(self.news.to_all(OverMessage(record=over_record(room))))
        if changes:
            number = room.session.match.game_number
            effects.append(self.news.to_all(RatedMessage(game=number, changes=tuple(changes))))
        self.ended = now
        timer = self.dealer.plan(now)
        effects.append(timer)
        if timer.seconds is not None:
            effects.append(self.news.presence(now))  # the host is away: when the next game comes
        if not self.connections:  # the bots finished it for people all away
            effects.append(self._idle_timer())
        return effects


class HostAway(Generic[C]):
    """When the server deals the next game of a ``RoomMachine``'s match itself, its host
    away (or, at a table with a clock, staying and not dealing it)."""

    def __init__(self, machine: RoomMachine[C]) -> None:
        self.machine = machine

    def next_at(self) -> float | None:
        """When the server deals the room's next game itself (``None``: it waits for the
        host): between two games of a match, once the host has been away ``away_after``
        seconds (counted from the end of the game if they left before), at a table with a
        clock its bank's time (``NEXT_GAME_SECONDS`` at most) after the end at the latest,
        while someone is in the room to play it."""
        machine = self.machine
        room = machine.room
        since = machine.away_since.get(0)
        if not room.started or not room.session.has_next_game or not machine.connections:
            return None  # nobody waits: the match waits for its people
        clocked = None
        if room.table.clock is not None and machine.ended is not None:
            # a host who stays cannot stall the match
            clocked = machine.ended + min(NEXT_GAME_SECONDS, room.table.clock.bank)
        if since is None:
            return clocked
        ended = since if machine.ended is None else machine.ended
        away = max(since, ended) + room.away_after
        return away if clocked is None else min(away, clocked)

    def next_in(self, now: float) -> float | None:
        """Seconds until the server deals the room's next game itself, if it will."""
        at = self.next_at()
        return None if at is None else max(0.0, at - now)

    def plan(self, now: float) -> Timer:
        """The timer that deals the room's next game for an absent host (or none)."""
        return Timer("deal", self.next_in(now))
