"""After a rated game, the ``rated`` message: the table keeps the changes of the game just
over (and tells its listeners), the score screen shows them ("Rating 1012 → 1040 (+28)"
for one's own seat, the others' under it); a hostile or stray ``rated`` changes nothing."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest

from coloretto.engine import Rules
from coloretto.online.client.remote_table import Rated, RemoteTable
from coloretto.online.server.rooms import Room, over_record
from coloretto.online.wire.messages import (
    OverMessage,
    RatedMessage,
    RatingChange,
    WelcomeMessage,
    parse_message,
)
from coloretto.online.wire.protocol import Host, Join, ProtocolError, encode
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from coloretto.tui.online_app import OnlineEndScreen
from coloretto.tui.screens.end import rating_lines
from coloretto.tui.widgets.seats import MINUS
from tests.online.test_seating import game_message
from tests.tui.conftest import text_of
from tests.tui.test_score_layout import ScoresApp

CHANGES = (RatingChange(0, "Hana", 990, 975), RatingChange(1, "Jo", 1012, 1040))


def table_after(tmp_path: Path, *, over: bool = True) -> tuple[RemoteTable, list[object]]:
    """Jo's table (seat 1 of Hana's table of 4, two bots), its game played to the end (no
    server: the messages are handed to it), with the game's record unless not ``over``;
    and what it tells from then on."""
    room, _ = Room.open("ABC234", Host.of("Hana", Rules(players=4), "easy", 0.0, 5.0))
    room.join("Jo")
    room.start()
    rng = random.Random(1)
    while not room.session.game.is_over:
        room.session.apply(rng.choice(room.session.game.legal_actions()))
    table = RemoteTable("127.0.0.1:7787", Join("ABC234", "Jo"), Keeper(DataDir(tmp_path)))
    assert table.handle(encode(WelcomeMessage("ABC234", 1)))
    assert table.handle(game_message(room, 1))
    if over:
        assert table.handle(encode(OverMessage(over_record(room))))
        assert table.machine.finished
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
    table, told = table_after(tmp_path)
    assert table.handle(encode(RatedMessage(1, CHANGES)))
    assert table.view.rated == CHANGES
    assert told == [Rated(CHANGES)]
    assert table.handle(encode(RatedMessage(1, CHANGES)))  # told again after a break
    assert told == [Rated(CHANGES)]


def test_a_stray_rated_message_is_left_out(tmp_path: Path) -> None:
    table, told = table_after(tmp_path)
    assert table.handle(encode(RatedMessage(2, CHANGES)))  # another game of the match
    assert (table.view.rated, told) == ((), [])
    table, told = table_after(tmp_path / "early", over=False)  # before the game's record
    assert table.handle(encode(RatedMessage(1, CHANGES)))
    assert (table.view.rated, told) == ((), [])


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
    table, _ = table_after(tmp_path)

    async def check() -> None:
        screen = OnlineEndScreen(table.view, 1, table=table)
        async with ScoresApp(screen).run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            headline = text_of(screen.query_one("#headline")).splitlines()
            assert not any("ating" in line for line in headline)
            assert table.handle(encode(RatedMessage(1, CHANGES)))
            screen.show_headline()
            await pilot.pause()
            headline = text_of(screen.query_one("#headline")).splitlines()
            assert headline[-2:] == [
                "Rating 1012 → 1040 (+28)",
                f"Hana: rating 990 → 975 ({MINUS}15)",
            ]

    asyncio.run(check())


def test_ratings_that_came_first_show_at_once(tmp_path: Path) -> None:
    table, _ = table_after(tmp_path)
    assert table.handle(encode(RatedMessage(1, CHANGES)))

    async def check() -> None:
        screen = OnlineEndScreen(table.view, 0, table=table)
        async with ScoresApp(screen).run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            headline = text_of(screen.query_one("#headline")).splitlines()
            assert headline[-2:] == [
                f"Rating 990 → 975 ({MINUS}15)",
                "Jo: rating 1012 → 1040 (+28)",
            ]

    asyncio.run(check())
