"""The client's state machine driven without sockets: a game's messages in order, told
again, a connection dropped and resumed mid-game (moves missed meanwhile), a move refused,
a move chosen on a game that went on. The view never goes backwards, a move is told to
the screens once, a chosen move is sent once a connection and again after a break only
if the game still stands where it was chosen; whatever comes, nothing raises: a frame
that breaks the protocol ends the table saying why."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto.engine import Move, Rules
from coloretto.online.client.machine import (
    ClientMachine,
    Effect,
    GameStarted,
    KeepGame,
    KeepToken,
    SeatRefused,
    Send,
)
from coloretto.online.server.rooms import Room, over_record
from coloretto.online.wire.messages import (
    GameMessage,
    MoveMessage,
    OverMessage,
    PresenceMessage,
    WelcomeMessage,
)
from coloretto.online.wire.protocol import Act, Host, Join, Resume, encode
from coloretto.online.wire.public import PublicSetup
from coloretto.play.table import MovePlayed, TableNews
from tests.online.test_messages import server_messages

ROOM = "ABC234"
TOKEN = "t" * 32
JO = 1
"""The player whose client is driven (Ana hosts; the third seat is a bot)."""


@dataclass(frozen=True)
class Script:
    """A whole game at Ana's table, as the server tells it to Jo."""

    room: Room
    moves: tuple[Move, ...]

    def game(self, told: int, covered: frozenset[int] = frozenset()) -> str:
        """The ``game`` message once ``told`` moves are played."""
        session = self.room.session
        game = session.game
        return encode(
            GameMessage.of(ROOM, session.id, JO, game.rules, session.config.players,
                        self.room.level, 0.0, 5.0, PublicSetup.of(game.setup),
                        self.moves[:told], covered=covered)
        )  # fmt: skip

    def move(self, ply: int, covered: bool = False) -> str:
        """The ``move`` message of move ``ply``."""
        return encode(MoveMessage.of(ply, self.moves[ply], covered))

    def over(self) -> str:
        """The game's record, once it is over."""
        return encode(OverMessage(over_record(self.room)))

    def jos(self, ply: int) -> bool:
        """True when move ``ply`` is Jo's to play."""
        return self.room.session.game.rules.controller(self.moves[ply].player) == JO


def played_script(seed: int) -> Script:
    room, _ = Room.open(ROOM, Host.of("Ana", Rules(players=3), "easy", 0.0, 5.0))
    room.join("Jo")
    room.start()
    rng = random.Random(seed)
    while not room.session.game.is_over:
        room.session.apply(rng.choice(room.session.game.legal_actions()))
    return Script(room, room.session.game.history())


SCRIPT = played_script(3)
WELCOME = encode(WelcomeMessage(ROOM, JO, TOKEN))


@dataclass
class Run:
    """The client (``machine``) and what the test knows of the server and the screens."""

    machine: ClientMachine = field(default_factory=lambda: ClientMachine(Join(ROOM, "Jo")))
    told: int = 0
    """The moves the server has played (told to Jo, or missed while Jo was away)."""
    online: bool = False
    shown: list[int] = field(default_factory=list)
    """The moves (by number) told to the screens, in order."""
    sent: Counter[int] = field(default_factory=Counter)
    """How many times each move was sent on the connection now up."""
    pending: int | None = None
    """The position of the move Jo chose and the server has not played or refused."""
    missed: set[int] = field(default_factory=set)
    """Jo's moves a bot played while Jo was away."""
    seen: int = 0
    """The moves the view had at the last check."""

    def check(self, effects: list[Effect]) -> list[Effect]:
        """``effects`` keep to the rules of the machine; returns them."""
        view = self.machine.view
        for effect in effects:
            assert not isinstance(effect, SeatRefused), effect
            if isinstance(effect, MovePlayed):
                self.shown.append(effect.before.ply)
            if isinstance(effect, Send) and isinstance(effect.request, Act):
                ply = effect.request.ply
                self.sent[ply] += 1
                assert self.sent[ply] == 1, f"move {ply} sent twice on one connection"
                assert view is not None
                assert ply == view.game.ply
                assert effect.request.action == SCRIPT.moves[ply].action
        assert not self.machine.ended
        assert self.shown == list(range(len(self.shown))), "a move told twice or skipped"
        if view is not None:
            ply = view.game.ply
            assert ply >= self.seen, "the view went backwards"
            assert ply == 0 or view.game.last_move == SCRIPT.moves[ply - 1]
            assert len(self.shown) in {ply, ply - 1}  # the last one waits for the record
            self.seen = ply
        return effects

    def connect(self) -> list[Effect]:
        """A connection up, the seat resumed, the game caught up."""
        opening = self.machine.first_request()
        assert opening == (Resume(ROOM, TOKEN) if self.machine.token else Join(ROOM, "Jo"))
        self.online, self.sent = True, Counter()
        effects = self.machine.connected()
        effects += self.machine.receive(WELCOME, 0.0)
        effects += self.machine.receive(SCRIPT.game(self.told, frozenset(self.missed)), 0.0)
        view = self.machine.view
        assert view is not None
        assert view.game.history() == SCRIPT.moves[: self.told]
        assert view.covered == self.missed
        return effects


def step(run: Run, op: str) -> None:
    machine, script = run.machine, SCRIPT
    view = machine.view
    end = len(script.moves)
    effects: list[Effect] = []
    if op == "move" and run.online and run.told < end:
        effects = run.check(machine.receive(script.move(run.told), 0.0))
        if run.pending is not None and run.told >= run.pending:
            run.pending = None
        run.told += 1
        if run.told == end:
            effects = run.check(machine.receive(script.over(), 0.0))
            assert KeepGame() in effects
            assert machine.finished
    elif op == "again" and run.online and run.told > 0:  # a move told twice
        assert run.check(machine.receive(script.move(run.told - 1), 0.0)) == []
    elif op == "act" and view is not None and not view.game.is_over:
        if view.game.rules.controller(view.game.current_player) != JO:
            return
        ply = view.game.ply
        action = script.moves[ply].action if ply == run.told else view.game.legal_actions()[0]
        effects = run.check(machine.act(action))
        if ply != run.told or action != script.moves[ply].action:
            return  # a stale move (the game went on): this test's server never plays it
        if run.sent[ply] and not effects:  # sent on the last connection: on its way, or
            assert run.pending == ply  # sent again once connected
        elif run.online:
            assert effects == [Send(Act.of(ply, action))]
            run.pending = ply
        else:
            assert effects == [TableNews(
                "Not connected to the server: your move is sent once connected again, if the "
                "game is still where it was."
            )]  # fmt: skip
            run.pending = ply
    elif op == "refuse" and run.online and view is not None:
        effects = run.check(machine.receive(error("bad-seat", "not your turn"), 0.0))
        assert effects == [TableNews("The server refused that: not your turn.")]
        run.pending = None
        run.sent.clear()  # the player may try again
    elif op == "drop" and run.online:
        run.online = False
        run.check(machine.disconnected())
    elif op == "missed" and not run.online and run.told < end - 1:  # played while away
        if script.jos(run.told):
            run.missed.add(run.told)
        run.told += 1
    elif op == "back" and not run.online:
        pending, stands = run.pending, run.told
        effects = run.check(run.connect())
        resent = [e for e in effects if isinstance(e, Send)]
        if pending is not None and pending == stands:
            assert resent == [Send(Act.of(pending, script.moves[pending].action))]
        else:
            assert resent == []
        if pending is not None and pending < stands:
            run.pending = None
        again = run.check(machine.receive(script.game(run.told, frozenset(run.missed)), 0.0))
        assert not any(isinstance(e, Send | MovePlayed) for e in again)  # told twice: nothing new
    elif op == "presence" and run.online and view is not None:
        run.check(machine.receive(encode(PresenceMessage((0,))), 0.0))
        run.check(machine.receive(encode(PresenceMessage(())), 0.0))


def error(code: str, message: str) -> str:
    return json.dumps({"type": "error", "code": code, "message": message})


OPS = ["move", "move", "move", "again", "act", "act", "refuse", "drop", "missed", "back",
       "presence"]  # fmt: skip


@given(st.lists(st.sampled_from(OPS), max_size=120))
@settings(max_examples=60, deadline=None)
def test_the_view_never_goes_backwards_and_a_move_is_sent_once_a_connection(
    ops: list[str],
) -> None:
    run = Run()
    effects = run.check(run.connect())
    assert KeepToken(ROOM, TOKEN) in effects
    assert GameStarted() in effects
    for op in ops:
        step(run, op)
    if not run.online:
        run.check(run.connect())
    while run.told < len(SCRIPT.moves):
        step(run, "move")
    assert run.machine.finished
    assert run.machine.match_over
    assert run.shown == list(range(len(SCRIPT.moves)))


def at_jos_turn() -> Run:
    """A client connected and told the game up to Jo's first turn."""
    run = Run()
    run.check(run.connect())
    while not SCRIPT.jos(run.told):
        step(run, "move")
    return run


def test_a_move_chosen_while_away_is_sent_once_on_coming_back() -> None:
    run = at_jos_turn()
    step(run, "drop")
    step(run, "act")
    assert run.pending == run.told
    effects = run.check(run.connect())
    assert [e for e in effects if isinstance(e, Send)] == [
        Send(Act.of(run.told, SCRIPT.moves[run.told].action))
    ]
    assert run.machine.act(SCRIPT.moves[run.told].action) == []  # on its way already


def test_a_move_sent_as_the_connection_dropped_is_sent_again_once() -> None:
    run = at_jos_turn()
    step(run, "act")
    assert run.sent == {run.told: 1}
    step(run, "drop")
    step(run, "back")  # sent again once; the game told again on the same connection: not
    assert run.sent == {run.told: 1}
    step(run, "move")  # played
    assert run.pending is None
    step(run, "drop")
    step(run, "back")
    assert run.sent == {}


def test_a_move_chosen_on_a_game_that_went_on_is_not_sent() -> None:
    run = at_jos_turn()
    step(run, "drop")
    step(run, "act")
    step(run, "missed")  # a bot played it for Jo meanwhile
    effects = run.check(run.connect())
    assert not any(isinstance(e, Send) for e in effects)
    assert TableNews("You were disconnected: that move was not sent (the game went on).") in effects


@given(st.lists(st.one_of(
    server_messages.map(encode),
    st.text(max_size=40),
    st.binary(max_size=20),
    st.builds(lambda kind: json.dumps({"type": kind}), st.text(max_size=10)),
    st.sampled_from([WELCOME, SCRIPT.game(4), SCRIPT.move(4), SCRIPT.move(0), SCRIPT.over()]),
), max_size=12))  # fmt: skip
@settings(max_examples=300, deadline=None)
def test_whatever_comes_nothing_raises_and_a_breach_ends_the_table_saying_why(
    frames: list[str | bytes],
) -> None:
    machine = ClientMachine(Join(ROOM, "Jo"))
    machine.connected()
    for frame in frames:
        effects = machine.receive(frame, 0.0)
        refused = [e.message for e in effects if isinstance(e, SeatRefused)]
        assert machine.ended == bool(refused)
        if refused:
            (words,) = refused
            assert words
            assert words.isprintable()
            break
