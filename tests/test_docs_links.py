"""The README and the pages of docs/: every relative link leads to a file, the README stays a
page for players (short, no measurement history), and its install block is where CI finds
it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
"""A Markdown link or image: ``[text](target)`` or ``![alt](target "title")``."""
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)


def links(page: Path) -> list[str]:
    """The targets of ``page``'s links, outside code blocks and inline code."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)
    return LINK.findall(text)


def local(target: str) -> bool:
    return not re.match(r"[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_to_a_file(page: Path) -> None:
    broken = [
        target
        for target in links(page)
        if local(target) and not (page.parent / target.partition("#")[0]).exists()
    ]
    assert not broken, f"{page.relative_to(ROOT)}: links to nothing: {broken}"


def test_the_links_are_found() -> None:
    """The pattern finds the README's links (a test that checks nothing would pass)."""
    found = links(ROOT / "README.md")
    assert "docs/rules.md" in found
    assert "docs/board.png" in found
    assert "docs/development.md" in found


def test_every_page_of_docs_is_linked_from_the_readme_or_a_page() -> None:
    linked = {
        (page.parent / target.partition("#")[0]).resolve()
        for page in PAGES
        for target in links(page)
        if local(target)
    }
    lonely = [page.name for page in (ROOT / "docs").glob("*.md") if page.resolve() not in linked]
    assert not lonely, f"pages no other page links to: {lonely}"


def test_the_readme_is_for_players() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 250
    history = re.findall(r"20\d\d-\d\d-\d\d|since \d\d?:\d\d|session \d+|[¹²³]", text)
    assert not history, f"measurement history belongs in docs/bot-strength.md: {history}"


def test_the_readme_has_its_install_block_and_test_command() -> None:
    """CI (.ci/run) runs the commands between the install markers, and the README's test
    command; both must be there, in a shell block."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- install -->\n```sh\n(.*?)\n```\n<!-- /install -->", text, re.DOTALL)
    assert block, "the install block, between <!-- install --> and <!-- /install -->"
    commands = block[1].splitlines()
    assert any("pip install ." in line for line in commands)
    assert commands[-1].endswith("coloretto play"), "the last command starts a game"
    assert 'python3 -m pip install -e ".[test]" && python3 -m pytest -n auto' in text
