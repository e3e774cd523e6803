"""The project's static checks, run as tests: ruff (lint and format) and mypy --strict.

mypy's configuration (strict, on the whole package and the held-out opponents in
``benchmarks/heldout``) is in pyproject.toml.
"""

from __future__ import annotations

import ast
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


# ---------------------------------------------------------------- layers

LAYERS = {
    "engine": set(),
    "bots": {"engine"},
    "store": {"engine"},
    "play": {"engine", "bots", "store"},
    "online": {"engine", "bots", "store", "play"},
    "tui": {"engine", "bots", "store", "play", "online"},
    "web": {"engine", "bots", "store", "play", "online"},
    "cli": {"engine", "bots", "store", "play", "online", "tui", "web"},
}
"""Which of the package's layers each one may import: ``cli → tui → online → play →
{bots, store} → engine``, never the other way (``online`` has no Textual); ``cli → web``,
the web server (textual-serve), which plays no game itself (each visitor's process runs
the command line) but asks a game server for its public tables (``online.lobby``), so
``web → online`` and never ``web → tui``."""


def imports_of(path: Path, *, top_level_only: bool = False) -> set[str]:
    """The modules ``path`` imports (only those at the module's top level if asked)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else ast.walk(tree)
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] in {"textual", "textual_serve", "aiohttp"}:
        return parts[0]
    if parts[0] == "coloretto" and len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    return None


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_imports_flow_one_way(layer: str) -> None:
    allowed = LAYERS[layer] | {layer} | ({"textual"} if layer in {"tui", "cli"} else set())
    allowed |= {"textual_serve", "aiohttp"} if layer == "web" else set()  # the optional extra
    wrong = []
    for path in sorted((ROOT / "coloretto" / layer).rglob("*.py")):
        for module in imports_of(path):
            if layer_of(module) not in allowed | {None}:
                wrong.append(f"{path.relative_to(ROOT)} imports {module}")
    assert not wrong, "\n".join(wrong)


ONLINE_PARTS = {"wire": set(), "server": {"wire"}, "client": {"wire"}}
"""Which parts of ``online`` each one may import: the server and the client speak the wire
and never reach into each other."""


@pytest.mark.parametrize("part", sorted(ONLINE_PARTS))
def test_the_online_parts_keep_to_their_side(part: str) -> None:
    allowed = ONLINE_PARTS[part] | {part}
    online = ROOT / "coloretto" / "online"
    assert {p.name for p in online.iterdir() if p.suffix == ".py"} == {"__init__.py"}
    wrong = []
    for path in sorted((online / part).rglob("*.py")):
        for module in imports_of(path):
            parts = module.split(".")
            if parts[:2] == ["coloretto", "online"] and parts[2:3] and parts[2] not in allowed:
                wrong.append(f"{path.relative_to(ROOT)} imports {module}")
    assert not wrong, "\n".join(wrong)


ONLINE_METHODS = 27
"""The most methods a class of ``online`` may have (issue 58: about 25): a class that
needs more holds more than one job."""


def test_no_online_class_holds_more_than_one_job() -> None:
    crowded = []
    for path in sorted((ROOT / "coloretto" / "online").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                methods = [
                    f for f in node.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
                ]
                if len(methods) > ONLINE_METHODS:
                    crowded.append(f"{path.relative_to(ROOT)}: {node.name}, {len(methods)}")
    assert not crowded, "\n".join(crowded)


def test_the_command_line_loads_textual_only_to_play() -> None:
    eager = [
        f"{path.name} imports {module}"
        for path in sorted((ROOT / "coloretto" / "cli").rglob("*.py"))
        for module in imports_of(path, top_level_only=True)
        if layer_of(module) in {"tui", "textual", "web", "textual_serve", "aiohttp"}
    ]
    assert not eager, "\n".join(eager)


PATH_IO = frozenset(
    {"open", "read_text", "read_bytes", "write_text", "write_bytes", "touch", "unlink"}
    | {"mkdir", "rmdir", "rename", "replace", "iterdir", "glob", "rglob", "stat", "exists"}
)
"""Methods of ``pathlib.Path`` that touch the disk (``replace`` only when called on a path,
not on text: ``"a".replace``)."""

IO_MODULES = frozenset({"os", "shutil", "tempfile", "io", "sqlite3", "pathlib"})
"""Modules whose functions touch files (``os.PathLike`` in a type is no call)."""


def file_io_in(path: Path) -> list[str]:
    """The calls in ``path`` that read or write files: ``open``, a file module's function,
    or a path's disk method (``x.replace`` is taken for ``str.replace`` unless ``x`` is a
    ``Path(...)`` or a name bound to one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open":
            found.append(f"line {node.lineno}: open(...)")
        elif isinstance(func, ast.Attribute):
            owner = func.value
            if isinstance(owner, ast.Name) and owner.id in IO_MODULES:
                found.append(f"line {node.lineno}: {owner.id}.{func.attr}(...)")
            elif func.attr in PATH_IO - {"replace"} or (
                func.attr == "replace"
                and isinstance(owner, ast.Call)
                and isinstance(owner.func, ast.Name)
                and owner.func.id == "Path"
            ):
                found.append(f"line {node.lineno}: .{func.attr}(...)")
    return found


def test_the_engine_touches_no_file() -> None:
    """The engine keeps the record format only; files are read and written by ``store``."""
    found = [
        f"{path.relative_to(ROOT)} {call}"
        for path in sorted((ROOT / "coloretto" / "engine").rglob("*.py"))
        for call in file_io_in(path)
    ]
    assert not found, "\n".join(found)


def test_the_file_io_check_sees_file_io(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text(
        "import os\nfrom pathlib import Path\n"
        "open('a')\nos.replace('a', 'b')\nPath('a').read_text()\nPath('a').replace('b')\n"
        "'text'.replace('t', 'x')\n",
        encoding="utf-8",
    )
    assert [call.split(":")[0] for call in file_io_in(module)] == [
        "line 3",
        "line 4",
        "line 5",
        "line 6",
    ]


SAVING = frozenset({"coloretto.play.saving", "coloretto.play.keeper", "coloretto.play.statistics"})
"""The play layer's modules that keep games on disk or count them."""


@pytest.mark.parametrize("module", ["coach.py", "review.py"])
def test_the_coach_reaches_into_no_saving(module: str) -> None:
    """The coach analyses and grades; where a review is kept is given to it."""
    wrong = sorted(
        name
        for name in imports_of(ROOT / "coloretto" / "play" / module)
        if layer_of(name) == "store" or name in SAVING
    )
    assert not wrong, f"play/{module} imports {', '.join(wrong)}"
