"""A recorded game, ready to be stepped through: every position in order, as a session the
table can show, and the rounds to jump between."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from coloretto.engine import GameRecord, GameState, Match, Move, SeedSecrecy, seed_secrecy
from coloretto.play.analysis import hints_of
from coloretto.play.coach import Decision, StoredHint
from coloretto.play.config import GameConfig, Player
from coloretto.play.review import Review, review_of
from coloretto.play.saving import SESSION_KEY
from coloretto.play.seed_text import deal_seed_text
from coloretto.play.table_view import Mover
from coloretto.store.text import LONGEST_NAME, printable


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
    seed: int | None
    name: str = ""
    """What the game is called (its file name), for the log."""
    review: Review | None = None
    """The coach's review kept in the record (``coloretto review``), if any."""
    shown_seed: str = ""
    """The deal's seed as the log shows it: kept secret for a game not finished or a game
    of a match with games to come (it deals the rest of the deck, or the next games)."""
    hints: Mapping[int, StoredHint] = field(default_factory=dict)
    """The hints given in the game, by the ply of their decision (``meta.hints``)."""

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
        dealt = record.state.setup.seed
        seed = dealt if isinstance(dealt, int) else None
        seats = tuple(printable(n, LONGEST_NAME) for n in record.seats)
        names = seats[: rules.players]
        bots = _bots(record, rules.players)
        try:
            players = tuple(Player(n, bot) for n, bot in zip(names, bots, strict=True))
            config = GameConfig(rules, players, seed, delay=0)
        except ValueError:  # names the game itself would refuse (say, a bot spec from the arena)
            players = tuple(Player(f"Seat {s + 1}", bots[s]) for s in range(rules.players))
            config = GameConfig(rules, players, seed, delay=0)
        review = review_of(record, states)
        secrecy = seed_secrecy(record.state, _game_number(record))
        if secrecy is SeedSecrecy.UNTIL_THE_END:
            shown = "secret (the game was not finished)"
        elif secrecy is SeedSecrecy.UNTIL_THE_MATCH_IS_OVER:
            shown = "secret (its match had games to come, dealt from it)"
        else:
            shown = "not recorded" if dealt is None else deal_seed_text(dealt)
        hints = hints_of(record.meta, states)
        return cls(seats, tuple(states), config, seed, printable(name), review, shown, hints)

    @property
    def last(self) -> int:
        """The number of actions recorded (the last step)."""
        return len(self.states) - 1

    def view(self, step: int) -> ReplayedView:
        """The game as it stood after ``step`` actions, as the table shows it."""
        match = Match(self.config.rules, self.seed, self.states[step])
        return ReplayedView(self.config, match, self.seats, self.shown_seed, self.name)

    def move(self, step: int) -> Move | None:
        """The action that led to ``step`` (``None`` at the start)."""
        return self.states[step].last_move if step else None

    def decision(self, step: int) -> Decision | None:
        """The coach's judgement of the action that led to ``step``, if it was reviewed."""
        if self.review is None or step < 1:
            return None
        return self.review.decisions.get(step - 1)

    def hint(self, step: int) -> StoredHint | None:
        """The hint given in the game for the action that led to ``step``, if one was."""
        return self.hints.get(step - 1) if step >= 1 else None

    def next_mistake(self, step: int) -> int | None:
        """The first step after ``step`` that an inaccuracy, a mistake or a blunder led to
        (what ``n`` finds, and what practice brings back)."""
        return next(
            (
                later
                for later in range(step + 1, len(self.states))
                if (decision := self.decision(later)) is not None and decision.grade.is_flaw
            ),
            None,
        )

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


@dataclass(frozen=True)
class ReplayedView:
    """A recorded game as the table shows it (a ``TableView``): the bots' levels show
    beside their names, but nobody moves (nor thinks) in a replay."""

    config: GameConfig
    match: Match
    seat_names: tuple[str, ...]
    shown_seed: str
    """The seed as the replay shows it (``Replay.shown_seed``)."""
    id: str
    """The record's name."""

    @property
    def game(self) -> GameState:
        """The position shown."""
        return self.match.game

    @property
    def has_next_game(self) -> bool:
        """Always false: a game of a match is replayed on its own."""
        return False

    def mover(self, seat: int) -> Mover:
        """Always "here": the table shows whose turn it was, not a bot thinking."""
        return Mover.HERE


def _session_meta(record: GameRecord) -> Mapping[str, Any]:
    """The session a game's record keeps (who played, the match), if it is one."""
    data = record.meta.get(SESSION_KEY)
    return data if isinstance(data, Mapping) else {}


def _bots(record: GameRecord, players: int) -> list[str | None]:
    """Each player's bot as the record keeps it (``None``: a person, or not recorded),
    shown as a name is (``printable``: a record is a file from anywhere)."""
    entries = _session_meta(record).get("players")
    bots: list[str | None] = [None] * players
    if isinstance(entries, list) and len(entries) == players:
        for i, entry in enumerate(entries):
            bot = entry.get("bot") if isinstance(entry, Mapping) else None
            if isinstance(bot, str) and printable(bot, LONGEST_NAME):
                bots[i] = printable(bot, LONGEST_NAME)
    return bots


def _game_number(record: GameRecord) -> int:
    """The recorded game's number in its match, as it was kept (the match's last game
    when the record does not say)."""
    match = _session_meta(record).get("match")
    number = match.get("game") if isinstance(match, Mapping) else None
    return number if type(number) is int else record.rules.games
