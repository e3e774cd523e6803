"""Records and saves are untrusted: a hostile or broken file gets a one-line message and
exit status 2, never a traceback, an endless read or a write outside the data directory.

Every case runs the real ``python -m coloretto`` on real files in ``$COLORETTO_HOME``.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from coloretto.engine import Match, Rules, new_game, to_record
from coloretto.store.records import MAX_RECORD_BYTES
from tests.conftest import play_out, raw_save
from tests.conftest import run_coloretto as coloretto


def refused(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """The one-line error of a command that exited with status 2."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert "unexpected error" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def finished_record(seed: int = 1) -> dict[str, Any]:
    return to_record(play_out(new_game(Rules(players=3), seed=seed), seed), ["Ana", "Ben", "Cy"])


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


HOSTILE_TEXTS = {
    "nested.json": json.dumps({**finished_record(), "meta": "HOLE"}).replace(
        '"HOLE"', nested(100_000)
    ),
    "nested-top.json": nested(100_000),
    "huge-number.json": json.dumps({**finished_record(), "setup": "HOLE"}).replace(
        '"HOLE"', "1" * 5000
    ),
    "huge-seed.json": json.dumps(finished_record()).replace('"seed": 1', '"seed": ' + "9" * 4000),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_TEXTS))
def test_a_hostile_record_is_a_one_line_error(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(HOSTILE_TEXTS[name])
    refused(coloretto(tmp_path / "home", "replay", str(path)), name, "not a game record")
    refused(coloretto(tmp_path / "home", "play", "--load", str(path)), name)


def test_dev_zero_is_refused_at_once(tmp_path: Path) -> None:
    started = time.monotonic()
    refused(coloretto(tmp_path, "replay", "/dev/zero", timeout=20), "/dev/zero")
    assert time.monotonic() - started < 10


def test_a_file_too_large_for_a_record_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    record = finished_record()
    record["meta"] = {"padding": "x" * MAX_RECORD_BYTES}
    path.write_text(json.dumps(record))
    refused(coloretto(tmp_path, "replay", str(path)), "big.json", "larger than")


def test_a_bad_file_in_the_history_is_named_and_the_others_listed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "history").mkdir(parents=True)
    for i in range(2):
        path = home / "history" / f"good-{i}.json"
        path.write_text(json.dumps(finished_record(seed=i + 1)))
    for name, text in HOSTILE_TEXTS.items():
        (home / "history" / name).write_text(text)
    done = coloretto(home, "replay", "--list")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    for name in [*HOSTILE_TEXTS, "good-0.json", "good-1.json"]:
        assert name in done.stdout
    assert done.stdout.count("unreadable") == len(HOSTILE_TEXTS)
    for name in ("Ana", "Ben", "Cy"):  # a player a line, with their score
        assert len(re.findall(rf" {name} +-?\d+ ", done.stdout)) == 2, name


def test_a_save_cannot_choose_where_the_game_writes(tmp_path: Path) -> None:
    """A save whose session id is a path is refused; nothing is written outside."""
    home = tmp_path / "home"
    (home / "saves").mkdir(parents=True)
    rules = Rules(players=2)
    match = Match.start(rules, 3)
    record = raw_save(match.game, ("Ana", "Bot 1"), (("Ana", None), ("Bot 1", "easy")), seed=3)
    record["meta"]["session"]["id"] = "../../outside"
    save = home / "saves" / "20261121-101010-abcdef.json"
    save.write_text(json.dumps(record))
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    line = refused(coloretto(home, "save", str(tmp_path / "copy.json")), "meta.session.id")
    assert "../../outside" in line
    refused(coloretto(home, "play", "--resume"), "meta.session.id")
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
