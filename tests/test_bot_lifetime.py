"""One bot per player for the whole match, asked the same way by the game, the hint and the
arena: the bot people play is the bot the arena measured."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from coloretto.bots.arena import Arena, play_game
from coloretto.bots.players import BotPlayers
from coloretto.engine import Action, Rules
from coloretto.play.config import GameConfig, Player
from coloretto.play.saving import session_from_record, session_record
from coloretto.play.session import Session
from coloretto.play.table import BotFailed, LocalTable
from coloretto.store.records import read_record
from tests.conftest import install_bots

REMEMBERING = '''
class Remembering:
    """Plays the last legal action on every other move it is asked: a bot with a memory."""

    def __init__(self, seed=None):
        self.asked = 0

    def choose(self, view, legal, budget=None):
        self.asked += 1
        return legal[-1] if self.asked % 2 == 0 else legal[0]
'''


@pytest.fixture
def remembering(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A third-party bot that keeps state between moves, installed on the path."""
    bot = "remembering = remembering_bot:Remembering"
    install_bots(tmp_path / "site", monkeypatch, "remembering_bot", REMEMBERING, (bot,))
    return "remembering"


def bots_config(rules: Rules, specs: tuple[str, ...], seed: int) -> GameConfig:
    """A game of bots only, each player's spec given, dealt from ``seed``."""
    config = GameConfig.build(rules, humans=0, seed=seed)
    players = tuple(Player(p.name, spec) for p, spec in zip(config.players, specs, strict=True))
    return replace(config, players=players)


def table_actions(rules: Rules, specs: tuple[str, ...], seed: int) -> list[Action]:
    """Every action of a game the bots play through the local table (as the app does)."""
    table = LocalTable(Session(bots_config(rules, specs, seed)))
    problems = []
    table.subscribe(lambda event: problems.append(event) if isinstance(event, BotFailed) else None)

    async def play() -> None:
        bots = asyncio.create_task(table.run_bots())
        while not table.session.game.is_over:
            await asyncio.sleep(0.01)
        bots.cancel()

    table.set_pace(0.0)
    asyncio.run(asyncio.wait_for(play(), 60))
    assert not problems
    return [move.action for move in table.session.game.history()]


def arena_actions(arena: Arena, tmp_path: Path) -> list[Action]:
    """Every action of the arena's first game, read back from its record."""
    play_game(arena, 0)
    state = read_record(tmp_path / "game-00001.json").state
    return [move.action for move in state.history()]


@pytest.mark.parametrize(
    ("players", "specs"),
    [
        (3, ("search:iterations=4", "greedy", "random")),
        (4, ("search:iterations=6:sample=true", "search:iterations=3", "expert", "taker")),
    ],
)
def test_the_game_plays_the_bots_the_arena_measures(
    tmp_path: Path, players: int, specs: tuple[str, ...]
) -> None:
    rules = Rules(players=players)
    arena = Arena(rules, specs, games=1, seed=11, record_dir=tmp_path)
    assert table_actions(rules, specs, arena.deal_seed(0)) == arena_actions(arena, tmp_path)


def test_a_bot_with_a_memory_plays_alike_in_the_game_and_the_arena(
    tmp_path: Path, remembering: str
) -> None:
    rules = Rules(players=2)
    specs = (remembering, "greedy")
    arena = Arena(rules, specs, games=1, seed=3, record_dir=tmp_path)
    played = table_actions(rules, specs, arena.deal_seed(0))
    assert played == arena_actions(arena, tmp_path)
    state = Session(bots_config(rules, specs, arena.deal_seed(0))).game
    bots = BotPlayers({state.current_player: remembering}, seed=1)
    assert bots.bot(state.current_player) is None  # made on its first move, then kept
    assert bots.choose(state, time_limit=5.0).problem is None
    kept = bots.bot(state.current_player)
    assert bots.choose(state, time_limit=5.0).problem is None
    assert bots.bot(state.current_player) is kept
    assert getattr(kept, "asked", None) == 2


def test_a_resumed_game_goes_on_as_it_would_have(tmp_path: Path) -> None:
    """A save holds no bot: the bots made again after a break, which catch up with the
    game, choose as the bots kept all along (their budget counted in iterations)."""
    rules = Rules(players=4)
    specs = ("search:iterations=4", "search:iterations=4:sample=true", "greedy", "random")
    config = bots_config(rules, specs, seed=99)
    straight = Session(config)
    broken = Session(config)
    while not straight.game.is_over:
        straight.apply(straight.bot_move().action)
        if straight.game.ply in (20, 50, 90):  # saved and resumed: new bots
            broken = session_from_record(session_record(broken))
        broken.apply(broken.bot_move().action)
    assert broken.game.history() == straight.game.history()
