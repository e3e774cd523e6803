"""Text from files and from other players, made safe to show in a terminal.

A record is a file people share: its seat names, bot specs and metadata may hold terminal
escape sequences (to retitle the window, clear the screen, forge a link), bidirectional
overrides that reorder what is shown, or invisible characters that make two names look
the same. ``printable`` keeps the visible text and drops the rest.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"  # CSI: colours, cursor, clearing
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC, DCS...
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?"  # any other escape sequence
)
"""Terminal control sequences, removed whole (an unterminated string runs to the end)."""

_SPACES = frozenset("\t\n\v\f\r\u2028\u2029")
"""Line and paragraph breaks and tabs: shown as one space, so a text stays on its line."""

_INVISIBLE = frozenset(("Cc", "Cf", "Cs"))
"""Unicode categories never shown: controls (C0, C1, DEL), formatting (bidi overrides and
isolates, zero-width characters, the byte order mark) and lone surrogates."""

ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"

LONGEST_NAME = 32
"""Names from a record are shown cut to this length (a bot spec from the arena is long;
the game itself accepts names of at most 16 characters)."""


def printable(text: str, limit: int | None = None) -> str:
    """``text`` safe to show: escape sequences and invisible characters removed, breaks and
    tabs made spaces, NFC-normalised, and at most ``limit`` characters (the last one an
    ellipsis when cut; ``limit`` must be positive).

    >>> printable("\\x1b]0;pwned\\x07Ana\\x1b[2J\\x1b[31m!")
    'Ana!'
    >>> printable("Ben\\u202egnp.exe\\u200b\\x9b1mX\\x7f"), printable("line\\none")
    ('Bengnp.exeX', 'line one')
    >>> printable("Ame\\u0301lie"), printable("a very long name indeed", limit=8)
    ('Amélie', 'a very …')
    """
    text = _SEQUENCE.sub("", text)
    shown = "".join(
        " " if c in _SPACES else c
        for c in text
        if c in _SPACES or unicodedata.category(c) not in _INVISIBLE
    )
    shown = unicodedata.normalize("NFC", shown)
    if limit is not None and len(shown) > limit:
        shown = shown[: limit - 1] + ELLIPSIS
    return shown


def some_names(names: Sequence[str], shown: int = 3) -> str:
    """At most ``shown`` of ``names``, the rest counted (not made ``printable``).

    >>> some_names(["a.json", "b.json", "c.json"], shown=2), some_names(["a.json"])
    ('a.json, b.json and 1 more', 'a.json')
    """
    listed = ", ".join(names[:shown])
    if len(names) > shown:
        listed += f" and {len(names) - shown} more"
    return listed
