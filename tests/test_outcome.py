"""The one result: winners, shares and margins for games, matches and the ghost variant."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coloretto.engine import (
    IllegalAction,
    IllegalReason,
    Match,
    Outcome,
    RecordError,
    Rules,
    UnreadableRecord,
    Variant,
    new_game,
)
from coloretto.store.records import read_record


def play_out(game):
    while not game.is_over:
        game = game.apply(game.legal_actions()[-1])
    return game


@given(st.lists(st.integers(-60, 90), min_size=2, max_size=6))
def test_shares_sum_to_one_and_only_winners_share(totals):
    outcome = Outcome.of(totals)
    assert sum(outcome.share(p) for p in range(len(totals))) == pytest.approx(1.0)
    for player, total in enumerate(totals):
        assert (outcome.share(player) > 0) == (total == max(totals))
        rival = max(t for p, t in enumerate(totals) if p != player)
        assert outcome.margin(player) == total - rival
        assert outcome.places[player] == 1 + sum(t > total for t in totals)
        assert (outcome.places[player] == 1) == (player in outcome.winners)
        assert outcome.tied_with(player) == tuple(
            p for p, t in enumerate(totals) if t == total and p != player
        )


def test_a_game_has_an_outcome_only_once_over():
    game = new_game(Rules(players=4), seed=3)
    assert game.outcome() is None
    final = play_out(game)
    outcome = final.outcome()
    assert outcome is not None
    assert outcome.totals == final.final_scores()
    best = max(outcome.totals)
    assert outcome.winners == tuple(s for s, v in enumerate(final.final_scores()) if v == best)


def test_ghost_outcome_ranks_the_players_by_their_own_seats():
    # Individual scoring (the rules text's default): the ghosts' 26 and 21 points win nothing.
    rng = random.Random(0)
    final = new_game(Rules(players=2, variant=Variant.GHOST), seed=8)
    while not final.is_over:
        final = final.apply(rng.choice(final.legal_actions()))
    assert final.final_scores() == (4, 8, 26, 21)
    outcome = final.outcome()
    assert outcome is not None
    assert (outcome.totals, outcome.places, outcome.winners) == ((4, 8), (2, 1), (1,))
    assert outcome.margin(0) == -4


def test_a_ghost_match_ranks_the_players_by_their_own_seats():
    match = Match.start(Rules(players=2, variant=Variant.GHOST, games=2), seed=5)
    match = match.__class__(match.rules, match.seed, play_out(match.game), match.results)
    match = match.next_game()
    match = match.__class__(match.rules, match.seed, play_out(match.game), match.results)
    outcome = match.outcome()
    assert outcome is not None
    assert outcome.totals == match.totals()[:2]


def test_match_outcome_comes_with_the_last_game():
    match = Match.start(Rules(players=3, games=2), seed=4)
    match = match.__class__(match.rules, match.seed, play_out(match.game), match.results)
    assert match.outcome() is None
    match = match.next_game()
    match = match.__class__(match.rules, match.seed, play_out(match.game), match.results)
    outcome = match.outcome()
    assert outcome is not None
    assert outcome.totals == match.totals()
    best = max(outcome.totals)
    assert outcome.winners == tuple(p for p, v in enumerate(outcome.totals) if v == best)


@pytest.mark.parametrize(
    ("action", "reason"),
    [("take 1", IllegalReason.ROW_EMPTY), ("place 1", IllegalReason.NOT_DRAWN),
     ("take 5", IllegalReason.NO_SUCH_ROW), ("jump", IllegalReason.NOT_AN_ACTION)],
)  # fmt: skip
def test_illegal_actions_carry_a_reason_to_branch_on(action, reason):
    with pytest.raises(IllegalAction) as caught:
        new_game(Rules(players=3), seed=1).apply(action)
    assert caught.value.reason is reason
    assert str(caught.value).startswith(caught.value.problem)


def test_advice_follows_the_problem():
    game = new_game(Rules(players=3), seed=1).apply("draw")
    with pytest.raises(IllegalAction) as caught:
        game.apply("draw")
    error = caught.value
    assert error.reason is IllegalReason.ALREADY_DRAWN
    assert (error.problem, error.advice) == ("you have already drawn a card", "place it on a row")
    assert str(error) == "you have already drawn a card: place it on a row"


def test_a_file_that_is_no_record_is_unreadable_and_names_the_file(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{oops")
    with pytest.raises(UnreadableRecord) as caught:
        read_record(path)
    assert caught.value.path == path
    assert str(caught.value) == f"{path}: {caught.value.problem}"
    path.write_text('{"format": "nope"}')
    with pytest.raises(RecordError) as invalid:
        read_record(path)
    assert not isinstance(invalid.value, UnreadableRecord)
    assert invalid.value.problem.startswith("format:")
