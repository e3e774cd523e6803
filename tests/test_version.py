"""``coloretto --version``: the installed package's version, as its metadata gives it."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import coloretto
from coloretto.cli.main import installed_version

ROOT = Path(__file__).resolve().parent.parent


def test_the_version_is_the_installed_packages() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "coloretto", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"coloretto {version('coloretto')}"


def test_one_version_everywhere() -> None:
    """pyproject.toml, the package metadata and ``coloretto.__version__`` agree (a version
    bumped in one place only would make ``--version`` lie in a checkout or an install)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert installed_version() == project["version"] == coloretto.__version__


def test_the_changelog_names_the_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## [{coloretto.__version__}]" in changelog
    assert "## [Unreleased]" in changelog
