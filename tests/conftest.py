"""Shared helpers: deals with a chosen deck order, and scripted play."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import textwrap
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from coloretto.engine import COLOURS, DRAW, Action, Card, GameState, Rules, Setup, deal
from coloretto.engine.setup import full_deck
from tests.processes import PROC, RUN, alive, end_all, gone, left_behind

BELOW = 15
"""Cards below the Last Round card."""


OWN_RUN = pytest.StashKey[str]()
"""The name of the run, in the process that named it (not in xdist's workers)."""

LEFT_WITHIN = 15.0
"""Seconds the processes a run started may take to end once its tests are done."""


def pytest_configure(config: pytest.Config) -> None:
    """Name this run (``RUN`` in the environment every process a test starts inherits)
    unless it is part of a run already named (an xdist worker)."""
    if RUN not in os.environ:
        os.environ[RUN] = config.stash[OWN_RUN] = uuid.uuid4().hex


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fail the run if processes its tests started outlive them (servers killed whose bot
    workers live on, pools never shut down, a tmux or PostgreSQL left running): they are
    listed, then killed. Only this run's processes count (``RUN``), never another run's."""
    token = session.config.stash.get(OWN_RUN, None)
    if token is None or not PROC.exists():
        return
    workers = session.config.pluginmanager.has_plugin("dsession")  # xdist's
    left = left_behind(token, os.getpid(), workers=workers)
    if not gone(left, LEFT_WITHIN):
        return
    report = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = alive(left)
    if report is not None:
        report.write("\n")
        report.write_sep("-", f"the tests left {len(lines)} processes running", red=True)
        for line in lines:
            report.write_line(f"  {line[:160]}")
    end_all(left)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def data_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data directory (saves, history, statistics, log)."""
    home = tmp_path_factory.mktemp("coloretto-home")
    monkeypatch.setenv("COLORETTO_HOME", str(home))
    return home


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The full-screen commands believe they run in a terminal (their app is not run)."""
    monkeypatch.setattr("coloretto.cli.parser.on_terminal", lambda: True)


def make_setup(
    rules: Rules,
    *,
    top: Sequence[Card] = (),
    before_last: Sequence[Card] = (),
    below: Sequence[Card] = (),
    bottom: Sequence[Card] = (),
    removed: Sequence[Card] | None = None,
    starting: Sequence[Sequence[Card]] | None = None,
    first_player: int = 0,
    filler_seed: int = 0,
) -> Setup:
    """A valid deal with a chosen deck order.

    The deck (top first) is ``top``, filler, ``before_last``, the Last Round
    card, ``below``, filler, ``bottom``; exactly 15 cards lie below the Last
    Round card. The filler is every other card of the rules' deck, in an
    order fixed by ``filler_seed``; a golden joker not placed explicitly goes
    to the very bottom, so that it cannot draw cards before the last round.
    """
    if removed is None:
        removed = tuple(COLOURS[rules.colour_count :])
    removed = tuple(removed)
    in_play = [c for c in COLOURS if c not in removed]
    if starting is None:
        k = rules.starting_cards
        starting = [in_play[s * k : (s + 1) * k] for s in range(rules.seats)]
    starting = tuple(tuple(hand) for hand in starting)
    rest = full_deck(rules, removed) - Counter(c for hand in starting for c in hand)
    chosen = Counter([*top, *before_last, *below, *bottom])
    if rest[Card.GOLDEN_JOKER] and not chosen[Card.GOLDEN_JOKER]:
        bottom = (*bottom, Card.GOLDEN_JOKER)
        chosen[Card.GOLDEN_JOKER] += 1
    assert not chosen - rest, f"cards not available: {chosen - rest}"
    filler = sorted((rest - chosen).elements())
    random.Random(filler_seed).shuffle(filler)
    n_after = BELOW - len(below) - len(bottom)
    assert n_after >= 0
    after_fill = filler[len(filler) - n_after :] if n_after else []
    before_fill = filler[: len(filler) - n_after]
    deck = (
        *top,
        *before_fill,
        *before_last,
        Card.LAST_ROUND,
        *below,
        *after_fill,
        *bottom,
    )
    setup = Setup(removed, starting, tuple(deck), first_player)
    setup.check(rules)
    return setup


def start(rules: Rules, **kwargs: object) -> GameState:
    """``GameState.from_setup`` with ``make_setup(rules, **kwargs)``."""
    return GameState.from_setup(rules, make_setup(rules, **kwargs))  # type: ignore[arg-type]


def cards_consumed(state: GameState) -> int:
    """How many deck positions the history has used (Last Round card included)."""
    used = 0
    for move in state.history():
        if move.action == DRAW or move.card is not None:
            used += 1 + move.last_round
    return used


def spread_place(state: GameState) -> GameState:
    """Place the drawn card on the open, non-full row holding fewest cards."""
    legal = state.legal_actions()
    assert legal, "nothing to do"
    assert all(a.kind == "place" for a in legal), legal
    best = min(legal, key=lambda a: (len(state.rows[a.row]), a.row))
    return state.apply(best)


def first_take(state: GameState) -> Action:
    return next(a for a in state.legal_actions() if a.kind == "take")


def play_round(state: GameState, cards: int) -> GameState:
    """Draw and spread ``cards`` cards over the rows, then every seat takes in turn."""
    start_round = state.round
    for _ in range(cards):
        assert DRAW in state.legal_actions()
        state = spread_place(state.apply(DRAW))
    while not state.is_over and state.round == start_round:
        state = state.apply(first_take(state))
    return state


def draw_is_next(cards_before: int) -> Callable[[GameState], bool]:
    """A test for a turn that may draw, ``cards_before`` cards before the Last Round card."""

    def test(state: GameState) -> bool:
        return (
            state.cards_before_last_round == cards_before
            and state.drawn_card is None
            and state.is_legal(DRAW)
        )

    return test


def round_sizes(total: int, capacity: int, minimum: int) -> list[int]:
    """Split ``total`` cards into rounds of ``minimum``..``capacity`` cards."""
    sizes = []
    while total:
        k = min(capacity, total)
        if 0 < total - k < minimum:
            k = total - minimum
        sizes.append(k)
        total -= k
    return sizes


def play_to_last_round_card(state: GameState) -> GameState:
    """Play whole rounds until the Last Round card is the top card at a round start."""
    rules = state.rules
    minimum = rules.seats * rules.takes_per_round
    remaining = state.cards_before_last_round
    assert remaining is not None
    for k in round_sizes(remaining, sum(rules.row_capacities), minimum):
        state = play_round(state, k)
    assert state.cards_before_last_round == 0
    assert all(not row for row in state.rows)
    return state


def random_play(
    state: GameState,
    rng: random.Random,
    steps: int | None = None,
    until: Callable[[GameState], bool] | None = None,
) -> GameState:
    """Play random legal actions (at most ``steps``, or until ``until`` holds or the end)."""
    n = 0
    while not state.is_over and (steps is None or n < steps):
        if until is not None and until(state):
            break
        state = state.apply(rng.choice(state.legal_actions()))
        n += 1
    return state


def play_out(state: GameState, seed: int = 0) -> GameState:
    return random_play(state, random.Random(seed))


ALL_RULES: tuple[Rules, ...] = (
    *(
        Rules(players=p, scoring=s, edition=e)
        for p in (2, 3, 4, 5)
        for s in ("brown", "gray")
        for e in ("classic", "anniversary")
    ),
    *(
        Rules(players=2, variant=v, edition=e)
        for v in ("four-rows", "ghost")
        for e in ("classic", "anniversary")
    ),
)


def rules_id(rules: Rules) -> str:
    return f"{rules.players}p-{rules.variant}-{rules.scoring}-{rules.edition}"


def counter(cards: Iterable[Card]) -> Counter[Card]:
    return Counter(cards)


@pytest.fixture
def rng() -> random.Random:
    return random.Random(12345)


__all__ = [
    "ALL_RULES",
    "BELOW",
    "cards_consumed",
    "deal",
    "draw_is_next",
    "first_take",
    "make_setup",
    "play_out",
    "play_round",
    "play_to_last_round_card",
    "random_play",
    "round_sizes",
    "rules_id",
    "spread_place",
    "start",
]


def raw_save(
    game: GameState,
    seats: Sequence[str],
    players: Sequence[tuple[str, str | None]],
    *,
    session_id: str = "20261121-101010-abcdef",
    seed: int = 0,
    **settings: object,
) -> dict[str, Any]:
    """A save as JSON data, written field by field as ``meta.session`` holds it, so that a
    test can put in it what the game itself would never write."""
    from coloretto.engine import to_record  # noqa: PLC0415 (only some tests need it)

    session = {
        "id": session_id,
        "players": [{"name": name, "bot": bot} for name, bot in players],
        "match": {"seed": seed, "game": 1, "results": []},
        **settings,
    }
    return to_record(game, list(seats), {"session": session})


ROOT = Path(__file__).resolve().parent.parent
"""The checkout, put on the path of the processes the tests start."""


def run_coloretto(
    home: Path | None, *argv: str, timeout: float = 60, columns: int = 200
) -> subprocess.CompletedProcess[str]:
    """``python -m coloretto ARGV`` as a real process whose input and output are pipes, not
    a terminal, with ``home`` as its data directory (the environment's when ``None``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": str(columns)}
    if home is not None:
        env["COLORETTO_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "coloretto", *argv],
        capture_output=True,
        stdin=subprocess.DEVNULL,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=env,
        check=False,
    )


def install_bots(
    site: Path, monkeypatch: pytest.MonkeyPatch, module: str, source: str, bots: Sequence[str]
) -> Path:
    """A third-party package of bots installed on the path (for child processes too: put
    ``site`` on their ``PYTHONPATH``): the module ``module`` holding ``source``, its bots
    registered as ``coloretto.bots`` entry points (``"name = module:Factory"`` each)."""
    site.mkdir()
    (site / f"{module}.py").write_text(textwrap.dedent(source))
    dist = site / f"{module}-1.0.dist-info"
    dist.mkdir()
    name = module.replace("_", "-")
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("\n".join(["[coloretto.bots]", *bots, ""]))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, module, raising=False)
    return site
