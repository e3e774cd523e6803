"""Names at a table, compared as they look: two names that a person cannot tell apart on
the screen are the same name.

``fold`` is the idea of the skeleton of Unicode's UTS #39 (confusable detection), made
small: NFKD (fullwidth and other compatibility forms to their plain letters, accents set
apart), invisible characters dropped, the Greek, Cyrillic, Armenian, Cherokee and other
letters drawn like a Latin letter mapped to it (``LOOKALIKES``), case folded, accents put
back (NFC) and runs of spaces made one. Names equal under ``str.casefold`` stay equal.

>>> alpha, fullwidth = "\\N{GREEK CAPITAL LETTER ALPHA}na", "\\uff21\\uff2e\\uff21"
>>> fold("Ana") == fold(alpha) == fold(fullwidth) == fold("ana")
True
>>> fold("Ana") == fold("Ann")
False
"""

from __future__ import annotations

import unicodedata

YOU_MARKER = "(you)"
"""What every screen writes after this player's own name: no name may hold it."""

_LOOKS_LIKE: dict[str, tuple[str, ...]] = {
    "a": (
        "CYRILLIC CAPITAL LETTER A",
        "CYRILLIC SMALL LETTER A",
        "GREEK CAPITAL LETTER ALPHA",
        "GREEK SMALL LETTER ALPHA",
        "LATIN SMALL LETTER ALPHA",
        "CHEROKEE LETTER GO",
    ),
    "b": (
        "CYRILLIC CAPITAL LETTER VE",
        "CYRILLIC CAPITAL LETTER SOFT SIGN",
        "GREEK SMALL LETTER BETA",
        "GREEK CAPITAL LETTER BETA",
        "CHEROKEE LETTER YV",
        "LATIN LETTER SMALL CAPITAL B",
    ),
    "c": (
        "CYRILLIC CAPITAL LETTER ES",
        "CYRILLIC SMALL LETTER ES",
        "GREEK CAPITAL LUNATE SIGMA SYMBOL",
        "GREEK LUNATE SIGMA SYMBOL",
        "CHEROKEE LETTER TLI",
        "LATIN LETTER SMALL CAPITAL C",
    ),
    "d": (
        "CYRILLIC SMALL LETTER KOMI DE",
        "CHEROKEE LETTER A",
    ),
    "e": (
        "CYRILLIC CAPITAL LETTER IE",
        "CYRILLIC SMALL LETTER IE",
        "GREEK CAPITAL LETTER EPSILON",
        "GREEK SMALL LETTER EPSILON",
        "CHEROKEE LETTER GV",
        "LATIN LETTER SMALL CAPITAL E",
    ),
    "g": (
        "LATIN SMALL LETTER SCRIPT G",
        "ARMENIAN SMALL LETTER CO",
        "CHEROKEE LETTER NAH",
    ),
    "h": (
        "CYRILLIC CAPITAL LETTER EN",
        "CYRILLIC SMALL LETTER EN",
        "CYRILLIC CAPITAL LETTER SHHA",
        "CYRILLIC SMALL LETTER SHHA",
        "GREEK CAPITAL LETTER ETA",
        "ARMENIAN SMALL LETTER HO",
        "CHEROKEE LETTER MI",
        "LATIN LETTER SMALL CAPITAL H",
    ),
    "i": (
        "CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I",
        "CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I",
        "GREEK CAPITAL LETTER IOTA",
        "GREEK SMALL LETTER IOTA",
        "LATIN SMALL LETTER IOTA",
        "LATIN SMALL LETTER DOTLESS I",
        "CYRILLIC LETTER PALOCHKA",
        "CHEROKEE LETTER V",
    ),
    "j": (
        "CYRILLIC CAPITAL LETTER JE",
        "CYRILLIC SMALL LETTER JE",
        "GREEK LETTER YOT",
        "CHEROKEE LETTER GU",
    ),
    "k": (
        "CYRILLIC CAPITAL LETTER KA",
        "CYRILLIC SMALL LETTER KA",
        "GREEK CAPITAL LETTER KAPPA",
        "GREEK SMALL LETTER KAPPA",
        "CHEROKEE LETTER TSO",
        "LATIN LETTER SMALL CAPITAL K",
    ),
    "l": ("CYRILLIC SMALL LETTER PALOCHKA",),
    "m": (
        "CYRILLIC CAPITAL LETTER EM",
        "CYRILLIC SMALL LETTER EM",
        "GREEK CAPITAL LETTER MU",
        "CHEROKEE LETTER LU",
        "LATIN LETTER SMALL CAPITAL M",
    ),
    "n": (
        "GREEK CAPITAL LETTER NU",
        "GREEK SMALL LETTER ETA",
        "ARMENIAN SMALL LETTER VO",
        "CYRILLIC SMALL LETTER PE",
        "CHEROKEE LETTER NE",
        "LATIN LETTER SMALL CAPITAL N",
    ),
    "o": (
        "CYRILLIC CAPITAL LETTER O",
        "CYRILLIC SMALL LETTER O",
        "GREEK CAPITAL LETTER OMICRON",
        "GREEK SMALL LETTER OMICRON",
        "GREEK SMALL LETTER SIGMA",
        "ARMENIAN CAPITAL LETTER OH",
        "ARMENIAN SMALL LETTER OH",
        "CHEROKEE LETTER NA",
        "LATIN LETTER SMALL CAPITAL O",
    ),
    "p": (
        "CYRILLIC CAPITAL LETTER ER",
        "CYRILLIC SMALL LETTER ER",
        "GREEK CAPITAL LETTER RHO",
        "GREEK SMALL LETTER RHO",
        "CHEROKEE LETTER TLV",
        "LATIN LETTER SMALL CAPITAL P",
    ),
    "q": (
        "CYRILLIC SMALL LETTER QA",
        "ARMENIAN SMALL LETTER ZA",
    ),
    "r": (
        "CYRILLIC SMALL LETTER GHE",
        "CHEROKEE LETTER SV",
        "LATIN LETTER SMALL CAPITAL R",
    ),
    "s": (
        "CYRILLIC CAPITAL LETTER DZE",
        "CYRILLIC SMALL LETTER DZE",
        "CHEROKEE LETTER DU",
        "LATIN LETTER SMALL CAPITAL S",
    ),
    "t": (
        "CYRILLIC CAPITAL LETTER TE",
        "CYRILLIC SMALL LETTER TE",
        "GREEK CAPITAL LETTER TAU",
        "GREEK SMALL LETTER TAU",
        "CHEROKEE LETTER I",
        "LATIN LETTER SMALL CAPITAL T",
    ),
    "u": (
        "ARMENIAN SMALL LETTER SEH",
        "GREEK SMALL LETTER UPSILON",
        "LATIN LETTER SMALL CAPITAL U",
    ),
    "v": (
        "GREEK SMALL LETTER NU",
        "CYRILLIC SMALL LETTER IZHITSA",
        "CHEROKEE LETTER DO",
        "LATIN LETTER SMALL CAPITAL V",
    ),
    "w": (
        "CYRILLIC CAPITAL LETTER WE",
        "CYRILLIC SMALL LETTER WE",
        "CHEROKEE LETTER LA",
        "LATIN LETTER SMALL CAPITAL W",
    ),
    "x": (
        "CYRILLIC CAPITAL LETTER HA",
        "CYRILLIC SMALL LETTER HA",
        "GREEK CAPITAL LETTER CHI",
        "GREEK SMALL LETTER CHI",
    ),
    "y": (
        "CYRILLIC CAPITAL LETTER U",
        "CYRILLIC SMALL LETTER U",
        "CYRILLIC CAPITAL LETTER STRAIGHT U",
        "CYRILLIC SMALL LETTER STRAIGHT U",
        "GREEK CAPITAL LETTER UPSILON",
        "GREEK SMALL LETTER GAMMA",
        "LATIN LETTER SMALL CAPITAL Y",
    ),
    "z": (
        "GREEK CAPITAL LETTER ZETA",
        "CHEROKEE LETTER NO",
        "LATIN LETTER SMALL CAPITAL Z",
    ),
}
"""Letters of other scripts drawn like a Latin letter (capital or small, in common
fonts), by their Unicode names, under the Latin letter they pass for. (Fullwidth letters,
Roman numerals and the like are plain letters after NFKD.)"""

LOOKALIKES = str.maketrans(
    {unicodedata.lookup(name): latin for latin, names in _LOOKS_LIKE.items() for name in names}
)
"""The ``str.translate`` table of ``_LOOKS_LIKE``."""

_HIDDEN = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))
"""Unicode categories of characters that show nothing (or nothing certain)."""


def fold(name: str) -> str:
    """``name`` as it is compared with the other names at a table (see the module).

    >>> greek_ben = "\\N{GREEK CAPITAL LETTER BETA}\\N{GREEK CAPITAL LETTER EPSILON}N"
    >>> fold("\\N{CYRILLIC CAPITAL LETTER A}na"), fold("Ana\\u200b  Lee "), fold(greek_ben)
    ('ana', 'ana lee', 'ben')
    """
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if unicodedata.category(c) not in _HIDDEN)
    text = text.translate(LOOKALIKES).casefold().translate(LOOKALIKES)
    return " ".join(unicodedata.normalize("NFC", text).split())


def has_you_marker(name: str) -> bool:
    """True when ``name`` holds the "(you)" marker, in any case or look-alike letters.

    >>> fullwidth_cyrillic = "Ana \\uff08\\u0443ou\\uff09"
    >>> has_you_marker("Ana (YOU)"), has_you_marker(fullwidth_cyrillic), has_you_marker("Youri")
    (True, True, False)
    """
    return YOU_MARKER in fold(name)
