"""Names as people read them: the rule every account and seat name keeps (``check_name``)
and the key names are compared by (``fold``). Two names that read alike are one name: an
account's name is unique by its key, and a second seat whose name reads like one at the
table gets a number.

``fold`` is the skeleton of Unicode's UTS #39 (confusable detection), from Unicode's own
data (``confusables.txt``, kept in ``unicode_names.json.gz`` with its version: ``SOURCES``;
``benchmarks/update_unicode_names.py`` writes it), taken further so that case, accents and
strokes do not part two names: compatibility forms made plain (NFKD), invisible characters
dropped, each character mapped to its prototype (``confusables.txt``), case folded (the
two repeated until nothing changes; a small capital reads as its letter), the marks that
belong to no script (accents, strokes, overlays: Unicode's script "Inherited") dropped,
i made l (capital I reads as l) and runs of spaces made one.

>>> alpha, fullwidth = "\\N{GREEK CAPITAL LETTER ALPHA}na", "\\uff21\\uff2e\\uff21"
>>> fold("Ana") == fold(alpha) == fold(fullwidth) == fold("ana") == fold("\\u0104na")
True
>>> h_stroke, small_capital_a = "\\N{LATIN CAPITAL LETTER H WITH STROKE}", "\\u1d00"
>>> fold("Ana") == fold("Ann"), fold("B1LL"), fold(f"{h_stroke}{small_capital_a}l")
(False, 'blll', 'hal')

``check_name`` refuses (``NameRefused``, saying why) a name holding invisible characters
(default-ignorable code points such as U+034F or variation selectors, and fillers such as
U+3164 or U+2800), a combining mark with no letter under it, the same mark twice on a
letter or more than ``MAX_MARKS``, digits of two number systems, and letters of scripts
that UTS #39's "highly restrictive" level does not allow together: one script, or Latin
with Han and Japanese kana, with Han and Bopomofo, or with Han and Hangul (digits, spaces
and punctuation belong to every script). Latin and Cyrillic mixed is refused; a name all
in Cyrillic or Greek is fine.
"""

from __future__ import annotations

import bisect
import functools
import gzip
import hashlib
import json
import unicodedata
from dataclasses import dataclass
from pathlib import Path

YOU_MARKER = "(you)"
"""What every screen writes after this player's own name: no name may hold it."""

DATA = Path(__file__).with_name("unicode_names.json.gz")
"""Unicode's data for names: confusables, scripts and default-ignorable code points."""

MAX_MARKS = 4
"""The most combining marks on one letter."""

FILLERS = frozenset("\u115f\u1160\u2800\u3164\uffa0\ufffc")
"""Characters that show as blank space without being a space (Hangul fillers, the blank
braille pattern, the object replacement character), beside the default-ignorable ones."""

HIDDEN_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
"""Unicode categories that show nothing (or nothing certain): controls, formats,
surrogates, private use, unassigned (in this Python's Unicode), line and paragraph
separators."""

COMMON, INHERITED = "Zyyy", "Zinh"
"""The scripts of characters used with every script (digits, punctuation) and of marks
that take the script of their letter."""

_AUGMENTED = {
    "Hani": frozenset(("Hani", "Hanb", "Jpan", "Kore")),
    "Hira": frozenset(("Hira", "Jpan")),
    "Kana": frozenset(("Kana", "Jpan")),
    "Hang": frozenset(("Hang", "Kore")),
    "Bopo": frozenset(("Bopo", "Hanb")),
}
"""UTS #39's augmented script sets: Han is also Japanese, Korean and Han with Bopomofo."""

HIGHLY_RESTRICTIVE = (
    frozenset(("Latn", "Hani", "Hira", "Kana")),
    frozenset(("Latn", "Hani", "Bopo")),
    frozenset(("Latn", "Hani", "Hang")),
)
"""The scripts UTS #39's "highly restrictive" level lets one name mix."""


class NameRefused(ValueError):
    """A name the rule refuses; the text says why."""


@dataclass(frozen=True)
class _UnicodeData:
    confusables: dict[str, str]
    ignorable: tuple[list[int], list[int]]
    script_ranges: tuple[list[int], list[int]]
    script_sets: list[frozenset[str]]
    sources: tuple[str, ...]
    small_capitals: dict[str, str]
    """Each small capital letter ("LATIN LETTER SMALL CAPITAL A") mapped to its small
    letter ("LATIN SMALL LETTER A"): ``confusables.txt`` keeps them apart, but they read as
    the same letter."""


@functools.cache
def _data() -> _UnicodeData:
    data = json.loads(gzip.decompress(DATA.read_bytes()))
    ignorable = [r[0] for r in data["ignorable"]], [r[1] for r in data["ignorable"]]
    ranges = data["scripts"]
    script_ranges = [r[0] for r in ranges], [r[1] for r in ranges]
    script_sets = [frozenset(str(r[2]).split()) for r in ranges]
    sources = tuple(f"{s['version']} ({s['date']})" for s in data["sources"])
    return _UnicodeData(
        data["confusables"], ignorable, script_ranges, script_sets, sources, data["small_capitals"]
    )


def sources() -> tuple[str, ...]:
    """The Unicode data files in force, each as its version and date (confusables first).

    >>> sources()[0]
    'Version: 18.0.0 (2026-08-06, 01:05:35 GMT)'
    """
    return _data().sources


FOLD_RULE = 1
"""The version of ``fold``'s steps: raised whenever they change what a name folds to."""


def skeleton_version() -> str:
    """What ``fold`` is made of: its rule's version and its data's SHA-256 (an account
    table keyed by another is keyed again: ``account_keys``)."""
    return f"{FOLD_RULE}:{hashlib.sha256(DATA.read_bytes()).hexdigest()[:16]}"


def _in(ranges: tuple[list[int], list[int]], point: int) -> int | None:
    """The index of the range of ``ranges`` (starts, ends) holding ``point``, if any."""
    starts, ends = ranges
    index = bisect.bisect_right(starts, point) - 1
    return index if index >= 0 and point <= ends[index] else None


def is_invisible(char: str) -> bool:
    """True for a character that shows nothing, or nothing certain: default-ignorable,
    a filler (``FILLERS``), or of a hidden category (``HIDDEN_CATEGORIES``).

    >>> [is_invisible(c) for c in "\\u034f\\ufe0f\\u3164\\u2800\\u200b a"]
    [True, True, True, True, True, False, False]
    """
    return (
        char in FILLERS
        or unicodedata.category(char) in HIDDEN_CATEGORIES
        or _in(_data().ignorable, ord(char)) is not None
    )


def scripts_of(char: str) -> frozenset[str]:
    """The scripts ``char`` is written in (its Script_Extensions, ISO 15924 codes);
    ``Zyyy`` (Common) for digits, spaces and punctuation, ``Zinh`` (Inherited) for marks
    that take their letter's script, ``Zzzz`` for unassigned code points.

    >>> sorted(scripts_of("a")), sorted(scripts_of("\\u0430")), sorted(scripts_of("1"))
    (['Latn'], ['Cyrl'], ['Zyyy'])
    """
    data = _data()
    index = _in(data.script_ranges, ord(char))
    return frozenset(("Zzzz",)) if index is None else data.script_sets[index]


def _step(text: str) -> str:
    """One round of ``fold``: prototypes, then case folded."""
    data = _data()
    mapped = "".join(data.confusables.get(c) or data.small_capitals.get(c, c) for c in text)
    mapped = unicodedata.normalize("NFD", mapped)
    folded = unicodedata.normalize("NFD", mapped.casefold())
    return "".join(c for c in folded if not is_invisible(c))


def fold(name: str) -> str:
    """The key ``name`` is compared by (see the module): equal for names that read alike.

    >>> cyrillic, greek_nu = "\\N{CYRILLIC CAPITAL LETTER A}NA", "A\\N{GREEK CAPITAL LETTER NU}A"
    >>> fold("Ana") == fold(cyrillic) == fold(greek_nu) == fold(" ANA\\u034f ") == "ana"
    True
    >>> fold("Ana  Lee"), fold("rnaria") == fold("maria"), fold("B0b") == fold("bob")
    ('ana lee', True, True)
    """
    text = "".join(
        " " if c.isspace() else c
        for c in unicodedata.normalize("NFKD", name)
        if c.isspace() or not is_invisible(c)
    )
    for _ in range(8):
        changed = _step(text)
        if changed == text:
            break
        text = changed
    kept = (
        c for c in text if not (unicodedata.category(c)[0] == "M" and INHERITED in scripts_of(c))
    )
    return " ".join("".join(kept).replace("i", "l").split())


def _marks_problem(name: str) -> str | None:
    """Why the combining marks of ``name`` are refused, if they are."""
    base: str | None = None
    marks: list[str] = []
    for char in unicodedata.normalize("NFD", name):
        if unicodedata.category(char)[0] != "M":
            base, marks = (None if char.isspace() else char), []
            continue
        code = f"U+{ord(char):04X}"
        if base is None:
            return f"the mark {code} has no letter under it"
        if marks and marks[-1] == char:
            return f"the mark {code} is twice on one letter"
        marks.append(char)
        if len(marks) > MAX_MARKS:
            return f"a letter holds at most {MAX_MARKS} marks"
    return None


def _scripts_problem(name: str) -> str | None:
    """Why the scripts of ``name`` are refused ("highly restrictive"), if they are."""
    letters = [
        (c, sets)
        for c in unicodedata.normalize("NFD", name)
        if not (sets := scripts_of(c)) & {COMMON, INHERITED}
    ]
    common: frozenset[str] | None = None
    for _, sets in letters:
        augmented = sets.union(*(_AUGMENTED.get(s, frozenset()) for s in sets))
        common = augmented if common is None else common & augmented
    if common is None or common:
        return None
    if any(all(sets & allowed for _, sets in letters) for allowed in HIGHLY_RESTRICTIVE):
        return None
    first, first_sets = letters[0]
    other, other_sets = next((c, s) for c, s in letters if not s & first_sets)
    return (
        f"a name is written in one script: U+{ord(other):04X} ({', '.join(sorted(other_sets))})"
        f" is not of the script of U+{ord(first):04X} ({', '.join(sorted(first_sets))})"
    )


def _digits_problem(name: str) -> str | None:
    """Why the digits of ``name`` are refused (of two number systems), if they are."""
    zeros = {ord(c) - unicodedata.digit(c) for c in name if unicodedata.category(c) == "Nd"}
    return "its digits are of two number systems" if len(zeros) > 1 else None


def check_name(text: str) -> str:
    """``text`` as a name (spaces around dropped, runs of spaces made one, NFC), or
    ``NameRefused`` saying why the rule (see the module) refuses it.

    >>> check_name(" Ana  Lee "), check_name("\\u0418\\u0432\\u0430\\u043d 2")
    ('Ana Lee', 'Иван 2')
    >>> check_name("A\\u0430na")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    coloretto.online.wire.names.NameRefused: a name is written in one script: U+0430 (Cyrl) ...
    >>> check_name("Ana\\u034f")
    Traceback (most recent call last):
    ...
    coloretto.online.wire.names.NameRefused: a name may not hold invisible characters (U+034F)
    """
    name = unicodedata.normalize("NFC", " ".join(text.split()))
    hidden = [f"U+{ord(c):04X}" for c in name if is_invisible(c)]
    if hidden:
        raise NameRefused(f"a name may not hold invisible characters ({', '.join(hidden[:3])})")
    if has_you_marker(name):
        raise NameRefused(f"{YOU_MARKER} marks each player's own seat: choose another name")
    for problem in (_marks_problem(name), _scripts_problem(name), _digits_problem(name)):
        if problem is not None:
            raise NameRefused(problem)
    return name


def has_you_marker(name: str) -> bool:
    """True when ``name`` holds the "(you)" marker, in any case or look-alike letters.

    >>> fullwidth_cyrillic = "Ana \\uff08\\u0443ou\\uff09"
    >>> has_you_marker("Ana (YOU)"), has_you_marker(fullwidth_cyrillic), has_you_marker("Youri")
    (True, True, False)
    """
    return fold(YOU_MARKER) in fold(name)
