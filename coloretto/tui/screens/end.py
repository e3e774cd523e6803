"""The score screen at the end of a game: every breakdown, the winner, the match so far."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Grid, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from coloretto.engine import Card, RecordError
from coloretto.engine.outcome import Outcome
from coloretto.play.config import YOU
from coloretto.play.saving import session_record
from coloretto.play.table_view import TableView
from coloretto.play.words import names_and, ordinal, rules_in_words
from coloretto.store.history import history_path
from coloretto.store.paths import DataDir
from coloretto.store.records import read_record
from coloretto.tui.screens.dialogs import ConfirmRematch
from coloretto.tui.screens.review import ReviewScreen
from coloretto.tui.services import services
from coloretto.tui.widgets import KeysBar, Notice, ScoreCard
from coloretto.tui.widgets.score_card import legend
from coloretto.tui.widgets.seats import MINUS

if TYPE_CHECKING:
    from coloretto.online.wire.messages import RatingChange

GROWTH = 8
"""The most cells a score card grows wider than its content needs (a wide terminal)."""

EndChoice = Literal["next", "rematch", "setup", "board", "quit"]
"""What the player chose on the score screen."""


def _win(names: Sequence[str]) -> str:
    """``"Ana wins"``, ``"You win"``, ``"Ana and Ben share the win"``."""
    if len(names) > 1:
        return f"{names_and(names)} share the win"
    return f"{names[0]} {'win' if names[0] == YOU else 'wins'}"


def place_title(outcome: Outcome, player: int, *, short: bool = False) -> str:
    """A score card's title: ``"2nd"``, or ``"shared 2nd"`` on a tie (``short``: ``"=2nd"``,
    as sports tables mark a tie).

    >>> outcome = Outcome.of([23, 31, 31, 40])
    >>> place_title(outcome, 1), place_title(outcome, 0), place_title(outcome, 1, short=True)
    ('shared 2nd', '4th', '=2nd')
    """
    place = ordinal(outcome.place(player))
    if not outcome.tied_with(player):
        return place
    return f"{'=' if short else 'shared '}{place}"


def place_line(names: Sequence[str], outcome: Outcome, player: int) -> str:
    """``"You came 3rd of 4 with 24 points."``, or who shares that place (``names``: the
    seats', player ``p`` sitting in seat ``p``)."""
    place, total = ordinal(outcome.place(player)), outcome.totals[player]
    tied = outcome.tied_with(player)
    if not tied:
        return f"{names[player]} came {place} of {len(outcome.totals)} with {total} points."
    who = names_and([names[player], *(names[p] for p in tied)])
    return f"{who} share {place} place with {total} points each."


def lone_person(view: TableView) -> int | None:
    """The seat of the one person playing here (``None``: several take turns, or bots
    play alone)."""
    people = [s for s in range(view.game.rules.players) if view.config.players[s].is_human]
    return people[0] if len(people) == 1 else None


def headline(
    view: TableView, you: int | None = None, names: Sequence[str] | None = None
) -> list[Text]:
    """Who won the game (and the match, once it is over), in words; the place of ``you``
    (the seat of the person at this screen), and who shares it on a tie. ``names``: the
    seats' names, as the headline says them (the view's by default)."""
    game = view.game
    rules = game.rules
    names = view.seat_names if names is None else names
    lines: list[Text] = []
    prefix = f"Game {view.match.game_number} of {rules.games}: " if rules.games > 1 else ""
    outcome = game.outcome()
    assert outcome is not None
    who = [names[p] for p in outcome.winners]  # player p sits in seat p
    lines.append(Text(f"{prefix}{_win(who)} with {outcome.best} points!", style="bold"))
    if you is not None and you not in outcome.winners:
        lines.append(Text(place_line(names, outcome, you)))
    match = view.match.outcome()
    if rules.games > 1 and match is not None:
        who = [names[p] for p in match.winners]
        lines.append(Text(f"{_win(who)} the match with {match.best} points!", style="bold reverse"))
    return lines


def rating_lines(changes: Sequence[RatingChange], you: int | None) -> list[Text]:
    """How a rated online game changed the ratings, the seat ``you`` first: "Rating 1012 →
    1040 (+28)", then "Ben: rating 990 → 975 (-15)" for the others (with a minus sign)."""
    lines = []
    for change in sorted(changes, key=lambda change: change.seat != you):
        gain = change.after - change.before
        words = f"{change.before} → {change.after} ({'+' if gain >= 0 else MINUS}{abs(gain)})"
        if change.seat == you:
            lines.append(Text(f"Rating {words}", style="bold"))
        else:
            lines.append(Text(f"{change.name}: rating {words}"))
    return lines


def standings(view: TableView) -> Table | None:
    """Each game's scores and the totals, for a match."""
    rules = view.game.rules
    names = view.seat_names
    match = view.match
    if rules.games > 1:
        table = Table(expand=False, box=None, padding=(0, 1), pad_edge=False)
        table.add_column("Match", no_wrap=True, style="bold")
        for name in names:
            table.add_column(Text(name), justify="right", no_wrap=True)
        results = [*match.results, view.game.final_scores()]
        for number, scores in enumerate(results, start=1):
            table.add_row(f"Game {number}", *(str(v) for v in scores))
        played = f"after {len(results)} of {rules.games}" if not match.is_over else "final"
        table.add_row(
            Text(f"Total ({played})", style="bold"),
            *(Text(str(v), style="bold") for v in match.totals()),
        )
        return table
    return None


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
        Binding("enter", "shown", show=False, id="scores-shown"),
    ]

    def __init__(self, view: TableView) -> None:
        super().__init__()
        self.view = view
        self.you = lone_person(view)
        """The seat of the person at this screen, whose place the headline says (``None``:
        nobody's)."""

    def headline_names(self) -> Sequence[str]:
        """The seats' names as the headline says them."""
        return self.view.seat_names

    def card_name(self, seat: int) -> str:
        """The name on ``seat``'s score card."""
        return self.view.seat_names[seat]

    def headline_lines(self) -> list[Text]:
        """The headline: who won (``headline``), in the words of this screen's player."""
        return headline(self.view, self.you, self.headline_names())

    def by_place(self) -> list[int]:
        """The seats by place, the winner first, in seat order on a tie; the ghosts' seats
        (which rank nowhere) last."""
        game = self.view.game
        outcome = game.outcome()
        assert outcome is not None
        places = outcome.places
        last = len(places) + 1
        seats = range(game.rules.seats)
        return sorted(seats, key=lambda seat: places[seat] if seat < len(places) else last)

    def compose(self) -> ComposeResult:
        """Headline, one score card per seat by place, standings, message line and keys."""
        with VerticalScroll(id="end"):
            yield Static(id="headline")
            with Center(), Grid(id="cards"):
                for seat in self.by_place():
                    yield ScoreCard(seat)
            yield Static(id="end-key")
            with Center():
                yield Static(id="standings")
        yield Notice(id="end-notice")
        yield KeysBar(id="keys")

    def on_mount(self) -> None:
        """Fill in the results, unless the screen was taken off before it was mounted (an
        online match's next game can come that soon)."""
        if self not in self.app.screen_stack:
            return
        view = self.view
        game = view.game
        plain = self.app.no_color
        outcome = game.outcome()
        assert outcome is not None
        shown = []
        for card in self.query(ScoreCard):
            seat = card.seat
            ranked = seat < game.rules.players  # a player's own seat; a ghost's ranks nowhere
            breakdown = game.score_breakdown(seat)
            golden = game.collection(seat).get(Card.GOLDEN_JOKER, 0)
            shown.append((breakdown, golden))
            card.show(
                self.card_name(seat),
                breakdown,
                golden=golden,
                winner=seat in outcome.winners,
                place=place_title(outcome, seat) if ranked else "",
                short_place=place_title(outcome, seat, short=True) if ranked else "",
                plain=plain,
            )
        self.query_one("#headline", Static).update(Text("\n").join(self.headline_lines()))
        self.query_one("#end-key", Static).update(legend(shown))
        table = standings(view)
        standings_view = self.query_one("#standings", Static)
        standings_view.display = table is not None
        if table is not None:
            standings_view.update(table)
        self._fit_cards()
        self.query_one(Notice).say(f"{rules_in_words(game.rules)}; seed {view.shown_seed}.")

    def on_resize(self) -> None:
        """The cards fit the new size."""
        self._fit_cards()

    def _fit_cards(self) -> None:
        """Cards of one size side by side, centred: they grow with the room there is (up
        to ``GROWTH`` cells wider than their content needs, their lines spaced where the
        height allows); with no room to spare, they lose their gaps and padding,
        share the whole width, and their signs stand against the cards if need be."""
        cards = list(self.query(ScoreCard))
        if not cards or not self.size.width:
            return
        grid = self.query_one("#cards", Grid)
        count, content = len(cards), max(card.wanted_width for card in cards)
        width = self.size.width
        share = (width - 2 - (count - 1)) // count  # the screen's padding, the gaps
        narrow = share < content + 4  # border and padding
        spaced = False
        if narrow:
            share = width // count
            inner = share - 2
            compact = any(card.table_width > inner for card in cards)
        else:
            inner = min(share - 4, content + GROWTH)
            compact = False
            spaced = self._spaced_fits(cards)
        for card in cards:
            card.fit(inner, spaced=spaced, compact=compact)
        self.query_one("#end").set_class(narrow, "-narrow")
        grid.set_class(narrow, "-narrow")
        grid.styles.grid_size_columns = count
        grid.styles.width = count * share if narrow else count * (inner + 4) + count - 1

    def _spaced_fits(self, cards: list[ScoreCard]) -> bool:
        """True when cards with their lines spaced fit the screen's height with the rest
        (the message line and the keys under them taking at most four lines)."""
        size = self.size

        def lines(name: str) -> int:
            static = self.query_one(f"#{name}", Static)
            return static.get_content_height(size, size, size.width - 2) if static.display else 0

        card = 2 + 2 + 2 * max(card.lines for card in cards) - 1  # border, a name on two lines
        standings = lines("standings")
        below = 1 + (standings + 1 if standings else 0)  # the key, the standings
        return lines("headline") + 1 + card + below <= size.height - 4

    def _keys_text(self) -> str:
        """The keys, for a key that does nothing here (the footer shows them too)."""
        if self.view.has_next_game:
            return "n next game · r new match · v review · b board · q quit"
        return "r rematch · s new setup · v review · b board · q quit"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``n`` only while the match has games to come."""
        if action == "choose" and parameters and parameters[0] == "next":
            return self.view.has_next_game
        return True

    def action_shown(self) -> None:
        """Enter: the scores, as on the board; shown already (the screen may have come up
        by itself just as Enter was pressed for it), so nothing to do or to complain of."""

    def action_review(self) -> None:
        """``v``: the coach reviews this game (kept in its record in the history)."""
        view = self.view
        app = services(self.app)
        data = app.data_dir() if app else DataDir.default()
        kept = history_path(data, view.id, view.match.game_number, view.game.rules.games)
        try:
            self.app.push_screen(ReviewScreen(read_record(kept), kept, data))
        except RecordError:  # not kept (the disk refused): reviewed all the same, not kept
            self.app.push_screen(ReviewScreen(session_record(view), None, data))

    def action_choose(self, choice: EndChoice) -> None:
        """Leave the score screen with ``choice``; a rematch (a new match while this one
        has games to come) once confirmed: ``r`` is the rules' key on the board, and a
        habit must not start a new game."""
        if choice != "rematch":
            self.dismiss(choice)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.dismiss(choice)

        played, games = self.view.match.game_number, self.view.game.rules.games
        self.app.push_screen(ConfirmRematch(played=played, games=games), answered)

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing here says which keys do."""
        active = self.active_bindings.get(event.key)
        if active is not None and active.enabled:
            return
        event.stop()
        key = event.character if event.is_printable and event.character else event.key
        self.query_one(Notice).say(f"{key} does nothing here: {self._keys_text()}", "error")
