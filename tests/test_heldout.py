"""The held-out opponents (``benchmarks/heldout``): legal, reproducible, and apart from the
search bot's model family, which is what makes them a fair test of it."""

from __future__ import annotations

import importlib.util
import random
import tomllib
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from coloretto.bots.model import FAMILY, PLACE_RULES, TAKE_RULES
from coloretto.engine import Action, GameState, Rules, new_game

LATER = ("heldout-counter", "heldout-leader", "heldout-halfway", "heldout-dumper")
"""Written after the model learned parametric rules (the halfway and dumper players after
its waiting rule too), and kept apart from those too."""
HELDOUT = Path(__file__).parents[1] / "benchmarks" / "heldout" / "coloretto_heldout"


def _load() -> ModuleType:
    """The held-out package from its source (the suite does not install it)."""
    spec = importlib.util.spec_from_file_location("coloretto_heldout", HELDOUT / "__init__.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


STYLES: dict[str, type] = _load().STYLES
RULES = [Rules(players=p, scoring=s) for p in (2, 4, 5) for s in ("brown", "gray")]


def _play(rules: Rules, name: str, seed: int) -> GameState:
    bots = [STYLES[name](seed=seed + seat) for seat in range(rules.seats)]
    state = new_game(rules, seed=seed)
    while not state.is_over:
        legal = state.legal_actions()
        action = bots[state.current_player].choose(state.view(state.current_player), legal)
        assert action in legal, f"{name} played {action}, not legal in {state}"
        state = state.apply(action)
    return state


def test_every_heldout_player_is_registered_under_its_name() -> None:
    # ``coloretto arena --against heldout-...`` finds the players through these entry points.
    pyproject = tomllib.loads((HELDOUT.parent / "pyproject.toml").read_text())
    points = pyproject["project"]["entry-points"]["coloretto.bots"]
    assert points == {name: f"coloretto_heldout:{bot.__name__}" for name, bot in STYLES.items()}


@pytest.mark.parametrize("name", sorted(STYLES))
def test_heldout_players_play_legal_games_and_repeat_them_for_a_seed(name: str) -> None:
    for i, rules in enumerate(RULES):
        first = _play(rules, name, seed=i)
        assert first.history() == _play(rules, name, seed=i).history()


@cache
def _decisions() -> list[tuple[GameState, tuple[Action, ...]]]:
    """Positions with a choice, from 4-player games of random play."""
    found = []
    for game in range(6):
        rng = random.Random(5 + game)
        state = new_game(Rules(players=4, scoring=rng.choice(("brown", "gray"))), seed=game)
        while not state.is_over:
            legal = state.legal_actions()
            if len(legal) > 1:
                found.append((state, legal))
            state = state.apply(rng.choice(legal))
    return found


@cache
def _family_choices() -> dict[str, list[Action]]:
    """What each member of the search bot's model family plays in ``_decisions()``."""
    choices = {}
    for known, make in FAMILY.items():
        bot = make()
        choices[known] = [bot.choose(s.view(s.current_player), legal) for s, legal in _decisions()]
    return choices


@pytest.mark.parametrize("name", sorted(STYLES))
def test_no_heldout_player_is_a_style_the_search_bot_knows(name: str) -> None:
    positions = _decisions()
    player = STYLES[name](seed=1)
    theirs = [player.choose(s.view(s.current_player), legal) for s, legal in positions]
    for known, ours in _family_choices().items():
        differ = sum(a != b for a, b in zip(theirs, ours, strict=True)) / len(positions)
        assert differ > 0.1, f"{name} plays as {known} does in {1 - differ:.0%} of positions"


@pytest.mark.parametrize("name", LATER)
def test_the_later_heldout_players_are_no_pair_of_the_models_rules(name: str) -> None:
    # The model fits takes and placements apart: even the best rule for each side must
    # miss this player's choice in one position in twenty.
    positions = _decisions()
    player = STYLES[name](seed=1)
    misses = 0
    for placing, rules in ((False, {**FAMILY, **TAKE_RULES}), (True, {**FAMILY, **PLACE_RULES})):
        mine = [(s, legal) for s, legal in positions if (s.drawn_card is not None) == placing]
        theirs = [player.choose(s.view(s.current_player), legal) for s, legal in mine]
        misses += min(
            sum(
                a != rule.choose(s.view(s.current_player), legal)
                for a, (s, legal) in zip(theirs, mine, strict=True)
            )
            for rule in (make() for make in rules.values())
        )
    assert misses / len(positions) > 0.05
