"""``coloretto practice [FILE]``: the puzzles of a reviewed game in a real terminal, the
result kept and shown by ``coloretto stats``; a clear one-line message, never a traceback,
when there is nothing to practise or the file is bad."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from coloretto.engine import ActionKind
from coloretto.play.practice import puzzles
from coloretto.store.records import write_record
from tests.conftest import run_coloretto as coloretto
from tests.test_hostile_files import finished_record, refused
from tests.tui.review_fixtures import reviewed_record
from tests.tui.test_terminal import Terminal, terminal  # noqa: F401 (the fixture)


def keep_reviewed(home: Path, name: str = "game.json", **meta: object) -> Path:
    """The fixture's reviewed game in ``home``'s history (``meta`` in place of its own
    when given)."""
    record = reviewed_record()
    path = home / "history" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    write_record(path, record.state, record.seats, meta or record.meta)
    return path


def test_a_puzzle_solved_in_a_real_terminal_shows_in_the_stats(
    terminal: Terminal,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    path = keep_reviewed(home)
    first = puzzles(reviewed_record(), path.name)[0]
    best = first.best
    key = "d" if best.kind is ActionKind.DRAW else str((best.row or 0) + 1)
    terminal.start(["practice"], env={"COLORETTO_HOME": str(home)})
    screen = terminal.wait_for("Puzzle 1 of", "a Answer", "Esc Leave")
    assert all(len(line) <= 80 for line in screen.splitlines())
    terminal.keys(key)
    terminal.wait_for("Solved at the first try!", "Best: ", "Why: ")
    terminal.keys("Escape")
    terminal.wait_for("exit status 0")
    done = coloretto(home, "stats")
    assert done.returncode == 0, done.stderr
    name = first.player  # a hotseat game: kept under the name of the player who solved it
    said = f"{name}'s practice: 1 puzzle tried: 1 solved at once, 0 at the second try"
    assert said in done.stdout
    figures = json.loads(coloretto(home, "stats", "--json").stdout)["practice"]
    assert figures["tried"] == figures["first"] == 1
    grades = {first.grade.value: {"tried": 1, "first": 1, "second": 0, "missed": 0}}
    assert figures["grades"] == grades
    assert figures["players"] == {
        name: {"tried": 1, "first": 1, "second": 0, "missed": 0, "grades": grades}
    }
    other = next(n for n in reviewed_record().seats if n != name)
    alone = coloretto(home, "stats", "--player", other, "--json")
    assert json.loads(alone.stdout)["practice"]["tried"] == 0  # not another's results


def said(done: subprocess.CompletedProcess[str], *words: str) -> str:
    line = refused(done, *words)
    assert line.startswith("coloretto practice: error: "), line
    return line


def test_nothing_to_practise_is_said_in_one_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    said(coloretto(home, "practice"), "no finished games", "coloretto review")
    plain = home / "history" / "plain.json"
    plain.parent.mkdir(parents=True)
    plain.write_text(json.dumps(finished_record()))
    said(coloretto(home, "practice"), "no reviewed game", "coloretto review")
    said(coloretto(home, "practice", str(plain)), "plain.json has not been reviewed yet")
    said(coloretto(home, "practice", "plain.json"), "coloretto review plain.json")


def test_a_review_without_mistakes_has_nothing_to_practise(tmp_path: Path) -> None:
    home = tmp_path / "home"
    record = reviewed_record()
    meta = json.loads(json.dumps(record.meta))
    for entry in meta["analysis"]["decisions"]:  # every option valued as the one played
        played = next(o for o in entry["options"] if o["action"] == entry["played"])
        entry["options"] = [{**played, "action": o["action"]} for o in entry["options"]]
    keep_reviewed(home, "clean.json", **meta)
    said(coloretto(home, "practice"), "found no inaccuracy, mistake or blunder")
    said(coloretto(home, "practice", "clean.json"), "nothing to practise")


def test_a_bad_file_is_a_one_line_error(tmp_path: Path) -> None:
    home = tmp_path / "home"
    bad = tmp_path / "bad.json"
    bad.write_text("[" * 100_000)
    said(coloretto(home, "practice", str(bad)), "bad.json")
    said(coloretto(home, "practice", str(tmp_path / "none.json")), "no such file")
    said(coloretto(home, "practice", str(tmp_path)), "is a directory")


def test_practice_needs_a_terminal(tmp_path: Path) -> None:
    home = tmp_path / "home"
    keep_reviewed(home)
    done = coloretto(home, "practice")
    assert done.returncode == 2
    assert "needs a terminal" in done.stderr
    assert "Traceback" not in done.stderr


def test_stats_says_when_the_results_cannot_be_read(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "practice.json").write_text("[" * 100_000)
    done = coloretto(home, "stats")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "practice.json cannot be read (nested too deep)" in " ".join(done.stdout.split())
    assert json.loads(coloretto(home, "stats", "--json").stdout)["practice"]["tried"] == 0
