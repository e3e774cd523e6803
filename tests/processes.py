"""Processes as ``/proc`` tells them (Linux): a process's descendants, whether they still
run, and the processes this test run started (they carry ``RUN`` in their environment).

A process is known by its id and its start time, so that an id the system reuses for
another process is never taken for it.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

RUN = "COLORETTO_TEST_RUN"
"""The environment variable naming a test run: every process a test starts inherits it, so
that the run can tell its own processes from other runs' on the same machine."""

Tree = dict[int, int]
"""Processes by id, each with its start time (clock ticks after boot)."""

PROC = Path("/proc")


def stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command's name (state, parent, ...), or
    ``None`` for no such process."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def started(pid: int) -> int | None:
    """When ``pid`` started, or ``None`` for no such process."""
    fields = stat(pid)
    return None if fields is None else int(fields[19])


def command(pid: int) -> str:
    """``pid``'s command line ("" for a process gone)."""
    try:
        return (
            (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        )
    except OSError:
        return ""


def descendants(pid: int) -> Tree:
    """``pid``'s children, theirs, and so on."""
    found: Tree = {}
    parents = [pid]
    while parents:
        parent = parents.pop()
        for task in (PROC / str(parent) / "task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                start = started(child)
                if start is not None and child not in found:
                    found[child] = start
                    parents.append(child)
    return found


def alive(tree: Tree) -> list[str]:
    """The processes of ``tree`` still running (a zombie has ended), with their commands."""
    running = []
    for pid, start in tree.items():
        fields = stat(pid)
        if fields is not None and fields[0] != "Z" and int(fields[19]) == start:
            running.append(f"{pid}: {command(pid)}")
    return running


def gone(tree: Tree, seconds: float) -> list[str]:
    """Wait (``seconds`` at most) until no process of ``tree`` runs; those still running."""
    deadline = time.monotonic() + seconds
    while alive(tree) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive(tree)


def end_all(tree: Tree) -> None:
    """Kill (``SIGKILL``) what still runs of ``tree``."""
    for pid, start in tree.items():
        if alive({pid: start}):
            os.kill(pid, signal.SIGKILL)


def of_run(token: str) -> dict[int, tuple[int, int]]:
    """The running processes whose environment has ``RUN=token``: their parent and start
    time, by id (processes of other users, unreadable, are not this run's)."""
    marker = f"{RUN}={token}".encode()
    found = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        fields = stat(int(entry.name))
        if marker in environ and fields is not None and fields[0] != "Z":
            found[int(entry.name)] = (int(fields[1]), int(fields[19]))
    return found


TRACKER = "multiprocessing.resource_tracker"
"""In the command of ``multiprocessing``'s resource tracker, which ends with its parent."""


def left_behind(token: str, me: int, *, workers: bool) -> Tree:
    """The processes of the run ``token`` (``of_run``) but ``me``, the process that runs
    the tests or (``workers``: xdist's) that runs their workers, its workers, and their
    resource trackers."""
    processes = of_run(token)
    kept = {me}
    if workers:
        kept |= {pid for pid, (parent, _) in processes.items() if parent == me}
    return {
        pid: start
        for pid, (parent, start) in processes.items()
        if pid not in kept and not (parent in kept and TRACKER in command(pid))
    }
