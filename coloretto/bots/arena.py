"""The arena: bots play many games against each other, and their strength is measured.

Each deal is played once per rotation of the seats, so every bot sits in every
seat equally often and nobody keeps the first-player advantage. Bots are asked
through the game's guard: a move that raises, is illegal or is late is replaced
and counted (or, with ``strict``, stops the run naming the bot).

The games are played by a runner (``GameRunner``): local processes
(``LocalRunner``), or a cluster's workers (``coloretto.bots.arena_cluster``). Each
game's deal and bots are seeded from the arena's seed and the game's number, and
the results are pooled in the games' order, so a seed gives the same figures on any
runner and any number of workers (for bots without a clock).
"""

from __future__ import annotations

import asyncio
import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Protocol

from coloretto.bots.driver import BotTurn, play_bots
from coloretto.bots.guard import Answer
from coloretto.bots.options import number
from coloretto.bots.oracle import make_measured_bot
from coloretto.bots.players import BotPlayers
from coloretto.bots.workers import process_pool
from coloretto.engine import GameState, Match, Outcome, Rules, record_text
from coloretto.engine.record import RulesForm
from coloretto.engine.seeds import arena_deal_seed

DEFAULT_TIME_LIMIT = 5.0
"""Seconds a bot may take for one move before it is replaced (as in the game)."""


class ArenaError(RuntimeError):
    """A bot broke the rules of a strict arena (it raised or returned an illegal action)."""


class RecordDirError(RuntimeError):
    """The games' records could not be written."""


@dataclass(frozen=True)
class Arena:
    """What to play: the rules, one bot spec per player, how many games, the seed.

    Each move may take ``time_limit`` seconds, as in a game (``BotPlayers``).
    """

    rules: Rules
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    record_dir: Path | None = None
    time_limit: float = DEFAULT_TIME_LIMIT
    strict: bool = False

    def __post_init__(self) -> None:
        if len(self.bots) != self.rules.players:
            raise ValueError(
                f"{self.rules.players} bots are needed for {self.rules.players} players, "
                f"not {len(self.bots)}"
            )
        if self.games < 1:
            raise ValueError("games must be at least 1")
        number("the time limit", self.time_limit, above=0)
        for spec in self.bots:
            make_measured_bot(spec, seed=0)  # fail early on unknown bots or bad options

    def deal_seed(self, deal: int) -> int:
        """The seed that deals the arena's deal number ``deal`` (from 0), as a game's seed:
        a game started with it (``coloretto play --seed``) is dealt the same cards and its
        bots are seeded the same way.

        >>> Arena(Rules(players=3), ("expert", "greedy", "greedy"), 1, seed=5).deal_seed(0)
        127245736666073
        """
        return arena_deal_seed(self.seed, deal)

    @property
    def names(self) -> tuple[str, ...]:
        """A distinct name per entry for the records: the spec, numbered when repeated.

        >>> Arena(Rules(players=3), ("expert", "greedy", "greedy"), 1).names
        ('expert', 'greedy #1', 'greedy #2')
        """
        names = []
        for entry, spec in enumerate(self.bots):
            if self.bots.count(spec) == 1:
                names.append(spec)
            else:
                names.append(f"{spec} #{self.bots[: entry + 1].count(spec)}")
        return tuple(names)


@dataclass(frozen=True)
class ArenaGameResult:
    """One game's outcome, per entry of ``Arena.bots`` (not per seat)."""

    scores: tuple[int, ...]
    """The players' totals (``Outcome.totals``) per entry."""
    move_seconds: tuple[float, ...]
    """Total thinking time per entry."""
    moves: tuple[int, ...]
    max_move_seconds: tuple[float, ...]
    faults: tuple[int, ...]
    """Moves replaced because the bot raised or answered with an illegal action."""
    timeouts: tuple[int, ...]
    """Moves replaced because the bot did not answer within the time limit."""


@dataclass
class BotStats:
    """Everything measured for one bot spec (entries with the same spec are pooled)."""

    name: str
    games: int = 0
    wins: float = 0.0
    score_total: int = 0
    margin_total: int = 0
    move_seconds: float = 0.0
    moves: int = 0
    max_move_seconds: float = 0.0
    faults: int = 0
    timeouts: int = 0

    @property
    def win_rate(self) -> float:
        """Wins (ties split) per game."""
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """Wilson 95% confidence interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        """Mean final score."""
        return self.score_total / self.games if self.games else 0.0

    @property
    def mean_margin(self) -> float:
        """Mean of (own score - best other score)."""
        return self.margin_total / self.games if self.games else 0.0

    @property
    def mean_move_seconds(self) -> float:
        """Mean thinking time per move."""
        return self.move_seconds / self.moves if self.moves else 0.0

    def to_json(self) -> dict[str, object]:
        """The figures as JSON values."""
        low, high = self.ci95
        return {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "mean_score": round(self.mean_score, 2),
            "mean_margin": round(self.mean_margin, 2),
            "mean_move_seconds": round(self.mean_move_seconds, 4),
            "max_move_seconds": round(self.max_move_seconds, 4),
            "faults": self.faults,
            "timeouts": self.timeouts,
        }


@dataclass
class ArenaResult:
    """The pooled statistics of an arena run."""

    arena: Arena
    games: int = 0
    bots: dict[str, BotStats] = field(default_factory=dict)

    def add(self, result: ArenaGameResult) -> None:
        """Count one game."""
        self.games += 1
        outcome = Outcome.of(result.scores)
        for entry, spec in enumerate(self.arena.bots):
            stats = self.bots.setdefault(spec, BotStats(spec))
            stats.games += 1
            stats.wins += outcome.share(entry)
            stats.score_total += result.scores[entry]
            stats.margin_total += outcome.margin(entry)
            stats.move_seconds += result.move_seconds[entry]
            stats.moves += result.moves[entry]
            stats.max_move_seconds = max(stats.max_move_seconds, result.max_move_seconds[entry])
            stats.faults += result.faults[entry]
            stats.timeouts += result.timeouts[entry]

    def to_json(self) -> dict[str, object]:
        """The result as one JSON object."""
        return {
            "games": self.games,
            "rules": RulesForm.of(self.arena.rules).to_json(),
            "seed": self.arena.seed,
            "bots": [stats.to_json() for stats in self.bots.values()],
        }


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion.

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class FinishedGame:
    """One game played, as a runner hands it back: its number, its result, and its
    record's text when the arena keeps records (written where the arena runs)."""

    number: int
    result: ArenaGameResult
    record: str | None = None


def play_game(arena: Arena, number: int) -> ArenaGameResult:
    """Play game ``number`` of the arena (``played_game``); its record is written into the
    arena's record directory when it keeps records."""
    played = played_game(arena, number)
    if played.record is not None:
        _write_record(arena, number, played.record)
    return played.result


def played_game(arena: Arena, number: int) -> FinishedGame:
    """Play game ``number`` of the arena: deal ``number // players``, seats rotated; with
    the record's text (not written) when the arena keeps records.

    The bots are kept for the game, asked as the game on this machine asks them
    (``BotPlayers``) and played by the same loop (``play_bots``, without a pause): the bot
    measured here is the bot people play.
    """
    rules = arena.rules
    players = rules.players
    rotation = number % players
    # Player p (a controller of one or more seats) is played by entry (p + rotation) % players.
    entry_of = [(p + rotation) % players for p in range(players)]
    seed = arena.deal_seed(number // players)
    game = _ArenaGame(arena, Match.start(rules, seed).game, entry_of)
    bots = BotPlayers({p: arena.bots[entry_of[p]] for p in range(players)}, seed, measuring=True)

    async def ask(turn: BotTurn) -> Answer:
        return bots.choose(turn.state, time_limit=arena.time_limit)

    asyncio.run(play_bots(game, ask))
    state = game.state
    record = None
    if arena.record_dir is not None:
        names = [arena.names[entry_of[rules.controller(s)]] for s in range(rules.seats)]
        names = [n if rules.controller(s) == s else f"{n}'s ghost" for s, n in enumerate(names)]
        record = record_text(state, names)
    outcome = state.outcome()
    assert outcome is not None
    per_player = outcome.totals
    by_entry = [0] * players
    for p in range(players):
        by_entry[entry_of[p]] = p
    result = ArenaGameResult(
        scores=tuple(per_player[by_entry[e]] for e in range(players)),
        move_seconds=tuple(game.seconds[by_entry[e]] for e in range(players)),
        moves=tuple(game.moves[by_entry[e]] for e in range(players)),
        max_move_seconds=tuple(game.worst[by_entry[e]] for e in range(players)),
        faults=tuple(game.faults[by_entry[e]] for e in range(players)),
        timeouts=tuple(game.timeouts[by_entry[e]] for e in range(players)),
    )
    return FinishedGame(number, result, record)


class _ArenaGame:
    """One arena game as the bot loop plays it, every answer counted per player."""

    def __init__(self, arena: Arena, state: GameState, entry_of: list[int]) -> None:
        self.arena = arena
        self.state = state
        self.entry_of = entry_of
        players = arena.rules.players
        self.seconds = [0.0] * players
        self.worst = [0.0] * players
        self.moves = [0] * players
        self.faults = [0] * players
        self.timeouts = [0] * players

    def bot_turn(self) -> BotTurn | None:
        """Every turn is a bot's, until the game is over."""
        return None if self.state.is_over else BotTurn(self.state)

    async def play_bot(self, turn: BotTurn, answer: Answer) -> bool:
        """Count the answer (a strict arena stops at a problem, naming the bot); play it."""
        player = self.arena.rules.controller(turn.state.current_player)
        if answer.problem is not None and self.arena.strict:
            spec = self.arena.bots[self.entry_of[player]]
            raise ArenaError(f"bot {spec!r} {_deed(answer.problem)}")
        if answer.timed_out:
            self.timeouts[player] += 1
        elif answer.problem is not None:
            self.faults[player] += 1
        self.seconds[player] += answer.seconds
        self.worst[player] = max(self.worst[player], answer.seconds)
        self.moves[player] += 1
        self.state = self.state.apply(answer.action)
        return True


def _deed(problem: str) -> str:
    """The guard's account of a failed bot ("it raised ...") with the bot named instead."""
    return problem.removeprefix("it ")


def _reason(error: OSError) -> str:
    """An OS error in a few words: "Permission denied", "No space left on device"."""
    return error.strerror or str(error)


class GameRunner(Protocol):
    """Where an arena's games are played."""

    def play(self, arena: Arena) -> Iterator[FinishedGame]:
        """Play every game of ``arena`` once (``played_game``), handing each back as it
        finishes, in any order."""
        ...


@dataclass(frozen=True)
class LocalRunner:
    """The games played over ``jobs`` processes of this machine (in this one with 1)."""

    jobs: int

    def play(self, arena: Arena) -> Iterator[FinishedGame]:
        """Every game, in the order of their numbers."""
        numbers = range(arena.games)
        if self.jobs == 1:
            yield from (played_game(arena, n) for n in numbers)
            return
        # the pool's workers end with this process, however it ends
        with process_pool(self.jobs) as pool:
            yield from pool.map(played_game, repeat(arena), numbers, chunksize=1)


def run_arena(
    arena: Arena,
    jobs: int | None = None,
    on_game: Callable[[int], None] | None = None,
    runner: GameRunner | None = None,
) -> ArenaResult:
    """Play every game and pool the results in the games' order.

    The games are played by ``runner``, by default over ``jobs`` local processes (default:
    all cores). ``on_game`` is told how many games have finished, as each finishes.
    """
    if arena.record_dir is not None:
        try:
            arena.record_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise RecordDirError(
                f"cannot make the record directory {arena.record_dir}: {_reason(error)}"
            ) from None
    result = ArenaResult(arena)
    early: dict[int, ArenaGameResult] = {}
    games = (runner or LocalRunner(jobs or os.cpu_count() or 1)).play(arena)
    for finished, played in enumerate(games, start=1):
        if played.record is not None:
            _write_record(arena, played.number, played.record)
        early[played.number] = played.result
        while result.games in early:  # the pooled sums do not depend on the finishing order
            result.add(early.pop(result.games))
        if on_game is not None:
            on_game(finished)
    return result


def _write_record(arena: Arena, number: int, record: str) -> None:
    """Write game ``number``'s record into the arena's record directory."""
    assert arena.record_dir is not None
    path = arena.record_dir / f"game-{number + 1:05d}.json"
    try:
        path.write_text(record, encoding="utf-8")
    except OSError as error:
        raise RecordDirError(f"cannot write the record {path}: {_reason(error)}") from None
