"""Entry point of the ``coloretto`` command."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from coloretto import __version__
from coloretto.cli import play_command
from coloretto.cli.parser import Commands, Parser, on_terminal
from coloretto.store.incidents import incident_log
from coloretto.store.paths import DataDir
from coloretto.store.text import printable


def installed_version() -> str:
    """The version of the installed package, from its metadata (``pyproject.toml``'s
    ``version`` as installed); the source's ``__version__`` when it runs uninstalled."""
    # Imported here: reading the metadata takes tens of milliseconds a game's start spares.
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("coloretto")
    except PackageNotFoundError:
        return __version__


class _Version(argparse.Action):
    """``--version``: the installed version, read only when asked for."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        print(f"coloretto {installed_version()}")
        parser.exit()


def build_parser(argv: Sequence[str] | None = None) -> Parser:
    """The top-level parser with every sub-command; to run ``argv``, only ``play``'s when
    it plays (``coloretto play``, or plain ``coloretto`` in a terminal), so that the game
    starts without importing the other commands."""
    parser = Parser(
        prog="coloretto",
        description="Coloretto, the card game, in your terminal.",
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    commands: Commands = parser.add_subparsers(
        title="commands", metavar="COMMAND", parser_class=Parser
    )
    play_command.add_parser(commands, parser)  # first: what most people come for
    if argv is not None and (argv[:1] == ["play"] or (not argv and on_terminal())):
        return parser
    from coloretto.cli import (  # noqa: PLC0415 (imported when needed: see above)
        account_command,
        arena_command,
        bots_command,
        ladder_command,
        lobby_command,
        online_command,
        practice_command,
        replay_command,
        review_command,
        rooms_command,
        save_command,
        saves_command,
        score_command,
        stats_command,
        tutorial_command,
        web_command,
    )

    tutorial_command.add_parser(commands)
    replay_command.add_parser(commands)
    review_command.add_parser(commands)
    practice_command.add_parser(commands)
    save_command.add_parser(commands)
    saves_command.add_parser(commands)
    stats_command.add_parser(commands)
    score_command.add_parser(commands)
    arena_command.add_parser(commands)
    bots_command.add_parser(commands)
    online_command.add_parsers(commands)
    lobby_command.add_parser(commands)
    ladder_command.add_parser(commands)
    account_command.add_parser(commands)
    rooms_command.add_parser(commands)
    web_command.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # named by the sub-command they were given to
        getattr(args, "parser", parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    run = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 0
    try:
        return int(run(args, args.parser))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. ``coloretto stats --json | head``: the reader has gone
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as error:  # the last line of defence: a message, never a traceback
        return _unexpected(error)


def _unexpected(error: Exception) -> int:
    """Log an unexpected error with its details; say so in one line."""
    data = DataDir.default()
    where = ""
    try:
        data.root.mkdir(parents=True, exist_ok=True)
        incident_log(data.log).error("unexpected error", exc_info=error)
        where = f" The details are in {data.log}."
    except OSError:
        pass
    print(
        printable(f"coloretto: unexpected error ({type(error).__name__}: {error}).{where}"),
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
