"""Text from files never reaches the terminal raw: a record whose every text field holds
escape sequences (OSC title and link, CSI), C1 controls, bidi overrides and zero-width
characters is shown cleaned by ``replay --list``, ``replay``, ``play --load``, ``stats``
and the error messages. Real processes; the full-screen ones in a real pseudo-terminal,
whose every byte is searched for the hostile text."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import random
import re
import select
import struct
import subprocess
import sys
import termios
import time
import unicodedata
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from coloretto.engine import Match, Rules
from coloretto.store.stats import GameResult, PlayerResult, Stats
from tests.conftest import ROOT, play_out, random_play, raw_save
from tests.conftest import run_coloretto as coloretto

HOSTILE = (
    "\x1b]0;PWNED\x07"  # OSC 0: the window's title
    "\x1b]8;;http://evil.example/\x1b\\"  # OSC 8: a link
    "\x1b[7777X"  # CSI: erase 7777 characters
    "\x1b[2J\x1b[31m"  # CSI: clear the screen, red
    "\x9b7777X\x9d0;PWNED\x9c\x85"  # the same in C1 controls
    "\u202e\u2066\u200e"  # bidi override, isolate, mark
    "\u200b\u200d\u2060\ufeff"  # zero-width characters
)
"""All of it hidden in every text field."""

IN_FILE_NAMES = HOSTILE.replace("/", "")

MARKERS = [
    b"\x1b]0;PWNED",
    b"\x1b]8;;http://evil",
    b"\x1b[7777X",
    *(c.encode() for c in "\x9b\x9d\x9c\x85\u202e\u2066\u200e\u200b\u200d\u2060\ufeff"),
]
"""Bytes that reach a terminal only if the hostile text got through raw (an error message
may quote it escaped, as ``\\x1b]0;PWNED``: that is harmless)."""


def hostile(name: str) -> str:
    """``name`` with the hostile text in its middle: shown, it is ``name`` again."""
    return f"{name[:1]}{HOSTILE}{name[1:]}"


NAMES = ("Ana", "Ben", "Cy")


def hostile_save(finished: bool = False) -> dict[str, Any]:
    """A save (a record with a session) with hostile text in every text field."""
    rules = Rules(players=3)
    match = Match.start(rules, 9)
    game = play_out(match.game, 9) if finished else random_play(match.game, random.Random(9), 6)
    players = ((hostile("Ana"), None), (hostile("Ben"), hostile("easy")), (hostile("Cy"), "easy"))
    record = raw_save(
        game,
        [hostile(n) for n in NAMES],
        players,
        seed=9,
        hint_bot=hostile("expert"),
        level=hostile("normal"),
    )
    record["meta"]["note"] = HOSTILE
    record["setup"]["seed"] = 9
    return record


def shown_cleanly(text: str) -> None:
    """No control or formatting character but line ends (text quoted in an error may show
    them escaped, as ``\\x1b``)."""
    for c in text:
        assert c == "\n" or unicodedata.category(c) not in ("Cc", "Cf"), repr(c)


def in_a_terminal(home: Path, argv: list[str], keys: list[tuple[str, bytes]]) -> bytes:
    """Every byte ``coloretto ARGV`` writes to a 100x30 pseudo-terminal while ``keys``
    are typed, each once ``its text`` has been written (then it must exit)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = {**os.environ, "COLORETTO_HOME": str(home), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "coloretto", *argv],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env={**env, "PYTHONPATH": str(ROOT)},
        start_new_session=True,
    )
    os.close(slave)
    output = b""
    try:
        for wanted, key in keys:
            deadline = time.monotonic() + 30
            while wanted.encode() not in output.replace(b"\x1b", b""):
                assert time.monotonic() < deadline, f"{wanted!r} not shown:\n{output[-3000:]!r}"
                output += _read(master, 0.2)
            time.sleep(0.3)
            output += _read(master, 0.1)
            os.write(master, key)
        deadline = time.monotonic() + 30
        while process.poll() is None and time.monotonic() < deadline:
            output += _read(master, 0.2)
        assert process.poll() is not None, "the program did not exit"
        output += _read(master, 0.2)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        os.close(master)
    return output


def _read(fd: int, seconds: float) -> bytes:
    data = b""
    while select.select([fd], [], [], seconds)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the other end is closed
            break
        if not chunk:
            break
        data += chunk
        seconds = 0.05
    return data


def no_hostile_bytes(output: bytes) -> None:
    for marker in MARKERS:
        assert marker not in output, marker


# ---------------------------------------------------------------------- plain output


def test_replay_list_shows_the_names_cleaned(tmp_path: Path) -> None:
    history = tmp_path / "history"
    history.mkdir()
    (history / "game.json").write_text(json.dumps(hostile_save(finished=True)))
    (history / f"bad{IN_FILE_NAMES}.json").write_text(json.dumps({"format": HOSTILE}))
    markup = hostile_save(finished=True)
    markup["seats"] = ["[bold]Al", "Bo[/]", "[link=http://x.example]Cy"]
    (history / "markup.json").write_text(json.dumps(markup))
    done = coloretto(tmp_path, "replay", "--list")
    assert done.returncode == 0, done.stderr
    shown_cleanly(done.stdout)
    for name in ("Ana", "Ben", "Cy", "[bold]Al", "Bo[/]", "[link=http://x.example]Cy"):
        assert re.search(rf" {re.escape(name)} +-?\d+ ", done.stdout), name  # not markup
    assert "unreadable" in done.stdout
    assert "bad" in done.stdout


def test_error_messages_quote_hostile_text_cleanly(tmp_path: Path) -> None:
    bad = hostile_save()
    bad["meta"]["session"]["players"][0]["name"] = hostile("A much too long name here")
    path = tmp_path / f"load{IN_FILE_NAMES}.json"
    path.write_text(json.dumps(bad))
    for argv in (
        ["play", "--load", str(path)],
        ["replay", str(tmp_path / f"missing{IN_FILE_NAMES}.json")],
        ["replay", str(path), "--list"],
        ["stats", "--player", HOSTILE],
        ["play", "--seat", hostile("Ana"), "--seat", "bot", "--bot", hostile("easy")],
    ):
        done = coloretto(tmp_path, *argv)
        assert done.returncode == 2, (argv, done.stderr)
        shown_cleanly(done.stderr)
    data = json.loads(path.read_text())
    data["format"] = hostile("coloretto-record/9")
    path.write_text(json.dumps(data))
    done = coloretto(tmp_path, "replay", str(path))
    assert done.returncode == 2
    shown_cleanly(done.stderr)


def test_stats_show_the_names_cleaned(tmp_path: Path) -> None:
    stats = Stats(tmp_path / "stats.sqlite3")
    for i, (name, opponent) in enumerate([(hostile("Ana"), hostile("hard")), ("Ben", "easy")]):
        stats.add(
            GameResult(
                game_id=f"g{i}",
                finished_at=datetime(2026, 1, 1, tzinfo=UTC),
                players=2,
                scoring="brown",
                edition="classic",
                variant="standard",
                results=(PlayerResult(name, None, 30, 1.0), PlayerResult("Bot", opponent, 20, 0.0)),
            )
        )
    done = coloretto(tmp_path, "stats")
    assert done.returncode == 0, done.stderr
    shown_cleanly(done.stdout)
    assert "Ana: 1 game" in done.stdout
    done = coloretto(tmp_path, "stats", "--player", hostile("Cy"))
    shown_cleanly(done.stdout)


# ---------------------------------------------------------------------- on the screen

END = b"\x1b[F"
ENTER = b"\r"


@pytest.mark.parametrize("finished", [True, False])
def test_replay_shows_the_names_cleaned(tmp_path: Path, finished: bool) -> None:
    path = tmp_path / f"game{IN_FILE_NAMES}.json"
    path.write_text(json.dumps(hostile_save(finished)))
    keys = [("Ana", END), ("Cy", ENTER), ("Ben", b"q")] if finished else [("Ana", b"q")]
    output = in_a_terminal(tmp_path / "home", ["replay", str(path)], keys)
    no_hostile_bytes(output)


def test_play_load_shows_the_names_cleaned(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(hostile_save()))
    keys = [("Ana's turn", b"h"), ("no hint this time", b"q"), ("Quit", b"y")]
    output = in_a_terminal(tmp_path / "home", ["play", "--load", str(path), "--delay", "0"], keys)
    no_hostile_bytes(output)
    (save,) = (tmp_path / "home" / "saves").glob("*.json")
    kept = json.loads(save.read_text())
    assert kept["seats"] == list(NAMES)
    assert [p["name"] for p in kept["meta"]["session"]["players"]] == list(NAMES)
