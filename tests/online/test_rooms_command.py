"""``coloretto rooms``, the operator's view: the rooms a server keeps, the process that
plays each now and their people, read from the database while the servers run (two
processes on PostgreSQL, one on SQLite); and the log lines that say which process took
which room, and when."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.online.conftest import ROOT
from tests.online.raw_ws import (
    LEGIT,
    Server,
    host_request,
    open_ws,
    receive,
    running,
    send,
    source,
)


def rooms(*options: str, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``coloretto rooms OPTIONS`` as an operator runs it (``home``: its data directory)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    if home is not None:
        env["COLORETTO_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "coloretto", "rooms", *options],
        check=False, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60,
    )  # fmt: skip


def listed(*options: str, home: Path | None = None) -> dict[str, dict[str, Any]]:
    """The rooms ``coloretto rooms --json`` lists, by code."""
    done = rooms(*options, "--json", home=home)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return {room["room"]: room for room in json.loads(done.stdout)["rooms"]}


def process_name(server: Server) -> str:
    """The name the server's log gives its process at start."""
    found = re.search(r"process (coloretto-[0-9a-f]+) starts", log_of(server))
    assert found, log_of(server)
    return found[1]


def log_of(server: Server) -> str:
    path = server.home / "coloretto.log"
    return path.read_text(errors="replace") if path.is_file() else ""


def test_two_processes_on_postgresql_each_named_by_the_rooms_it_plays(
    tmp_path: Path, pg_url: str
) -> None:
    """Ana hosts a public table on the first process and Ben joins it through the second;
    Cid hosts a private room on the second. The list names, for each room, the process
    that plays it, as its log names itself; after ``kill -9`` of the first, the second
    takes Ana's room over, says so in its log (when, which room, which process), and the
    list names it."""
    first = Server(tmp_path / "first", options=("--store", pg_url))
    second = Server(tmp_path / "second", options=("--store", pg_url))
    with running(first), running(second):
        names = process_name(first), process_name(second)
        assert names[0] != names[1]

        async def test() -> str:
            ana = await open_ws(first.url, LEGIT)
            await send(ana, host_request(public=True))
            code = str((await receive(ana, "welcome"))["room"])
            ben = await open_ws(second.url, source("player", 3))
            await send(ben, {"type": "join", "version": 1, "room": code, "name": "Ben"})
            await receive(ben, "welcome")
            cid = await open_ws(second.url, source("player", 4))
            await send(cid, host_request(name="Cid"))
            other = str((await receive(cid, "welcome"))["room"])
            await send(ana, {"type": "start"})
            await receive(ana, "game")

            before = await asyncio.to_thread(listed, "--store", pg_url)
            assert before[code]["process"] == names[0], before
            assert before[other]["process"] == names[1], before
            assert before[code]["status"] == "playing"
            assert before[other]["status"] == "lobby"
            assert [p["name"] for p in before[code]["people"]] == ["Ana", "Ben"]
            assert before[code]["bots"] == 1
            assert before[code]["public"] is True
            assert [p["name"] for p in before[other]["people"]] == ["Cid"]
            assert before[other]["public"] is False
            plain = await asyncio.to_thread(rooms, "--store", pg_url)
            assert plain.returncode == 0, plain.stderr
            for shown in (code, other, *names, "Ana, Ben, 1 easy bot", "Cid, 2 easy bots"):
                assert shown in plain.stdout, plain.stdout

            first.kill9()
            async with asyncio.timeout(30):
                while f"room {code} (playing, move " not in log_of(second):
                    await asyncio.sleep(0.1)
            after = await asyncio.to_thread(listed, "--store", pg_url)
            assert after[code]["process"] == names[1], after
            for ws in (ana, ben, cid):
                ws.transport.abort()
            return code

        code = asyncio.run(asyncio.wait_for(test(), 90))
    line = next(line for line in log_of(second).splitlines() if f"room {code} (" in line)
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ INFO room ", line), line
    assert line.endswith(f"taken by process {names[1]}: its process ended"), line
    assert f"room {code}" not in log_of(first)  # it hosted the room: it took none over


def test_the_rooms_of_a_sqlite_server_name_its_process_while_it_runs(tmp_path: Path) -> None:
    """Without ``--store``, the rooms of the data directory's server: while it runs, the
    process that plays them (its id); after ``kill -9``, none (the lock file it left
    names a process that ended); started again, its log says it took the room back."""
    server = Server(tmp_path / "server")
    with running(server):

        async def host() -> str:
            ana = await open_ws(server.url, LEGIT)
            await send(ana, host_request(name="Ana\x1b[31m"))
            code = str((await receive(ana, "welcome"))["room"])
            await send(ana, {"type": "start"})
            await receive(ana, "game")
            ana.transport.abort()
            return code

        code = asyncio.run(asyncio.wait_for(host(), 30))
        here = f"process {server.pid} on {socket.gethostname()}"
        (room,) = listed(home=server.home).values()
        assert room["room"] == code
        assert room["process"] == here
        assert room["status"] == "playing"
        assert room["people"] == [{"seat": 1, "name": "Ana", "account": None}]
        plain = rooms(home=server.home)
        assert plain.returncode == 0, plain.stderr
        assert "\x1b" not in plain.stdout
        assert code in plain.stdout, plain.stdout
        assert here in plain.stdout, plain.stdout
        server.kill9()
        (room,) = listed(home=server.home).values()
        assert room["process"] is None
        server.start()
        (room,) = listed(home=server.home).values()
        assert room["process"] == f"process {server.pid} on {socket.gethostname()}"
    took = [line for line in log_of(server).splitlines() if f"room {code} (" in line]
    assert len(took) == 1, took
    assert "taken by process coloretto-" in took[0]
    assert took[0].endswith("in play when the server last stopped"), took[0]
    started = re.findall(r"process (coloretto-[0-9a-f]+) starts", log_of(server))
    assert len(set(started)) == 2, started  # each run names itself anew


def test_a_damaged_room_is_listed_as_damaged(tmp_path: Path) -> None:
    """A row whose record does not read is listed as damaged, not a traceback; finished
    rooms only with ``--all``."""
    path = tmp_path / "rooms.sqlite3"
    server = Server(tmp_path / "server", options=("--store", f"sqlite://{path}"))
    with running(server):

        async def host() -> str:
            ana = await open_ws(server.url, LEGIT)
            await send(ana, host_request())
            code = str((await receive(ana, "welcome"))["room"])
            ana.transport.abort()
            return code

        code = asyncio.run(asyncio.wait_for(host(), 30))
    db = sqlite3.connect(path)
    db.execute('UPDATE rooms SET record = \'{"not": "a record"}\' WHERE code = ?', (code,))
    db.execute(
        "INSERT INTO rooms (code, lock_key, status, record, base, updated, finished, public)"
        " VALUES ('ZZZZZZ', 0, 'over', '{}', 0, 1.0, 1.0, 0)"
    )
    db.commit()
    db.close()
    (room,) = listed("--store", f"sqlite://{path}").values()
    assert room["damaged"] is True
    assert room["room"] == code
    assert set(listed("--store", f"sqlite://{path}", "--all")) == {code, "ZZZZZZ"}
    plain = rooms("--store", f"sqlite://{path}")
    assert plain.returncode == 0, plain.stderr
    assert "(its record is damaged)" in plain.stdout


def test_a_bad_store_is_one_clear_line(tmp_path: Path, pg_url: str) -> None:
    """A bad address, a database not there or unreachable, or one that is not a server's:
    one line on stderr, exit status 2, no traceback, no password shown, nothing written."""
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not a database\n" * 20)
    empty = tmp_path / "empty.sqlite3"
    sqlite3.connect(empty).close()
    cases = {
        ("--store", "mysql://db/c"): "not a store address",
        ("--store", f"sqlite://{tmp_path}/none.sqlite3"): "no database at",
        ("--store", f"sqlite://{junk}"): "not a Coloretto server's database",
        ("--store", f"sqlite://{empty}"): "not a Coloretto server's database",
        ("--store", "postgresql://ana:secret@127.0.0.1:1/c"): "cannot reach the database",
        ("--store", "postgresql://ana:secret@[::1/c"): "postgresql://ana:***@",
        ("--store", pg_url): "not a Coloretto server's database",
        ("--limit", "0"): "--limit must be 1 to",
    }
    for options, said in cases.items():
        done = rooms(*options, home=tmp_path / "nobody")
        assert done.returncode == 2, (options, done.stdout, done.stderr)
        assert said in done.stderr, (options, done.stderr)
        assert len(done.stderr.splitlines()) == 1, done.stderr
        assert "Traceback" not in done.stderr
        assert "secret" not in done.stderr
    assert empty.stat().st_size == 0  # read only: no table made
    assert junk.read_text() == "not a database\n" * 20
    assert not (tmp_path / "nobody").exists()
