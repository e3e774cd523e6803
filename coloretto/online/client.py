"""A seat at a table on a game server: ``RemoteTable`` is the ``Table`` the game screen
plays at, its moves checked and played by the server.

The table keeps a model of the game built from what the server tells (``PublicGame``);
the screen draws it and the hint bot thinks about it, here. The connection comes back by
itself when it drops (the seat's secret token is kept in the data directory, so even a
new process takes the seat back), and a finished game is kept in this player's own
history and statistics, like a game played here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.connection import broadcast
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from coloretto.engine import (
    Action,
    GameState,
    IllegalAction,
    IllegalReason,
    Match,
    Move,
    RecordError,
    Rules,
    load_record,
)
from coloretto.online.accounts import Account, load_account, opening_route, sign_challenge
from coloretto.online.clock import MAX_TIMEOUTS, Clock
from coloretto.online.clock_face import ClockFace
from coloretto.online.messages import (
    MAX_MESSAGE,
    AccountMessage,
    ChallengeMessage,
    ErrorMessage,
    GameMessage,
    LobbyMessage,
    MoveMessage,
    OverMessage,
    PresenceMessage,
    RatedMessage,
    RatingChange,
    WelcomeMessage,
    parse_message,
)
from coloretto.online.protocol import (
    ROOM_CODE,
    TOKEN,
    AccountClaim,
    Act,
    Challenge,
    ErrorCode,
    Host,
    Join,
    LockTable,
    Next,
    Opening,
    ProtocolError,
    Register,
    Remove,
    Resume,
    Start,
    Watch,
    encode,
    room_path,
)
from coloretto.online.public import PublicGame, Results
from coloretto.play.analysis import Hints
from coloretto.play.config import GameConfig, possessive
from coloretto.play.keeper import Keeper
from coloretto.play.saving import session_from_record
from coloretto.play.session import Session
from coloretto.play.table import (
    Event,
    Hint,
    Listener,
    MovePlayed,
    NotSaved,
    TableNews,
    advise,
)
from coloretto.play.table_view import Mover, has_next_game, shown_seed
from coloretto.play.words import Line, describe_move
from coloretto.store.files import read_bounded, write_atomically
from coloretto.store.paths import DataDir
from coloretto.store.text import printable

RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 3.0)
"""Waits between tries to reconnect (the last one repeats)."""

DEFAULT_SERVER = "127.0.0.1:7787"

ANSWER_SECONDS = 10.0
"""How long a client waits for the server's answer to ``challenge`` or ``register``."""


def server_url(text: str) -> str:
    """The WebSocket address of a server given as ``HOST:PORT`` (or a full ``ws://`` or
    ``wss://`` address); ``ValueError`` if it is neither.

    >>> server_url("example.org:7787"), server_url("wss://example.org/coloretto")
    ('ws://example.org:7787', 'wss://example.org/coloretto')
    """
    text = text.strip()
    if text.startswith(("ws://", "wss://")):
        if "?" in text or "#" in text:
            raise ValueError(f"expected a ws:// address without ? or #, not {text[:60]!r}")
        return text
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536 or "/" in host:
        raise ValueError(f"expected HOST:PORT or a ws:// address, not {text[:60]!r}")
    return f"ws://{text}"


def server_option(server: str) -> str:
    """What ``--server`` takes to reach ``server`` (a ``server_url``): ``HOST:PORT`` when
    that reads back as the same address, else the whole address (a path, ``wss://``).

    >>> server_option("ws://example.org:7787"), server_option("ws://example.org/coloretto")
    ('example.org:7787', 'ws://example.org/coloretto')
    """
    short = server.removeprefix("ws://")
    try:
        return short if server_url(short) == server else server
    except ValueError:
        return server


def room_url(server: str, room: str | None) -> str:
    """The address of room ``room`` (``None``: a new room) at the server at ``server``
    (``server_url``), as a proxy in front of several servers routes it.

    >>> room_url("ws://h:7787", "K7PQ2M"), room_url("wss://example.org/coloretto/", None)
    ('ws://h:7787/rooms/K7PQ2M', 'wss://example.org/coloretto/rooms')
    """
    return server.rstrip("/") + room_path(room)


class RegisterError(Exception):
    """``register_account`` failed: the message says why; ``code`` is the server's error
    (``None``: the server was not reached, or broke the protocol)."""

    def __init__(self, message: str, code: ErrorCode | None = None) -> None:
        super().__init__(message)
        self.code = code


async def register_account(account: Account, *, tls: ssl.SSLContext | None = None) -> str:
    """Make ``account`` (its name and public key) on its server; the name as the server
    took it. ``RegisterError`` saying why not: the name is taken or refused, the server
    does not know accounts, or cannot be reached."""
    server = account.server
    try:
        async with connect(
            server.rstrip("/") + "/", ssl=tls, max_size=MAX_MESSAGE, open_timeout=10,
            compression=None,
        ) as ws:  # fmt: skip
            await ws.send(encode(Register.of(account.name, account.public_key)))
            async with asyncio.timeout(ANSWER_SECONDS):
                answer = parse_message(await ws.recv())
    except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as error:
        raise RegisterError(unreachable(server, error)) from None
    except InvalidURI as error:
        raise RegisterError(str(error)) from None
    except ProtocolError as error:
        raise RegisterError(f"the server at {server} broke the protocol: {error}") from None
    if isinstance(answer, AccountMessage):
        return answer.name
    if isinstance(answer, ErrorMessage):
        if answer.code in (ErrorCode.BAD_REQUEST, ErrorCode.NO_ROOM):
            raise RegisterError(
                f"the server at {server} does not know accounts ({answer.message})", answer.code
            )
        raise RegisterError(answer.message, answer.code)
    raise RegisterError(f"the server at {server} broke the protocol: {type(answer).__name__}")


# ------------------------------------------------------------------ events for the front end


@dataclass(frozen=True)
class LobbyChanged:
    """Who sits in the room before the game starts (``None``: a free seat, for a bot)."""

    room: str
    seats: tuple[tuple[str, bool] | None, ...]
    """Each seat's person and whether they are connected now."""
    rules: Rules
    bot: str
    here: int | None = None
    """The player at this front end (``None``: watching)."""
    locked: bool = False
    """True while the host keeps the table closed to new players."""
    public: bool = False
    """True for a table listed in the lobby (``coloretto lobby``)."""
    rated: bool = False
    """True for a table whose games change its accounts' ratings."""
    fill_in: float | None = None
    """Seconds until bots fill the free seats and the game starts (``None``: when the
    host starts it)."""
    clock: Clock | None = None
    """The speed profile its game will be played at (``None``: no clock)."""


@dataclass(frozen=True)
class GameStarted:
    """The game has started (or was joined in progress, or the match's next game was
    dealt): the table has a view now, the new game's."""


@dataclass(frozen=True)
class SeatRefused:
    """The table ends: the server will not seat us (no such room, a wrong token, a full
    room...), or no longer (removed, the seat taken up elsewhere), or cannot be reached."""

    message: str


@dataclass(frozen=True)
class Rated:
    """The ratings changed after the game on the table, a rated one: each account's
    before and after (``RemoteTable.rated`` keeps them for the score screen)."""

    changes: tuple[RatingChange, ...]


RoomEvent = LobbyChanged | GameStarted | SeatRefused | Rated | Event


def unreachable(server: str, error: BaseException) -> str:
    """Why the server at ``server`` could not be reached at all, for the person joining.

    >>> print(unreachable("ws://h:9", ConnectionRefusedError(111, "refused")))
    cannot reach the server at ws://h:9 (Connection refused): is coloretto server running there?
    """
    if isinstance(error, ssl.SSLCertVerificationError):
        return (
            f"the certificate of the server at {server} is not trusted here "
            f"({error.verify_message}): --cafile names the authority that signed it"
        )
    if isinstance(error, InvalidStatus):
        answer = printable(error.response.body.decode("utf-8", "replace").strip(), 100)
        return (
            f"the server at {server} refused the connection "
            f"(HTTP {error.response.status_code}{': ' + answer if answer else ''})"
        )
    if isinstance(error, ssl.SSLError):
        return f"cannot speak TLS with the server at {server} ({error.reason or error})"
    errno = error.errno if isinstance(error, OSError) else None
    why = os.strerror(errno) if errno else error
    return f"cannot reach the server at {server} ({why}): is coloretto server running there?"


class Pending(NamedTuple):
    """A move chosen and not yet played: its position, the action, and whether it was sent
    (it may have reached the server before the connection dropped)."""

    ply: int
    action: Action
    sent: bool


_ENDS = {
    ErrorCode.REMOVED: "The host removed you from the table",
    ErrorCode.REPLACED: (
        "Your seat was taken up on another connection (the same seat opened elsewhere): "
        "this one is closed"
    ),
    ErrorCode.CROWDED: "The room has too many watchers: try again later",
}
"""The errors that end a table for good (it does not reconnect), in this client's words."""


class RemoteView:
    """The game a screen shows at an online table (a ``TableView``): the real players and
    the game as the table saw it, without the order of the undrawn cards; once the game is
    over, the whole match as its record came (``finish``)."""

    def __init__(
        self,
        config: GameConfig,
        game: GameState,
        room_id: str,
        here: int | None,
        results: Results = (),
    ) -> None:
        self.config = config
        self.id = room_id
        self.match = Match(config.rules, None, game, results)
        self.seat_names: tuple[str, ...] = config.seat_names()
        self.here = here
        """The player at this front end (``None``: watching)."""
        self.away: frozenset[int] = frozenset()
        """The players whose connection is lost (a bot covers for them after a while)."""
        self.out_of_time: frozenset[int] = frozenset()
        """The players who ran out of time too often: a bot plays their moves at once."""

    @property
    def game(self) -> GameState:
        """The game as far as it is known here."""
        return self.match.game

    @property
    def shown_seed(self) -> str:
        """The seed, once the match is over and its record has come (secret until then:
        it would give the deck away)."""
        return shown_seed(self.match)

    @property
    def has_next_game(self) -> bool:
        """True when the current game is over and the match has more games."""
        return has_next_game(self.match)

    def mover(self, seat: int) -> Mover:
        """Who moves ``seat``: the player here, a bot (on the server), another person, or a
        person whose connection is lost."""
        player = self.config.rules.controller(seat)
        if player in self.out_of_time:
            return Mover.BOT
        if player == self.here:
            return Mover.HERE
        if player in self.away:
            return Mover.AWAY
        return Mover.PERSON if self.config.controller(seat).is_human else Mover.BOT


def _progress(match: Match) -> tuple[Rules, int, Results]:
    """A match's rules, the game being played and the earlier games' scores."""
    return match.rules, match.game_number, match.results


MAX_KEYS_FILE = 65536
"""The largest file of seat keys read (a room's holds a few tokens)."""


class SeatKeys:
    """The secret tokens of one's seats, by room and name, in the data directory."""

    def __init__(self, data: DataDir) -> None:
        self.folder = data.root / "online"

    def _path(self, room: str) -> Path:
        if not ROOM_CODE.fullmatch(room):
            raise ValueError(f"not a room code: {room[:20]!r}")
        return self.folder / f"{room}.json"

    def _read(self, path: Path) -> dict[str, Any]:
        """The keys kept in ``path`` (nothing if it is missing, too large or not an object
        of the kind this class writes)."""
        try:
            data = json.loads(read_bounded(path, MAX_KEYS_FILE))
        except (OSError, ValueError, RecursionError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, server: str, room: str, name: str) -> str | None:
        """The token kept for ``name``'s seat in ``room`` on ``server``, if any."""
        seats = self._read(self._path(room)).get(server)
        token = seats.get(name) if isinstance(seats, dict) else None
        return token if isinstance(token, str) and TOKEN.fullmatch(token) else None

    def put(self, server: str, room: str, name: str, token: str | None) -> None:
        """Keep ``token`` (private to this user; ``None`` forgets the one kept: the seat is
        gone); ``OSError`` if the disk refuses."""
        path = self._path(room)
        data = self._read(path)
        seats = data.get(server)
        seats = data[server] = seats if isinstance(seats, dict) else {}
        if token is not None:
            seats[name] = token
        elif seats.pop(name, None) is None:
            return  # nothing to forget
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomically(path, json.dumps(data), mode=0o600)


class RemoteTable:
    """A seat at a room of a game server, as a ``Table`` for the game screen.

    ``opening`` is the first request (``Host``, ``Join`` or ``Watch``, see
    ``docs/protocol.md``); once seated, the table resumes its seat with the token after
    any break. ``run`` (a coroutine, on the front end's event loop) talks to the server;
    listeners are called on that loop.
    """

    def __init__(
        self,
        server: str,
        opening: Opening,
        keeper: Keeper | None = None,
        *,
        tls: ssl.SSLContext | None = None,
        cafile: str | None = None,
    ) -> None:
        self.server = server_url(server)
        self.cafile = cafile
        """The ``--cafile`` this table trusts (said again in ``comeback``)."""
        self.opening = opening
        self.name = opening.name if isinstance(opening, Host | Join) else ""
        self.keeper = keeper or Keeper()
        self.keys = SeatKeys(self.keeper.data)
        self.tls = tls
        self.room = None if isinstance(opening, Host) else opening.room
        self.token: str | None = None
        if self.room is not None and self.name:
            self.token = self.keys.get(self.server, self.room, self.name)
        self.player: int | None = None
        self.away_after = 0.0
        self.next_at: float | None = None
        """Between two games of a match whose host has left: when (``time.monotonic``) the
        server deals the next game itself (``None``: it waits for the host)."""
        self._ws: ClientConnection | None = None
        self._model: PublicGame | None = None
        self._view: RemoteView | None = None
        self._final: Session | None = None
        self._hints: Hints | None = None
        """The hints, kept for the match (made when the first hint is asked for)."""
        self._number = 0
        """The number of the match's game on the table (0: none yet)."""
        self._held: list[MovePlayed] = []
        self.covered: frozenset[int] = frozenset()
        """The actions (by number) of the game on the table that a bot played for a person
        away."""
        self.clock = ClockFace()
        """The game's clock: each player's time left, timeouts, who has left."""
        self.rated: tuple[RatingChange, ...] = ()
        """How the game on the table changed the ratings, once the server told (a rated
        game's; none yet or otherwise)."""
        self._kept = False
        self._sent: int | None = None
        """The position of the move sent on this connection, until its answer comes."""
        self._pending: Pending | None = None
        """The last move chosen and not yet played: sent again after a break if the game
        still stands where it was chosen (``_resend``)."""
        self._seated = False
        """True once this connection was welcomed to its seat."""
        self._listeners: list[Callable[[Any], None]] = []
        self.closed = False
        self.account: Account | None = None
        """This player's account on the server, named in every opening (``None``: a guest,
        and always while watching)."""
        self._account_problem: str | None = None
        if not isinstance(opening, Watch):
            try:
                self.account = load_account(self.keeper.data, self.server)
            except ValueError as error:
                self._account_problem = f"Playing as a guest: {error}."

    # ------------------------------------------------------------------ the Table

    @property
    def view(self) -> RemoteView:
        """The game as the table saw it (once it is over, the whole match, deck and all)."""
        if self._view is None:
            raise RuntimeError("the game has not started yet")
        return self._view

    @property
    def finished(self) -> bool:
        """True once the game is over and its whole record has come (deck and all); in a
        match, until the host deals the next game."""
        return self._final is not None

    @property
    def match_over(self) -> bool:
        """True once the last game of the match is over and its record has come."""
        return self._final is not None and self._final.match.is_over

    @property
    def away(self) -> frozenset[int]:
        """The players whose person has no connection to the server now."""
        return frozenset() if self._view is None else self._view.away

    @property
    def connected(self) -> bool:
        """True while the connection to the server is up."""
        return self._ws is not None

    @property
    def started(self) -> bool:
        """True once the game has started (the table has a view)."""
        return self._view is not None

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with every event from now on (room events as well)."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Call ``listener`` no more (a game screen of the match's game before)."""
        with contextlib.suppress(ValueError):
            self._listeners.remove(listener)

    def _tell(self, event: RoomEvent) -> None:
        for listener in list(self._listeners):
            if listener in self._listeners:  # not unsubscribed by one told before it
                listener(event)

    def legal_actions(self) -> tuple[Action, ...]:
        """What the seat to move may play now."""
        return () if self._model is None else self._model.state.legal_actions()

    def plays_here(self, seat: int) -> bool:
        """True when this player moves ``seat`` (never while watching)."""
        game = self.view.game
        return self.player is not None and game.rules.controller(seat) == self.player

    def act(self, action: Action) -> None:
        """Send ``action`` to the server (the move is played when the server tells it);
        ``IllegalAction`` at once if the rules forbid it."""
        model = self._model
        if model is None:
            raise IllegalAction(IllegalReason.GAME_OVER, "the game has not started")
        model.state.apply(action)  # the rules' reasons, before bothering the server
        if self._sent == model.ply:
            return  # sent already: the answer is on its way
        self._pending = Pending(model.ply, action, sent=self._ws is not None)
        if self._ws is None:
            self._tell(
                TableNews(
                    "Not connected to the server: your move is sent once connected again, if "
                    "the game is still where it was."
                )
            )
            return
        self._send_act(self._ws, model.ply, action)

    def _send_act(self, ws: ClientConnection, ply: int, action: Action) -> None:
        self._sent = ply
        broadcast([ws], encode(Act.of(ply, action)))

    def _resend(self, pending: Pending | None) -> None:
        """Back after a break (the game caught up): send the move chosen while away (or
        sent just as the connection dropped) if the game still stands where it was chosen;
        otherwise say that it was not sent, unless it was played before the break."""
        model = self._model
        if pending is None or model is None:
            return
        ply, action, sent = pending
        if ply == model.ply and not model.state.is_over:
            self._pending = pending._replace(sent=True)
            if self._ws is not None and self._sent != ply:
                self._send_act(self._ws, ply, action)
            return
        moves = model.state.history()
        if sent and ply < len(moves) and ply not in self.covered and moves[ply].action == action:
            return  # it reached the server before the break
        self._tell(TableNews("You were disconnected: that move was not sent (the game went on)."))

    def start(self) -> None:
        """The host starts the game (bots take the free seats)."""
        if self._ws is not None:
            broadcast([self._ws], encode(Start()))

    def next_game(self) -> None:
        """The host deals the match's next game, once the game on the table is over (the
        server tells everyone with the new game)."""
        if self._view is None or not self._view.has_next_game:
            return
        if self._ws is None:
            self._tell(TableNews("Not connected to the server: reconnecting…"))
            return
        number = self._view.match.game_number + 1
        broadcast([self._ws], encode(Next(number)))

    def bots_move(self, seat: int) -> bool:
        """Always False: the bots play on the server."""
        return False

    async def run_bots(self) -> None:
        """Nothing to play here: the server plays the bots."""

    def hint(self) -> Hint:
        """Ask the hint bot, here, about the game as this seat sees it (``advise``)."""
        view = self.view
        if self._hints is None:
            self._hints = Hints(view.config.hint_bot)
        return advise(view, self._hints)

    def set_pace(self, delay: float) -> None:
        """Bots play on the server, at the pace the room's host set: never asked here."""
        raise RuntimeError("the bots of an online game play on the server")

    def keep(self) -> None:
        """Once the game is over: keep it in this player's history and statistics (a
        watcher's own history is for their own games)."""
        final = self._final
        if final is None or self._kept or self.player is None:  # a watcher keeps nothing
            return
        self._kept = True
        problem = self.keeper.finish(final, stood_in=self.stood_in(final))
        self.keeper.release()
        if problem is not None:
            self._tell(NotSaved(problem))

    def stood_in(self, session: Session) -> frozenset[int]:
        """The people of ``session``'s finished game for whom a bot played a move while
        they were away (the game is left out of their statistics)."""
        game = session.game
        moves = game.history()
        players = session.config.players
        return frozenset(
            player
            for ply in self.covered
            if ply < len(moves)
            and players[player := game.rules.controller(moves[ply].player)].is_human
        )

    def remove(self, player: int) -> None:
        """The host removes the person of seat ``player`` before the start."""
        if self._ws is not None:
            broadcast([self._ws], encode(Remove(player)))

    def lock(self, locked: bool) -> None:
        """The host closes the table to new players (``locked``) or opens it again."""
        if self._ws is not None:
            broadcast([self._ws], encode(LockTable.of(locked)))

    @property
    def comeback(self) -> str | None:
        """The command that takes this seat back, from this machine (``None`` while
        watching, before the room is known, or once the match is over).

        >>> table = RemoteTable("127.0.0.1:7787", Join("K7PQ2M", "Ana's"))
        >>> table.player = 1
        >>> print(table.comeback)
        coloretto join K7PQ2M --server 127.0.0.1:7787 --name 'Ana'"'"'s'
        >>> table.cafile = "/home/ana/ca.pem"
        >>> print(table.comeback)
        coloretto join K7PQ2M --server 127.0.0.1:7787 --name 'Ana'"'"'s' --cafile /home/ana/ca.pem
        """
        if self.match_over or self.player is None or self.room is None:
            return None
        server = server_option(self.server)
        words = ["coloretto", "join", self.room, "--server", server, "--name", self.name]
        if self.cafile is not None:
            words += ["--cafile", self.cafile]
        return shlex.join(words)

    def move_lines(self, ply: int, move: Move, before: GameState, after: GameState) -> list[Line]:
        """The move in words (``describe_move``); one a bot played for a person away says
        so: "Jo (a bot, Jo away) drew green."."""
        view = self.view
        lines = describe_move(move, before, after, view.seat_names)
        if ply in self.covered:
            names = list(view.seat_names)
            person = view.config.controller(move.player).name
            names[move.player] = f"{names[move.player]} (a bot, {person} away)"
            lines[0] = describe_move(move, before, after, names)[0]
        return lines

    def back_words(self, plies: int, since: int = 0) -> str:
        """Said on coming back to a game in progress after ``plies`` actions (the last
        ones from ``since`` played while away): how many, and how many of this player's
        a bot played."""
        if self.player is None:
            return f"Watching from move {plies + 1}."
        game = self.view.game
        rules = game.rules
        moves = game.history()
        mine = sum(
            1 for ply in self.covered
            if since <= ply < plies and rules.controller(moves[ply].player) == self.player
        )  # fmt: skip
        if since:
            words = f"You are back: {plies - since} moves were played while you were away"
        else:
            words = f"You are back after {plies} moves"
        if mine and since:
            words += f" (a bot played {'one' if mine == 1 else mine} of yours)"
        elif mine:
            words += f"; a bot played {'one' if mine == 1 else mine} of them for you while away"
        return words + "."

    @property
    def between_games(self) -> bool:
        """True between two games of a match: one is over, the host deals the next."""
        return self._final is not None and not self._final.match.is_over

    def without_you(self) -> str:
        """What goes on at the server once this player has left (a sentence, no full stop).

        >>> table = RemoteTable("127.0.0.1:7787", Join("K7PQ2M", "Ana"))
        >>> table.away_after = 30
        >>> print(table.without_you())
        The game goes on without you (a bot plays for you after 30 s)
        """
        wait = f"{self.away_after:g} s"
        if not self.between_games:
            return f"The game goes on without you (a bot plays for you after {wait})"
        match = self.view.match
        coming = f"game {match.game_number + 1} of {match.rules.games}"
        if self.player == 0:
            return (
                f"If you are not back within {wait}, the server starts {coming} for the "
                "others at the table, and a bot plays for you until you are back"
            )
        host = self.view.config.players[0].name
        return (
            f"The match goes on when {host} starts {coming}; a bot plays for you when it "
            f"is your turn and you have been away {wait}"
        )

    def suspend(self) -> str | None:
        """Leaving: the game goes on at the server; say how to come back."""
        self.closed = True
        if self._ws is not None:
            asyncio.get_running_loop().create_task(self._ws.close())
        comeback = self.comeback
        if comeback is None:
            return None
        return f"{self.without_you()}: {comeback} takes your seat back."

    # ------------------------------------------------------------------ the connection

    async def run(self) -> None:
        """Talk to the server until the table is closed or refused, reconnecting after
        every break (with growing waits)."""
        tries = 0
        news = False
        reached = False
        if self._account_problem is not None:
            self._tell(TableNews(self._account_problem))
        while not self.closed:
            try:
                opening = self._opening()
                url = room_url(self.server, None if isinstance(opening, Host) else opening.room)
                async with connect(
                    url, ssl=self.tls, max_size=MAX_MESSAGE, open_timeout=10,
                    ping_interval=5, ping_timeout=10, compression=None,
                ) as ws:  # fmt: skip
                    await ws.send(encode(await self._signed(ws, opening)))
                    self._ws = ws
                    reached = True
                    self._sent = None
                    self._seated = False
                    tries = 0
                    if news:
                        self._tell(TableNews("Connected again."))
                        news = False
                    async for text in ws:
                        if not self._handle(text):
                            self.closed = True
                            return
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as error:
                if not reached:  # never connected: say so, rather than try for ever
                    self._tell(SeatRefused(unreachable(self.server, error)))
                    return
            except InvalidURI as error:
                self._tell(SeatRefused(str(error)))
                return
            except ProtocolError as error:
                self._tell(SeatRefused(f"the server broke the protocol: {error}"))
                return
            finally:
                self._ws = None
            if self.closed:
                return
            if not news:
                self._tell(TableNews("Connection to the server lost: reconnecting…"))
                news = True
            await asyncio.sleep(RETRY_SECONDS[min(tries, len(RETRY_SECONDS) - 1)])
            tries += 1

    def _opening(self) -> Opening:
        if self.token is not None and self.room is not None:
            return Resume(self.room, self.token)
        return self.opening

    async def _signed(self, ws: ClientConnection, opening: Opening) -> Opening:
        """``opening`` naming this player's account, signed for this connection's challenge
        (asked for first); as it is for a guest, a watcher, or a server that does not know
        accounts (it refuses the challenge: the player is told once, and plays as a
        guest). ``ProtocolError`` if the server answers something else."""
        account = self.account
        if account is None or isinstance(opening, Watch):
            return opening
        await ws.send(encode(Challenge()))
        async with asyncio.timeout(ANSWER_SECONDS):
            answer = parse_message(await ws.recv())
        if isinstance(answer, ErrorMessage):
            self.account = None
            self._tell(TableNews("This server does not know accounts: you play as a guest."))
            return opening
        if not isinstance(answer, ChallengeMessage):
            raise ProtocolError("expected the challenge that was asked for")
        route = opening_route(opening)
        signature = sign_challenge(account, answer.nonce, account.server, route)
        signed: Opening = msgspec.structs.replace(
            opening, account=AccountClaim(account.name, signature)
        )
        return signed

    def _handle(self, text: str | bytes) -> bool:
        """Act on one message from the server; False when the server refuses us.
        ``ProtocolError`` when the message is not exactly right."""
        match parse_message(text):
            case ErrorMessage() as message:
                return self._error(message)
            case WelcomeMessage() as message:
                self._welcome(message)
            case LobbyMessage() as message:
                self._lobby(message)
            case GameMessage() as message:
                self._game(message)
            case MoveMessage() as message:
                self._move(message)
            case OverMessage() as message:
                self._over(message)
            case PresenceMessage() as message:
                self._presence(message.away, message.next_in)
            case RatedMessage() as message:
                self._rated(message)
        return True

    def _error(self, message: ErrorMessage) -> bool:
        """An error frame: news once seated (a move or request refused), else the server
        will not seat us; False when that ends the table (nothing reconnects)."""
        code, text = message.code, message.message
        if code in _ENDS:
            if code is ErrorCode.REMOVED and self.room is not None:
                self.token = None
                with contextlib.suppress(OSError):
                    self.keys.put(self.server, self.room, self.name, None)
            self._tell(SeatRefused(_ENDS[code]))
            return False
        if self._seated:
            self._sent, self._pending = None, None
            if code is ErrorCode.NOT_SAVED and self.started:
                text = "The server could not save that move: try again."
            else:
                text = f"The server refused that: {text}."
            self._tell(TableNews(text))
            return True
        if code is ErrorCode.BAD_TOKEN and self.room is not None:
            self.token = None  # the next try joins afresh
            with contextlib.suppress(OSError):
                self.keys.put(self.server, self.room, self.name, None)
            text += " (your seat is gone)" if self.started else " (the host may have removed you)"
        self._tell(SeatRefused(text))
        return False

    def _welcome(self, message: WelcomeMessage) -> None:
        self.room, self.player = message.room, message.seat
        self._seated = True
        if message.token is not None:
            self.token = message.token
            with contextlib.suppress(OSError):
                self.keys.put(self.server, message.room, self.name, message.token)

    def _lobby(self, message: LobbyMessage) -> None:
        seats = tuple(None if seat is None else (seat.name, seat.present) for seat in message.seats)
        self._tell(
            LobbyChanged(
                str(self.room),
                seats,
                message.rules,
                message.bot,
                self.player,
                message.locked,
                message.public,
                message.rated,
                message.fill_in,
                message.clock,
            )
        )

    def _game(self, message: GameMessage) -> None:
        rules, moves, number = message.rules, message.moves, message.number
        self.away_after = message.away_after
        model = PublicGame(rules, message.setup)
        if number < self._number:
            raise ProtocolError(f"game {number} of the match came after game {self._number}")
        old = self._model
        pending, self._pending = self._pending, None
        self.clock.told(message.timing, time.monotonic())
        if old is None or number > self._number:  # the first game, or the match's next one
            for ply, move in enumerate(moves):
                model.add(ply, move)
            self.covered = message.covered
            before = self._view
            self._model, self._number = model, number
            self._final, self._held, self._kept, self._sent = None, [], False, None
            self.rated = ()
            if pending is not None and not pending.sent:
                self._tell(TableNews("You were disconnected: that move was not sent."))
            self._view = RemoteView(
                message.config, model.state, message.id, self.player, message.results
            )
            if before is not None:
                self._view.away = before.away
            self._view.out_of_time = self.clock.out_of_time()
            self._tell(GameStarted())
        else:  # back after a break: what was missed is told as moves
            seen = old.state.history()
            for ply, move in enumerate(moves[: len(seen)]):
                if model.add(ply, move) != seen[ply]:
                    raise ProtocolError("the game is not the one played before the break")
            self.covered |= message.covered
            for ply in range(len(seen), len(moves)):
                self._move(MoveMessage.of(ply, moves[ply]))
            if len(moves) > len(seen) and not self.finished:
                self._tell(TableNews(self.back_words(len(moves), since=len(seen))))
            self._resend(pending)
        self._presence(message.away, message.next_in)

    def _move(self, message: MoveMessage) -> None:
        model, view = self._model, self._view
        if model is None or view is None:
            raise ProtocolError("a move before the game")
        ply = message.ply
        if ply < model.ply:
            return  # told twice (after a break)
        if self._pending is not None and ply >= self._pending.ply:
            self._pending = None  # played (or another move came first: it was refused)
        if message.covered:
            self.covered |= {ply}
        before = model.state
        move = model.add(ply, message.move)
        mover = before.rules.controller(move.player)
        self.clock.moved(
            mover,
            bank=message.bank,
            timeout=message.timeout,
            left=message.left,
            now=time.monotonic(),
        )
        view.out_of_time = self.clock.out_of_time()
        view.match = replace(view.match, game=model.state)
        lines = self.move_lines(ply, move, before, model.state)
        event = MovePlayed(move, before, tuple(lines))
        if model.state.is_over and self._final is None:
            self._held.append(event)  # told with the end, once the deck is known
        else:
            self._tell(event)
        if (news := self._clock_news(mover, message)) is not None:
            self._tell(TableNews(news))

    def _clock_news(self, player: int, message: MoveMessage) -> str | None:
        """What a move says of its player's clock: their time ran out, they left."""
        if not (message.timeout or message.left):
            return None
        you = player == self.player
        name = "You" if you else self.view.config.players[player].name
        if message.left:
            return (
                f"{name} {'have' if you else 'has'} left the game: a bot plays for "
                f"{'you' if you else 'them'} to its end."
            )
        count = self.clock.timeouts[player] if player < len(self.clock.timeouts) else 1
        return (
            f"{'Your' if you else possessive(name)} time ran out: a bot played that move "
            f"({count} of {MAX_TIMEOUTS}; at {MAX_TIMEOUTS} a bot plays the rest of the game)."
        )

    def _over(self, message: OverMessage) -> None:
        model = self._model
        if model is None or not model.state.is_over:
            raise ProtocolError("the end before the last move")
        if self._final is not None:
            return  # told again after a break: the screens have the game's end already
        try:
            record = load_record(message.record)
            final = session_from_record(record)
        except RecordError as error:
            raise ProtocolError(f"the game's record: {error}") from None
        if record.state.history() != model.state.history():
            raise ProtocolError("the game's record is not the game played")
        if _progress(final.match) != _progress(self.view.match):
            raise ProtocolError("the game's record is not of the match played")
        self._final = final
        self.view.match = final.match  # the whole match now: the deck, and the seed if shown
        self.keep()
        held, self._held = self._held, []
        for event in held:
            self._tell(event)

    def _rated(self, message: RatedMessage) -> None:
        """The ratings after the game just over (a message about another game, or the
        seats of another table, is old news: left out)."""
        view = self._view
        if self._final is None or view is None or message.game != view.match.game_number:
            return
        changes = tuple(c for c in message.changes if c.seat < view.game.rules.players)
        if changes and changes != self.rated:
            self.rated = changes
            self._tell(Rated(changes))

    def _presence(self, away: tuple[int, ...], wait: float | None) -> None:
        """Who is away now, and when the server deals the match's next game itself."""
        if self._view is None:
            return
        names = self._view.config.players
        now = frozenset(p for p in away if p < len(names))
        before = self._view.away
        self._view.away = now  # before the news: a screen redraws on it
        dealing = wait is not None and self.next_at is None
        self.next_at = None if wait is None else time.monotonic() + wait
        if dealing and wait is not None:
            match = self._view.match
            host = names[0].name
            coming = f"game {match.game_number + 1} of {match.rules.games} starts in {wait:.0f} s"
            if 0 not in now:  # a table with a clock: the host may deal it sooner
                who = "you deal" if self.player == 0 else f"{host} deals"
                self._tell(TableNews(f"{coming.capitalize()}, unless {who} it sooner."))
            elif self.player != 0:
                self._tell(
                    TableNews(
                        f"{host} has left: {coming} (a bot plays for {host} until they are back)."
                    )
                )
        for player in sorted(now - before):
            if player == 0 and dealing:
                continue  # said above
            if player != self.player:
                name = names[player].name
                self._tell(
                    TableNews(
                        f"{name} is away: a bot plays for {name} after {self.away_after:g} s "
                        "until they are back."
                    )
                )
        for player in sorted(before - now):
            if player != self.player:
                self._tell(TableNews(f"{names[player].name} is back."))
