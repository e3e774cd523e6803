"""``coloretto server``, ``host`` and ``join`` on bad input: one line, never a traceback."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from coloretto.cli import online_command
from coloretto.cli.main import build_parser
from coloretto.online.wire.messages import WelcomeMessage
from coloretto.online.wire.protocol import Host, Join, Opening, encode, parse_request
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from tests.conftest import run_coloretto
from tests.online.conftest import certificate


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
        (["host", "--games", "0"], "--games must be 1 to 99"),
        (["host", "--games", "100"], "--games must be 1 to 99"),
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


def test_the_command_that_takes_a_seat_back_trusts_the_same_authority(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cert, _ = certificate(tmp_path)
    monkeypatch.chdir(tmp_path)
    parser = build_parser()
    argv = ["join", "K7PQ2M", "--server", "wss://127.0.0.1:7787", "--name", "Ana"]
    args = parser.parse_args([*argv, "--cafile", cert.name])  # relative to where it runs
    table = online_command._connect(args, parser)(Join("K7PQ2M", "Ana"), Keeper(DataDir(tmp_path)))
    assert table.handle(encode(WelcomeMessage("K7PQ2M", 0)))  # seated, no token kept
    comeback = table.comeback
    assert comeback is not None
    assert comeback.endswith(f"--name Ana --cafile {cert}")  # absolute: it works from anywhere


def test_host_games_opens_a_room_for_a_match(monkeypatch: pytest.MonkeyPatch) -> None:
    parser = build_parser()
    args = parser.parse_args(["host", "--games", "3", "--players", "3", "--name", "Hana"])
    opened: list[Opening] = []
    monkeypatch.setattr(
        online_command,
        "_play",
        lambda parser, table, host: opened.append(table.machine.opening) or 0,
    )
    assert args.run(args, parser) == 0
    request = parse_request(encode(opened[0]))  # as the table sends it
    assert isinstance(request, Host)
    assert request.rules.games == 3
    assert request.rules.players == 3
    assert parser.parse_args(["host"]).games == 1
