"""Fair tables, the pure parts: names compared as they look, the host's requests to remove
a person and to close the table, a room that keeps both, and the client's words for the
errors that end a table or not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coloretto.engine import Rules
from coloretto.online.client.machine import Send
from coloretto.online.client.remote_table import RemoteTable, SeatKeys, SeatRefused
from coloretto.online.server.rooms import Room, RoomError
from coloretto.online.wire.messages import GameMessage
from coloretto.online.wire.names import fold, has_you_marker
from coloretto.online.wire.protocol import (
    Act,
    Host,
    Join,
    LockTable,
    ProtocolError,
    Remove,
    encode,
    parse_request,
)
from coloretto.online.wire.public import PublicSetup
from coloretto.play.keeper import Keeper
from coloretto.play.table import TableNews
from coloretto.store.paths import DataDir
from coloretto.store.records import write_record

GREEK_ALPHA = "\N{GREEK CAPITAL LETTER ALPHA}"
CYRILLIC_A = "\N{CYRILLIC CAPITAL LETTER A}"


def request(**fields: object) -> str:
    return json.dumps({"version": 1, **fields})


def host(players: int = 4, name: str = "Ana") -> Host:
    return Host.of(name, Rules(players=players), "easy", 0.0, 5.0)


@pytest.mark.parametrize(
    "name",
    [
        "Ana",
        "ana",
        "ANA",
        f"{GREEK_ALPHA}na",
        f"{CYRILLIC_A}na",
        "\uff21\uff2e\uff21",  # fullwidth
        "A\u200bna",  # a zero-width space
        "\N{CYRILLIC CAPITAL LETTER A}\N{ARMENIAN SMALL LETTER VO}\N{CYRILLIC SMALL LETTER A}",
    ],
)
def test_names_that_look_like_ana_fold_as_ana(name: str) -> None:
    assert fold(name) == fold("Ana") == "ana"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ben Lee", "Ben  Lee"),
        ("Héloïse", "He\u0301loi\u0308se"),  # composed or not
        ("\N{GREEK CAPITAL LETTER ETA}ana", "Hana"),
        ("\N{GREEK SMALL LETTER ETA}ana", "nana"),
        ("\N{CYRILLIC CAPITAL LETTER IO}va", "\N{LATIN CAPITAL LETTER E WITH DIAERESIS}va"),
        ("Léa", "Lea"),  # accents and strokes do not part names
        ("Al", "AI"),  # capital I reads as l
        ("Bo", "B0"),
    ],
)
def test_more_look_alikes(a: str, b: str) -> None:
    assert fold(a) == fold(b)


@pytest.mark.parametrize(("a", "b"), [("Ana", "Ann"), ("Lea", "Leo"), ("Al", "Ali"), ("Bo", "Bob")])
def test_names_that_look_different_stay_apart(a: str, b: str) -> None:
    assert fold(a) != fold(b)


def test_a_second_ana_in_any_look_alike_gets_a_number() -> None:
    room, _ = Room.open("ABC234", host(5))
    for name in (f"{GREEK_ALPHA}na", f"{CYRILLIC_A}NA", "\uff21\uff4e\uff41"):
        room.join(name)
    assert room.people == [
        "Ana",
        f"{GREEK_ALPHA}na 2",
        f"{CYRILLIC_A}NA 3",
        "\uff21\uff4e\uff41 4",
        None,
    ]
    assert room.session.seat_names[-1] == "Bot 1"


def test_a_person_named_like_a_bot_keeps_the_name_and_the_bots_skip_it() -> None:
    room, _ = Room.open("ABC234", host(4, name="Bot 1"))  # a crash before: two players "Bot 1"
    assert room.session.seat_names == ("Bot 1", "Bot 2", "Bot 3", "Bot 4")
    seat, _ = room.join("bot 3")
    assert room.session.seat_names == ("Bot 1", "bot 3", "Bot 2", "Bot 4")
    assert seat == 1


@pytest.mark.parametrize(
    "name", ["Ana (you)", "(YOU)", "Ana \uff08you\uff09", "(\N{CYRILLIC SMALL LETTER U}ou)"]
)
def test_a_name_with_the_you_marker_is_refused(name: str) -> None:
    assert has_you_marker(name)
    for kind in ("join", "host"):
        fields = {"room": "ABC234"} if kind == "join" else {"rules": {"players": 3}, "bot": "easy"}
        with pytest.raises(
            ProtocolError, match=r"name: \(you\) marks each player's own seat"
        ) as error:
            parse_request(request(type=kind, name=name, **fields))
        assert error.value.code == "bad-name"


def test_the_hosts_requests_are_parsed() -> None:
    assert parse_request('{"type": "remove", "seat": 2}') == Remove(2)
    assert parse_request('{"type": "lock"}') == LockTable.of(locked=True)
    assert parse_request('{"type": "unlock"}') == LockTable.of(locked=False)


@pytest.mark.parametrize(
    ("frame", "words"),
    [
        ('{"type": "remove"}', "seat: expected a whole number from 0 to 4"),
        ('{"type": "remove", "seat": 5}', "seat: expected a whole number from 0 to 4"),
        ('{"type": "remove", "seat": -1}', "seat: expected a whole number from 0 to 4"),
        ('{"type": "remove", "seat": "1"}', "seat: expected a whole number from 0 to 4"),
        ('{"type": "remove", "seat": true}', "seat: expected a whole number from 0 to 4"),
        ('{"type": "remove", "seat": 1.0}', "seat: expected a whole number from 0 to 4"),
        ('{"type": "remove", "seat": 1, "name": "Ben"}', "unexpected field 'name'"),
        ('{"type": "lock", "locked": false}', "unexpected field 'locked'"),
        ('{"type": "unlock", "x": 1}', "unexpected field 'x'"),
    ],
)
def test_bad_host_requests_are_refused(frame: str, words: str) -> None:
    with pytest.raises(ProtocolError) as error:
        parse_request(frame)
    assert str(error.value) == words
    assert error.value.code == "bad-request"


def test_the_host_removes_a_person_whose_seat_is_free_again() -> None:
    room, ana = Room.open("ABC234", host(4))
    _, ben = room.join("Ben")
    _, cy = room.join("Cy")
    room.remove(1)
    assert room.people == ["Ana", None, "Cy", None]
    assert room.session.seat_names == ("Ana", "Bot 1", "Cy", "Bot 2")
    assert room.player_of(ben) is None  # the token is forgotten
    assert room.player_of(cy) == 2
    assert room.player_of(ana) == 0
    seat, dee = room.join("Dee")
    assert seat == 1
    assert room.player_of(dee) == 1


@pytest.mark.parametrize(
    ("seat", "words", "code"),
    [
        (0, "the host cannot remove themself", "bad-seat"),
        (3, "nobody sits in seat 4", "bad-seat"),
        (4, "nobody sits in seat 5", "bad-seat"),
    ],
)
def test_what_the_host_cannot_remove(seat: int, words: str, code: str) -> None:
    room, _ = Room.open("ABC234", host(4))
    room.join("Ben")
    with pytest.raises(RoomError, match=words) as error:
        room.remove(seat)
    assert error.value.code == code
    assert room.people == ["Ana", "Ben", None, None]


def test_nobody_is_removed_and_nothing_locked_once_the_game_has_started() -> None:
    room, _ = Room.open("ABC234", host(3))
    room.join("Ben")
    room.start()
    for change in (lambda: room.remove(1), lambda: room.lock(True)):
        with pytest.raises(RoomError, match="started") as error:
            change()
        assert error.value.code == "started"
    assert room.people == ["Ana", "Ben", None]
    assert not room.locked


def test_a_locked_table_takes_no_new_person_and_keeps_its_lock_when_saved(tmp_path: Path) -> None:
    room, _ = Room.open("ABC234", host(4))
    room.join("Ben")
    room.lock(True)
    with pytest.raises(RoomError, match="closed this table to new players") as error:
        room.join("Cy")
    assert error.value.code == "locked"
    path = tmp_path / "ABC234.json"
    snapshot = room.snapshot()
    write_record(path, snapshot.state, snapshot.seats, snapshot.meta)
    again = Room.load(path)
    assert again.locked
    again.lock(False)
    assert again.join("Cy")[0] == 2


# ------------------------------------------------------------------ the client's errors


def game_message(room: Room, player: int) -> str:
    """What the server tells a seat of ``room`` about its game."""
    session = room.session
    game = session.game
    return encode(
        GameMessage.of(room.code, session.id, player, game.rules, session.config.players,
                    room.level, 0.0, 5.0, PublicSetup.of(game.setup), game.history())
    )  # fmt: skip


def error(code: str, message: str = "why") -> str:
    return json.dumps({"type": "error", "code": code, "message": message})


def seated_table(tmp_path: Path, room: Room | None = None) -> tuple[RemoteTable, list[object]]:
    """Jo's table, welcomed to seat 1 of room ABC234 (and told its game, if ``room``)."""
    table = RemoteTable("127.0.0.1:7787", Join("ABC234", "Jo"),
                        Keeper(DataDir(tmp_path)))  # fmt: skip
    told: list[object] = []
    table.subscribe(told.append)
    token = "t" * 32
    welcome = {"type": "welcome", "version": 1, "room": "ABC234", "seat": 1, "token": token}
    table.machine.connected()  # as if the welcome came over a connection
    assert table.handle(json.dumps(welcome))
    if room is not None:
        assert table.handle(game_message(room, 1))
    told.clear()
    return table, told


def test_not_saved_is_news_and_the_move_may_be_sent_again(tmp_path: Path) -> None:
    room, _ = Room.open("ABC234", Host.of("Ana", Rules(players=2), "easy", 0.0, 5.0))
    room.join("Jo")
    room.start()
    table, told = seated_table(tmp_path, room)
    action = table.legal_actions()[0]
    assert table.machine.act(action) == [Send(Act.of(0, action))]
    assert table.machine.act(action) == []  # sent already: its answer is on its way
    assert table.handle(error("not-saved", "the server could not save that move"))
    assert told == [TableNews("The server could not save that move: try again.")]
    assert table.machine.act(action) == [Send(Act.of(0, action))]  # the answer came: again


def test_errors_once_seated_are_news_and_end_nothing(tmp_path: Path) -> None:
    table, told = seated_table(tmp_path)
    for code in ("started", "bad-seat", "not-saved"):
        assert table.handle(error(code, "no"))
    assert told == [TableNews("The server refused that: no.")] * 3


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("removed", "The host removed you from the table"),
        ("replaced", "Your seat was taken up on another connection (the same seat opened "
                     "elsewhere): this one is closed"),
        ("crowded", "The room has too many watchers: try again later"),
    ],
)  # fmt: skip
def test_errors_that_end_the_table(tmp_path: Path, code: str, words: str) -> None:
    table, told = seated_table(tmp_path)
    assert not table.handle(error(code, "\x1b[2Jspoofed words"))
    assert told == [SeatRefused(words)]
    kept = SeatKeys(table.keeper.data).get(table.server, "ABC234", "Jo")
    assert (kept is None) == (code == "removed")  # removed: nothing left to resume


def test_an_error_before_the_welcome_ends_the_table_and_a_bad_token_is_forgotten(
    tmp_path: Path,
) -> None:
    keys = SeatKeys(DataDir(tmp_path))
    keys.put("ws://127.0.0.1:7787", "ABC234", "Jo", "t" * 32)
    table = RemoteTable("127.0.0.1:7787", Join("ABC234", "Jo"),
                        Keeper(DataDir(tmp_path)))  # fmt: skip
    told: list[object] = []
    table.subscribe(told.append)
    assert table.machine.token == "t" * 32
    assert not table.handle(error("bad-token", "that token is not a seat's in this room"))
    assert told == [
        SeatRefused("that token is not a seat's in this room (the host may have removed you)")
    ]
    assert table.machine.token is None
    assert keys.get("ws://127.0.0.1:7787", "ABC234", "Jo") is None
    assert not table.handle(error("not-saved", "the server cannot save now"))
    assert told[-1] == SeatRefused("the server cannot save now")


@pytest.mark.parametrize(
    "kept",
    [
        '{"ws://127.0.0.1:7787": ["not", "a", "table"]}',
        '{"ws://127.0.0.1:7787": {"Jo": 7}}',
        "[1, 2]",
        "[" * 5000,
        '{"pad": "' + "x" * 70_000 + '"}',
        "\x00\xff",
    ],
)
def test_a_damaged_file_of_seat_keys_is_read_as_none_kept_and_written_anew(
    tmp_path: Path, kept: str
) -> None:
    keys = SeatKeys(DataDir(tmp_path))
    keys.folder.mkdir(parents=True)
    (keys.folder / "ABC234.json").write_text(kept, encoding="utf-8", errors="surrogateescape")
    assert keys.get("ws://127.0.0.1:7787", "ABC234", "Jo") is None
    keys.put("ws://127.0.0.1:7787", "ABC234", "Jo", "t" * 32)
    assert keys.get("ws://127.0.0.1:7787", "ABC234", "Jo") == "t" * 32
    keys.put("ws://127.0.0.1:7787", "ABC234", "Jo", None)
    assert keys.get("ws://127.0.0.1:7787", "ABC234", "Jo") is None
