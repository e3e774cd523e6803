"""Every request and every server message as a typed value: each one's frame is read back
as the same value, and the client takes nothing from a server that is not exactly right
(a clear ``ProtocolError``, never another exception)."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto.bots.registry import LEVELS
from coloretto.engine import Action, Rules, new_game
from coloretto.engine.rules import MAX_GAMES
from coloretto.online.client.remote_table import RemoteTable, SeatRefused
from coloretto.online.wire.messages import (
    MESSAGES,
    ErrorMessage,
    GameMessage,
    LobbyMessage,
    LobbySeat,
    MoveMessage,
    OverMessage,
    PresenceMessage,
    ServerMessage,
    WelcomeMessage,
    parse_message,
)
from coloretto.online.wire.protocol import (
    MAX_PLY,
    REQUESTS,
    ROOM_CODE,
    TOKEN,
    Act,
    ErrorCode,
    Host,
    Join,
    LockTable,
    Next,
    ProtocolError,
    Remove,
    Request,
    Resume,
    Start,
    Watch,
    encode,
    parse_request,
)
from coloretto.online.wire.public import PublicSetup
from coloretto.play.config import MAX_DELAY, Player
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir

codes = st.from_regex(ROOM_CODE, fullmatch=True)
tokens = st.from_regex(TOKEN, fullmatch=True)
names = st.from_regex(r"[A-Za-z][A-Za-z0-9 ]{0,14}[A-Za-z0-9]", fullmatch=True)
levels = st.sampled_from(list(LEVELS))
seconds = st.integers(0, 6000).map(lambda tenths: tenths / 10)
actions = st.sampled_from(
    ["draw", *(f"{kind} {row}" for kind in ("place", "take") for row in range(1, 6))]
).map(Action.parse)


@st.composite
def all_rules(draw: st.DrawFn) -> Rules:
    variant = draw(st.sampled_from(["standard", "four-rows", "ghost"]))
    players = 2 if variant != "standard" else draw(st.integers(2, 5))
    return Rules(
        players=players,
        scoring=draw(st.sampled_from(["brown", "gray"])),
        edition=draw(st.sampled_from(["classic", "anniversary"])),
        variant=variant,
        games=draw(st.integers(1, MAX_GAMES)),
    )


requests: st.SearchStrategy[Request] = st.one_of(
    st.builds(
        Host.of, names, all_rules(), levels, seconds.filter(lambda s: s <= MAX_DELAY), seconds
    ),
    st.builds(Join, codes, names),
    st.builds(Resume, codes, tokens),
    st.builds(Watch, codes),
    st.just(Start()),
    st.builds(Next, st.integers(2, MAX_GAMES)),
    st.builds(Act.of, st.integers(0, MAX_PLY), actions),
    st.builds(Remove, st.integers(0, 4)),
    st.builds(LockTable.of, st.booleans()),
)


@given(requests)
def test_every_request_is_read_back_as_it_was_built(request: Request) -> None:
    frame = encode(request)
    assert json.loads(frame)["type"] in REQUESTS
    assert parse_request(frame) == request


@st.composite
def game_messages(draw: st.DrawFn) -> GameMessage:
    rules = draw(all_rules())
    game = new_game(rules, draw(st.integers(0, 2**32)))
    rng = random.Random(draw(st.integers(0, 99)))
    for _ in range(draw(st.integers(0, 60))):
        if game.is_over:
            break
        game = game.apply(rng.choice(game.legal_actions()))
    moves = game.history()
    number = draw(st.integers(1, rules.games))
    score = st.integers(-1000, 1000)
    results = tuple(
        tuple(draw(st.lists(score, min_size=rules.seats, max_size=rules.seats)))
        for _ in range(number - 1)
    )
    bots = draw(st.lists(st.none() | levels, min_size=rules.players, max_size=rules.players))
    player = st.integers(0, rules.players - 1)
    return GameMessage.of(
        draw(codes),
        draw(st.from_regex(r"[0-9]{8}-[0-9]{6}-[0-9a-f]{6}", fullmatch=True)),
        draw(st.none() | player),
        rules,
        tuple(Player(f"Player {p + 1}", bot) for p, bot in enumerate(bots)),
        draw(levels),
        draw(seconds.filter(lambda s: s <= MAX_DELAY)),
        draw(seconds),
        PublicSetup.of(game.setup),
        moves,
        number,
        results,
        tuple(draw(st.lists(player, max_size=rules.players, unique=True))),
        frozenset(draw(st.sets(st.integers(0, len(moves) - 1)) if moves else st.just(set()))),
        draw(st.none() | seconds),
    )


@st.composite
def lobby_messages(draw: st.DrawFn) -> LobbyMessage:
    rules = draw(all_rules())
    seat = st.none() | st.builds(LobbySeat, names, st.booleans())
    seats = draw(st.lists(seat, min_size=rules.players, max_size=rules.players))
    return LobbyMessage.of(draw(codes), rules, draw(levels), tuple(seats), draw(st.booleans()))


@st.composite
def move_messages(draw: st.DrawFn) -> MoveMessage:
    game = new_game(draw(all_rules()), draw(st.integers(0, 99)))
    game = game.apply(draw(st.sampled_from(game.legal_actions())))
    assert game.last_move is not None
    return MoveMessage.of(draw(st.integers(0, MAX_PLY)), game.last_move, draw(st.booleans()))


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),  # JSON has no infinity (nor NaN)
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)

server_messages: st.SearchStrategy[ServerMessage] = st.one_of(
    st.builds(WelcomeMessage, codes, st.none() | st.integers(0, 4), st.none() | tokens),
    lobby_messages(),
    game_messages(),
    move_messages(),
    st.builds(
        PresenceMessage,
        st.lists(st.integers(0, 4), max_size=5).map(tuple),
        st.none() | seconds,
    ),
    st.builds(OverMessage, st.dictionaries(st.text(max_size=8), json_values, max_size=4)),
    st.builds(
        ErrorMessage, st.sampled_from(ErrorCode), st.from_regex(r"[a-z :]{0,60}", fullmatch=True)
    ),
)


@settings(max_examples=200)
@given(server_messages)
def test_every_server_message_is_read_back_as_it_was_built(message: ServerMessage) -> None:
    frame = encode(message)
    assert json.loads(frame)["type"] in MESSAGES
    assert parse_message(frame) == message


@settings(max_examples=300)
@given(server_messages, st.data())
def test_a_message_with_any_field_changed_is_read_or_refused_clearly(
    message: ServerMessage, data: st.DataObject
) -> None:
    fields = message.to_json()
    key = data.draw(st.sampled_from(sorted(fields)))
    changed = {**fields, key: data.draw(json_values)}
    with contextlib.suppress(ProtocolError):
        parse_message(json.dumps(changed))


@given(st.text(max_size=200) | st.binary(max_size=20))
def test_any_frame_is_a_message_or_a_protocol_error(frame: str | bytes) -> None:
    with contextlib.suppress(ProtocolError):
        parse_message(frame)


MOVE = {"player": 0, "action": "draw", "card": "blue"}
LOBBY = {"type": "lobby", "room": "ABC234", "rules": {"players": 2}, "bot": "easy",
         "seats": [{"name": "Ana", "present": True}, None], "locked": False}  # fmt: skip


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"type": "welcome", "room": "ABC234", "seat": 0}, "welcome.version"),
        ({"type": "welcome", "version": 1, "room": "abc", "seat": 0}, "welcome.room"),
        ({"type": "welcome", "version": 1, "room": "ABC234", "seat": 9}, "welcome.seat"),
        ({"type": "welcome", "version": 1, "room": "ABC234", "seat": "1"}, "welcome.seat"),
        ({"type": "welcome", "version": 1, "room": "ABC234", "seat": 0, "token": "../x"},
         "welcome.token"),
        ({**LOBBY, "rules": {"players": 9}},
         "lobby.rules.players: expected a whole number from 2 to 5"),
        ({**LOBBY, "rules": {"colour": 1}}, "lobby.rules"),
        ({**LOBBY, "rules": []}, "lobby.rules: expected the rules"),
        ({**LOBBY, "seats": [None]}, "lobby.seats: expected 2 seats"),
        ({**LOBBY, "seats": [{"name": 7, "present": True}, None]},
         "lobby.seats.name: expected a name"),
        ({**LOBBY, "seats": [{"name": "Ana"}, None]},
         "lobby.seats.present: expected true or false"),
        ({**LOBBY, "bot": "search:iterations=9"}, "lobby.bot: expected one of"),
        ({**LOBBY, "locked": "yes"}, "lobby.locked"),
        ({"type": "move", "ply": 1001, "move": MOVE}, "move.ply"),
        ({"type": "move", "ply": True, "move": MOVE}, "move.ply"),
        ({"type": "move", "ply": 1, "move": {**MOVE, "card": "gold"}}, "not a card"),
        ({"type": "move", "ply": 1, "move": {**MOVE, "extra": 1}},
         "move.move: unexpected field 'extra'"),
        ({"type": "move", "ply": 1, "move": {**MOVE, "action": "fly"}}, "not an action"),
        ({"type": "presence", "away": [7]}, "presence.away: expected players from 0 to 4"),
        ({"type": "presence", "away": [0] * 6}, "presence.away"),
        ({"type": "presence", "away": 0}, "presence.away"),
        ({"type": "presence", "away": [], "next_in": float("inf")}, "not JSON"),  # nor NaN
        ({"type": "over", "record": []}, "over.record: expected a game record"),
        ({"type": "error", "code": "teapot", "message": "no"}, "error.code: expected one of the"),
        ({"type": "error", "code": "full", "message": 3}, "error.message"),
        ({"type": "shout"}, "unknown message 'shout'"),
        ({"room": "ABC234"}, "unknown message 'None'"),
    ],
)  # fmt: skip
def test_a_bad_server_message_is_refused_saying_what_is_wrong(
    message: dict[str, Any], words: str
) -> None:
    with pytest.raises(ProtocolError, match=words.replace("(", r"\(")):
        parse_message(json.dumps(message))


def good_game() -> dict[str, Any]:
    """A ``game`` message as the server sends it: three players, two moves played."""
    game = new_game(Rules(players=3), 4).apply("draw").apply("place 1")
    players = (Player("Ana"), Player("Ben"), Player("Bot 1", "easy"))
    return GameMessage.of(
        "ABC234", "20261123-012233-a1b2c3", 1, game.rules, players, "easy", 0.6, 30.0,
        PublicSetup.of(game.setup), game.history(),
    ).to_json()  # fmt: skip


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"players": [{"name": "Ana", "bot": None}] * 3}, "two players are named 'Ana'"),
        ({"players": [{"name": "Ana", "bot": None}]}, "game.players: expected 3 players"),
        ({"players": [{"name": "A", "bot": 7}] * 3}, "game.players.bot: expected a bot"),
        ({"player": 3}, "game.player: expected a player from 0 to 2"),
        ({"id": "x" * 65}, "game.id"),
        ({"delay": 11}, "game.delay: expected seconds from 0 to 10"),
        ({"away_after": -1}, "game.away_after"),
        ({"level": "grandmaster"}, "game.level"),
        ({"moves": "draw"}, "game.moves: expected the moves played"),
        ({"moves": [{"player": 0, "action": "draw"}] * 1001}, "game.moves"),
        ({"covered": [2]}, "covered: expected numbers of the 2 actions played"),
        ({"away": [0, 1, 2, 0]}, "game.away"),
        ({"setup": {"removed": [], "starting": [], "first_player": 0}}, "setup.starting"),
        ({"setup": None}, "setup: expected an object"),
        ({"match": {"game": 2, "results": [[1, 2, 3]]}}, "match.game"),
    ],
)
def test_a_bad_game_message_is_refused_saying_what_is_wrong(
    change: dict[str, Any], words: str
) -> None:
    with pytest.raises(ProtocolError, match=words):
        parse_message(json.dumps({**good_game(), **change}))


def test_the_client_refuses_what_does_not_fit_the_game_it_was_told(tmp_path: Any) -> None:
    """Well formed but wrong: the client's model of the game refuses it, with a reason, and
    the table ends saying so (nothing of the wrong message is played)."""
    table = RemoteTable("127.0.0.1:7787", Join("ABC234", "Ben"), Keeper(DataDir(tmp_path)))
    told: list[object] = []
    table.subscribe(told.append)
    welcome = WelcomeMessage("ABC234", 1, "t" * 32)
    assert table.handle(encode(welcome))
    game = good_game()
    assert table.handle(json.dumps(game))
    wrong = [
        ({"type": "move", "ply": 2, "move": {"player": 2, "action": "take 2"}}, "move 2: "),
        ({"type": "move", "ply": 5, "move": MOVE}, "move 5 arrived after 2 moves"),
        ({"type": "over", "record": {}}, "the end before the last move"),
        (
            {**game, "moves": [{"player": 0, "action": "draw", "card": "green"}], "covered": []},
            "the game is not the one played before the break",
        ),
    ]  # the first: not that seat's to play, or no row
    for message, words in wrong:
        told.clear()
        assert not table.handle(json.dumps(message))
        assert len(told) == 1
        assert isinstance(told[0], SeatRefused)
        assert told[0].message.startswith(f"the server broke the protocol: {words}")
        assert table.view.game.ply == 2
