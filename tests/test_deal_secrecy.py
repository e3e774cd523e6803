"""The deck cannot be searched for: a game dealt at random (online, or locally without
``--seed``) comes from 128 bits of ``secrets``; between the games of a match nothing a
client is told holds the match seed, from which the next games are dealt; and a given seed
(``--seed 7``, an old save) deals exactly what it always dealt."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from coloretto.bots.arena import Arena, run_arena
from coloretto.bots.oracle import OracleBot
from coloretto.bots.search import SearchBot
from coloretto.cli import play_command
from coloretto.cli.main import build_parser
from coloretto.engine import (
    GameState,
    Match,
    PlayerView,
    RecordError,
    Rules,
    SeedSecrecy,
    Setup,
    deal,
    load_record,
    new_game,
    to_record,
)
from coloretto.engine.seeds import SEED_BITS, KeyedStream, deal_random
from coloretto.online.server.rooms import Room, over_record
from coloretto.online.wire.messages import GameMessage
from coloretto.online.wire.protocol import Host, convert
from coloretto.online.wire.public import PublicGame, PublicSetup, parse_move
from coloretto.play.config import GameConfig
from coloretto.play.replay import Replay
from coloretto.play.saving import read_session, session_meta
from coloretto.play.seed_text import seed_code
from coloretto.play.session import Session
from coloretto.store.records import read_record, write_record
from tests.conftest import install_bots
from tests.online.conftest import ServerProcess

FAR_BEYOND_A_SEARCH = 96
"""Bits a random seed has with near certainty (a 128-bit draw falls below 2**96 once in
4 billion): far more than any search could try."""


def config_of(*argv: str) -> GameConfig:
    parser = build_parser()
    args = parser.parse_args(["play", *argv])
    return play_command.config_from_args(args, args.parser)


def open_room(games: int = 1) -> Room:
    room, _ = Room.open("ABC234", Host.of("Ana", Rules(players=3, games=games), "easy", 0.0, 5.0))
    room.start()
    return room


def play_out(session: Session, rng: random.Random) -> None:
    while not session.game.is_over:
        session.apply(rng.choice(session.game.legal_actions()))


def cards(setup: Setup) -> tuple[list[str], list[list[str]], list[str], int]:
    """The removed colours, the starting cards, the top ten cards and the first player."""
    return (
        [c.text for c in setup.removed],
        [[c.text for c in hand] for hand in setup.starting],
        [c.text for c in setup.deck[:10]],
        setup.first_player,
    )


def leaves(value: object) -> Iterator[object]:
    """Every number and text in a JSON value (keys included)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    else:
        yield value


# ------------------------------------------------------------------ the seed space


def test_an_online_room_is_dealt_from_128_bits_of_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    drawn = 2**127 + 12345

    def randbits(k: int) -> int:
        asked.append(k)
        return drawn

    monkeypatch.setattr(secrets, "randbits", randbits)
    room = open_room()
    assert SEED_BITS >= 128
    assert asked == [SEED_BITS]
    assert room.session.seed == drawn
    assert room.session.game.setup == deal(room.session.game.rules, drawn)


def test_many_rooms_seeds_are_distinct_and_far_beyond_a_search() -> None:
    seeds = [open_room().session.seed for _ in range(200)]
    assert len(set(seeds)) == len(seeds)
    assert min(seed.bit_length() for seed in seeds) > FAR_BEYOND_A_SEARCH
    assert max(seeds) >= 2**127  # the top bit is drawn too (1 in 2**200 to fail)
    assert max(seeds) < 2**SEED_BITS


def test_local_games_without_a_seed_are_dealt_from_128_bits() -> None:
    session = Session(config_of())
    assert session.match.seed == session.seed
    drawn = [session.seed, Match.start(Rules()).seed, new_game().setup.seed]
    for seed in drawn:
        assert isinstance(seed, int)
        assert FAR_BEYOND_A_SEARCH < seed.bit_length() <= SEED_BITS
    assert len(set(drawn)) == len(drawn)


# ------------------------------------------------------------------ between games


def told_game(room: Room) -> dict[str, Any]:
    """The ``game`` message the server sends a seat of ``room`` (its deal, its match)."""
    session = room.session
    game = session.game
    return GameMessage.of(
        room.code, session.id, 0, game.rules, session.config.players, room.level,
        session.config.delay, room.away_after, PublicSetup.of(game.setup), game.history(),
        session.match.game_number, session.match.results,
    ).to_json()  # fmt: skip


def test_between_games_nothing_told_holds_the_match_seed_nor_deals_the_next_game() -> None:
    room = open_room(games=3)
    session = room.session
    seed = session.seed
    assert seed.bit_length() > FAR_BEYOND_A_SEARCH
    told = [told_game(room)]  # as a game starts
    play_out(session, random.Random(5))
    shown = json.loads(json.dumps(over_record(room)))
    assert shown["setup"]["seed"] is None
    assert shown["meta"]["session"]["match"]["seed"] is None
    assert shown["meta"]["session"]["seeded"] is False
    room.next_game(2)
    told += [told_game(room)]
    for message in [*told, shown]:
        assert str(seed) not in json.dumps(message)
        assert str(seed % 2**64) not in json.dumps(message)
    rules = session.game.rules
    second = session.game.setup
    assert second.seed == f"{seed}/2"
    first = second.first_player
    candidates = {leaf for leaf in leaves(shown) if isinstance(leaf, int | str)}
    for candidate in candidates:  # whatever was shown, taken as the match seed or game 2's
        assert deal(rules, f"{candidate}/2", first) != second
        assert deal(rules, candidate, first) != second


def test_the_screen_the_room_and_the_replay_keep_the_seed_secret_alike() -> None:
    """One rule (``seed_secrecy``): secret while a game goes on and while the match has
    games to come, shown once the match is over."""
    room = open_room(games=2)
    session = room.session
    seed = session.seed

    def replayed() -> str:
        record = to_record(session.game, session.seat_names, session_meta(session))
        return Replay.from_record(load_record(record)).shown_seed

    assert session.match.seed_secrecy is SeedSecrecy.UNTIL_THE_END
    assert session.shown_seed == "secret until the end"
    assert replayed() == "secret (the game was not finished)"
    rng = random.Random(2)
    play_out(session, rng)
    assert session.match.seed_secrecy is SeedSecrecy.UNTIL_THE_MATCH_IS_OVER
    assert session.shown_seed == "secret until the match is over"
    assert over_record(room)["setup"]["seed"] is None
    assert replayed() == "secret (its match had games to come, dealt from it)"
    room.next_game(2)
    play_out(session, rng)
    assert session.match.seed_secrecy is SeedSecrecy.SHOWN
    assert session.shown_seed == seed_code(seed)
    assert over_record(room)["meta"]["session"]["match"]["seed"] == seed
    assert replayed() == f"{seed_code(seed)} (game 2 of its match)"


def test_the_bots_seeds_do_not_give_the_match_seed_away() -> None:
    """A bot's moves may show its seed; a big match seed's bots get a hash of it, so two
    match seeds alike in their low bits give their bots unrelated seeds."""
    seed = 2**127 + 99
    alike = [Session(config_of("--seed", str(seed + k * 2**64))) for k in range(3)]
    assert len({session.bot_seed(1) for session in alike}) == 3
    assert all(0 <= session.bot_seed(1) < 2**32 for session in alike)


def test_a_secret_seed_deals_from_a_keyed_stream_that_shows_nothing_of_itself() -> None:
    """Seeds drawn at random deal from SHA-256 of the seed and a counter, not from the
    Mersenne Twister (whose state follows from its outputs): the same seed deals the same
    game, and a game's deck says nothing of the next game's."""
    rules = Rules(players=4, games=2)
    seed = 2**127 + 12345
    assert deal(rules, seed) == deal(rules, seed)
    twister = random.Random(seed)
    assert isinstance(deal_random(seed), KeyedStream)
    assert isinstance(deal_random(f"{seed}/2"), KeyedStream)
    assert deal_random(seed).getrandbits(64) != twister.getrandbits(64)
    stream = KeyedStream(seed)
    first = [stream.getrandbits(7) for _ in range(200)]
    assert len(set(first)) > 100  # spread over the 128 values
    match = Match.start(rules, seed)
    assert deal(rules, match.game_seed(2)).deck != match.game.setup.deck
    assert isinstance(deal_random(7), random.Random)
    assert not isinstance(deal_random(7), KeyedStream)  # small seeds deal as they always did


# ------------------------------------------------------------------ given seeds


def test_seed_7_deals_what_it_always_dealt() -> None:
    """Pinned on the code of before the 128-bit seeds."""
    session = Session(config_of("--seed", "7"))
    assert session.seed == 7
    assert cards(session.game.setup) == (
        [],
        [["pink"], ["yellow"], ["orange"], ["blue"]],
        ["green", "pink", "brown", "blue", "gray", "+2", "blue", "brown", "orange", "brown"],
        0,
    )
    assert [session.bot_seed(s) for s in range(4)] == [111736940, 111744859, 111752778, 111760697]


OLD_SAVE = """{"format":"coloretto-record/1","rules":{"players":3,"scoring":"brown","edition":\
"classic","variant":"standard","games":2},"seats":["You","Bot 1","Bot 2"],"setup":{"seed":"7/2",\
"removed":["pink"],"starting":[["blue"],["orange"],["brown"]],"deck":["gray","+2","green","blue",\
"green","+2","brown","brown","blue","+2","orange","green","yellow","green","blue","+2","+2","+2",\
"orange","+2","blue","orange","yellow","gray","green","brown","blue","joker","green","yellow",\
"blue","gray","green","gray","brown","blue","+2","gray","yellow","yellow","gray","brown","brown",\
"yellow","orange","orange","green","yellow","gray","last-round","joker","orange","green","gray",\
"brown","yellow","yellow","brown","orange","+2","+2","blue","joker","orange","gray"],\
"first_player":0},"meta":{"session":{"id":"20260101-120000-abcdef","players":[{"name":"You",\
"bot":null},{"name":"Bot 1","bot":"easy"},{"name":"Bot 2","bot":"easy"}],"match":{"seed":7,\
"game":2,"results":[[26,30,25]]},"delay":0.6,"hint_bot":\
"search:iterations=64:at_five=32:seconds=1.4:sample=true","level":"easy","seeded":true}},\
"actions":[{"player":0,"action":"draw","card":"gray"},{"player":0,"action":"place 3"},\
{"player":1,"action":"take 3"}]}"""
"""A save written before the 128-bit seeds: game 2 of a match dealt with ``--seed 7``."""


def test_an_old_save_with_a_small_seed_loads_and_verifies(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(OLD_SAVE)
    session = read_session(path)
    assert (session.seed, session.config.seed, session.match.game_number) == (7, 7, 2)
    assert session.match.results == ((26, 30, 25),)
    assert session.game.setup == deal(session.game.rules, "7/2", 0)
    assert [session.bot_seed(s) for s in range(3)] == [216780127, 216788046, 216795965]
    forged: dict[str, Any] = json.loads(OLD_SAVE)
    forged["meta"]["session"]["match"]["seed"] = 8  # the deal is checked against the seed
    path.write_text(json.dumps(forged))
    with pytest.raises(RecordError, match="the deal is not game 2 of match 8"):
        read_session(path)


def test_a_seed_shown_at_the_end_can_be_typed_back(tmp_path: Path) -> None:
    session = Session(config_of("--players", "3", "--games", "2"))
    rng = random.Random(1)
    play_out(session, rng)
    first = session.game
    session.next_game()
    play_out(session, rng)
    shown = session.shown_seed
    assert isinstance(session.seed, int)
    assert shown == seed_code(session.seed)  # 128 bits drawn at random: shown as a code
    again = Session(config_of("--players", "3", "--games", "2", "--seed", shown))
    assert again.game.setup == first.setup
    assert again.bot_seed(1) == Session(config_of("--seed", shown)).bot_seed(1)
    path = tmp_path / "big.json"  # a save with a 39-digit seed loads and verifies
    write_record(path, session.game, session.seat_names, session_meta(session))
    assert read_session(path).match == session.match


@pytest.mark.parametrize("seed", [str(2**SEED_BITS), "-1"])
def test_a_seed_beyond_128_bits_is_refused(seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert config_of("--seed", str(2**SEED_BITS - 1)).seed == 2**SEED_BITS - 1
    with pytest.raises(SystemExit):
        config_of("--seed", seed)
    assert "--seed" in capsys.readouterr().err


def test_a_record_file_holds_a_39_digit_seed_and_no_longer_number(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    write_record(path, new_game(seed=2**SEED_BITS - 1))
    assert read_record(path).state.setup.seed == 2**SEED_BITS - 1
    path.write_text(path.read_text().replace(str(2**SEED_BITS - 1), "9" * 41))
    with pytest.raises(RecordError, match="41 digits"):
        read_record(path)


# ------------------------------------------------------------------ the bots' views


def shown(view: PlayerView) -> dict[str, object]:
    """Everything a seat's view shows: each public property, and each public method that
    takes only the seat (or nothing), called; ``sample`` aside (it takes a generator)."""
    values: dict[str, object] = {}
    for name in dir(view):
        if name.startswith("_") or name == "sample":
            continue
        value = getattr(view, name)
        if callable(value):
            seats = range(view.seats)
            try:
                value = value()
            except TypeError:
                value = [value(seat) for seat in seats]
        values[name] = value
    return values


def test_a_bots_view_shows_nothing_of_the_order_of_the_deck() -> None:
    """Two games alike but for the order of their decks look alike from every seat, and
    their views deal the same samples: a bot given a seat's view cannot tell them apart."""
    state = new_game(Rules(players=4), seed=9)
    rng = random.Random(9)
    for _ in range(30):
        state = state.apply(rng.choice(state.legal_actions()))
    sorted_rest = [card for card, n in sorted(state.unseen().items()) for _ in range(n)]
    other = state.with_deck_order(sorted_rest)
    assert other.setup.deck != state.setup.deck
    for seat in range(4):
        view, twin = state.view(seat), other.view(seat)
        assert type(view) is PlayerView
        assert not hasattr(view, "true_state")
        assert shown(view) == shown(twin)
        assert not any(isinstance(v, GameState) for v in shown(view).values())
        assert view.sample(random.Random(2)).setup.deck == twin.sample(random.Random(2)).setup.deck


SPY = """
SEEN = []


class Spy:
    def __init__(self, seed=None):
        pass

    def choose(self, view, legal, budget=None):
        SEEN.append(type(view))
        return legal[0]
"""


def test_in_the_arena_only_the_oracle_is_shown_the_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a table with the oracle (which refuses to move without the deck: the arena is
    strict), every other bot, a plug-in or the search, is given its seat's view alone."""
    install_bots(tmp_path / "site", monkeypatch, "spy_bots", SPY, ["spy = spy_bots:Spy"])
    arena = Arena(
        Rules(players=3), ("oracle:iterations=2", "spy", "search:iterations=2"), 3, strict=True
    )
    seen: list[type] = []
    real_choose = SearchBot.choose

    def choose(bot: SearchBot, view: PlayerView, *args: Any) -> Any:
        if not isinstance(bot, OracleBot):
            seen.append(type(view))
        return real_choose(bot, view, *args)

    monkeypatch.setattr(SearchBot, "choose", choose)
    run_arena(arena, jobs=1)
    spied = sys.modules["spy_bots"].SEEN
    assert spied
    assert seen
    assert set(spied) == set(seen) == {PlayerView}


# ------------------------------------------------------------------ a real server


def test_a_client_of_a_real_server_learns_the_match_seed_only_at_the_end(tmp_path: Path) -> None:
    """Every message a host gets over a whole 2-game match: the deck shows only in a
    finished game's record, the match seed only once the match is over."""
    server = ServerProcess(tmp_path / "server")
    try:
        messages = asyncio.run(asyncio.wait_for(play_a_match(server.start().url), 60))
    finally:
        server.stop()
    overs = [i for i, message in enumerate(messages) if message["type"] == "over"]
    assert len(overs) == 2
    between, last = (messages[i]["record"] for i in overs)
    seed = last["meta"]["session"]["match"]["seed"]
    assert isinstance(seed, int)
    assert seed.bit_length() > FAR_BEYOND_A_SEARCH
    assert last["setup"]["seed"] == f"{seed}/2"
    assert between["setup"]["seed"] is None
    assert between["meta"]["session"]["match"]["seed"] is None
    for message in messages[: overs[1]]:
        assert str(seed) not in json.dumps(message)
        if message["type"] != "over":
            assert "deck" not in json.dumps(message)
            assert "seed" not in json.dumps(message)


async def play_a_match(url: str) -> list[dict[str, Any]]:
    """Host a 2-game match against two bots, play the host's turns (at random) and deal
    the second game; every message the server sent, in order."""
    rules = {"players": 3, "scoring": "brown", "edition": "classic", "variant": "standard"}
    host = {"type": "host", "version": 1, "name": "Ana", "rules": rules, "games": 2,
            "bot": "beginner", "delay": 0}  # fmt: skip
    rng = random.Random(4)
    messages: list[dict[str, Any]] = []
    async with connect(url) as ws:
        await ws.send(json.dumps(host))
        await ws.send(json.dumps({"type": "start"}))
        model: PublicGame | None = None
        acted = -1
        while True:
            message = json.loads(await ws.recv())
            messages.append(message)
            kind = message["type"]
            if kind == "game":
                game = convert(message, GameMessage, "game")
                model, acted = PublicGame(game.rules, game.setup), -1
                for ply, move in enumerate(game.moves):
                    model.add(ply, move)
            elif kind == "move" and model is not None:
                model.add(message["ply"], parse_move(message["move"]))
            elif kind == "over":
                if message["record"]["meta"]["session"]["match"]["game"] == 2:
                    return messages
                await ws.send(json.dumps({"type": "next", "game": 2}))
            game = model.state if model is not None else None
            if game is not None and not game.is_over and game.current_player == 0:
                ply = len(game.history())
                if ply > acted:
                    await asyncio.sleep(0.11)  # within the server's 10 messages a second
                    action = rng.choice(game.legal_actions())
                    await ws.send(json.dumps({"type": "act", "ply": ply, "action": str(action)}))
                    acted = ply
