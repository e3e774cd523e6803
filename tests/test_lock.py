"""``store.lock``: one game, one writer, across real processes (and after ``kill -9``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from coloretto.engine import Rules
from coloretto.play.config import GameConfig
from coloretto.play.keeper import Keeper
from coloretto.play.session import Session
from coloretto.store.lock import Locked, hold
from coloretto.store.paths import DataDir
from coloretto.store.saves import lock_path, save_path

HOLDER = """
import sys, time
from pathlib import Path
from coloretto.store.lock import hold
lock = hold(Path(sys.argv[1]))
print("held", flush=True)
time.sleep(60)
"""


@pytest.fixture
def other(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process, holding the lock ``tmp_path / "game.lock"``."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path / "game.lock")],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "held\n"
    yield process
    process.kill()
    process.wait()


def test_a_lock_held_by_another_process_names_it(
    tmp_path: Path, other: subprocess.Popen[str]
) -> None:
    with pytest.raises(Locked) as locked:
        hold(tmp_path / "game.lock")
    assert locked.value.holder is not None
    assert locked.value.holder.pid == other.pid
    assert f"process {other.pid} on " in str(locked.value)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_the_lock_goes_with_its_process(
    tmp_path: Path, other: subprocess.Popen[str], how: signal.Signals
) -> None:
    os.kill(other.pid, how)
    other.wait()
    with hold(tmp_path / "game.lock") as lock:
        assert lock.held
    assert not lock.held
    assert not (tmp_path / "game.lock").exists()


def test_a_released_lock_is_free_again_and_its_file_gone(tmp_path: Path) -> None:
    path = tmp_path / "game.lock"
    lock = hold(path)
    lock.release()
    lock.release()
    assert not path.exists()
    hold(path).release()


def test_the_keeper_holds_its_game_over_every_save(tmp_path: Path) -> None:
    data = DataDir(tmp_path)
    session = Session(GameConfig.build(Rules(players=3), bot="easy", seed=3))
    ours, theirs = Keeper(data), Keeper(data)
    assert ours.save(session) is None
    session.apply(session.game.legal_actions()[0])
    assert ours.save(session) is None  # the save is replaced; the lock stays
    before = save_path(data, session.id).read_bytes()
    problem = theirs.save(session)
    assert problem is not None
    assert f"process {os.getpid()}" in problem
    assert theirs.claim(session) is not None
    assert save_path(data, session.id).read_bytes() == before
    ours.release()
    assert not lock_path(data, session.id).exists()
    assert theirs.claim(session) is None
    theirs.release()
