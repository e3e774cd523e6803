"""The nginx configurations of ``docs/online.md``, as written there, in front of real
servers on loopback: one server under a prefix, and two servers that share the room codes
(``--prefixes``), new rooms made on both and every player reaching their room, and two
processes on one PostgreSQL, one of them killed mid-game. Never skipped: without nginx
(Debian: ``apt-get install nginx-light``) they fail saying so."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import WebSocketException

from coloretto.engine import Rules
from coloretto.online.client.remote_table import RemoteTable
from coloretto.online.wire.accounts import new_account, sign_challenge
from coloretto.online.wire.protocol import Host, Join, b64url, from_b64url
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from tests.online.conftest import ROOT, ServerProcess, until
from tests.online.raw_ws import LEGIT, Server, open_ws, receive, send, source
from tests.online.test_shared_store import Person as Paced
from tests.online.test_shared_store import rooms_in

NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


@pytest.fixture(autouse=True)
def _nginx_installed() -> None:
    """Never skipped: without nginx (Debian's ``nginx-light``, which ``.ci/run`` installs)
    these tests fail saying what to install."""
    if NGINX is None:
        pytest.fail("nginx is needed: apt-get install nginx-light", pytrace=False)


DOC = ROOT / "docs" / "online.md"


def nginx_blocks() -> list[str]:
    """The ``nginx`` code blocks of the page, in order."""
    blocks, lines, inside = [], [], False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.strip() == "```nginx":
            inside, lines = True, []
        elif inside and line.strip() == "```":
            inside = False
            blocks.append("\n".join(lines))
        elif inside:
            lines.append(line)
    return blocks


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@contextlib.contextmanager
def nginx(folder: Path, http: str, server: str) -> Iterator[int]:
    """nginx running ``http`` in its http block and ``server`` in a server block that
    listens on a free loopback port (yielded), until the end of the block."""
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    temp = " ".join(
        f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi",
                                                          "uwsgi", "scgi")
    )  # fmt: skip
    (folder / "nginx.conf").write_text(
        f"daemon off; pid {folder / 'nginx.pid'}; error_log {folder / 'error.log'};\n"
        "events { worker_connections 256; }\n"
        f"http {{ access_log off; {temp}\n{http}\n"
        f"server {{ listen 127.0.0.1:{port};\n{server}\n}} }}\n"
    )
    command = [str(NGINX), "-p", str(folder), "-e", str(folder / "error.log"),
               "-c", str(folder / "nginx.conf")]  # fmt: skip
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and process.poll() is None:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(10)


async def host_and_join(base: str, folder: Path, number: int) -> str:
    """Ana opens a room at the server ``base`` and Ben joins it; both leave; its code."""
    opening = Host.of(f"Ana {number}", Rules(players=3), "easy", 0, 60)
    ana = RemoteTable(base, opening, Keeper(DataDir(folder / f"ana{number}")))
    hosting = asyncio.create_task(ana.run())
    await until(lambda: ana.player == 0 and ana.room is not None, 10)
    room = ana.room
    assert room is not None
    ben = RemoteTable(base, Join(room, "Ben"), Keeper(DataDir(folder / f"ben{number}")))
    joining = asyncio.create_task(ben.run())
    await until(lambda: ben.player == 1, 10)
    ana.suspend()
    ben.suspend()
    await asyncio.wait_for(asyncio.gather(hosting, joining), 10)
    return room


def made_here(server: ServerProcess) -> set[str]:
    """The codes of the rooms kept in the server's database."""
    return {room.code for room in server.rooms()}


@pytest.mark.parametrize("passed_on", [False, True])
def test_one_server_under_a_prefix(tmp_path: Path, server: ServerProcess, passed_on: bool) -> None:
    """The page's configuration (the prefix taken off), and the one it wrote before rooms
    had addresses (``proxy_pass`` without the ``/``: the prefix passed on)."""
    (location, *_) = nginx_blocks()
    assert "proxy_pass http://127.0.0.1:7787/;" in location
    location = location.replace("127.0.0.1:7787/" if passed_on else "127.0.0.1:7787",
                                server.address)  # fmt: skip
    with nginx(tmp_path / "nginx", "", location) as port:
        base = f"ws://127.0.0.1:{port}/coloretto/"
        room = asyncio.run(host_and_join(base, tmp_path, 1))
    assert made_here(server) == {room}


@contextlib.contextmanager
def two_behind_nginx(tmp_path: Path, *options: str) -> Iterator[tuple[int, Server, Server]]:
    """The page's configuration of several processes, as written: two servers (each
    with its share of the codes, and ``options``) behind nginx; its port and the two."""
    (config,) = [block for block in nginx_blocks() if "map $request_uri" in block]
    http, server_block = config.split("# in the server block")
    first = Server(tmp_path / "a", options=("--prefixes", "ABCDEFGHJKLMNPQR", *options))
    second = Server(tmp_path / "b", options=("--prefixes", "STUVWXYZ23456789", *options))
    try:
        first.start()
        second.start()
        for old, server in (("127.0.0.1:7787", first), ("127.0.0.1:7788", second)):
            http = http.replace(old, server.address)
        location = server_block.split("\n", 1)[1]
        with nginx(tmp_path / "nginx", http, location) as port:
            yield port, first, second
    finally:
        first.stop()
        second.stop()


def test_two_servers_share_the_room_codes_behind_nginx(tmp_path: Path) -> None:
    with two_behind_nginx(tmp_path) as (port, first, second):
        base = f"ws://127.0.0.1:{port}/coloretto/"

        async def rooms() -> list[str]:
            return [await host_and_join(base, tmp_path, number) for number in range(4)]

        codes = asyncio.run(asyncio.wait_for(rooms(), 60))
    on_first, on_second = made_here(first), made_here(second)
    assert on_first | on_second == set(codes)
    assert on_first
    assert on_second  # new rooms go to either server (round robin)
    assert all(code[0] in "ABCDEFGHJKLMNPQR" for code in on_first)
    assert all(code[0] in "STUVWXYZ23456789" for code in on_second)


def test_a_process_killed_behind_nginx_its_players_go_on_through_the_other(
    tmp_path: Path, pg_url: str
) -> None:
    """The page's deployment as written: two processes on one PostgreSQL behind nginx. The
    process that plays a room is killed with ``kill -9`` mid-game; its players connect
    again through the proxy, which sends them to the other process (the ``backup``
    line), and that process takes the room over: they play it to the end, no move lost."""
    with two_behind_nginx(tmp_path, "--store", pg_url) as (port, first, second):
        base = f"ws://127.0.0.1:{port}/coloretto/rooms"

        async def test() -> dict[str, Any]:
            ana = await open_ws(base, LEGIT)
            await send(ana, {"type": "host", "version": 1, "name": "Ana",
                             "rules": {"players": 3}, "bot": "easy", "delay": 0,
                             "away_after": 60})  # fmt: skip
            welcome = await receive(ana, "welcome")
            code = welcome["room"]
            ben = await open_ws(f"{base}/{code}", source("player", 3))
            await send(ben, {"type": "join", "version": 1, "room": code, "name": "Ben"})
            joined = await receive(ben, "welcome")
            await send(ana, {"type": "start"})
            players = [Paced(ana, await receive(ana, "game"), 0),
                       Paced(ben, await receive(ben, "game"), 1)]  # fmt: skip
            playing = [asyncio.ensure_future(p.play(1000, 30)) for p in players]
            await asyncio.wait(playing, timeout=3)
            for task in playing:
                task.cancel()
            told = max(player.seen for player in players)
            owner = first if code[0] in "ABCDEFGHJKLMNPQR" else second
            owner.kill9()
            back = []
            for who, token in ((LEGIT, welcome["token"]), (source("player", 3),
                                                             joined["token"])):  # fmt: skip
                for _ in range(40):  # 10 s at most
                    try:
                        ws = await open_ws(f"{base}/{code}", who)
                        await send(ws, {"type": "resume", "version": 1, "room": code,
                                        "token": token})  # fmt: skip
                        back.append((ws, await receive(ws, "game", 5)))
                        break
                    except (OSError, AssertionError, TimeoutError, WebSocketException):
                        await asyncio.sleep(0.25)
            assert len(back) == 2, "the players did not get back through the proxy"
            players = [Paced(ws, game, seat) for seat, (ws, game) in enumerate(back)]
            resumed = players[0].seen
            await asyncio.gather(*(player.play(1000, seconds=60) for player in players))
            return {"code": code, "told": told, "resumed": resumed, "end": players[0].seen}

        seen = asyncio.run(asyncio.wait_for(test(), 120))
    assert seen["resumed"] >= seen["told"], seen
    (room,) = [room for room in rooms_in(pg_url) if room.code == seen["code"]]
    assert room.session.game.is_over
    assert room.ply == seen["end"], seen


def test_an_account_opens_a_rated_table_through_the_proxy_under_a_prefix(
    tmp_path: Path, server: ServerProcess
) -> None:
    """A player names the server as the proxy's address with its prefix
    (``ws://…/coloretto/``); nginx takes the prefix off and passes the host on: the
    account's signature of the challenge still opens a rated table (the signature names
    the host and port, which the server reads from ``Host``)."""
    (location, *_) = nginx_blocks()
    location = location.replace("127.0.0.1:7787", server.address)
    with nginx(tmp_path / "nginx", "", location) as port:
        base = f"ws://127.0.0.1:{port}/coloretto/"

        async def test() -> dict[str, Any]:
            account = new_account(base, "Ana")
            ws = await open_ws(base + "rooms", LEGIT)
            await send(ws, {"type": "register", "name": "Ana", "key": b64url(account.public_key)})
            await receive(ws, "account")
            await ws.close()
            ws = await open_ws(base + "rooms", LEGIT)
            await send(ws, {"type": "challenge"})
            nonce = from_b64url((await receive(ws, "challenge"))["nonce"], 32, "nonce")
            signature = sign_challenge(account, nonce, account.server, "host")
            await send(ws, {"type": "host", "version": 1, "name": "Ana",
                            "rules": {"players": 3}, "bot": "easy", "rated": True,
                            "account": {"name": "Ana", "signature": signature}})  # fmt: skip
            answer: dict[str, Any] = json.loads(await ws.recv())
            await ws.close()
            return answer

        answer = asyncio.run(asyncio.wait_for(test(), 30))
    assert answer["type"] == "welcome", answer
