"""The tutorial's script, without the screen: every step can be answered as it asks, the
words rely on what holds, a wrong move changes nothing and says what to press, and the end
states the engine's scores."""

from __future__ import annotations

import re

import pytest

from coloretto.engine import DRAW, Action, ActionKind, Card, GameState, Scoring, score
from coloretto.play.tutorial import (
    NAMES,
    RULES,
    STEPS,
    YOU,
    Lesson,
    Part,
    WrongMove,
    summary,
    tutorial_setup,
)


def shown_steps() -> list[Lesson]:
    """The lesson at each step, as the step is shown (every answer the one asked for)."""
    lesson = Lesson.start()
    shown = []
    while not lesson.finished:
        if lesson.waiting:
            shown.append(lesson)
            lesson = lesson.answer(lesson.step.expect)
        else:
            lesson = lesson.advance()
    return shown


def test_the_deal_is_one_the_rules_allow() -> None:
    GameState.from_setup(RULES, tutorial_setup())  # raises if not


def test_every_step_asks_for_a_legal_move_of_the_person_and_its_words_hold() -> None:
    shown = shown_steps()
    assert len(shown) == len(STEPS)
    for lesson in shown:
        step, game = lesson.step, lesson.game
        if step.check is not None:
            assert step.check(game), f"step {lesson.number + 1}: {step.text(game)!r}"
        if step.expect is not None:
            assert step.move is not None
            assert len(step.move.actions) == 1
            assert game.current_player == YOU, f"step {lesson.number + 1}"
            assert step.expect in game.legal_actions(), f"step {lesson.number + 1}"
        assert step.text(game).strip()


def test_the_others_moves_are_legal_and_only_a_fast_forward_plays_for_the_person() -> None:
    lesson = Lesson.start()
    while not lesson.finished:
        if lesson.waiting:
            lesson = lesson.answer(lesson.step.expect)
            continue
        action = lesson.pending
        assert action is not None
        assert action in lesson.game.legal_actions()
        if lesson.game.current_player == YOU:
            assert lesson.step.fast, f"step {lesson.number + 1} plays the person's move"
        lesson = lesson.advance()


def test_following_the_script_ends_the_game_with_the_scores_the_summary_states() -> None:
    game = Lesson.start().finish().game
    assert game.is_over
    stated = dict(re.findall(r"(\w+) (-?\d+)", summary(game).split(":", 1)[1]))
    assert stated == {
        name: str(total) for name, total in zip(NAMES, game.final_scores(), strict=True)
    }
    best = max(game.final_scores())
    winners = [NAMES[seat] for seat, total in enumerate(game.final_scores()) if total == best]
    assert winners == ["You"]
    assert summary(game).endswith("You win!")


def test_the_script_teaches_every_rule_the_issue_lists() -> None:
    shown = shown_steps()
    moves = [lesson.step.expect for lesson in shown]
    kinds = {move.kind for move in moves if move is not None}
    assert kinds == {ActionKind.DRAW, ActionKind.PLACE, ActionKind.TAKE}
    drawn = [lesson.step.move.card for lesson in shown if lesson.step.move is not None]
    assert Card.JOKER in drawn  # the person draws a joker
    games = [lesson.game for lesson in shown]
    assert any(game.round == 2 for game in games)  # a round's end
    assert any(game.last_round for game in games)  # the Last Round card
    assert any(game.rows[0] == (Card.PLUS2,) for game in games)  # a "+2" on a row
    assert {lesson.step.spot.part for lesson in shown} == set(Part)
    end = shown[-1].game
    assert end.is_over
    assert end.score_breakdown(YOU).jokers


def test_the_words_of_the_end_are_the_engines_scores_on_both_sides() -> None:
    game = Lesson.start().finish().game
    words = " ".join(step.text(game) for step in STEPS[-3:])
    brown = game.score_breakdown(YOU)
    assert f"your score is {brown.total}." in words
    plus = [s for s in brown.sets if s.plus]
    assert len(plus) == RULES.plus_colours
    assert any(not s.plus for s in brown.sets)
    counts = game.counts(YOU)
    gray = score(
        {colour: counts[colour] for colour in game.colours},
        jokers=counts[Card.JOKER],
        plus2=counts[Card.PLUS2],
        scoring=Scoring.GRAY,
    )
    assert gray.total != brown.total
    assert f"There you would score {gray.total}" in words
    for side in Scoring:
        assert " ".join(f"{p:>2}" for p in side.table[1:]) in words


def test_a_wrong_move_changes_nothing_and_says_what_to_press() -> None:
    lesson = Lesson.start().answer(None).answer(None)  # the welcome, then your seat
    assert lesson.step.expect == DRAW
    before = lesson
    with pytest.raises(WrongMove, match=r"^Row 2 is empty: press d to draw a card first\.$"):
        lesson.answer(Action.take(1))
    with pytest.raises(WrongMove, match=r"^Press d to draw a card first\.$"):
        lesson.answer(None)
    assert lesson == before
    with pytest.raises(WrongMove, match="Read the bubble first"):
        Lesson.start().answer(DRAW)


def test_a_move_the_rules_allow_but_the_script_does_not_is_refused_kindly() -> None:
    lesson = next(s for s in shown_steps() if s.step.expect == Action.take(0))
    with pytest.raises(WrongMove, match=r"allowed in a real game, but here press 1 to take row 1"):
        lesson.answer(DRAW)


def test_no_answer_while_the_others_play() -> None:
    lesson = next(s for s in shown_steps() if s.step.then)
    playing = lesson.answer(lesson.step.expect)
    assert not playing.waiting
    assert playing.pending is not None
    with pytest.raises(WrongMove, match="Wait a moment"):
        playing.answer(DRAW)
    with pytest.raises(ValueError, match="waits for the player"):
        Lesson.start().advance()


def test_no_row_belongs_to_anyone_in_the_words() -> None:
    lesson = Lesson.start()
    while not lesson.finished:
        if lesson.waiting:
            words = lesson.step.text(lesson.game).lower()
            assert "your row" not in words, lesson.number + 1
        lesson = lesson.advance() if lesson.pending else lesson.answer(lesson.step.expect)
