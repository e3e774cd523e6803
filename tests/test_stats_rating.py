"""The people's ratings from the statistics (Stats.ratings) and in ``coloretto stats``."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path

import pytest

from coloretto.bots.registry import LEVEL_REVISIONS, LEVELS
from coloretto.cli.main import main
from coloretto.cli.stats_command import SETTLED_SIGMA, UNCERTAIN_SIGMA, rating_lines
from coloretto.rating import NEW, Rating, bot_rating, bot_ratings, rate_game
from coloretto.store.paths import DataDir
from coloretto.store.stats import GameResult, PersonRating, PlayerResult, RatingPoint, Stats

START = datetime(2026, 10, 1, 20, 0, tzinfo=UTC)


def level(name: str, bot: str, score: int) -> PlayerResult:
    """A bot of the level ``bot`` as a game now records it (its spec and play's date)."""
    return PlayerResult(name, bot, score, 0.0, LEVELS.get(bot), LEVEL_REVISIONS.get(bot))


def against(
    game_id: str, day: int, person: int, bot: str, *others: int, who: str = "Ana"
) -> GameResult:
    """``who`` scoring ``person`` against bots of one level scoring ``others``."""
    scores = [person, *others]
    top = max(scores)
    share = 1.0 / scores.count(top)
    results = [PlayerResult(who, None, person, share if person == top else 0.0)]
    for seat, score in enumerate(others, 1):
        results.append(replace(level(f"Bot {seat}", bot, score), win=share * (score == top)))
    return GameResult(
        game_id,
        START + timedelta(days=day),
        len(results),
        "brown",
        "classic",
        "standard",
        tuple(results),
    )


@pytest.fixture
def db(tmp_path: Path) -> Stats:
    return Stats(tmp_path / "stats.sqlite3")


def test_winning_against_easy_rates_above_it_and_losing_below(db: Stats) -> None:
    easy = bot_rating("easy")
    for n in range(12):
        db.add(against(f"w{n}", n, 40, "easy", 30, 25, 20, who="Ana"))
        db.add(against(f"l{n}", n, 10, "easy", 30, 25, 20, who="Ben"))
    ana, ben = db.ratings(bot_ratings(), levels=LEVELS, revisions=LEVEL_REVISIONS)
    assert (ana.player, ben.player) == ("Ana", "Ben")
    assert ben.rating.mu < easy.mu < ana.rating.mu
    assert ana.rating.games == ben.rating.games == 12
    assert ana.rating.sigma < NEW.sigma
    assert [point.rating.mu for point in ana.history] == sorted(p.rating.mu for p in ana.history)
    assert ana.history[0].finished_at.startswith("2026-10-01")
    assert (ana.unrated, ben.unrated) == (0, 0)


def test_the_bots_are_held_at_their_levels_ratings(db: Stats) -> None:
    """Two people at one table with bots: each person's rating is what one game against
    the table with the bots at their calibrated ratings gives."""
    levels = bot_ratings()
    game = GameResult(
        "hotseat",
        START,
        4,
        "gray",
        "classic",
        "standard",
        (
            PlayerResult("Ana", None, 35, 1.0),
            level("Bot 1", "hard", 30),
            PlayerResult("Ben", None, 20, 0.0),
            level("Bot 2", "beginner", 5),
        ),
    )
    db.add(game)
    ana, ben = db.ratings(levels, levels=LEVELS, revisions=LEVEL_REVISIONS)
    expected = rate_game(
        [NEW, levels["hard"], NEW, levels["beginner"]], [35, 30, 20, 5], fixed=[1, 3]
    )
    assert (ana.rating, ben.rating) == (expected[0], expected[2])
    assert db.ratings(levels, "ben", levels=LEVELS, revisions=LEVEL_REVISIONS) == (ben,)


def test_games_with_bots_without_a_rating_are_not_rated(db: Stats) -> None:
    db.add(against("expert", 0, 30, "expert", 20, 10))  # a bot named by its spec: unrated
    db.add(against("greedy", 1, 30, "greedy", 20, 10))  # the easy level's bot: rated as easy
    old = against("old-hard", 2, 30, "hard", 20, 10)  # from before the level's play changed
    db.add(
        replace(
            old, results=(old.results[0], *(replace(r, revision=None) for r in old.results[1:]))
        )
    )
    (ana,) = db.ratings(bot_ratings(), levels=LEVELS, revisions=LEVEL_REVISIONS)
    assert (ana.rating.games, ana.unrated) == (1, 2)
    assert ana.rating.mu > NEW.mu


def test_a_game_a_bot_stood_in_for_a_person_in_is_not_rated(db: Stats) -> None:
    away = GameResult(
        "away",
        START,
        3,
        "brown",
        "classic",
        "standard",
        (
            PlayerResult("Ana", None, 30, 1.0, stood_in=True),
            PlayerResult("Ben", None, 20, 0.0),
            level("Bot", "easy", 10),
        ),
    )
    db.add(away)
    (ben,) = db.ratings(bot_ratings(), levels=LEVELS, revisions=LEVEL_REVISIONS)
    assert (ben.player, ben.rating, ben.unrated) == ("Ben", NEW, 1)


def test_people_only_games_rate_the_people(db: Stats) -> None:
    db.add(
        GameResult(
            "hotseat",
            START,
            2,
            "brown",
            "classic",
            "standard",
            (PlayerResult("Ana", None, 30, 1.0), PlayerResult("Ben", None, 20, 0.0)),
        )
    )
    ana, ben = db.ratings(bot_ratings(), levels=LEVELS, revisions=LEVEL_REVISIONS)
    assert ben.rating.mu < NEW.mu < ana.rating.mu


def test_no_database_no_ratings(tmp_path: Path) -> None:
    assert Stats(tmp_path / "none.sqlite3").ratings(bot_ratings()) == ()
    assert not (tmp_path / "none.sqlite3").exists()


# ------------------------------------------------------------ coloretto stats


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> DataDir:
    monkeypatch.setenv("COLORETTO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")
    return DataDir.default()


def stats_out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["stats", *argv]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_cli_shows_the_rating_and_its_chart(
    home: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    db = Stats(home.stats)
    for n, day in enumerate((0, 5, 10, 32, 40, 45)):  # three in October, three in November
        db.add(against(f"g{n}", day, 40 - n, "easy", 30, 25, 20))
    db.add(against("x", 100, 30, "expert", 20, 10))
    (ana,) = db.ratings(bot_ratings(), levels=LEVELS, revisions=LEVEL_REVISIONS)
    now = ana.rating
    text = stats_out(capsys)
    lines = text.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("Ana: 7 games")))
    assert now.sigma > UNCERTAIN_SIGMA  # 6 games: not yet sure
    easy, normal = bot_rating("easy").shown, bot_rating("normal").shown
    assert easy < now.shown < normal  # the number shown, between the figures shown
    assert lines[at + 1 : at + 5] == [
        f"  rating {now.shown}: between the easy and normal levels (easy {easy}, normal {normal})",
        "  still uncertain (6 games)",
        "  (what the games so far make sure of; it rises as more games make it surer)",
        "  1 game not rated: a bot without a rating",
    ]
    # One placement, the number's: none of a likelier skill beside it.
    assert sum("level" in line for line in lines[at + 1 : at + 5]) == 1
    heading = lines.index("Rating over time (at each month's end): Ana")
    months = [line for line in lines[heading:] if line.startswith("  2026-")]
    assert [line.split()[0] for line in months] == ["2026-10", "2026-11"]
    assert months[1].endswith(f"{now.shown:5d}  3 games")
    easy = bot_rating("easy").shown
    assert f"  the levels: beginner 0, easy {easy}, normal " in text  # not below 0
    assert all(len(line) <= 100 for line in lines)

    data = json.loads(stats_out(capsys, "--json"))
    assert data["ratings"] == [
        {
            "player": "Ana",
            "rating": now.shown,
            "mu": round(now.mu, 3),
            "sigma": round(now.sigma, 3),
            "games": 6,
            "unrated": 1,
        }
    ]


def test_cli_without_a_rated_game(home: DataDir, capsys: pytest.CaptureFixture[str]) -> None:
    Stats(home.stats).add(against("x", 0, 30, "expert", 20, 10))
    text = stats_out(capsys)
    lines = text.splitlines()
    at = lines.index("  no rating yet")
    assert lines[at + 1] == "  1 game not rated: a bot without a rating"
    assert "Rating over time" not in text


def test_the_rating_is_one_number_never_below_0_with_the_levels_in_words(
    home: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ana loses every game to beginners (her figure goes below 0: the text shows 0, the
    JSON the figure), Ben beats the hard level 150 times (settled, above it)."""
    db = Stats(home.stats)
    for n in range(30):
        db.add(against(f"a{n}", n, 5, "beginner", 20, 15, 10, who="Ana"))
    for n in range(150):  # Ben wins two games in three
        db.add(against(f"b{n}", n, 60 if n % 3 else 10, "hard", 30, 25, 20, who="Ben"))
    ana, ben = db.ratings(bot_ratings(), levels=LEVELS, revisions=LEVEL_REVISIONS)
    assert ana.rating.shown < 0 < ben.rating.shown
    assert ben.rating.sigma < SETTLED_SIGMA <= ana.rating.sigma
    lines = stats_out(capsys).splitlines()
    at = lines.index(next(ln for ln in lines if ln.startswith("Ana: ")))
    assert lines[at + 1 : at + 3] == [
        "  rating 0: at the beginner level (beginner 0)",  # as "the levels" line shows it
        f"  {'still uncertain' if ana.rating.sigma >= UNCERTAIN_SIGMA else 'nearly settled'} "
        "(30 games)",
    ]
    assert not any("likeliest" in line for line in lines)
    hard = bot_rating("hard").shown
    at = lines.index(next(ln for ln in lines if ln.startswith("Ben: ")))
    assert lines[at + 1 : at + 3] == [
        f"  rating {ben.rating.shown}: above the hard level (hard {hard})",
        "  settled (150 games)",
    ]
    assert not any("-" in line or "\N{MINUS SIGN}" in line for line in lines if "rating" in line)
    assert not any(word in line for line in lines for word in ("skill", "±"))
    data = json.loads(stats_out(capsys, "--json"))
    assert [r["rating"] for r in data["ratings"]] == [ana.rating.shown, ben.rating.shown]


def said_of(rating: Rating) -> list[str]:
    """``coloretto stats``' lines of a person rated ``rating``, against the real levels."""
    person = PersonRating("Ana", rating, (RatingPoint("2026-12-07", rating),), unrated=0)
    lines = rating_lines(person, bot_ratings())
    assert all(len(line) <= 80 for line in lines)  # none wraps in an 80-column terminal
    return lines


def test_the_rating_in_words_agrees_with_the_level_figures_at_each_boundary() -> None:
    levels = bot_ratings()
    figures = {name: max(0, level.shown) for name, level in levels.items()}
    assert figures["beginner"] == 0  # its rating is below 0: shown as a new player's
    new = said_of(NEW)
    assert new[:2] == [
        "  rating 0: at the beginner level (beginner 0)",
        "  still uncertain (0 games)",
    ]
    assert "between the beginner" not in " ".join(new)
    names = list(levels)
    for lower, upper in pairwise(names):
        level = levels[upper]
        at = said_of(Rating(level.mu, level.sigma, 100))[0]  # settled, on the level
        assert at == f"  rating {figures[upper]}: at the {upper} level ({upper} {figures[upper]})"
        under = said_of(Rating(level.mu - 0.1, level.sigma, 100))[0]
        figure = Rating(level.mu - 0.1, level.sigma).shown
        assert figures[lower] < figure < figures[upper]
        assert under == (
            f"  rating {figure}: between the {lower} and {upper} levels ({lower} "
            f"{figures[lower]}, {upper} {figures[upper]})"
        )
    top = levels[names[-1]]
    above = said_of(Rating(top.mu + 1, top.sigma, 100))
    assert above[0].endswith(f": above the {names[-1]} level ({names[-1]} {figures[names[-1]]})")
    assert above[1] == "  settled (100 games)"
