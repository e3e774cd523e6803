"""Opponent models: seats fitted to what they did, and the search's time cap in rollouts."""

from __future__ import annotations

import math
import random
import time
from typing import Any

from coloretto.bots import model
from coloretto.bots.base import Bot
from coloretto.bots.expert import ExpertBot
from coloretto.bots.model import (
    DEFAULT_BELIEF,
    FAMILY,
    POLICY_WINDOW,
    Memory,
    Mixed,
    SeenDecision,
    decisions,
    fit_opponents,
    take_thresholds,
)
from coloretto.bots.parametric import ParametricBot
from coloretto.bots.registry import make_bot
from coloretto.bots.search import SearchBot
from coloretto.engine import ActionKind, GameState, PlayerView, Rules, new_game


def played(
    specs: list[str | Bot], moves: int, seed: int = 3
) -> tuple[GameState, list[SeenDecision]]:
    """A 4-player game after ``moves`` moves of the bots ``specs`` (names or bots), and
    its decisions."""
    bots = [make_bot(spec, seed=seed) if isinstance(spec, str) else spec for spec in specs]
    state = new_game(Rules(players=4), seed=seed)
    chosen = []
    while len(state.history()) < moves:
        seat = state.current_player
        view, legal = state.view(seat), state.legal_actions()
        action = bots[seat].choose(view, legal)
        if len(legal) > 1:
            chosen.append(SeenDecision(seat, view, legal, action))
        state = state.apply(action)
    return state, chosen


def likeliest(*args: Any, **options: Any) -> list[tuple[str, Bot | None]] | None:
    """``fit_opponents``'s likeliest policy per seat, or ``None`` with no table."""
    table = fit_opponents(*args, **options)
    return None if table is None else table.likeliest


def test_the_decisions_are_replayed_from_the_public_history() -> None:
    state, chosen = played(["expert", "builder", "taker", "denial"], 60)
    past = decisions(state.view(2))
    assert [(d.seat, d.legal, d.action) for d in past] == [
        (d.seat, d.legal, d.action) for d in chosen
    ]
    assert [d.view.rows for d in past] == [d.view.rows for d in chosen]
    assert [d.view.collections for d in past] == [d.view.collections for d in chosen]


def _seen(past: list[SeenDecision]) -> list[tuple[object, ...]]:
    """What the decisions show: who decided, when, among what, and the position they saw."""
    return [
        (d.seat, d.ply, d.legal, d.action, d.taking, d.view.seat, d.view.rows,
         d.view.collections, d.view.drawn_card, d.view.unseen(), d.view.deck_size,
         d.view.cards_before_last_round, d.view.last_round, d.view.last_move)
        for d in past
    ]  # fmt: skip


def test_a_memory_finds_the_decisions_a_replay_from_the_deal_finds() -> None:
    # Asked now and then as games go on (two with a golden joker, whose take brings a card
    # from the deck), then about earlier points of a game, and about another game (with
    # the same rules, after its first move: every history begins with no moves).
    memory = Memory()
    brought = 0
    views: list[list[PlayerView]] = []
    golden = Rules(players=4, edition="anniversary")
    for rules, seed in [(golden, 1), (golden, 2), (Rules(players=2, variant="ghost"), 3)]:
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        views.append([])
        while not state.is_over:
            view = state.view(state.current_player)
            views[-1].append(view)
            if rng.random() < 0.4:
                assert _seen(memory.decisions(view)) == _seen(decisions(view))
            state = state.apply(rng.choice(state.legal_actions()))
            move = state.last_move
            assert move is not None
            brought += move.action.kind is ActionKind.TAKE and move.card is not None
        assert _seen(memory.decisions(state.view(0))) == _seen(decisions(state.view(0)))
    assert brought, "a golden joker should have brought a card in with a take"
    last = views[-1]
    for view in (last[len(last) // 2], last[-10], last[5], views[0][0], views[1][30], last[-1]):
        assert _seen(memory.decisions(view)) == _seen(decisions(view))


def test_patient_seats_get_high_thresholds_and_snatchers_low_ones() -> None:
    state = played(["expert", "builder", "taker", "builder"], 120)[0]
    view = state.view(0)
    thresholds = take_thresholds(view, 3.0, decisions(view))
    assert thresholds[1] > 5.0
    assert thresholds[3] > 5.0
    assert thresholds[2] < 2.0


def test_each_seat_is_explained_by_the_style_it_plays() -> None:
    state = played(["expert", "builder", "taker", "netgain"], 120)[0]
    view = state.view(0)
    names = [name for name, _ in likeliest(view, ExpertBot(observe=False), decisions(view))]
    assert names == ["default", "builder", "taker", "netgain"]


def test_a_seat_outside_the_family_is_fitted_rule_by_rule() -> None:
    # Seat 2 takes at a gain of 2 and places to spoil the next seat's best row, which no
    # named style does: its takes and placements, fitted apart, are matched far better.
    spoiler = ParametricBot(threshold=2, spite=4, victim="next", longer=False)
    state = played(["expert", "builder", spoiler, "taker"], 120, seed=2)[0]
    view = state.view(0)
    past = decisions(view)
    fitted = likeliest(view, ExpertBot(observe=False), past)
    name, bot = fitted[2]
    assert isinstance(bot, Mixed), name
    assert [n for n, _ in fitted[:2]] == ["default", "builder"]
    assert fitted[3][0] == "taker"  # a style that explains both keeps its own placements

    def misses(model: Bot) -> int:
        mine = [d for d in past if d.seat == 2]
        return sum(model.choose(d.view, d.legal) != d.action for d in mine)

    assert misses(bot) + 2 <= min(misses(make()) for make in FAMILY.values())
    assert misses(bot) < misses(ExpertBot(observe=False))


def test_a_seat_that_looks_one_card_ahead_is_fitted_to_a_waiting_rule() -> None:
    # Seat 1 takes once one more card would not add half a point on average: no
    # threshold explains when it takes as well as a rule that waits as it does.
    waiter = ParametricBot(threshold=math.inf, wait=0.5, longer=False)
    state = played(["expert", waiter, "taker", "builder"], 100, seed=4)[0]
    view = state.view(0)
    fitted = likeliest(view, ExpertBot(observe=False), decisions(view))
    assert [name for name, _ in fitted] == ["default", "wait0.5/spite0-short", "taker", "builder"]


def test_a_table_of_one_style_is_recognised_from_everyone_s_decisions() -> None:
    # After 16 moves one waiter among other styles has not shown enough to be told from
    # the default; three of them, fitted together, have.
    def waiter() -> ParametricBot:
        return ParametricBot(threshold=math.inf, wait=0.5, longer=False)

    alone = played(["expert", waiter(), "taker", "builder"], 16, seed=4)[0].view(0)
    fitted = likeliest(alone, ExpertBot(observe=False), decisions(alone))
    assert [name for name, _ in fitted] == ["default", "default", "taker", "builder"]
    table = played(["expert", waiter(), waiter(), waiter()], 16, seed=4)[0].view(0)
    fitted = likeliest(table, ExpertBot(observe=False), decisions(table))
    assert [name for name, _ in fitted] == ["default"] + ["builder/spite0-short"] * 3


def test_before_anyone_has_decided_the_table_is_drawn_from_the_prior() -> None:
    # The default (the expert) as often as DEFAULT_BELIEF; else every rule alike, so the
    # draws spread over many policies.
    view = new_game(Rules(players=4), seed=1).view(0)
    expert = ExpertBot(observe=False)
    table = fit_opponents(view, expert, [])
    assert table is not None
    assert [name for name, _ in table.likeliest] == ["default"] * 4
    rng = random.Random(1)
    draws = [table.sample(rng) for _ in range(2000)]
    assert all(players[0] is expert for players in draws)
    seat_1 = [players[1] for players in draws]
    assert abs(sum(bot is expert for bot in seat_1) / 2000 - DEFAULT_BELIEF) < 0.05
    assert len({id(bot) for bot in seat_1}) > 100
    assert any(players[1] is not players[2] for players in draws)  # drawn seat by seat


def test_a_seat_s_draws_follow_its_decisions_once_it_has_shown_its_style() -> None:
    state = played(["expert", "builder", "taker", "netgain"], 120)[0]
    view = state.view(0)
    past = decisions(view)
    table = fit_opponents(view, ExpertBot(observe=False), past)
    assert table is not None
    likeliest = [bot for _, bot in table.likeliest]
    rng = random.Random(2)
    draws = [table.sample(rng) for _ in range(200)]

    def misses(model: Bot, seat: int) -> int:
        fitted = [d for d in past if d.seat == seat][-POLICY_WINDOW:]
        return sum(model.choose(d.view, d.legal) != d.action for d in fitted)

    for seat in (1, 2, 3):
        # Mostly rules that explain the seat's latest decisions as well as the likeliest
        # does, and every one better than the default.
        mine = [players[seat] for players in draws]
        best, default = misses(likeliest[seat], seat), misses(table.default, seat)
        assert sum(misses(bot, seat) <= best for bot in mine) >= 150
        assert all(misses(bot, seat) < default for bot in mine)


def test_a_table_of_one_style_draws_one_policy_for_everyone() -> None:
    waiters = [ParametricBot(threshold=math.inf, wait=0.5, longer=False) for _ in range(3)]
    view = played(["expert", *waiters], 16, seed=4)[0].view(0)
    table = fit_opponents(view, ExpertBot(observe=False), decisions(view))
    assert table is not None
    rng = random.Random(3)
    for _ in range(50):
        players = table.sample(rng)
        assert players[1] is players[2] is players[3]
    assert len({id(table.sample(rng)[1]) for _ in range(200)}) > 1  # but not always the same


def test_the_search_plays_each_deal_with_a_table_drawn_for_it_or_the_likeliest() -> None:
    state = played(["expert", "builder", "taker", "netgain"], 120)[0]
    view = state.view(state.current_player)
    sampled, likeliest = SearchBot(iterations=8, sample=True), SearchBot(iterations=8)
    sampled._observe(view, time.perf_counter(), None)
    likeliest._observe(view, time.perf_counter(), None)
    assert sampled._opponents is not None
    assert likeliest._opponents is not None
    expected = [bot or likeliest._expert for _, bot in likeliest._opponents.likeliest]
    assert any(bot is not likeliest._expert for bot in expected)
    assert likeliest._players == expected
    tables = set()
    for _ in range(20):
        likeliest._deal(view)
        assert likeliest._players == expected
        sampled._deal(view)
        tables.add(tuple(id(bot) for bot in sampled._players))
    assert len(tables) > 1


def test_an_expert_that_does_not_observe_expects_its_threshold_of_everyone() -> None:
    view = played(["expert", "builder", "taker", "builder"], 80)[0].view(0)
    assert ExpertBot(observe=False, threshold=4).expected_thresholds(view) == [4.0] * 4
    assert ExpertBot().expected_thresholds(view) != [3.0] * 4


def test_the_search_keeps_its_time_cap_inside_the_rollouts() -> None:
    # A cap too short for any deal: no rollout is finished, the expert's move is played.
    state, _ = played(["expert"] * 4, 40)
    bot = SearchBot(seconds=1e-9, iterations=100)
    while True:
        view, legal = state.view(state.current_player), state.legal_actions()
        action = bot.choose(view, legal)
        if len(bot._candidates(view, legal)) > 1:
            break
        state = state.apply(action)
    assert bot.last_iterations == 0
    assert action == bot._candidates(view, legal)[0]


def test_a_fit_past_its_deadline_falls_back_to_the_last_one_of_the_game() -> None:
    state = played(["expert", "builder", "taker", "netgain"], 120)[0]
    expert = ExpertBot(observe=False)
    late = time.perf_counter()
    memory = Memory()
    view = state.view(0)
    assert likeliest(view, expert, memory.decisions(view), memory, "x", deadline=late) is None
    fitted = likeliest(view, expert, memory.decisions(view), memory, "x")
    assert fitted is not None
    assert [name for name, _ in fitted] == ["default", "builder", "taker", "netgain"]
    later = state.apply(state.legal_actions()[0]).view(0)
    assert likeliest(later, expert, memory.decisions(later), memory, "y", deadline=late) == fitted
    other = played(["expert", "builder", "taker", "netgain"], 120, seed=5)[0].view(0)
    assert likeliest(other, expert, memory.decisions(other), memory, "x", deadline=late) is None


def test_a_fit_cut_short_goes_on_from_where_it_stopped() -> None:
    state = played(["expert", "builder", "taker", "netgain"], 120)[0]
    view = state.view(0)
    expert = ExpertBot(observe=False)
    started = time.perf_counter()
    whole = likeliest(view, expert, decisions(view), Memory(), "x")
    window = (time.perf_counter() - started) / 20  # as slow a machine, as short a try
    memory = Memory()
    fitted, tries = None, 0
    while fitted is None and tries < 10_000:
        soon = time.perf_counter() + window
        fitted = likeliest(view, expert, memory.decisions(view), memory, "x", deadline=soon)
        tries += 1
    assert fitted is not None
    assert [name for name, _ in fitted] == [name for name, _ in whole or ()]
    assert tries > 1  # a twentieth of a whole fit is too short for it, but each try gets on


def test_the_search_s_time_cap_covers_fitting_the_opponents() -> None:
    # A cap too short for the fit leaves every seat to the expert in the rollouts.
    state, _ = played(["expert", "builder", "taker", "netgain"], 120)
    view, legal = state.view(state.current_player), state.legal_actions()
    capped, uncapped = SearchBot(seconds=1e-9, iterations=100), SearchBot(iterations=1)
    capped.choose(view, legal)
    uncapped.choose(view, legal)
    assert capped._opponents is None
    assert uncapped._opponents is not None
    assert any(bot is not None for _, bot in uncapped._opponents.likeliest)


def test_memories_share_decisions_only_where_the_histories_agree() -> None:
    # Two games of one deal part after 40 moves. A memory made for the second takes up the
    # first's decisions (and its rules' verdicts) from before the parting only: its
    # decisions and fits are those of a memory that shares nothing.
    first, _ = played(["expert", "builder", "taker", "denial"], 90)
    state = new_game(Rules(players=4), seed=3)
    for move in first.history()[:40]:
        state = state.apply(move.action)
    rng = random.Random(1)
    while state.ply < 90:
        state = state.apply(rng.choice(state.legal_actions()))
    assert state.history()[40:] != first.history()[40:]
    expert = ExpertBot(observe=False)
    likeliest(first.view(0), expert, Memory().decisions(first.view(0)))
    shared = Memory().decisions(state.view(0))
    assert any(d.rules for d in shared)  # the first game's verdicts, before the parting
    model._SHARED.clear()
    alone = Memory().decisions(state.view(0))
    assert not any(d.rules for d in alone)
    assert _seen(shared) == _seen(alone)
    one, other = (fit_opponents(state.view(0), expert, past) for past in (shared, alone))
    assert one is not None
    assert other is not None
    assert one.fitted == other.fitted  # every rule's fit to every seat, exactly
