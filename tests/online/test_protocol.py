"""The protocol's pure parts: every request checked, the public game rebuilt from what the
table saw, rooms and their saves."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Mapping
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec import structs

from coloretto.engine import DRAW, GameState, Match, RecordError, Rules, load_record, new_game
from coloretto.engine.record import parse_record
from coloretto.online.client.remote_table import RemoteTable, SeatRefused, server_url
from coloretto.online.server.database import SqliteDatabase
from coloretto.online.server.room_space import RoomSpace
from coloretto.online.server.rooms import Room, RoomError, over_record
from coloretto.online.wire.messages import GameMessage, MoveMessage, PresenceMessage, parse_message
from coloretto.online.wire.protocol import (
    MAX_REQUEST,
    Act,
    Host,
    Join,
    Next,
    ProtocolError,
    Resume,
    Start,
    Watch,
    bot_covered,
    convert,
    encode,
    parse_request,
)
from coloretto.online.wire.public import PublicGame, PublicSetup, move_json, parse_move
from coloretto.play.config import Player
from coloretto.play.saving import session_from_record, session_record

LOG = logging.getLogger("test-rooms")
RULES = {"players": 3, "scoring": "gray", "edition": "anniversary", "variant": "standard"}


def in_database(path: Path, work: Callable[[RoomSpace], Awaitable[object]]) -> None:
    """Run ``work`` on the rooms of the SQLite database ``path`` (as the server keeps
    them)."""

    async def go() -> None:
        db = SqliteDatabase(path)
        await db.open()
        try:
            await work(await RoomSpace.open(db, "test"))
        finally:
            await db.close()

    asyncio.run(go())


def saved(path: Path, room: Room) -> None:
    """Keep ``room`` whole in the database ``path``."""
    in_database(path, lambda space: space.save(room))


def loaded(path: Path) -> list[Room]:
    """The rooms in play of the database ``path``, as a server started now loads them."""
    rooms: list[Room] = []

    async def load(space: RoomSpace) -> None:
        for code in await space.active():
            if (room := await space.load(code, LOG)) is not None:
                rooms.append(room)

    in_database(path, load)
    return rooms


def edited(path: Path, rows: Mapping[str, Callable[[str], str]]) -> None:
    """Room ``code``'s kept record text changed by ``rows[code]`` (or a copy of the first
    room's made under ``code``, if there is none)."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for code, edit in rows.items():
            found = db.execute("SELECT record FROM rooms WHERE code = ?", (code,)).fetchone()
            if found is None:
                db.execute(
                    "INSERT INTO rooms (code, status, record, base, updated)"
                    " SELECT ?, status, record, base, updated FROM rooms LIMIT 1",
                    (code,),
                )
                (text,) = db.execute("SELECT record FROM rooms WHERE code = ?", (code,)).fetchone()
            else:
                (text,) = found
            db.execute("UPDATE rooms SET record = ? WHERE code = ?", (edit(text), code))
    finally:
        db.close()


def record_text(path: Path, code: str) -> str:
    db = sqlite3.connect(path)
    try:
        (text,) = db.execute("SELECT record FROM rooms WHERE code = ?", (code,)).fetchone()
        return str(text)
    finally:
        db.close()


def request(**fields: object) -> str:
    return json.dumps({"version": 1, **fields})


def test_each_request_is_parsed() -> None:
    host = parse_request(request(type="host", name=" Ana\x1b[31m ", rules=RULES, bot="hard"))
    assert host == Host.of("Ana", Rules(**RULES), "hard", 0.6, 30.0)  # type: ignore[arg-type]
    assert parse_request(request(type="join", room="ABC234", name="Ben")) == Join("ABC234", "Ben")
    token = "a" * 32
    assert parse_request(request(type="resume", room="ABC234", token=token)) == Resume(
        "ABC234", token
    )
    assert parse_request(request(type="watch", room="ABC234")) == Watch("ABC234")
    assert parse_request('{"type": "start"}') == Start()
    assert parse_request('{"type": "act", "ply": 0, "action": "draw"}') == Act.of(0, DRAW)


@pytest.mark.parametrize(
    ("frame", "code", "words"),
    [
        ("x" * (MAX_REQUEST + 1), "too-large", "limited"),
        ("{", "bad-request", "not JSON"),
        ("[]", "bad-request", "object"),
        ('{"type": "fly"}', "bad-request", "unknown type"),
        ('{"type": "join", "room": "ABC234", "name": "Ben"}', "version", "version 1"),
        (request(type="join", room="ABC234", name="Ben", seat=1), "bad-request", "'seat'"),
        (request(type="join", room="abc234", name="Ben"), "no-room", "room code"),
        (request(type="join", room="ABC23I", name="Ben"), "no-room", "room code"),
        (request(type="join", room="ABC234", name="\x1b\x07 "), "bad-request", "name"),
        (request(type="join", room="ABC234", name=7), "bad-request", "name"),
        (request(type="resume", room="ABC234", token="../../x"), "bad-token", "token"),
        (request(type="host", name="A", rules={"players": 9}, bot="easy"), "bad-request", "rules"),
        (request(type="host", name="A", rules={"games": 3}, bot="easy"), "bad-request", "rules"),
        (request(type="host", name="A", rules={}, bot="search:iterations=9"), "bad-request", "bot"),
        (request(type="host", name="A", rules={}, bot="easy", delay=99), "bad-request", "delay"),
        (request(type="host", name="A", rules={}, bot="easy", delay=True), "bad-request", "delay"),
        ('{"type": "act", "ply": true, "action": "draw"}', "bad-request", "ply"),
        ('{"type": "act", "ply": 1001, "action": "draw"}', "bad-request", "ply"),
        ('{"type": "act", "ply": 1, "action": "take 6"}', "bad-request", "action"),
        ('{"type": "act", "ply": 1, "action": ["draw"]}', "bad-request", "action"),
    ],
)
def test_bad_requests_are_refused_with_a_code_and_a_reason(
    frame: str, code: str, words: str
) -> None:
    with pytest.raises(ProtocolError, match=words) as refused:
        parse_request(frame)
    assert refused.value.code == code


HOSTING = {"type": "host", "name": "Ana", "rules": RULES, "bot": "easy"}


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({**HOSTING, "public": True, "fill_after": None}, "fill_after: expected a number"),
        ({**HOSTING, "clock": None}, "clock: expected a clock's name"),
        ({**HOSTING, "account": None}, "account: expected an object with a name"),
        ({"type": "join", "room": "ABC234", "name": "Ana", "account": None}, "account: "),
        ({"type": "resume", "room": "ABC234", "token": "a" * 32, "account": None}, "account: "),
    ],
)
def test_a_null_for_an_optional_field_is_refused_naming_it(
    fields: dict[str, object], words: str
) -> None:
    """An opening's optional fields are left out when unset, never null (as version 1
    always said); in Python, ``None`` is the same as leaving one out."""
    with pytest.raises(ProtocolError, match=words) as refused:
        parse_request(request(**fields))
    assert refused.value.code == "bad-request"
    unset = Host.of("Ana", Rules(players=3), "easy", 0.6, 30.0, public=True)
    assert structs.replace(unset, fill_after=None, clock=None, account=None) == unset
    assert Join("ABC234", "Ana", None) == Join("ABC234", "Ana")  # type: ignore[arg-type]
    assert {"fill_after", "clock", "account"}.isdisjoint(json.loads(encode(unset)))
    assert parse_request(encode(unset)) == unset


def test_binary_frames_are_refused() -> None:
    with pytest.raises(ProtocolError, match="text"):
        parse_request(b'{"type": "start"}')


@given(st.text(max_size=300) | st.binary(max_size=50))
def test_any_frame_is_a_request_or_a_protocol_error(frame: str | bytes) -> None:
    with contextlib.suppress(ProtocolError):
        parse_request(frame)


@pytest.mark.parametrize("rules", [Rules(players=3), Rules(players=5, edition="anniversary"),
                                   Rules(players=2, variant="ghost")])  # fmt: skip
def test_the_public_game_is_the_real_game_but_for_the_deck_order(rules: Rules) -> None:
    for seed in range(30):
        game = new_game(rules, seed)
        rng = random.Random(seed)
        while not game.is_over:
            game = game.apply(rng.choice(game.legal_actions()))
        setup = json.loads(json.dumps(PublicSetup.of(game.setup).to_json()))
        assert set(setup) == {"removed", "starting", "first_player"}  # no deck, no seed
        model = PublicGame(rules, convert(setup, PublicSetup, "setup"))
        real = GameState.from_setup(rules, game.setup)
        for ply, move in enumerate(game.history()):
            model.add(ply, parse_move(json.loads(json.dumps(move_json(move)))))
            real = real.apply(move.action)
            assert model.state.rows == real.rows
            assert model.state.legal_actions() == real.legal_actions()
            assert model.state.scores() == real.scores()
        assert model.state.history() == game.history()
        assert model.state.final_scores() == game.final_scores()


def test_a_move_that_does_not_fit_the_game_is_a_protocol_error() -> None:
    game = new_game(Rules(players=3), 2)
    setup = PublicSetup.of(game.setup)
    model = PublicGame(game.rules, setup)
    drawn = game.apply(DRAW).last_move
    assert drawn is not None
    with pytest.raises(ProtocolError, match="arrived after"):
        model.add(1, drawn)
    with pytest.raises(ProtocolError, match="does not fit"):
        model.add(0, drawn._replace(player=(drawn.player + 1) % 3))
    with pytest.raises(ProtocolError, match="left to turn up"):
        model.add(0, drawn._replace(card=game.setup.removed[0]))
    with pytest.raises(ProtocolError, match="row 1 is empty"):
        model.add(0, parse_move({"player": drawn.player, "action": "take 1"}))
    with pytest.raises(ProtocolError, match="setup"):
        convert({**setup.to_json(), "first_player": 7}, PublicSetup, "setup")
    with pytest.raises(ProtocolError, match="setup"):
        PublicGame(game.rules, structs.replace(setup, removed=setup.removed * 2))
    assert model.add(0, drawn) == drawn


def host(players: int = 3) -> Host:
    return Host.of("Ana", Rules(players=players), "easy", 0.0, 5.0)


def test_a_room_seats_people_then_plays_only_their_own_turns(tmp_path: Path) -> None:
    room, ana = Room.open("ABC234", host(3))
    ben_seat, ben = room.join("ana")  # a name taken (in any case) gets a number
    assert ben_seat == 1
    assert room.people == ["Ana", "ana 2", None]
    with pytest.raises(RoomError, match="not started"):
        room.act(0, 0, DRAW)
    room.start()
    with pytest.raises(RoomError, match="has started"):
        room.join("Cy")
    assert room.player_of(ana) == 0
    assert room.player_of(ben) == 1
    assert room.player_of("x" * 32) is None
    mover = room.mover()
    assert mover is not None
    other = 1 - mover if mover < 2 else 0
    with pytest.raises(RoomError, match="not your turn"):
        room.act(other, room.ply, DRAW)
    if room.is_person(mover):
        with pytest.raises(RoomError, match="this is move 1"):
            room.act(mover, 3, DRAW)
        room.act(mover, 0, DRAW)
        assert room.ply == 1
    saved(tmp_path / "rooms.sqlite3", room)
    (again,) = loaded(tmp_path / "rooms.sqlite3")
    assert again.session.game == room.session.game
    assert again.people == room.people
    assert again.player_of(ben) == 1
    assert again.started


def test_a_full_room_and_bad_room_files(tmp_path: Path) -> None:
    room, _ = Room.open("ABC234", host(2))
    room.join("Ben")
    with pytest.raises(RoomError, match="full"):
        room.join("Cy")
    db = tmp_path / "rooms.sqlite3"
    saved(db, room)
    edited(
        db,
        {
            "ABC235": lambda text: text,  # a room's record under another code
            "ABC236": lambda text: text.replace('"started": false', '"started": "yes"')[:50],
            "../x": lambda text: text,  # a code no room has: never read
        },
    )
    assert '"started": false' in record_text(db, "ABC234")
    assert [r.code for r in loaded(db)] == ["ABC234"]


def test_server_addresses() -> None:
    assert server_url("127.0.0.1:7787") == "ws://127.0.0.1:7787"
    for bad in ("localhost", "host:port", "a/b:80", ":80", "h:70000"):
        with pytest.raises(ValueError, match="HOST:PORT"):
            server_url(bad)


# ------------------------------------------------------------------ matches


def test_a_host_asks_for_a_match_and_the_host_deals_the_next_game() -> None:
    hosting = request(type="host", name="Ana", rules=RULES, bot="easy", games=3)
    assert parse_request(hosting) == Host.of("Ana", Rules(**RULES, games=3), "easy", 0.6, 30.0)  # type: ignore[arg-type]
    single = parse_request(request(type="host", name="Ana", rules=RULES, bot="easy"))
    assert isinstance(single, Host)
    assert single.rules.games == 1
    assert parse_request('{"type": "next", "game": 2}') == Next(2)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"games": 0}, "games: expected a whole number from 1 to 99"),
        ({"games": 100}, "games: expected a whole number from 1 to 99"),
        ({"games": True}, "games: expected a whole number from 1 to 99"),
        ({"games": "3"}, "games: expected a whole number from 1 to 99"),
        ({"games": 2.0}, "games: expected a whole number from 1 to 99"),
        ({"games": None}, "games: expected a whole number from 1 to 99"),
    ],
)
def test_a_bad_number_of_games_is_refused(fields: dict[str, object], words: str) -> None:
    frame = request(type="host", name="Ana", rules=RULES, bot="easy", **fields)
    with pytest.raises(ProtocolError, match=words) as refused:
        parse_request(frame)
    assert refused.value.code == "bad-request"


@pytest.mark.parametrize(
    "frame",
    [
        '{"type": "next"}',
        '{"type": "next", "game": 1}',
        '{"type": "next", "game": 100}',
        '{"type": "next", "game": true}',
        '{"type": "next", "game": "2"}',
        '{"type": "next", "game": 2.0}',
        '{"type": "next", "game": [2]}',
    ],
)
def test_a_bad_next_game_is_refused(frame: str) -> None:
    with pytest.raises(ProtocolError, match="game: expected a whole number from 2 to 99"):
        parse_request(frame)
    with pytest.raises(ProtocolError, match="unexpected field 'seat'"):
        parse_request('{"type": "next", "game": 2, "seat": 0}')


def game_frame(match: object) -> str:
    """A ``game`` frame of a 3-game match of 3 players, its ``match`` told as ``match``."""
    game = new_game(Rules(players=3, games=3), 4)
    players = (Player("Ana"), Player("Ben"), Player("Cy"))
    message = GameMessage.of("ABC234", "20261123-012233-a1b2c3", 0, game.rules, players,
                             "easy", 0.6, 30.0, PublicSetup.of(game.setup), ())  # fmt: skip
    return json.dumps({**message.to_json(), "match": match})


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([2, []], "game.match: expected the game's number and the earlier results"),
        ({"game": 2}, "game.match.results: expected the scores"),
        ({"game": 2, "results": [[1, 2, 3]], "seed": 4}, "game.match: unexpected field 'seed'"),
        ({"game": 0, "results": []}, r"game.match.game: expected a whole number from 1"),
        ({"game": 4, "results": [[0] * 3] * 3}, r"match.game: expected a whole number from 1 to 3"),
        ({"game": True, "results": []}, r"match.game: expected a whole number"),
        ({"game": "2", "results": [[1, 2, 3]]}, r"match.game: expected a whole number"),
        ({"game": 2, "results": []}, r"match.results: expected the scores of 1 games"),
        ({"game": 2, "results": {"1": [1, 2, 3]}}, r"match.results: expected the scores"),
        ({"game": 2, "results": [[1, 2]]}, r"match.results: expected 3 scores a game"),
        ({"game": 2, "results": [[1, 2, True]]}, r"match.results: expected the scores"),
        ({"game": 2, "results": [[1, 2, 3.0]]}, r"match.results: expected the scores"),
        ({"game": 2, "results": [[1, 2, 10**40]]}, r"each from -1000 to 1000"),
        ({"game": 2, "results": ["1, 2, 3"]}, r"match.results: expected the scores"),
    ],
)
def test_a_bad_match_from_the_server_is_a_protocol_error(data: object, words: str) -> None:
    with pytest.raises(ProtocolError, match=words):
        parse_message(game_frame(data))


def test_the_match_as_the_server_tells_it() -> None:
    first = parse_message(game_frame(None))
    assert isinstance(first, GameMessage)
    assert (first.number, first.results) == (1, ())
    match = Match.start(Rules(players=3, games=3), 5)
    told = {"game": match.game_number, "results": [list(scores) for scores in match.results]}
    again = parse_message(game_frame(told))
    assert isinstance(again, GameMessage)
    assert (again.number, again.results) == (1, ())
    third = parse_message(game_frame({"game": 3, "results": [[1, 2, 3], [-4, 5, 6]]}))
    assert isinstance(third, GameMessage)
    assert (third.number, third.results) == (3, ((1, 2, 3), (-4, 5, 6)))


def played_out(room: Room, rng: random.Random) -> None:
    """Play ``room``'s game to its end (anyone's moves, legal ones at random)."""
    while not room.session.game.is_over:
        room.session.apply(rng.choice(room.session.game.legal_actions()))


def test_a_match_room_deals_its_next_game_and_is_saved_and_loaded_in_it(tmp_path: Path) -> None:
    room, ana = Room.open("ABC234", Host.of("Ana", Rules(players=3, games=2), "easy", 0.0, 5.0))
    room.join("Ben")
    with pytest.raises(RoomError, match="not started"):
        room.next_game(2)
    room.start()
    rng = random.Random(3)
    with pytest.raises(RoomError, match="game 1 is still being played") as refused:
        room.next_game(2)
    assert refused.value.code == "playing"
    played_out(room, rng)
    first = room.session.game.final_scores()
    with pytest.raises(RoomError, match="the next game is game 2") as refused:
        room.next_game(3)
    assert refused.value.code == "stale"
    db = tmp_path / "rooms.sqlite3"
    saved(db, room)  # between the games: the server started again waits too
    (between,) = loaded(db)
    assert between.session.match.game_number == 1
    assert between.session.has_next_game
    room.next_game(2)
    with pytest.raises(RoomError, match="game 2 has started already") as refused:
        room.next_game(2)  # sent twice
    assert refused.value.code == "stale"
    room.session.apply(room.session.game.legal_actions()[0])
    saved(db, room)
    (again,) = loaded(db)
    assert again.session.match == room.session.match  # game 2, its move, game 1's scores
    assert again.session.match.game_number == 2
    assert again.session.match.results == (first,)
    assert again.player_of(ana) == 0
    assert again.started
    played_out(again, rng)
    with pytest.raises(RoomError, match="the match is over: it had 2 games") as refused:
        again.next_game(3)
    assert refused.value.code == "match-over"


def test_a_room_file_with_a_score_beyond_any_game_is_not_loaded(tmp_path: Path) -> None:
    room, _ = Room.open("ABC234", Host.of("Ana", Rules(players=3, games=2), "easy", 0.0, 5.0))
    room.start()
    played_out(room, random.Random(1))
    room.next_game(2)
    db = tmp_path / "rooms.sqlite3"
    saved(db, room)
    assert [r.code for r in loaded(db)] == ["ABC234"]

    def beyond(text: str) -> str:
        record = json.loads(text)
        record["meta"]["session"]["match"]["results"][0][0] = 5000
        return json.dumps(record)

    edited(db, {"ABC234": beyond})
    assert loaded(db) == []


def test_a_game_of_a_match_is_told_without_the_seed_until_the_match_is_over(
    tmp_path: Path,
) -> None:
    """The next games are dealt from the match's seed: told with the first game's record,
    it would give their decks away. The record without it is still a game one keeps and
    reviews (its deck is the record's)."""
    room, _ = Room.open("ABC234", Host.of("Ana", Rules(players=3, games=2), "easy", 0.0, 5.0))
    room.start()
    rng = random.Random(2)
    played_out(room, rng)
    record = json.loads(json.dumps(over_record(room)))
    assert record["setup"]["seed"] is None
    assert record["meta"]["session"]["match"]["seed"] is None
    assert record["meta"]["session"]["seeded"] is False
    assert "room" not in record["meta"]  # nor the tokens
    kept = session_from_record(load_record(record))
    assert kept.game.setup.deck == room.session.game.setup.deck  # the real deck
    assert kept.game.history() == room.session.game.history()
    assert kept.match.results == ()
    assert kept.match.game_number == 1
    again = session_from_record(session_record(kept))  # as the client keeps it, read back
    assert again.game == kept.game
    assert again.match.game_number == 1
    room.next_game(2)
    played_out(room, rng)
    last = over_record(room)  # the match is over: everything may be told
    assert last["setup"]["seed"] == room.session.match.game_seed(2)
    assert session_from_record(load_record(last)).match == room.session.match


# ------------------------------------------------------------------ a match's host away


def test_presence_says_when_the_server_deals_the_next_game_for_an_absent_host() -> None:
    assert PresenceMessage((1,)).to_json() == {"type": "presence", "away": [1]}
    told = encode(PresenceMessage((0,), 29.96))
    assert json.loads(told) == {"type": "presence", "away": [0], "next_in": 30.0}
    assert parse_message(told) == PresenceMessage((0,), 30.0)
    assert parse_message('{"type": "presence", "away": [0], "next_in": 0}') == PresenceMessage(
        (0,), 0.0
    )
    assert parse_message('{"type": "presence", "away": []}') == PresenceMessage(())


@pytest.mark.parametrize(
    "value", [-1, -0.1, 600.5, 10**9, True, "30", [30], {"s": 30}],
)  # fmt: skip
def test_a_bad_next_in_from_the_server_is_a_protocol_error(value: object) -> None:
    message = json.dumps({"type": "presence", "away": [0], "next_in": value})
    with pytest.raises(ProtocolError, match="next_in: expected seconds from 0 to 600"):
        parse_message(message)
    table = RemoteTable("127.0.0.1:7787", Join("K7PQ2M", "Jo"))
    told: list[object] = []
    table.subscribe(told.append)
    assert not table.handle(json.dumps({"type": "presence", "away": [], "next_in": value}))
    assert len(told) == 1  # the client closes, as for any breach, saying why
    assert isinstance(told[0], SeatRefused)
    assert told[0].message.startswith("the server broke the protocol: ")
    assert "next_in" in told[0].message


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_a_number_json_does_not_have_is_a_protocol_error(value: float) -> None:
    """NaN and infinities are not JSON: the frame is refused whole."""
    with pytest.raises(ProtocolError, match="not JSON"):
        parse_message(json.dumps({"type": "presence", "away": [0], "next_in": value}))


def test_a_null_next_in_is_none() -> None:
    """``next_in`` is there only when set; a null one says the same (nothing set)."""
    assert parse_message('{"type": "presence", "away": [0], "next_in": null}') == PresenceMessage(
        (0,)
    )


def test_the_moves_a_bot_played_for_a_person_away_as_the_server_tells_them() -> None:
    move = {"player": 0, "action": "draw", "card": "blue"}
    for told, covered in (({"covered": True}, True), ({"covered": False}, False), ({}, False)):
        message = parse_message(json.dumps({"type": "move", "ply": 7, "move": move, **told}))
        assert isinstance(message, MoveMessage)
        assert message.covered is covered
    assert bot_covered([0, 5], 6) == {0, 5}
    assert bot_covered(None, 6) == set()


def test_the_moves_a_bot_played_go_sorted_the_same_bytes_whatever_their_order() -> None:
    """``covered`` is encoded in the moves' order (a set's own order is not: ``{8, 1}``
    iterates 8 first), so the same game is the same bytes."""
    room, _ = Room.open("ABC234", Host.of("Ana", Rules(players=3), "easy", 0.0, 5.0))
    room.start()
    for _ in range(10):
        room.session.apply(room.session.game.legal_actions()[0])

    def told(covered: Iterable[int]) -> str:
        game = room.session.game
        return encode(
            GameMessage.of(
                room="ABC234", id=room.session.id, player=0, rules=game.rules,
                players=room.session.config.players, level="easy", delay=0.0, away_after=5.0,
                setup=PublicSetup.of(game.setup), moves=game.history(),
                covered=covered,
            )
        )  # fmt: skip

    texts = {
        told(covered)
        for covered in ({8, 1, 9, 0}, [9, 8, 1, 0], (0, 1, 8, 9), {8: 1, 1: 1, 9: 1, 0: 1})
    }
    assert len(texts) == 1
    (text,) = texts
    assert json.loads(text)["covered"] == [0, 1, 8, 9]
    message = parse_message(text.replace('"covered":[0,1,8,9]', '"covered":[9,1,8,0,1]'))
    assert isinstance(message, GameMessage)
    assert message.covered == {0, 1, 8, 9}
    assert encode(message) == text  # read back unsorted, told sorted again


@pytest.mark.parametrize("value", [1, "yes", None, [7]])
def test_a_bad_covered_move_from_the_server_is_a_protocol_error(value: object) -> None:
    message = {"type": "move", "ply": 7, "move": {"player": 0, "action": "draw"}, "covered": value}
    with pytest.raises(ProtocolError, match="covered: expected true or false"):
        parse_message(json.dumps(message))


@pytest.mark.parametrize("value", [[6], [-1], [True], [1.0], {"1": 1}, True])
def test_a_bad_covered_list_is_a_protocol_error(value: object) -> None:
    with pytest.raises(ProtocolError, match="covered: expected numbers of the 6 actions"):
        bot_covered(value, 6)


def test_a_room_keeps_the_moves_a_bot_played_for_a_person_away(tmp_path: Path) -> None:
    room, _ = Room.open("ABC235", Host.of("Ana", Rules(players=3, games=2), "easy", 0.0, 5.0))
    room.start()
    for _ in range(3):
        room.session.apply(room.session.game.legal_actions()[0])
    room.covered = [0, 2]
    db = tmp_path / "rooms.sqlite3"
    saved(db, room)
    assert Room.from_record(parse_record(record_text(db, "ABC235")), "ABC235").covered == [0, 2]
    (again,) = loaded(db)
    assert again.covered == [0, 2]
    room.covered = [3]  # not an action played
    saved(db, room)
    with pytest.raises(RecordError, match=r"room\.covered"):
        Room.from_record(parse_record(record_text(db, "ABC235")), "ABC235")
    assert loaded(db) == []
