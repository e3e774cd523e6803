"""A throwaway PostgreSQL cluster for the tests and benchmarks: Debian's server (package
``postgresql``, installed by ``.ci/run``), a new cluster in a temporary folder, listening
on a free loopback port only, stopped and deleted at the end.

As root (CI), the cluster runs as the ``postgres`` user the package makes (PostgreSQL
refuses to run as root). Without the package, ``Postgres.start`` fails with what to
install: a test that needs PostgreSQL never skips.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

SETTINGS = {
    "listen_addresses": "127.0.0.1",
    "unix_socket_directories": "",
    "max_connections": "300",
    "max_locks_per_transaction": "512",
    "fsync": "off",  # the tests kill server processes, never the database's
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "shared_buffers": "64MB",
}
"""The cluster's settings: loopback only, room for many locks (a room's lock each)."""


def _binaries() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if not found:
        raise RuntimeError(
            "PostgreSQL's server is not installed: apt-get install postgresql (.ci/run does)"
        )
    return found[-1].parent


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Postgres:
    """One throwaway cluster; ``url(name)`` addresses a database made by ``database``."""

    def __init__(self) -> None:
        self.bin = _binaries()
        self.folder = Path(tempfile.mkdtemp(prefix="coloretto-pg-", dir="/tmp"))
        self.port = free_port()
        self._names = itertools.count(1)
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chmod(self.folder, 0o755)
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *command: str) -> None:
        done = subprocess.run(
            [*self._as, *command], capture_output=True, text=True, timeout=60, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {done.stdout}{done.stderr}")

    def start(self) -> Postgres:
        """Make the cluster and start it (waiting until it takes connections)."""
        data = self.folder / "data"
        self._run(str(self.bin / "initdb"), "-D", str(data), "-U", "postgres",
                  "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C")  # fmt: skip
        options = " ".join(f"-c {key}={value!r}" for key, value in SETTINGS.items())
        self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-l",
                  str(self.folder / "log.txt"), "-w", "-t", "60",
                  "-o", f"-p {self.port} {options}", "start")  # fmt: skip
        return self

    def database(self) -> str:
        """A new empty database; its address."""
        name = f"test{next(self._names)}"
        self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                  "-U", "postgres", name)  # fmt: skip
        return self.url(name)

    def url(self, name: str) -> str:
        """The address of database ``name``."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        """Stop the cluster at once and delete it."""
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"),
                      "-m", "immediate", "-w", "stop")  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def running_postgres() -> Iterator[Postgres]:
    """A cluster for the length of the ``with``."""
    cluster = Postgres()
    try:
        yield cluster.start()
    finally:
        cluster.stop()
