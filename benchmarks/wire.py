"""How long the online protocol takes to read (decode and check) and to write a request,
in microseconds a frame: run it on two checkouts to compare them.

    PYTHONPATH=. python benchmarks/wire.py
    PYTHONPATH=/tmp/old-wire python benchmarks/wire.py   # an older checkout, the same frames

It builds its requests through each class's ``of`` when there is one (the declared
requests) and through the class itself otherwise (the hand-written ones before them)."""

from __future__ import annotations

import argparse
import json
import timeit
from collections.abc import Callable
from typing import Any

from coloretto.engine import Action, Rules
from coloretto.online import protocol


def built(name: str, *args: Any, **kwargs: Any) -> Any:
    """Request class ``name`` built from engine values, as this checkout builds it."""
    cls = getattr(protocol, name)
    maker: Callable[..., Any] = getattr(cls, "of", cls)
    return maker(*args, **kwargs)


REQUESTS = {
    "act": lambda: built("Act", 17, Action.parse("take 2")),
    "next": lambda: built("Next", 2),
    "join": lambda: built("Join", "K7PQ2M", "Ben"),
    "host": lambda: built(
        "Host",
        "Ana",
        Rules(players=4, games=3),
        "easy",
        0.6,
        30.0,
        public=True,
        fill_after=60.0,
        clock="standard",
    ),
}


def micro(work: Callable[[], object], seconds: float) -> float:
    """Microseconds a call of ``work``, the best of 5 runs of about ``seconds`` each."""
    number = max(1, int(seconds / max(timeit.timeit(work, number=100) / 100, 1e-9)))
    return min(timeit.repeat(work, number=number, repeat=5)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.2, help="each run's length")
    args = parser.parse_args()
    print(f"{'request':8} {'read µs':>8} {'write µs':>9}  frame")
    for name, make in REQUESTS.items():
        request = make()
        frame = protocol.encode(request)
        assert protocol.parse_request(frame) == request
        read = micro(lambda frame=frame: protocol.parse_request(frame), args.seconds)
        write = micro(lambda request=request: protocol.encode(request), args.seconds)
        print(f"{name:8} {read:8.2f} {write:9.2f}  {json.dumps(json.loads(frame))[:60]}")


if __name__ == "__main__":
    main()
