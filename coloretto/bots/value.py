"""A learnt value of a position at a round's end: one seat's chance to win the game.

The search bot plays each candidate out to the end of the round; there it needs to know
how good the position is for its seat. The hand-made estimate (score plus the prospects
of the colours each seat builds, a logistic of the margin over the best rival) knows
nothing of how often such a lead actually turns into a win. A ``ValueNet`` does: a small
neural network (two hidden layers of ``tanh`` units, a logistic output) over ``features``
of the position, trained on the final results of games played from positions like it
(``benchmarks/value.py`` makes the data and trains it, with numpy; playing needs only
this module). Its weights ship with the package, one file per table for which one was
trained (``value-gray-4.json``: four players, the gray side); elsewhere the search keeps
the hand-made estimate.

>>> from coloretto.engine import Rules, new_game
>>> net = value_net(Rules(players=4, scoring="gray"))
>>> net is not None and value_net(Rules(players=3)) is None
True
>>> game = new_game(Rules(players=4, scoring="gray"), seed=1)
>>> 0.0 < net.win(features(game, 0, [1.0, 0.0, 0.0, 0.0])) < 1.0
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from importlib import resources

from coloretto.engine import Card, GameState, Rules, best_total

FEATURES = 26
"""How many numbers ``features`` gives (the networks' input size)."""
LAST_ROUND_SCALE = 60.0
"""Cards before the Last Round card are given divided by this (about a whole deck's)."""
_JOKERS = (Card.JOKER, Card.GOLDEN_JOKER)


def features(state: GameState, seat: int, values: Sequence[float]) -> list[float]:
    """What the network sees of ``state`` for ``seat``, given every seat's hand-made
    ``values`` (score plus prospects, as the search bot reckons them).

    The seat's value, its margin over the best other seat, the values of the three best
    others (0 where there are fewer), how far the Last Round card is and whether it is
    out; then for the seat and its best rival: score, room left in its three best colours
    (cards until each reaches the scoring table's best count), cards in its other
    colours, colours held, jokers, "+2" cards and its three biggest colours' counts; last,
    the seat's score less its best rival's.
    """
    rules = state.rules
    others = sorted((o for o in range(rules.seats) if o != seat), key=lambda o: -values[o])
    mine = _seat(state, seat)
    rival = _seat(state, others[0])
    before = state.cards_before_last_round
    tops = [values[o] for o in others[:3]] + [0.0] * (3 - len(others[:3]))
    head = [
        values[seat] - values[others[0]],
        values[seat],
        *tops,
        (before or 0) / LAST_ROUND_SCALE,
        1.0 if before is None else 0.0,
    ]
    return [*head, *mine, *rival, mine[0] - rival[0]]


def _seat(state: GameState, seat: int) -> list[float]:
    """Score, room, extra cards, colours, jokers, "+2" cards and the three biggest counts."""
    rules = state.rules
    table = rules.scoring.table
    plus = rules.plus_colours
    peak = max(range(len(table)), key=table.__getitem__)
    held = state.counts(seat)
    own = sorted((held[c] for c in state.colours), reverse=True)
    jokers = sum(held[j] for j in _JOKERS)
    score = best_total(own, jokers, held[Card.PLUS2], table, plus)
    top = (own + [0] * plus)[:plus]
    return [
        float(score),
        float(sum(max(0, peak - n) for n in top)),
        float(sum(own[plus:])),
        float(sum(1 for n in own if n)),
        float(jokers),
        float(held[Card.PLUS2]),
        *(float(n) for n in top[:3]),
    ]


class ValueNet:
    """A seat's chance to win from ``features``: standardised inputs, ``tanh`` hidden
    layers, a logistic output. Pure Python, so playing needs no numpy.

    >>> net = ValueNet(mean=[0.0], scale=[1.0], layers=[([[0.0]], [0.0]), ([[2.0]], [0.0])])
    >>> net.win([3.0])
    0.5
    """

    def __init__(
        self,
        *,
        mean: Sequence[float],
        scale: Sequence[float],
        layers: Sequence[tuple[Sequence[Sequence[float]], Sequence[float]]],
    ) -> None:
        size = len(mean)
        if len(scale) != size or not layers or any(s <= 0 for s in scale):
            raise ValueError("a value network needs a positive scale for every input")
        self.mean = [float(m) for m in mean]
        self.scale = [float(s) for s in scale]
        self.layers: list[tuple[list[list[float]], list[float]]] = []
        for weights, biases in layers:
            if len(weights) != size or any(len(row) != len(biases) for row in weights):
                raise ValueError("a value network's layers do not fit together")
            self.layers.append(([[float(w) for w in row] for row in weights], list(biases)))
            size = len(biases)
        if size != 1:
            raise ValueError("a value network ends in one output")

    def win(self, inputs: Sequence[float]) -> float:
        """The chance to win (0 to 1) for a seat whose position has these ``inputs``."""
        if len(inputs) != len(self.mean):
            raise ValueError(f"expected {len(self.mean)} inputs, got {len(inputs)}")
        units = [(x - m) / s for x, m, s in zip(inputs, self.mean, self.scale, strict=True)]
        last = len(self.layers) - 1
        for depth, (weights, biases) in enumerate(self.layers):
            sums = list(biases)
            for x, row in zip(units, weights, strict=True):
                if x:
                    for j, w in enumerate(row):
                        sums[j] += x * w
            units = sums if depth == last else [math.tanh(s) for s in sums]
        z = max(-30.0, min(30.0, units[0]))
        return 1.0 / (1.0 + math.exp(-z))

    def to_json(self) -> dict[str, object]:
        """The network as the JSON object ``from_json`` reads."""
        return {
            "format": "coloretto-value/1",
            "mean": self.mean,
            "scale": self.scale,
            "layers": [{"weights": w, "biases": b} for w, b in self.layers],
        }

    @classmethod
    def from_json(cls, data: object) -> ValueNet:
        """A network from ``to_json``'s object; ``ValueError`` if it is not one."""
        if not isinstance(data, dict) or data.get("format") != "coloretto-value/1":
            raise ValueError("not a coloretto-value/1 network")
        try:
            layers = [(layer["weights"], layer["biases"]) for layer in data["layers"]]
            return cls(mean=data["mean"], scale=data["scale"], layers=layers)
        except (KeyError, TypeError) as error:
            raise ValueError(f"a malformed value network: {error}") from None


def value_file(rules: Rules) -> str:
    """The name of the network file for a table of these rules."""
    return f"value-{rules.scoring.value}-{rules.seats}.json"


@cache
def _load(name: str) -> ValueNet | None:
    path = resources.files("coloretto.bots") / "values" / name
    if not path.is_file():
        return None
    net = ValueNet.from_json(json.loads(path.read_text(encoding="utf-8")))
    if len(net.mean) != FEATURES:
        raise ValueError(f"{name}: expected {FEATURES} inputs, got {len(net.mean)}")
    return net


def value_net(rules: Rules) -> ValueNet | None:
    """The network trained for tables of these rules (classic, standard), if there is one."""
    if rules.variant.value != "standard" or rules.edition.value != "classic":
        return None
    return _load(value_file(rules))
