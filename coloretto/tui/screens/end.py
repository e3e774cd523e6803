"""The score screen at the end of a game: every breakdown, the winner, the match so far."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from coloretto.engine import Card, RecordError, Variant, read_record
from coloretto.play.config import YOU, possessive
from coloretto.play.keeper import Keeper
from coloretto.play.saving import session_record
from coloretto.play.session import Session
from coloretto.store.paths import DataDir
from coloretto.store.saves import history_path
from coloretto.tui.screens.review import ReviewScreen
from coloretto.tui.widgets import Notice, ScoreCard

EndChoice = Literal["next", "rematch", "setup", "board", "quit"]
"""What the player chose on the score screen."""


def names_and(names: Sequence[str]) -> str:
    """``"Ana"``, ``"Ana and Ben"``, ``"Ana, Ben and Cy"``.

    >>> names_and(["Ana", "Ben", "Cy"])
    'Ana, Ben and Cy'
    """
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" and {names[-1]}"


def _win(names: Sequence[str]) -> str:
    """``"Ana wins"``, ``"You win"``, ``"Ana and Ben share the win"``."""
    if len(names) > 1:
        return f"{names_and(names)} share the win"
    return f"{names[0]} {'win' if names[0] == YOU else 'wins'}"


def _ordinal(n: int) -> str:
    """``"2nd"``.

    >>> [_ordinal(n) for n in (1, 2, 3, 4)]
    ['1st', '2nd', '3rd', '4th']
    """
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n, "th")
    return f"{n}{suffix}"


def headline(session: Session) -> list[Text]:
    """Who won the game (and the match, once it is over), in words."""
    game = session.game
    rules = game.rules
    names = session.seat_names
    lines: list[Text] = []
    scores = game.final_scores()
    prefix = f"Game {session.match.game_number} of {rules.games}: " if rules.games > 1 else ""
    ghost = rules.variant is Variant.GHOST
    outcome = game.outcome()
    assert outcome is not None
    # A player's name is their seat's (a ghost's partner is its player).
    who = [names[p] for p in outcome.winners]
    total = "a team total of " if ghost else ""
    lines.append(Text(f"{prefix}{_win(who)} with {total}{outcome.best} points!", style="bold"))
    people = [s for s in range(rules.players) if session.config.players[s].is_human]
    if len(people) == 1 and not ghost:
        (seat,) = people
        place = 1 + sum(score > scores[seat] for score in scores)
        if place > 1:
            lines.append(
                Text(
                    f"{names[seat]} came {_ordinal(place)} of {rules.seats} "
                    f"with {scores[seat]} points."
                )
            )
    match = session.match.outcome()
    if rules.games > 1 and match is not None:
        who = [names[p] for p in match.winners]
        lines.append(Text(f"{_win(who)} the match with {match.best} points!", style="bold reverse"))
    return lines


def standings(session: Session) -> Group | None:
    """Each game's scores and the totals (for a match), and the teams' totals (ghost
    variant), one line per team."""
    rules = session.game.rules
    names = session.seat_names
    match = session.match
    parts: list[Table] = []
    if rules.games > 1:
        table = Table(expand=False, box=None, padding=(0, 1), pad_edge=False)
        table.add_column("Match", no_wrap=True, style="bold")
        for name in names:
            table.add_column(Text(name), justify="right", no_wrap=True)
        results = [*match.results, session.game.final_scores()]
        for number, scores in enumerate(results, start=1):
            table.add_row(f"Game {number}", *(str(v) for v in scores))
        played = f"after {len(results)} of {rules.games}" if not match.is_over else "final"
        table.add_row(
            Text(f"Total ({played})", style="bold"),
            *(Text(str(v), style="bold") for v in match.totals()),
        )
        parts.append(table)
    if rules.variant is Variant.GHOST:
        totals = match.totals()
        teams = Table(expand=False, box=None, padding=(0, 1), pad_edge=False)
        teams.add_column("Teams", no_wrap=True, style="bold")
        teams.add_column("Seats")
        teams.add_column("Points", justify="right", no_wrap=True)
        for player, team in zip(session.config.players, rules.teams, strict=True):
            teams.add_row(
                Text(f"{possessive(player.name)} team"),
                Text(" + ".join(names[s] for s in team)),
                Text(str(sum(totals[s] for s in team)), style="bold"),
            )
        parts.append(teams)
    return Group(*parts) if parts else None


class EndScreen(Screen[EndChoice]):
    """Each seat's breakdown, the winner, match totals, and keys for what comes next."""

    CSS_PATH = "end.tcss"
    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("n", "choose('next')", "Next game", id="next-game"),
        Binding("r", "choose('rematch')", "Rematch", id="rematch"),
        Binding("s", "choose('setup')", "New setup", id="new-setup"),
        Binding("b,escape", "choose('board')", "Board", id="board"),
        Binding("v", "review", "Review", id="review-game"),
        Binding("q", "choose('quit')", "Quit", id="quit-end"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        """Headline, one score card per seat, standings, message line and keys."""
        with VerticalScroll(id="end"):
            yield Static(id="headline")
            with Horizontal(id="cards"):
                for seat in range(self.session.game.rules.seats):
                    yield ScoreCard(seat)
            yield Static(
                "+ plus, - minus · 5+1: five cards and a joker · * → Y: a joker counted as Y",
                id="end-key",
            )
            yield Static(id="standings")
        yield Notice(id="end-notice")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Fill in the results."""
        session = self.session
        game = session.game
        plain = self.app.no_color
        outcome = game.outcome()
        assert outcome is not None
        for card in self.query(ScoreCard):
            seat = card.seat
            card.show(
                session.seat_names[seat],
                game.score_breakdown(seat),
                golden=game.collection(seat).get(Card.GOLDEN_JOKER, 0),
                winner=game.rules.controller(seat) in outcome.winners,  # a ghost's team wins
                plain=plain,
            )
        self.query_one("#headline", Static).update(Text("\n").join(headline(session)))
        table = standings(session)
        standings_view = self.query_one("#standings", Static)
        standings_view.display = table is not None
        if table is not None:
            standings_view.update(table)
        self.query_one(Notice).say(self._keys_text())

    def _keys_text(self) -> str:
        seed = f"(seed {self.session.seed})"
        if self.session.has_next_game:
            return f"n: next game · r: new match · v: review · b: board · q: quit {seed}"
        return f"r: rematch · s: new setup · v: review · b: board · q: quit {seed}"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``n`` only while the match has games to come."""
        if action == "choose" and parameters and parameters[0] == "next":
            return self.session.has_next_game
        return True

    def action_review(self) -> None:
        """``v``: the coach reviews this game (kept in its record in the history)."""
        session = self.session
        keeper = getattr(self.app, "keeper", None)
        data = keeper.data if isinstance(keeper, Keeper) else DataDir.default()
        number = session.match.game_number if session.game.rules.games > 1 else None
        kept = history_path(data, session.id, number)
        try:
            self.app.push_screen(ReviewScreen(read_record(kept), kept, data))
        except RecordError:  # not kept (the disk refused): reviewed all the same, not kept
            self.app.push_screen(ReviewScreen(session_record(session), None, data))

    def action_choose(self, choice: EndChoice) -> None:
        """Leave the score screen with ``choice``."""
        self.dismiss(choice)

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing here says which keys do."""
        active = self.active_bindings.get(event.key)
        if active is not None and active.enabled:
            return
        event.stop()
        self.query_one(Notice).say(self._keys_text(), "error")
