"""``coloretto account``: an account on a game server, its key kept in the data directory
(``create``), carried to another machine (``export``, ``import``) and listed (``list``).
No password crosses the wire (see ``coloretto.online.wire.accounts``)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from coloretto.cli.parser import Commands, fail
from coloretto.cli.server_options import add_server_arguments
from coloretto.online.wire.accounts import (
    MAX_EXPORT,
    Account,
    account_path,
    export_text,
    forget_account,
    import_text,
    list_accounts,
    load_account,
    new_account,
    normalise_server,
    save_account,
)
from coloretto.store.paths import DataDir
from coloretto.store.text import printable

EPILOG = """\
An account keeps your name on one server: nobody else can take it there (nor one that
looks the same), and the server knows you when you host or join. Its secret key stays in
your data directory; no password is ever sent. To use it on another machine, run
`coloretto account export` here and give its line to `coloretto account import` there:
whoever has that line has the account.

examples:
  coloretto account create Ana --server games.example.org:7787
  coloretto account export --server games.example.org:7787 > ana.txt
  coloretto account import < ana.txt                 on the other machine
  coloretto account list
"""


def add_parser(commands: Commands) -> None:
    """Register ``account`` and its sub-commands."""
    account = commands.add_parser(
        "account",
        help="your account on a game server: create, export, import, list",
        description="Your account on a game server, its secret key kept on this machine.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    account.set_defaults(run=lambda args, parser: parser.print_help() or 0, parser=account)
    actions: Commands = account.add_subparsers(
        title="actions", metavar="ACTION", parser_class=type(account)
    )

    create = actions.add_parser(
        "create", help="make an account on a server", description="Make an account on a server."
    )
    create.add_argument("name", metavar="NAME", help="your name there (1-16 characters)")
    add_server_arguments(create)
    create.set_defaults(run=run_create, parser=create)

    export = actions.add_parser(
        "export",
        help="print the account as one line, for another machine",
        description="Print your account on a server as one line, for `coloretto account "
        "import` on another machine. The line holds the secret key: keep it to yourself.",
    )
    add_server_arguments(export, cafile=False)
    export.set_defaults(run=run_export, parser=export)

    imported = actions.add_parser(
        "import",
        help="keep an account exported on another machine",
        description="Keep an account exported on another machine (the line from `coloretto "
        "account export`, given here or on standard input).",
    )
    imported.add_argument("line", metavar="LINE", nargs="?", help="the line (default: stdin)")
    imported.set_defaults(run=run_import, parser=imported)

    listed = actions.add_parser(
        "list", help="the accounts kept here", description="List the accounts kept here."
    )
    listed.set_defaults(run=run_list, parser=listed)


def _server(args: argparse.Namespace, parser: argparse.ArgumentParser) -> str:
    """``--server`` as accounts are kept for it (a usage error if it is no address)."""
    try:
        return normalise_server(args.server)
    except ValueError as error:
        parser.error(f"--server: {error}")


def run_create(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Make the account: its key kept first, then its name and public key registered."""
    from coloretto.cli.online_command import trusting  # noqa: PLC0415
    from coloretto.online.client.remote_table import RegisterError, register_account  # noqa: PLC0415

    server, data = _server(args, parser), DataDir.default()
    try:
        account = new_account(server, args.name)
        kept = load_account(data, server)
    except ValueError as error:
        return fail(parser, str(error))
    tls = trusting(args.cafile, parser) if server.startswith("wss://") else None
    if kept is not None:
        return fail(parser, f"you have the account {kept.name} on {server} already")
    try:
        save_account(data, account)  # before the server has it: never a name without a key
        try:
            name = asyncio.run(register_account(account, tls=tls))
        except RegisterError as error:
            forget_account(data, server)
            return fail(parser, str(error))
        if name != account.name:  # the server's spelling
            save_account(data, Account(server, name, account.secret))
    except OSError as error:
        return fail(parser, f"cannot keep the account in {data.root} ({error.strerror or error})")
    print(printable(f"Account {name} made on {server}; its key is kept here."))
    print(printable(f"On another machine: coloretto account export --server {server} here,"))
    print("then coloretto account import there.")
    return 0


def run_export(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Print the account's line."""
    server = _server(args, parser)
    try:
        account = load_account(DataDir.default(), server)
    except ValueError as error:
        return fail(parser, str(error))
    if account is None:
        return fail(parser, f"no account on {server} is kept here")
    print("This line holds your account's secret key: keep it to yourself.", file=sys.stderr)
    print(export_text(account))
    return 0


def run_import(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Keep the account of a line (the argument, or at most a line's worth of stdin)."""
    text = args.line if args.line is not None else sys.stdin.read(MAX_EXPORT + 1)
    try:
        account = import_text(text)
    except ValueError as error:
        return fail(parser, str(error))
    data = DataDir.default()
    try:
        kept = load_account(data, account.server)
    except ValueError as error:
        return fail(parser, str(error))
    if kept == account:
        print(printable(f"The account {account.name} on {account.server} is kept here already."))
        return 0
    if kept is not None:
        where = account_path(data, account.server)
        return fail(
            parser,
            f"this machine has another account on {account.server}, {kept.name}: importing "
            f"would lose it (it is kept in {where})",
        )
    try:
        save_account(data, account)
    except OSError as error:
        return fail(parser, f"cannot keep the account in {data.root} ({error.strerror or error})")
    print(printable(f"Account {account.name} on {account.server} kept here."))
    return 0


def run_list(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """List the accounts kept here (and the files that are none)."""
    accounts, problems = list_accounts(DataDir.default())
    for problem in problems:
        print(printable(f"{parser.prog}: {problem}"), file=sys.stderr)
    if not accounts:
        print("No accounts kept here: coloretto account create NAME --server HOST:PORT")
    for account in accounts:
        print(printable(f"{account.name:<16}  {account.server}"))
    return 0
