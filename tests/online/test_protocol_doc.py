"""``docs/protocol.md`` and the protocol's modules name the same requests, messages and
error codes: each table of the page is read and compared with the module's own list; each
request's fields and bounds, read from its declaration, are the page's."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from coloretto.online.wire.messages import MESSAGES
from coloretto.online.wire.protocol import REQUESTS, ErrorCode

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def first_column(heading: str) -> set[str]:
    """The names in backquotes in the first column of every table of the page whose first
    header cell is ``heading``."""
    names: set[str] = set()
    rows: list[list[str]] = []
    for line in [*DOC.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
            continue
        if len(rows) > 2 and rows[0][0] == heading and set(rows[1][0]) <= set("-: "):
            for row in rows[2:]:
                names |= set(re.findall(r"`([^`]+)`", row[0]))
        rows = []
    return names


def test_every_request_is_in_the_doc_and_every_request_there_is_one() -> None:
    assert first_column("Request") == set(REQUESTS)


def test_every_server_message_is_in_the_doc_and_every_message_there_is_one() -> None:
    assert first_column("Message") == set(MESSAGES)


def test_every_error_code_is_in_the_doc_and_every_code_there_is_one() -> None:
    assert first_column("Code") == {code.value for code in ErrorCode}


def test_the_tables_are_read() -> None:
    """A table whose header the test does not recognise would compare nothing."""
    assert {"host", "lock", "unlock"} <= first_column("Request")
    assert first_column("Nothing") == set()


def rows(heading: str, column: int = 1) -> dict[str, str]:
    """Each name in backquotes in the first column of the tables whose first header cell
    is ``heading``, and column ``column`` of its row."""
    found: dict[str, str] = {}
    table: list[list[str]] = []
    for line in [*DOC.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("|"):
            table.append([cell.strip() for cell in line.strip().strip("|").split("|")])
            continue
        if len(table) > 2 and table[0][0] == heading:
            for row in table[2:]:
                for name in re.findall(r"`([^`]+)`", row[0]):
                    found[name] = row[column]
        table = []
    return found


def limits(kind: msgspec.inspect.Type) -> list[str]:
    """The bounds and choices a field's declaration gives, as the page writes them:
    ``2-99`` for a whole number or seconds from 2 to 99, a choice in backquotes."""
    while isinstance(kind, msgspec.inspect.UnionType):  # a field that may be null
        kind = next(k for k in kind.types if not isinstance(k, msgspec.inspect.NoneType))
    if isinstance(kind, msgspec.inspect.Metadata):
        kind = kind.type
    numbers = msgspec.inspect.IntType | msgspec.inspect.FloatType
    if isinstance(kind, numbers) and kind.ge is not None and kind.le is not None:
        return [f"{kind.ge:g}-{kind.le:g}"]
    if isinstance(kind, msgspec.inspect.EnumType):
        return [f"`{member.value}`" for member in kind.cls]
    if isinstance(kind, msgspec.inspect.StructType):
        return [bound for field in kind.fields for bound in limits(field.type)]
    return []


@pytest.mark.parametrize("tag", sorted(REQUESTS))
def test_each_request_s_fields_and_their_bounds_are_the_ones_the_doc_gives(tag: str) -> None:
    """A field the declaration has and the page does not name, or a bound (a number's
    range, a choice) the page does not give, fails; ``version`` is every opening's
    (said once above the table)."""
    told = rows("Request")[tag]
    info = msgspec.inspect.type_info(REQUESTS[tag])
    assert isinstance(info, msgspec.inspect.StructType)
    fields = [field for field in info.fields if field.encode_name != "version"]
    if not fields:
        assert told.startswith("none")
    for field in fields:
        assert f"`{field.encode_name}`" in told, field.encode_name
        for bound in limits(field.type):
            assert bound in told, (field.encode_name, bound)


def test_the_bounds_are_read() -> None:
    """The doc test above compares something: ``host`` has bounds of several kinds."""
    info = msgspec.inspect.type_info(REQUESTS["host"])
    assert isinstance(info, msgspec.inspect.StructType)
    found = [bound for field in info.fields for bound in limits(field.type)]
    assert {"2-5", "`gray`", "1-99", "0-10", "0-600", "10-3600"} <= set(found)
    assert '"version": 1' in DOC.read_text(encoding="utf-8")


@pytest.mark.parametrize("tag", sorted(MESSAGES))
def test_each_message_s_fields_are_the_ones_the_doc_names(tag: str) -> None:
    told = rows("Message", column=2)[tag]
    info = msgspec.inspect.type_info(MESSAGES[tag])
    assert isinstance(info, msgspec.inspect.StructType)
    for field in info.fields:
        assert f"`{field.encode_name}`" in told, field.encode_name
