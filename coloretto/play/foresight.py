"""What the coach foresees after an action, in terms a player can check as the round goes
on: the row the player takes next and what it is worth to them, the row the rival takes
and the colour it collects, and whether the Last Round card comes up before the player's
next turn.

The coach's search values an action by playing the rest of the game out on deals it
samples; its reasons are not counts on the table. ``foresee`` plays the rest of the round
out on ``PLAYOUTS`` deals the seat could be facing (``PlayerView.sample``), every seat by
the expert's policy (the search's playouts start from it), after the action: the same
deals for every action of a decision, from a seed fixed by the position, so a hint and
the review of the same decision foresee the same.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from coloretto.bots.base import standard_error
from coloretto.bots.expert import ExpertBot
from coloretto.engine import Action, ActionKind, Card, GameState
from coloretto.engine.seeds import foresight_seed
from coloretto.play.words import row_gain

PLAYOUTS = 12
"""Deals the rest of the round is played out on."""

MOST_MOVES = 200
"""A playout stops after this many moves at the most (a round is far shorter)."""


@dataclass(frozen=True)
class Outlook:
    """The rest of the round after one action, over ``playouts`` deals (see the module).

    ``mine``: the mean gain (points now) of the row the seat takes next this round
    (``None`` when the action takes a row: the seat's round is over), with the standard
    error of that mean (``mine_error``, 0 when it is not measured). ``last_round_first``:
    the playouts in which the Last Round card comes up before the seat's next turn (0 for
    an action that takes a row, or once the card is out). ``rival``: the other seat whose
    row gains most on average this round (``None`` if no other seat takes one), its mean
    gain ``rival_gain``, and the colour it collects most often (``rival_colour``: the most
    numerous colour of its row), in ``rival_colour_count`` playouts."""

    playouts: int
    mine: float | None
    last_round_first: int
    rival: int | None
    rival_gain: float
    rival_colour: Card | None
    rival_colour_count: int
    mine_error: float = 0.0


def foresee(state: GameState, action: Action) -> Outlook:
    """The rest of the round after ``action`` (legal in ``state``), for the seat to move:
    ``PLAYOUTS`` deals, from a seed fixed by the position (see the module)."""
    return _foresee(state, action)


@lru_cache(maxsize=512)
def _foresee(state: GameState, action: Action) -> Outlook:
    seat = state.current_player
    controller = state.rules.controller
    expert = ExpertBot()
    mine: list[int] = []
    first = 0
    gains: dict[int, list[int]] = {}
    colours: dict[int, Counter[Card]] = {}
    for deal in range(PLAYOUTS):
        rng = random.Random(foresight_seed(state.ply, deal))
        now = state.view(seat).sample(rng).apply(action)
        turn_seen = action.kind is ActionKind.TAKE or state.last_round
        for _ in range(MOST_MOVES):
            if now.is_over or now.round != state.round:
                break
            player = now.current_player
            if player == seat and not turn_seen and now.drawn_card is None:
                turn_seen = True  # a turn of its own, not the card it drew to place
                first += now.last_round
            legal = now.legal_actions()
            move = legal[0] if len(legal) == 1 else expert.choose(now.view(player), legal)
            if move.kind is ActionKind.TAKE and move.row is not None:
                cards = now.rows[move.row]
                if player == seat:
                    mine.append(row_gain(now, seat, cards))
                elif controller(player) != controller(seat):
                    gains.setdefault(player, []).append(row_gain(now, player, cards))
                    colour = _main_colour(cards)
                    if colour is not None:
                        colours.setdefault(player, Counter())[colour] += 1
            now = now.apply(move)
    rival = max(gains, key=lambda s: (sum(gains[s]) / PLAYOUTS, -s), default=None)
    top = colours.get(rival, Counter()).most_common(1) if rival is not None else []
    taken = bool(mine) and action.kind is not ActionKind.TAKE
    return Outlook(
        playouts=PLAYOUTS,
        mine=sum(mine) / len(mine) if taken else None,
        last_round_first=first,
        rival=rival,
        rival_gain=sum(gains[rival]) / PLAYOUTS if rival is not None else 0.0,
        rival_colour=top[0][0] if top else None,
        rival_colour_count=top[0][1] if top else 0,
        mine_error=standard_error([float(g) for g in mine]) if taken else 0.0,
    )


def _main_colour(cards: tuple[Card, ...]) -> Card | None:
    """The most numerous colour of a row (the first of them on a tie); ``None`` if none."""
    counted = Counter(card for card in cards if card.is_colour)
    return counted.most_common(1)[0][0] if counted else None
