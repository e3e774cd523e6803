"""Every seed derivation (``coloretto.engine.seeds``) pinned to the values saved games,
reviews, hints and arena records depend on, and the callers that derive through it."""

from __future__ import annotations

import random

from coloretto.bots.arena import Arena
from coloretto.engine import Match, Rules
from coloretto.engine.seeds import (
    KeyedStream,
    arena_deal_seed,
    deal_random,
    decision_seed,
    foresight_seed,
    game_seed,
    labelled,
    move_seed,
    rematch_seed,
)
from coloretto.play.config import GameConfig
from coloretto.play.session import Session


def test_the_games_of_a_match_are_dealt_from_the_match_seed_and_their_number() -> None:
    assert game_seed(4, 1) == 4
    assert game_seed(4, 2) == "4/2"
    assert game_seed(2**100, 3) == "1267650600228229401496703205376/3"
    match = Match.start(Rules(players=3, games=3), seed=2**100)
    assert [match.game_seed(n) for n in (1, 2, 3)] == [game_seed(2**100, n) for n in (1, 2, 3)]


def test_the_deal_streams_give_what_they_always_gave() -> None:
    assert KeyedStream(7).getrandbits(32) == 2536144833
    assert KeyedStream("7/2").getrandbits(64) == 3801632855315220369
    assert deal_random(2**64).getrandbits(32) == 1145691117
    assert deal_random(5).getrandbits(32) == 2675342405
    assert deal_random(5).getrandbits(32) == random.Random(5).getrandbits(32)


def test_the_bots_seeds_of_old_and_new_match_seeds() -> None:
    assert move_seed(3, 1, 10) == 4063137  # a small seed: the sum it always was
    assert move_seed(2**32 - 1, 0, 0) == 4293975212
    assert move_seed(2**32, 0, 0) == 2242140242  # from here on: labelled
    assert move_seed(2**100, 2, 1005) == 2813903476
    assert move_seed("7/2", 1, 2003) == 3794533797
    assert move_seed(-1, 0, 0) == 491472912
    assert move_seed(2**100, 2, 1005) == labelled(2**100, "bot", 2, 1005, bits=32)


def test_the_arena_deals_from_labelled_seeds() -> None:
    assert arena_deal_seed(5, 0) == 127245736666073
    assert arena_deal_seed(0, 7) == 201340465456547
    arena = Arena(Rules(players=3), ("greedy",) * 3, 1, seed=5)
    assert arena.deal_seed(0) == arena_deal_seed(5, 0) == labelled("arena", 5, 0, bits=48)


def test_the_coach_analyses_with_the_seeds_its_saved_hints_were_given() -> None:
    assert decision_seed(0, 12) == 1361477
    assert decision_seed(0, 12, again=1) == 1369396
    assert decision_seed(5, 40, again=2) == 9309742
    assert decision_seed(2**32 - 1, 0) == 4294072022
    assert random.Random(foresight_seed(3, 0)).getrandbits(32) == 413184471


def test_a_rematch_takes_the_next_seed_or_a_random_one() -> None:
    assert rematch_seed(9) == 10
    assert rematch_seed(2**128 - 1) == 0
    assert rematch_seed(None) is None
    given = Session(GameConfig.build(Rules(players=3), seed=9))
    assert given.rematch().config.seed == 10
    drawn = Session(GameConfig.build(Rules(players=3)))
    assert drawn.rematch().config.seed is None
