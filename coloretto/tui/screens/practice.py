"""Practice from your mistakes: each decision of a reviewed game graded an inaccuracy or
worse, as a puzzle on the table as the player saw it (``coloretto.play.practice``).

The keys are the game's: ``d`` draws, ``1``-``5`` place or take; a wrong first answer
gets a second try (and is told what it was worth against the best); ``a`` shows the answer
(the best move and what it is worth, what the player's own answer was worth, and why the
best beats the move played in the game), ``n`` the next puzzle, Esc (or ``q``) leaves. Each puzzle's
result is kept (``keep``) for ``coloretto stats``. Opened from the review (``t``) and by
``coloretto practice``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen

from coloretto.engine import DRAW, Action
from coloretto.play.advice import doing
from coloretto.play.config import YOU, possessive
from coloretto.play.practice import Attempt, Outcome, Puzzle
from coloretto.play.replay import Replay
from coloretto.play.words import describe_action, describe_move, row_list
from coloretto.store.practice import PracticeResult
from coloretto.tui.glyphs import render
from coloretto.tui.keys import Key, bindings, offered_row_keys, row_keys
from coloretto.tui.table import show_table, table_widgets
from coloretto.tui.widgets import (
    KeysBar,
    Legend,
    MoveLog,
    Notice,
    SeatsPanel,
    SidePanel,
    TurnBar,
)

PRACTICE_KEYS: tuple[Key, ...] = (
    Key("d", "Draw", ("draw the top card of the deck",), (("d,D", "draw"),), "practice-draw"),
    Key(
        row_keys(5),
        "Row",
        ("after drawing: put the drawn card on that row;", "without a drawn card: take that row"),
        tuple((str(n), f"row({n})") for n in range(1, 6)),
        "practice-row",
    ),
    Key(
        "a",
        "Answer",
        ("the best move, its value and why",),
        (("a,A", "answer"),),
        "practice-answer",
    ),
    Key("n", "Next", ("the next puzzle",), (("n,N", "next"),), "practice-next"),
    Key("Esc", "Leave", ("leave practice (q too)",), (("escape,q,Q", "leave"),), "practice-leave"),
)
"""The practice screen's keys: the game's moves, the answer, the next puzzle, leave."""

Keep = Callable[[PracticeResult], str | None]
"""Keeps a puzzle's result; says what went wrong (``None``: nothing)."""

MOVE_KEYS = frozenset("dD12345")
"""The keys that answer a puzzle (those the position allows are offered in the keys bar)."""

ANSWER_LINES = 12
"""The most lines the message line takes here: the answer and why, in full."""

OUTCOME_WORDS = {
    Outcome.FIRST: "Solved at the first try!",
    Outcome.SECOND: "Solved at the second try.",
    Outcome.MISSED: "Not solved this time.",
}


class PracticeScreen(Screen[None]):
    """The puzzles of one reviewed game, one after the other, on the game's table."""

    CSS_PATH = "game.tcss"
    BINDINGS = bindings(PRACTICE_KEYS)  # type: ignore[assignment]

    def __init__(self, replay: Replay, puzzles: Sequence[Puzzle], keep: Keep | None) -> None:
        super().__init__()
        self.replay = replay
        self.puzzles = list(puzzles)
        self.keep = keep
        self.index = 0
        """The puzzle shown."""
        self.attempt: Attempt | None = Attempt(self.puzzles[0]) if self.puzzles else None
        self.done: list[Outcome] = []
        """How each puzzle over went, in order."""

    def compose(self) -> ComposeResult:
        """The game screen's table, and the keys."""
        yield from table_widgets(self.replay.states[0])
        yield KeysBar(id="keys")

    @property
    def notice(self) -> Notice:
        """The message line."""
        return self.query_one(Notice)

    def on_mount(self) -> None:
        """The first puzzle."""
        start = self.replay.states[0]
        self.notice.styles.max_height = ANSWER_LINES  # over the game screen's six
        self.query_one(Legend).show(start.colours, start.rules.edition, plain=self.app.no_color)
        if self.attempt is None:
            self.notice.say("No inaccuracy, mistake or blunder to practise in this game.")
            return
        self.show_puzzle()

    # ------------------------------------------------------------------ showing

    def show_puzzle(self) -> None:
        """The table before the puzzle's decision, the moves up to it, and the question."""
        attempt = self.attempt
        assert attempt is not None
        puzzle = attempt.puzzle
        ply = puzzle.decision.ply
        view = self.replay.view(ply)
        self._reading(False)
        show_table(self, view, prompt=self._prompt(), played=True)
        log = self.query_one(MoveLog)
        log.entries = []
        states, seats = self.replay.states, self.replay.seats
        for step in range(1, ply + 1):
            move = self.replay.move(step)
            assert move is not None
            lines = describe_move(move, states[step - 1], states[step], seats)
            for line in lines:
                log.add(render(line, plain=self.app.no_color), round_number=states[step - 1].round)
        self.notice.say(
            Text.assemble(
                (f"Puzzle {self.index + 1} of {len(self.puzzles)}", "bold"),
                f" · {puzzle.where()}: in the game {self._who()} chose to "
                f"{puzzle.played_words()}. Find a better move (a second try is allowed; a "
                "shows the answer).",
            ),
            "event",
        )
        self.refresh_bindings()

    def _prompt(self) -> Text:
        """The turn bar: the puzzle's question, with the keys that answer it."""
        attempt = self.attempt
        assert attempt is not None
        game = attempt.puzzle.state
        legal = game.legal_actions()
        rows = row_list([a.row for a in legal if a.row is not None])
        head = Text(f"{possessive(self.replay.seats[attempt.puzzle.seat])} move", "bold")
        if game.drawn_card is not None:
            return Text.assemble(head, f": put the card on a row ({rows})")
        if DRAW in legal and rows:
            return Text.assemble(head, f": draw a card (d) or take a row ({rows})")
        if DRAW in legal:
            return Text.assemble(head, ": draw a card (d)")
        return Text.assemble(head, f": take a row ({rows})")

    def _who(self) -> str:
        """The player, as the puzzle speaks of them: "you", or their name (hotseat)."""
        assert self.attempt is not None
        name = self.replay.seats[self.attempt.puzzle.seat]
        return "you" if name == YOU else name

    def _more(self) -> bool:
        return self.index + 1 < len(self.puzzles)

    def _reveal(self, outcome: Outcome) -> None:
        """The puzzle is over: how it went, the best move and what it is worth, what the
        player's own last answer was worth against it, and why the best beats the move
        played in the game."""
        attempt = self.attempt
        assert attempt is not None
        puzzle = attempt.puzzle
        state = puzzle.state
        self.done.append(outcome)
        best = puzzle.best
        last = attempt.answers[-1] if attempt.answers else None
        estimates = puzzle.decision.estimates
        mine = last is not None and estimates[last] == estimates[best]
        yours = " (your answer)" if mine else ""
        lines = [
            Text.assemble(
                (OUTCOME_WORDS[outcome], "bold"),
                f" Best: {describe_action(best, state)}{yours}: {puzzle.worth()}.",
            )
        ]
        if last is not None and not mine:
            lines.append(Text(f"Your answer ({describe_action(last, state)}): {self._tried(last)}"))
        lines.append(Text(f"Why: {puzzle.why()}.", "italic"))
        if self.keep is not None:
            problem = self.keep(attempt.result())
            if problem is not None:
                lines.append(Text(problem, "italic"))
        self._reading(True)
        self.notice.say(Text("\n").join(lines), "event")
        self.refresh_bindings()

    def _tried(self, action: Action) -> str:
        """What an answer was worth, and against the best: "chance to win 30% (± 2%); ...;
        against the best: -4.0 ± 0.5 points, -30 ± 1% chance to win"; for one that solves
        the puzzle, that it is about as good."""
        puzzle = self.attempt.puzzle if self.attempt is not None else None
        assert puzzle is not None
        against = f"against the best: {puzzle.answer_words(action)}"
        if (alike := puzzle.about_as_good(action)) is not None:
            against = f"{alike} ({against})"
        return f"{puzzle.worth(action)}; {against}."

    def _reading(self, answer: bool) -> None:
        """Room for the answer (``answer``): the turn bar, the legend and the move log make
        way for it (the keys bar says what comes next); or the table as it is played."""
        for widget in (self.query_one(TurnBar), self.query_one(Legend), self.query_one(MoveLog)):
            widget.display = not answer
        self.query_one(SidePanel).set_class(answer, "-no-log")
        self.call_after_refresh(self.query_one(SeatsPanel).redraw)

    # ------------------------------------------------------------------ keys

    def key_display(self, binding: Binding) -> str | None:
        """The row keys as the rows that can be played in the puzzle (``GuardedApp``)."""
        if binding.id == "practice-row-1" and self.attempt is not None:
            legal = self.attempt.puzzle.state.legal_actions()
            rows = sorted({a.row + 1 for a in legal if a.row is not None})
            if rows:
                return offered_row_keys(rows)
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The moves are offered while the puzzle waits for an answer (the rows that can
        be played, ``d`` when drawing can), and ``a``; ``n`` always (after the last puzzle:
        how the puzzles went)."""
        attempt = self.attempt
        if action in ("draw", "row", "answer"):
            if attempt is None or attempt.over:
                return False
            legal = attempt.puzzle.state.legal_actions()
            if action == "draw":
                return DRAW in legal
            if action == "row":
                return any(a.row is not None for a in legal)
        if action == "next":
            return attempt is not None
        return True

    def action_draw(self) -> None:
        """``d``: answer "draw"."""
        self.play(DRAW)

    def action_row(self, number: int) -> None:
        """``1``-``5``: answer "place on" or "take" that row."""
        attempt = self.attempt
        if attempt is None:
            return
        placing = attempt.puzzle.state.drawn_card is not None
        self.play(Action.place(number - 1) if placing else Action.take(number - 1))

    def play(self, action: Action) -> None:
        """Answer ``action``: solved, another try, or the answer shown."""
        attempt = self.attempt
        if attempt is None or attempt.over:
            return
        state = attempt.puzzle.state
        if not state.is_legal(action):
            moves = self._prompt().plain.split(": ", 1)[-1]
            what = doing(action, state).capitalize()
            self.notice.say(f"{what} is not a move here: {moves}", "error")
            return
        outcome = attempt.answer(action)
        if outcome is not None:
            self._reveal(outcome)
            return
        played = attempt.puzzle.decision.played
        same = ", the move played in the game," if action == played else ""
        self.notice.say(
            f"{doing(action, state).capitalize()}{same} is not the best move here: "
            f"{self._tried(action)} A second try (a shows the answer).",
            "error",
        )

    def action_answer(self) -> None:
        """``a``: the answer (a puzzle not solved yet is missed)."""
        attempt = self.attempt
        if attempt is not None and not attempt.over:
            self._reveal(attempt.give_up())

    def action_next(self) -> None:
        """``n``: the next puzzle; after the last, how the puzzles went."""
        if self.attempt is None:
            return
        if not self._more():
            self._summary()
            return
        self.index += 1
        self.attempt = Attempt(self.puzzles[self.index])
        self.show_puzzle()

    def _summary(self) -> None:
        """How the puzzles went: "3 of the 5 tried solved (2 at the first try), 1 skipped"."""
        solved = sum(outcome.solved for outcome in self.done)
        first = sum(outcome is Outcome.FIRST for outcome in self.done)
        skipped = len(self.puzzles) - len(self.done)
        others = f", {skipped} skipped" if skipped else ""
        self.notice.say(
            f"That was the last puzzle: {solved} of the {len(self.done)} tried solved "
            f"({first} at the first try){others}. Esc leaves.",
            "event",
        )

    def action_leave(self) -> None:
        """Esc: leave practice."""
        self.dismiss(None)

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing here says which keys do; a move that cannot be played
        in the puzzle (not offered), why."""
        key = event.character if event.is_printable else event.key
        attempt = self.attempt
        if key in MOVE_KEYS and attempt is not None and not attempt.over:
            event.stop()  # played, or said why not
            if key in "dD":
                self.action_draw()
            else:
                self.action_row(int(key))
        elif key in MOVE_KEYS or (
            event.key not in self.app.active_bindings and event.key not in ("tab", "shift+tab")
        ):
            event.stop()
            self.notice.say(f"{key} does nothing here: {self.keys_help()}", "error")

    def keys_help(self) -> str:
        """The keys that work now, in words."""
        attempt = self.attempt
        if attempt is not None and not attempt.over:
            return "d or a row's number answers, a shows the answer, Esc leaves"
        return "n: the next puzzle, Esc leaves"
