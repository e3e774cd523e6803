"""``printable``: text from files and other players, safe to show in a terminal."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coloretto.store.text import printable

HOSTILE = (
    "\x1b]0;pwned\x07",  # OSC: retitle the window
    "\x1b]8;;http://evil.example\x1b\\",  # OSC 8: a link
    "\x1b[2J",  # CSI: clear the screen
    "\x1b[31m",  # CSI: red
    "\x9b1m",  # C1 CSI
    "\x9d0;t\x9c",  # C1 OSC with C1 ST
    "\x80\x8d\x9a",  # C1 controls
    "\x90q#0;2;0;0;0\x1b\\",  # DCS (sixel graphics)
    "\x07\x08\x7f\x00",  # BEL, backspace, DEL, NUL
    "\u202e\u202a\u2066\u2069\u200e\u200f",  # bidi overrides, isolates and marks
    "\u200b\u200c\u200d\u2060\ufeff",  # zero-width characters
)
"""Everything a hostile record might hold, one kind per entry."""


def shows_nothing_hidden(text: str) -> bool:
    """No control, formatting or surrogate character, so nothing the terminal acts on."""
    return not any(unicodedata.category(c) in ("Cc", "Cf", "Cs") for c in text)


@pytest.mark.parametrize("hostile", HOSTILE)
def test_every_hostile_kind_is_removed(hostile: str) -> None:
    assert printable(f"Ana{hostile}Ben") == "AnaBen"


def test_breaks_become_spaces_and_names_are_normalised() -> None:
    assert printable("a\nb\tc\r\u2028d") == "a b c  d"
    assert printable("Zoe\u0308") == "Zo\u00eb"


def test_limit_cuts_with_an_ellipsis() -> None:
    assert printable("Anastasia", limit=9) == "Anastasia"
    assert printable("Anastasia!", limit=9) == "Anastasi…"
    assert printable("\x1b[31m" + "x" * 20, limit=16) == "x" * 15 + "…"


@given(st.text(), st.integers(min_value=1, max_value=40))
def test_anything_comes_out_printable_and_bounded(text: str, limit: int) -> None:
    shown = printable(text, limit)
    assert shows_nothing_hidden(shown)
    assert len(shown) <= limit
    assert unicodedata.is_normalized("NFC", shown)


@given(st.lists(st.sampled_from([*HOSTILE, "A", "b", "é", " ", "["])).map("".join))
def test_hostile_mixtures_keep_only_the_visible(text: str) -> None:
    shown = printable(text)
    assert shows_nothing_hidden(shown)
    assert set(shown) <= set("Abé [") | set("pwnedhttp://evil.example0;t")
