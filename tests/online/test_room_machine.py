"""The room as a state machine without IO (``room_machine.RoomMachine``), driven directly:
no sockets, no database, no clock but the one the test turns.

A hypothesis state machine plays rooms where people come and go, take their seat up again
on another connection, play legal and illegal moves, let their time run out, where bots
answer (late ones too) and the store keeps or refuses each record; after every step it
checks what the server promises: a move is told only once its record is kept, the game
on the table never moves on without a record, a person out of time is played for, no
message goes to a closed connection, and every game ends with a ranking."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from coloretto.engine import Action, IllegalAction, Rules
from coloretto.online.server.room_machine import (
    LOBBY_PAUSE,
    Close,
    Effect,
    KeepMove,
    KeepRoom,
    LetGo,
    Note,
    RoomMachine,
    Send,
    StandIn,
    Timer,
)
from coloretto.online.server.rooms import Room, RoomError, stand_in
from coloretto.online.wire.clock import MAX_TIMEOUTS, Clock
from coloretto.online.wire.messages import (
    GameMessage,
    LobbyMessage,
    MoveMessage,
    OverMessage,
    PresenceMessage,
    RatedMessage,
    RatingChange,
    WelcomeMessage,
)
from coloretto.online.wire.protocol import ErrorCode, Host
from coloretto.play.session import Session

QUICK = Clock("quick", 60.0, 5.0)
AWAY_AFTER = 30.0


FILL_AFTER = 30.0


def seated_room(
    *,
    clock: Clock | None = QUICK,
    rated: bool = False,
    games: int = 1,
    seed: int = 1,
    public: bool = False,
) -> tuple[Room, list[str]]:
    """A room of Ana (the host, seat 0), Ben (seat 1) and a free seat, not started, its
    match dealt from ``seed`` (``public``: bots fill it ``FILL_AFTER`` seconds after it
    opened); and Ana's and Ben's tokens."""
    host = Host.of(
        "Ana", Rules(players=3, games=games), "easy", 0, AWAY_AFTER, rated=rated,
        public=public, fill_after=FILL_AFTER if public else None,
    )  # fmt: skip
    room, ana = Room.open("ABCDEF", host, "Ana" if rated else None, clock)
    _, ben = room.join("Ben", "Ben" if rated else None)
    room.session = Session(replace(room.session.config, seed=seed))
    return room, [ana, ben]


def new_room(
    *, clock: Clock | None = QUICK, rated: bool = False, games: int = 1, seed: int = 1
) -> Room:
    """A room of Ana (the host, seat 0), Ben (seat 1) and a bot, not started, its match
    dealt from ``seed``."""
    return seated_room(clock=clock, rated=rated, games=games, seed=seed)[0]


def started(room: Room, now: float = 0.0) -> RoomMachine[str]:
    """``room``'s machine with Ana and Ben connected, its game started and kept."""
    machine: RoomMachine[str] = RoomMachine(room, alone_seconds=600.0)
    machine.arrive("ana", 0, None, now, now)
    machine.arrive("ben", 1, None, now, now)
    assert isinstance(machine.start(now), KeepRoom)
    machine.confirm(now)
    return machine


def sent(effects: list[Effect[str]], kind: type) -> list[Send[str]]:
    return [e for e in effects if isinstance(e, Send) and isinstance(e.message, kind)]


def to_person(machine: RoomMachine[str]) -> None:
    """Let the bots play until a person is to move (their moves kept)."""
    for _ in range(20):
        player = machine.room.mover()
        assert player is not None
        if machine.room.is_person(player):
            return
        turn, _ = machine.bot_turn(0.0)
        assert turn is not None
        keep = machine.play_bot(turn, turn.state.legal_actions()[0], 0.0)
        assert keep is not None
        machine.confirm(0.0)
    raise AssertionError("no person's turn came")


# ------------------------------------------------------------------ the clock


def test_a_move_takes_its_time_from_the_movers_bank_and_adds_the_increment() -> None:
    machine = started(new_room())
    to_person(machine)
    player = machine.room.mover()
    assert player is not None
    machine.turn_at = 100.0
    assert machine.time_left(player, 112.0) == pytest.approx(60.0 - 12.0)
    keep = machine.play(player, machine.room.ply, machine.room.session.game.legal_actions()[0], 112)
    assert keep.notes == {"bank": pytest.approx(53.0)}
    moved = sent(machine.confirm(112.0), MoveMessage)
    assert [s.message.bank for s in moved] == [pytest.approx(53.0)]  # type: ignore[attr-defined]
    assert machine.room.standing.banks[player] == pytest.approx(53.0)


def test_a_person_out_of_time_is_refused_and_played_for_with_a_timeout() -> None:
    machine = started(new_room())
    to_person(machine)
    player = machine.room.mover()
    assert player is not None
    machine.turn_at = 0.0
    action = machine.room.session.game.legal_actions()[0]
    turn, effects = machine.bot_turn(59.0)
    assert turn is None
    assert effects == [Timer("wake", pytest.approx(1.0))]
    with pytest.raises(RoomError) as refused:
        machine.play(player, machine.room.ply, action, 61.0)
    assert refused.value.code is ErrorCode.OUT_OF_TIME
    assert machine.stand_in(player, 61.0) is StandIn.TIMEOUT
    turn, _ = machine.bot_turn(61.0)
    assert turn is not None
    assert turn.player == stand_in(player)
    keep = machine.play_bot(turn, action, 61.0)
    assert keep is not None
    assert keep.covered
    assert keep.notes["timeout"] is True
    move = sent(machine.confirm(61.0), MoveMessage)[0].message
    assert isinstance(move, MoveMessage)
    assert move.covered
    assert move.timeout
    assert not move.left
    assert machine.room.standing.timeouts[player] == 1
    assert machine.room.standing.banks[player] == QUICK.after_timeout


def test_the_third_timeout_counts_as_leaving_and_a_bot_plays_the_rest() -> None:
    machine = started(new_room())
    timeouts = 0
    for _ in range(100):
        to_person(machine)
        player = machine.room.mover()
        assert player is not None
        if player == 1:  # Ben plays in time
            machine.play(1, machine.room.ply, machine.room.session.game.legal_actions()[0], 0)
            machine.confirm(0.0)
            continue
        timeouts += 1
        machine.turn_at = -1000.0
        turn, _ = machine.bot_turn(0.0)
        assert turn is not None
        keep = machine.play_bot(turn, turn.state.legal_actions()[0], 0.0)
        assert keep is not None
        effects = machine.confirm(0.0)
        move = sent(effects, MoveMessage)[0].message
        assert isinstance(move, MoveMessage)
        if move.left:
            assert timeouts == MAX_TIMEOUTS
            assert any(isinstance(e, Note) and "has left the game" in e.text for e in effects)
            assert machine.stand_in(player, 0.0) is StandIn.GONE
            return
    raise AssertionError("nobody left")


def test_a_refused_move_is_undone_with_its_clock() -> None:
    machine = started(new_room())
    to_person(machine)
    player = machine.room.mover()
    assert player is not None
    machine.turn_at = 0.0
    ply, banks = machine.room.ply, list(machine.room.standing.banks)
    machine.play(player, ply, machine.room.session.game.legal_actions()[0], 20.0)
    problem = machine.refuse()
    assert problem.code is ErrorCode.NOT_SAVED
    assert (machine.room.ply, machine.room.mover()) == (ply, player)
    assert machine.room.standing.banks == banks
    assert machine.time_left(player, 20.0) == pytest.approx(banks[player] - 20.0)


# ------------------------------------------------------------------ leaving


def test_a_person_away_past_the_wait_at_a_rated_table_has_left_the_game() -> None:
    machine = started(new_room(rated=True))
    to_person(machine)
    player = machine.room.mover()
    assert player is not None
    away = "ana" if player == 0 else "ben"
    effects = machine.leave(away, 10.0)
    presence = sent(effects, PresenceMessage)[0]
    assert presence.message == PresenceMessage(away=(player,))
    assert away not in presence.to
    machine.turn_at = 10.0
    assert machine.stand_in(player, 10.0 + AWAY_AFTER - 1) is None
    assert machine.stand_in(player, 10.0 + AWAY_AFTER) is StandIn.AWAY
    turn, _ = machine.bot_turn(10.0 + AWAY_AFTER)
    assert turn is not None
    keep = machine.play_bot(turn, turn.state.legal_actions()[0], 10.0 + AWAY_AFTER)
    assert keep is not None
    assert keep.notes.get("left") is True
    assert player in machine.room.standing.left


def test_away_past_the_wait_at_a_private_table_without_clock_is_covered_not_gone() -> None:
    machine = started(new_room(clock=None))
    to_person(machine)
    player = machine.room.mover()
    assert player is not None
    machine.leave("ana" if player == 0 else "ben", 0.0)
    turn, _ = machine.bot_turn(AWAY_AFTER)
    assert turn is not None
    keep = machine.play_bot(turn, turn.state.legal_actions()[0], AWAY_AFTER)
    assert keep is not None
    assert keep.covered
    assert "left" not in keep.notes
    assert not machine.room.standing.left


def test_bots_stop_for_people_all_gone_long_unless_the_game_is_rated() -> None:
    for rated, thinks in ((False, False), (True, True)):
        machine = started(new_room(rated=rated))
        machine.leave("ana", 0.0)
        machine.leave("ben", 5.0)
        assert machine.bots_may_think(604.0)
        assert machine.bots_may_think(606.0) is thinks


def test_a_seat_taken_up_elsewhere_closes_its_old_connection() -> None:
    machine = started(new_room())
    effects = machine.seating.dismiss(1, ErrorCode.REPLACED, "taken up")
    assert effects == [Close("ben", 1, ErrorCode.REPLACED, "taken up")]
    assert "ben" not in machine.connections
    back = machine.arrive("ben-2", 1, None, 1.0, 1.0)
    assert Send(("ana", "ben-2"), PresenceMessage(away=())) in back


def test_a_stale_bot_answer_is_not_played() -> None:
    machine = started(new_room())
    to_person(machine)
    player = machine.room.mover()
    assert player is not None
    machine.leave("ana" if player == 0 else "ben", 0.0)
    turn, _ = machine.bot_turn(AWAY_AFTER)
    assert turn is not None
    machine.arrive("back", player, None, AWAY_AFTER, AWAY_AFTER)  # back in time: their own move
    action = machine.room.session.game.legal_actions()[0]
    assert machine.play_bot(turn, action, AWAY_AFTER) is None
    machine.play(player, machine.room.ply, action, AWAY_AFTER)
    assert not sent(machine.confirm(AWAY_AFTER), MoveMessage)[0].message.covered  # type: ignore[attr-defined]


# ------------------------------------------------------------------ seats, timers, letting go


def test_a_connection_is_welcomed_then_told_the_lobby_and_the_others_soon_after() -> None:
    room, tokens = seated_room()
    machine: RoomMachine[str] = RoomMachine(room, alone_seconds=600.0, lobby_seconds=60.0)
    assert machine.opened(0.0, 1000.0, taken=False) == [Timer("idle", 60.0)]
    effects = machine.arrive("ana", 0, tokens[0], 0.0, 1000.0)
    welcome = WelcomeMessage(room="ABCDEF", seat=0, token=tokens[0])
    assert effects[:2] == [Send(("ana",), welcome), Timer("idle", None)]
    assert sent(effects, PresenceMessage) == [Send(("ana",), PresenceMessage(away=(1,)))]
    (lobby,) = sent(effects, LobbyMessage)
    assert lobby.to == ("ana",)
    assert effects[-1] == Timer("lobby", LOBBY_PAUSE)
    effects = machine.arrive("ben", 1, None, 0.1, 1000.1)  # within the pause: one update
    assert sent(effects, WelcomeMessage)[0].message == WelcomeMessage("ABCDEF", 1, None)
    assert not [e for e in effects if isinstance(e, Timer) and e.kind == "lobby"]
    (told,) = machine.tell_lobby(1000.2)
    assert isinstance(told, Send)
    assert told.to == ("ana", "ben")
    assert isinstance(told.message, LobbyMessage)
    assert [s is not None and s.present for s in told.message.seats] == [True, True, False]
    assert machine.leave("ben", 5.0)[-1] == Timer("lobby", LOBBY_PAUSE)  # Ben away: told


def finish(machine: RoomMachine[str], now: float) -> tuple[float, list[Effect[str]]]:
    """Let the bots play the game to its end (for people away or out of time, each move
    1000 s after the last); the time then, and the effects of its last move's record."""
    effects: list[Effect[str]] = []
    while machine.room.mover() is not None:
        now += 1000.0
        turn, _ = machine.bot_turn(now)
        assert turn is not None
        keep = machine.play_bot(turn, turn.state.legal_actions()[0], now)
        assert keep is not None
        effects = machine.confirm(now)
    return now, effects


def test_a_watcher_is_told_the_game_as_it_stands_and_its_end() -> None:
    machine = started(new_room())
    now, _ = finish(machine, 0.0)
    effects = machine.arrive("cy", None, None, now, 0.0)
    told = [e.message for e in effects if isinstance(e, Send)]
    assert [type(m) for m in told] == [WelcomeMessage, GameMessage, OverMessage]
    assert all(e.to == ("cy",) for e in effects if isinstance(e, Send))


def test_a_seat_is_taken_up_with_its_token_and_only_with_it() -> None:
    room, tokens = seated_room()
    machine = started(room)
    with pytest.raises(RoomError) as refused:
        machine.seating.resume("x" * 32)
    assert refused.value.code is ErrorCode.BAD_TOKEN
    assert set(machine.connections) == {"ana", "ben"}
    player, effects = machine.seating.resume(tokens[1])
    assert player == 1
    assert effects == [
        Close("ben", 1, ErrorCode.REPLACED, "your seat was taken up on another connection")
    ]
    assert sent(machine.arrive("ben-2", 1, None, 1.0, 1.0), GameMessage)[0].to == ("ben-2",)
    with pytest.raises(RoomError) as late:
        machine.seating.join("Cy", None)
    assert late.value.code is ErrorCode.STARTED


def test_the_host_removes_a_person_who_is_closed_and_the_lobby_told() -> None:
    room, _ = seated_room()
    machine: RoomMachine[str] = RoomMachine(room, alone_seconds=600.0)
    machine.arrive("ana", 0, None, 0.0, 0.0)
    machine.arrive("ben", 1, None, 0.0, 0.0)
    machine.tell_lobby(0.0)
    effects = machine.seating.remove(1)
    assert effects == [
        Close("ben", 1, ErrorCode.REMOVED, "the host removed you from the table"),
        Timer("lobby", LOBBY_PAUSE),
    ]
    assert machine.room.people[1] is None
    assert machine.away() == []
    assert machine.seating.lock(True) == []  # the lobby is about to be told already
    with pytest.raises(RoomError) as locked:
        machine.seating.join("Cy", None)
    assert locked.value.code is ErrorCode.LOCKED


def test_a_public_table_fills_with_bots_when_its_wait_is_over() -> None:
    room, _ = seated_room(public=True)
    fill_at = room.table.fill_at
    assert fill_at is not None
    machine: RoomMachine[str] = RoomMachine(room, alone_seconds=600.0)
    assert Timer("fill", pytest.approx(10.0)) in machine.opened(0.0, fill_at - 10, taken=False)
    machine.arrive("ana", 0, None, 0.0, fill_at - 10)
    keep, effects = machine.fill(10.0)
    assert isinstance(keep, KeepRoom)
    assert effects == [Note("room ABCDEF: its wait is over: bots fill the free seats")]
    assert not machine.room.started or machine.pending  # told only once kept
    told = machine.confirm(10.0)
    assert sent(told, GameMessage)[0].to == ("ana",)
    assert machine.fill(20.0) == (None, [])  # started: a late timer starts nothing
    assert machine.tell_lobby(20.0) == []  # nor tells a lobby


def test_an_empty_room_waits_then_leaves_the_memory_as_it_stands() -> None:
    room, _ = seated_room()
    lobby: RoomMachine[str] = RoomMachine(room, 600.0, idle_seconds=900.0, lobby_seconds=60.0)
    lobby.arrive("ana", 0, None, 0.0, 0.0)
    assert Timer("idle", 60.0) in lobby.leave("ana", 1.0)
    assert lobby.idle(61.0) == [LetGo("remove")]
    lobby.arrive("ana-2", 0, None, 62.0, 62.0)
    assert lobby.idle(62.0) == []  # someone came back

    for rated, verdict in ((False, [LetGo("leave-alone")]), (True, [])):
        machine = started(new_room(rated=rated))
        machine.leave("ana", 0.0)
        assert Timer("idle", machine.idle_seconds) in machine.leave("ben", 1.0)
        assert machine.idle(1.0 + machine.idle_seconds) == verdict  # rated: played to its end

    machine = started(new_room(clock=None, rated=True, games=2))
    machine.leave("ana", 0.0)
    machine.leave("ben", 0.0)
    now, effects = finish(machine, 0.0)  # the bots finish a rated game for people all away
    assert machine.room.session.has_next_game
    assert Timer("idle", machine.idle_seconds) in effects
    assert machine.idle(now + machine.idle_seconds) == [LetGo("forget")]  # kept, not over

    machine = started(new_room())
    now, _ = finish(machine, 0.0)
    machine.leave("ana", now)
    assert machine.leave("ben", now) == [LetGo("archive")]  # the match is over: at once


# ------------------------------------------------------------------ the state machine


class Rooms(RuleBasedStateMachine):
    """A room's life driven by random events, the server's promises checked throughout."""

    machine: RoomMachine[str]

    @initialize(
        clock=st.sampled_from([QUICK, None]),
        rated=st.booleans(),
        seed=st.integers(0, 999),
        public=st.booleans(),
    )
    def open_room(self, clock: Clock | None, rated: bool, seed: int, public: bool) -> None:
        """A room opened with Ana and Ben arrived: a private one started, a public one
        waiting for its fill timer (or its host's start)."""
        self.rated = rated
        room, self.tokens = seated_room(clock=clock, rated=rated, games=2, seed=seed, public=public)
        self.epoch = 0.0 if room.table.fill_at is None else room.table.fill_at - FILL_AFTER
        self.machine = RoomMachine(room, alone_seconds=600.0)
        self.now = 0.0
        self.count = 0
        self.closed: set[str] = set()
        self.pending: KeepMove | KeepRoom | None = None
        self.kept = 0  # actions of the game on the table kept
        self.told: list[int] = []  # plies told in move messages
        self.ended = False
        self.timers: dict[str, float] = {}  # when each timer set now fires
        self.let_go: str | None = None
        self.take(self.machine.opened(self.now, self.wall, taken=False))
        assert ("fill" in self.timers) is public
        self.take(self.machine.arrive("ana", 0, self.tokens[0], self.now, self.wall))
        self.take(self.machine.arrive("ben", 1, self.tokens[1], self.now, self.wall))
        if not public:
            self.keep(self.machine.start(self.now))
            self.store_keeps()

    @property
    def wall(self) -> float:
        """The time since the epoch, as the machine is told it."""
        return self.epoch + self.now

    @property
    def wake(self) -> float | None:
        return self.timers.get("wake")

    # -------------------------------------------------------- effects out

    def take(self, effects: list[Effect[str]], *, kept: bool = False) -> None:
        """Check the effects of an event (``kept``: the store's confirmation)."""
        for effect in effects:
            if isinstance(effect, Send):
                assert not set(effect.to) & self.closed, "a message to a closed connection"
                assert set(effect.to) <= set(self.machine.connections)
                message = effect.message
                if isinstance(message, MoveMessage | RatedMessage):
                    assert kept, f"{type(message).__name__} told before its record was kept"
                if isinstance(message, OverMessage):  # told as kept, or to one arriving after
                    assert kept or self.ended, "the end told before its record was kept"
                if isinstance(message, WelcomeMessage):
                    assert len(effect.to) == 1
                if isinstance(message, LobbyMessage):
                    assert not self.machine.room.started, "a lobby told once the game started"
                if isinstance(message, MoveMessage):
                    assert message.ply == self.kept - 1
                    self.told.append(message.ply)
                if isinstance(message, OverMessage):
                    places = message.record["result"]["places"]
                    assert len(places) == 3
                    assert all(isinstance(p, int) for p in places)
                    self.ended = True
            elif isinstance(effect, Close):
                assert effect.connection not in self.closed
                assert effect.connection not in self.machine.connections
                self.closed.add(effect.connection)
            elif isinstance(effect, Timer):
                if effect.kind == "lobby":
                    assert "lobby" not in self.timers, "the lobby told twice in one pause"
                self.timers.pop(effect.kind, None)
                if effect.seconds is not None:
                    self.timers[effect.kind] = self.now + effect.seconds
            elif isinstance(effect, LetGo):
                assert not self.machine.connections, "a room let go with someone in it"
                self.let_go = effect.why

    def keep(self, keep: KeepMove | KeepRoom) -> None:
        assert self.pending is None, "two changes pending at once"
        self.pending = keep
        if isinstance(keep, KeepMove):
            assert keep.ply == self.kept

    # -------------------------------------------------------- people

    def connection(self) -> str:
        self.count += 1
        return f"c{self.count}"

    @rule(player=st.sampled_from([0, 1, None]))
    def connect(self, player: int | None) -> None:
        self.take(self.machine.arrive(self.connection(), player, None, self.now, self.wall))

    @precondition(lambda self: bool(self.machine.connections))
    @rule(data=st.data())
    def disconnect(self, data: st.DataObject) -> None:
        connection = data.draw(st.sampled_from(sorted(self.machine.connections)))
        effects = self.machine.leave(connection, self.now)
        self.take(effects)
        self.closed.add(connection)
        if not self.machine.connections:  # an empty room waits to be let go, or goes
            match_over = self.machine.room.session.match.is_over
            assert ("idle" in self.timers) is not match_over
            assert (LetGo("archive") in effects) is match_over

    @rule(player=st.sampled_from([0, 1, 2]), right=st.booleans())
    def take_seat_up_again(self, player: int, right: bool) -> None:
        """A seat taken up on a new connection with its token (a wrong one is refused,
        nothing changed); the old connections are closed."""
        seating, before = self.machine.seating, dict(self.machine.connections)
        if not right or player >= len(self.tokens):
            with pytest.raises(RoomError) as refused:
                seating.resume("x" * 32 if right else "bad" * 10)
            assert refused.value.code is ErrorCode.BAD_TOKEN
            assert self.machine.connections == before
            return
        found, effects = seating.resume(self.tokens[player])
        assert found == player
        self.take(effects)
        assert player not in self.machine.connections.values()
        self.take(self.machine.arrive(self.connection(), player, None, self.now, self.wall))

    @rule()
    def a_stranger_joins(self) -> None:
        """Cy takes the free seat before the start (then arrives, welcomed with a token);
        refused once started, or when the seat is taken or the table closed."""
        room = self.machine.room
        free = room.people[2] is None
        if room.started or not free or room.locked:
            with pytest.raises(RoomError):
                self.machine.seating.join("Cy", "Cy" if self.rated else None)
            return
        player, token = self.machine.seating.join("Cy", "Cy" if self.rated else None)
        assert player == 2
        self.tokens.append(token)
        effects = self.machine.arrive(self.connection(), 2, token, self.now, self.wall)
        assert sent(effects, WelcomeMessage)[0].message == WelcomeMessage("ABCDEF", 2, token)
        self.take(effects)

    @precondition(lambda self: not self.machine.room.started)
    @rule(locked=st.booleans())
    def the_host_removes_cy_or_locks(self, locked: bool) -> None:
        room = self.machine.room
        if room.people[2] is not None:
            self.take(self.machine.seating.remove(2))
            assert 2 not in self.machine.connections.values()
            self.tokens = self.tokens[:2]
        self.take(self.machine.seating.lock(locked))
        assert room.locked is locked

    @rule(seconds=st.sampled_from([0.5, 5.0, 29.0, 61.0, 700.0]))
    def time_passes(self, seconds: float) -> None:
        self.now += seconds

    @precondition(lambda self: self.pending is None and self.machine.room.mover() is not None)
    @rule(data=st.data(), who=st.sampled_from(["mover", "other"]), legal=st.booleans())
    def person_plays(self, data: st.DataObject, who: str, legal: bool) -> None:
        room = self.machine.room
        mover = room.mover()
        assert mover is not None
        player = mover if who == "mover" else (mover + 1) % 3
        if not room.is_person(player):
            return
        actions = room.session.game.legal_actions()
        ply = room.ply if legal else data.draw(st.sampled_from([room.ply - 1, room.ply + 1]))
        action: Action = data.draw(st.sampled_from(actions))
        left = self.machine.time_left(player, self.now)
        out = room.standing.out_of_time(player) or (left is not None and left <= 0)
        if not (legal and player == mover and not out):
            with pytest.raises((RoomError, IllegalAction)):
                self.machine.play(player, ply, action, self.now)
            assert room.ply == self.kept
            return
        keep = self.machine.play(player, ply, action, self.now)
        self.keep(keep)

    # -------------------------------------------------------- bots and timers

    @precondition(lambda self: self.pending is None)
    @rule(data=st.data(), late=st.booleans())
    def bot_answers(self, data: st.DataObject, late: bool) -> None:
        turn, effects = self.machine.bot_turn(self.now)
        self.take(effects)
        room = self.machine.room
        mover = room.mover()
        if turn is None:
            left = None if mover is None else self.machine.time_left(mover, self.now)
            if left is not None and self.machine.bots_may_think(self.now):
                assert self.wake is not None, "no wake-up"
                assert self.wake <= self.now + left
            return
        if late:  # a person played meanwhile, or came back
            self.now += 1.0
        action = data.draw(st.sampled_from(turn.state.legal_actions()))
        keep = self.machine.play_bot(turn, action, self.now)
        if keep is not None:
            self.keep(keep)

    @precondition(lambda self: self.pending is None and self.wake is not None)
    @rule()
    def wake_timer_fires(self) -> None:
        assert self.wake is not None
        self.now = max(self.now, self.wake)
        self.bot_answers_at_once()

    def bot_answers_at_once(self) -> None:
        """What the bot loop does when woken: a bot plays if one is to (the invariants
        check that one does for a person out of time)."""
        turn, effects = self.machine.bot_turn(self.now)
        self.take(effects)
        if turn is not None:
            keep = self.machine.play_bot(turn, turn.state.legal_actions()[0], self.now)
            assert keep is not None
            self.keep(keep)

    @precondition(lambda self: self.pending is None and not self.machine.room.started)
    @rule()
    def the_host_starts(self) -> None:
        self.keep(self.machine.start(self.now))

    @precondition(lambda self: self.pending is None and "fill" in self.timers)
    @rule()
    def fill_timer_fires(self) -> None:
        """The public table's wait is over: bots fill it and its game starts (kept
        first), unless its host started it before."""
        self.now = max(self.now, self.timers.pop("fill"))
        was = self.machine.room.started
        keep, effects = self.machine.fill(self.now)
        self.take(effects)
        assert (keep is None) is was
        if keep is not None:
            assert not sent(effects, GameMessage), "the game told before it was kept"
            self.keep(keep)

    @precondition(lambda self: "lobby" in self.timers)
    @rule()
    def lobby_timer_fires(self) -> None:
        self.now = max(self.now, self.timers.pop("lobby"))
        effects = self.machine.tell_lobby(self.wall)
        self.take(effects)
        if not self.machine.room.started:
            (told,) = effects
            assert isinstance(told, Send)
            assert set(told.to) == set(self.machine.connections)

    @precondition(lambda self: "idle" in self.timers)
    @rule()
    def idle_timer_fires(self) -> None:
        """Nobody came: the room leaves the memory as it stands (or plays on, its bots
        still playing for its people)."""
        self.now = max(self.now, self.timers.pop("idle"))
        effects = self.machine.idle(self.now)
        self.take(effects)
        room, machine = self.machine.room, self.machine
        if machine.connections:
            verdict = None
        elif room.session.match.is_over:
            verdict = "archive"
        elif room.session.game.is_over:
            verdict = "forget"
        elif not room.started:
            verdict = "remove"
        else:
            verdict = None if machine.bots_may_think(self.now) else "leave-alone"
        assert effects == ([] if verdict is None else [LetGo(verdict)])  # type: ignore[arg-type]

    @precondition(lambda self: self.pending is None)
    @rule()
    def deal_timer_fires(self) -> None:
        at = self.machine.dealer.next_at()
        if at is None:
            return
        self.now = max(self.now, at)
        keep, effects = self.machine.deal_for_host(self.now)
        self.take(effects)
        if keep is not None:
            self.keep(keep)

    # -------------------------------------------------------- the store

    @precondition(lambda self: self.pending is not None)
    @rule()
    def store_keeps(self) -> None:
        keep, self.pending = self.pending, None
        changes: list[RatingChange] = []
        if isinstance(keep, KeepMove):
            self.kept += 1
            if keep.last and self.rated:
                changes = [RatingChange(seat=0, name="Ana", before=1500, after=1510)]
        else:
            self.kept = 0  # a game dealt
            self.told = []
            self.ended = False
        effects = self.machine.confirm(self.now, changes)
        self.take(effects, kept=True)
        if changes:
            assert sent(effects, RatedMessage)

    @precondition(lambda self: self.pending is not None)
    @rule()
    def store_refuses(self) -> None:
        self.pending = None
        problem = self.machine.refuse()
        assert problem.code is ErrorCode.NOT_SAVED
        assert self.machine.room.ply == self.kept

    # -------------------------------------------------------- promises

    @invariant()
    def nothing_moves_without_a_record(self) -> None:
        assert self.machine.pending is (self.pending is not None)
        ply = self.machine.room.ply
        assert ply == self.kept + (1 if isinstance(self.pending, KeepMove) else 0)
        if self.pending is None:
            assert self.told == sorted(self.told)
            assert not self.told or self.told[-1] == self.kept - 1

    @invariant()
    def a_person_out_of_time_is_played_for(self) -> None:
        machine, room = self.machine, self.machine.room
        mover = room.mover()
        if self.pending is not None or mover is None or not room.is_person(mover):
            return
        left = machine.time_left(mover, self.now)
        if (left is not None and left <= 0) or room.standing.out_of_time(mover):
            turn, _ = machine.bot_turn(self.now)
            if machine.bots_may_think(self.now):
                assert turn is not None
                assert turn.player == stand_in(mover)

    @invariant()
    def no_closed_connection_is_kept(self) -> None:
        assert not set(self.machine.connections) & self.closed

    def teardown(self) -> None:
        """Play the game on the table to its end: it ends, told with its ranking."""
        if not hasattr(self, "machine"):
            return
        if self.pending is not None:
            self.store_keeps()
        if not self.machine.room.started:
            self.the_host_starts()
            self.store_keeps()
        self.connect(0)
        for _ in range(500):
            if self.machine.room.mover() is None:
                break
            self.now += AWAY_AFTER + 61.0
            self.connect(None)  # a watcher: bots may think
            turn, effects = self.machine.bot_turn(self.now)
            self.take(effects)
            room = self.machine.room
            if turn is None:
                player = room.mover()
                assert player is not None
                keep = self.machine.play(
                    player, room.ply, room.session.game.legal_actions()[0], self.now
                )
            else:
                found = self.machine.play_bot(turn, turn.state.legal_actions()[0], self.now)
                assert found is not None
                keep = found
            self.keep(keep)
            self.store_keeps()
        assert self.machine.room.session.game.is_over
        assert self.ended, "the game ended without its ranking told"


Rooms.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestRooms = Rooms.TestCase


def test_a_game_message_shows_the_movers_time_as_of_now() -> None:
    machine = started(new_room())
    to_person(machine)
    player = machine.room.mover()
    assert player is not None
    machine.turn_at = 0.0
    message = machine.news.game_message(player, 15.0)
    assert isinstance(message, GameMessage)
    assert message.timing is not None
    assert message.timing.banks[player] == pytest.approx(45.0)
