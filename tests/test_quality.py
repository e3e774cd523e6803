"""The project's static checks, run as tests: ruff (lint and format) and mypy --strict.

mypy's configuration (strict, on the whole package) is in pyproject.toml.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 300


def tool(module: str) -> list[str]:
    """The command that runs ``module`` with this interpreter; skip if it is not installed."""
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install -e '.[test]')")
    return [sys.executable, "-m", module]


def check(command: list[str]) -> None:
    done = subprocess.run(
        command,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    output = (done.stdout + done.stderr).strip()
    assert done.returncode == 0, f"{' '.join(command[1:])} failed ({done.returncode}):\n{output}"


def test_ruff_check() -> None:
    check([*tool("ruff"), "check", "--no-cache", "."])


def test_ruff_format() -> None:
    check([*tool("ruff"), "format", "--no-cache", "--check", "."])


def test_mypy_strict() -> None:
    check([*tool("mypy")])
