"""The rating (coloretto.rating): how a game moves the ratings, their validation, and the
packaged bot levels' ratings."""

from __future__ import annotations

import json
import math
from importlib.resources import files

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coloretto.bots.registry import LEVEL_REVISIONS, LEVELS
from coloretto.rating import (
    NEW,
    Rating,
    bot_rating,
    bot_ratings,
    parse_bot_ratings,
    rate_game,
)

ratings = st.builds(
    Rating,
    mu=st.floats(0.0, 50.0),
    sigma=st.floats(0.5, 25 / 3),
    games=st.integers(0, 1000),
)
tables = st.integers(2, 5).flatmap(
    lambda n: st.tuples(
        st.lists(ratings, min_size=n, max_size=n),
        st.lists(st.integers(-40, 80), min_size=n, max_size=n),
    )
)


@given(tables)
def test_the_sole_winner_gains_and_the_sole_loser_loses(
    table: tuple[list[Rating], list[int]],
) -> None:
    before, scores = table
    after = rate_game(before, scores)
    best, worst = max(scores), min(scores)
    if best == worst:
        return
    if scores.count(best) == 1:
        winner = scores.index(best)
        assert after[winner].mu > before[winner].mu
    if scores.count(worst) == 1:
        loser = scores.index(worst)
        assert after[loser].mu < before[loser].mu


@given(tables)
def test_sigma_never_grows_and_games_are_counted(table: tuple[list[Rating], list[int]]) -> None:
    before, scores = table
    after = rate_game(before, scores)
    for old, new in zip(before, after, strict=True):
        assert 0 < new.sigma <= old.sigma
        assert new.games == old.games + 1
        assert math.isfinite(new.mu)


@given(ratings, st.integers(2, 5), st.integers(-10, 60))
def test_equal_players_who_tie_stay_equal(rating: Rating, players: int, score: int) -> None:
    after = rate_game([rating] * players, [score] * players)
    for other in after[1:]:
        assert other.mu == pytest.approx(after[0].mu)
        assert other.sigma == pytest.approx(after[0].sigma)
    assert after[0].mu == pytest.approx(rating.mu)


@given(ratings, ratings, st.integers(-10, 60), st.integers(-10, 60))
def test_the_order_of_the_players_does_not_matter(
    a: Rating, b: Rating, score_a: int, score_b: int
) -> None:
    forward = rate_game([a, b], [score_a, score_b])
    backward = rate_game([b, a], [score_b, score_a])
    assert forward[0].mu == pytest.approx(backward[1].mu)
    assert forward[1].sigma == pytest.approx(backward[0].sigma)


def test_a_tie_is_symmetric_and_between_a_win_and_a_loss() -> None:
    tied = rate_game([NEW, NEW], [30, 30])
    won, lost = rate_game([NEW, NEW], [31, 30])
    assert tied[0] == tied[1]
    assert lost.mu < tied[0].mu < won.mu
    assert tied[0].sigma < NEW.sigma


def test_fixed_players_keep_their_ratings() -> None:
    bot = bot_rating("easy")
    me, kept = rate_game([NEW, bot], [20, 40], fixed=[1])
    assert kept is bot
    assert me.mu < NEW.mu
    assert me.games == 1


def test_shown_is_the_conservative_estimate_scaled() -> None:
    assert NEW.shown == 0
    assert Rating(30.0, 2.0).shown == 960
    assert Rating(30.0, 2.0).spread == 240
    assert Rating(30.0, 1.0).shown > Rating(30.0, 2.0).shown


@pytest.mark.parametrize(
    ("ratings_", "scores", "fixed", "message"),
    [
        ([NEW], [1], (), "2 or more players"),
        ([NEW, NEW], [1], (), "2 scores needed"),
        ([NEW, NEW], [1, 2.5], (), "whole numbers"),
        ([NEW, NEW], [1, True], (), "whole numbers"),
        ([NEW, (25, 8)], [1, 2], (), "Rating objects"),
        ([NEW, NEW], [1, 2], (2,), "numbered 0 to 1"),
    ],
)
def test_rate_game_refuses_bad_input(
    ratings_: list[Rating], scores: list[int], fixed: tuple[int, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        rate_game(ratings_, scores, fixed=fixed)


@given(ratings)
def test_json_round_trip(rating: Rating) -> None:
    assert Rating.from_json(json.loads(json.dumps(rating.to_json()))) == rating


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ([25, 8], "a JSON object"),
        ({"mu": 25}, '"sigma"'),
        ({"mu": "25", "sigma": 8}, '"mu"'),
        ({"mu": True, "sigma": 8}, '"mu"'),
        ({"mu": 25, "sigma": 0}, "above 0"),
        ({"mu": 25, "sigma": -1}, "sigma must be 0 to 100"),
        ({"mu": 1e308 * 10, "sigma": 8}, "mu must be"),
        ({"mu": 10**400, "sigma": 8}, "mu must be"),
        ({"mu": 25, "sigma": 8, "games": -1}, "games must be"),
        ({"mu": 25, "sigma": 8, "games": 1.5}, "whole number"),
        ({"mu": 25, "sigma": 8, "elo": 1500}, "has no \\['elo'\\]"),
    ],
)
def test_from_json_refuses_bad_input(obj: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Rating.from_json(obj)


def test_the_packaged_bot_ratings_follow_the_levels_strength() -> None:
    levels = bot_ratings()
    assert list(levels) == list(LEVELS)  # weakest first, as the levels are listed
    shown = [rating.shown for rating in levels.values()]
    assert shown == sorted(shown)
    for rating in levels.values():
        assert rating.games >= 100
        assert rating.sigma < NEW.sigma / 2


def test_the_bot_ratings_were_calibrated_on_the_levels_as_they_play_now() -> None:
    """A change to a level's play (its spec, or LEVEL_REVISIONS) needs a new calibration:
    python benchmarks/calibrate_ratings.py (docs/ratings.md)."""
    document = json.loads(files("coloretto.bots").joinpath("ratings.json").read_text("utf-8"))
    assert document["specs"] == dict(LEVELS)
    assert document["revisions"] == dict(LEVEL_REVISIONS)


def test_an_unknown_level_has_no_rating() -> None:
    with pytest.raises(ValueError, match="no rating for the bot level 'expert'; rated: beginner"):
        bot_rating("expert")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xff", "not JSON"),
        (b"[1]", '"levels" must be an object'),
        (b'{"levels": {}}', '"levels" must be an object'),
        (b'{"levels": {"easy": {"mu": 1}}}', 'easy: a rating needs a number "sigma"'),
        (b" " * 70_000, "over 65536 bytes"),
    ],
)
def test_a_bad_bot_ratings_file_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_bot_ratings(data)
