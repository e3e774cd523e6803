"""``coloretto account`` and the client's signed openings against a tiny server made here,
which answers with ``account_service`` and a book in memory (the real server's wiring is
tested with the server)."""

from __future__ import annotations

import asyncio
import io
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection, serve

from coloretto.cli.main import main
from coloretto.engine import Rules
from coloretto.online.client.remote_table import LobbyChanged, RemoteTable, SeatRefused
from coloretto.online.server.account_service import (
    AccountError,
    MemoryAccountBook,
    check_account,
    new_challenge,
    register,
)
from coloretto.online.wire.accounts import (
    export_text,
    load_account,
    new_account,
    opening_route,
    save_account,
)
from coloretto.online.wire.messages import ErrorMessage, LobbyMessage, WelcomeMessage
from coloretto.online.wire.protocol import (
    Challenge,
    ErrorCode,
    Host,
    Join,
    Opening,
    Register,
    Resume,
    Watch,
    encode,
    parse_request,
)
from coloretto.play.keeper import Keeper
from coloretto.play.table import TableNews
from coloretto.store.paths import DataDir
from tests.online.conftest import until

CYRILLIC_ANA = "\N{CYRILLIC CAPITAL LETTER A}NA"


class AccountServer:
    """A server of accounts and openings only: it seats every opening whose account checks
    out in room K7PQ2M, and keeps what it was asked. ``knows_accounts`` False: a server of
    before accounts, which refuses ``challenge`` and ``register`` as unknown."""

    def __init__(self, knows_accounts: bool = True) -> None:
        self.knows_accounts = knows_accounts
        self.book = MemoryAccountBook()
        self.port = 0
        self.requests: list[str] = []
        self.seated: list[tuple[Opening, str | None]] = []
        self.stop: asyncio.Event | None = None
        self.drop_first = False

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def handler(self, ws: ServerConnection) -> None:
        nonce: bytes | None = None
        async for text in ws:
            request = parse_request(text)
            self.requests.append(json.loads(text)["type"])
            if not self.knows_accounts and isinstance(request, Challenge | Register):
                await ws.send(encode(ErrorMessage(ErrorCode.BAD_REQUEST, "unknown type")))
            elif isinstance(request, Register):
                await ws.send(encode(await register(self.book, request)))
            elif isinstance(request, Challenge):
                challenge = new_challenge()
                nonce = challenge.nonce
                await ws.send(encode(challenge))
            elif isinstance(request, Host | Join | Resume | Watch):
                claim = None if isinstance(request, Watch) else request.account or None
                route = opening_route(request)
                try:
                    name = await check_account(
                        self.book, claim, nonce, f"ws://{self.address}", route
                    )
                except AccountError as error:
                    await ws.send(encode(ErrorMessage(error.code, str(error))))
                    return
                nonce = None  # used once
                self.seated.append((request, name))
                token = "t" * 32 if isinstance(request, Host | Join) else None
                await ws.send(encode(WelcomeMessage("K7PQ2M", 0, token)))
                rules = Rules()
                seats = (None,) * rules.players
                await ws.send(encode(LobbyMessage.of("K7PQ2M", rules, "easy", seats)))
                if self.drop_first and len(self.seated) == 1:
                    return  # the connection drops: the client comes back

    async def serve(self, started: threading.Event) -> None:
        self.stop = asyncio.Event()
        async with serve(self.handler, "127.0.0.1", 0) as server:
            self.port = next(iter(server.sockets)).getsockname()[1]
            started.set()
            await self.stop.wait()


def running(account_server: AccountServer) -> Iterator[AccountServer]:
    loop = asyncio.new_event_loop()
    started = threading.Event()
    thread = threading.Thread(target=loop.run_until_complete, args=(account_server.serve(started),))
    thread.start()
    try:
        assert started.wait(10)
        yield account_server
    finally:
        assert account_server.stop is not None
        loop.call_soon_threadsafe(account_server.stop.set)
        thread.join(10)
        loop.close()


@pytest.fixture
def accounts_server() -> Iterator[AccountServer]:
    yield from running(AccountServer())


@pytest.fixture
def old_server() -> Iterator[AccountServer]:
    yield from running(AccountServer(knows_accounts=False))


def coloretto(
    home: Path, monkeypatch: pytest.MonkeyPatch, *argv: str, stdin: str = ""
) -> tuple[int, str, str]:
    """Run ``coloretto ARGV`` here with the data directory ``home``: its status, output
    and errors (a usage error's status too)."""
    monkeypatch.setenv("COLORETTO_HOME", str(home))
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stderr", err)
    try:
        status = main(list(argv))
    except SystemExit as exit:
        status = int(exit.code or 0)
    monkeypatch.undo()
    return status, out.getvalue(), err.getvalue()


def test_create_export_and_import_move_an_account_to_another_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, accounts_server: AccountServer
) -> None:
    here, there, third = tmp_path / "here", tmp_path / "there", tmp_path / "third"
    server = accounts_server.address
    status, out, err = coloretto(here, monkeypatch, "account", "create", "Ana", "--server", server)
    assert (status, err) == (0, "")
    assert "Account Ana made on ws://127.0.0.1:" in out
    account = load_account(DataDir(here), server)
    assert account is not None
    assert accounts_server.book.accounts == {"ana": ("Ana", account.public_key)}
    assert accounts_server.requests == ["register"]  # the key only: no secret sent

    status, _, err = coloretto(here, monkeypatch, "account", "create", "Ben", "--server", server)
    assert status == 2
    assert "you have the account Ana on" in err

    status, line, err = coloretto(here, monkeypatch, "account", "export", "--server", server)
    assert status == 0
    assert "keep it to yourself" in err
    assert line.strip() == export_text(account)

    status, out, _ = coloretto(there, monkeypatch, "account", "import", stdin=line)
    assert status == 0
    assert "Account Ana on ws://127.0.0.1:" in out
    assert load_account(DataDir(there), server) == account
    status, out, _ = coloretto(there, monkeypatch, "account", "import", line.strip())
    assert status == 0
    assert "is kept here already" in out
    status, out, _ = coloretto(there, monkeypatch, "account", "list")
    assert out.split() == ["Ana", f"ws://{server}"]

    status, _, err = coloretto(third, monkeypatch, "account", "import", stdin=line[:-5])
    assert status == 2
    assert "changed or cut" in err
    status, _, err = coloretto(third, monkeypatch, "account", "import", stdin="x" * 100_000)
    assert status == 2
    assert "at most 1024 characters" in err
    assert err.count("\n") == 1
    assert load_account(DataDir(third), server) is None


def test_a_name_that_looks_taken_is_refused_and_nothing_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, accounts_server: AccountServer
) -> None:
    server = accounts_server.address
    made = coloretto(tmp_path / "a", monkeypatch, "account", "create", "Ana", "--server", server)
    assert made[0] == 0
    greek_ana = (
        "\N{GREEK CAPITAL LETTER ALPHA}\N{GREEK CAPITAL LETTER NU}\N{GREEK CAPITAL LETTER ALPHA}"
    )
    status, _, err = coloretto(
        tmp_path / "b", monkeypatch, "account", "create", greek_ana, "--server", server
    )
    assert status == 2
    assert "name-taken" not in err
    assert "or one that looks the same) is taken on this server" in err
    assert load_account(DataDir(tmp_path / "b"), server) is None
    status, _, err = coloretto(
        tmp_path / "b", monkeypatch, "account", "create", CYRILLIC_ANA, "--server", server
    )
    assert status == 2
    assert "a name is written in one script" in err  # a Cyrillic A with Latin letters
    status, _, err = coloretto(
        tmp_path / "b", monkeypatch, "account", "create", "Ana\x1b[2J", "--server", server
    )
    assert status == 2
    assert "control or invisible characters" in err
    assert "\x1b" not in err


def test_create_says_when_the_server_cannot_help(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old_server: AccountServer
) -> None:
    status, _, err = coloretto(
        tmp_path, monkeypatch, "account", "create", "Ana", "--server", old_server.address
    )
    assert status == 2
    assert "does not know accounts" in err
    assert load_account(DataDir(tmp_path), old_server.address) is None
    status, _, err = coloretto(tmp_path, monkeypatch, "account", "create", "Ana", "--server", "x")
    assert status == 2
    assert "--server: expected HOST:PORT" in err
    status, _, err = coloretto(tmp_path, monkeypatch, "account", "export", "--server", "h:1")
    assert status == 2
    assert "no account on ws://h:1 is kept here" in err


async def seated(table: RemoteTable) -> list[object]:
    """Run ``table`` until the server seats it (or refuses it); the events told."""
    events: list[object] = []
    table.subscribe(events.append)
    task = asyncio.create_task(table.run())
    await until(lambda: any(isinstance(e, LobbyChanged | SeatRefused) for e in events), 10)
    table.suspend()
    await asyncio.wait_for(task, 10)
    return events


def test_the_client_signs_its_openings_with_the_account_kept(
    tmp_path: Path, accounts_server: AccountServer
) -> None:
    """An account made on one machine and imported on another opens seats from both; a
    guest's and a watcher's openings are as before accounts."""
    server = accounts_server.address
    ana = new_account(server, "Ana")
    asyncio.run(register(accounts_server.book, Register.of("Ana", ana.public_key)))
    for home in (tmp_path / "here", tmp_path / "there"):
        save_account(DataDir(home), ana)
    host = Host.of("Ana", Rules(), "easy", 0.6, 30.0)
    events = asyncio.run(seated(RemoteTable(server, host, Keeper(DataDir(tmp_path / "here")))))
    assert any(isinstance(e, LobbyChanged) for e in events)
    join = Join("K7PQ2M", "Ana")
    asyncio.run(seated(RemoteTable(server, join, Keeper(DataDir(tmp_path / "there")))))
    asyncio.run(seated(RemoteTable(server, join, Keeper(DataDir(tmp_path / "guest")))))
    asyncio.run(seated(RemoteTable(server, Watch("K7PQ2M"), Keeper(DataDir(tmp_path / "here")))))
    assert accounts_server.requests == ["challenge", "host", "challenge", "join", "join", "watch"]
    assert [name for _, name in accounts_server.seated] == ["Ana", "Ana", None, None]
    assert accounts_server.seated[2][0] == join  # the guest's opening, unchanged


def test_the_seat_taken_back_after_a_break_is_signed_afresh(
    tmp_path: Path, accounts_server: AccountServer
) -> None:
    server = accounts_server.address
    ana = new_account(server, "Ana")
    asyncio.run(register(accounts_server.book, Register.of("Ana", ana.public_key)))
    save_account(DataDir(tmp_path), ana)
    accounts_server.drop_first = True
    table = RemoteTable(server, Join("K7PQ2M", "Ana"), Keeper(DataDir(tmp_path)))

    async def run() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: len(accounts_server.seated) == 2, 10)
        table.suspend()
        await asyncio.wait_for(task, 10)

    asyncio.run(run())
    assert accounts_server.requests == ["challenge", "join", "challenge", "resume"]
    (_, first), (resumed, second) = accounts_server.seated
    assert (first, second) == ("Ana", "Ana")
    assert isinstance(resumed, Resume)
    assert resumed.token == "t" * 32


def test_a_key_the_server_does_not_know_is_refused(
    tmp_path: Path, accounts_server: AccountServer
) -> None:
    save_account(DataDir(tmp_path), new_account(accounts_server.address, "Ana"))  # unregistered
    table = RemoteTable(accounts_server.address, Join("K7PQ2M", "Ana"), Keeper(DataDir(tmp_path)))
    events = asyncio.run(seated(table))
    refusals = [e.message for e in events if isinstance(e, SeatRefused)]
    assert refusals == ["there is no account Ana on this server"]


def test_a_server_of_before_accounts_seats_a_guest(
    tmp_path: Path, old_server: AccountServer
) -> None:
    save_account(DataDir(tmp_path), new_account(old_server.address, "Ana"))
    table = RemoteTable(old_server.address, Join("K7PQ2M", "Ana"), Keeper(DataDir(tmp_path)))
    events = asyncio.run(seated(table))
    news = [e.text for e in events if isinstance(e, TableNews)]
    assert "This server does not know accounts: you play as a guest." in news
    assert old_server.seated == [(Join("K7PQ2M", "Ana"), None)]


def test_a_spoiled_account_file_leaves_a_guest(
    tmp_path: Path, accounts_server: AccountServer
) -> None:
    path = save_account(DataDir(tmp_path), new_account(accounts_server.address, "Ana"))
    path.write_text("\x1b[2J{")
    table = RemoteTable(accounts_server.address, Join("K7PQ2M", "Ana"), Keeper(DataDir(tmp_path)))
    events = asyncio.run(seated(table))
    (news,) = [e.text for e in events if isinstance(e, TableNews)][:1]
    assert news.startswith("Playing as a guest:")
    assert "is not an account" in news
    assert accounts_server.seated == [(Join("K7PQ2M", "Ana"), None)]
