"""The worker processes of ``coloretto arena --jobs`` and ``coloretto review --jobs`` end with
their command however it ends, ``kill -9`` included (``coloretto.bots.workers``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

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
