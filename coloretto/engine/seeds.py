"""Every seed of the game, and every seed or random stream derived from one, in one place.

A match is dealt from one seed (``random_seed``, or one a person gives: ``--seed 7``);
everything else random is derived from it, or from the coach's analysis seed:

- the deal of game *n* of the match (``game_seed``) and the stream that deals it
  (``deal_random``: a ``KeyedStream`` keyed by ``deal_key`` for a secret seed);
- the seed of each bot's move (``move_seed``, at the ply ``match_ply`` counts);
- the deals of the arena (``arena_deal_seed``);
- the analysis of a decision by the coach (``decision_seed``) and the playouts of its
  foresight (``foresight_seed``);
- the seed of a rematch (``rematch_seed``).

The scheme for a new derivation is ``labelled``: SHA-256 over the text of its parts joined
by "/", one part a label that says what the seed is for, so that no two derivations meet
and a seed's outputs tell nothing of it. The bots' seeds of a big seed and the arena's
deals are made this way. The other derivations keep the formulas they had when saved
games, reviews and records came to depend on them (a saved match is checked against its
deal, a resumed game's bots must choose as they would have, a stored hint or review must
value a decision as it did); each is pinned by ``tests/test_seeds.py``:

- ``game_seed``: the text "SEED/n", hashed by the generator that deals it;
- ``deal_key``: SHA-256 of "coloretto-deal:" and the seed's text;
- ``move_seed`` of a small seed (below ``OLD_SEEDS``) and ``decision_seed``: sums of the
  parts times fixed primes, modulo 2**32;
- ``foresight_seed``: the text "foresight:PLY:DEAL", hashed by ``random.Random``;
- ``rematch_seed``: the next seed.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coloretto.engine.state import GameState

Seed = int | str
"""A match's seed (a number), or the seed of a later game of a match (``game_seed``)."""

SEED_BITS = 128
"""The size of a seed drawn at random: too many seeds to search for the one that dealt a
deck from the cards seen (``random_seed``)."""

SECRET_SEED = 2**64
"""Seeds from this one up (every seed drawn by ``random_seed``, nearly always) deal from a
``KeyedStream``; smaller ones (``--seed 7``) from ``random.Random``, as they always have."""

OLD_SEEDS = 2**32
"""Every match seed drawn before seeds took 128 bits was below this: such a match keeps the
bots' seeds it always had (``move_seed``), so an old save plays on as it would have."""

GAME_PLIES = 1000
"""More actions than any game has: game ``n`` of a match counts its plies from ``n`` times
this (``match_ply``)."""

AGAIN_STEP = 7_919
"""``decision_seed``: how far apart the seeds of a decision's further analyses are."""


def random_seed() -> int:
    """A seed of ``SEED_BITS`` bits of the operating system's randomness (``secrets``)."""
    return secrets.randbits(SEED_BITS)


def labelled(*parts: object, bits: int) -> int:
    """The derivation scheme (see the module): the first ``bits`` bits (a multiple of 8,
    at most 256) of the SHA-256 digest of the parts' text joined by "/".

    >>> labelled("arena", 5, 0, bits=48)
    127245736666073
    """
    digest = hashlib.sha256("/".join(str(part) for part in parts).encode()).digest()
    return int.from_bytes(digest[: bits // 8])


def game_seed(match_seed: Seed, number: int) -> Seed:
    """The seed that deals game ``number`` (from 1) of the match dealt from ``match_seed``:
    the match seed itself for the first game (a 1-game match is a game), else the text
    "SEED/n" (``random.Random`` adds its SHA-512 digest, ``KeyedStream`` its SHA-256):
    while the match seed is secret, so is every game of the match.

    >>> game_seed(4, 1), game_seed(4, 2)
    (4, '4/2')
    """
    return match_seed if number == 1 else f"{match_seed}/{number}"


def is_secret(seed: Seed) -> bool:
    """True for a seed whose deals must not give it away: a match seed of at least
    ``SECRET_SEED``, or a later game of such a match (``game_seed``).

    >>> is_secret(7), is_secret(2**64), is_secret(f"{2**100}/2"), is_secret("abc")
    (False, True, True, False)
    """
    match_seed = seed.split("/", 1)[0] if isinstance(seed, str) else seed
    try:
        return int(match_seed) >= SECRET_SEED
    except ValueError:
        return False


def deal_key(seed: Seed) -> bytes:
    """The key of the ``KeyedStream`` that deals from ``seed``: SHA-256 of
    "coloretto-deal:" and the seed's text.

    >>> deal_key(7).hex()[:16]
    '0194cf4465afe245'
    """
    return hashlib.sha256(f"coloretto-deal:{seed}".encode()).digest()


class KeyedStream(random.Random):
    """A generator whose bits are SHA-256 digests of a key (``deal_key``) and a counter, so
    no number of outputs tells anything of the others or of the key (unlike
    ``random.Random``, whose state follows from 624 outputs).

    >>> a, b = KeyedStream("k"), KeyedStream("k")
    >>> [a.randrange(100) for _ in range(5)] == [b.randrange(100) for _ in range(5)]
    True
    >>> 0.0 <= KeyedStream("k").random() < 1.0
    True
    """

    def __init__(self, key: Seed) -> None:
        self._key = b""
        self._counter = 0
        self._pool = 0
        self._pooled = 0
        super().__init__(key)

    def seed(self, a: object = None, version: int = 2) -> None:
        """Start the stream keyed by ``a`` (its text: ``deal_key``)."""
        self._key = deal_key(str(a))
        self._counter = 0
        self._pool = 0
        self._pooled = 0

    def getrandbits(self, k: int) -> int:
        """``k`` bits of the stream."""
        while self._pooled < k:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._pool = (self._pool << 256) | int.from_bytes(block, "big")
            self._pooled += 256
        self._pooled -= k
        bits = self._pool >> self._pooled
        self._pool &= (1 << self._pooled) - 1
        return bits

    def random(self) -> float:
        """A float in [0, 1) from 53 bits of the stream."""
        return self.getrandbits(53) / (1 << 53)


def deal_random(seed: Seed) -> random.Random:
    """The generator that deals from ``seed``: a ``KeyedStream`` for a secret seed
    (``is_secret``), else ``random.Random`` (the deals of small seeds never change).

    >>> type(deal_random(7)).__name__, type(deal_random(f"{2**100}/2")).__name__
    ('Random', 'KeyedStream')
    """
    return KeyedStream(seed) if is_secret(seed) else random.Random(seed)


def match_ply(state: GameState, game_number: int) -> int:
    """The ply ``move_seed`` counts for the move at ``state``, game ``game_number`` of its
    match."""
    return state.ply + GAME_PLIES * game_number


def move_seed(seed: Seed, seat: int, ply: int) -> int:
    """The seed of the bot that moves ``seat`` at ``ply`` (counted over the match:
    ``match_ply``) of a match dealt from ``seed``. A bot's moves may give its seed away, so
    a big or a text seed gives its bots ``labelled(seed, "bot", seat, ply)``; a small one
    (``OLD_SEEDS``) the seeds it always gave.

    >>> move_seed(3, 1, 10), move_seed(3, 1, 10) == move_seed(3, 1, 11)
    (4063137, False)
    """
    if isinstance(seed, int) and 0 <= seed < OLD_SEEDS:
        return (seed * 1_000_003 + 7919 * (seat + 1) + 104_729 * ply) % 2**32
    return labelled(seed, "bot", seat, ply, bits=32)


def arena_deal_seed(arena_seed: int, deal: int) -> int:
    """The seed of deal number ``deal`` (from 0) of an arena run with ``arena_seed``, as a
    game's seed (48 bits: below ``SECRET_SEED``, so ``coloretto play --seed`` takes it and
    deals the same cards).

    >>> arena_deal_seed(5, 0)
    127245736666073
    """
    return labelled("arena", arena_seed, deal, bits=48)


def decision_seed(seed: int, ply: int, again: int = 0) -> int:
    """The seed of the coach's analysis of the decision at ``ply`` (the ``again``-th
    further one on new deals), from the analysis seed.

    >>> decision_seed(0, 12), decision_seed(0, 12, again=1)
    (1361477, 1369396)
    """
    return (seed * 1_000_003 + 104_729 * (ply + 1) + AGAIN_STEP * again) % 2**32


def foresight_seed(ply: int, deal: int) -> str:
    """The seed of the coach's ``deal``-th playout of the rest of the round from the
    position at ``ply``: text, so it is the same in any process (``random.Random``
    hashes it; ``hash`` of a string would not be).

    >>> foresight_seed(3, 0)
    'foresight:3:0'
    """
    return f"foresight:{ply}:{deal}"


def rematch_seed(seed: int | None) -> int | None:
    """The seed of a rematch of a match played with the seed ``seed`` a person gave: the
    next one (so a rematch can be played again); ``None`` (one drawn at random) when the
    seed was drawn at random, since it was shown at the end and the next one would give
    the deck away.

    >>> rematch_seed(9), rematch_seed(2**128 - 1), rematch_seed(None)
    (10, 0, None)
    """
    return None if seed is None else (seed + 1) % 2**SEED_BITS
