"""``docs/protocol.md`` and the protocol's modules name the same requests, messages and
error codes: each table of the page is read and compared with the module's own list."""

from __future__ import annotations

import re
from pathlib import Path

from coloretto.online.messages import MESSAGES
from coloretto.online.protocol import REQUESTS, ErrorCode

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
