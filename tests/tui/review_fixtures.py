"""A game with a made-up review of every decision (no search: quick and the same on any
machine), for the tests and pictures of the review's chart."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from coloretto.bots import Estimate
from coloretto.engine import GameRecord, GameState, load_record, to_record
from coloretto.play.coach import Decision
from coloretto.play.review import Review, pending, positions, with_review

from .test_replay import NAMES, random_game

LOSSES = (0.0, 0.0, 0.0, 0.0, 0.0, 0.02, 0.03, 0.07, 0.12, 0.2)
"""What a made-up decision may lose, drawn evenly: mostly nothing, now and then a flaw."""


def made_up(states: tuple[GameState, ...], ply: int, rng: random.Random) -> Decision:
    """A decision at ``ply``: its move's chance to win drifts with the game, the best
    move is another one when the move lost something."""
    played = states[ply + 1].last_move
    assert played is not None
    seat = states[ply].current_player
    win = min(0.95, max(0.02, 0.3 + 0.22 * math.sin(ply / 13 + seat) + rng.uniform(-0.05, 0.05)))
    loss = rng.choice(LOSSES)
    estimates = {
        action: Estimate(
            win if action == played.action else min(1.0, win + loss),
            0.0,
            0.02 + 0.03 * rng.random(),
            0.5,
            32,
        )
        for action in states[ply].legal_actions()
    }
    return Decision(ply, seat, played.action, estimates)


def reviewed_record(
    seed: int = 8,
    players: int = 3,
    *,
    left: int = 0,
    bot: str = "search",
    names: Sequence[str] = NAMES,
) -> GameRecord:
    """A random game of ``players`` people (named from ``names``), every decision but the
    last ``left`` reviewed (``bot`` named as the review's: the one that analyses those
    left)."""
    record = load_record(to_record(random_game(seed, players), names[:players]))
    states = positions(record)
    plies = pending(states, Review(), range(players))
    rng = random.Random(seed)
    done = {ply: made_up(states, ply, rng) for ply in plies[: len(plies) - left]}
    return with_review(record, Review(bot, 0, done))
