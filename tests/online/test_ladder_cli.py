"""``coloretto ladder`` against a tiny server made here (``LobbyServer``) that answers
``ladder`` with what a test gives it, hostile answers included."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from coloretto.online.wire.messages import LadderEntry, LadderMessage
from coloretto.online.wire.protocol import convert, encode
from tests.online.test_accounts_cli import coloretto
from tests.online.test_lobby_cli import LobbyServer, running

ENTRIES = (
    LadderEntry("Ana", 1412, 180, 31),
    LadderEntry("hard bot", 1250, 40, 2000, bot=True),
    LadderEntry("Ben", 1012, 300, 4),
)


@pytest.fixture
def ladder_server() -> Iterator[LobbyServer]:
    server = LobbyServer()
    server.answers["ladder"] = encode(LadderMessage(ENTRIES))
    yield from running(server)


def test_the_ladder_ranks_players_and_marks_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ladder_server: LobbyServer
) -> None:
    status, out, err = coloretto(tmp_path, monkeypatch, "ladder", "--server", ladder_server.address)
    assert (status, err) == (0, "")
    rows = [line.split() for line in out.splitlines()]
    assert rows[0] == ["Rank", "Name", "Rating", "Games"]
    assert rows[1] == ["1", "Ana", "1412", "±", "180", "31"]
    assert rows[2] == ["2", "hard", "bot", "1250", "±", "40", "2000", "bot"]
    assert rows[3] == ["3", "Ben", "1012", "±", "300", "4"]
    assert ladder_server.asked == [("ladder", "/")]


def test_json_is_the_ladder_as_the_protocol_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ladder_server: LobbyServer
) -> None:
    status, out, _ = coloretto(
        tmp_path, monkeypatch, "ladder", "--server", ladder_server.address, "--json"
    )
    assert status == 0
    assert [convert(e, LadderEntry, "entry") for e in json.loads(out)["entries"]] == list(ENTRIES)


def test_an_empty_ladder_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ladder_server: LobbyServer
) -> None:
    ladder_server.answers["ladder"] = encode(LadderMessage(()))
    status, out, _ = coloretto(tmp_path, monkeypatch, "ladder", "--server", ladder_server.address)
    assert status == 0
    assert out == f"No ratings at {ladder_server.address} yet.\n"


def entry(**changed: object) -> str:
    return json.dumps({"type": "ladder", "entries": [ENTRIES[0].to_json() | changed]})


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (entry(rating="1412"), "ladder.entries.rating: expected a whole rating"),
        (entry(rating=10**9), "ladder.entries.rating: expected a whole rating"),
        (entry(games=1.5), "ladder.entries.games: expected a whole number of games"),
        (entry(bot="yes"), "ladder.entries.bot: expected true or false"),
        (entry(name=["Ana"]), "expected a name"),
        (json.dumps({"type": "ladder", "entries": [ENTRIES[0].to_json()] * 500}), "a list"),
        ("x" * (2 << 20), "too long"),
        (json.dumps({"type": "tables", "tables": []}), "not the ladder"),
    ],
)
def test_a_hostile_ladder_gets_one_clear_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    ladder_server: LobbyServer,
    answer: str,
    said: str,
) -> None:
    ladder_server.answers["ladder"] = answer
    status, out, err = coloretto(tmp_path, monkeypatch, "ladder", "--server", ladder_server.address)
    assert status == 2
    assert out == ""
    assert err.startswith("coloretto ladder: error: the server at ws://127.0.0.1:")
    assert said in err
    assert err.count("\n") == 1


def test_names_are_shown_without_control_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ladder_server: LobbyServer
) -> None:
    ladder_server.answers["ladder"] = entry(name="\x1b[31mAna\x1b]0;x\x07[red]")
    status, out, _ = coloretto(tmp_path, monkeypatch, "ladder", "--server", ladder_server.address)
    assert status == 0
    assert "\x1b" not in out
    assert "Ana[red]" in out


def test_a_server_without_ratings_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ladder_server: LobbyServer
) -> None:
    del ladder_server.answers["ladder"]
    status, _, err = coloretto(tmp_path, monkeypatch, "ladder", "--server", ladder_server.address)
    assert status == 2
    assert "does not list ratings (an older server" in err
