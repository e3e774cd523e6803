"""End-of-game scoring: tables, plus and minus colours, "+2" cards and jokers."""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest
from conftest import ALL_RULES, play_out, rules_id

from coloretto.engine import Card, Rules, Scoring, best_total, new_game, score

BROWN = (0, 1, 3, 6, 10, 15, 21)
GRAY = (0, 1, 4, 8, 7, 6, 5)
TABLES = {"brown": BROWN, "gray": GRAY}


def points(table: tuple[int, ...], n: int) -> int:
    return table[min(n, 6)]


def brute_force(counts: list[int], jokers: int, plus2: int, table, plus_colours: int) -> int:
    """Try every colour for every joker and every choice of plus colours."""
    best = None
    memo: dict[tuple[int, ...], int] = {}
    for assignment in product(range(len(counts)), repeat=jokers):
        final = list(counts)
        for colour in assignment:
            final[colour] += 1
        key = tuple(final)
        if key not in memo:
            values = [points(table, n) for n in final]
            memo[key] = max(
                sum(v if i in plus else -v for i, v in enumerate(values))
                for plus in map(set, combinations(range(len(final)), min(plus_colours, len(final))))
            )
        if best is None or memo[key] > best:
            best = memo[key]
    assert best is not None
    return best + 2 * plus2


def check_breakdown(breakdown, counts, jokers, plus2, table, *, plus_colours=3):
    """The breakdown is internally consistent and adds up to its total."""
    assert breakdown.plus2 == plus2
    assert len(breakdown.jokers) == jokers
    assert sum(s.jokers for s in breakdown.sets) == jokers
    assert breakdown.total == sum(s.points for s in breakdown.sets) + 2 * plus2
    assert len(breakdown.plus_colours) == min(plus_colours, len(breakdown.sets))
    seen = set()
    for s in breakdown.sets:
        assert s.colour not in seen
        seen.add(s.colour)
        assert s.cards == counts[s.colour]
        assert s.count == s.cards + s.jokers > 0
        assert breakdown.jokers.count(s.colour) == s.jokers
        assert abs(s.points) == points(table, s.count)
        assert s.points == (points(table, s.count) if s.plus else -points(table, s.count))
    # plus colours come first, and every colour with cards is listed
    flags = [s.plus for s in breakdown.sets]
    assert flags == sorted(flags, reverse=True)
    assert {c for c, n in counts.items() if n} <= seen
    # no minus colour would score more than a plus colour
    plus_points = [s.points for s in breakdown.sets if s.plus]
    minus_points = [-s.points for s in breakdown.sets if not s.plus]
    if plus_points and minus_points:
        assert min(plus_points) >= max(minus_points)


# ------------------------------------------------------------ rule book


def test_rule_book_example_brown():
    counts = {"green": 6, "yellow": 4, "orange": 3, "blue": 2}
    b = score(counts, jokers=1, plus2=1)
    assert b.total == 41
    assert b.jokers == ("yellow",)
    assert b.plus_colours == ("green", "yellow", "orange")
    assert b.scoring is Scoring.BROWN
    assert [(s.colour, s.cards, s.jokers, s.points, s.plus) for s in b.sets] == [
        ("green", 6, 0, 21, True),
        ("yellow", 4, 1, 15, True),
        ("orange", 3, 0, 6, True),
        ("blue", 2, 0, -3, False),
    ]
    assert b.plus2 == 1
    check_breakdown(b, counts, 1, 1, BROWN)


def test_rule_book_example_gray():
    counts = {"blue": 4, "green": 3, "yellow": 3, "orange": 3}
    b = score(counts, jokers=1, plus2=1, scoring="gray")
    assert b.total == 20
    assert b.jokers == ("blue",)
    assert set(b.plus_colours) == {"green", "yellow", "orange"}
    blue = next(s for s in b.sets if s.colour == "blue")
    assert (blue.count, blue.points, blue.plus) == (5, -6, False)


def test_gray_joker_on_a_minus_colour():
    b = score({"a": 3, "b": 3, "c": 3, "d": 4}, jokers=1, scoring="gray")
    assert b.total == 18
    assert b.jokers == ("d",)


# --------------------------------------------------------------- tables


@pytest.mark.parametrize("scoring", ["brown", "gray"])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 8, 9])
def test_one_colour_scores_from_the_table(scoring, n):
    expected = {"brown": BROWN, "gray": GRAY}[scoring][min(n, 6)]
    assert score({"x": n}, scoring=scoring).total == expected


@pytest.mark.parametrize(
    ("n", "brown", "gray"),
    [(1, 1, 1), (2, 3, 4), (3, 6, 8), (4, 10, 7), (5, 15, 6), (6, 21, 5), (7, 21, 5), (12, 21, 5)],
)
def test_table_values(n, brown, gray):
    assert score({"x": n}).total == brown
    assert score({"x": n}, scoring=Scoring.GRAY).total == gray
    assert best_total([n], 0, 0, Scoring.BROWN.table, 3) == brown
    assert best_total([n], 0, 0, Scoring.GRAY.table, 3) == gray


@pytest.mark.parametrize("n", range(1, 9))
def test_a_fourth_colour_scores_minus(n):
    # three big colours score plus; the fourth costs its table value
    assert score({"a": 6, "b": 6, "c": 6, "d": n}).total == 63 - BROWN[min(n, 6)]
    gray = score({"a": 3, "b": 3, "c": 3, "d": n}, scoring="gray")
    assert gray.total == 24 - GRAY[min(n, 6)]
    assert len(gray.plus_colours) == 3


def test_minus_colours():
    b = score({"a": 3, "b": 2, "c": 1, "d": 1, "e": 2})
    assert b.total == 6 + 3 + 3 - 1 - 1
    assert [s.plus for s in b.sets] == [True, True, True, False, False]
    assert sorted(s.points for s in b.sets if not s.plus) == [-1, -1]


def test_plus2_cards_are_two_points_each_and_no_colour():
    assert score({}, plus2=3).total == 6
    assert score({"a": 0}, plus2=1).total == 2
    assert score({"a": 2}, plus2=4).total == 3 + 8
    b = score({"a": 2, "b": 1}, plus2=2)
    assert b.plus2 == 2
    assert [s.colour for s in b.sets] == ["a", "b"]
    assert b.total == 3 + 1 + 4


def test_empty_collection_scores_zero():
    b = score({"a": 0, "b": 0})
    assert b.total == 0
    assert b.sets == ()
    assert b.jokers == ()


# --------------------------------------------------------------- jokers


def test_joker_may_join_a_colour_held_by_nobody():
    b = score({"green": 0, "blue": 0}, jokers=1)
    assert b.total == 1
    assert len(b.sets) == 1
    (s,) = b.sets
    assert (s.cards, s.jokers, s.count, s.points, s.plus) == (0, 1, 1, 1, True)


def test_jokers_go_to_an_empty_colour_when_that_is_best():
    b = score({"a": 3, "b": 3, "c": 0}, jokers=3, scoring="gray")
    assert b.total == 24
    assert b.jokers == ("c", "c", "c")


def test_joker_avoids_making_a_fourth_card_on_gray():
    b = score({"green": 3, "blue": 2}, jokers=1, scoring="gray")
    assert b.total == 16
    assert b.jokers == ("blue",)


def test_jokers_on_a_six_set_cost_nothing():
    brown = score({"a": 6, "b": 6, "c": 6, "d": 1}, jokers=2)
    assert brown.total == 62
    assert all(c in ("a", "b", "c") for c in brown.jokers)
    gray = score({"green": 6, "a": 3, "b": 3}, jokers=1, scoring="gray")
    assert gray.total == 21
    assert gray.jokers == ("green",)


def test_jokers_join_the_biggest_set_below_six_on_brown():
    b = score({"a": 5, "b": 4, "c": 3}, jokers=1)
    assert b.total == 21 + 10 + 6
    assert b.jokers == ("a",)


@pytest.mark.parametrize(
    ("counts", "scoring", "expected"),
    [
        ({"a": 0, "b": 0, "c": 0}, "brown", 6),
        ({"a": 0, "b": 0, "c": 0}, "gray", 8),
        ({"green": 2, "blue": 0}, "brown", 15),
        ({"green": 2, "blue": 0}, "gray", 12),
        ({"a": 3, "b": 3, "c": 3}, "gray", 21),
        ({"a": 3, "b": 3, "c": 3, "d": 3}, "brown", 21 + 6 + 6 - 6),
        ({"a": 4, "b": 1, "c": 1, "d": 1}, "brown", 21 + 3 + 1 - 1),
    ],
)
def test_three_jokers(counts, scoring, expected):
    b = score(counts, jokers=3, scoring=scoring)
    assert b.total == expected
    assert len(b.jokers) == 3
    check_breakdown(b, counts, 3, 0, TABLES[scoring])


def test_plus_colours_can_be_four():
    counts = {"a": 3, "b": 3, "c": 2, "d": 2, "e": 1}
    assert score(counts).total == 6 + 6 + 3 - 3 - 1
    b = score(counts, plus_colours=4)
    assert b.total == 6 + 6 + 3 + 3 - 1
    assert len(b.plus_colours) == 4


# ------------------------------------------------------- exactness, checks


@pytest.mark.parametrize("scoring", ["brown", "gray"])
@pytest.mark.parametrize("plus_colours", [3, 4])
def test_score_matches_brute_force(scoring, plus_colours):
    rng = random.Random(f"{scoring}/{plus_colours}")
    table = TABLES[scoring]
    for _ in range(100):
        n_colours = rng.choice((5, 6, 7))
        values = [rng.choice((0, 0, 1, 1, 2, 3, 3, 4, 5, 6, 7, 9)) for _ in range(n_colours)]
        counts = {Card(i): v for i, v in enumerate(values)}
        jokers = rng.choice((0, 1, 2, 3, 3))
        plus2 = rng.randrange(4)
        b = score(counts, jokers=jokers, plus2=plus2, scoring=scoring, plus_colours=plus_colours)
        expected = brute_force(values, jokers, plus2, table, plus_colours)
        assert b.total == expected, (values, jokers, plus2)
        check_breakdown(b, counts, jokers, plus2, table, plus_colours=plus_colours)
        fast = best_total(values, jokers, plus2, Scoring(scoring).table, plus_colours)
        assert fast == expected


def test_best_total_rule_book_example():
    assert best_total([6, 4, 3, 2, 0, 0, 0], 1, 1, Scoring.BROWN.table, 3) == 41
    assert best_total([3, 3, 3, 4, 0], 1, 0, Scoring.GRAY.table, 3) == 18
    assert best_total([3, 3, 3, 4, 0], 1, 1, Scoring.GRAY.table, 3) == 20


def test_best_total_does_not_depend_on_colour_order():
    rng = random.Random(4)
    for _ in range(30):
        values = [rng.randrange(8) for _ in range(7)]
        jokers = rng.randrange(4)
        shuffled = values[:]
        rng.shuffle(shuffled)
        for table in (Scoring.BROWN.table, Scoring.GRAY.table):
            assert best_total(values, jokers, 0, table, 3) == best_total(
                shuffled, jokers, 0, table, 3
            )


def test_score_does_not_mutate_its_input():
    counts = {"green": 6, "yellow": 4, "orange": 3, "blue": 2, "pink": 0}
    copy = dict(counts)
    score(counts, jokers=3, plus2=2, scoring="gray")
    assert counts == copy
    values = [6, 4, 3, 2, 0]
    best_total(values, 3, 1, Scoring.BROWN.table, 3)
    assert values == [6, 4, 3, 2, 0]


def test_score_rejects_bad_input():
    with pytest.raises(ValueError, match="negative"):
        score({"a": -1})
    with pytest.raises(ValueError, match="negative"):
        score({"a": 1}, jokers=-1)
    with pytest.raises(ValueError, match="negative"):
        score({"a": 1}, plus2=-2)
    with pytest.raises(ValueError, match="at least one colour"):
        score({}, jokers=1)
    with pytest.raises(ValueError, match="purple"):
        score({"a": 1}, scoring="purple")


# ------------------------------------------------------------ in a game


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_game_scores_agree_with_the_breakdown_and_with_score(rules):
    game = play_out(new_game(rules, seed=13), 13)
    for seat in range(rules.seats):
        held = game.collection(seat)
        counts = {c: held.get(c, 0) for c in game.colours}
        jokers = held.get(Card.JOKER, 0) + held.get(Card.GOLDEN_JOKER, 0)
        plus2 = held.get(Card.PLUS2, 0)
        breakdown = game.score_breakdown(seat)
        assert breakdown.total == game.final_scores()[seat]
        assert breakdown.scoring is rules.scoring
        assert breakdown.total == brute_force(
            list(counts.values()), jokers, plus2, rules.scoring.table, rules.plus_colours
        )
        check_breakdown(
            breakdown, counts, jokers, plus2, rules.scoring.table, plus_colours=rules.plus_colours
        )
        assert all(s.colour in game.colours for s in breakdown.sets)
        assert all(c in game.colours for c in breakdown.jokers)


def test_jokers_only_join_colours_in_play():
    # 2 players: five colours in play; a lone joker must go to one of them
    rules = Rules(players=2)
    game = new_game(rules, seed=3)
    for seat in range(2):
        breakdown = game.score_breakdown(seat)
        assert all(s.colour in game.colours for s in breakdown.sets)
    assert not set(game.removed_colours) & set(game.colours)
