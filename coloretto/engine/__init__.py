"""The Coloretto rules engine: pure, immutable, standard library only.

The TUI, the bots and outside scripts use only the names exported here.

>>> from coloretto.engine import Rules, new_game
>>> game = new_game(Rules(players=3), seed=42)
>>> while not game.is_over:
...     game = game.apply(game.legal_actions()[-1])
>>> len(game.final_scores())
3
"""

from coloretto.engine.actions import DRAW, Action, ActionKind, IllegalAction, IllegalReason
from coloretto.engine.cards import COLOURS, Card
from coloretto.engine.match import Match, SeedSecrecy, seed_secrecy
from coloretto.engine.outcome import Outcome
from coloretto.engine.record import (
    FORMAT,
    GameRecord,
    RecordError,
    UnreadableRecord,
    load_record,
    parse_record,
    record_text,
    to_record,
)
from coloretto.engine.rules import Edition, Rules, Scoring, Variant
from coloretto.engine.scoring import ScoreBreakdown, SetScore, best_total, score
from coloretto.engine.seeds import Seed
from coloretto.engine.setup import Setup, deal
from coloretto.engine.state import GameState, Move, new_game
from coloretto.engine.view import PlayerView

__all__ = [
    "COLOURS",
    "DRAW",
    "FORMAT",
    "Action",
    "ActionKind",
    "Card",
    "Edition",
    "GameRecord",
    "GameState",
    "IllegalAction",
    "IllegalReason",
    "Match",
    "Move",
    "Outcome",
    "PlayerView",
    "RecordError",
    "Rules",
    "ScoreBreakdown",
    "Scoring",
    "Seed",
    "SeedSecrecy",
    "SetScore",
    "Setup",
    "UnreadableRecord",
    "Variant",
    "best_total",
    "deal",
    "load_record",
    "new_game",
    "parse_record",
    "record_text",
    "score",
    "seed_secrecy",
    "to_record",
]
