"""Accounts and ratings in the server's database: the ``AccountBook`` the server checks
openings against, each finished rated game's rating changes (kept once, whichever process
asks, however many ask at once), and the ladder.

A game is rated when every person at its table played under an account (a rated table
seats no guest). A person who left it (gone past the wait for someone away, or out of
time too often: ``Room.standing.left``) is ranked last, below everyone who stayed,
whatever their seat's score, and the game stays rated for the others; a bot that stood in
for a person is never rated itself. The table's bots are rated at their level's
calibrated rating (``coloretto.rating.bot_rating``), which their games do not change; each
account's rating moves by the game (``rate_game``). The change is one transaction that
first records the game in ``rated_games``: a second process finishing the same game
(after taking the room over, or a process that ended before rating it) records nothing
and changes nothing.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass

from coloretto.online.server.account_service import Registered
from coloretto.online.server.database import Database, Transaction
from coloretto.online.server.rooms import Room
from coloretto.online.wire.accounts import fold_name
from coloretto.online.wire.messages import LadderEntry, RatingChange
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

    async def find(self, folded: str) -> Registered | None:
        """The account's registered name and public key, if there is one."""
        rows = await self.db.fetch("SELECT name, key FROM accounts WHERE folded = ?", folded)
        return Registered(str(rows[0][0]), base64.b64decode(rows[0][1])) if rows else None


def is_rated(room: Room) -> bool:
    """True when the game just finished at ``room`` changes ratings: a rated table (only
    accounts sit there), with an account in every person's seat, at least one."""
    table = room.table
    people = [p for p in range(len(room.people)) if room.is_person(p)]
    return (
        table.rated
        and bool(people)
        and all(table.accounts[p] is not None for p in people)
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
    left: frozenset[int] = frozenset()
    """The players who left the game: ranked last."""

    @property
    def ranking_scores(self) -> tuple[int, ...]:
        """The scores the rating ranks by: each player's total, but below everyone who
        stayed for those who left (tied with each other).

        >>> RatedGame("ABCDEF", 1, (30, 12, 25), ("a", "b", "c"), "easy",
        ...           frozenset({0})).ranking_scores
        (11, 12, 25)
        """
        if not self.left:
            return self.totals
        last = min(self.totals) - 1
        return tuple(last if p in self.left else t for p, t in enumerate(self.totals))


def rated_game(room: Room) -> RatedGame | None:
    """The game just finished at ``room``, if it changes ratings (``is_rated``)."""
    outcome = room.session.game.outcome()
    if outcome is None or not is_rated(room):
        return None
    session = room.session
    accounts = tuple(
        room.table.accounts[p] if room.is_person(p) else None for p in range(len(room.people))
    )
    left = frozenset(p for p in room.standing.left if room.is_person(p))
    return RatedGame(
        room.code, session.match.game_number, outcome.totals, accounts, session.config.level, left
    )


async def rate(db: Database, game: RatedGame) -> list[RatingChange]:
    """Change the accounts' ratings by ``game``, once: their changes, or none if the
    game was rated already (by this process or another)."""
    async with db.transaction() as tx:
        return await rate_within(tx, game)


async def rate_within(tx: Transaction, game: RatedGame) -> list[RatingChange]:
    """``rate`` inside the transaction ``tx`` (the one that keeps the game's last move)."""
    accounts, level, totals = game.accounts, game.level, list(game.ranking_scores)
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
