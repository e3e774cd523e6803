"""``coloretto arena``: tables against opponents, faulty plug-ins, records and bad options."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from coloretto.bots.arena import Arena, run_arena
from coloretto.cli.main import main
from coloretto.engine import Rules
from coloretto.store.records import read_record
from tests.conftest import install_bots

ROOT = Path(__file__).resolve().parent.parent

PLUGINS = '''
import time

from coloretto.bots import Budget


class Raiser:
    """Raises on every third move."""

    def __init__(self, seed=None):
        self.moves = 0

    def choose(self, view, legal, budget=None):
        self.moves += 1
        if self.moves % 3 == 0:
            raise RuntimeError("out of ideas")
        return legal[0]


class Cheat:
    """Answers with something that is not an action."""

    def __init__(self, seed=None):
        pass

    def choose(self, view, legal, budget=None):
        return "take 9"


class Sleeper:
    """Thinks too long on its first move."""

    def __init__(self, seed=None):
        self.slept = False

    def choose(self, view, legal, budget=None):
        if not self.slept:
            self.slept = True
            time.sleep(1.0)
        return legal[-1]


class Shouter:
    """Raises with terminal escapes and Rich markup in its message."""

    def __init__(self, seed=None):
        pass

    def choose(self, view, legal, budget=None):
        raise RuntimeError("\x1b]0;pwned\x07\x1b[2J[bold red]boom[/]")


class Budgeted:
    """Insists on being given a Budget."""

    def __init__(self, seed=None):
        pass

    def choose(self, view, legal, budget=None):
        if not isinstance(budget, Budget) or budget.seconds is None:
            raise ValueError(f"no budget: {budget!r}")
        return legal[0]
'''


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Faulty third-party bots installed as a distribution on the path (also for children)."""
    names = ("raiser = faulty_bots:Raiser", "cheat = faulty_bots:Cheat")
    more = (
        "sleeper = faulty_bots:Sleeper",
        "budgeted = faulty_bots:Budgeted",
        "shouter = faulty_bots:Shouter",
    )
    return install_bots(tmp_path / "site", monkeypatch, "faulty_bots", PLUGINS, (*names, *more))


def coloretto(
    tmp_path: Path, *argv: str, site: Path | None = None, file_limit: int | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -m coloretto ARGV`` as a real process, with its own data directory."""
    paths = [str(ROOT), *([str(site)] if site else [])]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(paths),
        "COLORETTO_HOME": str(tmp_path / "home"),
        "COLUMNS": "200",
    }

    def limit_files() -> None:
        if file_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    return subprocess.run(
        [sys.executable, "-m", "coloretto", "arena", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
        check=False,
        preexec_fn=limit_files,
    )


def one_line_error(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "unexpected" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0]


# ---------------------------------------------------------------------- --against


def test_against_plays_a_table_of_each_style_and_names_the_worst(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["arena", "--players", "3", "--bots", "expert", "--games", "6", "--jobs", "1"]
    assert main([*argv, "--against", "builder,taker,denial"]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.startswith("│")]
    assert [line.split("│")[1].strip() for line in lines] == ["builder", "taker", "denial"]
    assert "worst: against " in out
    assert main([*argv, "--against", "builder,taker", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["bot"] == "expert"
    assert [t["against"] for t in result["tables"]] == ["builder", "taker"]
    assert all(t["games"] == 6 and t["name"] == "expert" for t in result["tables"])
    worst = min(result["tables"], key=lambda t: (t["win_rate"], t["mean_margin"]))
    assert result["worst"] == worst["against"]


def test_against_wants_exactly_one_bot(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["arena", "--players", "3", "--bots", "expert,greedy", "--against", "taker"])
    assert exit_info.value.code == 2
    assert "--against, --bots names the one bot to measure" in capsys.readouterr().err


def test_against_keeps_each_tables_records_apart(tmp_path: Path) -> None:
    argv = ["--players", "3", "--bots", "greedy", "--against", "builder,search:iterations=2"]
    done = coloretto(tmp_path, *argv, "--games", "1", "--record-dir", str(tmp_path / "rec"))
    assert done.returncode == 0, done.stderr
    folders = sorted(p.name for p in (tmp_path / "rec").iterdir())
    assert folders == ["1-builder", "2-search-iterations=2"]


def test_arena_records_give_every_seat_its_own_name(tmp_path: Path) -> None:
    arena = Arena(Rules(players=4), ("expert", *["greedy"] * 3), 4, record_dir=tmp_path)
    run_arena(arena, jobs=1)
    for path in sorted(tmp_path.iterdir()):
        names = read_record(path).seats
        assert sorted(names) == ["expert", "greedy #1", "greedy #2", "greedy #3"]
    ghost = Arena(Rules(players=2, variant="ghost"), ("greedy", "greedy"), 1, record_dir=tmp_path)
    run_arena(ghost, jobs=1)
    names = read_record(tmp_path / "game-00001.json").seats
    assert len(set(names)) == 4
    assert "greedy #1's ghost" in names


# ---------------------------------------------------------------------- bots and options


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1"])
def test_a_search_budget_must_be_a_positive_finite_number(tmp_path: Path, value: str) -> None:
    argv = ["--players", "2", "--games", "1", "--jobs", "1"]  # no workers left behind on a hang
    done = coloretto(tmp_path, *argv, "--bots", f"search:seconds={value},greedy")
    one_line_error(done, "seconds must be")


def test_a_bad_option_names_the_option_and_the_bot(tmp_path: Path) -> None:
    argv = ["--players", "2", "--games", "1", "--jobs", "1"]
    done = coloretto(tmp_path, *argv, "--bots", "greedy:threshold=abc,random")
    one_line_error(done, "greedy:threshold=abc", "threshold must be a number, not 'abc'")


def test_help_shows_a_plain_percent_sign(tmp_path: Path) -> None:
    done = coloretto(tmp_path, "--help")
    assert done.returncode == 0
    assert "95%" in done.stdout
    assert "%%" not in done.stdout


def test_the_arena_gives_bots_a_budget(plugins: Path) -> None:
    arena = Arena(Rules(players=2), ("budgeted", "greedy"), 2)
    stats = run_arena(arena, jobs=1).bots["budgeted"]
    assert (stats.faults, stats.timeouts) == (0, 0)


def test_a_faulty_plugin_has_its_moves_replaced_and_counted(tmp_path: Path, plugins: Path) -> None:
    argv = ["--players", "3", "--bots", "raiser,cheat,sleeper", "--games", "3", "--jobs", "1"]
    done = coloretto(tmp_path, *argv, "--time-limit", "0.3", "--json", site=plugins)
    assert done.returncode == 0, done.stderr
    stats = {bot["name"]: bot for bot in json.loads(done.stdout)["bots"]}
    assert stats["raiser"]["faults"] > 0
    assert stats["raiser"]["timeouts"] == 0
    assert stats["cheat"]["faults"] > 0
    assert stats["cheat"]["timeouts"] == 0
    assert stats["sleeper"]["timeouts"] >= 3  # each game's first move, and while it sleeps
    assert stats["sleeper"]["faults"] == 0
    table = coloretto(tmp_path, *argv, "--time-limit", "0.3", site=plugins)
    assert "Faults" in table.stdout
    assert "Timeouts" in table.stdout


def test_strict_stops_at_the_first_fault_naming_the_bot(tmp_path: Path, plugins: Path) -> None:
    argv = ["--players", "2", "--games", "2", "--jobs", "1", "--strict"]
    done = coloretto(tmp_path, *argv, "--bots", "greedy,raiser", site=plugins)
    assert done.returncode == 1
    assert "bot 'raiser' raised RuntimeError: out of ideas" in done.stderr
    done = coloretto(tmp_path, *argv, "--bots", "cheat,greedy", site=plugins)
    assert done.returncode == 1
    assert "bot 'cheat' answered 'take 9', which is not a legal action" in done.stderr


def test_a_plugins_message_reaches_the_terminal_printable(tmp_path: Path, plugins: Path) -> None:
    argv = ["--players", "2", "--games", "1", "--jobs", "1", "--strict"]
    done = coloretto(tmp_path, *argv, "--bots", "greedy,shouter", site=plugins)
    assert done.returncode == 1
    assert "\x1b" not in done.stderr
    assert "\x07" not in done.stderr
    assert "[bold red]boom[/]" in done.stderr  # shown as it is, not read as markup


# ---------------------------------------------------------------------- --record-dir


ARENA = ["--players", "2", "--bots", "greedy,random", "--games", "2", "--jobs", "1"]


def test_a_record_dir_under_a_regular_file_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    done = coloretto(tmp_path, *ARENA, "--record-dir", str(tmp_path / "file" / "records"))
    one_line_error(done, "Not a directory")


def test_a_read_only_record_dir_is_a_one_line_error(tmp_path: Path) -> None:
    if os.geteuid() == 0:  # permissions do not stop root; sysfs refuses everyone
        target = Path("/sys/coloretto-records")
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o555)
        target = locked / "records"
    done = coloretto(tmp_path, *ARENA, "--record-dir", str(target))
    one_line_error(done, "cannot make the record directory")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_full_disk_is_a_one_line_error(tmp_path: Path, jobs: str) -> None:
    # A file size limit makes writes fail as a full disk does.
    argv = [*ARENA[:-1], jobs, "--record-dir", str(tmp_path / "records")]
    done = coloretto(tmp_path, *argv, file_limit=200)
    one_line_error(done, "cannot write the record")
