"""``coloretto save FILE``: a copy of the game in progress, to keep or to play on elsewhere.

The game is saved by itself after every action (``coloretto play --resume`` continues it);
this writes a copy to a file of your choice, which ``coloretto play --load FILE`` plays on
from and ``coloretto replay FILE`` shows.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from coloretto.cli.parser import Commands
from coloretto.engine import RecordError
from coloretto.play.saving import read_session, session_record
from coloretto.store.paths import DataDir
from coloretto.store.records import write_record
from coloretto.store.saves import latest_save


def add_parser(commands: Commands) -> None:
    """Register ``save`` with the top-level parser."""
    parser = commands.add_parser(
        "save",
        help="copy the game in progress to a file",
        description="Copy the game in progress (saved by itself after every action) to FILE, "
        "to keep it or to play on later with coloretto play --load FILE.",
    )
    parser.add_argument("file", metavar="FILE", help="the file to write, e.g. mygame.json")
    parser.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Write the copy; every problem is a one-line error."""
    data = DataDir.default()
    if (problem := data.problem()) is not None:
        parser.error(problem)
    source = latest_save(data)
    if source is None:
        parser.error(f"there is no game in progress to save (in {data.saves})")
    target = Path(args.file)
    if target.is_dir():
        parser.error(f"{target} is a folder; give a file name, e.g. {target / 'game.json'}")
    if target.exists() and not args.force:
        parser.error(f"{target} exists already (--force overwrites it)")
    try:
        session = read_session(source)
    except RecordError as error:
        parser.error(f"cannot copy the game in progress: {error}")
    record = session_record(session)
    try:
        write_record(target, record.state, record.seats, record.meta)
    except OSError as error:
        parser.error(f"cannot write {target}: {error.strerror or error}")
    print(f"Saved to {target}: coloretto play --load {target} plays on from there.")
    return 0
