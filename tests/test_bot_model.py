"""Opponent models: seats fitted to what they did, and the search's time cap in rollouts."""

from __future__ import annotations

from coloretto.bots.expert import ExpertBot
from coloretto.bots.model import Decision, decisions, policies, take_thresholds
from coloretto.bots.registry import make_bot
from coloretto.bots.search import SearchBot
from coloretto.engine import GameState, Rules, new_game


def played(specs: list[str], moves: int, seed: int = 3) -> tuple[GameState, list[Decision]]:
    """A 4-player game after ``moves`` moves of the bots ``specs``, and its decisions."""
    bots = [make_bot(spec, seed=seed) for spec in specs]
    state = new_game(Rules(players=4), seed=seed)
    chosen = []
    while len(state.history()) < moves:
        seat = state.current_player
        view, legal = state.view(seat), state.legal_actions()
        action = bots[seat].choose(view, legal)
        if len(legal) > 1:
            chosen.append(Decision(seat, view, legal, action))
        state = state.apply(action)
    return state, chosen


def test_the_decisions_are_replayed_from_the_public_history() -> None:
    state, chosen = played(["expert", "builder", "taker", "denial"], 60)
    past = decisions(state.view(2))
    assert [(d.seat, d.legal, d.action) for d in past] == [
        (d.seat, d.legal, d.action) for d in chosen
    ]
    assert [d.view.rows for d in past] == [d.view.rows for d in chosen]
    assert [d.view.collections for d in past] == [d.view.collections for d in chosen]


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
    names = [name for name, _ in policies(view, ExpertBot(observe=False), decisions(view))]
    assert names == ["default", "builder", "taker", "netgain"]


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
