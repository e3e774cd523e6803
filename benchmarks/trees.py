"""Measuring several source trees in one run (``--code TREE``, repeatable), each in a
process of its own, in turn, so that they share the machine's load alike: the one
comparison that the benchmarks of ``benchmarks/`` make of a change, before and after."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

Figures = dict[str, list[float]]
"""A benchmark's figures: each measure's values."""


def load_average() -> str:
    """The machine's load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def measure_trees(
    script: str, codes: list[str], rounds: int, arguments: list[str], *, say: bool = False
) -> list[tuple[Path, Figures]]:
    """Run ``script --json ARGUMENTS`` with each tree of ``codes`` on the path, ``rounds``
    times over; each tree's figures, gathered from its runs (``say``: a line per run)."""
    trees = [Path(code).resolve() for code in codes]
    figures: list[Figures] = [{} for _ in trees]
    for _ in range(rounds):
        for tree, kept in zip(trees, figures, strict=True):
            done = subprocess.run(
                [sys.executable, str(Path(script).resolve()), "--json", *arguments],
                env={**os.environ, "PYTHONPATH": str(tree)},
                cwd=tree,
                capture_output=True,
                text=True,
                check=True,
            )
            for name, values in json.loads(done.stdout).items():
                kept.setdefault(name, []).extend(values)
            if say:
                print(f"  {tree} measured; load average {load_average()}")
    return list(zip(trees, figures, strict=True))
