"""Match play: several games, totals carried over, the starting seat rotating."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from coloretto.engine import Match, Rules, deal


def finish_game(match: Match, rng: random.Random) -> Match:
    while not match.game.is_over:
        match = match.apply(rng.choice(match.game.legal_actions()))
    return match


def play_match(rules: Rules, seed: int) -> tuple[Match, list[Match]]:
    """Play every game; return the final match and the match at each game's end."""
    rng = random.Random(seed)
    match = Match.start(rules, seed)
    ends = []
    while True:
        match = finish_game(match, rng)
        ends.append(match)
        if match.is_over:
            return match, ends
        match = match.next_game()


def test_match_start():
    rules = Rules(players=3, games=3)
    match = Match.start(rules, 11)
    assert match.game_number == 1
    assert match.totals() == (0, 0, 0)
    assert match.results == ()
    assert not match.is_over
    assert match.rules == rules
    assert match.game.rules == rules
    # the first game is the game the match seed deals
    assert match.game.setup == deal(rules, 11)


def test_totals_add_up_the_games_final_scores():
    rules = Rules(players=3, games=3)
    final, ends = play_match(rules, 4)
    assert len(ends) == 3
    scores = [end.game.final_scores() for end in ends]
    assert final.results == tuple(scores[:2])
    for n, end in enumerate(ends, start=1):
        assert end.game_number == n
        expected = tuple(sum(game[s] for game in scores[:n]) for s in range(3))
        assert end.totals() == expected
    assert final.totals() == tuple(sum(g[s] for g in scores) for s in range(3))
    outcome = final.outcome()
    assert outcome is not None
    assert outcome.winners == tuple(
        s for s, v in enumerate(final.totals()) if v == max(final.totals())
    )


def test_totals_during_a_game_count_finished_games_only():
    rules = Rules(players=3, games=2)
    rng = random.Random(2)
    match = finish_game(Match.start(rules, 2), rng)
    first = match.game.final_scores()
    match = match.next_game()
    assert match.game_number == 2
    assert match.totals() == first
    match = match.apply(match.game.legal_actions()[0])
    assert match.totals() == first


def test_the_starting_seat_rotates_each_game():
    rules = Rules(players=3, games=5)
    _, ends = play_match(rules, 8)
    firsts = [end.game.setup.first_player for end in ends]
    for a, b in pairwise(firsts):
        assert b == (a + 1) % 3
    # and each game starts with that seat to move
    match = Match.start(rules, 8)
    assert match.game.current_player == firsts[0]
    match = finish_game(match, random.Random(0)).next_game()
    assert match.game.current_player == (firsts[0] + 1) % 3
    assert match.game.history() == ()


def test_games_of_a_match_are_dealt_differently():
    _, ends = play_match(Rules(players=4, games=3), 1)
    decks = {end.game.setup.deck for end in ends}
    assert len(decks) == 3


def test_a_match_is_reproducible_from_its_seed():
    rules = Rules(players=3, games=3)
    a, _ = play_match(rules, 21)
    b, _ = play_match(rules, 21)
    assert a.totals() == b.totals()
    assert a.game.setup == b.game.setup


def test_next_game_before_the_game_ends_raises():
    match = Match.start(Rules(players=3, games=3), 5)
    with pytest.raises(ValueError, match="not over"):
        match.next_game()
    match = match.apply("draw")
    with pytest.raises(ValueError, match="not over"):
        match.next_game()


def test_is_over_after_the_last_game_only():
    rules = Rules(players=3, games=3)
    rng = random.Random(6)
    match = Match.start(rules, 6)
    for number in (1, 2, 3):
        assert match.game_number == number
        match = finish_game(match, rng)
        assert match.game.is_over
        assert match.is_over == (number == 3)
        if number < 3:
            match = match.next_game()
            assert not match.is_over
    with pytest.raises(ValueError, match="match is over"):
        match.next_game()


def test_one_game_match_is_the_game():
    rules = Rules(players=4)
    match = Match.start(rules, 3)
    rng = random.Random(3)
    match = finish_game(match, rng)
    assert match.is_over
    assert match.totals() == match.game.final_scores()


def test_match_apply_is_immutable():
    match = Match.start(Rules(players=3, games=2), 9)
    after = match.apply("draw")
    assert match.game.drawn_card is None
    assert after.game.drawn_card is not None
    assert after.game_number == match.game_number == 1


def test_ghost_match_totals_are_per_seat():
    rules = Rules(players=2, variant="ghost", games=2)
    final, ends = play_match(rules, 3)
    assert len(final.totals()) == 4
    assert final.totals() == tuple(
        sum(end.game.final_scores()[s] for end in ends) for s in range(4)
    )
    firsts = [end.game.setup.first_player for end in ends]
    assert firsts[1] == (firsts[0] + 1) % 4


def test_a_match_whose_seed_is_withheld_deals_no_other_game():
    """As a seat of an online match sees it: the seed is the server's, not a made-up one."""
    played = finish_game(Match.start(Rules(players=3, games=2), 5), random.Random(1))
    seen = Match(played.rules, None, played.game, played.results)
    assert seen.game_number == 1
    assert seen.totals() == played.totals()
    with pytest.raises(ValueError, match="withheld"):
        seen.next_game()
