"""Entry point of the ``coloretto`` command."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from coloretto import __version__
from coloretto.cli import arena_command, bots_command, play_command, score_command
from coloretto.cli.parser import Parser


def build_parser() -> Parser:
    """The top-level parser with every sub-command."""
    parser = Parser(
        prog="coloretto",
        description="Coloretto, the card game, in your terminal.",
    )
    parser.add_argument("--version", action="version", version=f"coloretto {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=Parser)
    score_command.add_parser(commands)
    arena_command.add_parser(commands)
    bots_command.add_parser(commands)
    play_command.add_parser(commands, parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 0
    try:
        return int(run(args, args.parser))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
