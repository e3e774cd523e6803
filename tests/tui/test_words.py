"""Card letters, moves in words, turn prompts and hint reasons (no UI needed)."""

from __future__ import annotations

import itertools
import random

import pytest

from coloretto.bots import Estimate
from coloretto.engine import COLOURS, DRAW, ActionKind, Card, GameState, Rules, new_game
from coloretto.play.advice import explain_hint
from coloretto.play.foresight import Outlook
from coloretto.play.words import describe_move, row_gain, row_list
from coloretto.tui import GameConfig, Session
from coloretto.tui.glyphs import GLYPHS, card_block, legend
from coloretto.tui.prompt import turn_prompt
from coloretto.tui.widgets.seats import collection_lines

NAMES = ("Ana", "Ben", "Cy", "Di", "Ed")


def random_states(rules: Rules, seed: int) -> list[GameState]:
    """Every state of one game of random legal moves."""
    rng = random.Random(seed)
    game = new_game(rules, seed=seed)
    states = [game]
    while not game.is_over:
        game = game.apply(rng.choice(game.legal_actions()))
        states.append(game)
    return states


def name(card: Card) -> str:
    return GLYPHS[card].name


def test_every_card_has_its_own_letter_or_symbol() -> None:
    letters = [glyph.letter for card, glyph in GLYPHS.items() if card is not Card.LAST_ROUND]
    assert len(set(letters)) == len(letters) == 10
    assert [GLYPHS[c].letter for c in COLOURS] == ["B", "N", "A", "G", "O", "P", "Y"]
    for card in COLOURS:
        assert card_block(card).plain.strip() == GLYPHS[card].letter
        assert card_block(card, plain=True).plain == f"[{GLYPHS[card].letter}]"
    assert legend(COLOURS, plain=True).plain.startswith("B=blue N=brown A=gray G=green")


@pytest.mark.parametrize(
    "rules",
    [Rules(players=4), Rules(players=2), Rules(players=3, edition="anniversary")],
    ids=str,
)
def test_every_move_in_words(rules: Rules) -> None:
    states = random_states(rules, seed=3)
    texts = []
    for before, after in itertools.pairwise(states):
        move = after.history()[-1]
        lines = [line.plain for line in describe_move(move, before, after, NAMES)]
        texts += lines
        who = NAMES[move.player]
        row = (move.action.row or 0) + 1
        if move.action.kind is ActionKind.DRAW:
            assert move.card is not None
            drew = f"{who} drew {name(move.card)}."
            news = (
                "The Last Round card came up: this round is the last! " if move.last_round else ""
            )
            assert lines == [news + drew]  # in the order it happened
        elif move.action.kind is ActionKind.PLACE:
            assert before.drawn_card is not None
            assert lines == [f"{who} put {name(before.drawn_card)} on row {row}."]
        else:
            cards = ", ".join(name(c) for c in before.rows[row - 1])
            assert lines[0].startswith(f"{who} took row {row}: {cards}")
            if after.round != before.round:
                assert lines[-1] == (
                    f"Round {before.round} is over; {NAMES[after.current_player]} "
                    f"starts round {after.round}."
                )
        if move.last_round:
            assert lines[0].startswith("The Last Round card came up: this round is the last!")
    assert texts[-1] == "The game is over."
    assert sum("Last Round card came up" in text for text in texts) == 1


def test_turn_prompts_name_the_player_and_the_keys() -> None:
    session = Session(GameConfig.build(Rules(players=3), humans=3, names=NAMES[:3], seed=1))
    who = NAMES[session.game.current_player]
    assert turn_prompt(session).plain == f"{who}'s turn: draw a card (d); no row holds cards yet"
    session.apply(DRAW)
    card = session.game.drawn_card
    assert card is not None
    assert turn_prompt(session).plain == (
        f"{who}'s turn: put the {name(card)} card on a row (1\N{EN DASH}3)"
    )
    solo = Session(GameConfig.build(Rules(players=2), humans=1, bot="greedy", seed=2))
    if solo.is_bot(solo.game.current_player):
        assert turn_prompt(solo).plain == "Bot 1 is thinking…"
    else:
        assert turn_prompt(solo).plain.startswith("Your turn: ")


def test_row_lists() -> None:
    assert row_list([1]) == "2"
    assert row_list([0, 2]) == "1 or 3"
    assert row_list([0, 1, 2]) == "1\N{EN DASH}3"


def unseen(action: object) -> Outlook:
    """An outlook of no playouts: what the coach foresees is not this test's matter."""
    return Outlook(0, None, 0, None, 0.0, None, 0)


def test_hints_say_why_in_a_few_words() -> None:
    names = ["You", "Ben", "Cy", "Di"]
    for state in random_states(Rules(players=4), seed=5)[:-1]:
        seat = state.current_player
        now = state.scores()[seat]
        legal = state.legal_actions()
        for action in legal:
            estimates = {a: Estimate(0.5 if a == action else 0.2, 0.0) for a in legal}
            hint = explain_hint(state, seat, action, estimates, names, outlook=unseen)
            if action.kind is ActionKind.TAKE:
                assert action.row is not None
                gain = row_gain(state, seat, state.rows[action.row])
                assert hint.startswith(f"take row {action.row + 1}: ")
                worth = f"{gain:+d}" if gain else "nothing"  # never "+0"
                assert f"{worth} for you now ({now} → {now + gain})" in hint
            elif action.kind is ActionKind.DRAW:
                assert hint.startswith("draw a card: ")
                assert (
                    "no row holds cards yet" in hint
                    or "the row worth most to you now is row" in hint
                    or "the rows worth most to you now are rows" in hint
                )
            else:
                assert action.row is not None
                assert state.drawn_card is not None
                assert hint.startswith(
                    f"put the {name(state.drawn_card)} card on row {action.row + 1}: "
                )
                check_placement_reason(state, seat, action.row, hint, names)
            assert "+0 to you" not in hint  # never a reason that reads as bad advice


def check_placement_reason(
    state: GameState, seat: int, row: int, hint: str, names: list[str]
) -> None:
    """A placement's reason says only what is so of what the row is worth to the others
    still in the round."""
    assert state.drawn_card is not None

    def most_to_others(target: int) -> int:
        cards = [*state.rows[target], state.drawn_card]
        rivals = [s for s in range(len(names)) if s != seat and not state.seats_out[s]]
        return max((row_gain(state, s, cards) for s in rivals), default=0)

    here = most_to_others(row)
    others = [
        most_to_others(r)
        for r, cards in enumerate(state.rows)
        if r != row and not state.rows_taken[r] and len(cards) < state.row_capacities[r]
    ]
    if "builds row" in hint:
        return
    if "nobody else is still in the round" in hint:
        assert not [s for s in range(len(names)) if s != seat and not state.seats_out[s]]
    elif "the only row" in hint:
        assert not others
    elif "on any row" in hint:
        assert set(others) == {here}
    elif "helps the others least" in hint:
        assert here <= min(others)
        assert set(others) != {here}
    else:
        mine = row_gain(state, seat, [*state.rows[row], state.drawn_card])
        said = [f"{gain:+d}" if gain else "nothing" for gain in (mine, here)]  # never "+0"
        assert f"there it makes row {row + 1} ({said[0]} for you, {said[1]} for " in hint
        assert "rather than row " not in hint.split("; ", maxsplit=1)[0]  # a fed row is no reason
        assert min(others) < here


def test_a_rows_gain_is_the_change_in_score() -> None:
    state = new_game(Rules(players=3), seed=4)
    for seat in range(3):
        (start,) = state.collection(seat)
        assert row_gain(state, seat, [start]) == 2  # a second card of a colour: 1 -> 3
        assert row_gain(state, seat, [Card.PLUS2]) == 2


def test_collections_show_plus_and_minus_colours_jokers_and_plus2() -> None:
    game = new_game(Rules(players=4), seed=3)
    (shown,) = collection_lines(game.collection(0), game.score_breakdown(0), plain=True)
    line = shown.plain
    assert line.startswith("+ [")
    assert line.endswith("]1")
