"""The lobby screen, reached with Ctrl+L from the join screen: the public tables of a tiny
server made here (``LobbyServer``), asked for again every few seconds (a bounded number of
times), one joined with its number or Enter; a hostile answer is a line on the screen."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input

from coloretto.online.client import RemoteTable
from coloretto.online.lobby import fetch_tables
from coloretto.online.protocol import Join
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from coloretto.tui.online_app import JoinForm, OnlineApp
from coloretto.tui.screens import tables as tables_screen
from coloretto.tui.screens.join import JoinScreen
from coloretto.tui.screens.tables import TablesScreen
from coloretto.tui.widgets import Notice
from tests.online.conftest import until
from tests.online.test_lobby_cli import LobbyServer, running
from tests.tui.conftest import text_of


@pytest.fixture
def lobby_server() -> Iterator[LobbyServer]:
    yield from running(LobbyServer())


class Form:
    """A join form for the lobby server whose tables are joined at a port nobody listens
    on (the join itself is tested elsewhere): it keeps the code and name joined with."""

    def __init__(self, server: LobbyServer, home: Path) -> None:
        self.joined: list[tuple[str, str]] = []
        self.home = home
        self.form = JoinForm(
            server.address, "Dee", self.table_for, tables=lambda: fetch_tables(server.address)
        )

    def table_for(self, code: str, name: str, keeper: Keeper) -> RemoteTable:
        self.joined.append((code, name))
        return RemoteTable("127.0.0.1:9", Join(code, name), Keeper(DataDir(self.home)))


def rows(screen: TablesScreen) -> list[list[str]]:
    view = screen.query_one(DataTable)
    return [[str(cell) for cell in view.get_row_at(i)] for i in range(view.row_count)]


def test_ctrl_l_lists_the_tables_and_a_number_joins_one(
    lobby_server: LobbyServer, tmp_path: Path
) -> None:
    form = Form(lobby_server, tmp_path)

    async def check() -> None:
        app = OnlineApp(form.form, host=False, keeper=Keeper(DataDir(tmp_path)))
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, JoinScreen)
            await pilot.press("ctrl+l")
            screen = app.screen
            assert isinstance(screen, TablesScreen)
            await until(lambda: bool(screen.tables), 10)
            found = rows(screen)
            assert found[0][:5] == ["1", "K7PQ2M", "2/4 Ana, Ben", "2", "easy"]
            assert found[0][5:] == ["brown side", "-", "bots fill in 42 s"]
            assert found[1][1] == "H3JX9W"
            assert found[1][5:7] == ["gray side, ghost variant", "rated"]
            await pilot.press("2")
            await until(lambda: bool(form.joined), 10)
            assert form.joined == [("H3JX9W", "Dee")]

    asyncio.run(check())


def test_enter_joins_the_table_under_the_cursor_and_esc_goes_back(
    lobby_server: LobbyServer, tmp_path: Path
) -> None:
    form = Form(lobby_server, tmp_path)

    async def check() -> None:
        app = OnlineApp(form.form, host=False, keeper=Keeper(DataDir(tmp_path)))
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+l")
            screen = app.screen
            assert isinstance(screen, TablesScreen)
            await until(lambda: bool(screen.tables), 10)
            await pilot.press("escape")
            assert isinstance(app.screen, JoinScreen)
            assert form.joined == []
            await pilot.press("ctrl+l")
            screen = app.screen
            assert isinstance(screen, TablesScreen)
            await until(lambda: bool(screen.tables), 10)
            await pilot.press("9")  # no such table
            assert "no table 9" in text_of(screen.query_one(Notice))
            await pilot.press("down", "enter")
            await until(lambda: bool(form.joined), 10)
            assert form.joined == [("H3JX9W", "Dee")]

    asyncio.run(check())


def test_the_list_is_asked_for_again_a_bounded_number_of_times(
    lobby_server: LobbyServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables_screen, "REFRESH_SECONDS", 0.1)
    monkeypatch.setattr(tables_screen, "MAX_REFRESHES", 3)
    form = Form(lobby_server, tmp_path)

    async def check() -> None:
        app = OnlineApp(form.form, host=False, keeper=Keeper(DataDir(tmp_path)))
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+l")
            screen = app.screen
            assert isinstance(screen, TablesScreen)
            await until(lambda: len(lobby_server.asked) == 4, 10)
            await until(lambda: "Press r" in text_of(screen.query_one(Notice)), 10)
            await asyncio.sleep(0.5)
            assert len(lobby_server.asked) == 4  # then no more by itself
            await pilot.press("r")
            await until(lambda: len(lobby_server.asked) >= 5, 10)

    asyncio.run(check())


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ('{"type": "tables", "tables": [{"room": "\\u001b[2J"}]}', "broke the protocol"),
        ("x" * (2 << 20), "too long"),
        (None, "does not list public tables"),
    ],
)
def test_a_hostile_or_old_server_is_a_line_on_the_screen(
    lobby_server: LobbyServer, tmp_path: Path, answer: str | None, said: str
) -> None:
    if answer is None:
        del lobby_server.answers["tables"]
    else:
        lobby_server.answers["tables"] = answer
    form = Form(lobby_server, tmp_path)

    async def check() -> None:
        app = OnlineApp(form.form, host=False, keeper=Keeper(DataDir(tmp_path)))
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+l")
            screen = app.screen
            assert isinstance(screen, TablesScreen)
            notice = screen.query_one(Notice)
            await until(lambda: said in text_of(notice), 10)
            assert "\x1b" not in text_of(notice)
            await pilot.press("1")
            assert form.joined == []
            assert app.return_code is None

    asyncio.run(check())


def test_names_from_the_server_are_shown_without_control_characters(
    lobby_server: LobbyServer, tmp_path: Path
) -> None:
    table = json.loads(lobby_server.answers["tables"])["tables"][0]
    table["seated"] = ["\x1b]0;x\x07An\x1b[31ma", "[b]Ben"]
    lobby_server.answers["tables"] = json.dumps({"type": "tables", "tables": [table]})
    form = Form(lobby_server, tmp_path)

    async def check() -> None:
        app = OnlineApp(form.form, host=False, keeper=Keeper(DataDir(tmp_path)))
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+l")
            screen = app.screen
            assert isinstance(screen, TablesScreen)
            await until(lambda: bool(screen.tables), 10)
            assert rows(screen)[0][2] == "2/4 Ana, [b]Ben"

    asyncio.run(check())


def test_a_code_given_fills_the_form_and_the_name_is_asked(
    lobby_server: LobbyServer, tmp_path: Path
) -> None:
    form = Form(lobby_server, tmp_path)
    given = JoinForm(lobby_server.address, "", form.table_for, code="K7PQ2M")

    async def check() -> None:
        app = OnlineApp(given, host=False, keeper=Keeper(DataDir(tmp_path)))
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            assert app.screen.query_one("#join-code", Input).value == "K7PQ2M"
            assert app.focused is app.screen.query_one("#join-name", Input)
            await pilot.press("ctrl+l")  # no lobby in this form
            assert isinstance(app.screen, JoinScreen)
            await pilot.press("D", "e", "e", "enter")
            await until(lambda: bool(form.joined), 10)
            assert form.joined == [("K7PQ2M", "Dee")]

    asyncio.run(check())
