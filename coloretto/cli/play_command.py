"""``coloretto play``: a game (or match) in the terminal, against bots or friends.

Plain ``coloretto`` (no sub-command) opens the setup screen with the same choices.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from coloretto.bots.registry import DEFAULT_LEVEL, LEVELS, BotError, make_bot
from coloretto.cli.parser import (
    Commands,
    bounded_int,
    bounded_seconds,
    fail,
    need_terminal,
    on_terminal,
)
from coloretto.cli.rules_options import add_games_argument, add_rules_arguments, rules_from_args
from coloretto.engine import RecordError, Variant
from coloretto.play.config import DEFAULT_DELAY, MAX_DELAY, GameConfig, name_players
from coloretto.play.keeper import Keeper
from coloretto.play.saving import load_session
from coloretto.play.seed_text import parse_seed
from coloretto.play.session import Session
from coloretto.store.paths import HOME_VARIABLE, DataDir
from coloretto.store.saves import games_in_progress, new_id, save_path
from coloretto.store.text import printable

LATEST = "(latest)"
"""What a bare ``--resume`` stands for: the game played last (no session id looks so)."""

DESCRIPTION = """\
Play Coloretto in the terminal. By default you play against bots at the default level
(%(level)s); --humans or --seat put several people at this keyboard (hotseat).

Keys (as in the Coloretta freeware):
%(keys)s

Cards show a letter as well as a colour: B blue, N brown, A gray, G green, O orange,
P pink, Y yellow, * joker, $ golden joker, +2.

The game is saved after every action: coloretto play --resume continues it.
"""

EPILOG = """\
examples:
  coloretto play --players 4                 you and three bots
  coloretto play --players 3 --bot hard      stronger bots
  coloretto play --humans 2 --players 2      two people, one keyboard
  coloretto play --seat Ana --seat Ben --seat bot:hard
  coloretto play --scoring gray --games 3 --seed 7
  coloretto play --variant ghost             2 players, each with a ghost seat
  coloretto play --resume                    continue the game in progress
  coloretto play --load mygame.json          play on from a saved file
"""

SEAT_BOT = "bot"

MOST_PLAYERS = 5
"""The most players a game may have (``--players``, ``--seat``)."""


def add_parser(
    commands: Commands,
    top: argparse.ArgumentParser | None = None,
) -> None:
    """Register ``play``; with ``top``, plain ``coloretto`` opens the setup screen."""
    from coloretto.tui.keys import GAME_KEYS, keys_text  # noqa: PLC0415 (no Textual import)

    parser = commands.add_parser(
        "play",
        help="play a game in the terminal, against bots or friends at one keyboard",
        description=DESCRIPTION % {"level": DEFAULT_LEVEL, "keys": keys_text(GAME_KEYS)},
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rules_arguments(parser)
    parser.set_defaults(players=None)
    people = parser.add_argument_group("players")
    people.add_argument(
        "--humans",
        type=bounded_int(0, 5, "--humans"),
        help="people playing at this keyboard (default 1; 0 watches bots); the rest are bots",
    )
    people.add_argument(
        "--seat",
        action="append",
        metavar="NAME|bot[:LEVEL]",
        help="one seat, in order: a person's name, or 'bot' or 'bot:LEVEL'; give it once per "
        "player (sets --players)",
    )
    people.add_argument(
        "--bot",
        default=DEFAULT_LEVEL,
        metavar="LEVEL",
        help=f"the bots' level: {', '.join(LEVELS)} (default {DEFAULT_LEVEL}); or a bot "
        "spec, e.g. greedy or search:iterations=200",
    )
    game = parser.add_argument_group("game")
    add_games_argument(game)
    game.add_argument(
        "--seed",
        type=seed_argument,
        metavar="SEED",
        help="seed of the deal and the bots, for a game that can be played again: a number, "
        "or the code the score screen shows (e.g. 7, or 4F2K-...); without it, 128 random bits",
    )
    game.add_argument(
        "--delay",
        type=bounded_seconds(MAX_DELAY, "--delay"),
        default=DEFAULT_DELAY,
        metavar="SECONDS",
        help=f"pause between two bot actions (default {DEFAULT_DELAY:g}; 0 plays at once)",
    )
    game.add_argument(
        "--setup", action="store_true", help="open the setup screen with these choices first"
    )
    saved = parser.add_argument_group(
        "saved games",
        "The game is saved after every action; finished games are kept for coloretto replay.",
    )
    resume = saved.add_mutually_exclusive_group()
    resume.add_argument(
        "--resume",
        nargs="?",
        const=LATEST,
        metavar="ID",
        help="continue the game in progress (the one played last, or the game ID named when "
        "you quit), exactly where it stood",
    )
    resume.add_argument(
        "--load",
        metavar="FILE",
        help="play on from a saved game or game record (see coloretto save); the file is only read",
    )
    parser.set_defaults(run=run, parser=parser)
    if top is not None:
        top.set_defaults(run=run_setup, parser=top)


def seed_argument(text: str) -> int:
    """``--seed``'s value: a number or a seed's code (``parse_seed``).

    >>> seed_argument("7"), seed_argument("0000-0000-0000-0000-0000-0000-07Y")
    (7, 1)
    """
    try:
        return parse_seed(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"--seed {error}") from None


def _check_bot(spec: str, parser: argparse.ArgumentParser, option: str) -> str:
    if spec in LEVELS:  # built in: no need to make one (the game starts sooner)
        return spec
    try:
        make_bot(spec, seed=0)
    except BotError as error:
        parser.error(f"{option}: {error}")
    return spec


def config_from_args(args: argparse.Namespace, parser: argparse.ArgumentParser) -> GameConfig:
    """The game the options describe; a bad combination is a one-line usage error."""
    seats: list[str] | None = args.seat
    if seats is not None and args.humans is not None:
        parser.error("give either --humans or --seat, not both")
    if seats is not None and args.players is None and not 2 <= len(seats) <= MOST_PLAYERS:
        given = "once" if len(seats) == 1 else f"{len(seats)} times"
        parser.error(
            f"--seat was given {given}, but a game has 2 to {MOST_PLAYERS} players: give "
            "--seat once for each, in seating order (a person's name, or bot or bot:LEVEL), "
            "e.g. --seat Ana --seat bot:hard"
        )
    if args.players is None:
        if seats is not None:
            args.players = len(seats)
        elif args.variant != Variant.STANDARD.value:
            args.players = 2
        else:
            args.players = 4
    elif seats is not None and len(seats) != args.players:
        given = "one --seat was" if len(seats) == 1 else f"{len(seats)} --seat options were"
        parser.error(
            f"--players {args.players} needs one --seat for each player, but {given} given "
            "(or leave out --players: the seats set it)"
        )
    rules = rules_from_args(args, parser)
    try:
        rules = replace(rules, games=args.games)
    except ValueError as error:
        parser.error(str(error))
    bot = _check_bot(args.bot, parser, "--bot")
    try:
        if seats is None:
            humans = 1 if args.humans is None else args.humans
            if humans > rules.players:
                parser.error(f"--humans {humans} is more than the {rules.players} players")
            return GameConfig.build(rules, humans=humans, bot=bot, seed=args.seed, delay=args.delay)
        people: list[str | None] = []
        bots: list[str] = []
        for seat in seats:
            text = seat.strip()
            kind, _, spec = text.partition(":")
            if kind == SEAT_BOT:
                people.append(None)
                bots.append(_check_bot(spec, parser, "--seat") if spec else bot)
            else:
                people.append(printable(text))
        return GameConfig(rules, name_players(people, bots), args.seed, args.delay, level=bot)
    except ValueError as error:
        parser.error(str(error))


def saved_session(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Session:
    """The session ``--resume`` or ``--load FILE`` continues; a one-line error if none."""
    defaults = parser.parse_args([])
    changed = [
        f"--{name.replace('_', '-')}"
        for name, value in vars(args).items()
        if name not in _SAVED_KEEPS and getattr(defaults, name, value) != value
    ]
    option = "--resume" if args.resume else "--load"
    if changed:
        parser.error(f"{option} plays the saved game as it was: leave out {', '.join(changed)}")
    data = DataDir.default()
    if args.resume and (problem := data.problem()) is not None:
        parser.error(problem)
    path = _save_to_resume(data, args.resume, parser) if args.resume else Path(args.load)
    try:
        session = load_session(path, default_bot=args.bot)
    except RecordError as error:
        if args.load:
            parser.error(f"cannot load {error}")
        parser.error(
            f"cannot resume {error}; the file is left as it is: {instead(data, path.stem)}"
        )
    if session.match.is_over:
        parser.error(f"{path}: that game is over; coloretto replay {path} shows it again")
    if args.load:
        session.id = new_id()  # saves go to the data directory, not to FILE
    if args.delay != defaults.delay:
        session.config = replace(session.config, delay=args.delay)
    return session


def _save_to_resume(data: DataDir, wanted: str, parser: argparse.ArgumentParser) -> Path:
    """The save of the game ``--resume`` names (``LATEST``: the one played last)."""
    ids = games_in_progress(data)
    if not ids:
        parser.error(f"there is no game in progress to resume (in {data.saves})")
    if wanted == LATEST:
        return save_path(data, ids[0])
    if wanted not in ids:
        shown = printable(wanted, 40)
        parser.error(f"there is no game in progress called {shown}: {instead(data)}")
    return save_path(data, wanted)


def instead(data: DataDir, besides: str | None = None) -> str:
    """What one may do instead of resuming the game ``besides`` (a session id): start a
    new game, or resume one of the others that can be resumed (named)."""
    others = Keeper(data).in_progress(besides=besides, most=3)
    new = "run `coloretto play` to start a new game"
    if not others.games:
        note = others.unreadable_note()
        return new if not note else f"{new} ({note.strip('()')})"
    games = "; ".join(others.lines())
    return f"{new}, or `coloretto play --resume ID` for one of these: {games}"


_SAVED_KEEPS = {"resume", "load", "delay", "bot", "run", "parser"}
"""Options that make sense with ``--resume`` and ``--load`` (the rest describe a new game)."""


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Play the game the options describe (or the saved one)."""
    if args.resume or args.load:
        session = saved_session(args, parser)
        config = session.config
    else:
        session = None
        config = config_from_args(args, parser)
    need_terminal(parser)
    if (problem := _unusable(DataDir.default())) is not None:
        return fail(parser, problem)
    keeper = Keeper()
    if session is not None and (problem := keeper.claim(session)) is not None:
        return fail(parser, f"cannot resume: {problem}; {instead(keeper.data, session.id)}")
    if session is None and not args.setup:  # the setup screen keeps what it starts
        keeper.remember(config)  # for the setup screen of plain coloretto, next time
    with starting_up():
        from coloretto.tui.app import ColorettoApp  # noqa: PLC0415 (Textual only to play)

        app = ColorettoApp(config, setup=args.setup, session=session, keeper=keeper)
        app.run()
    return app.return_code or 0


def run_setup(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Plain ``coloretto``: the setup screen in a terminal, else the usage text."""
    if not on_terminal():
        parser.print_help()
        return 0
    if (problem := _unusable(DataDir.default())) is not None:
        return fail(parser, problem)
    with starting_up():
        from coloretto.tui.app import ColorettoApp  # noqa: PLC0415 (Textual only to play)

        app = ColorettoApp()
        app.run()
    return app.return_code or 0


@contextlib.contextmanager
def starting_up() -> Iterator[None]:
    """The app's start with the garbage collector off: importing Textual and drawing the
    first screen make some hundred thousand objects that live on, which it would go through
    again and again for nothing. Once the first screen is up the app freezes what there is
    (``gc.freeze``: later collections skip it) and turns the collector on
    (``GuardedApp.on_ready``); at the latest, when the app ends."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _unusable(data: DataDir) -> str | None:
    """Why the game could not keep its saves in ``data`` (``None`` if it can)."""
    try:
        data.check()
    except OSError as error:
        return (
            f"cannot keep the game in {data.root} ({error.strerror or error}); "
            f"set {HOME_VARIABLE} to a directory you can write to"
        )
    return None
