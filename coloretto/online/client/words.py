"""What an online table says to its player: moves a bot played for someone away, coming
back, clocks running out, people leaving and coming back, how to take a seat back."""

from __future__ import annotations

import os
import shlex
import ssl

from websockets.exceptions import InvalidStatus

from coloretto.engine import GameState, Move
from coloretto.online.client.view import RemoteView
from coloretto.online.wire.clock import MAX_TIMEOUTS
from coloretto.online.wire.protocol import ErrorCode
from coloretto.play.config import possessive
from coloretto.play.words import Line, describe_move
from coloretto.store.text import printable

ENDS = {
    ErrorCode.REMOVED: "The host removed you from the table",
    ErrorCode.REPLACED: (
        "Your seat was taken up on another connection (the same seat opened elsewhere): "
        "this one is closed"
    ),
    ErrorCode.CROWDED: "The room has too many watchers: try again later",
}
"""The errors that end a table for good (it does not reconnect), in this client's words."""


def unreachable(server: str, error: BaseException) -> str:
    """Why the server at ``server`` could not be reached at all, for the person joining.

    >>> print(unreachable("ws://h:9", ConnectionRefusedError(111, "refused")))
    cannot reach the server at ws://h:9 (Connection refused): is coloretto server running there?
    """
    if isinstance(error, ssl.SSLCertVerificationError):
        return (
            f"the certificate of the server at {server} is not trusted here "
            f"({error.verify_message}): --cafile names the authority that signed it"
        )
    if isinstance(error, InvalidStatus):
        answer = printable(error.response.body.decode("utf-8", "replace").strip(), 100)
        return (
            f"the server at {server} refused the connection "
            f"(HTTP {error.response.status_code}{': ' + answer if answer else ''})"
        )
    if isinstance(error, ssl.SSLError):
        return f"cannot speak TLS with the server at {server} ({error.reason or error})"
    errno = error.errno if isinstance(error, OSError) else None
    why = os.strerror(errno) if errno else error
    return f"cannot reach the server at {server} ({why}): is coloretto server running there?"


def move_lines(
    view: RemoteView, ply: int, move: Move, before: GameState, after: GameState
) -> list[Line]:
    """The move in words (``describe_move``); one a bot played for a person away says
    so: "Jo (a bot, Jo away) drew green."."""
    lines = describe_move(move, before, after, view.seat_names)
    if ply in view.covered:
        names = list(view.seat_names)
        person = view.config.controller(move.player).name
        names[move.player] = f"{names[move.player]} (a bot, {person} away)"
        lines[0] = describe_move(move, before, after, names)[0]
    return lines


def back_words(view: RemoteView, player: int | None, plies: int, since: int = 0) -> str:
    """Said to ``player`` (``None``: a watcher) on coming back to ``view``'s game after
    ``plies`` actions (the last ones from ``since`` played while away): how many, and how
    many of this player's a bot played."""
    if player is None:
        return f"Watching from move {plies + 1}."
    rules = view.game.rules
    moves = view.game.history()
    mine = sum(
        1 for ply in view.covered
        if since <= ply < plies and rules.controller(moves[ply].player) == player
    )  # fmt: skip
    if since:
        words = f"You are back: {plies - since} moves were played while you were away"
    else:
        words = f"You are back after {plies} moves"
    if mine and since:
        words += f" (a bot played {'one' if mine == 1 else mine} of yours)"
    elif mine:
        words += f"; a bot played {'one' if mine == 1 else mine} of them for you while away"
    return words + "."


def clock_news(name: str | None, timeouts: int, *, left: bool) -> str:
    """What a move says of its player's clock (``name``; ``None``: the player here): they
    left the game (``left``), or their time ran out for the ``timeouts``-th time."""
    you = name is None
    who = "You" if name is None else name
    if left:
        return (
            f"{who} {'have' if you else 'has'} left the game: a bot plays for "
            f"{'you' if you else 'them'} to its end."
        )
    return (
        f"{'Your' if name is None else possessive(name)} time ran out: a bot played that move "
        f"({timeouts} of {MAX_TIMEOUTS}; at {MAX_TIMEOUTS} a bot plays the rest of the game)."
    )


def presence_news(
    view: RemoteView,
    here: int | None,
    before: frozenset[int],
    away_after: float,
    dealing_in: float | None,
) -> list[str]:
    """What ``here`` (``None``: a watcher) is told when the players away change from
    ``before`` to ``view.away``; ``dealing_in``: the server has just said it deals the
    match's next game itself in that many seconds."""
    names = view.config.players
    now = view.away
    news = []
    if dealing_in is not None:
        match = view.match
        host = names[0].name
        coming = f"game {match.game_number + 1} of {match.rules.games} starts in {dealing_in:.0f} s"
        if 0 not in now:  # a table with a clock: the host may deal it sooner
            who = "you deal" if here == 0 else f"{host} deals"
            news.append(f"{coming.capitalize()}, unless {who} it sooner.")
        elif here != 0:
            news.append(f"{host} has left: {coming} (a bot plays for {host} until they are back).")
    for player in sorted(now - before):
        if player == 0 and dealing_in is not None:
            continue  # said above
        if player != here:
            name = names[player].name
            news.append(
                f"{name} is away: a bot plays for {name} after {away_after:g} s until they "
                "are back."
            )
    news += [f"{names[p].name} is back." for p in sorted(before - now) if p != here]
    return news


def without_you(away_after: float, here: int | None, between: RemoteView | None) -> str:
    """What goes on at the server once player ``here`` has left (a sentence, no full stop);
    ``between``: the view of the match between two games (``None``: in a game).

    >>> print(without_you(30, 1, None))
    The game goes on without you (a bot plays for you after 30 s)
    """
    wait = f"{away_after:g} s"
    if between is None:
        return f"The game goes on without you (a bot plays for you after {wait})"
    match = between.match
    coming = f"game {match.game_number + 1} of {match.rules.games}"
    if here == 0:
        return (
            f"If you are not back within {wait}, the server starts {coming} for the "
            "others at the table, and a bot plays for you until you are back"
        )
    host = between.config.players[0].name
    return (
        f"The match goes on when {host} starts {coming}; a bot plays for you when it "
        f"is your turn and you have been away {wait}"
    )


def comeback_command(server: str, room: str, name: str, cafile: str | None) -> str:
    """The command that takes ``name``'s seat in ``room`` back, from this machine
    (``server``: as ``--server`` takes it).

    >>> print(comeback_command("127.0.0.1:7787", "K7PQ2M", "Ana's", "/home/ana/ca.pem"))
    coloretto join K7PQ2M --server 127.0.0.1:7787 --name 'Ana'"'"'s' --cafile /home/ana/ca.pem
    """
    words = ["coloretto", "join", room, "--server", server, "--name", name]
    if cafile is not None:
        words += ["--cafile", cafile]
    return shlex.join(words)
