"""Worker processes end with the process that started them however it ends, ``kill -9``
included (``coloretto.bots.workers``): those of ``coloretto arena --jobs`` and ``coloretto
review --jobs``, and a worker stuck where it cannot read its lifeline."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from coloretto.bots.workers import process_pool
from tests.conftest import ROOT
from tests.processes import Tree, alive, descendants, end_all, gone
from tests.test_review import PLUMBING, finished

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

ARENA = ["arena", "--players", "2", "--bots", "greedy,random", "--games", "100000"]
"""An arena that would play for minutes."""

REVIEW = ["review", "--bot", PLUMBING.replace("4", "400"), "--json"]
"""A review whose every decision takes a while."""


def killed_while_working(home: Path, argv: list[str], signum: signal.Signals) -> Tree:
    """Run ``coloretto ARGV --jobs 2``; once its two workers run, send it ``signum``: what
    ran under it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLORETTO_HOME": str(home)}
    process = subprocess.Popen(
        [sys.executable, "-m", "coloretto", *argv, "--jobs", "2"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        cwd=ROOT, env=env,
    )  # fmt: skip
    tree: Tree = {}
    try:
        deadline = time.monotonic() + 60
        while len(tree) < 2 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.1)
            tree = descendants(process.pid)
        time.sleep(1)  # the workers at work
        tree.update(descendants(process.pid))
        assert len(tree) >= 2, alive(tree)
        process.send_signal(signum)
        process.wait(30)
        return tree
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_the_arenas_workers_end_with_it(tmp_path: Path, signum: signal.Signals) -> None:
    tree = killed_while_working(tmp_path, ARENA, signum)
    try:
        assert gone(tree, 20) == []
    finally:
        end_all(tree)


def test_the_reviews_workers_end_with_it(tmp_path: Path) -> None:
    finished(tmp_path, 2, seed=6, me="greedy")
    tree = killed_while_working(tmp_path, REVIEW, signal.SIGKILL)
    try:
        assert gone(tree, 20) == []
    finally:
        end_all(tree)


STUCK = """
import os, re, time
from coloretto.bots.workers import process_pool
pool = process_pool(1)
print(pool.submit(os.getpid).result(), flush=True)
pool.submit(re.match, r"(a+)+$", "a" * 64 + "b")  # backtracks for ages, holding the lock
time.sleep(1)
print("stuck", flush=True)
time.sleep(600)
"""
"""A process whose worker is stuck in C code that holds the interpreter's lock (it prints
the worker's id, then ``stuck``)."""


@pytest.mark.skipif(sys.platform != "linux", reason="the parent-death signal is Linux's")
def test_a_worker_stuck_holding_the_interpreters_lock_ends_with_its_parent() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    parent = subprocess.Popen(
        [sys.executable, "-c", STUCK], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env
    )
    tree: Tree = {}
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        assert parent.stdout.readline() == "stuck\n"
        tree = descendants(parent.pid)
        assert worker in tree
        parent.kill()
        parent.wait()
        assert gone(tree, 20) == []
    finally:
        parent.kill()
        parent.wait()
        assert parent.stdout is not None
        parent.stdout.close()
        end_all(tree)


def test_workers_started_by_a_thread_outlive_the_thread() -> None:
    """The parent-death signal follows the thread that started a worker: a worker that
    another thread than the main one started does not ask for it, and keeps working."""
    pool = process_pool(1)
    try:
        started_by: list[int] = []
        thread = threading.Thread(target=lambda: started_by.append(pool.submit(os.getpid).result()))
        thread.start()
        thread.join()
        time.sleep(0.5)
        assert pool.submit(os.getpid).result(timeout=30) == started_by[0]
    finally:
        pool.shutdown()
