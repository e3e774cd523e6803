"""Worker processes that end with the process that started them, however it ends.

A pool's workers (``process_pool``), a worker started on its own (``spawn``) and
``multiprocessing``'s resource tracker (which lives as long as someone holds its pipe)
would otherwise outlive a parent killed with ``kill -9``, for good. Each worker here
watches a lifeline: the read end of a pipe whose only write end this process holds and
never closes. When this process ends, however it ends, the kernel closes that write end,
the worker reads end-of-file and exits at once, even in the middle of a bot's thought;
with the parent and its workers gone, the resource tracker's pipe closes too, and it
cleans up and exits. A pipe works on every POSIX system.

The lifeline is read by a thread of the worker, which needs the interpreter's lock: a
worker stuck in code that holds it (a regular expression that backtracks for ever, an
extension) would never read it. On Linux the kernel also kills the worker when its parent
ends (the parent-death signal, ``PR_SET_PDEATHSIG``); that signal follows the thread
that started the worker, not the process, so a worker asks for it only when the parent's
main thread started it (which lives as long as the process; ``/proc`` tells).

Workers are spawned (a fresh interpreter given only the descriptors it is meant to have):
a forked worker would inherit the lifeline's write end and keep itself alive, with
everything else the parent holds (sockets, threads' locks).
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

ORPHANED = 70
"""A worker's exit status when its parent is gone."""

PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process gets when its parent ends."""

_lifeline: tuple[int, Connection, Connection] | None = None
"""This process's id and its lifeline's ends (read, write), kept open as long as it lives."""


def _lifeline_end() -> Connection:
    """The read end of this process's lifeline (made on first use, and anew in a forked
    child, which must not share its parent's)."""
    global _lifeline  # noqa: PLW0603 (one lifeline a process, for every pool it starts)
    if _lifeline is None or _lifeline[0] != os.getpid():
        read, write = multiprocessing.Pipe(duplex=False)
        _lifeline = (os.getpid(), read, write)
    return _lifeline[1]


def process_pool(
    workers: int, initializer: Callable[[], object] | None = None
) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes that end when this process ends (each runs
    ``initializer``, a module-level function, once at its start)."""
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(_lifeline_end(), os.getpid(), initializer),
    )


def spawn(target: Callable[..., object], *args: object) -> BaseProcess:
    """A spawned process, started, that runs ``target(*args)`` (a module-level function;
    ``args`` as ``multiprocessing`` passes them: sockets and pipes too) and ends when it
    returns or when this process ends."""
    process = multiprocessing.get_context("spawn").Process(
        target=_run, args=(_lifeline_end(), os.getpid(), target, args), daemon=True
    )
    process.start()
    return process


def _run(
    lifeline: Connection, parent: int, target: Callable[..., object], args: tuple[object, ...]
) -> None:
    """In a process ``spawn`` started: the lifeline watched, then ``target(*args)``."""
    _start_worker(lifeline, parent, None)
    target(*args)


def _start_worker(
    lifeline: Connection, parent: int, initializer: Callable[[], object] | None
) -> None:
    """In a worker of ``parent``: ask for the parent-death signal (Linux), watch the
    lifeline, then run the pool's own initializer."""
    if sys.platform == "linux":
        _killed_with(parent)
    threading.Thread(target=_watch, args=(lifeline,), name="lifeline", daemon=True).start()
    if initializer is not None:
        initializer()


def _watch(lifeline: Connection) -> None:
    """In a worker: wait for the lifeline's end-of-file (nothing is ever sent on it), then
    end this process at once."""
    try:
        while True:
            lifeline.recv_bytes()
    except (EOFError, OSError):
        os._exit(ORPHANED)


def _killed_with(parent: int) -> None:
    """In a worker on Linux: ``SIGKILL`` when ``parent`` ends, if its main thread started
    this worker (exit now if it has ended already)."""
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:
        os._exit(ORPHANED)
    try:
        children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    except OSError:
        children = []
    if str(os.getpid()) not in children:  # another thread started it: it may end first
        prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0)
