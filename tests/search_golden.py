"""Seeded games among the bots, every action and a sample of analyses, for checking that
a change to the bots' or the engine's speed leaves what they compute exactly as it was.

``record(games)`` plays ``games`` seeded games (3 to 5 players and the 2-player variants,
both scoring sides) among search bots with iteration-only budgets (with and without
sampled opponents, pruning, observing), the expert and the greedy bot, each kept for the
whole game and reseeded before each move as ``BotPlayers`` does. At some of seat 0's
decisions it also records the estimates of a search bot made for the question that has
caught up with the game (as the coach asks), of the kept analyst (as the hint asks), and
the expert's ratings. Floats are kept exactly (JSON writes them by ``repr``).

``tests/test_search_golden.py`` compares ``record(GOLDEN_GAMES)`` with
``tests/data/search_golden.json``; regenerate that file only on purpose, when the bots'
play is meant to change: ``python -m tests.search_golden --write``. For a larger check of
two source trees: ``PYTHONPATH=TREE python tests/search_golden.py --games 30 --out
FILE`` for each, then compare the files (``cmp``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from coloretto.bots.base import Analyst, Bot, Estimate
from coloretto.bots.expert import ExpertBot
from coloretto.bots.players import CatchesUp, Reseeded
from coloretto.bots.registry import make_bot
from coloretto.engine import Action, GameState, Rules, new_game
from coloretto.engine.seeds import move_seed

GOLDEN = Path(__file__).parent / "data" / "search_golden.json"
GOLDEN_GAMES = 3
"""Games the kept golden file holds (the test plays them again)."""

TABLES: tuple[dict[str, Any], ...] = (
    {"players": 4},
    {"players": 3, "scoring": "gray"},
    {"players": 5},
    {"players": 4, "scoring": "gray"},
    {"players": 5, "scoring": "gray", "edition": "anniversary"},
    {"players": 3, "edition": "anniversary"},
    {"players": 2, "variant": "four-rows"},
    {"players": 2, "variant": "ghost", "scoring": "gray"},
    {"players": 2},
)
SPECS = (
    "search:iterations=3",
    "expert",
    "search:iterations=2:sample=true",
    "greedy",
    "search:iterations=2:prune=-1:observe=false",
    "search:iterations=2:at_five=1:junk=0.3",
)
ANALYSTS = ("search:iterations=4", "search:iterations=3:sample=true")
EVERY = 9
"""Seat 0's decisions are analysed at every ply that is a multiple of this."""


def _estimate(estimate: Estimate) -> list[float]:
    e = estimate
    return [e.win, e.margin, e.win_error, e.margin_error, float(e.samples)]


def _analyses(state: GameState, analysts: dict[str, Bot], ply: int) -> dict[str, Any]:
    """What the analysts and the expert make of the position at ``state`` (seat 0 to move)."""
    view, legal = state.view(0), state.legal_actions()
    found: dict[str, Any] = {
        "expert": {str(a): v for a, v in ExpertBot().rate(view, legal).items()}
    }
    for spec, kept in analysts.items():
        fresh = make_bot(spec, seed=ply)
        assert isinstance(fresh, CatchesUp)
        assert isinstance(fresh, Analyst)
        fresh.catch_up(view)
        found[f"fresh {spec}"] = {
            str(a): _estimate(e) for a, e in fresh.analyse(view, legal).items()
        }
        assert isinstance(kept, Reseeded)
        assert isinstance(kept, Analyst)
        kept.reseed(ply)
        found[f"kept {spec}"] = {str(a): _estimate(e) for a, e in kept.analyse(view, legal).items()}
    return found


def play(number: int) -> dict[str, Any]:
    """Game ``number``: its table, seats, actions and analyses."""
    table = TABLES[number % len(TABLES)]
    rules = Rules(**table)
    specs = [SPECS[(number + seat) % len(SPECS)] for seat in range(rules.players)]
    bots = [make_bot(spec, seed=number) for spec in specs]
    analysts = {spec: make_bot(spec, seed=number) for spec in ANALYSTS}
    state = new_game(rules, seed=1_000 + number)
    actions: list[str] = []
    analysed: dict[str, Any] = {}
    while not state.is_over:
        seat = state.current_player
        legal = state.legal_actions()
        ply = len(actions)
        if seat == 0 and len(legal) > 1 and ply % EVERY == 0:
            analysed[str(ply)] = _analyses(state, analysts, ply)
        bot = bots[rules.controller(seat)]
        if isinstance(bot, Reseeded):
            bot.reseed(move_seed(number, seat, ply))
        action: Action = bot.choose(state.view(seat), legal)
        actions.append(str(action))
        state = state.apply(action)
    return {"table": table, "specs": specs, "actions": actions, "analysed": analysed}


def record(games: int, start: int = 0) -> list[dict[str, Any]]:
    """Games ``start`` to ``start + games - 1`` (``play``)."""
    return [play(number) for number in range(start, start + games)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GOLDEN_GAMES)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--out", type=Path, help="write the record here")
    parser.add_argument("--write", action="store_true", help=f"write {GOLDEN} (on purpose)")
    args = parser.parse_args()
    out = GOLDEN if args.write else args.out
    text = json.dumps(record(args.games, args.start), indent=0)
    if out is None:
        print(text)
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text + "\n")


if __name__ == "__main__":
    main()
