"""``coloretto saves``: the games in progress, and discarding those given up.

Every game quit with ``q`` is kept to be resumed (``coloretto play --resume ID``); a game
given up can be discarded here, or on the setup screen (ctrl+x).
"""

from __future__ import annotations

import argparse

from coloretto.cli.parser import Commands, fail
from coloretto.play.keeper import Keeper
from coloretto.play.saving import SavedGame
from coloretto.store.paths import DataDir
from coloretto.store.saves import games_in_progress, save_path
from coloretto.store.text import printable

LIST = "coloretto saves list"

EPILOG = """\
examples:
  coloretto saves                      the games in progress, the one played last first
  coloretto saves delete 20261121-070503-a1b2c3
  coloretto saves delete --all         every game in progress
"""


def add_parser(commands: Commands) -> None:
    """Register ``saves`` (``list``, ``delete``) with the top-level parser."""
    parser = commands.add_parser(
        "saves",
        help="list the games in progress, or discard those you gave up",
        description="The games in progress (each quit keeps one, to resume with coloretto "
        "play --resume ID), and discarding those you gave up.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(run=run_list, parser=parser)
    actions = parser.add_subparsers(title="actions", metavar="ACTION", parser_class=type(parser))
    listing = actions.add_parser("list", help="the games in progress (the default)")
    listing.set_defaults(run=run_list, parser=listing)
    delete = actions.add_parser(
        "delete",
        help="discard games in progress, for good",
        description="Discard games in progress for good (a game being played is left alone).",
    )
    delete.add_argument("ids", nargs="*", metavar="ID", help="a game's id, as listed")
    delete.add_argument("--all", action="store_true", help="every game in progress")
    delete.set_defaults(run=run_delete, parser=delete)


def run_list(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Each game in progress on a line: its id, who plays, where it stands, when saved."""
    data = DataDir.default()
    if (problem := data.problem()) is not None:
        parser.error(problem)
    ids = games_in_progress(data)
    folder = printable(str(data.saves))
    if not ids:
        print(f"No game in progress (in {folder}).")
        return 0
    print(f"Games in progress (in {folder}), the one played last first:")
    for session_id in ids:
        game = SavedGame.read(save_path(data, session_id))
        print(f"  {game.line() if game else f'{session_id}: cannot be read'}")
    print("coloretto play --resume ID continues one; coloretto saves delete ID discards it.")
    return 0


def run_delete(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Discard the games named (or ``--all``); each said in a line, each problem too."""
    if args.all == bool(args.ids):
        parser.error(f"name the games to discard (their ids: {LIST}), or --all")
    keeper = Keeper()
    if (problem := keeper.data.problem()) is not None:
        parser.error(problem)
    ids = games_in_progress(keeper.data) if args.all else list(dict.fromkeys(args.ids))
    if not ids:
        print(f"No game in progress (in {printable(str(keeper.data.saves))}).")
        return 0
    known = set(games_in_progress(keeper.data))
    failed = False
    for session_id in ids:
        if session_id not in known:
            failed = True
            shown = printable(session_id, 40)
            fail(parser, f"there is no game in progress called {shown}: {LIST} shows them")
            continue
        game = SavedGame.read(save_path(keeper.data, session_id))
        if (trouble := keeper.discard(session_id)) is not None:
            failed = True
            fail(parser, trouble)
        else:
            print(f"Discarded {game.line() if game else session_id}.")
    return 2 if failed else 0
