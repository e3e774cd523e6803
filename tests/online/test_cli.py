"""``coloretto server``, ``host`` and ``join`` on bad input: one line, never a traceback."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.conftest import run_coloretto


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["server", "--port", "70000"], "--port must be 0 to 65535"),
        (["server", "--certfile", "cert.pem"], "TLS needs both --certfile and --keyfile"),
        (["server", "--certfile", "no.pem", "--keyfile", "no.pem"], "cannot load the certificate"),
        (["host", "--players", "9"], "--players must be 2 to 5"),
        (["host", "--bot", "search:iterations=99999"], "invalid choice"),
        (["host", "--server", "nowhere"], "--server: expected HOST:PORT"),
        (["host", "--away-after", "-1"], "--away-after must be 0 to 600"),
        (["join", "K7PQ2"], "'K7PQ2' is not a room code"),
        (["join", "../etc"], "is not a room code"),
        (["join", "K7PQ2M"], "needs a terminal"),
        (["join", "--server", "nowhere"], "--server: expected HOST:PORT"),
        (["join"], "needs a terminal"),
    ],
)
def test_bad_options_get_one_line(tmp_path: Path, argv: list[str], words: str) -> None:
    done = run_coloretto(tmp_path, *argv, timeout=30)
    assert done.returncode == 2
    assert words in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_port_in_use_gets_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_coloretto(tmp_path, "server", "--port", str(port), timeout=30)
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Traceback" not in done.stderr
