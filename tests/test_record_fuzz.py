"""Fuzzing the record loader: real records and saves, mutated (every field's type changed,
parts removed or cut short, nested, huge numbers, wrong lengths, truncated text) give a
valid game or a clean ``RecordError``, never any other exception."""

from __future__ import annotations

import contextlib
import copy
import json
import math
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coloretto.engine import Match, RecordError, Rules, to_record
from coloretto.engine.record import load_record
from coloretto.play.config import GameConfig, Player
from coloretto.play.saving import session_from_record, session_record
from coloretto.play.session import Session
from coloretto.store.records import read_record
from tests.conftest import random_play


def _save(rules: Rules, seed: int, steps: int | None) -> dict[str, Any]:
    match = Match.start(rules, seed)
    game = random_play(match.game, random.Random(seed), steps)
    players = tuple(
        Player("Ana") if p == 0 else Player(f"Bot {p}", "easy") for p in range(rules.players)
    )
    session = Session(
        GameConfig(rules, players), Match(rules, seed, game), "20261121-101010-abcdef"
    )
    record = session_record(session)
    return json.loads(json.dumps(to_record(record.state, record.seats, record.meta)))


def rules_names(rules: Rules) -> tuple[str, ...]:
    names = ["Ana", *(f"Bot {p}" for p in range(1, rules.players))]
    return tuple(names + [f"{n}'s ghost" for n in names][: rules.seats - rules.players])


ORIGINALS = (
    _save(Rules(players=3), 1, 12),
    _save(Rules(players=2, variant="ghost", edition="anniversary"), 2, None),
    _save(Rules(players=5, scoring="gray", games=3), 3, 40),
)
"""Real saves: a game in progress, a finished ghost game, a match's first game."""

LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**25, max_value=10**40),
    st.sampled_from([-1, 0, 1, 2, 99, 2**63, -(2**63)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["draw", "place 1", "take 9", "joker", "+2", "last-round", "brown", ""]),
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (the keys and indices leading to it)."""
    places = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            places += _places(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            places += _places(item, (*path, i))
    return places


def _mutate(record: dict[str, Any], path: tuple[Any, ...], how: str, new: Any) -> Any:
    """``record`` with the value at ``path`` changed ``how``."""
    if not path:
        return new
    parent = record
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    old = parent[last]
    if how == "replace":
        parent[last] = new
    elif how == "delete":
        del parent[last]
    elif how == "nest":
        parent[last] = [[[old]]] if isinstance(new, bool) else {"x": {"y": old}}
    elif how == "shorten" and isinstance(old, list | str):
        parent[last] = old[: len(old) // 2]
    elif how == "lengthen" and isinstance(old, list):
        parent[last] = [*old, new]
    elif how == "number" and isinstance(old, int | float):
        parent[last] = old + 1 if isinstance(new, bool) else -old - 1
    else:
        parent[last] = new
    return record


def _check(data: Any) -> None:
    """Loading gives a game (then a save, then a session) or a ``RecordError``."""
    with contextlib.suppress(RecordError):
        session_from_record(load_record(data))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    original=st.sampled_from(ORIGINALS),
    choice=st.integers(min_value=0),
    how=st.sampled_from(["replace", "delete", "nest", "shorten", "lengthen", "number"]),
    new=VALUES,
)
def test_a_mutated_record_loads_or_is_refused_cleanly(
    original: dict[str, Any], choice: int, how: str, new: Any
) -> None:
    record = copy.deepcopy(original)
    places = _places(record)
    _check(_mutate(record, places[choice % len(places)], how, new))


@settings(max_examples=100, deadline=None)
@given(
    original=st.sampled_from(ORIGINALS),
    mutations=st.lists(
        st.tuples(
            st.integers(min_value=0),
            st.sampled_from(["replace", "delete", "nest", "shorten", "lengthen", "number"]),
            VALUES,
        ),
        min_size=2,
        max_size=6,
    ),
)
def test_many_mutations_at_once(original: dict[str, Any], mutations: list[Any]) -> None:
    record: Any = copy.deepcopy(original)
    for choice, how, new in mutations:
        if not isinstance(record, dict):
            break
        places = _places(record)
        record = _mutate(record, places[choice % len(places)], how, new)
    _check(record)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    original=st.sampled_from(ORIGINALS),
    cut=st.floats(min_value=0, max_value=1),
    junk=st.sampled_from(["", "[" * 5000, "1" * 5000, "\x00", "\xff", "}", '"\\ud800"']),
)
def test_a_damaged_file_is_refused_cleanly(
    tmp_path_factory: Any, original: dict[str, Any], cut: float, junk: str
) -> None:
    text = json.dumps(original, indent=1)
    path = Path(tmp_path_factory.mktemp("fuzz")) / "record.json"
    path.write_text(text[: math.floor(len(text) * cut)] + junk, encoding="utf-8", errors="replace")
    try:
        read_record(path)
        problem = f"{path}: none"
    except RecordError as error:
        problem = str(error)
    assert problem.startswith(f"{path}: ")


def test_the_originals_load() -> None:
    for original in ORIGINALS:
        session_from_record(load_record(original))
