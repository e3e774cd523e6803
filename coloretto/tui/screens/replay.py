"""A recorded game replayed on the table, one action at a time.

The board is the game screen's (``coloretto.tui.table``): the same rows, drawn card,
players, top bar and turn bar, as they were after each action. The keys: Right/Left step one
action forward/back, Home/End jump to the start/end, PageUp/PageDown (or ``[``/``]``) to the
start of the previous/next round, Enter shows the score cards once the game is over. A game
reviewed by the coach (``coloretto review``) shows each move's grade, the best move instead
of a weaker one in the turn bar, ``n`` jumps to the next inaccuracy, mistake or blunder, and ``c``
shows the review's chart of each person's chance to win (Enter there goes to the move).
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen

from coloretto.engine import ActionKind
from coloretto.play.advice import cost_words
from coloretto.play.coach import Grade, Verdict
from coloretto.play.config import possessive
from coloretto.play.replay import Replay
from coloretto.play.table_view import TableView
from coloretto.play.words import DASH, describe_action, describe_move, rules_in_words, starts
from coloretto.store.text import printable
from coloretto.tui.glyphs import render
from coloretto.tui.keys import REPLAY_KEYS, Key, bindings, keys_line
from coloretto.tui.screens.dialogs import MovesScreen, RulesScreen, prepare_rules
from coloretto.tui.screens.end import EndChoice, EndScreen
from coloretto.tui.screens.review import ChartScreen
from coloretto.tui.summary import hint_text
from coloretto.tui.table import show_table, table_widgets
from coloretto.tui.widgets import KeysBar, Legend, MoveLog, Notice

GRADE_STYLES = {
    Grade.INACCURACY: "bold yellow",
    Grade.MISTAKE: "bold dark_orange",
    Grade.BLUNDER: "bold red",
}


def grade_text(grade: Grade) -> Text:
    """A move's grade after its line: `` ⁇ blunder`` (nothing for the best move).

    >>> grade_text(Grade.BLUNDER).plain, grade_text(Grade.BEST).plain
    (' ⁇ blunder', '')
    """
    if grade is Grade.BEST:
        return Text("")
    mark = f" {grade.mark}" if grade.mark else ""
    return Text(f"{mark} {grade.value}", GRADE_STYLES.get(grade, "dim"))


def final_scores(view: TableView) -> Text:
    """``Ana 23 · Ben 17 · Cy 12``, the winners in bold (``GameState.outcome``: player
    ``p`` sits in seat ``p``)."""
    game = view.game
    scores = game.final_scores()
    outcome = game.outcome()
    assert outcome is not None
    return Text(" · ").join(
        Text(f"{name} {score}", style="bold" if seat in outcome.winners else "")
        for seat, (name, score) in enumerate(zip(view.seat_names, scores, strict=True))
    )


CHART_KEY = Key(
    "c",
    "Chart",
    ("the chance to win after each decision (of a reviewed game)",),
    (("c,C", "chart"),),
    "replay-chart",
)
"""The review's chart over the replay (``ChartScreen``: Enter goes to the selected move)."""


class ReplayScreen(Screen[None]):
    """A recorded game on the table, stepped through with the arrow keys."""

    CSS_PATH = "game.tcss"
    BINDINGS = bindings([*REPLAY_KEYS, CHART_KEY])  # type: ignore[assignment]

    def __init__(self, replay: Replay, step: int = 0, *, note: str = "") -> None:
        super().__init__()
        self.replay = replay
        self.note = note
        """Said at the start, under where the replay stands (shown ``printable``)."""
        self.step = max(0, min(step, replay.last))
        """The actions shown so far."""
        self.view = replay.view(self.step)
        """The game as it stands at ``step``."""
        self._entries: list[Text] = []
        self._shown: list[int] = []

    def compose(self) -> ComposeResult:
        """The game screen's table, and the keys."""
        yield from table_widgets(self.replay.states[0])
        yield KeysBar(id="keys")

    @property
    def notice(self) -> Notice:
        """The message line."""
        return self.query_one(Notice)

    def on_mount(self) -> None:
        """Write the whole game into the log (shown up to the step), then show the step."""
        replay = self.replay
        start = replay.states[0]
        plain = self.app.no_color
        self.query_one(Legend).show(start.colours, start.rules.edition, plain=plain)
        log = self.query_one(MoveLog)
        title = f"Replay of {replay.name}" if replay.name else "Replay"
        log.add(Text(f"{title}: {rules_in_words(start.rules)}; seed {replay.shown_seed}."))
        self._shown = [len(log.entries)]
        for step in range(1, replay.last + 1):
            before, after = replay.states[step - 1], replay.states[step]
            move = replay.move(step)
            assert move is not None
            for i, line in enumerate(describe_move(move, before, after, replay.seats)):
                text = render(line, plain=plain)
                decision = replay.decision(step)
                if i == 0 and decision is not None:
                    text.append_text(grade_text(decision.grade))
                if i == 0 and (hint := replay.hint(step)) is not None:
                    text.append_text(hint_text(hint, move.action, before))
                log.add(text, round_number=before.round)
            self._shown.append(len(log.entries))
        self._entries = list(log.entries)
        self.show_step(self.step)
        if self.note:
            self.notice.say(Text.assemble(self._where(), "\n", printable(self.note)), "event")
        prepare_rules(self)

    # ------------------------------------------------------------------ showing a step

    def show_step(self, step: int) -> None:
        """Show the table as it was after ``step`` actions."""
        replay = self.replay
        self.step = step
        self.view = view = replay.view(step)
        move = replay.move(step)
        fresh = move.action.row if move and move.action.kind is ActionKind.PLACE else None
        show_table(self, view, fresh_row=fresh, prompt=self._prompt(), played=False)
        log = self.query_one(MoveLog)
        count = self._shown[step]
        log.entries = self._entries[: count - 1]
        log.add(self._entries[count - 1])  # shows the latest lines that fit
        self.notice.say(self._where(), "event")
        self.refresh_bindings()  # n: offered while a mistake lies ahead (check_action)

    def _where(self) -> Text:
        """Where the replay stands, and the action just played."""
        replay = self.replay
        step = self.step
        if step == 0:
            first = replay.seats[replay.states[0].current_player]
            return Text.assemble(
                (f"The deal · {replay.last} actions recorded", "bold"),
                f": {first} {starts(first)}. → steps forward, ? shows the keys.",
            )
        before, after = replay.states[step - 1], replay.states[step]
        move = replay.move(step)
        assert move is not None
        lines = describe_move(move, before, after, replay.seats)
        decision = replay.decision(step)
        return Text.assemble(
            (f"Move {step} of {replay.last} · Round {before.round}", "bold"),
            ": ",
            Text(" ").join(render(line, plain=self.app.no_color) for line in lines),
            grade_text(decision.grade) if decision is not None else "",
        )

    def _prompt(self) -> Text:
        """The turn bar: whose turn it is, or the final scores."""
        view = self.view
        game = view.game
        if game.is_over:
            return Text.assemble(
                ("Final scores: ", "bold"), final_scores(view), " · Enter: the score cards"
            )
        name = view.seat_names[game.current_player]
        head = Text(f"{possessive(name)} turn", "bold")
        decision = self.replay.decision(self.step)
        if decision is not None and decision.verdict is not Verdict.BEST:
            before = self.replay.states[self.step - 1]
            best = describe_action(decision.best, before)
            ahead = " · n: next mistake" if self._mistake_ahead() else ""
            lost = cost_words(decision)
            # A move within twice the error of the top one is not called worse than it.
            top = "About as good: " if decision.verdict.as_good else "Best was: "
            return Text.assemble((top, "bold"), f"{best} (this move: {lost}){ahead}")
        if self.step == self.replay.last:
            return Text.assemble(head, f" {DASH} the record ends here (the game was not finished)")
        return Text.assemble(head, f" {DASH} → shows the next action, ← goes back")

    # ------------------------------------------------------------------ keys

    def _mistake_ahead(self) -> bool:
        """Whether ``n`` has a mistake or a blunder to go to (a reviewed game's, after
        this step)."""
        return self.replay.next_mistake(self.step) is not None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``n`` is offered (in the footer) only while a mistake or a blunder lies ahead:
        never in a game the coach did not review, or whose review found none."""
        if action == "next_mistake":
            return self._mistake_ahead()
        if action == "chart":
            return self._reviewed()
        return True

    def _reviewed(self) -> bool:
        """Whether the coach's review analysed any decision of this game (``c``)."""
        return self.replay.review is not None and bool(self.replay.review.decisions)

    def _keys(self) -> list[Key]:
        """The keys of this replay (``n`` only in a game reviewed with mistakes, ``c`` in
        one reviewed)."""
        mistakes = self.replay.next_mistake(0) is not None
        keys = [key for key in REPLAY_KEYS if mistakes or key.id != "replay-next-mistake"]
        return [*keys, CHART_KEY] if self._reviewed() else keys

    def action_chart(self) -> None:
        """``c``: the review's chart; Enter there goes to the selected decision's move."""
        review = self.replay.review
        if review is None:
            return

        def chosen(ply: int | None) -> None:
            if ply is not None:
                self.show_step(ply + 1)

        chart = ChartScreen(review, self.replay.states, self.replay.seats, self.step - 1)
        self.app.push_screen(chart, chosen)

    def action_step(self, delta: int) -> None:
        """Right/Left: one action forward or back."""
        step = self.step + delta
        if step < 0:
            self.notice.say("This is the deal, before the first action: → steps forward.")
        elif step > self.replay.last:
            self.notice.say(self._at_the_end())
        else:
            self.show_step(step)

    def _at_the_end(self) -> str:
        if self.view.game.is_over:
            return (
                "That was the last action: the game is over (Enter: the score cards, Home: back)."
            )
        return "The record ends here: the game was not finished (Home goes back to the deal)."

    def action_jump(self, where: str) -> None:
        """Home/End: the deal, or the last action recorded."""
        step = 0 if where == "start" else self.replay.last
        if step == self.step:
            if step == 0:
                self.notice.say("This is already the deal: → steps forward, End jumps to the end.")
            else:
                self.notice.say(self._at_the_end())
            return
        self.show_step(step)

    def action_round(self, delta: int) -> None:
        """``]``/PageDown: the next round's start; ``[``/PageUp: this round's, or the last."""
        replay = self.replay
        if delta > 0:
            step = replay.next_round(self.step)
            if step is None:
                number = replay.states[self.step].round
                self.notice.say(f"Round {number} is the last round: End jumps to the end.")
                return
        else:
            step = replay.previous_round(self.step)
            if step is None:
                self.notice.say("This is the deal, the start of round 1.")
                return
        self.show_step(step)

    def action_next_mistake(self) -> None:
        """``n``: the next inaccuracy, mistake or blunder of a reviewed game."""
        replay = self.replay
        if replay.review is None:
            self.notice.say(
                "This game has not been reviewed: coloretto review FILE grades its moves.",
                "error",
            )
            return
        step = replay.next_mistake(self.step)
        if step is None and replay.next_mistake(0) is None:
            self.notice.say(
                "The coach's review found no inaccuracy, mistake or blunder in this game."
            )
            return
        if step is None:
            self.notice.say(
                "No inaccuracy, mistake or blunder after this move (Home: back to the deal)."
            )
            return
        self.show_step(step)

    def action_results(self) -> None:
        """Enter, at the end of a finished game: the score cards."""
        if not self.view.game.is_over:
            if self.step == self.replay.last:
                self.notice.say("The record ends here: the game was not finished, so no scores.")
            else:
                self.notice.say("The scores come at the end of the game: End jumps there.")
            return

        def chosen(choice: EndChoice | None) -> None:
            if choice == "quit":
                self.app.exit()

        self.app.push_screen(ReplayEndScreen(self.view), chosen)

    def action_moves(self) -> None:
        """``m``: every move up to here, in a scrolling screen."""
        self.app.push_screen(MovesScreen(self.query_one(MoveLog).entries))

    def action_help(self) -> None:
        """``?``: the keys."""
        self.notice.say(keys_line(self._keys()))

    def action_rules(self) -> None:
        """``r``: the rules, over the replay."""
        self.app.push_screen(RulesScreen())

    def action_quit(self) -> None:
        """``q``: quit (a replay has nothing to lose)."""
        self.app.exit()

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing here says which keys do."""
        if event.key in ("n", "N") and not self._mistake_ahead():
            event.stop()  # not offered: says why (not reviewed, no mistake ahead)
            self.action_next_mistake()
        elif event.key in ("c", "C") and not self._reviewed():
            event.stop()
            self.notice.say(
                "This game has not been reviewed: coloretto review FILE grades its moves.",
                "error",
            )
        elif event.key not in self.app.active_bindings:
            event.stop()
            key = event.character if event.is_printable else event.key
            self.notice.say(
                f"{key} does nothing in a replay: → ← step, [ ] rounds, q quits (? all keys)",
                "error",
            )


class ReplayEndScreen(EndScreen):
    """The score screen of a replayed game: back to the board, or quit."""

    def _keys_text(self) -> str:
        return "b back to the replay · q quit"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only ``b``/Esc and ``q``: a replay has no next game, rematch or review."""
        if action == "review":
            return False
        if action == "choose" and parameters:
            return parameters[0] in ("board", "quit")
        return True
