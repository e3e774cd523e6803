"""A seat at an online table without its connection: ``ClientMachine``.

In the manner of h11 and wsproto, the machine does no IO: what the server says goes in
(``receive``, with the time it came), and so do the player's wishes (``act``,
``next_game``) and the connection's ups and downs (``connected``, ``disconnected``); what
comes out is a list of effects, for the shell around it (``RemoteTable``) to carry out:
requests to send (``Send``), events for the screens (``RoomEvent``), a seat's token to
keep or forget (``KeepToken``), a finished game to keep (``KeepGame``). The game lives
in one place, the ``RemoteView`` of the game on the table; a message that breaks the
protocol ends the table with ``SeatRefused`` saying what was wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from coloretto.engine import (
    Action,
    IllegalAction,
    IllegalReason,
    Match,
    RecordError,
    Rules,
    load_record,
)
from coloretto.online.client.clock_face import ClockFace
from coloretto.online.client.view import RemoteView
from coloretto.online.client.words import (
    ENDS,
    back_words,
    clock_news,
    move_lines,
    presence_news,
    without_you,
)
from coloretto.online.wire.clock import Clock
from coloretto.online.wire.messages import (
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
from coloretto.online.wire.protocol import (
    Act,
    ErrorCode,
    Host,
    Next,
    Opening,
    ProtocolError,
    Request,
    Resume,
)
from coloretto.online.wire.public import PublicGame, Results
from coloretto.play.saving import session_from_record
from coloretto.play.table import Event, MovePlayed, TableNews

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
    room...), or no longer (removed, the seat taken up elsewhere), or cannot be reached,
    or broke the protocol."""

    message: str


@dataclass(frozen=True)
class Rated:
    """The ratings changed after the game on the table, a rated one: each account's
    before and after (the view's ``rated`` keeps them for the score screen)."""

    changes: tuple[RatingChange, ...]


RoomEvent = LobbyChanged | GameStarted | SeatRefused | Rated | Event

# ------------------------------------------------------------------ effects for the shell


@dataclass(frozen=True)
class Send:
    """Send ``request`` to the server (dropped if the connection is down)."""

    request: Request


@dataclass(frozen=True)
class KeepToken:
    """Keep the secret token of this player's seat in ``room`` (``None``: forget it)."""

    room: str
    token: str | None


@dataclass(frozen=True)
class KeepGame:
    """The game on the table is over and its record came: keep it in this player's
    history (``RemoteTable.keep``)."""


Effect = Send | KeepToken | KeepGame | RoomEvent


class Pending(NamedTuple):
    """A move chosen and not yet played: its position, the action, and whether it was sent
    (it may have reached the server before the connection dropped)."""

    ply: int
    action: Action
    sent: bool


def _progress(match: Match) -> tuple[Rules, int, Results]:
    """A match's rules, the game being played and the earlier games' scores."""
    return match.rules, match.game_number, match.results


class ClientMachine:
    """One seat (or a watcher) at a room, as a state machine: messages and wishes in,
    effects out (see the module). ``opening`` is the first request (``Host``, ``Join`` or
    ``Watch``); ``token``, the seat's secret token kept from before (then the first
    request resumes the seat).

    >>> from coloretto.online.wire.protocol import Join
    >>> machine = ClientMachine(Join("K7PQ2M", "Jo"))
    >>> machine.connected()
    []
    >>> machine.receive('{"type": "error", "code": "no-room", "message": "no room"}', 0.0)
    [SeatRefused(message='no room')]
    >>> machine.ended
    True
    """

    def __init__(self, opening: Opening, token: str | None = None) -> None:
        self.opening = opening
        self.room = None if isinstance(opening, Host) else opening.room
        self.token = token
        self.player: int | None = None
        """This player's number at the table (``None``: watching, or not seated yet)."""
        self.away_after = 0.0
        """Seconds after which a bot plays for a person away."""
        self.next_at: float | None = None
        """Between two games of a match whose host has left: when (the clock of ``now``)
        the server deals the next game itself (``None``: it waits for the host)."""
        self.clock = ClockFace()
        """The game's clock: each player's time left, timeouts, who has left."""
        self.ended = False
        """True once the table ends (refused, removed, the protocol broken)."""
        self._view: RemoteView | None = None
        self._held: list[MovePlayed] = []
        """The last move's events, told with the game's end once its record comes."""
        self._online = False
        self._lost = False
        """True once the connection was lost, until it is up again."""
        self._seated = False
        """True once this connection was welcomed to its seat."""
        self._sent: int | None = None
        """The position of the move sent on this connection, until its answer comes."""
        self._pending: Pending | None = None
        """The last move chosen and not yet played: sent again after a break if the game
        still stands where it was chosen (``_resend``)."""
        self._out: list[Effect] = []

    # ------------------------------------------------------------------ what it knows

    @property
    def view(self) -> RemoteView | None:
        """The game on the table (``None``: not started yet)."""
        return self._view

    @property
    def finished(self) -> bool:
        """True once the game is over and its whole record has come (deck and all); in a
        match, until the next game is dealt."""
        return self._view is not None and self._view.final is not None

    @property
    def match_over(self) -> bool:
        """True once the last game of the match is over and its record has come."""
        return self.finished and self._view is not None and self._view.match.is_over

    @property
    def between_games(self) -> bool:
        """True between two games of a match: one is over, the host deals the next."""
        return self.finished and not self.match_over

    @property
    def away(self) -> frozenset[int]:
        """The players whose person has no connection to the server now."""
        return frozenset() if self._view is None else self._view.away

    def first_request(self) -> Opening:
        """What a new connection opens with: the seat's token once there is one, else
        the opening."""
        if self.token is not None and self.room is not None:
            return Resume(self.room, self.token)
        return self.opening

    def without_you(self) -> str:
        """What goes on at the server once this player has left (a sentence, no full stop)."""
        between = self._view if self.between_games else None
        return without_you(self.away_after, self.player, between)

    def back_words(self, plies: int, since: int = 0) -> str:
        """Said on coming back to the game after ``plies`` actions (the last ones from
        ``since`` played while away)."""
        if self._view is None:
            raise RuntimeError("the game has not started yet")
        return back_words(self._view, self.player, plies, since)

    # ------------------------------------------------------------------ what goes in

    def connected(self) -> list[Effect]:
        """A new connection is up (its first request sent)."""
        self._online, self._seated, self._sent = True, False, None
        if not self._lost:
            return []
        self._lost = False
        return [TableNews("Connected again.")]

    def disconnected(self) -> list[Effect]:
        """The connection is down (it is tried again)."""
        self._online = False
        if self._lost:
            return []
        self._lost = True
        return [TableNews("Connection to the server lost: reconnecting…")]

    def receive(self, data: str | bytes, now: float) -> list[Effect]:
        """One frame from the server, come at ``now`` (seconds, ``time.monotonic``)."""
        self._out = []
        try:
            match parse_message(data):
                case ErrorMessage() as message:
                    self._error(message)
                case WelcomeMessage() as message:
                    self._welcome(message)
                case LobbyMessage() as message:
                    self._lobby(message)
                case GameMessage() as message:
                    self._game(message, now)
                case MoveMessage() as message:
                    self._move(message, now)
                case OverMessage() as message:
                    self._over(message)
                case PresenceMessage() as message:
                    self._presence(message.away, message.next_in, now)
                case RatedMessage() as message:
                    self._rated(message)
        except ProtocolError as error:
            self._out.append(SeatRefused(f"the server broke the protocol: {error}"))
            self.ended = True
        out, self._out = self._out, []
        return out

    def act(self, action: Action) -> list[Effect]:
        """The player plays ``action`` (sent to the server, played when it tells);
        ``IllegalAction`` at once if the rules forbid it."""
        view = self._view
        if view is None:
            raise IllegalAction(IllegalReason.GAME_OVER, "the game has not started")
        view.game.apply(action)  # the rules' reasons, before bothering the server
        ply = view.game.ply
        if self._sent == ply:
            return []  # sent already: the answer is on its way (or it is sent again)
        self._pending = Pending(ply, action, sent=self._online)
        if not self._online:
            text = (
                "Not connected to the server: your move is sent once connected again, if "
                "the game is still where it was."
            )
            return [TableNews(text)]
        self._sent = ply
        return [Send(Act.of(ply, action))]

    def next_game(self) -> list[Effect]:
        """The host deals the match's next game, once the game on the table is over."""
        view = self._view
        if view is None or not view.has_next_game:
            return []
        if not self._online:
            return [TableNews("Not connected to the server: reconnecting…")]
        return [Send(Next(view.match.game_number + 1))]

    # ------------------------------------------------------------------ each message

    def _error(self, message: ErrorMessage) -> None:
        """An error frame: news once seated (a move or request refused), else the server
        will not seat us; some end the table for good."""
        code = message.code
        text = message.message or f"no reason given ({code.value})"
        if code in ENDS or not self._seated:
            if code in (ErrorCode.REMOVED, ErrorCode.BAD_TOKEN) and self.room is not None:
                self.token = None  # nothing left to resume; the next try joins afresh
                self._out.append(KeepToken(self.room, None))
                if code is ErrorCode.BAD_TOKEN:
                    gone = self._view is not None
                    text += " (your seat is gone)" if gone else " (the host may have removed you)"
            self._out.append(SeatRefused(ENDS.get(code, text)))
            self.ended = True
            return
        self._sent, self._pending = None, None
        if code is ErrorCode.NOT_SAVED and self._view is not None:
            text = "The server could not save that move: try again."
        else:
            text = f"The server refused that: {text}."
        self._out.append(TableNews(text))

    def _welcome(self, message: WelcomeMessage) -> None:
        self.room, self.player = message.room, message.seat
        self._seated = True
        if message.token is not None:
            self.token = message.token
            self._out.append(KeepToken(message.room, message.token))

    def _lobby(self, message: LobbyMessage) -> None:
        seats = tuple(None if seat is None else (seat.name, seat.present) for seat in message.seats)
        self._out.append(
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

    def _game(self, message: GameMessage, now: float) -> None:
        """The game on the table: a new one (the first, or the match's next), or the one
        played before a break, caught up."""
        old = self._view
        number = message.number
        public = PublicGame(message.rules, message.setup)
        if old is not None and number < old.match.game_number:
            raise ProtocolError(
                f"game {number} of the match came after game {old.match.game_number}"
            )
        self.away_after = message.away_after
        pending, self._pending = self._pending, None
        self.clock.told(message.timing, now)
        if old is None or number > old.match.game_number:
            for ply, move in enumerate(message.moves):
                public.add(ply, move)
            view = RemoteView(
                message.config, public.state, message.id, self.player, message.results,
                public=public,
            )  # fmt: skip
            view.covered = frozenset(message.covered)
            view.away = frozenset() if old is None else old.away
            view.out_of_time = self.clock.out_of_time()
            self._view, self._held, self._sent = view, [], None
            if pending is not None and not pending.sent:
                self._out.append(TableNews("You were disconnected: that move was not sent."))
            self._out.append(GameStarted())
        else:  # back after a break: what was missed is told as moves
            seen = old.game.history()
            for ply, move in enumerate(message.moves[: len(seen)]):
                if public.add(ply, move) != seen[ply]:
                    raise ProtocolError("the game is not the one played before the break")
            old.covered |= message.covered
            for ply in range(len(seen), len(message.moves)):
                self._move(MoveMessage.of(ply, message.moves[ply]), now)
            if len(message.moves) > len(seen) and not self.finished:
                self._out.append(
                    TableNews(back_words(old, self.player, len(message.moves), len(seen)))
                )
            self._resend(pending)
        self._presence(message.away, message.next_in, now)

    def _move(self, message: MoveMessage, now: float) -> None:
        view = self._view
        if view is None:
            raise ProtocolError("a move before the game")
        ply = message.ply
        if ply < view.game.ply:
            return  # told twice (after a break)
        if self._pending is not None and ply >= self._pending.ply:
            self._pending = None  # played (or another move came first: it was refused)
        if message.covered:
            view.covered |= {ply}
        before = view.game
        move = view.add(ply, message.move)
        mover = before.rules.controller(move.player)
        self.clock.moved(
            mover, bank=message.bank, timeout=message.timeout, left=message.left, now=now
        )
        view.out_of_time = self.clock.out_of_time()
        event = MovePlayed(move, before, tuple(move_lines(view, ply, move, before, view.game)))
        if view.game.is_over:
            self._held.append(event)  # told with the end, once the deck is known
        else:
            self._out.append(event)
        if message.timeout or message.left:
            timeouts = self.clock.timeouts
            name = None if mover == self.player else view.config.players[mover].name
            count = timeouts[mover] if mover < len(timeouts) else 1
            self._out.append(TableNews(clock_news(name, count, left=message.left)))

    def _over(self, message: OverMessage) -> None:
        view = self._view
        if view is None or not view.game.is_over:
            raise ProtocolError("the end before the last move")
        if view.final is not None:
            return  # told again after a break: the screens have the game's end already
        try:
            record = load_record(message.record)
            final = session_from_record(record)
        except RecordError as error:
            raise ProtocolError(f"the game's record: {error}") from None
        if record.state.history() != view.game.history():
            raise ProtocolError("the game's record is not the game played")
        if _progress(final.match) != _progress(view.match):
            raise ProtocolError("the game's record is not of the match played")
        view.finish(final)
        self._out.append(KeepGame())
        self._out += self._held
        self._held = []

    def _rated(self, message: RatedMessage) -> None:
        """The ratings after the game just over (a message about another game, or the
        seats of another table, is old news: left out)."""
        view = self._view
        if view is None or view.final is None or message.game != view.match.game_number:
            return
        changes = tuple(c for c in message.changes if c.seat < view.game.rules.players)
        if changes and changes != view.rated:
            view.rated = changes
            self._out.append(Rated(changes))

    def _presence(self, away: tuple[int, ...], wait: float | None, now: float) -> None:
        """Who is away now, and when the server deals the match's next game itself."""
        view = self._view
        if view is None:
            return
        before = view.away
        view.away = frozenset(p for p in away if p < len(view.config.players))
        dealing = wait if wait is not None and self.next_at is None else None
        self.next_at = None if wait is None else now + wait
        news = presence_news(view, self.player, before, self.away_after, dealing)
        self._out += [TableNews(text) for text in news]

    def _resend(self, pending: Pending | None) -> None:
        """Back after a break (the game caught up): send the move chosen while away (or
        sent just as the connection dropped) if the game still stands where it was chosen;
        otherwise say that it was not sent, unless it was played before the break."""
        view = self._view
        if pending is None or view is None:
            return
        ply, action, sent = pending
        if ply == view.game.ply and not view.game.is_over:
            self._pending = pending._replace(sent=True)
            if self._online and self._sent != ply:
                self._sent = ply
                self._out.append(Send(Act.of(ply, action)))
            return
        moves = view.game.history()
        if sent and ply < len(moves) and ply not in view.covered and moves[ply].action == action:
            return  # it reached the server before the break
        self._out.append(
            TableNews("You were disconnected: that move was not sent (the game went on).")
        )
