"""The statistics database (``coloretto.store.stats``) and ``coloretto stats``."""

from __future__ import annotations

import json
import multiprocessing
import random
import re
import sqlite3
import tempfile
from collections import defaultdict
from contextlib import closing
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto.bots.registry import LEVEL_REVISIONS, LEVELS
from coloretto.cli.main import main
from coloretto.engine import GameState, Rules, new_game
from coloretto.play.statistics import count_history
from coloretto.store import stats as stats_module
from coloretto.store.paths import DataDir
from coloretto.store.records import write_record
from coloretto.store.stats import (
    APPLICATION_ID,
    MIGRATIONS,
    PEOPLE_ONLY,
    GameResult,
    PlayerResult,
    Stats,
    StatsDamaged,
    StatsError,
    opponents_label,
    schema_version,
)
from tests.test_history_trouble import finish

WHEN = datetime(2026, 11, 21, 8, 0, tzinfo=UTC)

JSON_KEYS = {"database", "games", "people", "groups", "accuracy", "left_out", "ratings", "practice"}
"""The keys of ``coloretto stats --json``."""


def finished(rules: Rules, seed: int) -> GameState:
    """A game played to the end with random legal actions."""
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def seats(rules: Rules) -> list[tuple[str, str | None]]:
    """A person in seat 0, bots elsewhere."""
    bots = ["normal", "hard", "easy", "beginner"]
    return [("Ana", None)] + [(f"Bot {p}", bots[p - 1]) for p in range(1, rules.players)]


def game(
    game_id: str,
    *results: tuple[str, str | None, int, float]
    | tuple[str, str | None, int, float, str]
    | tuple[str, str | None, int, float, str, str],
    players: int | None = None,
    scoring: str = "brown",
) -> GameResult:
    """A hand-made result."""
    return GameResult(
        game_id=game_id,
        finished_at=WHEN,
        players=players or len(results),
        scoring=scoring,
        edition="classic",
        variant="standard",
        results=tuple(PlayerResult(*r) for r in results),
    )


@pytest.fixture
def db(tmp_path: Path) -> Stats:
    return Stats(tmp_path / "data" / "stats.sqlite3")


# ------------------------------------------------------------ GameResult.of

RULES = (
    Rules(players=2),
    Rules(players=2, scoring="gray", edition="anniversary"),
    Rules(players=3, scoring="gray"),
    Rules(players=4, edition="anniversary"),
    Rules(players=5),
    Rules(players=2, variant="four-rows"),
    Rules(players=2, variant="ghost"),
    Rules(players=2, variant="ghost", scoring="gray", edition="anniversary"),
)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.variant}-{r.scoring}")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_of_a_finished_game(rules: Rules, seed: int) -> None:
    state = finished(rules, seed)
    result = GameResult.of(f"g{seed}", state, seats(rules), finished_at=WHEN, levels=LEVELS)
    assert (result.players, result.scoring, result.edition, result.variant) == (
        rules.players,
        rules.scoring.value,
        rules.edition.value,
        rules.variant.value,
    )
    assert len(result.results) == rules.players
    assert [(r.name, r.bot) for r in result.results] == seats(rules)
    assert [r.spec for r in result.results] == [None] + [
        LEVELS[bot] for _, bot in seats(rules)[1:] if bot is not None
    ]
    seat_scores = state.final_scores()
    if rules.variant.value == "ghost":
        # Individual scoring: each player's own seat; the ghosts' points are not theirs.
        assert len(seat_scores) == 4
        expected = list(seat_scores[:2])
    else:
        expected = list(seat_scores)
    assert [r.score for r in result.results] == expected
    best = max(expected)
    winners = expected.count(best)
    assert [r.win for r in result.results] == [
        1 / winners if score == best else 0.0 for score in expected
    ]
    assert sum(r.win for r in result.results) == pytest.approx(1.0)


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 5))
@settings(max_examples=40, deadline=None)
def test_win_shares_go_to_the_best_totals(seed: int, players: int) -> None:
    rules = Rules(players=players)
    result = GameResult.of("g", finished(rules, seed), seats(rules))
    scores = [r.score for r in result.results]
    for r in result.results:
        assert (r.win > 0) == (r.score == max(scores))
    assert sum(r.win for r in result.results) == pytest.approx(1.0)


def test_a_tie_shares_the_win() -> None:
    rules = Rules(players=3)
    state = next(
        s
        for s in (finished(rules, seed) for seed in range(3000))
        if len(set(s.final_scores())) == 2 and s.final_scores().count(max(s.final_scores())) == 2
    )
    result = GameResult.of("tie", state, seats(rules))
    assert sorted(r.win for r in result.results) == [0.0, 0.5, 0.5]
    assert {r.score for r in result.results if r.win} == {max(state.final_scores())}


def test_of_refuses_a_game_in_progress_or_the_wrong_players() -> None:
    rules = Rules(players=3)
    with pytest.raises(ValueError, match="not over"):
        GameResult.of("g", new_game(rules, seed=1), seats(rules))
    with pytest.raises(ValueError, match="3 players needed, not 2"):
        GameResult.of("g", finished(rules, 1), seats(rules)[:2])


def test_finished_at_is_utc_and_timezone_aware() -> None:
    state = finished(Rules(players=2), 1)
    players = seats(Rules(players=2))
    now = GameResult.of("g", state, players).finished_at
    assert now.tzinfo is UTC
    assert abs(datetime.now(UTC) - now) < timedelta(minutes=1)
    paris = datetime(2026, 11, 21, 9, 0, tzinfo=timezone(timedelta(hours=1)))
    assert GameResult.of("g", state, players, finished_at=paris).finished_at == WHEN
    assert GameResult.of(
        "g", state, players, finished_at=paris
    ).finished_at.utcoffset() == timedelta(0)
    with pytest.raises(ValueError, match="timezone-aware"):
        GameResult.of("g", state, players, finished_at=datetime(2026, 11, 21))


def test_invalid_results_are_refused() -> None:
    with pytest.raises(ValueError, match="win share"):
        PlayerResult("Ana", None, 3, 1.5)
    with pytest.raises(ValueError, match="name"):
        PlayerResult(" ", None, 3, 1.0)
    with pytest.raises(ValueError, match="2 player results needed, not 1"):
        game("g", ("Ana", None, 1, 1.0), players=2)
    with pytest.raises(ValueError, match="scoring"):
        game("g", ("Ana", None, 1, 1.0), ("B", "easy", 0, 0.0), scoring="green")


# ------------------------------------------------------------ the database


def test_add_is_idempotent(db: Stats) -> None:
    first = game("g1", ("Ana", None, 30, 1.0), ("Bot", "normal", 20, 0.0))
    assert not db.path.exists()
    assert db.add(first) is True
    assert db.add(first) is False
    # The same id with other figures is still the same game: ignored.
    other = game("g1", ("Ana", None, 5, 0.0), ("Bot", "normal", 25, 1.0))
    assert db.add(other) is False
    summary = db.summary()
    assert summary.games == 1
    (ana,) = summary.people
    assert (ana.player, ana.games, ana.wins, ana.best, ana.average) == ("Ana", 1, 1.0, 30, 30.0)
    with sqlite3.connect(db.path) as raw:
        assert raw.execute("SELECT count(*) FROM results").fetchone() == (2,)
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert raw.execute("PRAGMA user_version").fetchone() == (schema_version(),)
        assert raw.execute("PRAGMA application_id").fetchone() == (APPLICATION_ID,)
        stored = raw.execute("SELECT finished_at FROM games").fetchone()[0]
    assert datetime.fromisoformat(stored) == WHEN


def test_summary_groups_by_opponents_players_and_scoring(db: Stats) -> None:
    db.add(game("a", ("Ana", None, 30, 1.0), ("B1", "normal", 20, 0.0)))
    db.add(game("b", ("Ana", None, 10, 0.0), ("B1", "normal", 20, 1.0)))
    db.add(game("c", ("B1", "normal", 25, 0.5), ("Ana", None, 25, 0.5)))
    db.add(game("d", ("Ana", None, 40, 1.0), ("B1", "normal", 20, 0.0), scoring="gray"))
    db.add(game("e", ("Ana", None, 12, 0.0), ("B1", "hard", 33, 1.0), ("B2", "normal", 20, 0.0)))
    db.add(game("f", ("Ana", None, 12, 0.5), ("ben", None, 12, 0.5)))
    db.add(game("g", ("Ana", None, 9, 0.0), ("Ben", None, 12, 1.0), ("B", "easy", 1, 0.0)))
    db.add(game("h", ("B1", "easy", 9, 0.0), ("B2", "hard", 12, 1.0)))  # bots only
    summary = db.summary()
    assert summary.games == 8
    people = {p.player: p for p in summary.people}
    assert sorted(people) == ["Ana", "Ben", "ben"]  # names are kept as typed
    ana = people["Ana"]
    assert (ana.games, ana.wins, ana.best) == (7, 3.0, 40)
    assert ana.average == pytest.approx((30 + 10 + 25 + 40 + 12 + 12 + 9) / 7)
    assert ana.win_rate == pytest.approx(3 / 7)
    groups = {(g.player, g.opponents, g.players, g.scoring): g for g in summary.groups}
    assert set(groups) == {
        ("Ana", "normal", 2, "brown"),
        ("Ana", "normal", 2, "gray"),
        ("Ana", "hard+normal", 3, "brown"),
        ("Ana", PEOPLE_ONLY, 2, "brown"),
        ("Ana", "easy+people", 3, "brown"),
        ("ben", PEOPLE_ONLY, 2, "brown"),
        ("Ben", "easy+people", 3, "brown"),
    }
    normal = groups["Ana", "normal", 2, "brown"]
    assert (normal.games, normal.wins, normal.best, normal.average) == (3, 1.5, 30, 65 / 3)
    assert normal.win_rate == pytest.approx(0.5)
    assert groups["Ana", "normal", 2, "gray"].wins == 1.0
    assert sum(g.games for g in summary.groups if g.player == "Ana") == ana.games


def test_summary_for_one_player(db: Stats) -> None:
    db.add(game("a", ("Ana", None, 30, 1.0), ("Ben", None, 20, 0.0)))
    db.add(game("b", ("Ana", None, 10, 0.0), ("B", "easy", 20, 1.0)))
    db.add(game("c", ("Ben", None, 10, 0.0), ("B", "easy", 20, 1.0)))
    ben = db.summary(player="BEN")
    assert ben.games == 2
    assert [p.player for p in ben.people] == ["Ben"]
    assert {g.opponents for g in ben.groups} == {"easy", PEOPLE_ONLY}
    nobody = db.summary(player="Cy")
    assert (nobody.games, nobody.people, nobody.groups) == (0, (), ())


def test_opponents_label() -> None:
    assert opponents_label(["normal"]) == "normal"
    assert opponents_label(["normal", "hard", "normal"]) == "hard+normal"
    assert opponents_label(["search:iterations=200", None]) == "search:iterations=200+people"
    assert opponents_label([None]) == PEOPLE_ONLY


results_strategy = st.lists(
    st.tuples(
        st.lists(
            st.tuples(
                st.sampled_from(["Ana", "Ben", "Cy"]),
                st.sampled_from([None, None, "easy", "normal", "hard"]),
                st.integers(-40, 90),
            ),
            min_size=2,
            max_size=5,
        ),
        st.sampled_from(["brown", "gray"]),
    ),
    max_size=12,
)


@given(games=results_strategy)
@settings(max_examples=25, deadline=None)
def test_summary_matches_a_plain_count(games: list[tuple[list[Any], str]]) -> None:
    """Whatever is recorded, the figures are those of a naive count over the games."""
    expected: dict[str, list[tuple[int, float]]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as folder:
        db = Stats(Path(folder) / "stats.sqlite3")
        for n, (table, scoring) in enumerate(games):
            best = max(score for _, _, score in table)
            winners = sum(score == best for _, _, score in table)
            rows = [
                (name, bot, score, 1 / winners if score == best else 0.0)
                for name, bot, score in table
            ]
            assert db.add(game(f"g{n}", *rows, scoring=scoring))
            for name, bot, score, win in rows:
                if bot is None:
                    expected[name].append((score, win))
        summary = db.summary()
    assert summary.games == len(games)
    assert {p.player for p in summary.people} == set(expected)
    for person in summary.people:
        figures = expected[person.player]
        assert person.games == len(figures)
        assert person.wins == pytest.approx(sum(w for _, w in figures))
        assert person.best == max(s for s, _ in figures)
        assert person.average == pytest.approx(sum(s for s, _ in figures) / len(figures))
        mine = [g for g in summary.groups if g.player == person.player]
        assert sum(g.games for g in mine) == person.games
        assert sum(g.wins for g in mine) == pytest.approx(person.wins)


def test_a_missing_database_reads_as_empty_and_is_not_created(tmp_path: Path) -> None:
    db = Stats(tmp_path / "nowhere" / "stats.sqlite3")
    summary = db.summary()
    assert (summary.games, summary.people, summary.groups) == (0, (), ())
    assert db.schema_version() == 0
    assert not (tmp_path / "nowhere").exists()


def writer(path: str, worker: int, games: int, barrier: Any, out: Any) -> None:
    """One process recording its own games and a few that every process records."""
    db = Stats(Path(path))
    barrier.wait()
    added = []
    for n in range(games):
        for game_id in (f"w{worker}-g{n}", f"shared-{n % 5}"):
            result = game(
                game_id, ("Ana", None, n, 1.0), (f"Bot {worker}", "easy", 0, 0.0), players=2
            )
            if db.add(result):
                added.append(game_id)
    out.put(added)


def test_concurrent_writers_record_every_game_exactly_once(tmp_path: Path) -> None:
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    workers, games = 5, 25
    path = tmp_path / "new" / "stats.sqlite3"  # nobody has created it yet: all race for it
    barrier = context.Barrier(workers)
    out = context.Queue()
    processes = [
        context.Process(target=writer, args=(str(path), w, games, barrier, out))
        for w in range(workers)
    ]
    for process in processes:
        process.start()
    added = [game_id for _ in processes for game_id in out.get(timeout=60)]
    for process in processes:
        process.join(timeout=60)
        assert process.exitcode == 0
    own = {f"w{w}-g{n}" for w in range(workers) for n in range(games)}
    shared = {f"shared-{k}" for k in range(5)}
    assert sorted(added) == sorted(own | shared)  # each shared game added by one writer only
    with sqlite3.connect(path) as raw:
        ids = [row[0] for row in raw.execute("SELECT game_id FROM games")]
        results = raw.execute("SELECT game_id, count(*) FROM results GROUP BY game_id").fetchall()
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert sorted(ids) == sorted(own | shared)
    assert all(count == 2 for _, count in results)
    assert len(results) == len(ids)
    assert Stats(path).summary().games == workers * games + 5


# ------------------------------------------------------------ versions and bad files


@pytest.mark.parametrize("layout", ["empty file", "empty database"])
def test_a_version_0_database_is_migrated(tmp_path: Path, layout: str) -> None:
    path = tmp_path / "stats.sqlite3"
    if layout == "empty file":
        path.touch()
    else:  # a real SQLite file at user_version 0, with no tables left in it
        with sqlite3.connect(path) as raw:
            raw.execute("CREATE TABLE scratch (x)")
            raw.execute("DROP TABLE scratch")
        assert path.stat().st_size > 0
    db = Stats(path)
    assert db.schema_version() == schema_version() == 6
    assert db.add(game("g", ("Ana", None, 1, 1.0), ("B", "easy", 0, 0.0)))
    assert db.summary().games == 1


def _v1_database(path: Path) -> Stats:
    db = Stats(path)
    db.add(game("old-1", ("Ana", None, 30, 1.0), ("B", "hard", 20, 0.0)))
    db.add(game("old-2", ("Ana", None, 10, 0.0), ("B", "hard", 20, 1.0)))
    return db


def test_an_older_database_is_migrated_keeping_its_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _v1_database(tmp_path / "stats.sqlite3")
    current = schema_version()

    def add_a_column(connection: sqlite3.Connection) -> None:
        connection.execute("ALTER TABLE games ADD COLUMN seed INTEGER")
        connection.execute("UPDATE games SET seed = 7")

    monkeypatch.setattr(stats_module, "MIGRATIONS", [*stats_module.MIGRATIONS, add_a_column])
    assert schema_version() == current + 1
    assert db.summary().games == 2  # reading upgrades the file
    with sqlite3.connect(db.path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (current + 1,)
        assert raw.execute("SELECT DISTINCT seed FROM games").fetchall() == [(7,)]
    assert db.add(game("new", ("Ana", None, 50, 1.0), ("B", "hard", 20, 0.0)))
    assert [p.wins for p in db.summary().people] == [2.0]


def test_a_failing_migration_leaves_the_older_database_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _v1_database(tmp_path / "stats.sqlite3")
    current = schema_version()

    def half_done(connection: sqlite3.Connection) -> None:
        connection.execute("CREATE TABLE extra (x)")
        connection.execute("SELECT * FROM no_such_table")

    monkeypatch.setattr(stats_module, "MIGRATIONS", [*stats_module.MIGRATIONS, half_done])
    with pytest.raises(
        StatsError,
        match=rf"stats\.sqlite3: cannot be upgraded from schema version {current} to {current + 1}",
    ):
        db.summary()
    with sqlite3.connect(db.path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone() == (current,)
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
        assert raw.execute("SELECT count(*) FROM games").fetchone() == (2,)
    assert "extra" not in tables
    monkeypatch.undo()
    assert db.summary().games == 2


def _v2_database(path: Path, *games: tuple[str, str | None, int, float]) -> Stats:
    """A statistics file as version 2 wrote it, with one 2-player game per result given
    after Ana's."""
    with closing(sqlite3.connect(path)) as raw, raw:
        for migrate in MIGRATIONS[:2]:
            migrate(raw)
        raw.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        raw.execute("PRAGMA user_version = 2")
        for number, (name, bot, score, win) in enumerate(games):
            game_id = f"old-{number}"
            raw.execute(
                "INSERT INTO games VALUES (?, ?, 2, 'brown', 'classic', 'standard')",
                (game_id, WHEN.isoformat()),
            )
            raw.executemany(
                "INSERT INTO results (game_id, player, name, bot, score, win)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, 0, "Ana", None, 30, 1.0 - win), (game_id, 1, name, bot, score, win)],
            )
    return Stats(path)


def test_the_normal_levels_games_against_the_expert_stay_apart_from_its_games_now(
    tmp_path: Path,
) -> None:
    """Until schema version 3, "normal" was the expert: those games keep their own group."""
    db = _v2_database(
        tmp_path / "stats.sqlite3",
        ("B", "normal", 20, 0.0),
        ("B", "normal", 40, 1.0),
        ("B", "hard", 20, 0.0),
    )
    rules = Rules(players=2)
    players = [("Ana", None), ("B", "normal")]
    db.add(GameResult.of("new", finished(rules, 1), players, levels=LEVELS))
    assert db.schema_version() == schema_version()
    groups = {g.opponents: g.games for g in db.summary(levels=LEVELS).groups}
    assert groups == {"normal (expert)": 2, "normal": 1, "hard": 1}


def test_a_level_is_named_with_the_bot_it_stood_for_when_that_was_another(db: Stats) -> None:
    db.add(game("a", ("Ana", None, 30, 1.0), ("B", "hard", 20, 0.0, LEVELS["hard"])))
    db.add(game("b", ("Ana", None, 30, 1.0), ("B", "hard", 20, 0.0, "search:iterations=8")))
    db.add(game("c", ("Ana", None, 30, 1.0), ("B", "greedy", 20, 0.0)))
    opponents = sorted(g.opponents for g in db.summary(levels=LEVELS).groups)
    assert opponents == ["greedy", "hard", "hard (search:iterations=8)"]
    with pytest.raises(ValueError, match="a spec needs a bot"):
        PlayerResult("Ana", None, 30, 1.0, "expert")


def test_a_levels_games_from_before_its_play_changed_stay_apart(db: Stats) -> None:
    """A change to how a level plays, its spec unchanged, starts a group of its own."""
    rules = Rules(players=2)
    players = [("Ana", None), ("B", "hard")]
    db.add(game("old", ("Ana", None, 30, 1.0), ("B", "hard", 20, 0.0, LEVELS["hard"])))
    now = GameResult.of(
        "now", finished(rules, 1), players, levels=LEVELS, revisions=LEVEL_REVISIONS
    )
    assert now.results[1].revision == LEVEL_REVISIONS["hard"]
    db.add(now)
    date = LEVEL_REVISIONS["hard"]
    groups = {
        g.opponents: g.games for g in db.summary(levels=LEVELS, revisions=LEVEL_REVISIONS).groups
    }
    assert groups == {"hard": 1, f"hard (before {date})": 1}
    later = {"hard": "2099-01-01"}
    groups = {g.opponents: g.games for g in db.summary(levels=LEVELS, revisions=later).groups}
    assert groups == {f"hard (play of {date})": 1, "hard (before 2099-01-01)": 1}
    assert {g.opponents for g in db.summary(levels=LEVELS).groups} == {"hard"}
    with pytest.raises(ValueError, match="a revision needs a spec"):
        PlayerResult("B", "hard", 30, 1.0, None, date)


def test_a_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    db = _v1_database(tmp_path / "stats.sqlite3")
    newer = schema_version() + 1
    with sqlite3.connect(db.path) as raw:
        raw.execute(f"PRAGMA user_version = {newer}")
    before = db.path.read_bytes()
    for attempt in (db.summary, lambda: db.add(game("n", ("A", None, 1, 1.0), ("B", "x", 0, 0.0)))):
        with pytest.raises(StatsError) as error:
            attempt()
        assert str(db.path) in str(error.value)
        assert "newer version" in str(error.value)
        assert f"schema version {newer}" in str(error.value)
    assert db.path.read_bytes() == before


@pytest.mark.parametrize(
    "content",
    [b"this is not a database, just some text\n" * 100, bytes(range(256)) * 20],
    ids=["text", "bytes"],
)
def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "stats.sqlite3"
    path.write_bytes(content)
    db = Stats(path)
    for attempt in (db.summary, lambda: db.add(game("n", ("A", None, 1, 1.0), ("B", "x", 0, 0.0)))):
        with pytest.raises(StatsDamaged, match="is damaged") as error:
            attempt()
        assert str(path) in str(error.value)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stats.sqlite3"]


def test_another_programs_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "stats.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE notes (text)")
    before = path.read_bytes()
    with pytest.raises(StatsError, match="not a coloretto statistics database"):
        Stats(path).add(game("n", ("A", None, 1, 1.0), ("B", "x", 0, 0.0)))
    assert path.read_bytes() == before


def test_a_database_that_cannot_be_opened(tmp_path: Path) -> None:
    (tmp_path / "stats.sqlite3").mkdir()
    with pytest.raises(StatsError, match=r"stats\.sqlite3"):
        Stats(tmp_path / "stats.sqlite3").summary()
    (tmp_path / "file").write_text("")
    with pytest.raises(StatsError, match="cannot create its directory"):
        Stats(tmp_path / "file" / "stats.sqlite3").add(
            game("n", ("A", None, 1, 1.0), ("B", "x", 0, 0.0))
        )


# ------------------------------------------------------------ coloretto stats


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> DataDir:
    monkeypatch.setenv("COLORETTO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "160")
    return DataDir.default()


def run_ok(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status = main(["stats", *argv])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert err == ""
    return out


def test_cli_without_games(home: DataDir, capsys: pytest.CaptureFixture[str]) -> None:
    assert "No finished games yet" in run_ok(capsys)
    assert not home.stats.exists()
    data = json.loads(run_ok(capsys, "--json"))
    assert data == {
        "database": str(home.stats),
        "games": 0,
        "people": [],
        "groups": [],
        "accuracy": [],
        "left_out": [],
        "ratings": [],
        "practice": {"tried": 0, "first": 0, "second": 0, "missed": 0, "grades": {}, "players": {}},
    }


def test_cli_shows_the_figures(home: DataDir, capsys: pytest.CaptureFixture[str]) -> None:
    db = Stats(home.stats)
    rules = Rules(players=2, variant="ghost")
    played = GameResult.of(
        "ghost-1",
        finished(rules, 4),
        [("Ana", None), ("Bot", "hard")],
        levels=LEVELS,
        revisions=LEVEL_REVISIONS,
    )
    db.add(played)
    normal, hard = ((LEVELS[level], LEVEL_REVISIONS[level]) for level in ("normal", "hard"))
    for game_id, score, win in (("a", 30, 1.0), ("b", 20, 0.5)):
        ana = ("Ana", None, score, win)
        db.add(
            game(
                game_id, ana, ("B1", "normal", 20, 1 - win, *normal), ("B2", "hard", 2, 0.0, *hard)
            )
        )
    db.add(game("c", ("Ben", None, 20, 0.0), ("Ana", None, 21, 1.0), scoring="gray"))
    text = run_ok(capsys)
    assert "4 finished games recorded" in text
    ana_wins = 2.5 + played.results[0].win
    assert f"Ana: 4 games, {ana_wins:g} wins" in text
    assert "Ben: 1 game, 0 wins (0%), best score 20, average 20.0" in text
    assert "hard+normal" in text
    assert "people only" in text
    line = next(line for line in text.splitlines() if "hard+normal" in line)
    cells = [cell.strip() for cell in line.split("│")[1:-1]]
    assert cells == ["Ana", "hard+normal", "3p brown", "2", "1.5", "75%", "30", "25.0"]

    data = json.loads(run_ok(capsys, "--json"))
    assert set(data) == JSON_KEYS
    assert data["games"] == 4
    assert [p["player"] for p in data["people"]] == ["Ana", "Ben"]
    group = next(g for g in data["groups"] if g["opponents"] == "hard+normal")
    assert group == {
        "player": "Ana",
        "opponents": "hard+normal",
        "players": 3,
        "scoring": "brown",
        "games": 2,
        "wins": 1.5,
        "win_rate": 0.75,
        "best": 30,
        "average": 25.0,
    }
    ghost = next(g for g in data["groups"] if g["opponents"] == "hard")
    assert ghost["players"] == 2
    assert ghost["best"] == played.results[0].score

    only_ben = json.loads(run_ok(capsys, "--json", "--player", "ben"))
    assert only_ben["games"] == 1
    assert [p["player"] for p in only_ben["people"]] == ["Ben"]
    assert "Ana" not in run_ok(capsys, "--player", "Ben").split("Ben:")[1].split("\n")[0]
    assert "No finished games for 'Cy' yet" in run_ok(capsys, "--player", "Cy")


def test_cli_names_the_bot_a_level_stood_for_and_when_its_play_changed(
    home: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    home.stats.parent.mkdir(parents=True, exist_ok=True)
    _v2_database(home.stats, ("B", "normal", 20, 0.0))
    rules = Rules(players=2)
    players = [("Ana", None), ("B", "normal")]
    db = Stats(home.stats)
    db.add(GameResult.of("then", finished(rules, 1), players, levels=LEVELS))
    db.add(
        GameResult.of("now", finished(rules, 2), players, levels=LEVELS, revisions=LEVEL_REVISIONS)
    )
    before = f"normal (before {LEVEL_REVISIONS['normal']})"
    data = json.loads(run_ok(capsys, "--json"))
    assert sorted(g["opponents"] for g in data["groups"]) == [
        "normal",
        before,
        "normal (expert)",
    ]
    text = run_ok(capsys)
    assert "normal (expert)" in text
    assert before in text


def test_cli_sets_a_damaged_database_aside_and_counts_the_history_again(
    home: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    first = finish(home, "20261121-101010-aaaaaa", seed=3)
    finish(home, "20261121-101011-bbbbbb", seed=4)
    assert Stats(home.stats).count() == 2
    home.stats.unlink()
    home.stats.write_bytes(b"garbage" * 1000)
    (home.history / "zzz.json").write_text("[\n")
    status = main(["stats"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "2 finished games recorded." in out
    assert "Ana: 2 games" in out
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    (kept,) = home.root.glob("stats.sqlite3.damaged-*")
    assert kept.read_bytes() == b"garbage" * 1000  # never destroyed
    assert f"the statistics database was damaged, and is kept as {kept}; " in err
    assert f"counted 2 finished games of {home.history} (2 new)" in err
    assert "passed over 1 file that cannot be read (zzz.json; coloretto replay --list" in err
    assert "games no longer in the history are not counted" in err
    # counted once: the same games again add nothing, and say nothing
    assert "2 finished games recorded." in run_ok(capsys)
    first.unlink()
    assert "2 finished games recorded." in run_ok(capsys)


def test_cli_counts_the_history_when_the_database_is_missing(
    home: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    finish(home, "20261121-101010-aaaaaa", seed=3)
    home.stats.unlink()
    status = main(["stats", "--json"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert json.loads(out)["games"] == 1
    assert err == f"coloretto stats: counted 1 finished game of {home.history} (1 new)\n"
    assert "counted 1 finished game" in main_err(capsys, "stats", "--recount")


def main_err(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().err


def test_cli_refuses_another_programs_database_saying_what_to_do(
    home: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    home.root.mkdir(parents=True)
    with sqlite3.connect(home.stats) as raw:
        raw.execute("CREATE TABLE notes (text)")
    before = home.stats.read_bytes()
    assert main(["stats"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1, err
    assert f"coloretto stats: error: statistics database {home.stats}: is not a coloretto" in err
    assert "move it away, and coloretto stats counts the games of the history again" in err
    assert home.stats.read_bytes() == before


def test_finishing_a_game_with_a_damaged_database_says_only_the_statistics_were_not_updated(
    home: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    home.root.mkdir(parents=True)
    home.stats.write_bytes(b"garbage" * 1000)
    problem = finish(home, "20261121-101010-aaaaaa", seed=3, problem=True)
    assert problem is not None
    assert problem.startswith(
        "the game is kept in the history, only the statistics were not updated "
        f"(statistics database {home.stats}: is damaged"
    )
    assert problem.endswith("; `coloretto stats --recount` counts it from there")
    assert "\n" not in problem
    assert (home.history / "20261121-101010-aaaaaa.json").exists()
    assert "1 finished game recorded." in main_err_out(capsys)


def test_the_recount_names_the_files_it_passed_over(
    home: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    finish(home, "20261121-101010-aaaaaa", seed=3)
    for name in ("zzz.json", "yyy.json", "xxx.json", "www.json"):
        (home.history / name).write_text("[\n")  # not a game record
    arena = finished(Rules(players=3), seed=5)  # a game from elsewhere: no session
    write_record(home.history / "arena.json", arena, ["A", "B", "C"])
    assert main(["stats", "--recount"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    unreadable = re.search(r"4 files that cannot be read \((.*?); coloretto replay --list", err)
    assert unreadable is not None, err
    assert re.fullmatch(r"(\w{3}\.json, ){2}\w{3}\.json and 1 more", unreadable[1])
    assert "and 1 record of no finished game played here (arena.json)" in err
    done = count_history(home)
    assert {p.name for p in done.unreadable} == {"www.json", "xxx.json", "yyy.json", "zzz.json"}
    assert [p.name for p in done.elsewhere] == ["arena.json"]
    assert (done.games, done.skipped) == (1, 5)


def main_err_out(capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["stats"]) == 0
    return capsys.readouterr().out


def test_a_game_counted_again_keeps_its_time_and_the_levels_play_then(home: DataDir) -> None:
    finish(home, "20261101-101010-aaaaaa", seed=3)  # before the hard level's play changed
    home.stats.unlink()
    done = count_history(home)
    assert (done.added, done.games, done.skipped, done.unread) == (1, 1, 0, 0)
    summary = Stats(home.stats).summary(levels=LEVELS, revisions=LEVEL_REVISIONS)
    (group,) = summary.groups
    assert group.opponents == f"easy+hard (before {LEVEL_REVISIONS['hard']})"
    with closing(sqlite3.connect(home.stats)) as raw:
        assert (
            raw.execute("SELECT finished_at FROM games")
            .fetchone()[0]
            .startswith("2026-11-01T10:10:10")
        )


def test_cli_with_a_data_directory_that_is_a_file(
    home: DataDir, capsys: pytest.CaptureFixture[str]
) -> None:
    home.root.write_text("")
    for argv in (["stats"], ["stats", "--json"], ["replay", "--list"], ["replay"], ["review"]):
        assert main(argv) == 2, argv
        out, err = capsys.readouterr()
        assert out == ""
        assert err.count("\n") == 1, err
        assert f"the data directory {home.root} is a file, not a directory: move the" in err
        assert "No finished games" not in err
    for argv in (["play", "--resume"], ["save", "x.json"]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        assert f"the data directory {home.root} is a file, not a directory: move the" in err


def test_cli_usage_error(home: DataDir, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["stats", "--player", " "])
    assert exit_info.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def over_months(db: Stats) -> None:
    """Ana's games over three months (wins, a shared tie, losses), the coach's accuracy of
    two of them, and a game a bot stood in for her (left out)."""
    played = [
        (datetime(2026, 9, 3, tzinfo=UTC), 31, 1.0),
        (datetime(2026, 10, 1, tzinfo=UTC), 12, 0.0),
        (datetime(2026, 10, 9, tzinfo=UTC), 25, 0.5),
        (datetime(2026, 11, 2, tzinfo=UTC), 40, 1.0),
        (datetime(2026, 11, 5, tzinfo=UTC), 18, 0.0),
    ]
    for number, (when, score, win) in enumerate(played):
        ana, ben = ("Ana", None, score, win), ("Ben", None, 20, 1.0 - win)
        db.add(replace(game(f"m{number}", ana, ben, ("Bot", "hard", 5, 0.0)), finished_at=when))
    db.add_accuracy("m1", 0, 71.0, 20)
    db.add_accuracy("m3", 0, 88.0, 22)
    away = game("away", ("Ana", None, 3, 0.0), ("Ben", None, 9, 1.0))
    stood_in = replace(away.results[0], stood_in=True)
    db.add(replace(away, results=(stood_in, *away.results[1:])))


@pytest.mark.parametrize("columns", [60, 100])
def test_cli_draws_the_results_and_the_accuracy_over_time(
    home: DataDir,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    columns: int,
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("NO_COLOR", "1")
    over_months(Stats(home.stats))
    before = json.loads(run_ok(capsys, "--json"))
    text = run_ok(capsys)
    assert all(len(line) <= columns for line in text.splitlines())
    assert "\x1b[3" not in text  # no colour: the glyphs say it all
    lines = text.splitlines()
    assert "Results over time (wins per game, month by month): Ana" in lines
    assert "Results over time (wins per game, month by month): Ben" in lines
    september = next(line for line in lines if line.startswith("  2026-09  "))
    assert set(september.split()[1]) == {"█"}  # a win: the whole bar
    assert "100%  1 game · average 31.0" in september
    october = next(line for line in lines if line.startswith("  2026-10  "))
    assert " 25%  2 games · average 18.5" in october  # a loss and a tie's half
    bar = october.split()[1]
    assert bar.count("·") > bar.count("█") > 0
    strip = lines.index("  the last 5 games, oldest first: scores 12 to 40, results")
    assert lines[strip + 1] == "  ▆▁▄█▃"
    assert lines[strip + 2] == "  ●○◐●○"
    assert "Accuracy over time (the coach's, 0-100): Ana" in lines
    heading = lines.index("Accuracy over time (the coach's, 0-100): Ana")
    accuracy = [line for line in lines[heading:] if line.startswith("  2026-")]
    assert [line.split()[0] for line in accuracy] == ["2026-10", "2026-11"]
    assert accuracy[0].endswith(" 71  1 reviewed")
    # The JSON has no series in it.
    assert set(before) == JSON_KEYS
    assert before["left_out"] == [{"player": "Ana", "games": 1}]
