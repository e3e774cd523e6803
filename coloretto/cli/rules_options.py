"""Command-line options for the rules, shared by every command that starts games."""

from __future__ import annotations

import argparse

from coloretto.cli.parser import bounded_int
from coloretto.engine import Edition, Rules, Scoring, Variant
from coloretto.engine.rules import MAX_GAMES


def add_rules_arguments(parser: argparse.ArgumentParser, players: int = 4) -> None:
    """Add ``--players``, ``--scoring``, ``--edition`` and ``--variant`` (the rules of one
    game; ``add_games_argument`` adds ``--games``, for commands that play matches)."""
    group = parser.add_argument_group("rules")
    group.add_argument(
        "--players", type=bounded_int(2, 5, "--players"), default=players, help="2 to 5 players"
    )
    add_scoring_argument(group)
    group.add_argument(
        "--edition",
        choices=[e.value for e in Edition],
        default=Edition.CLASSIC.value,
        help="classic (3 jokers, default) or anniversary (2 jokers and a golden joker)",
    )
    group.add_argument(
        "--variant",
        choices=[v.value for v in Variant],
        default=Variant.STANDARD.value,
        help="standard (default); four-rows or ghost: 2-player fan variants",
    )


def add_games_argument(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Add ``--games``: the games of a match (``Rules.games``, 1 to ``MAX_GAMES``)."""
    parser.add_argument(
        "--games",
        type=bounded_int(1, MAX_GAMES, "--games"),
        default=1,
        help="games in a match; scores add up, the first player rotates (default 1)",
    )


def add_scoring_argument(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Add ``--scoring``: which side of the summary card scores the game."""
    parser.add_argument(
        "--scoring",
        choices=[s.value for s in Scoring],
        default=Scoring.BROWN.value,
        help="scoring table: brown 1/3/6/10/15/21 (default) or gray 1/4/8/7/6/5",
    )


def rules_from_args(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Rules:
    """The rules the options describe; an invalid combination is a one-line usage error."""
    try:
        return Rules(
            players=args.players,
            scoring=args.scoring,
            edition=args.edition,
            variant=args.variant,
        )
    except ValueError as error:
        parser.error(str(error))
