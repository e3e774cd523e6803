"""The table: rows, drawn card, deck and players; the keys play the game.

The keys are Coloretta's: ``d`` draws; then ``1``-``5`` puts the drawn card on that row;
without a drawn card ``1``-``5`` takes that row. Bots think in worker threads and their
moves are paced so that a person can follow them.
"""

from __future__ import annotations

from rich.text import Text
from textual import events, on, work
from textual.actions import parse
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer

from coloretto.engine import DRAW, Action, ActionKind, GameState, IllegalAction
from coloretto.play.advice import no_choice_hint
from coloretto.play.config import DEFAULT_DELAY, PACES, possessive
from coloretto.play.seed_text import deal_seed_text
from coloretto.play.table import (
    BotFailed,
    Event,
    MovePlayed,
    NotSaved,
    Table,
    TableNews,
)
from coloretto.play.table_view import Mover, TableView
from coloretto.play.words import DASH, describe_deal, row_list
from coloretto.tui.glyphs import render
from coloretto.tui.keys import GAME_KEYS, bindings, offered_row_keys
from coloretto.tui.messages import GameOver, HintReady
from coloretto.tui.screens.dialogs import (
    ConfirmQuit,
    HelpScreen,
    MovesScreen,
    RulesScreen,
    prepare_rules,
)
from coloretto.tui.services import services
from coloretto.tui.table import show_table, table_whole, table_widgets
from coloretto.tui.widgets import (
    DrawnCard,
    KeysBar,
    Legend,
    MoveLog,
    Notice,
    RowView,
    SeatsPanel,
    SidePanel,
)
from coloretto.tui.widgets.rows import fresh_style

PLAYS = {
    name: action
    for key in GAME_KEYS
    if key.id in ("draw", "row")
    for press, action in key.presses
    for name in press.split(",")
}
"""The keys that play, with their actions: pressed while the footer leaves them out (they
cannot be played now), they still say why."""

Offer = tuple[bool, tuple[int, ...]]
"""What the person to move may press: ``d`` or not, and the rows (numbered from 1)."""


def playable_rows(legal: tuple[Action, ...]) -> tuple[int, ...]:
    """The rows (from 0) that ``legal`` actions place on or take, in order."""
    return tuple(sorted({a.row for a in legal if a.row is not None}))


GREETING = "Press ? for the keys, r for the rules."
"""What the game screen's message line says first."""

NEW_HERE = "New to Coloretto? coloretto tutorial teaches it in 3 minutes (q keeps this game)."
"""The tutorial offered in the first game played here (``first_run``), on the message line."""


class GameScreen(Screen[None]):
    """One game of the match on the table, played from the keyboard."""

    CSS_PATH = "game.tcss"
    BINDINGS = bindings(sorted(GAME_KEYS, key=lambda key: key.id != "results"))  # type: ignore[assignment]
    """Enter (the scores) comes first in the footer: it shows alone with the keys that
    still work once the game is over."""

    delay: reactive[float] = reactive(DEFAULT_DELAY, init=False)
    """Seconds between two bot actions, so that a person can follow them (``+``/``-``)."""

    def __init__(self, table: Table, *, new_here: bool = False) -> None:
        super().__init__()
        self.table = table
        self.new_here = new_here
        """True in the first game played here: the tutorial is offered (``NEW_HERE``)."""
        """The game played: this screen shows it and sends it the player's moves."""
        self.faults: list[str] = []
        """The bots' failures reported so far."""
        self.token = 0
        """Counts the moves played; a bot's or a hint's answer about an older one is dropped."""
        self.set_reactive(GameScreen.delay, table.view.config.delay)
        self.thinking: int | None = None
        """The seat whose bot is thinking (or waiting to show its move)."""
        self._timer: Timer | None = None
        self._fresh_row: int | None = None
        self._results_shown = False
        self._hint_token: int | None = None
        self._hint_wanted = False
        """``h`` was pressed while someone else was to move: hint at the next person's turn
        here, if it is the turn of the person who asked (``_hint_asker``)."""
        self._hint_asker: int | None = None
        """The player (``Rules.controller``) a pending hint is for; ``None``: whoever plays
        here next (one person at the keyboard, or nobody here has moved yet)."""
        self._hint: tuple[int, str] | None = None
        """The latest hint, with the move count it was given at (shown again on ``h``)."""
        self.hints: list[str] = []
        """The hints given so far."""
        self._offered: Offer | None = None
        """What the footer offers now (``None`` once the game is over)."""

    @property
    def view(self) -> TableView:
        """The match on the table, its players and seat names."""
        return self.table.view

    def key_display(self, binding: Binding) -> str | None:
        """How the footer names ``binding`` here: the row keys as the rows that can be
        played (``2-4`` with row 1 full); ``None`` for the usual name."""
        offer = self.offer()
        if binding.id == "row-1" and offer is not None and offer[1]:
            return offered_row_keys(offer[1])
        return None

    def offer(self) -> Offer | None:
        """What the person to move here may play; nothing while others move; ``None`` once
        the game is over."""
        game = self.view.game
        if game.is_over:
            return None
        if not self.table.plays_here(game.current_player):
            return (False, ())
        legal = game.legal_actions()
        return (DRAW in legal, tuple(row + 1 for row in playable_rows(legal)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers the keys that work now: ``d`` and the rows that can be played
        by the person to move; once the game is over, Enter for the scores and no moves."""
        offer = self.offer()
        if action == "results":
            return offer is None
        if action in ("draw", "row", "hint", "pace") and offer is None:
            return False
        if action == "draw" and offer is not None:
            return offer[0]
        if action == "row" and offer is not None:
            return bool(offer[1])
        return True

    def _update_footer(self) -> None:
        """Show the keys that work now, when they have changed (in the same refresh as
        the turn line: ``KeysBar``)."""
        offer = self.offer()
        if offer != self._offered:
            self._offered = offer
            self.refresh_bindings()

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """Top bar; rows and log on the left, players on the right; turn, notice, legend."""
        yield from table_widgets(self.view.game)
        yield KeysBar(id="keys")

    @property
    def plain(self) -> bool:
        """True without colour (``NO_COLOR``): cards are drawn as ``[B]``."""
        return self.app.no_color

    @property
    def notice(self) -> Notice:
        """The message line."""
        return self.query_one(Notice)

    @property
    def busy(self) -> bool:
        """True while a bot thinks or its move waits to be shown."""
        return self.thinking is not None

    def on_mount(self) -> None:
        """Show the table, describe the deal, and start the first turn; nothing if the
        screen was replaced before it was mounted (an online game can move on that soon)."""
        if self not in self.app.screen_stack:
            return
        game = self.view.game
        self.query_one(Legend).show(game.colours, game.rules.edition, plain=self.plain)
        self._log_start()
        self.refresh_table()
        self._offered = self.offer()
        self.notice.say(f"{NEW_HERE} {GREETING}" if self.new_here else GREETING, "info")
        self.table.subscribe(self._on_table_event)
        self.table.keep()
        self.call_after_refresh(self._start)  # a bot thinks once the table is drawn
        prepare_rules(self)

    def detach(self) -> None:
        """Hear of the table no more: the screen is going (or the match's next game
        replaces it, whose widgets go before it is unmounted while moves still come)."""
        self.table.unsubscribe(self._on_table_event)

    def on_unmount(self) -> None:
        """Gone: this screen hears of the table no more."""
        self.detach()

    def _log_start(self) -> None:
        view = self.view
        log = self.query_one(MoveLog)
        for line in describe_deal(
            view.game, view.seat_names, view.shown_seed, view.match.game_number
        ):
            log.add(render(line, plain=self.plain))
        self._log_moves_so_far()

    def _log_seed(self) -> None:
        """Once the match is over, the seed the deal's line kept secret (it would have
        shown the cards to come); a table that keeps it secret longer says nothing."""
        view = self.view
        seed = view.match.seed
        if view.match.is_over and seed is not None and view.shown_seed == deal_seed_text(seed):
            self.query_one(MoveLog).add(
                Text(f"The seed was {view.shown_seed}.", style="italic"),
                round_number=view.game.round,
            )

    def _log_moves_so_far(self) -> None:
        """A game come back to in progress: every move so far, then a line saying so
        (``resumed_words``)."""
        game = self.view.game
        moves = game.history()
        if not moves:
            return
        log = self.query_one(MoveLog)
        state = GameState.from_setup(game.rules, game.setup)
        for ply, move in enumerate(moves):
            after = state.apply(move.action)
            for line in self.table.move_lines(ply, move, state, after):
                log.add(render(line, plain=self.plain), round_number=state.round)
            state = after
        words = self.resumed_words(len(moves))
        if words:
            log.add(Text(words, style="italic"))

    def resumed_words(self, moves: int) -> str:
        """What the log says after the ``moves`` of a game come back to (``""``: nothing)."""
        return f"Resumed after {moves} actions."

    def refresh_table(self) -> None:
        """Redraw everything from the table's current game."""
        show_table(self, self.view, fresh_row=self._fresh_row)

    # ------------------------------------------------------------------ the flow

    def advance(self) -> None:
        """Start what comes next: a bot's turn, the score screen, or wait for a person."""
        game = self.view.game
        if game.is_over:
            self.thinking = None
            if not self._results_shown:
                self._results_shown = True
                self._log_seed()
                pause = 2 * self.delay
                if pause:
                    self._timer = self.set_timer(pause, self.action_results)
                else:
                    self.action_results()
            return
        seat = game.current_player
        if self.table.bots_move(seat):
            self.thinking = seat
        else:
            self.thinking = None
            if self._hint_wanted and self.table.plays_here(seat):
                self._hint_wanted = False
                asker = self._hint_asker
                if asker is None or asker == game.rules.controller(seat):
                    self._start_hint()
                # else: another person at this keyboard moves now; the hint was not theirs

    def _start(self) -> None:
        """The table is drawn: what comes next, and the table's own play (its bots: they
        think and move by themselves, and each move comes back as an event)."""
        self.advance()
        self.run_worker(self.table.run_bots(), name="bots", group="bots", exclusive=True)

    def play(self, action: Action) -> bool:
        """Play ``action`` for the seat to move; an illegal one is explained, not played.
        What comes next starts once the table tells that the move was played."""
        try:
            self.table.act(action)
        except IllegalAction as error:
            # The engine's advice gives way to the keys to press.
            self.notice.say(f"{error.problem} {DASH} {self._options()}", "error")
            return False
        return True

    def _on_table_event(self, event: Event) -> None:
        """Show what happened at the table: a move, a failed bot, trouble with the disk;
        the footer offers the keys that work now. A screen being taken down (its widgets go
        before it, one by one) shows nothing more."""
        if not table_whole(self):
            self.detach()
            return
        self._show_event(event)
        self._update_footer()

    def _show_event(self, event: Event) -> None:
        """Log and say ``event``; after a move, start what comes next."""
        if isinstance(event, MovePlayed):
            self.token += 1
            action = event.move.action
            self._fresh_row = action.row if action.kind is ActionKind.PLACE else None
            lines = [render(line, plain=self.plain) for line in event.lines]
            log = self.query_one(MoveLog)
            for line in lines:
                log.add(line, round_number=event.before.round)
            message = Text(" ").join(lines)
            if self._fresh_row is not None:  # lit as the row is on the table
                message.highlight_words([f"row {self._fresh_row + 1}"], fresh_style(self.app))
            self.notice.say(message, "event")
            self.refresh_table()
            self.advance()
        elif isinstance(event, BotFailed):
            self.faults.append(event.report)
            self.query_one(MoveLog).add(
                Text(event.report, style="bold"), round_number=self.view.game.round
            )
            self.notify(
                event.report, title="A bot failed", severity="warning", timeout=10, markup=False
            )
        elif isinstance(event, NotSaved):
            self.notify(
                event.problem, title="Storage problem", severity="error", timeout=10, markup=False
            )
        elif isinstance(event, TableNews):
            self.query_one(MoveLog).add(
                Text(event.text, style="italic"), round_number=self.view.game.round
            )
            self.notice.say(event.text, "info")
            self.refresh_table()

    def _options(self) -> str:
        """What the person to move can do, with the keys: ``put the card on row 2 or 3``."""
        game = self.view.game
        legal = game.legal_actions()
        rows = row_list(playable_rows(legal), runs=False)
        if game.drawn_card is not None:
            return f"put the card on row {rows}"
        if DRAW in legal and rows:
            return f"draw with d or take row {rows}"
        if DRAW in legal:
            return "draw with d"
        return f"take row {rows}"

    def _person_to_move(self) -> bool:
        """True when a person is to move; otherwise say why nothing happens."""
        game = self.view.game
        if game.is_over:
            self.notice.say("The game is over: press Enter for the scores.", "error")
            return False
        seat = game.current_player
        if not self.table.plays_here(seat):
            if self._watching:
                self.notice.say("You are watching: nobody plays from this keyboard.", "error")
            else:
                name = self.view.seat_names[seat]
                self.notice.say(f"It is {possessive(name)} turn: wait a moment.", "error")
            return False
        return True

    @property
    def _watching(self) -> bool:
        """True when no seat is played from this keyboard (bots only, or a spectator)."""
        return not any(map(self.table.plays_here, range(len(self.view.seat_names))))

    # ------------------------------------------------------------------ keys

    def action_draw(self) -> None:
        """``d``: draw the top card of the deck."""
        if self._person_to_move():
            self.play(DRAW)

    def action_row(self, number: int) -> None:
        """``1``-``5``: put the drawn card on row ``number``, or take that row."""
        if not self._person_to_move():
            return
        game = self.view.game
        rows = len(game.row_capacities)
        if not 1 <= number <= rows:
            self.notice.say(
                f"there is no row {number} (the rows are 1{DASH}{rows}) {DASH} {self._options()}",
                "error",
            )
            return
        if game.drawn_card is not None:
            self.play(Action.place(number - 1))
        else:
            self.play(Action.take(number - 1))

    @on(RowView.Selected)
    def _row_clicked(self, message: RowView.Selected) -> None:
        self.action_row(message.row + 1)

    @on(DrawnCard.Selected)
    def _drawn_clicked(self) -> None:
        self.action_draw()

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing here gets a message saying what does; a move that
        cannot be played now, why."""
        if event.key in self.app.active_bindings:
            return
        event.stop()
        if event.key in PLAYS:
            _, name, parameters = parse(PLAYS[event.key])
            getattr(self, f"action_{name}")(*parameters)
        elif self.view.game.is_over:
            self.notice.say("The game is over: press Enter for the scores.", "error")
        elif self.busy:
            name = self.view.seat_names[self.view.game.current_player]
            self.notice.say(f"It is {possessive(name)} turn: wait a moment.", "error")
        else:
            key = event.character if event.is_printable and event.character else event.key
            self.notice.say(
                f"{key} does nothing here: {self._options()} (? shows all keys)", "error"
            )

    def action_hint(self) -> None:
        """``h``: ask the strongest bot what it would do, and why; while someone else is to
        move, the hint comes at the next turn played here."""
        game = self.view.game
        if not game.is_over and not self.table.plays_here(game.current_player):
            if self._watching:
                self.notice.say("You are watching: hints are for the players.", "error")
                return
            self._hint_wanted = True
            self._hint_asker = self._last_player_here() if self._people_here > 1 else None
            name = self.view.seat_names[game.current_player]
            if self._hint_asker is None:
                self.notice.say(f"{name} is to move: a hint comes once it is your turn.")
            else:
                asker = self.view.config.players[self._hint_asker].name
                self.notice.say(
                    f"{name} is to move: a hint for {asker} comes if {asker} plays next."
                )
            return
        if self._person_to_move():
            self._start_hint()

    @property
    def _people_here(self) -> int:
        """How many people play at this keyboard (a ghost's partner counts once)."""
        rules = self.view.game.rules
        return len({rules.controller(s) for s in range(rules.seats) if self.table.plays_here(s)})

    def _last_player_here(self) -> int | None:
        """The player (``Rules.controller``) who moved last from this keyboard, if any: who
        presses ``h`` while someone else is to move."""
        game = self.view.game
        for move in reversed(game.history()):
            if self.table.plays_here(move.player):
                return game.rules.controller(move.player)
        return None

    @property
    def _hint_for(self) -> str:
        """Whom a hint now is for, when more than one person plays here ("" otherwise)."""
        if self._people_here < 2:
            return ""
        return self.view.config.controller(self.view.game.current_player).name

    def _start_hint(self) -> None:
        """Show the hint for the position on the table, finding it first if need be."""
        hint_for = self._hint_for
        if self._hint is not None and self._hint[0] == self.token:
            # the same position: the same hint
            self.notice.say(self._hint[1], "hint", hint_for=hint_for)
            return
        if self._hint_token == self.token:
            self.notice.say("still thinking about a hint…", "hint", hint_for=hint_for)
            return
        if (no_choice := no_choice_hint(self.view.game, self.view.seat_names)) is not None:
            self._show_hint(self.token, no_choice[1])  # at once: nothing to search
            return
        self._hint_token = self.token
        self.notice.say("thinking about it…", "hint", hint_for=hint_for)
        self.find_hint(self.token)

    @work(thread=True, group="hint", exit_on_error=False)
    def find_hint(self, token: int) -> None:
        """Ask the table's hint bot (in a worker thread) and post its answer."""
        self.post_message(HintReady(token, self.table.hint()))

    def on_hint_ready(self, message: HintReady) -> None:
        """Show the hint, unless the game has moved on since it was asked for."""
        self._show_hint(message.token, message.hint.reason)

    def _show_hint(self, token: int, reason: str) -> None:
        if token == self.token:
            self._hint = (token, reason)
            self.notice.say(reason, "hint", hint_for=self._hint_for)
            self.hints.append(reason)

    def action_toggle_log(self) -> None:
        """``l``: show or hide the move log."""
        log = self.query_one(MoveLog)
        log.display = not log.display
        side = self.query_one(SidePanel)
        side.set_class(not log.display, "-no-log")
        self.call_after_refresh(self.query_one(SeatsPanel).redraw)
        self.notice.say(
            f"Move log {'shown' if log.display else 'hidden'} (l toggles it; m shows all moves)."
        )

    def action_moves(self) -> None:
        """``m``: every move so far, in a scrolling screen."""
        self.app.push_screen(MovesScreen(self.query_one(MoveLog).entries))

    def action_pace(self, step: int) -> None:
        """``+``/``-``: bots play faster or slower (those that play here)."""
        seats = range(self.view.game.rules.seats)
        if not any(self.table.bots_move(seat) for seat in seats):
            elsewhere = any(self.view.mover(seat) is Mover.BOT for seat in seats)
            self.notice.say(
                "The bots play on the server, at the pace the room's host set."
                if elsewhere
                else "No bot plays at this table: + and - set the bots' pace."
            )
            return
        if step < 0 and self.delay <= PACES[0]:
            self.notice.say("Bots already play at once: - slows them down.")
        elif step > 0 and self.delay >= PACES[-1]:
            self.notice.say(f"Bots already wait {self.delay:g} s: + speeds them up.")
        else:
            nearest = min(range(len(PACES)), key=lambda i: abs(PACES[i] - self.delay))
            self.delay = PACES[max(0, min(len(PACES) - 1, nearest + step))]

    def watch_delay(self, delay: float) -> None:
        """Say how fast the bots play now; the table keeps the pace (``Table.set_pace``)."""
        self.table.set_pace(delay)
        self.notice.say(f"Bots now wait {delay:g} s between actions (+ faster, - slower).")

    def action_help(self) -> None:
        """``?``: the keys and the card letters."""
        self.app.push_screen(HelpScreen(len(self.view.game.row_capacities)))

    def action_rules(self) -> None:
        """``r``: the rules of the game."""
        self.app.push_screen(RulesScreen())

    def action_quit(self) -> None:
        """``q``: quit, after a confirmation."""

        app = services(self.app)

        def done(quit_now: bool | None) -> None:
            if quit_now:
                if app is None:
                    self.app.exit()
                else:
                    app.leave()  # the app says how to resume

        saved = not self.view.match.is_over
        question = app.quit_question() if app else None  # an online table's own words
        self.app.push_screen(ConfirmQuit(saved=saved, question=question), done)

    def action_results(self) -> None:
        """Enter, once the game is over: the score screen."""
        if not self.view.game.is_over:
            if self._person_to_move():
                self.notice.say(f"The game is not over yet {DASH} {self._options()}.", "error")
            return
        if self._timer is not None:
            self._timer.stop()
        self.post_message(GameOver(self.view))
