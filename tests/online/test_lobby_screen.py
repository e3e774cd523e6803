"""The lobby screen, reached with Ctrl+L from the join screen: the public tables of a tiny
server made here (``LobbyServer``), asked for again every few seconds (a bounded number of
times), one joined with its number or Enter; a hostile answer is a line on the screen;
``n`` opens a new public table (``HostingServer``: answers a ``host`` as a real server)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input
from websockets.asyncio.server import ServerConnection

from coloretto.engine import Rules
from coloretto.online.client.lobby import fetch_tables
from coloretto.online.client.remote_table import RemoteTable
from coloretto.online.wire.accounts import new_account, save_account
from coloretto.online.wire.messages import ChallengeMessage, LobbyMessage, LobbySeat, WelcomeMessage
from coloretto.online.wire.protocol import Host, Join, encode
from coloretto.play.keeper import Keeper
from coloretto.store.paths import DataDir
from coloretto.tui.online_app import JoinForm, OnlineApp
from coloretto.tui.screens import tables as tables_screen
from coloretto.tui.screens.join import JoinScreen
from coloretto.tui.screens.lobby import LobbyScreen
from coloretto.tui.screens.new_table import NewTableScreen
from coloretto.tui.screens.tables import TablesScreen
from coloretto.tui.widgets import Notice
from coloretto.tui.widgets.choice import Choice
from tests.online.conftest import until
from tests.online.test_lobby_cli import LobbyServer, running
from tests.tui.conftest import text_of


@pytest.fixture
def lobby_server() -> Iterator[LobbyServer]:
    yield from running(LobbyServer())


NEW_ROOM = "P4NW8R"


class HostingServer(LobbyServer):
    """A ``LobbyServer`` that also opens tables: a ``host`` gets ``welcome`` (seat 0 and a
    token) then ``lobby``, as a real server answers (``docs/protocol.md``), unless
    ``answers["host"]`` says otherwise; a ``challenge`` gets a nonce. Every frame it was
    sent is kept in ``frames``."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[dict[str, Any]] = []
        self.connected = 0
        """The connections open now."""

    async def handler(self, ws: ServerConnection) -> None:
        self.connected += 1
        try:
            await self.answer(ws)
        finally:
            self.connected -= 1

    async def answer(self, ws: ServerConnection) -> None:
        assert ws.request is not None
        async for text in ws:
            frame = json.loads(text)
            self.frames.append(frame)
            self.asked.append((frame["type"], ws.request.path))
            if frame["type"] == "challenge":
                await ws.send(encode(ChallengeMessage.of(bytes(range(32)))))
            elif frame["type"] == "host" and "host" not in self.answers:
                rules = Rules(players=frame["rules"]["players"])
                seats = (LobbySeat(frame["name"], True), *(None,) * (rules.players - 1))
                await ws.send(encode(WelcomeMessage(NEW_ROOM, 0, "t" * 32)))
                lobby = LobbyMessage.of(NEW_ROOM, rules, frame["bot"], seats, public=True,
                                     rated=frame.get("rated", False),
                                     fill_in=frame.get("fill_after"))  # fmt: skip
                await ws.send(encode(lobby))
            else:
                await ws.send(self.answers.get(frame["type"], UNKNOWN))

    def hosted(self) -> list[dict[str, Any]]:
        """The ``host`` requests received."""
        return [frame for frame in self.frames if frame["type"] == "host"]


UNKNOWN = json.dumps({"type": "error", "code": "bad-request", "message": "unknown type"})


@pytest.fixture
def hosting_server() -> Iterator[HostingServer]:
    yield from running(HostingServer())


class Form:
    """A join form for the lobby server whose tables are joined at a port nobody listens
    on (the join itself is tested elsewhere): it keeps the code and name joined with. With
    ``hosting``, new tables are opened at the server itself (kept in ``opened``)."""

    def __init__(self, server: LobbyServer, home: Path, *, hosting: bool = False) -> None:
        self.joined: list[tuple[str, str]] = []
        self.opened: list[Host] = []
        self.home = home
        self.address = server.address
        self.form = JoinForm(
            server.address,
            "Dee",
            self.table_for,
            tables=lambda: fetch_tables(server.address),
            host_for=self.host_for if hosting else None,
        )

    def table_for(self, code: str, name: str, keeper: Keeper) -> RemoteTable:
        self.joined.append((code, name))
        return RemoteTable("127.0.0.1:9", Join(code, name), Keeper(DataDir(self.home)))

    def host_for(self, opening: Host, keeper: Keeper) -> RemoteTable:
        self.opened.append(opening)
        return RemoteTable(self.address, opening, keeper)


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
            assert found[0][5:] == ["brown side", "-", "-", "bots fill in 42 s"]
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
            notice = screen.query_one(Notice)
            await until(lambda: "Press r" in text_of(notice) and not screen.asking, 10)
            asked = len(lobby_server.asked)
            # the first and the 3 refreshes (fewer on a loaded machine: one ask at a time)
            assert 2 <= asked <= 4
            await asyncio.sleep(0.5)
            assert len(lobby_server.asked) == asked  # then no more by itself
            await pilot.press("r")
            await until(lambda: len(lobby_server.asked) > asked, 10)

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


# ------------------------------------------------------------------ a new public table


async def new_table_form(app: OnlineApp, pilot: Any) -> NewTableScreen:
    """From the join screen: Ctrl+L, the list, then ``n``: the new table's form."""
    await pilot.pause()
    await pilot.press("ctrl+l")
    tables = app.screen
    assert isinstance(tables, TablesScreen)
    await until(lambda: bool(tables.tables), 10)
    assert "n opens a new one" in text_of(tables.query_one(Notice))
    await pilot.press("n")
    form = app.screen
    assert isinstance(form, NewTableScreen)
    return form


async def leave(app: OnlineApp, pilot: Any, server: HostingServer) -> None:
    """Ctrl+C: the app quits, its connection closed (the server does not wait for it)."""
    await pilot.press("ctrl+c")
    await until(lambda: server.connected == 0, 10)
    assert app.return_code is not None


async def retype(pilot: Any, field: Input, text: str) -> None:
    """Clear ``field`` (it has the keys) and type ``text`` into it."""
    assert field.has_focus
    await pilot.press(*["backspace"] * len(field.value), *text)


def test_n_opens_a_public_table_with_the_settings_chosen_and_its_room_is_the_hosts(
    hosting_server: HostingServer, tmp_path: Path
) -> None:
    form = Form(hosting_server, tmp_path, hosting=True)

    async def check() -> None:
        app = OnlineApp(form.form, host=False, keeper=Keeper(DataDir(tmp_path)))
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            app.screen.query_one("#join-name", Input).value = "Eve"
            screen = await new_table_form(app, pilot)
            assert not screen.query("#new-table-rated")  # no account: not offered
            assert "needs an account" in text_of(screen.query_one("#new-table-rated-note"))
            await retype(pilot, screen.query_one("#new-table-players", Input), "3")
            await pilot.press("tab", "right")  # the bot level after normal
            assert screen.query_one("#new-table-bot", Choice).value == "hard"
            await pilot.press("tab")
            await retype(pilot, screen.query_one("#new-table-wait", Input), "90")
            assert screen.query_one("#new-table-clock", Choice).value == "standard"
            await pilot.press("tab", "right")  # the clock after standard
            assert screen.query_one("#new-table-clock", Choice).value == "relaxed"
            await pilot.press("enter")
            await until(lambda: bool(hosting_server.hosted()), 10)
            (request,) = hosting_server.hosted()
            assert request["public"] is True
            assert request["clock"] == "relaxed"
            assert request["fill_after"] == 90
            assert request["rules"]["players"] == 3
            assert request["bot"] == "hard"
            assert request["name"] == "Eve"
            assert "rated" not in request
            assert "account" not in request
            assert form.joined == []
            assert app.host
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            assert lobby.host
            await until(lambda: lobby.lobby is not None, 10)
            assert NEW_ROOM in text_of(lobby.query_one("#lobby-title"))
            assert lobby.check_action("start", ())  # the host's keys
            await leave(app, pilot, hosting_server)

    asyncio.run(check())


def test_esc_cancels_the_new_table_and_the_defaults_open_one(
    hosting_server: HostingServer, tmp_path: Path
) -> None:
    form = Form(hosting_server, tmp_path, hosting=True)

    async def check() -> None:
        app = OnlineApp(form.form, host=False, keeper=Keeper(DataDir(tmp_path)))
        async with app.run_test(size=(110, 30)) as pilot:
            await new_table_form(app, pilot)
            await pilot.press("escape")
            assert isinstance(app.screen, TablesScreen)
            await pilot.press("escape")
            assert isinstance(app.screen, JoinScreen)
            assert hosting_server.hosted() == []
            assert form.opened == []
            await new_table_form(app, pilot)
            await pilot.press("enter")  # as the form starts: 4 players, normal, 60 s
            await until(lambda: bool(hosting_server.hosted()), 10)
            (request,) = hosting_server.hosted()
            assert (request["rules"]["players"], request["bot"]) == (4, "normal")
            assert (request["public"], request["fill_after"], request["name"]) == (True, 60, "Dee")
            assert isinstance(app.screen, LobbyScreen)
            await leave(app, pilot, hosting_server)

    asyncio.run(check())


@pytest.mark.parametrize(
    ("field", "typed", "said"),
    [
        ("players", "7", "Players: a number from 2 to 5, not '7'."),
        ("players", "", "Players: a number from 2 to 5."),
        ("players", "x", "Players: a number from 2 to 5, not 'x'."),
        ("wait", "5", "bots fill the table: 10 to 3600 seconds, not '5'."),
        ("wait", "3601", "10 to 3600 seconds, not '3601'"),
        ("wait", "soon", "10 to 3600 seconds, not 'soon'"),
        ("wait", "nan", "10 to 3600 seconds, not 'nan'"),
    ],
)
def test_a_wrong_field_is_said_and_the_form_stays(
    hosting_server: HostingServer, tmp_path: Path, field: str, typed: str, said: str
) -> None:
    form = Form(hosting_server, tmp_path, hosting=True)

    async def check() -> None:
        app = OnlineApp(form.form, host=False, keeper=Keeper(DataDir(tmp_path)))
        async with app.run_test(size=(110, 30)) as pilot:
            screen = await new_table_form(app, pilot)
            wrong = screen.query_one(f"#new-table-{field}", Input)
            if field == "wait":
                await pilot.press("tab", "tab")
            await retype(pilot, wrong, typed)
            await pilot.press("enter")
            assert app.screen is screen
            assert said in text_of(screen.query_one(Notice))
            assert wrong.has_focus  # the keys go back to the field at fault
            await retype(pilot, wrong, "2" if field == "players" else "10")
            await pilot.press("enter")
            await until(lambda: bool(hosting_server.hosted()), 10)
            (request,) = hosting_server.hosted()
            assert request["rules"]["players"] == (2 if field == "players" else 4)
            assert request["fill_after"] == (10 if field == "wait" else 60)
            await leave(app, pilot, hosting_server)

    asyncio.run(check())


def test_a_rated_table_is_offered_with_an_account_kept_for_the_server(
    hosting_server: HostingServer, tmp_path: Path
) -> None:
    save_account(DataDir(tmp_path), new_account(f"ws://{hosting_server.address}", "Dee"))
    form = Form(hosting_server, tmp_path, hosting=True)

    async def check() -> None:
        app = OnlineApp(form.form, host=False, keeper=Keeper(DataDir(tmp_path)))
        async with app.run_test(size=(110, 30)) as pilot:
            screen = await new_table_form(app, pilot)
            assert not screen.query("#new-table-rated-note")
            await pilot.press("tab", "tab", "tab", "tab", "right")
            assert screen.query_one("#new-table-rated", Choice).value is True
            await pilot.press("enter")
            await until(lambda: bool(hosting_server.hosted()), 10)
            (request,) = hosting_server.hosted()
            assert (request["public"], request["rated"]) == (True, True)
            assert request["account"]["name"] == "Dee"  # signed for the challenge asked
            assert isinstance(app.screen, LobbyScreen)
            await leave(app, pilot, hosting_server)

    asyncio.run(check())


def test_a_refused_table_brings_the_join_screen_back_with_the_servers_words(
    hosting_server: HostingServer, tmp_path: Path
) -> None:
    hosting_server.answers["host"] = json.dumps(
        {"type": "error", "code": "too-many-tries", "message": "too many rooms: wait"}
    )
    form = Form(hosting_server, tmp_path, hosting=True)

    async def check() -> None:
        app = OnlineApp(form.form, host=False, keeper=Keeper(DataDir(tmp_path)))
        async with app.run_test(size=(110, 30)) as pilot:
            await new_table_form(app, pilot)
            await pilot.press("enter")
            await until(lambda: isinstance(app.screen, JoinScreen), 10)
            assert "too many rooms" in text_of(app.screen.query_one(Notice))
            assert not app.host
            assert app.return_code is None

    asyncio.run(check())


def test_no_new_table_without_a_way_to_host_or_a_name(
    hosting_server: HostingServer, tmp_path: Path
) -> None:
    form = Form(hosting_server, tmp_path)  # watching, say: no new tables

    async def check() -> None:
        app = OnlineApp(form.form, host=False, keeper=Keeper(DataDir(tmp_path)))
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+l")
            tables = app.screen
            assert isinstance(tables, TablesScreen)
            await until(lambda: bool(tables.tables), 10)
            assert "n opens" not in text_of(tables.query_one(Notice))
            await pilot.press("n")
            assert app.screen is tables

    asyncio.run(check())
    nameless = Form(hosting_server, tmp_path, hosting=True)
    nameless.form = JoinForm(
        hosting_server.address,
        "",
        nameless.table_for,
        tables=lambda: fetch_tables(hosting_server.address),
        host_for=nameless.host_for,
    )

    async def check_name() -> None:
        app = OnlineApp(nameless.form, host=False, keeper=Keeper(DataDir(tmp_path)))
        async with app.run_test(size=(110, 30)) as pilot:
            await new_table_form(app, pilot)
            await pilot.press("enter")
            join = app.screen
            assert isinstance(join, JoinScreen)
            assert "Type your name first" in text_of(join.query_one(Notice))
            assert app.focused is join.query_one("#join-name", Input)
            assert nameless.opened == []

    asyncio.run(check_name())
