"""A real game server on loopback for the online tests, and clients that play by
themselves."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from coloretto.engine import DRAW, Action, to_record
from coloretto.engine.record import parse_record
from coloretto.online.client.remote_table import GameStarted, RemoteTable
from coloretto.online.server.room_space import replay_entry
from coloretto.online.server.rooms import Room
from coloretto.play.table import MovePlayed, TableNews
from tests.postgres import Postgres, running_postgres

ROOT = Path(__file__).resolve().parents[2]


class ServerProcess:
    """``coloretto server`` as a real process with its own data directory."""

    def __init__(self, home: Path, host: str = "127.0.0.1", options: tuple[str, ...] = ()) -> None:
        self.home = home
        self.host = host
        self.options = options
        """More options for ``coloretto server`` (say, ``--certfile``)."""
        self.port = 0
        self.scheme = "ws"
        self.process: subprocess.Popen[str] | None = None

    @property
    def address(self) -> str:
        """``HOST:PORT``, as ``coloretto join --server`` takes it."""
        return f"{self.host}:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.address}"

    def start(self) -> ServerProcess:
        """Start the server (on the port it had, after a restart) and wait until it listens."""
        env = {**os.environ, "PYTHONPATH": str(ROOT), "COLORETTO_HOME": str(self.home)}
        command = [sys.executable, "-m", "coloretto", "server", "--host", self.host,
                   "--port", str(self.port), *self.options]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert "Coloretto server on " in line, line
        self.scheme, address = line.split("Coloretto server on ", 1)[1].split()[0].split("://")
        self.port = int(address.rsplit(":", 1)[1])
        return self

    def kill9(self) -> None:
        """``kill -9``: no goodbye, no last save."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()

    def rooms(self) -> list[Room]:
        """The server's rooms as a server started now would find them (read from its
        database): those in play, with the actions kept since their snapshots, and the
        finished ones."""
        return kept_rooms(self.home / "rooms.sqlite3")

    def finished_game(self) -> dict[str, Any]:
        """The record of the server's one room, which holds a finished game."""
        (room,) = self.rooms()
        assert room.session.game.is_over
        return to_record(room.session.game, room.session.seat_names, room.meta())


def kept_rooms(path: Path) -> list[Room]:
    """The rooms kept in the SQLite database ``path`` (read as the server reads them:
    each snapshot, then its actions), those in play first. All is read in one
    transaction: a room archived between reading its snapshot and its actions (which the
    archive deletes) would read as its snapshot alone, its game at the start."""
    db = sqlite3.connect(path, timeout=10, isolation_level=None)
    try:
        db.execute("BEGIN")
        rows = db.execute(
            "SELECT code, record FROM rooms ORDER BY status = 'over', code"
        ).fetchall()
        rooms = []
        for code, record in rows:
            room = Room.from_record(parse_record(record), code)
            actions = db.execute(
                "SELECT ply, entry FROM room_actions WHERE code = ? ORDER BY ply", (code,)
            ).fetchall()
            for ply, entry in actions:
                assert replay_entry(room, ply, entry) is None, f"room {code}: {entry}"
            rooms.append(room)
        return rooms
    finally:
        db.close()


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, made by ``openssl`` in
    ``folder``: the certificate is its own authority (a client's ``--cafile``)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A running game server (killed at the end of the test, whatever happens)."""
    process = ServerProcess(tmp_path / "server")
    try:
        yield process.start()
    finally:
        process.stop()


def choose(legal: tuple[Action, ...], rng: random.Random, draws: float = 0.7) -> Action:
    """A player's pick: a draw with chance ``draws`` (mostly, so that games last),
    otherwise a take if a row can be taken."""
    takes = [a for a in legal if a != DRAW]
    if DRAW in legal and (not takes or rng.random() < draws):
        return DRAW
    return rng.choice(takes or list(legal))


def key_of(action: Action) -> str:
    """The key that plays ``action`` on the game screen."""
    return "d" if action == DRAW else str((action.row or 0) + 1)


class AutoPlayer:
    """Plays its table's seat whenever it is to move (listening to the table's events)."""

    def __init__(self, table: RemoteTable, seed: int, draws: float = 0.7) -> None:
        self.table = table
        self.draws = draws
        self.rng = random.Random(seed)
        self.news: list[str] = []
        table.subscribe(self)

    def __call__(self, event: object) -> None:
        if isinstance(event, TableNews):
            self.news.append(event.text)
        if isinstance(event, MovePlayed | GameStarted | TableNews):
            self.poke()

    def poke(self) -> None:
        table = self.table
        if not table.started or table.machine.finished:
            return
        game = table.view.game
        if not game.is_over and table.plays_here(game.current_player):
            table.act(choose(table.legal_actions(), self.rng, self.draws))


async def until(condition: Callable[[], bool], seconds: float = 30) -> None:
    """Wait (at most ``seconds``) until ``condition()`` holds."""
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.02)


def history_record(home: Path) -> dict[str, Any]:
    """The one game record in the history of the data directory ``home``."""
    (path,) = (home / "history").glob("*.json")
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def same_game(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two records are the same game: rules, seats, deal, moves, result, session."""
    keys = ("rules", "seats", "setup", "actions", "result")
    return all(a[k] == b[k] for k in keys) and a["meta"]["session"] == b["meta"]["session"]


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A throwaway PostgreSQL cluster for this test process (Debian's server; never
    skipped: without it the test fails, saying what to install)."""
    with running_postgres() as cluster:
        yield cluster


@pytest.fixture
def pg_url(postgres: Postgres) -> str:
    """The address of a new empty database in the cluster."""
    return postgres.database()
