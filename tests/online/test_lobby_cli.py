"""``coloretto lobby`` and ``coloretto host --public`` against a tiny server made here that
answers ``tables`` (and ``ladder``) with what a test gives it, hostile answers included;
``LobbyServer`` serves the other lobby tests too."""

from __future__ import annotations

import argparse
import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from msgspec import UNSET
from websockets.asyncio.server import ServerConnection, serve

from coloretto.cli import lobby_command, online_command
from coloretto.engine import Rules
from coloretto.online.client.remote_table import RemoteTable
from coloretto.online.wire.accounts import new_account, save_account
from coloretto.online.wire.clock import Clock
from coloretto.online.wire.messages import TablesMessage, TableSummary
from coloretto.online.wire.protocol import Host, convert, encode
from coloretto.store.paths import DataDir
from tests.online.test_accounts_cli import coloretto

TABLES = (
    TableSummary.of("K7PQ2M", Rules(players=4), "easy", ("Ana", "Ben"), fill_in=41.2),
    TableSummary.of("H3JX9W", Rules(players=2, variant="ghost", scoring="gray"), "hard", ("Cy",),
                 rated=True, ratings=(1012,), clock=Clock("standard", 180, 10)),
)  # fmt: skip


class LobbyServer:
    """Answers each connection's first request with ``answers[type]`` (a frame, as it
    goes on the wire; a missing type: an error, as a server of before the lobby answers),
    and keeps what it was asked, and on which path."""

    def __init__(self) -> None:
        self.answers: dict[str, str] = {"tables": encode(TablesMessage(TABLES))}
        self.asked: list[tuple[str, str]] = []
        self.port = 0
        self.stop: asyncio.Event | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def handler(self, ws: ServerConnection) -> None:
        text = await ws.recv()
        kind = json.loads(text)["type"]
        assert ws.request is not None
        self.asked.append((kind, ws.request.path))
        answer = self.answers.get(kind)
        if answer is None:
            answer = json.dumps({"type": "error", "code": "bad-request", "message": "unknown type"})
        await ws.send(answer)
        await ws.wait_closed()

    async def serve(self, started: threading.Event) -> None:
        self.stop = asyncio.Event()
        async with serve(self.handler, "127.0.0.1", 0, max_size=None) as server:
            self.port = next(iter(server.sockets)).getsockname()[1]
            started.set()
            await self.stop.wait()


def running(lobby: LobbyServer) -> Iterator[LobbyServer]:
    loop = asyncio.new_event_loop()
    started = threading.Event()
    thread = threading.Thread(target=loop.run_until_complete, args=(lobby.serve(started),))
    thread.start()
    try:
        assert started.wait(10)
        yield lobby
    finally:
        assert lobby.stop is not None
        loop.call_soon_threadsafe(lobby.stop.set)
        thread.join(10)
        loop.close()


@pytest.fixture
def lobby_server() -> Iterator[LobbyServer]:
    yield from running(LobbyServer())


@pytest.fixture
def seated() -> Iterator[Seated]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        yield Seated(monkeypatch)


HOSTILE = [
    pytest.param("x" * (2 << 20), "too long", id="oversized"),
    pytest.param('{"type": "tables", "tables": "many"}', "broke the protocol", id="wrong-type"),
    pytest.param('{"type": "tables", "tables": [{"room": 7}]}', "broke the protocol", id="table"),
    pytest.param(json.dumps({"type": "tables", "tables": [TABLES[0].to_json()] * 51}),
                 "at most 50", id="too-many"),
    pytest.param("[1, 2", "broke the protocol", id="not-json"),
    pytest.param('{"type": "ladder", "entries": []}', "not the tables", id="another-answer"),
    pytest.param('{"type": "error", "code": "too-many-tries", "message": "wait\\u001b[2J"}',
                 "gave no public tables: wait", id="refused"),
]  # fmt: skip


def test_the_list_names_every_table_its_players_and_how_it_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lobby_server: LobbyServer
) -> None:
    status, out, err = coloretto(
        tmp_path, monkeypatch, "lobby", "--server", lobby_server.address, "--list"
    )
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == [
        "#", "Code", "Players", "Free", "Bots", "Rules", "Rated", "Clock", "Starts"
    ]  # fmt: skip
    assert "K7PQ2M" in lines[1]
    assert "2/4 Ana, Ben" in lines[1]
    assert "easy" in lines[1]
    assert "brown side" in lines[1]
    assert "bots fill in 42 s" in lines[1]
    assert "H3JX9W" in out
    assert "gray side, ghost variant" in out
    assert "1/2 Cy (1012)" in out  # a rated player's rating beside the name
    assert "rated" in out
    assert "host starts" in out
    assert "3m+10s" in out  # the rated table's clock
    assert lobby_server.asked == [("tables", "/")]


def test_json_is_the_tables_as_the_protocol_writes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lobby_server: LobbyServer
) -> None:
    status, out, _ = coloretto(
        tmp_path, monkeypatch, "lobby", "--server", lobby_server.address, "--json"
    )
    assert status == 0
    found = json.loads(out)
    assert found["server"] == f"ws://{lobby_server.address}"
    assert [convert(t, TableSummary, "table") for t in found["tables"]] == list(TABLES)


def test_control_characters_in_names_never_reach_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lobby_server: LobbyServer
) -> None:
    table = TABLES[0].to_json() | {"seated": ["\x1b]0;pwned\x07Ana\x1b[2J", "[bold]Ben"]}
    lobby_server.answers["tables"] = json.dumps({"type": "tables", "tables": [table]})
    status, out, _ = coloretto(
        tmp_path, monkeypatch, "lobby", "--server", lobby_server.address, "--list"
    )
    assert status == 0
    assert "\x1b" not in out
    assert "\x07" not in out
    assert "2/4 Ana, [bold]Ben" in out  # shown as typed: never markup


@pytest.mark.parametrize(("answer", "said"), HOSTILE)
def test_a_hostile_answer_gets_one_clear_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    lobby_server: LobbyServer,
    answer: str,
    said: str,
) -> None:
    lobby_server.answers["tables"] = answer
    status, out, err = coloretto(
        tmp_path, monkeypatch, "lobby", "--server", lobby_server.address, "--list"
    )
    assert status == 2
    assert out == ""
    assert err.startswith("coloretto lobby: error: ")
    assert said in err
    assert err.count("\n") == 1
    assert "\x1b" not in err
    assert "Traceback" not in err


def test_a_server_of_before_the_lobby_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lobby_server: LobbyServer
) -> None:
    del lobby_server.answers["tables"]
    status, _, err = coloretto(tmp_path, monkeypatch, "lobby", "--server", lobby_server.address)
    assert status == 2
    assert "does not list public tables (an older server: unknown type)" in err


def test_no_server_there_is_said_in_a_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    status, _, err = coloretto(tmp_path, monkeypatch, "lobby", "--server", "127.0.0.1:9", "--list")
    assert status == 2
    assert "cannot reach the server at ws://127.0.0.1:9" in err
    assert err.count("\n") == 1


class Seated:
    """What the lobby would play: the room joined or the table opened (the game itself is
    not played here; ``monkeypatch`` of its own: ``coloretto`` undoes the test's)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.joined: list[tuple[str, str]] = []
        self.opened: list[Host] = []

        def join(args: argparse.Namespace, parser: object, code: str, name: str) -> int:
            self.joined.append((code, name))
            return 0

        def host(args: argparse.Namespace, parser: object, opening: Host) -> int:
            self.opened.append(opening)
            return 0

        monkeypatch.setattr(lobby_command, "join_room", join)
        monkeypatch.setattr(lobby_command, "host_room", host)


def test_a_number_or_a_code_joins_that_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lobby_server: LobbyServer, seated: Seated
) -> None:
    server = lobby_server.address
    args = ("lobby", "--server", server, "--name", "Dee")
    assert coloretto(tmp_path, monkeypatch, *args, stdin="1\n")[0] == 0
    assert coloretto(tmp_path, monkeypatch, *args, stdin="7\nk7pq2m\n")[0] == 0
    assert seated.joined == [("K7PQ2M", "Dee"), ("K7PQ2M", "Dee")]
    status, out, _ = coloretto(tmp_path, monkeypatch, *args, stdin="r\nq\n")
    assert status == 0
    assert out.count("K7PQ2M") == 2  # shown again
    assert len(seated.joined) == 2


def test_a_rated_table_asks_for_an_account_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lobby_server: LobbyServer, seated: Seated
) -> None:
    server = lobby_server.address
    args = ("lobby", "--server", server, "--name", "Dee")
    status, _, err = coloretto(tmp_path, monkeypatch, *args, stdin="2\n")
    assert status == 2
    assert f"coloretto account create NAME --server {server}" in err
    save_account(DataDir(tmp_path), new_account(server, "Dee"))
    assert coloretto(tmp_path, monkeypatch, *args, stdin="2\n")[0] == 0
    assert seated.joined == [("H3JX9W", "Dee")]


def test_n_opens_a_public_table_with_the_answers_or_the_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lobby_server: LobbyServer, seated: Seated
) -> None:
    server = lobby_server.address
    args = ("lobby", "--server", server, "--name", "Dee")
    assert coloretto(tmp_path, monkeypatch, *args, stdin="n\n3\nhard\n30\n")[0] == 0
    assert coloretto(tmp_path, monkeypatch, *args, "--rated", "--bot", "beginner",
                     stdin="n\n\n\ns\n")[0] == 0  # fmt: skip
    first, second = seated.opened
    assert (first.rules.players, first.bot, first.fill_after) == (3, "hard", 30.0)
    assert (first.public, first.rated, first.name) == (True, False, "Dee")
    assert (second.rules.players, second.bot, second.fill_after) == (4, "beginner", UNSET)
    assert (second.public, second.rated) == (True, True)
    status, _, err = coloretto(tmp_path, monkeypatch, *args, stdin="n\n3\nhard\n5\n")
    assert status == 2
    assert "the wait must be 10 to 3600 seconds" in err
    assert len(seated.opened) == 2


def hosted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *argv: str
) -> tuple[int, str, Host | None]:
    """``coloretto host ARGV``: its status, errors and opening (nothing is played)."""
    openings: list[Host] = []

    def play(parser: object, table: RemoteTable, *, host: bool) -> int:
        assert isinstance(table.machine.opening, Host)
        openings.append(table.machine.opening)
        return 0

    monkeypatch.setattr(online_command, "_play", play)
    status, _, err = coloretto(tmp_path, monkeypatch, "host", "--name", "Ann", *argv)
    return status, err, openings[0] if openings else None


def test_host_opens_a_public_rated_table_that_bots_fill(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, opening = hosted(tmp_path, monkeypatch, "--public", "--rated", "--fill-after", "90")
    assert status == 0
    assert opening is not None
    assert (opening.public, opening.rated, opening.fill_after) == (True, True, 90.0)
    wire = opening.to_json()
    assert (wire["public"], wire["rated"], wire["fill_after"]) == (True, True, 90.0)
    status, _, opening = hosted(tmp_path, monkeypatch)
    assert opening is not None
    assert "public" not in opening.to_json()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--fill-after", "60"), "--fill-after is for a public table"),
        (("--public", "--fill-after", "5"), "--fill-after must be 10 to 3600 seconds"),
        (("--public", "--fill-after", "3601"), "--fill-after must be 0 to 3600 seconds"),
        (("--public", "--fill-after", "soon"), "must be a number of seconds"),
    ],
)
def test_host_checks_the_wait_as_the_protocol_bounds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...], said: str
) -> None:
    status, err, opening = hosted(tmp_path, monkeypatch, *argv)
    assert status == 2
    assert said in err
    assert opening is None
