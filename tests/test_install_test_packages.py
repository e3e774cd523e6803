"""``.ci/install-test-packages``: the Debian packages the tests drive, installed if missing
(quietly, only what is missing, nothing done twice), refusing clearly without root or
apt-get; ``.ci/run`` runs it, and the README and docs/development.md name it beside the
test command. Run against stand-ins for dpkg-query, apt-get and id on ``PATH``."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".ci" / "install-test-packages"
PACKAGES = ["chromium", "iproute2", "nftables", "tmux", "openssl", "nginx-light", "postgresql",
            "python3-venv"]  # fmt: skip

STAND_INS = {
    # installed: the packages named in $INSTALLED; anything else unknown to dpkg
    "dpkg-query": 'for p in $INSTALLED; do [ "$p" = "${!#}" ] && echo -n installed && exit 0; '
    'done; echo "dpkg-query: no packages found matching ${!#}" >&2; exit 1',
    # each call on a line of $APT_LOG; fails, saying so, when $APT_FAILS is set
    "apt-get": 'echo "$*" >>"$APT_LOG"; echo "Reading package lists..."; '
    '[ -z "${APT_FAILS:-}" ] || { echo "E: Unable to locate package $APT_FAILS"; exit 100; }',
    "id": 'echo "$USER_ID"',
}


@dataclass
class Run:
    code: int
    out: str
    err: str
    apt: list[str]


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "bin"
    folder.mkdir()
    for name, body in STAND_INS.items():
        stand_in = folder / name
        stand_in.write_text(f"#!/bin/bash\n{body}\n")
        stand_in.chmod(0o755)
    return folder


def run(bin_dir: Path, *, installed: list[str], root: bool = True, path: str = "",
        apt_fails: str = "") -> Run:  # fmt: skip
    log = bin_dir.parent / "apt.log"
    log.unlink(missing_ok=True)
    env = {
        "PATH": path or f"{bin_dir}:/usr/bin:/bin",
        "INSTALLED": " ".join(installed),
        "APT_LOG": str(log),
        "APT_FAILS": apt_fails,
        "USER_ID": "0" if root else "1000",
    }
    done = subprocess.run(
        [str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    apt = log.read_text().splitlines() if log.exists() else []
    return Run(done.returncode, done.stdout, done.stderr, apt)


def test_nothing_missing_nothing_done_nothing_said_even_without_root(bin_dir: Path) -> None:
    assert run(bin_dir, installed=PACKAGES, root=False) == Run(0, "", "", [])


def test_only_the_missing_packages_are_installed_quietly(bin_dir: Path) -> None:
    done = run(bin_dir, installed=[p for p in PACKAGES if p not in {"chromium", "postgresql"}])
    assert done.code == 0, done.err
    assert done.apt == ["update -qq", "install -y -qq chromium postgresql"]
    assert done.out == "install-test-packages: installed chromium postgresql\n"
    assert done.err == ""  # apt's own output kept back
    assert run(bin_dir, installed=PACKAGES).apt == []  # once installed, never again


def test_on_a_fresh_machine_every_package_is_installed(bin_dir: Path) -> None:
    done = run(bin_dir, installed=[])
    assert done.code == 0, done.err
    assert done.apt == ["update -qq", f"install -y -qq {' '.join(PACKAGES)}"]


def test_without_root_it_says_what_is_missing_and_how(bin_dir: Path) -> None:
    done = run(bin_dir, installed=[p for p in PACKAGES if p != "tmux"], root=False)
    assert done.code == 1
    assert done.apt == []
    assert done.err == (
        f"install-test-packages: tmux not installed: run it as root (sudo {SCRIPT})\n"
    )


def test_without_apt_it_says_so_and_names_the_packages(bin_dir: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bare"  # a system without dpkg and apt-get
    bare.mkdir()
    for tool in ("bash", "mktemp", "cat", "rm"):
        found = shutil.which(tool)
        assert found is not None
        (bare / tool).symlink_to(found)
    (bare / "id").symlink_to(bin_dir / "id")
    done = run(bin_dir, installed=[], path=str(bare))
    assert done.code == 1
    assert "needs Debian's apt-get and dpkg-query" in done.err
    assert " ".join(PACKAGES) in done.err


def test_when_apt_fails_its_output_shows_and_the_run_fails(bin_dir: Path) -> None:
    done = run(bin_dir, installed=[p for p in PACKAGES if p != "nginx-light"],
               apt_fails="nginx-light")  # fmt: skip
    assert done.code == 1
    assert "E: Unable to locate package nginx-light" in done.err
    assert done.err.endswith(
        "install-test-packages: apt-get could not install nginx-light (its output above)\n"
    )


def test_ci_runs_it_and_installs_nothing_else() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert os.access(SCRIPT, os.X_OK)
    assert ci.index(".ci/install-test-packages\n") < ci.index(".ci/newcomer\n")
    assert "apt-get" not in ci


def test_the_readme_and_the_development_page_name_it_beside_the_test_command() -> None:
    command = 'python3 -m pip install -e ".[test]" && python3 -m pytest -n auto'
    for page in (ROOT / "README.md", ROOT / "docs" / "development.md"):
        text = page.read_text()
        block = re.search(r"```sh\n([^`]*?^sudo \.ci/install-test-packages\b[^`]*?)```", text, re.M)
        assert block is not None, page.name
        assert command in block[1], page.name


def test_it_installs_every_package_the_tests_ask_for() -> None:
    """The tests that need a package say "apt-get install PACKAGE" when it is missing."""
    asked = set()
    for path in (ROOT / "tests").rglob("*.py"):
        asked |= set(re.findall(r"apt-get install ([a-z0-9][a-z0-9.+-]+)", path.read_text()))
    assert asked
    assert asked <= set(PACKAGES)
    assert f"packages=({' '.join(PACKAGES)})" in SCRIPT.read_text()
