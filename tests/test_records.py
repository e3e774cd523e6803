"""Game records: writing, reading, replaying, and refusing bad records."""

from __future__ import annotations

import copy
import json
import random

import pytest
from conftest import ALL_RULES, play_out, random_play, rules_id, start

from coloretto.engine import (
    DRAW,
    FORMAT,
    Action,
    Card,
    GameRecord,
    GameState,
    RecordError,
    Rules,
    load_record,
    new_game,
    to_record,
)
from coloretto.store.records import read_record, write_record

CARD_NAMES = {
    "blue",
    "brown",
    "gray",
    "green",
    "orange",
    "pink",
    "yellow",
    "joker",
    "golden-joker",
    "+2",
    "last-round",
}


def snapshot(state: GameState) -> tuple[object, ...]:
    seats = state.rules.seats
    return (
        state.rules,
        state.setup,
        state.rows,
        tuple(state.collection(s) for s in range(seats)),
        state.scores(),
        state.history(),
        state.current_player,
        state.is_over,
        state.round,
        state.drawn_card,
        state.last_round,
        state.discards,
        state.deck_size,
        state.legal_actions(),
        state.final_scores() if state.is_over else None,
    )


def json_round_trip(state: GameState, seats=None) -> GameRecord:
    return load_record(json.loads(json.dumps(to_record(state, seats))))


def finished(rules: Rules = Rules(players=3), seed: int = 5) -> GameState:  # noqa: B008
    return play_out(new_game(rules, seed), seed)


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_round_trip_through_json_reproduces_the_game(rules):
    for steps in (0, 1, 23, None):
        game = random_play(new_game(rules, seed=7), random.Random(7), steps=steps)
        assert game.is_over == (steps is None)
        loaded = json_round_trip(game)
        assert loaded.rules == rules
        assert snapshot(loaded.state) == snapshot(game)
        assert to_record(loaded.state) == to_record(game)
        # the loaded game can be played on like the original
        if not game.is_over:
            action = game.legal_actions()[-1]
            assert snapshot(loaded.state.apply(action)) == snapshot(game.apply(action))


def test_record_contents():
    rules = Rules(players=3, scoring="gray", edition="anniversary")
    game = random_play(new_game(rules, seed="abc"), random.Random(1), steps=6)
    record = json.loads(json.dumps(to_record(game, ["Ann", "Bob", "Cy"])))
    assert record["format"] == FORMAT == "coloretto-record/1"
    assert record["rules"] == {
        "players": 3,
        "scoring": "gray",
        "edition": "anniversary",
        "variant": "standard",
        "games": 1,
    }
    assert record["seats"] == ["Ann", "Bob", "Cy"]
    setup = record["setup"]
    assert setup["seed"] == "abc"
    assert setup["first_player"] == game.setup.first_player
    assert setup["removed"] == [c.text for c in game.setup.removed]
    assert setup["starting"] == [[c.text for c in hand] for hand in game.setup.starting]
    assert setup["deck"] == [c.text for c in game.setup.deck]
    names = set(setup["deck"])
    assert names <= CARD_NAMES
    assert {"joker", "golden-joker", "+2", "last-round"} <= names
    assert len(setup["deck"]) == len(game.setup.deck)
    assert len(record["actions"]) == 6
    for entry, move in zip(record["actions"], game.history(), strict=True):
        assert entry["player"] == move.player
        assert entry["action"] == str(move.action)
        assert entry.get("card") == (move.card.text if move.card else None)
        if move.action == DRAW:
            assert entry["card"] in CARD_NAMES - {"last-round"}
        else:
            assert set(entry) <= {"player", "action", "card", "last_round"}
    assert "result" not in record


def test_record_default_seat_names_and_wrong_count():
    game = new_game(Rules(players=4), seed=1)
    assert to_record(game)["seats"] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    with pytest.raises(ValueError, match="4 seat names"):
        to_record(game, ["a", "b"])
    loaded = json_round_trip(game, ["a", "b", "c", "d"])
    assert loaded.seats == ("a", "b", "c", "d")


def test_finished_record_has_the_result():
    rules = Rules(players=2, variant="ghost")
    game = finished(rules, 3)
    record = to_record(game)
    result = record["result"]
    assert result["scores"] == list(game.final_scores())
    outcome = game.outcome()
    assert outcome is not None
    assert result["places"] == list(outcome.places)
    assert result["winners"] == list(outcome.winners)
    assert set(result["winners"]) <= {0, 1}  # players: a ghost's seat never wins
    assert len(result["breakdowns"]) == 4
    for seat, breakdown in enumerate(result["breakdowns"]):
        assert breakdown["total"] == game.final_scores()[seat]
        assert {s["colour"] for s in breakdown["sets"]} <= CARD_NAMES
    json.dumps(record)  # plain JSON values


def test_record_marks_the_last_round_card_and_golden_joker_cards():
    rules = Rules(players=3, edition="anniversary")
    game = start(rules, top=(Card.GOLDEN_JOKER, Card.PINK), first_player=0)
    game = game.apply("draw").apply("place 1").apply("take 1")
    game = play_out(game, 2)
    actions = to_record(game)["actions"]
    assert actions[0] == {"player": 0, "action": "draw", "card": "golden-joker"}
    assert actions[1] == {"player": 0, "action": "place 1"}
    assert actions[2] == {"player": 1, "action": "take 1", "card": "pink"}
    last = [a for a in actions if a.get("last_round")]
    assert len(last) == 1
    assert last[0]["action"] == "draw"
    assert last[0]["last_round"] is True
    assert last[0]["card"] in CARD_NAMES - {"last-round"}
    assert snapshot(json_round_trip(game).state) == snapshot(game)


def test_write_and_read_a_record_file(tmp_path):
    game = finished(Rules(players=4, edition="anniversary"), 9)
    path = tmp_path / "game.json"
    write_record(path, game, ["A", "B", "C", "D"])
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == FORMAT
    loaded = read_record(path)
    assert isinstance(loaded, GameRecord)
    assert loaded.seats == ("A", "B", "C", "D")
    assert snapshot(loaded.state) == snapshot(game)
    # overwriting replaces the file and leaves nothing else behind
    unfinished = new_game(Rules(players=4), seed=2).apply("draw")
    write_record(str(path), unfinished)
    assert snapshot(read_record(str(path)).state) == snapshot(unfinished)
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


# ---------------------------------------------------------------- refusals


@pytest.fixture
def record() -> dict:
    return to_record(finished(Rules(players=3), 5))


def refused(record: dict, *parts: str) -> str:
    with pytest.raises(RecordError) as info:
        load_record(record)
    message = str(info.value)
    for part in parts:
        assert part in message, message
    return message


def test_record_error_is_a_value_error():
    assert issubclass(RecordError, ValueError)


def test_wrong_format_is_refused(record):
    record["format"] = "coloretto-record/2"
    refused(record, "format", "coloretto-record/1", "coloretto-record/2")
    del record["format"]
    assert "None" not in refused(record, "format: expected 'coloretto-record/1', found null")
    record["format"] = 1.5
    refused(record, "format: expected 'coloretto-record/1', found 1.5")
    with pytest.raises(RecordError, match="record"):
        load_record([1, 2])


def test_unknown_card_name_is_refused(record):
    record["setup"]["deck"][3] = "purple"
    refused(record, "setup.deck[3]", "purple")


def test_unknown_starting_card_is_refused(record):
    record["setup"]["starting"][1][0] = "Joker!"
    refused(record, "setup.starting[1][0]", "Joker!")


def test_a_deck_with_a_card_missing_is_refused(record):
    missing = record["setup"]["deck"].pop(0)
    refused(record, "setup", "deck", missing)


def test_a_deck_with_the_last_round_card_misplaced_is_refused(record):
    deck = record["setup"]["deck"]
    i = deck.index("last-round")
    deck[i], deck[i + 1] = deck[i + 1], deck[i]
    refused(record, "setup", "Last Round", "15")


def test_an_action_by_the_wrong_player_is_refused(record):
    n = 4
    right = record["actions"][n]["player"]
    record["actions"][n]["player"] = (right + 1) % 3
    refused(record, f"actions[{n}]", f"seat {right}'s turn")


@pytest.mark.parametrize(
    ("entry", "parts"),
    [
        ({"bogus": 1}, ('actions[0]: expected an action like {"player": 0', 'found {"bogus": 1}')),
        ({"action": "draw"}, ("actions[0]: expected an action", 'found {"action": "draw"}')),
        ({"player": None, "action": "draw"}, ("actions[0].player: expected a seat number",)),
        ({"player": "0", "action": "draw"}, ("actions[0].player", 'found "0"')),
    ],
)
def test_a_malformed_action_is_refused_saying_what_an_action_is(record, entry, parts):
    record["actions"][0] = entry
    message = refused(record, *parts)
    assert "None" not in message, message


def test_an_illegal_action_is_refused(record):
    assert record["actions"][0]["action"] == "draw"
    record["actions"][0] = {"player": record["actions"][0]["player"], "action": "take 1"}
    refused(record, "actions[0]", "row 1 is empty")


def test_an_action_taking_a_taken_row_is_refused():
    rules = Rules(players=3)
    game = start(rules, first_player=0).apply("draw").apply("place 3").apply("take 3")
    record = to_record(game)
    record["actions"].append({"player": 2, "action": "take 3"})
    refused(record, "actions[3]", "row 3 was taken this round")


def test_unreadable_action_text_is_refused(record):
    record["actions"][2]["action"] = "jump 2"
    refused(record, "actions[2]", "jump 2")


def test_a_card_that_does_not_match_the_deck_is_refused(record):
    entry = record["actions"][0]
    real = entry["card"]
    entry["card"] = "pink" if real != "pink" else "green"
    refused(record, "actions[0].card", real, entry["card"])


def test_a_draw_without_its_card_is_refused(record):
    del record["actions"][0]["card"]
    refused(record, "actions[0].card")


def test_a_missing_last_round_mark_is_refused(record):
    i = next(i for i, a in enumerate(record["actions"]) if a.get("last_round"))
    del record["actions"][i]["last_round"]
    refused(record, f"actions[{i}].last_round")


def test_a_result_whose_scores_do_not_match_is_refused(record):
    record["result"]["scores"][0] += 1
    refused(record, "result.scores")


def test_a_result_for_an_unfinished_game_is_refused(record):
    record["actions"].pop()
    refused(record, "result", "do not finish")


def test_actions_after_the_end_are_refused(record):
    record["actions"].append({"player": 0, "action": "draw"})
    n = len(record["actions"]) - 1
    refused(record, f"actions[{n}]", "over")


@pytest.mark.parametrize(
    ("change", "parts"),
    [
        (lambda r: r["rules"].update(players=7), ("rules.players", "a whole number from 2 to 5")),
        (lambda r: r["rules"].update(players=3, variant="ghost"), ("rules", "for 2 players")),
        (lambda r: r["rules"].update(colour="red"), ("rules", "'colour'")),
        (lambda r: r.update(rules=[]), ("rules",)),
        (lambda r: r["seats"].pop(), ("seats", "3 names")),
        (lambda r: r.update(actions={}), ("actions",)),
        (lambda r: r["setup"].update(first_player="0"), ("setup.first_player",)),
        (lambda r: r["setup"].update(first_player=5), ("setup", "first player")),
        (lambda r: r["setup"].update(deck="blue"), ("setup.deck",)),
        (lambda r: r["actions"].__setitem__(1, "draw"), ("actions[1]",)),
        (lambda r: r["actions"][1].update(action=2), ("actions[1].action",)),
    ],
)
def test_malformed_records_name_the_place(record, change, parts):
    change(record)
    refused(record, *parts)


def test_a_refused_record_does_not_change_the_input(record):
    bad = copy.deepcopy(record)
    bad["result"]["scores"][0] += 1
    before = copy.deepcopy(bad)
    with pytest.raises(RecordError):
        load_record(bad)
    assert bad == before


def test_non_json_file_is_refused_with_the_file_name(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("this is not json", encoding="utf-8")
    with pytest.raises(RecordError, match=r"broken\.json") as info:
        read_record(path)
    assert "JSON" in str(info.value)


def test_truncated_file_is_refused_with_the_file_name(tmp_path):
    game = finished()
    path = tmp_path / "cut.json"
    write_record(path, game)
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(RecordError, match=r"cut\.json") as info:
        read_record(path)
    assert "JSON" in str(info.value)


def test_an_invalid_record_in_a_file_names_the_file_and_the_problem(tmp_path):
    record = to_record(finished())
    record["setup"]["deck"][3] = "purple"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(RecordError, match=r"bad\.json: setup\.deck\[3\]"):
        read_record(path)


def test_missing_or_binary_file_is_refused(tmp_path):
    with pytest.raises(RecordError, match=r"missing\.json"):
        read_record(tmp_path / "missing.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(RecordError, match=r"binary\.json"):
        read_record(binary)


def test_a_hand_written_record_loads():
    rules = Rules(players=3)
    game = start(rules, first_player=1)
    top = game.setup.deck[0].text
    record = {
        "format": "coloretto-record/1",
        "rules": {"players": 3},
        "seats": ["x", "y", "z"],
        "setup": {
            "removed": [c.text for c in game.setup.removed],
            "starting": [[c.text for c in hand] for hand in game.setup.starting],
            "deck": [c.text for c in game.setup.deck],
            "first_player": 1,
        },
        "actions": [
            {"player": 1, "action": "draw", "card": top},
            {"player": 1, "action": "place 2"},
            {"player": 2, "action": "take 2"},
        ],
    }
    state = load_record(record).state
    assert state.rows == ((), (), ())
    assert state.collection(2)[Card.from_text(top)] >= 1
    assert state.last_move.action == Action.take(1)
    assert state.current_player == 0
