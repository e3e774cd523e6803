"""The search bot's learnt value of a round's end (``coloretto.bots.value``)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from coloretto.bots.registry import BotError, make_bot
from coloretto.bots.search import seat_values
from coloretto.bots.value import FEATURES, ValueNet, features, value_net
from coloretto.engine import GameState, Rules, new_game

GRAY_4 = Rules(players=4, scoring="gray")


def test_a_network_ships_for_four_gray_seats_only() -> None:
    net = value_net(GRAY_4)
    assert net is not None
    assert len(net.mean) == FEATURES
    for rules in (
        Rules(players=4),
        Rules(players=3, scoring="gray"),
        Rules(players=5, scoring="gray"),
        Rules(players=4, scoring="gray", edition="anniversary"),
    ):
        assert value_net(rules) is None, rules


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_features_describe_any_table(players: int) -> None:
    state = new_game(Rules(players=players, scoring="gray"), seed=players)
    for seat in range(players):
        found = features(state, seat, seat_values(state))
        assert len(found) == FEATURES
        assert all(isinstance(x, float) for x in found)


def _net_json() -> dict[str, object]:
    net = value_net(GRAY_4)
    assert net is not None
    return net.to_json()


def test_a_network_survives_its_json() -> None:
    net = value_net(GRAY_4)
    assert net is not None
    again = ValueNet.from_json(json.loads(json.dumps(net.to_json())))
    state = new_game(GRAY_4, seed=5)
    inputs = features(state, 1, seat_values(state))
    assert again.win(inputs) == net.win(inputs)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: d.update(format="other/1"), "not a coloretto-value/1 network"),
        (lambda d: d.pop("layers"), "a malformed value network"),
        (lambda d: d.update(layers="nonsense"), "a malformed value network"),
        (lambda d: d.update(scale=[0.0] * FEATURES), "a positive scale for every input"),
        (lambda d: d.update(mean=[0.0] * 3), "a positive scale for every input"),
        (lambda d: d["layers"][0].update(biases=[0.0]), "layers do not fit together"),
        (lambda d: d["layers"].pop(), "ends in one output"),
    ],
)
def test_a_malformed_network_is_refused(damage: object, message: str) -> None:
    data = _net_json()
    damage(data)  # type: ignore[operator]
    with pytest.raises(ValueError, match=message):
        ValueNet.from_json(data)


def test_a_network_wants_as_many_inputs_as_it_was_trained_on() -> None:
    net = value_net(GRAY_4)
    assert net is not None
    with pytest.raises(ValueError, match=f"expected {FEATURES} inputs"):
        net.win([0.0] * (FEATURES - 1))


def _round_starts(games: int, seed: int) -> Iterator[tuple[GameState, int, float]]:
    """Every round's start of expert games against takers (gray, four seats), for one
    seat a game, with that seat's share of the win."""
    for game in range(games):
        hero = game % 4
        bots = [make_bot("expert" if p == hero else "taker", seed=seed + p) for p in range(4)]
        state = new_game(GRAY_4, seed=f"{seed}/{game}")
        starts = []
        round_ = state.round
        while not state.is_over:
            if state.round != round_:
                round_ = state.round
                starts.append(state)
            legal = state.legal_actions()
            player = state.current_player
            state = state.apply(bots[player].choose(state.view(player), legal))
        outcome = state.outcome()
        assert outcome is not None
        for start in starts:
            yield start, hero, outcome.share(hero)


def test_the_network_foretells_results_better_than_the_hand_made_estimate() -> None:
    # On games it was not trained on (other seeds), its chances are closer to what
    # happened than the logistic of the hand-made margin the search used before.
    net = value_net(GRAY_4)
    assert net is not None
    learnt = hand = 0.0
    count = 0
    for state, seat, won in _round_starts(150, seed=900):
        values = seat_values(state)
        inputs = features(state, seat, values)
        margin = inputs[0]
        learnt += (net.win(inputs) - won) ** 2
        hand += (1 / (1 + 2.718281828 ** (-margin / 8)) - won) ** 2
        count += 1
    assert count > 500
    assert learnt / count < 0.97 * hand / count  # 0.184 against 0.195 (Brier scores)


def test_the_value_option_counts_only_where_a_network_ships() -> None:
    def choices(rules: Rules, value: str) -> list[str]:
        bot = make_bot(f"search:iterations=6:value={value}", seed=3)
        found = []
        for seed in range(6):
            state = new_game(rules, seed=seed)
            for _ in range(12):
                legal = state.legal_actions()
                action = bot.choose(state.view(state.current_player), legal)
                found.append(str(action))
                state = state.apply(action)
        return found

    assert choices(Rules(players=4), "net") == choices(Rules(players=4), "hand")
    assert choices(GRAY_4, "net") != choices(GRAY_4, "hand")


def test_a_bad_value_option_names_it() -> None:
    with pytest.raises(BotError, match="value must be net or hand"):
        make_bot("search:value=deep")
