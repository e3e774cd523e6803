"""A deal's seed as the game shows it and takes it back (``--seed``, the setup screen).

A seed drawn at random has 128 bits: 39 decimal digits, long to read and easy to mistype.
It shows as a code of 27 symbols in groups of four, in Crockford's base 32 (digits and
capital letters but I, L, O and U): the seed's 128 bits and 7 bits that check them, so a
mistyped symbol or two neighbours swapped are caught, not dealt as another game. A seed a
person chose (below ``SECRET_SEED``, say 7) shows as its decimal, as it was typed.
``parse_seed`` takes either form of any seed: a code in any case, with or without its
hyphens, or a decimal (digits only: a code of digits only, which a seed drawn at random
shows about once in 4 x 10**13, keeps its hyphens).

>>> seed_text(7), seed_text(2**127 + 1)
('7', 'G000-0000-0000-0000-0000-0000-07W')
>>> parse_seed("g000-0000-0000-0000-0000-0000-07w") == 2**127 + 1
True
"""

from __future__ import annotations

import re

from coloretto.engine.seeds import SECRET_SEED, SEED_BITS
from coloretto.store.text import printable

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: no I, L or O (read as 1, 1 and 0 when typed), no U."""

_READ_AS = str.maketrans("ILO", "110")

CHECK_BITS = 7
CHECK = 127
"""The code's number is the seed times 2**7 plus a check that makes it a multiple of 127:
127 is prime and no power of 32, no difference of two symbols and not 31 is a multiple of
it, so one wrong symbol (a difference times a power of 32) or two neighbours swapped (a
difference times 31 times a power of 32) leave a number that is not."""

SYMBOLS = 27
"""Symbols of a code: 135 bits, the seed's 128 and the check's 7."""

GROUP = 4

CODE_LENGTH = SYMBOLS + (SYMBOLS - 1) // GROUP
"""Characters of a code as shown, hyphens included (33: one line of the move log at 80x24)."""

_SEPARATORS = re.compile(r"[\s\-]+")


def seed_code(seed: int) -> str:
    """``seed`` (0 to 2**128 - 1) as a code: 27 symbols in groups of 4, the last 3.

    >>> seed_code(0), seed_code(1)
    ('0000-0000-0000-0000-0000-0000-000', '0000-0000-0000-0000-0000-0000-07Y')
    """
    if not 0 <= seed < 2**SEED_BITS:
        raise ValueError(f"a seed is 0 to {2**SEED_BITS - 1}, not {seed}")
    number = (seed << CHECK_BITS) + (-seed) % CHECK
    symbols = "".join(ALPHABET[(number >> 5 * i) & 31] for i in reversed(range(SYMBOLS)))
    return "-".join(symbols[i : i + GROUP] for i in range(0, SYMBOLS, GROUP))


def seed_text(seed: int) -> str:
    """``seed`` as the game shows it: its decimal below ``SECRET_SEED`` (a seed a person
    chose), else its code (``seed_code``); a number no seed is (from a record) as it is.

    >>> seed_text(575648085), seed_text(2**64)
    ('575648085', '0000-0000-0000-2000-0000-0000-03X')
    """
    if 0 <= seed < SECRET_SEED or not 0 <= seed < 2**SEED_BITS:
        return str(seed)
    return seed_code(seed)


def deal_seed_text(seed: object) -> str:
    """A deal's seed, as a match or a record holds it, in words: a match seed as
    ``seed_text``; a later game of a match (``"SEED/N"``, ``Match.game_seed``) says which;
    anything else a record may hold, printable.

    >>> deal_seed_text(7), deal_seed_text("7/2"), deal_seed_text("\\x1b[2Jodd")
    ('7', '7 (game 2 of its match)', 'odd')
    """
    if type(seed) is int:
        return seed_text(seed)
    if isinstance(seed, str):
        match_seed, _, number = seed.partition("/")
        if match_seed.isdecimal() and match_seed.isascii() and number.isdecimal():
            return f"{seed_text(int(match_seed))} (game {int(number)} of its match)"
    return printable(str(seed), 60)


def parse_seed(text: str) -> int:
    """The seed ``text`` gives: a decimal (``int``'s form, as ``--seed`` always took) or a
    code (``seed_code``). ``ValueError`` says what is wrong, to follow the field's name.

    >>> parse_seed(" 7 "), parse_seed("0000 0000 0000 0000 0000 0000 07y")
    (7, 1)
    >>> parse_seed("0000-0000-0000-0000-0000-0000-07X")
    Traceback (most recent call last):
    ...
    ValueError: has a mistyped symbol: '0000-0000-0000-0000-0000-0000-07X' is no code the \
game shows (compare it with the one shown)
    """
    given = text.strip()
    beyond = f"must be 0 to {2**SEED_BITS - 1} (or a code the game showed)"
    try:
        seed = int(given)
    except ValueError:
        if given.isdecimal():  # more digits than ``int`` reads
            raise ValueError(beyond) from None
        return _parse_code(given)
    if not 0 <= seed < 2**SEED_BITS:
        raise ValueError(beyond)
    return seed


def _parse_code(given: str) -> int:
    shown = printable(given, CODE_LENGTH + 8)
    symbols = _SEPARATORS.sub("", given).upper().translate(_READ_AS)
    if not symbols or any(symbol not in ALPHABET for symbol in symbols):
        raise ValueError(f"must be a whole number or a code the game showed, not {shown!r}")
    if len(symbols) != SYMBOLS:
        raise ValueError(
            f"must be a whole number or a code of {SYMBOLS} letters and digits; "
            f"{shown!r} has {len(symbols)}"
        )
    number = 0
    for symbol in symbols:
        number = number * 32 + ALPHABET.index(symbol)
    if number % CHECK or number % 2**CHECK_BITS == CHECK:
        raise ValueError(
            f"has a mistyped symbol: {shown!r} is no code the game shows (compare it with "
            "the one shown)"
        )
    return number >> CHECK_BITS
