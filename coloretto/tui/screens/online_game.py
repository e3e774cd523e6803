"""The game screen at an online table: the same board and keys, in the words of the one
player at this front end ("Your turn (Ana): …", their seat marked "you"; another person's
turn is theirs to play, not a bot's to think about)."""

from __future__ import annotations

import time

from rich.text import Text

from coloretto.online.client.clock_face import ClockFace, clock_text
from coloretto.online.client.remote_table import RemoteTable, RemoteView
from coloretto.online.wire.clock import MAX_TIMEOUTS
from coloretto.play.config import possessive
from coloretto.play.table_view import Mover
from coloretto.tui.prompt import turn_prompt
from coloretto.tui.screens.game import GameScreen
from coloretto.tui.table import show_table
from coloretto.tui.widgets.bars import TurnBar


def online_turn_prompt(session: RemoteView, *, away_after: float, plain: bool = False) -> Text:
    """Whose turn it is, as the player at this front end reads it: their own ("Your turn
    (Ana): draw a card (d)…"), another person's ("Ben's turn: waiting for their move…"),
    or a bot's ("Bot 1 is thinking…"); a watcher sees every turn as another's.
    ``away_after``: the seconds after which a bot plays for a person away."""
    game = session.game
    prompt = turn_prompt(session, plain=plain)
    if game.is_over:
        return prompt
    seat = game.current_player
    player = game.rules.controller(seat)
    if player in session.out_of_time:
        if player == session.here:
            return Text(
                f"Your turn ({session.seat_names[seat]}): a bot plays it for you to the end "
                f"of the game (you ran out of time {MAX_TIMEOUTS} times)…"
            )
        name = session.config.players[player].name
        return Text(
            f"{possessive(session.seat_names[seat])} turn: a bot plays it for {name} to the "
            f"end of the game (out of time {MAX_TIMEOUTS} times)…"
        )
    if session.mover(seat) is Mover.HERE:
        return _own_turn(session, seat, prompt)
    if not session.config.controller(seat).is_human:
        return prompt  # a bot thinks (on the server)
    head = f"{possessive(session.seat_names[seat])} turn: "
    mover = session.config.controller(seat).name
    if game.rules.controller(seat) in session.away:
        return Text(
            f"{head}{mover} is away (a bot plays once they have been away {away_after:g} s)…"
        )
    if seat >= game.rules.players:  # a ghost, played by its partner
        return Text(f"{head}waiting for {possessive(mover)} move…")
    return Text(f"{head}waiting for their move…")


def with_clock(
    prompt: Text, view: RemoteView, clock: ClockFace, now: float, *, plain: bool = False
) -> Text:
    """``prompt`` with the time the player to move has left ("· 2:41 left"), at a table
    with a clock (its last 10 seconds in red, unless ``plain``)."""
    game = view.game
    if clock.clock is None or game.is_over:
        return prompt
    mover = game.rules.controller(game.current_player)
    left = clock.time_left(mover, mover, now)
    if left is None or not view.config.players[mover].is_human or mover in view.out_of_time:
        return prompt
    style = "bold red" if left <= 10 and not plain else ""
    return Text.assemble(prompt, " · ", Text(f"{clock_text(left)} left", style))


def _own_turn(session: RemoteView, seat: int, prompt: Text) -> Text:
    """``prompt`` (``turn_prompt``'s words, "Ana's turn: …") with "Your turn (Ana)" for
    its head."""
    name = session.seat_names[seat]
    head = f"{possessive(name)} turn"
    if seat >= session.game.rules.players:
        head += f" ({session.config.controller(seat).name} plays it)"
        mine = "Your ghost's turn (you play it)"
    else:
        mine = f"Your turn ({name})"
    if not prompt.plain.startswith(head):
        return prompt
    return Text.assemble(Text(mine, "bold"), prompt[len(head) :])


class OnlineGameScreen(GameScreen):
    """The game screen of one seat at a room of a game server (or of a watcher)."""

    CSS_PATH = "game.tcss"

    def __init__(self, table: RemoteTable) -> None:
        super().__init__(table)
        self.remote = table
        """The table, as the online table it is."""

    def resumed_words(self, moves: int) -> str:
        """How many moves were played while away, and how many of this player's a bot
        played (nothing once the game is over)."""
        return "" if self.view.game.is_over else self.remote.machine.back_words(moves)

    def on_mount(self) -> None:
        """Count the clock down (Textual calls ``GameScreen.on_mount`` as well)."""
        self.set_interval(1.0, self._tick)

    def _prompt(self) -> Text:
        view, machine = self.remote.view, self.remote.machine
        prompt = online_turn_prompt(view, away_after=machine.away_after, plain=self.plain)
        return with_clock(prompt, view, machine.clock, time.monotonic(), plain=self.plain)

    def _tick(self) -> None:
        """The clock of the player to move, counting down (a table with a clock)."""
        if self.remote.machine.clock.clock is not None and self.remote.started:
            waiting = self.view.mover(self.view.game.current_player) is not Mover.HERE
            self.query_one(TurnBar).show(self._prompt(), waiting=waiting)

    def refresh_table(self) -> None:
        """Redraw everything, in this player's words, their own seat marked."""
        view = self.remote.view
        show_table(
            self, view, fresh_row=self._fresh_row, prompt=self._prompt(), you=self.remote.player
        )
