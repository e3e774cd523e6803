"""``coloretto tutorial``: learn the game in a few minutes, on the real table."""

from __future__ import annotations

import argparse

from coloretto.cli.parser import Commands, fail, need_terminal
from coloretto.store.paths import HOME_VARIABLE, DataDir

DESCRIPTION = """\
Learn Coloretto in about three minutes: a scripted game against Ana and Ben on the real
table, with the game's own keys (d draws, 1-3 put the card on a row or take one). Each
step says what to press and waits for it; Esc or q leaves at any time. At the end, n
starts a real game against easy bots.

The first screen of plain `coloretto` offers the tutorial too, until a game is played.
"""


def add_parser(commands: Commands) -> None:
    """Register ``tutorial``."""
    parser = commands.add_parser(
        "tutorial",
        help="learn the game in 3 minutes: a scripted game on the real table",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Play the tutorial (then, if asked for, a real game)."""
    need_terminal(parser)
    data = DataDir.default()
    try:
        data.check()  # a real game may follow: it keeps its save here
    except OSError as error:
        return fail(
            parser,
            f"cannot keep the game in {data.root} ({error.strerror or error}); "
            f"set {HOME_VARIABLE} to a directory you can write to",
        )
    from coloretto.tui.tutorial_app import TutorialApp  # noqa: PLC0415 (Textual only to play)

    app = TutorialApp()
    app.run()
    return app.return_code or 0
