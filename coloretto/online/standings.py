"""Accounts and ratings in the server's database: the ``AccountBook`` the server checks
openings against, each finished rated game's rating changes (kept once, whichever process
asks, however many ask at once), and the ladder.

A game is rated when every person at its table played under an account (a rated table
seats no guest) and no bot stood in for an absent person during it. The table's bots are
rated at their level's calibrated rating (``coloretto.rating.bot_rating``), which their
games do not change; each account's rating moves by the game (``rate_game``). The change
is one transaction that first records the game in ``rated_games``: a second process
finishing the same game (after taking the room over) records nothing and changes nothing.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass

from coloretto.online.accounts import fold_name
from coloretto.online.database import Database
from coloretto.online.messages import LadderEntry, RatingChange
from coloretto.online.rooms import Room
from coloretto.rating import NEW, Rating, bot_rating, bot_ratings, rate_game

LADDER_SIZE = 50
"""The players a ladder lists."""

LADDER_GAMES = 3
"""The rated games an account has played before the ladder lists it (new accounts made
by the dozen to push real players down stay off it)."""


class StoredAccounts:
    """The accounts of a server's database (an ``AccountBook``)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, name: str, folded: str, key: bytes) -> bool:
        """Keep the account unless its name's skeleton is taken (even at this moment by
        another process: the skeleton is the table's key)."""
        text = base64.b64encode(key).decode()
        changed = await self.db.execute(
            "INSERT INTO accounts (folded, name, key, created) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (folded) DO NOTHING",
            folded, name, text, time.time(),
        )  # fmt: skip
        return changed == 1

    async def key_of(self, folded: str) -> bytes | None:
        """The account's public key, if there is one."""
        rows = await self.db.fetch("SELECT key FROM accounts WHERE folded = ?", folded)
        return base64.b64decode(rows[0][0]) if rows else None


def is_rated(room: Room) -> bool:
    """True when the game just finished at ``room`` changes ratings: a rated table (only
    accounts sit there), with an account in every person's seat, at least one, and no
    action of the game played by a bot for an absent person."""
    table = room.table
    people = [p for p in range(len(room.people)) if room.is_person(p)]
    return (
        table.rated
        and bool(people)
        and all(table.accounts[p] is not None for p in people)
        and not room.covered
        and room.session.game.is_over
    )


@dataclass(frozen=True)
class RatedGame:
    """What rating a finished game needs, taken when it ends (the room goes on)."""

    code: str
    game: int
    """The game's number in the room's match."""
    totals: tuple[int, ...]
    accounts: tuple[str | None, ...]
    """Each seat's account (``None``: a bot's seat)."""
    level: str
    """The bots' level."""


def rated_game(room: Room) -> RatedGame | None:
    """The game just finished at ``room``, if it changes ratings (``is_rated``)."""
    outcome = room.session.game.outcome()
    if outcome is None or not is_rated(room):
        return None
    session = room.session
    accounts = tuple(
        room.table.accounts[p] if room.is_person(p) else None for p in range(len(room.people))
    )
    return RatedGame(
        room.code, session.match.game_number, outcome.totals, accounts, session.config.level
    )


async def rate(db: Database, game: RatedGame) -> list[RatingChange]:
    """Change the accounts' ratings by ``game``, once: their changes, or none if the
    game was rated already (by this process or another)."""
    accounts, level, totals = game.accounts, game.level, list(game.totals)
    async with db.transaction() as tx:
        first = await tx.execute(
            "INSERT INTO rated_games (code, game, rated) VALUES (?, ?, ?)"
            " ON CONFLICT (code, game) DO NOTHING",
            game.code, game.game, time.time(),
        )  # fmt: skip
        if first != 1:
            return []
        before: list[Rating] = []
        for account in accounts:
            if account is None:
                before.append(bot_rating(level))
                continue
            rows = await tx.fetch(
                "SELECT mu, sigma, games FROM ratings WHERE folded = ?", fold_name(account)
            )
            before.append(Rating(*rows[0]) if rows else NEW)
        bots = [p for p, account in enumerate(accounts) if account is None]
        after = rate_game(before, totals, fixed=bots)
        changes = []
        for player, account in enumerate(accounts):
            if account is None:
                continue
            new = after[player]
            await tx.execute(
                "INSERT INTO ratings (folded, mu, sigma, games) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (folded) DO UPDATE SET mu = ?, sigma = ?, games = ?",
                fold_name(account), new.mu, new.sigma, new.games, new.mu, new.sigma, new.games,
            )  # fmt: skip
            changes.append(RatingChange(player, account, before[player].shown, new.shown))
    return changes


async def ladder(db: Database) -> list[LadderEntry]:
    """The server's best rated players (by the rating shown) with ``LADDER_GAMES`` rated
    games or more, and its bot levels, on one scale, best first."""
    rows = await db.fetch(
        "SELECT a.name, r.mu, r.sigma, r.games FROM ratings r JOIN accounts a"
        " ON a.folded = r.folded WHERE r.games >= ? ORDER BY r.mu - 3 * r.sigma DESC LIMIT ?",
        LADDER_GAMES, LADDER_SIZE,
    )  # fmt: skip
    entries = []
    for name, mu, sigma, games in rows:
        rating = Rating(mu, sigma, games)
        entries.append(LadderEntry(str(name), rating.shown, rating.spread, rating.games))
    for level, rating in bot_ratings().items():
        entries.append(
            LadderEntry(f"{level} bot", rating.shown, rating.spread, rating.games, bot=True)
        )
    return sorted(entries, key=lambda entry: -entry.rating)
