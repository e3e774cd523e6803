"""The suite's own check: a run whose tests leave processes behind fails, naming them, and
kills them; another run's processes are never counted nor touched."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.processes import RUN, alive, started

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

LEAKY = """
import subprocess


def test_a_child_left_running():
    subprocess.Popen(["sleep", "301"])


def test_a_grandchild_orphaned():
    subprocess.run(["sh", "-c", "sleep 302 &"], check=True)


def test_a_child_ended():
    subprocess.run(["sleep", "0"], check=True)
"""


@pytest.mark.parametrize("workers", [["-p", "no:xdist"], ["-n", "1"]], ids=["alone", "xdist"])
def test_a_run_that_leaves_processes_behind_fails_and_kills_only_its_own(
    tmp_path: Path, workers: list[str]
) -> None:
    env = {key: value for key, value in os.environ.items() if key != RUN}
    other = subprocess.Popen(["sleep", "303"], env={**env, RUN: "another-run"})
    try:
        (tmp_path / "conftest.py").write_text(
            "from tests.conftest import OWN_RUN, pytest_configure, pytest_sessionfinish\n"
        )
        (tmp_path / "test_leaky.py").write_text(textwrap.dedent(LEAKY))
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *workers, tmp_path],
            capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
            env={**env, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.stdout + run.stderr
        assert "3 passed" in run.stdout
        assert "the tests left 2 processes running" in run.stdout, run.stdout
        listed = re.findall(r"^  (\d+): (.*)$", run.stdout, re.MULTILINE)
        left = {int(pid): command for pid, command in listed}
        assert sorted(command.strip() for command in left.values()) == ["sleep 301", "sleep 302"]
        assert not [pid for pid in left if (start := started(pid)) and alive({pid: start})]
        assert other.poll() is None  # another run's process: not this run's business
    finally:
        other.kill()
        other.wait()


def test_this_run_is_named_in_its_processes_environment() -> None:
    child = subprocess.run(
        [sys.executable, "-c", f"import os; print(os.environ['{RUN}'])"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert child.stdout.strip() == os.environ[RUN]
