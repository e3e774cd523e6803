"""The protocol's pure parts: every request checked, the public game rebuilt from what the
table saw, rooms and their saves."""

from __future__ import annotations

import contextlib
import json
import logging
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coloretto.engine import DRAW, GameState, Rules, new_game
from coloretto.online.client import server_url
from coloretto.online.protocol import (
    MAX_REQUEST,
    Act,
    Host,
    Join,
    ProtocolError,
    Resume,
    Start,
    Watch,
    parse_request,
)
from coloretto.online.public import PublicGame, move_json, public_setup
from coloretto.online.rooms import Room, RoomError, RoomStore
from coloretto.store.paths import DataDir

LOG = logging.getLogger("test-rooms")
RULES = {"players": 3, "scoring": "gray", "edition": "anniversary", "variant": "standard"}


def request(**fields: object) -> str:
    return json.dumps({"version": 1, **fields})


def test_each_request_is_parsed() -> None:
    host = parse_request(request(type="host", name=" Ana\x1b[31m ", rules=RULES, bot="hard"))
    assert host == Host("Ana", Rules(**RULES), "hard", 0.6, 30.0)  # type: ignore[arg-type]
    assert parse_request(request(type="join", room="ABC234", name="Ben")) == Join("ABC234", "Ben")
    token = "a" * 32
    assert parse_request(request(type="resume", room="ABC234", token=token)) == Resume(
        "ABC234", token
    )
    assert parse_request(request(type="watch", room="ABC234")) == Watch("ABC234")
    assert parse_request('{"type": "start"}') == Start()
    assert parse_request('{"type": "act", "ply": 0, "action": "draw"}') == Act(0, DRAW)


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
        setup = public_setup(game.setup)
        assert set(setup) == {"removed", "starting", "first_player"}  # no deck, no seed
        model = PublicGame(rules, json.loads(json.dumps(setup)))
        real = GameState.from_setup(rules, game.setup)
        for ply, move in enumerate(game.history()):
            model.add(ply, json.loads(json.dumps(move_json(move))))
            real = real.apply(move.action)
            assert model.state.rows == real.rows
            assert model.state.legal_actions() == real.legal_actions()
            assert model.state.scores() == real.scores()
        assert model.state.history() == game.history()
        assert model.state.final_scores() == game.final_scores()


def test_a_move_that_does_not_fit_the_game_is_a_protocol_error() -> None:
    game = new_game(Rules(players=3), 2)
    model = PublicGame(game.rules, public_setup(game.setup))
    drawn = game.apply(DRAW).last_move
    assert drawn is not None
    with pytest.raises(ProtocolError, match="arrived after"):
        model.add(1, move_json(drawn))
    wrong_seat = {**move_json(drawn), "player": (drawn.player + 1) % 3}
    with pytest.raises(ProtocolError, match="does not fit"):
        model.add(0, wrong_seat)
    removed = game.setup.removed[0].text
    with pytest.raises(ProtocolError, match="left to turn up"):
        model.add(0, {**move_json(drawn), "card": removed})
    with pytest.raises(ProtocolError, match="row 1 is empty"):
        model.add(0, {"player": drawn.player, "action": "take 1"})
    with pytest.raises(ProtocolError, match="setup"):
        PublicGame(game.rules, {**public_setup(game.setup), "first_player": 7})
    assert model.add(0, move_json(drawn)) == drawn


def host(players: int = 3) -> Host:
    return Host("Ana", Rules(players=players), "easy", 0.0, 5.0)


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
    store = RoomStore(DataDir(tmp_path))
    store.save(room.snapshot())
    (again,) = store.load_all(LOG)
    assert again.session.game == room.session.game
    assert again.people == room.people
    assert again.player_of(ben) == 1
    assert again.started


def test_a_full_room_and_bad_room_files(tmp_path: Path) -> None:
    room, _ = Room.open("ABC234", host(2))
    room.join("Ben")
    with pytest.raises(RoomError, match="full"):
        room.join("Cy")
    store = RoomStore(DataDir(tmp_path))
    with pytest.raises(ValueError, match="not a room code"):
        store.path("../x")
    store.save(room.snapshot())
    text = store.path("ABC234").read_text()
    store.path("ABC235").write_text(text)  # a room file under another code
    store.path("ABC236").write_text(text.replace('"started": false', '"started": "yes"')[:50])
    loaded = list(store.load_all(LOG))
    assert [r.code for r in loaded] == ["ABC234"]


def test_server_addresses() -> None:
    assert server_url("127.0.0.1:7787") == "ws://127.0.0.1:7787"
    for bad in ("localhost", "host:port", "a/b:80", ":80", "h:70000"):
        with pytest.raises(ValueError, match="HOST:PORT"):
            server_url(bad)
