"""A recorded game replayed on the table, one action at a time.

The board is the game screen's (``coloretto.tui.table``): the same rows, drawn card,
players, top bar and turn bar, as they were after each action. The keys: Right/Left step one
action forward/back, Home/End jump to the start/end, PageUp/PageDown (or ``[``/``]``) to the
start of the previous/next round, Enter shows the score cards once the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer

from coloretto.engine import ActionKind, Edition, GameRecord, GameState, Match, Move, Variant
from coloretto.store.text import LONGEST_NAME, printable
from coloretto.tui.config import GameConfig, Player, possessive
from coloretto.tui.screens.dialogs import MovesScreen, RulesScreen
from coloretto.tui.screens.end import EndChoice, EndScreen
from coloretto.tui.session import Session
from coloretto.tui.table import show_table, table_widgets
from coloretto.tui.widgets import Legend, MoveLog, Notice
from coloretto.tui.words import DASH, describe_move

KEYS_TEXT = (
    "→ ←: one action forward / back · Home End: the deal / the end · [ ] or PgUp PgDn: "
    "rounds · Enter: the scores · m: all moves · r: rules · q: quit"
)
"""What ``?`` says."""


@dataclass(frozen=True)
class Replay:
    """A recorded game ready to be stepped through: every position, in order.

    ``states[0]`` is the deal, ``states[i]`` the position after ``i`` actions.

    >>> from coloretto.engine import Rules, new_game
    >>> from coloretto.engine.record import load_record, to_record
    >>> game = new_game(Rules(players=3), seed=2).apply("draw").apply("place 1")
    >>> replay = Replay.from_record(load_record(to_record(game, ["Ana", "Ben", "Cy"])))
    >>> replay.last, replay.states[1].drawn_card == game.rows[0][0], replay.seats[0]
    (2, True, 'Ana')
    """

    seats: tuple[str, ...]
    states: tuple[GameState, ...]
    config: GameConfig
    seed: int
    name: str = ""
    """What the game is called (its file name), for the log."""

    @classmethod
    def from_record(cls, record: GameRecord, name: str = "") -> Replay:
        """Every position of ``record``'s game; a game of a match is replayed on its own.
        The names are shown ``printable`` (a record is a file from anywhere)."""
        rules = replace(record.rules, games=1)
        state = GameState.from_setup(rules, record.state.setup)
        states = [state]
        for move in record.state.history():
            state = state.apply(move.action)
            states.append(state)
        seed = record.state.setup.seed
        seed = seed if isinstance(seed, int) else 0
        seats = tuple(printable(n, LONGEST_NAME) for n in record.seats)
        names = seats[: rules.players]
        try:
            config = GameConfig(rules, tuple(Player(n) for n in names), seed, delay=0)
        except ValueError:  # names the game itself would refuse (say, a bot spec from the arena)
            players = tuple(Player(f"Seat {s + 1}") for s in range(rules.players))
            config = GameConfig(rules, players, seed, delay=0)
        return cls(seats, tuple(states), config, seed, printable(name))

    @property
    def last(self) -> int:
        """The number of actions recorded (the last step)."""
        return len(self.states) - 1

    def session(self, step: int) -> Session:
        """The game as it stood after ``step`` actions, as a session the table can show."""
        match = Match(self.config.rules, self.seed, self.states[step])
        session = Session(self.config, match)
        session.seat_names = self.seats
        return session

    def move(self, step: int) -> Move | None:
        """The action that led to ``step`` (``None`` at the start)."""
        return self.states[step].last_move if step else None

    def round_start(self, step: int) -> int:
        """The first step of the round ``step`` is in."""
        number = self.states[step].round
        while step > 0 and self.states[step - 1].round == number:
            step -= 1
        return step

    def next_round(self, step: int) -> int | None:
        """The first step of the round after ``step``'s, if there is one."""
        number = self.states[step].round
        return next(
            (i for i in range(step + 1, len(self.states)) if self.states[i].round != number), None
        )

    def previous_round(self, step: int) -> int | None:
        """The start of ``step``'s round, or of the round before when ``step`` starts one."""
        start = self.round_start(step)
        if start < step:
            return start
        return self.round_start(step - 1) if step > 0 else None


def final_scores(session: Session) -> Text:
    """``Ana 23 · Ben 17 · Cy 12``, the winners in bold."""
    game = session.game
    scores = game.final_scores()
    winners = set(game.winners())
    return Text(" · ").join(
        Text(f"{name} {score}", style="bold" if seat in winners else "")
        for seat, (name, score) in enumerate(zip(session.seat_names, scores, strict=True))
    )


class ReplayScreen(Screen[None]):
    """A recorded game on the table, stepped through with the arrow keys."""

    CSS_PATH = "game.tcss"
    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("right", "step(1)", "Step", key_display="←/→", id="replay-next"),
        Binding("left", "step(-1)", "Back", show=False, id="replay-back"),
        Binding("home", "jump('start')", "Deal", key_display="Home", id="replay-start"),
        Binding("end", "jump('end')", "Last", key_display="End", id="replay-end"),
        Binding("right_square_bracket,pagedown", "round(1)", "Round", key_display="[ ]"),
        Binding("left_square_bracket,pageup", "round(-1)", "Previous round", show=False),
        Binding("enter", "results", "Scores", show=False, id="replay-results"),
        Binding("m", "moves", "All moves", show=False, id="replay-moves"),
        Binding("question_mark", "help", "Keys", id="replay-help"),
        Binding("r", "rules", "Rules", show=False, id="replay-rules"),
        Binding("q", "quit", "Quit", id="replay-quit"),
    ]

    def __init__(self, replay: Replay, step: int = 0) -> None:
        super().__init__()
        self.replay = replay
        self.step = max(0, min(step, replay.last))
        """The actions shown so far."""
        self.session = replay.session(self.step)
        """The game as it stands at ``step``."""
        self._entries: list[Text] = []
        self._shown: list[int] = []

    def compose(self) -> ComposeResult:
        """The game screen's table, and the keys."""
        yield from table_widgets(self.replay.states[0])
        yield Footer(compact=True)

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
        rules = start.rules
        what = [f"{rules.players} players", f"{rules.scoring.value} side"]
        if rules.edition is not Edition.CLASSIC:
            what.append(f"{rules.edition.value} edition")
        if rules.variant is not Variant.STANDARD:
            what.append(f"{rules.variant.value} variant")
        title = f"Replay of {replay.name}" if replay.name else "Replay"
        log.add(Text(f"{title}: {', '.join(what)}; seed {replay.seed}."))
        self._shown = [len(log.entries)]
        for step in range(1, replay.last + 1):
            before, after = replay.states[step - 1], replay.states[step]
            move = replay.move(step)
            assert move is not None
            for line in describe_move(move, before, after, replay.seats, plain=plain):
                log.add(line, round_number=before.round)
            self._shown.append(len(log.entries))
        self._entries = list(log.entries)
        self.show_step(self.step)

    # ------------------------------------------------------------------ showing a step

    def show_step(self, step: int) -> None:
        """Show the table as it was after ``step`` actions."""
        replay = self.replay
        self.step = step
        self.session = session = replay.session(step)
        move = replay.move(step)
        fresh = move.action.row if move and move.action.kind is ActionKind.PLACE else None
        show_table(self, session, fresh_row=fresh, prompt=self._prompt())
        log = self.query_one(MoveLog)
        count = self._shown[step]
        log.entries = self._entries[: count - 1]
        log.add(self._entries[count - 1])  # shows the latest lines that fit
        self.notice.say(self._where(), "event")

    def _where(self) -> Text:
        """Where the replay stands, and the action just played."""
        replay = self.replay
        step = self.step
        if step == 0:
            first = replay.seats[replay.states[0].current_player]
            return Text.assemble(
                (f"The deal · {replay.last} actions recorded", "bold"),
                f": {first} {'start' if first == 'You' else 'starts'}. "
                "→ steps forward, ? shows the keys.",
            )
        before, after = replay.states[step - 1], replay.states[step]
        move = replay.move(step)
        assert move is not None
        lines = describe_move(move, before, after, replay.seats, plain=self.app.no_color)
        return Text.assemble(
            (f"Move {step} of {replay.last} · Round {before.round}", "bold"),
            ": ",
            Text(" ").join(lines),
        )

    def _prompt(self) -> Text:
        """The turn bar: whose turn it is, or the final scores."""
        session = self.session
        game = session.game
        if game.is_over:
            return Text.assemble(
                ("Final scores: ", "bold"), final_scores(session), " · Enter: the score cards"
            )
        name = session.seat_names[game.current_player]
        head = Text(f"{possessive(name)} turn", "bold")
        if self.step == self.replay.last:
            return Text.assemble(head, f" {DASH} the record ends here (the game was not finished)")
        return Text.assemble(head, f" {DASH} → shows the next action, ← goes back")

    # ------------------------------------------------------------------ keys

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
        if self.session.game.is_over:
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

    def action_results(self) -> None:
        """Enter, at the end of a finished game: the score cards."""
        if not self.session.game.is_over:
            self.notice.say("The scores come at the end of the game: End jumps there.")
            return

        def chosen(choice: EndChoice | None) -> None:
            if choice == "quit":
                self.app.exit()

        self.app.push_screen(ReplayEndScreen(self.session), chosen)

    def action_moves(self) -> None:
        """``m``: every move up to here, in a scrolling screen."""
        self.app.push_screen(MovesScreen(self.query_one(MoveLog).entries))

    def action_help(self) -> None:
        """``?``: the keys."""
        self.notice.say(KEYS_TEXT)

    def action_rules(self) -> None:
        """``r``: the rules, over the replay."""
        self.app.push_screen(RulesScreen())

    def action_quit(self) -> None:
        """``q``: quit (a replay has nothing to lose)."""
        self.app.exit()

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing here says which keys do."""
        if event.key not in self.app.active_bindings:
            event.stop()
            key = event.character if event.is_printable else event.key
            self.notice.say(
                f"{key} does nothing in a replay: → ← step, [ ] rounds, q quits (? all keys)",
                "error",
            )


class ReplayEndScreen(EndScreen):
    """The score screen of a replayed game: back to the board, or quit."""

    def _keys_text(self) -> str:
        return "b: back to the replay · q: quit"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only ``b``/Esc and ``q``: a replay has no next game or rematch."""
        if action == "choose" and parameters:
            return parameters[0] in ("board", "quit")
        return True
