"""What keeping one action costs the server: the whole room saved (the server before the
action logs) against one line appended to the room's log (``RoomStore.append``).

Run: ``python benchmarks/store.py [--games 5] [--players 4]``.
Plays ``--games`` games of scripted people and bots in one room each (in this process, in a
temporary folder on the disk the data directory would be on: ``--folder``), keeping every
action both ways (flushed to the disk both ways), and prints the median time per action in
microseconds, elapsed and of processor time, and at the games' last actions, where the
whole save is at its dearest.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from coloretto.engine import Rules
from coloretto.online.protocol import Host
from coloretto.online.room_store import RoomStore
from coloretto.online.rooms import Room, new_code
from coloretto.store.paths import DataDir
from coloretto.store.records import write_record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--folder", default=None, help="where to write (a temporary folder)")
    args = parser.parse_args()
    whole: list[tuple[float, float]] = []
    logged: list[tuple[float, float]] = []
    ends: list[int] = []
    with tempfile.TemporaryDirectory(dir=args.folder) as home:
        store = RoomStore(DataDir(Path(home)))
        for number in range(args.games):
            code = new_code()
            rules = Rules(players=args.players)
            room, _ = Room.open(code, Host("Ana", rules, "easy", 0, 30))
            room.join("Ben")
            room.start()
            store.save(room.snapshot())
            rng = random.Random(number)
            path = Path(home) / f"{code}-whole.json"
            while not room.session.game.is_over:
                ply = room.ply
                move = room.session.apply(rng.choice(room.session.game.legal_actions()))
                started = time.perf_counter(), time.thread_time()
                snapshot = room.snapshot()
                write_record(path, snapshot.state, snapshot.seats, snapshot.meta)
                middle = time.perf_counter(), time.thread_time()
                store.append(code, ply, move, covered=False)
                done = time.perf_counter(), time.thread_time()
                whole.append((middle[0] - started[0], middle[1] - started[1]))
                logged.append((done[0] - middle[0], done[1] - middle[1]))
            ends.append(len(whole) - 1)
    print(
        f"{len(whole)} actions of {args.games} games of {args.players} players, each kept "
        "both ways; the median per action (at the games' last actions), in µs:"
    )
    for name, times in (
        ("whole room saved (snapshot, record written, fsync)", whole),
        ("one line appended to the log (fdatasync)", logged),
    ):
        wall, cpu = (statistics.median(t[i] for t in times) * 1e6 for i in (0, 1))
        wall_end, cpu_end = (statistics.median(times[e][i] for e in ends) * 1e6 for i in (0, 1))
        print(
            f"  {name}: {wall:.0f} elapsed ({wall_end:.0f}), "
            f"{cpu:.0f} of processor time ({cpu_end:.0f})"
        )


if __name__ == "__main__":
    main()
