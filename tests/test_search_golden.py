"""The bots compute exactly what they did: seeded games' actions and analyses against a
kept record (``tests/search_golden.py`` makes it; regenerated only when the bots' play is
meant to change)."""

from __future__ import annotations

import json

from tests.search_golden import GOLDEN, GOLDEN_GAMES, record


def test_seeded_games_and_analyses_are_exactly_as_recorded() -> None:
    kept = json.loads(GOLDEN.read_text())
    assert len(kept) == GOLDEN_GAMES
    # Through JSON, as kept: floats are written exactly, tuples become lists.
    assert json.loads(json.dumps(record(GOLDEN_GAMES))) == kept
