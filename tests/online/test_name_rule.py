"""The name rule and the skeleton names are compared by (``coloretto.online.wire.names``), and
the accounts keyed again when the skeleton changes (``coloretto.online.server.account_keys``):
every character of issue 57's finding, and properties over many names (hypothesis)."""

from __future__ import annotations

import asyncio
import string
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coloretto.engine import Rules
from coloretto.online.server.account_keys import RETIRED, rekey_accounts
from coloretto.online.server.database import SqliteDatabase
from coloretto.online.server.migrations import migrate
from coloretto.online.server.rooms import Room
from coloretto.online.wire.accounts import fold_name
from coloretto.online.wire.names import (
    FILLERS,
    NameRefused,
    check_name,
    fold,
    is_invisible,
    scripts_of,
    skeleton_version,
    sources,
)
from coloretto.online.wire.protocol import Host, ProtocolError, account_name, parse_request

INVISIBLE = ["\u034f", "\ufe0f", "\ufe00", "\u180b", "\u17b4", "\u17b5", "\u3164", "\u115f",
             "\u1160", "\uffa0", "\u2800", "\u200b", "\u200d", "\u2060", "\u00ad",
             "\U000e0041"]  # fmt: skip
"""Characters that show nothing: the finding's, and other default-ignorable ones."""

LOOK_ALIKE_LETTERS = {
    "\ua4e7": "H",  # Lisu letter xa
    "\u1d00": "a",  # Latin letter small capital A
    "\u0126": "H",  # Latin capital letter H with stroke
    "\u04a2": "H",  # Cyrillic capital letter en with descender
    "\u039d": "N",  # Greek capital letter nu
    "\u0430": "a",  # Cyrillic small letter a
    "\u0391": "A",  # Greek capital letter alpha
    "\uff21": "A",  # fullwidth A
    "1": "l",
    "I": "l",
    "0": "O",
}
"""Letters that read as a Latin one, and the letter. (Coptic's small alfa is not one of
Unicode's confusables: in a Latin name it is refused, as another script.)"""


@pytest.mark.parametrize("char", INVISIBLE)
def test_an_invisible_character_is_refused_and_never_parts_two_names(char: str) -> None:
    assert is_invisible(char)
    for name in (f"Ha{char}na", f"{char}Hana", f"Hana{char}"):
        assert fold(name) == fold("Hana")
        with pytest.raises(NameRefused, match="invisible"):
            check_name(name)
        with pytest.raises(ValueError, match="invisible"):
            account_name(name)


@pytest.mark.parametrize(("char", "latin"), LOOK_ALIKE_LETTERS.items())
def test_a_letter_that_reads_as_a_latin_one_folds_as_it(char: str, latin: str) -> None:
    assert fold(f"{char}x") == fold(f"{latin}x")


@pytest.mark.parametrize("char", ["\ua4e7", "\u2c81", "\u04a2", "\u039d", "\u03bd", "\u0430"])
def test_latin_mixed_with_another_script_is_refused(char: str) -> None:
    with pytest.raises(NameRefused, match="one script"):
        check_name(f"Ha{char}a")
    with pytest.raises(ProtocolError) as refused:
        parse_request(f'{{"type": "join", "version": 1, "room": "ABC234", "name": "Ha{char}a"}}')
    assert refused.value.code == "bad-name"


@pytest.mark.parametrize(
    "name",
    ["Ana Lee 2", "\u0418\u0432\u0430\u043d", "\u039d\u03af\u03ba\u03bf\u03c2", "山田 Taro",
     "やまだ Taro", "김 Kim", "Zoë", "Łukasz", "Ħal", "Ana 🎲", "O'Brien-Smith", "Tiếng"],
)  # fmt: skip
def test_names_in_one_script_or_a_mix_the_restriction_level_allows_are_kept(name: str) -> None:
    assert check_name(name) == unicodedata.normalize("NFC", name)


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u0301Ana", "no letter under it"),
        ("Ana \u0301", "no letter under it"),
        ("A\u0301\u0301na", "twice on one letter"),
        ("A\u0300\u0301\u0302\u0303\u0304na", "at most 4 marks"),
        ("Ana 1\U0001d7cf", "two number systems"),
        ("Ana (YOU)", "marks each player's own seat"),
        ("Ana (\u0443ou)", "marks each player's own seat"),
    ],
)
def test_lone_marks_stacked_marks_and_mixed_digits_are_refused(name: str, why: str) -> None:
    with pytest.raises(NameRefused, match=why):
        check_name(name)


def test_spaces_are_collapsed_and_compared_as_one() -> None:
    for name in ("Ana  Lee", " Ana Lee ", "Ana\u3000Lee", "Ana\u00a0Lee", "Ana\tLee"):
        assert fold(name) == fold("Ana Lee") == "ana lee"
        assert check_name(name) == "Ana Lee"


def test_the_data_says_its_unicode_versions() -> None:
    assert sources()[0].startswith("Version: 18.0.0")
    assert any("Scripts-15.0.0" in source for source in sources())
    assert scripts_of("a") == {"Latn"}
    assert scripts_of("\u0301") == {"Zinh"}
    assert skeleton_version().startswith("1:")
    assert all(is_invisible(c) for c in FILLERS)


LATIN_NAMES = st.text(string.ascii_letters + string.digits + " ", min_size=1, max_size=16).filter(
    lambda s: s.strip() and "(you)" not in s.lower()
)


@given(LATIN_NAMES)
def test_latin_digits_and_spaces_are_always_a_name_and_case_never_parts_two(name: str) -> None:
    assert check_name(name) == " ".join(name.split())
    assert fold(name) == fold(name.upper()) == fold(name.lower()) == fold(check_name(name))


@given(LATIN_NAMES, st.sampled_from(INVISIBLE), st.integers(0, 16))
def test_an_invisible_character_anywhere_changes_nothing(name: str, char: str, at: int) -> None:
    assert fold(name[:at] + char + name[at:]) == fold(name)


@given(
    LATIN_NAMES.filter(lambda s: any(c.isalpha() for c in s)),
    st.sampled_from(["\u0430", "\u03bf", "\u0435", "\u13a0", "\ua4e7", "\u2c81"]),
    st.integers(0, 16),
)
def test_a_letter_of_another_script_in_a_latin_name_is_refused(
    name: str, char: str, at: int
) -> None:
    with pytest.raises(NameRefused, match="one script"):
        check_name(name[:at] + char + name[at:])


@given(st.text(max_size=24))
def test_any_text_folds_and_is_taken_or_refused_without_another_error(text: str) -> None:
    key = fold(text)
    assert key == " ".join(key.split())
    assert not any(is_invisible(c) for c in key)
    try:
        name = check_name(text)
    except NameRefused:
        return
    assert fold(name) == key
    assert not any(is_invisible(c) for c in name)


# ------------------------------------------------------------------ seats


def test_an_account_at_a_public_table_sits_under_its_registered_name() -> None:
    host = Host.of("Ben", Rules(players=4), "easy", 0.0, 60.0, public=True)
    room, _ = Room.open("ABC234", host, "Ana")
    assert room.people[0] == "Ana"
    room.join("Zed")  # a guest, before Zed had an account
    room.join("Ana's friend", "Zed")
    assert room.people == ["Ana", "Zed 2", "Zed", None]
    private, _ = Room.open("ABC235", Host.of("Mum", Rules(players=3), "easy", 0.0, 60.0), "Ana")
    assert private.people[0] == "Mum"  # among friends, the name given


def test_the_same_account_cannot_sit_twice_whatever_its_spelling() -> None:
    room, _ = Room.open("ABC234", Host.of("Ana", Rules(players=4), "easy", 0.0, 60.0), "Ana")
    with pytest.raises(ValueError, match="sits at this table already"):
        room.join("Ann", "ANA")


# ------------------------------------------------------------------ keys


def test_accounts_are_keyed_again_once_and_keys_may_swap(tmp_path: Path) -> None:
    """Two accounts whose old keys are each other's new ones swap them (nothing
    collides on the way); a third whose name now reads as an older one's is set aside;
    ratings follow; a second run changes nothing."""

    async def run() -> tuple[list[tuple[object, ...]], list[tuple[object, ...]], int]:
        db = SqliteDatabase(tmp_path / "rooms.sqlite3")
        await db.open()
        await migrate(db)
        for folded, name, created in [
            (fold_name("Bo"), "Cy", 1.0), (fold_name("Cy"), "Bo", 2.0),
            ("xx", "B0", 3.0),
        ]:  # fmt: skip
            await db.execute("INSERT INTO accounts VALUES (?, ?, '', ?)", folded, name, created)
            await db.execute("INSERT INTO ratings VALUES (?, ?, 1.0, 1)", folded, created)
        await db.execute("DELETE FROM account_keys")
        moved = await rekey_accounts(db)
        again = await rekey_accounts(db)
        accounts = await db.fetch(
            "SELECT a.folded, a.name, r.mu FROM accounts a JOIN ratings r"
            " ON a.folded = r.folded ORDER BY a.created"
        )
        await db.close()
        return [tuple(row) for row in accounts], [(moved,)], again

    accounts, (moved,), again = asyncio.run(run())
    assert accounts == [
        (fold_name("Cy"), "Cy", 1.0),
        (fold_name("Bo"), "Bo", 2.0),
        (RETIRED + "xx", "B0", 3.0),
    ]
    assert moved == (3,)
    assert again == 0
