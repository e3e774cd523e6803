"""After a rated game, the ``rated`` message: the table keeps the changes of the game just
over (and tells its listeners), the score screen shows them ("Rating 1012 → 1040 (+28)"
for one's own seat, the others' under it); a hostile or stray ``rated`` changes nothing."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from coloretto.online.client import Rated, RemoteTable
from coloretto.online.messages import RatedMessage, RatingChange, parse_message
from coloretto.online.protocol import Join, ProtocolError, encode
from coloretto.play.keeper import Keeper
from coloretto.play.session import Session
from coloretto.store.paths import DataDir
from coloretto.tui.online_app import OnlineEndScreen
from coloretto.tui.screens.end import rating_lines
from coloretto.tui.widgets.seats import MINUS
from tests.tui.conftest import make_config, text_of
from tests.tui.test_score_layout import ScoresApp, finished

CHANGES = (RatingChange(0, "Hana", 990, 975), RatingChange(1, "Jo", 1012, 1040))


def table_after(session: Session, tmp_path: Path) -> tuple[RemoteTable, list[object]]:
    """Jo's table (seat 1), its game over as ``session`` (no server: the messages are
    handed to it), and what it told."""
    table = RemoteTable("127.0.0.1:7787", Join("K7PQ2M", "Jo"), Keeper(DataDir(tmp_path)))
    table.player = 1
    table._view = session  # type: ignore[assignment]
    table._final = session
    told: list[object] = []
    table.subscribe(told.append)
    return table, told


def test_the_lines_put_ones_own_first() -> None:
    lines = [line.plain for line in rating_lines(CHANGES, 1)]
    assert lines == ["Rating 1012 → 1040 (+28)", f"Hana: rating 990 → 975 ({MINUS}15)"]
    assert [line.plain for line in rating_lines(CHANGES, None)] == [
        f"Hana: rating 990 → 975 ({MINUS}15)",
        "Jo: rating 1012 → 1040 (+28)",
    ]


def test_the_table_keeps_the_changes_of_the_game_just_over(tmp_path: Path) -> None:
    session = finished(make_config(4, humans=2, names=["Hana", "Jo"], seed=1), 1)
    table, told = table_after(session, tmp_path)
    assert table._handle(encode(RatedMessage(1, CHANGES)))
    assert table.rated == CHANGES
    assert told == [Rated(CHANGES)]
    assert table._handle(encode(RatedMessage(1, CHANGES)))  # told again after a break
    assert told == [Rated(CHANGES)]


def test_a_stray_rated_message_is_left_out(tmp_path: Path) -> None:
    session = finished(make_config(4, humans=2, names=["Hana", "Jo"], seed=1), 1)
    table, told = table_after(session, tmp_path)
    table._handle(encode(RatedMessage(2, CHANGES)))  # another game of the match
    assert (table.rated, told) == ((), [])
    table._final = None  # before the game's end
    table._handle(encode(RatedMessage(1, CHANGES)))
    assert (table.rated, told) == ((), [])


@pytest.mark.parametrize(
    "changes",
    [
        [{"seat": 1, "name": "Jo", "before": "1012", "after": 1040}],
        [{"seat": 9, "name": "Jo", "before": 1012, "after": 1040}],
        [{"seat": 1, "name": None, "before": 1012, "after": 1040}],
        [{"seat": 1, "name": "Jo", "before": 1012, "after": 10**12}],
        [{"seat": True, "name": "Jo", "before": 1012, "after": 1040}],
        "all",
        [1] * 6,
    ],
)
def test_a_hostile_rated_message_is_refused(changes: object) -> None:
    with pytest.raises(ProtocolError):
        parse_message(json.dumps({"type": "rated", "game": 1, "changes": changes}))


def test_names_lose_their_control_characters() -> None:
    frame = {"type": "rated", "game": 1, "changes": [
        {"seat": 0, "name": "\x1b]0;x\x07Ha\x1b[2Jna", "before": 990, "after": 975}]}  # fmt: skip
    message = parse_message(json.dumps(frame))
    assert isinstance(message, RatedMessage)
    assert message.changes[0].name == "Hana"


def test_the_score_screen_shows_the_ratings_when_they_come(tmp_path: Path) -> None:
    session = finished(make_config(4, humans=2, names=["Hana", "Jo"], seed=1), 1)
    table, _ = table_after(session, tmp_path)

    async def check() -> None:
        screen = OnlineEndScreen(session, 1, table=table)
        async with ScoresApp(screen).run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            headline = text_of(screen.query_one("#headline")).splitlines()
            assert not any("ating" in line for line in headline)
            table._handle(encode(RatedMessage(1, CHANGES)))
            screen.show_headline()
            await pilot.pause()
            headline = text_of(screen.query_one("#headline")).splitlines()
            assert headline[-2:] == [
                "Rating 1012 → 1040 (+28)",
                f"Hana: rating 990 → 975 ({MINUS}15)",
            ]

    asyncio.run(check())


def test_ratings_that_came_first_show_at_once(tmp_path: Path) -> None:
    session = finished(make_config(4, humans=2, names=["Hana", "Jo"], seed=1), 1)
    table, _ = table_after(session, tmp_path)
    table._handle(encode(RatedMessage(1, CHANGES)))

    async def check() -> None:
        screen = OnlineEndScreen(session, 0, table=table)
        async with ScoresApp(screen).run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            headline = text_of(screen.query_one("#headline")).splitlines()
            assert headline[-2:] == [
                f"Rating 990 → 975 ({MINUS}15)",
                "Jo: rating 1012 → 1040 (+28)",
            ]

    asyncio.run(check())
