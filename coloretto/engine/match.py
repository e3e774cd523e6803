"""Match play: several games, scores carried over, the starting seat rotating."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from coloretto.engine.actions import Action
from coloretto.engine.outcome import Outcome
from coloretto.engine.rules import Rules
from coloretto.engine.seeds import Seed, game_seed, random_seed
from coloretto.engine.setup import deal
from coloretto.engine.state import GameState


class SeedSecrecy(Enum):
    """Whether the seed that dealt a game may be shown, and if not, until when."""

    SHOWN = "shown"
    """The match is over: the seed deals nothing still to come."""
    UNTIL_THE_END = "until the end"
    """The game goes on: the seed deals the rest of its deck."""
    UNTIL_THE_MATCH_IS_OVER = "until the match is over"
    """The game is over, but the match has games to come, dealt from the seed."""


def seed_secrecy(game: GameState, number: int) -> SeedSecrecy:
    """Whether the seed of ``game``, game ``number`` (from 1) of its match, may be shown:
    the one rule for the screens, the online rooms and the records.

    >>> seed_secrecy(Match.start(Rules(players=3), seed=4).game, 1)
    <SeedSecrecy.UNTIL_THE_END: 'until the end'>
    """
    if not game.is_over:
        return SeedSecrecy.UNTIL_THE_END
    if number < game.rules.games:
        return SeedSecrecy.UNTIL_THE_MATCH_IS_OVER
    return SeedSecrecy.SHOWN


@dataclass(frozen=True)
class Match:
    """A match of ``rules.games`` games; immutable like ``GameState``.

    >>> match = Match.start(Rules(players=3, games=2), seed=4)
    >>> match.game_number, match.totals()
    (1, (0, 0, 0))
    """

    rules: Rules
    seed: Seed | None
    """The seed that deals the match's games; ``None`` where it is withheld (the match as
    a seat of an online game sees it, or a game of it kept before it was over), so such a
    match deals no later game."""
    game: GameState
    """The game being played (or just finished)."""
    results: tuple[tuple[int, ...], ...] = ()
    """Final scores of the games finished before ``game``."""

    @classmethod
    def start(cls, rules: Rules, seed: Seed | None = None) -> Match:
        """Deal the first game; its seed is the match seed, so a 1-game match is a game.
        Without a seed, one is drawn at random (``random_seed``: 128 bits)."""
        if seed is None:
            seed = random_seed()
        return cls(rules, seed, GameState.from_setup(rules, deal(rules, seed)))

    @property
    def game_number(self) -> int:
        """The game being played, from 1."""
        return len(self.results) + 1

    @property
    def is_over(self) -> bool:
        """True once the last game of the match has ended."""
        return self.game.is_over and self.game_number == self.rules.games

    @property
    def seed_secrecy(self) -> SeedSecrecy:
        """Whether the match's seed may be shown now (``seed_secrecy``): once it is over."""
        return seed_secrecy(self.game, self.game_number)

    def totals(self) -> tuple[int, ...]:
        """Each seat's total: finished games, plus the current one once it is over."""
        results = self.results + ((self.game.final_scores(),) if self.game.is_over else ())
        return tuple(sum(game[s] for game in results) for s in range(self.rules.seats))

    def game_seed(self, number: int) -> Seed:
        """The seed that deals game ``number`` (from 1) of the match (``ValueError`` if it is
        withheld): ``coloretto.engine.seeds.game_seed``.

        >>> Match.start(Rules(players=3, games=2), seed=4).game_seed(2)
        '4/2'
        """
        if self.seed is None:
            raise ValueError("this match's seed is withheld: it deals no other game")
        return game_seed(self.seed, number)

    def outcome(self) -> Outcome | None:
        """The match's result once its last game is over, else ``None``: the players
        ranked by their match totals (``Rules.player_totals``)."""
        return Outcome.of(self.rules.player_totals(self.totals())) if self.is_over else None

    def apply(self, action: Action | str) -> Match:
        """The match after ``action`` in the current game."""
        return replace(self, game=self.game.apply(action))

    def next_game(self) -> Match:
        """Deal the next game; the seat after the previous game's first player starts."""
        if not self.game.is_over:
            raise ValueError("the current game is not over yet")
        if self.is_over:
            raise ValueError("the match is over")
        number = self.game_number + 1
        first = (self.game.setup.first_player + 1) % self.rules.seats
        setup = deal(self.rules, self.game_seed(number), first_player=first)
        return Match(
            self.rules,
            self.seed,
            GameState.from_setup(self.rules, setup),
            (*self.results, self.game.final_scores()),
        )
