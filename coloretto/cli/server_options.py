"""The options that name a game server, shared by the commands that talk to one."""

from __future__ import annotations

import argparse


def add_server_arguments(parser: argparse.ArgumentParser, *, cafile: bool = True) -> None:
    """Add ``--server`` (and, unless ``cafile`` is false, ``--cafile``) to ``parser``."""
    from coloretto.online.client.remote_table import DEFAULT_SERVER  # noqa: PLC0415 (the client's own default)

    parser.add_argument(
        "--server",
        default=DEFAULT_SERVER,
        metavar="HOST:PORT",
        help=f"the game server (default {DEFAULT_SERVER}; wss://HOST:PORT for TLS)",
    )
    if cafile:
        parser.add_argument("--cafile", help="trust this certificate authority (PEM) for wss://")
