"""How long the online protocol takes to read (decode and check) and to write a frame, in
microseconds: a few requests and server messages as the server and the client meet them.
Run it on two checkouts to compare them, the same frames:

    PYTHONPATH=. python benchmarks/wire.py
    PYTHONPATH=/tmp/old-wire python benchmarks/wire.py   # an older checkout

Frames are built through each class's ``of`` when there is one (the declared ones) and
through the class itself otherwise (the hand-written ones before them)."""

from __future__ import annotations

import argparse
import random
import timeit
from collections.abc import Callable
from typing import Any

from coloretto.engine import Action, Rules, new_game
from coloretto.online.wire import messages, protocol
from coloretto.online.wire.public import PublicSetup
from coloretto.play.config import Player


def built(module: Any, name: str, *args: Any, **kwargs: Any) -> Any:
    """Class ``name`` of ``module`` built from engine values, as this checkout builds it."""
    cls = getattr(module, name)
    maker: Callable[..., Any] = getattr(cls, "of", cls)
    return maker(*args, **kwargs)


def game_message() -> Any:
    """A ``game`` message of 4 players, 60 moves into the game."""
    game = new_game(Rules(players=4), 7)
    rng = random.Random(7)
    for _ in range(60):
        game = game.apply(rng.choice(game.legal_actions()))
    players = (Player("Ana"), Player("Ben"), Player("Bot 1", "easy"), Player("Bot 2", "easy"))
    return built(messages, "GameMessage", "K7PQ2M", "20261207-195000-a1b2c3", 1, game.rules,
                 players, "easy", 0.6, 30.0, PublicSetup.of(game.setup), game.history(),
                 away=(3,), covered=frozenset({4, 9}))  # fmt: skip


def host_request() -> Any:
    """A ``host`` request of a public 3-game match."""
    rules = Rules(players=4, games=3)
    return built(protocol, "Host", "Ana", rules, "easy", 0.6, 30.0, public=True, fill_after=60.0)


def move_message() -> Any:
    """A ``move`` message: a draw that turned up a card, at a table with a clock."""
    move = new_game(Rules(players=4), 7).apply("draw").last_move
    return built(messages, "MoveMessage", 17, move, bank=171.5)


FRAMES: dict[str, tuple[Callable[[], Any], Callable[[str], Any]]] = {
    "act": (lambda: built(protocol, "Act", 17, Action.parse("take 2")), protocol.parse_request),
    "next": (lambda: built(protocol, "Next", 2), protocol.parse_request),
    "join": (lambda: built(protocol, "Join", "K7PQ2M", "Ben"), protocol.parse_request),
    "host": (host_request, protocol.parse_request),
    "move": (move_message, messages.parse_message),
    "presence": (lambda: messages.PresenceMessage((1,), 29.5), messages.parse_message),
    "game": (game_message, messages.parse_message),
}


def micro(work: Callable[[], object], seconds: float) -> float:
    """Microseconds a call of ``work``, the best of 5 runs of about ``seconds`` each."""
    number = max(1, int(seconds / max(timeit.timeit(work, number=20) / 20, 1e-9)))
    return min(timeit.repeat(work, number=number, repeat=5)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.2, help="each run's length")
    args = parser.parse_args()
    print(f"{'frame':9} {'bytes':>6} {'read µs':>9} {'write µs':>9}")
    for name, (make, parse) in FRAMES.items():
        value = make()
        frame = protocol.encode(value)
        assert parse(frame) == value
        read = micro(lambda frame=frame, parse=parse: parse(frame), args.seconds)
        write = micro(lambda value=value: protocol.encode(value), args.seconds)
        print(f"{name:9} {len(frame.encode()):6} {read:9.2f} {write:9.2f}")


if __name__ == "__main__":
    main()
