"""The game screen at an online table: the same board and keys, in the words of the one
player at this front end ("Your turn (Ana): …", their seat marked "you"; another person's
turn is theirs to play, not a bot's to think about)."""

from __future__ import annotations

from rich.text import Text

from coloretto.online.client import RemoteTable, RemoteView
from coloretto.play.config import possessive
from coloretto.play.table_view import Mover
from coloretto.tui.prompt import turn_prompt
from coloretto.tui.screens.game import GameScreen
from coloretto.tui.table import show_table


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
        return "" if self.view.game.is_over else self.remote.back_words(moves)

    def refresh_table(self) -> None:
        """Redraw everything, in this player's words, their own seat marked."""
        view = self.remote.view
        prompt = online_turn_prompt(view, away_after=self.remote.away_after, plain=self.plain)
        show_table(self, view, fresh_row=self._fresh_row, prompt=prompt, you=self.remote.player)
