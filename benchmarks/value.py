"""Make the data for the search bot's learnt value, and train it (needs numpy).

    python benchmarks/value.py play --bot expert --games 9000 --seed 11 --out expert.jsonl
    python benchmarks/value.py play --bot search:iterations=4 --games 700 --seed 12 --out s4.jsonl
    python benchmarks/value.py train expert.jsonl s4.jsonl:3 \
        --out coloretto/bots/values/value-gray-4.json

``play`` plays BOT in one seat (rotating) against three of an opponent style (each game
the next of ``--against``) and writes, at the start of every round after the first, the
position's ``coloretto.bots.value.features`` for BOT's seat with the game's result for it
(its share of the win, its final margin), one JSON line each. ``train`` fits the network
(two hidden layers of ``--hidden`` tanh units, a logistic output, Adam on the log-loss of
the win share) to the files given, each optionally weighted by repeating it
(``FILE:N``), prints the log-loss on the last fifth of every file beside the hand-made
estimate's, and writes the network as JSON.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

from coloretto.bots.registry import make_bot
from coloretto.bots.search import seat_values
from coloretto.bots.value import ValueNet, features
from coloretto.engine import Rules, new_game

STYLES = "taker,netgain,builder,collector,denial,greedy,taker"
"""The opponents, one style a game in turn (takers twice: the hardest table)."""


def play(bot: str, against: str, game: int, seed: int, rules: Rules) -> list[str]:
    """One game's lines: the features of each round's start for ``bot``'s seat, and the
    result."""
    hero = game % rules.players
    bots = [
        make_bot(bot if p == hero else against, seed=seed * 1_000_003 + game * 31 + p)
        for p in range(rules.players)
    ]
    state = new_game(rules, seed=f"{seed}/{game}")
    rows = []
    round_ = state.round
    while not state.is_over:
        if state.round != round_:
            round_ = state.round
            rows.append(features(state, hero, seat_values(state)))
        legal = state.legal_actions()
        player = state.current_player
        action = legal[0] if len(legal) == 1 else bots[player].choose(state.view(player), legal)
        state = state.apply(action)
    outcome = state.outcome()
    assert outcome is not None
    win, margin = outcome.share(hero), outcome.margin(hero)
    return [json.dumps([row, win, margin, against]) for row in rows]


def play_command(args: argparse.Namespace) -> None:
    rules = Rules(players=args.players, scoring=args.scoring)
    styles = args.against.split(",")
    start = time.perf_counter()
    with open(args.out, "w", encoding="utf-8") as out:
        for game in range(args.games):
            for line in play(args.bot, styles[game % len(styles)], game, args.seed, rules):
                out.write(line + "\n")
            if game % 100 == 99:
                print(f"{game + 1} games, {time.perf_counter() - start:.0f} s", flush=True)


def train_command(args: argparse.Namespace) -> None:
    import numpy as np  # noqa: PLC0415 (only training needs it: pip install numpy)

    def load(name: str) -> tuple[np.ndarray, np.ndarray]:
        rows = [json.loads(line) for line in Path(name).read_text().splitlines()]
        return np.array([r[0] for r in rows], float), np.array([r[1] for r in rows], float)

    def log_loss(p: np.ndarray, y: np.ndarray) -> float:
        p = np.clip(p, 1e-6, 1 - 1e-6)
        return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))

    parts = []
    for item in args.data:
        name, _, weight = item.partition(":")
        x, y = load(name)
        cut = int(0.8 * len(x))
        parts.append((name, x, y, cut, int(weight or 1)))
    train_x = np.vstack([np.repeat(x[:cut], w, 0) for _, x, y, cut, w in parts])
    train_y = np.concatenate([np.repeat(y[:cut], w) for _, x, y, cut, w in parts])
    mean, scale = train_x.mean(0), train_x.std(0) + 1e-6
    rng = np.random.default_rng(args.seed)
    sizes = [train_x.shape[1], args.hidden, args.hidden, 1]
    weights = [rng.normal(0, 1 / np.sqrt(a), (a, b)) for a, b in itertools.pairwise(sizes)]
    biases = [np.zeros(b) for b in sizes[1:]]
    params = [*weights, *biases]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]

    def forward(x: np.ndarray) -> list[np.ndarray]:
        outs = [(x - mean) / scale]
        for depth, (w, b) in enumerate(zip(weights, biases, strict=True)):
            z = outs[-1] @ w + b
            outs.append(z if depth == len(weights) - 1 else np.tanh(z))
        return outs

    def predict(x: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-forward(x)[-1][:, 0]))

    step = 0
    for epoch in range(args.epochs):
        order = rng.permutation(len(train_x))
        for i in range(0, len(order), 256):
            batch = order[i : i + 256]
            outs = forward(train_x[batch])
            delta = (1 / (1 + np.exp(-outs[-1])) - train_y[batch][:, None]) / len(batch)
            grads_w, grads_b = [], []
            for depth in reversed(range(len(weights))):
                grads_w.insert(0, outs[depth].T @ delta + 1e-4 * weights[depth])
                grads_b.insert(0, delta.sum(0))
                if depth:
                    delta = (delta @ weights[depth].T) * (1 - outs[depth] ** 2)
            step += 1
            for k, grad in enumerate([*grads_w, *grads_b]):
                moments[k] = 0.9 * moments[k] + 0.1 * grad
                squares[k] = 0.999 * squares[k] + 0.001 * grad * grad
                params[k] -= (
                    args.rate
                    * (moments[k] / (1 - 0.9**step))
                    / (np.sqrt(squares[k] / (1 - 0.999**step)) + 1e-8)
                )
        losses = [log_loss(predict(x[cut:]), y[cut:]) for _, x, y, cut, _ in parts]
        print(f"epoch {epoch + 1}: held-out log-loss " + ", ".join(f"{v:.4f}" for v in losses))
    for name, x, y, cut, _ in parts:
        hand = 1 / (1 + np.exp(-x[cut:, 0] / 8))
        print(
            f"{name}: network {log_loss(predict(x[cut:]), y[cut:]):.4f}, "
            f"hand-made estimate {log_loss(hand, y[cut:]):.4f} ({len(x) - cut} positions)"
        )
    net = ValueNet(
        mean=mean.tolist(),
        scale=scale.tolist(),
        layers=[(w.tolist(), b.tolist()) for w, b in zip(weights, biases, strict=True)],
    )
    Path(args.out).write_text(json.dumps(net.to_json()) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    player = commands.add_parser("play", help="play games and write positions and results")
    player.add_argument("--bot", default="expert")
    player.add_argument("--against", default=STYLES)
    player.add_argument("--players", type=int, default=4)
    player.add_argument("--scoring", default="gray")
    player.add_argument("--games", type=int, default=1000)
    player.add_argument("--seed", type=int, default=11)
    player.add_argument("--out", required=True)
    trainer = commands.add_parser("train", help="fit the network to the positions")
    trainer.add_argument("data", nargs="+", help="FILE or FILE:WEIGHT")
    trainer.add_argument("--hidden", type=int, default=32)
    trainer.add_argument("--epochs", type=int, default=20)
    trainer.add_argument("--rate", type=float, default=3e-3)
    trainer.add_argument("--seed", type=int, default=0)
    trainer.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    (play_command if args.command == "play" else train_command)(args)


if __name__ == "__main__":
    sys.exit(main())
