"""The server's data directory under attack (issue 47): a second server on it is refused,
a move that cannot be saved is refused (never shown as played), and the audit log tells of
refused connections, floods, wrong room codes and failed saves."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from tests.online.conftest import ROOT
from tests.online.raw_ws import (
    LEGIT,
    PER_ADDRESS,
    Player,
    Server,
    abort,
    host_here,
    host_request,
    open_ws,
    pending,
    receive,
    run,
    running,
    send,
    source,
)

AUDITED = {
    "refused": r"refused",
    "flooding": r"flooding",
    "no-room": r"no-room",
    "not saved": r"not[ -]saved",
}
"""What the audit log says of each event (a pattern of its line)."""


def audited(server: Server, *events: str, seconds: float = 3) -> list[str]:
    """Those of ``events`` the audit log does not tell of (waiting ``seconds`` at most)."""
    deadline = time.monotonic() + seconds
    while True:
        log = server.audit()
        missing = [event for event in events if not re.search(AUDITED[event], log)]
        if not missing or time.monotonic() > deadline:
            return missing
        time.sleep(0.1)


def test_a_second_server_on_the_same_data_directory_is_refused(tmp_path: Path) -> None:
    """It exits with status 2, saying the data directory is in use and by which process;
    the first server serves on."""
    with running(Server(tmp_path / "server")) as first:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "COLORETTO_HOME": str(first.home)}
        command = [sys.executable, "-m", "coloretto", "server", "--host", "127.0.0.1",
                   "--port", "0"]  # fmt: skip
        try:
            second = subprocess.run(
                command, check=False, capture_output=True, text=True, env=env, cwd=ROOT, timeout=10
            )
        except subprocess.TimeoutExpired as ran:
            raise AssertionError(
                f"a second server on the same data directory ran for 10 s: {ran.stdout!r}"
            ) from None
        said = f"status {second.returncode}, stderr {second.stderr!r}"
        assert second.returncode == 2, said
        assert "in use" in second.stderr, said
        assert str(first.pid) in second.stderr, f"process {first.pid} not named: {said}"
        assert first.alive()
        run(lambda: host_here(first.url, LEGIT), 15)


@contextlib.contextmanager
def small_disk(folder: Path, size: str = "16m") -> Iterator[Path]:
    """A disk of its own (a ``tmpfs`` of ``size``) mounted on ``folder``, that a test may
    fill up for real; unmounted at the end. Mounting needs root (CI runs as root)."""
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(folder)],
        check=False,
        capture_output=True,
        text=True,
    )
    assert mounted.returncode == 0, (
        f"this test mounts a small tmpfs to fill it up (it runs as root, as in CI): "
        f"mount said {mounted.stderr.strip()!r}"
    )
    try:
        yield folder
    finally:
        if subprocess.run(["umount", str(folder)], check=False).returncode != 0:
            subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(disk: Path) -> Path:
    """Fill the disk ``disk`` up with a file of zeros (until it says ``ENOSPC``): the
    next write that needs more room fails. Removing the file heals it."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    chunk = bytes(1 << 16)
    try:
        while True:
            try:
                os.write(fd, chunk)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
                break
    finally:
        os.close(fd)
    assert os.statvfs(disk).f_bavail == 0
    return filler


def test_a_move_that_cannot_be_saved_is_refused_not_lost(tmp_path: Path) -> None:
    """The server's database is on a small disk of its own (``--store`` names it), which
    is then filled up: no write to it can succeed (SQLite says ``SQLITE_FULL``). A
    person's ``act`` then gets the error ``not-saved`` and no one is told a move; the
    audit log says so. After ``kill -9`` (the disk emptied again), the room is at the
    last move its player was told, and the move played again is played."""
    problems: list[str] = []
    with small_disk(tmp_path / "disk") as disk:
        database = disk / "rooms.sqlite3"
        server = Server(tmp_path / "server", options=("--store", f"sqlite://{database}"))
        with running(server):

            async def test() -> None:
                ana = await open_ws(server.url, LEGIT)
                await send(ana, host_request())
                welcome = await receive(ana, "welcome")
                room, token = welcome["room"], welcome["token"]
                wes = await open_ws(server.url, source("crowd", 1))
                await send(wes, {"type": "watch", "version": 1, "room": room})
                await receive(wes, "lobby")
                await send(ana, {"type": "start"})
                player = Player(ana, await receive(ana, "game"), 0)
                await player.play(6)
                await asyncio.sleep(0.3)  # Ana's turn: nothing moves, nothing is written
                await pending(wes, 0.2)  # what the watcher was told so far
                if not database.is_file() or (server.home / "rooms.sqlite3").exists():
                    problems.append(f"the rooms are not kept in {database} (--store)")

                filler = fill(disk)
                seen = player.seen
                assert player.my_turn, "the game ended too soon"
                await player.turn()
                told = await pending(ana, 1)
                watched = await pending(wes, 0.2)
                codes = [m.get("code", m["type"]) for m in told]
                if "not-saved" not in codes:
                    problems.append(f"an act that could not be saved got {codes}, not not-saved")
                for who, news in (("its player", told), ("a watcher", watched)):
                    if moves := [m["ply"] for m in news if m["type"] == "move"]:
                        problems.append(f"{who} was told moves {moves} that were not saved")
                shown = seen + sum(m["type"] == "move" for m in told)
                if missing := audited(server, "not saved"):
                    problems.append(f"the audit log does not tell of {missing}: {server.audit()!r}")
                server.kill9()
                abort([ana, wes])

                filler.unlink()
                server.start()
                back = await open_ws(server.url, LEGIT)
                await send(back, {"type": "resume", "version": 1, "room": room, "token": token})
                again = Player(back, await receive(back, "game"), 0)
                if not again.seen == seen == shown:
                    problems.append(
                        f"after kill -9 the room came back at move {again.seen}; the last "
                        f"saved was move {seen}, its player had been told {shown} moves"
                    )
                elif again.my_turn:
                    await again.play(seen + 1)
                    if again.seen < seen + 1:
                        problems.append("the move played again after the fault was not played")
                await back.close()

            run(test)
    assert not problems, "\n".join(problems)


def test_the_audit_log_tells_refusals_floods_and_wrong_codes(tmp_path: Path) -> None:
    """One address past its cap of connections (the 21st refused with HTTP 429 and a
    plain-text reason), a connection flooding messages, a wrong room code: each writes a
    line to ``audit.log`` in the data directory."""
    problems: list[str] = []
    with running(Server(tmp_path / "server")) as server:

        async def test() -> None:
            attacker = source("attack", 2)
            held = [await open_ws(server.url, attacker) for _ in range(PER_ADDRESS)]
            try:
                late = await open_ws(server.url, attacker)
                held.append(late)
                problems.append(f"connection {PER_ADDRESS + 1} from one address was let in")
            except InvalidStatus as refused:
                status, body = refused.response.status_code, refused.response.body or b""
                if status != 429 or not body.strip():
                    problems.append(f"refused with {status} and {body!r}, not 429 and a reason")
            except InvalidHandshake as error:
                problems.append(f"connection {PER_ADDRESS + 1} was not answered: {error!r}")
            finally:
                abort(held)

            flooder = await open_ws(server.url, source("flood", 2))
            try:
                for _ in range(60):
                    await flooder.send("{}")
                await pending(flooder, 2)
            except ConnectionClosed:
                pass
            if flooder.close_code != 1008:
                problems.append(f"a flooder was closed with {flooder.close_code}, not 1008")
            abort([flooder])

            guesser = await open_ws(server.url, source("hosts", 9))
            await send(guesser, {"type": "join", "version": 1, "room": "ZZZZZZ", "name": "Eve"})
            codes = [m.get("code") for m in await pending(guesser, 1)]
            if "no-room" not in codes:
                problems.append(f"a wrong room code got {codes}, not no-room")
            abort([guesser])

        run(test, 30)
        if missing := audited(server, "refused", "flooding", "no-room"):
            problems.append(f"the audit log does not tell of {missing}: {server.audit()!r}")
    assert not problems, "\n".join(problems)
