"""The ``expert`` bot's decisions in constructed situations, and its conduct in whole games."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

import pytest

from coloretto.bots import expert as expert_module
from coloretto.bots.expert import ExpertBot
from coloretto.bots.registry import make_bot
from coloretto.engine import (
    COLOURS,
    DRAW,
    Action,
    ActionKind,
    Card,
    GameState,
    Rules,
    Setup,
    new_game,
)

BELOW_LAST_ROUND = 15


def deal_and_play(
    rules: Rules,
    starting: Sequence[Sequence[str]],
    script: Sequence[str],
    removed: Sequence[str] = (),
) -> GameState:
    """Play ``script`` from a deal whose deck starts with exactly the cards it draws.

    A step is ``"blue>2"`` (draw a blue card, place it on row 2), ``"take 3"``
    or, as the last step, ``"draw joker"`` (draw it and leave it to place).
    The first player is seat 0; the rest of the deck follows in a fixed order.
    """
    drawn = [
        Card.from_text(step.split(">")[0] if ">" in step else step.removeprefix("draw "))
        for step in script
        if ">" in step or step.startswith("draw ")
    ]
    out = tuple(Card.from_text(c) for c in removed)
    hands = tuple(tuple(Card.from_text(c) for c in hand) for hand in starting)
    full = Counter({colour: 9 for colour in COLOURS if colour not in out})
    full.update({Card.PLUS2: 10, Card.JOKER: 3})
    rest = full - Counter(card for hand in hands for card in hand) - Counter(drawn)
    cards = [*drawn, *sorted(rest.elements())]
    deck = (*cards[:-BELOW_LAST_ROUND], Card.LAST_ROUND, *cards[-BELOW_LAST_ROUND:])
    state = GameState.from_setup(rules, Setup(out, hands, deck, 0))
    for step in script:
        if ">" in step:
            state = state.apply("draw").apply(f"place {step.split('>')[1]}")
        elif step.startswith("draw "):
            state = state.apply("draw")
        else:
            state = state.apply(step)
    return state


def expert_move(state: GameState, **options: float) -> Action:
    """What the expert plays for the seat to move.

    It does not observe the seats: the constructed rounds are scripted, not played, so
    what the seats seem to do there (draw onto their own rows) says nothing about them.
    """
    seat = state.current_player
    bot = ExpertBot(seed=1, observe=False, **options)
    return bot.choose(state.view(seat), state.legal_actions())


# Four players. Seat 0 (the expert) starts with blue, 1 with pink, 2 with green,
# 3 with yellow. In round 1 each seat fills its own row with three cards and
# takes it, seat 3 last, so seat 3 opens round 2 and seat 0 moves second.
FOUR = Rules(players=4)
FOUR_GRAY = Rules(players=4, scoring="gray")
START = [["blue"], ["pink"], ["green"], ["yellow"]]


def round_one(*rows: tuple[str, str, str]) -> list[str]:
    """Round 1: seat ``s`` draws ``rows[s]`` onto row ``s + 1``, then all take in turn."""
    fills = [f"{rows[seat][k]}>{seat + 1}" for k in range(3) for seat in range(4)]
    return [*fills, "take 1", "take 2", "take 3", "take 4"]


# Seat 0: blue 2, orange 1, green 1. Seat 1: pink 2, gray 1, brown 1.
# Seat 2: green 2, yellow 1, brown 1. Seat 3: yellow 2, gray 1, orange 1.
SPREAD = round_one(
    ("blue", "orange", "green"),
    ("pink", "gray", "brown"),
    ("green", "yellow", "brown"),
    ("yellow", "gray", "orange"),
)
# The same, but seat 0 has blue 3 and orange 1, and seat 1 collects blue too.
BLUE_RIVAL = round_one(
    ("blue", "blue", "orange"),
    ("blue", "blue", "gray"),
    ("green", "yellow", "brown"),
    ("yellow", "gray", "orange"),
)


# Round 2: row 1 fills with blue, orange, blue; one card each on rows 2 and 3.
BLUE_ROW = [*SPREAD, "blue>1", "orange>1", "pink>2", "green>3", "blue>1"]


def test_takes_a_row_that_builds_its_colours() -> None:
    # Seat 0 would hold 4 blue, 2 orange.
    state = deal_and_play(FOUR, START, BLUE_ROW)
    assert state.current_player == 0
    assert expert_move(state) == Action.take(0)


def test_does_not_take_a_row_of_colours_it_does_not_collect() -> None:
    # Row 1 holds pink, yellow and gray; the other rows are still empty.
    script = [*SPREAD, "pink>1", "yellow>1", "gray>2", "brown>3", "yellow>1"]
    state = deal_and_play(FOUR, START, script)
    assert state.current_player == 0
    assert expert_move(state) != Action.take(0)


def test_takes_a_short_row_before_a_rival_collector_does() -> None:
    # Row 1 holds two blue. Seat 0 (blue 3) moves; seat 1 moves next. When seat 1
    # collects blue too it would take the row, so seat 0 takes it at once; when
    # nobody else wants blue, seat 0 lets the row grow.
    def position(seat_one: tuple[str, str, str]) -> GameState:
        rows = round_one(
            ("blue", "blue", "orange"),
            seat_one,
            ("green", "yellow", "brown"),
            ("yellow", "gray", "orange"),
        )
        script = [*rows, "blue>1", "yellow>2", "gray>3", "blue>1", "pink>4"]
        return deal_and_play(FOUR, START, script)

    assert expert_move(position(("blue", "blue", "gray"))) == Action.take(0)
    assert expert_move(position(("pink", "gray", "brown"))).kind is ActionKind.DRAW


@pytest.mark.parametrize(("rules", "row"), [(FOUR, 0), (FOUR_GRAY, 1)])
def test_gray_side_avoids_a_fourth_card(rules: Rules, row: int) -> None:
    # Seat 0 holds blue 2, orange 1, green 1 and must take a row. Row 1: blue,
    # blue, +2 (a 4th blue); row 2: blue, orange, +2; row 3: green, yellow, green.
    # Brown pays 9, 7 and 4 points; gray 5, 9 and 6.
    script = [
        *SPREAD,
        *("blue>1", "blue>1", "+2>1", "blue>2", "orange>2", "+2>2"),
        *("green>3", "pink>4", "yellow>3", "green>3", "pink>4", "yellow>4", "take 4"),
    ]
    state = deal_and_play(rules, START, script)
    assert state.current_player == 0
    assert ActionKind.DRAW not in {a.kind for a in state.legal_actions()}
    assert expert_move(state) == Action.take(row)


@pytest.mark.parametrize(("rules", "wanted"), [(FOUR, True), (FOUR_GRAY, False)])
def test_gray_side_keeps_a_fourth_card_off_its_row(rules: Rules, wanted: bool) -> None:
    # Seat 0 holds blue 3, orange 1 and is building row 1 (orange, +2). It draws
    # blue: worth 4 more points on brown, but one point less on gray.
    rows = round_one(
        ("blue", "blue", "orange"),
        ("pink", "gray", "brown"),
        ("green", "yellow", "brown"),
        ("yellow", "gray", "pink"),
    )
    script = [*rows, "orange>1", "+2>1", "green>2", "pink>3", "yellow>4", "draw blue"]
    state = deal_and_play(rules, START, script)
    assert (state.current_player, state.drawn_card) == (0, Card.BLUE)
    assert (expert_move(state) == Action.place(0)) is wanted


def test_poisons_the_row_an_opponent_wants() -> None:
    # Row 1 holds two pink: seat 1 (pink 2), next to move, would take it happily.
    # Seat 0 draws yellow, a fourth colour for itself and for seat 1: it spoils
    # row 1 with it rather than start a row seats 2 and 3 (yellow) would like.
    script = [*SPREAD, "pink>1", "pink>1", "blue>2", "gray>3", "green>4", "draw yellow"]
    state = deal_and_play(FOUR, START, script)
    assert (state.current_player, state.drawn_card) == (0, Card.YELLOW)
    assert expert_move(state) == Action.place(0)


@pytest.mark.parametrize(
    ("scoring", "card", "row"),
    [
        ("brown", "+2", 2),
        ("gray", "+2", 2),
        ("brown", "joker", 2),
        ("gray", "joker", 2),
        ("brown", "orange", 1),
    ],
)
def test_alone_keeps_safe_cards_and_dumps_the_rest(scoring: str, card: str, row: int) -> None:
    # Two players (rows hold 1, 2 and 3 cards). Seat 1 has taken row 1; seat 0
    # (blue, green) is left with an empty row 2 and row 3 holding yellow, blue.
    # "+2" and jokers never hurt: they go on row 3. On the brown side orange, a
    # fourth colour, goes on row 2, which will be discarded. (On the gray side
    # the expert counts on completing its colours anyway, so it values row 3
    # little and may rather keep row 2 free.)
    rules = Rules(players=2, scoring=scoring)
    script = ["yellow>3", "pink>1", "blue>3", "take 1", f"draw {card}"]
    starting = [["blue", "green"], ["orange", "pink"]]
    state = deal_and_play(rules, starting, script, removed=("gray", "brown"))
    assert state.seats_out == (False, True)
    assert expert_move(state) == Action.place(row)


RULES = [
    Rules(players=2),
    Rules(players=2, scoring="gray"),
    Rules(players=3),
    Rules(players=4, scoring="gray"),
    Rules(players=5, edition="anniversary"),
    Rules(players=2, variant="four-rows"),
    Rules(players=2, variant="ghost", edition="anniversary"),
]


def play(rules: Rules, seed: int, specs: Sequence[str]) -> tuple[GameState, list[float]]:
    """Play one game, seat ``s`` by ``specs[s % len(specs)]``; also the expert's move times."""
    state = new_game(rules, seed=seed)
    bots = [make_bot(specs[s % len(specs)], seed=seed + s) for s in range(rules.seats)]
    times = []
    while not state.is_over:
        seat = state.current_player
        legal = state.legal_actions()
        start = time.perf_counter()
        action = bots[seat].choose(state.view(seat), legal)
        if isinstance(bots[seat], ExpertBot):
            times.append(time.perf_counter() - start)
        assert action in legal
        state = state.apply(action)
    return state, times


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.variant}-{r.scoring}")
def test_plays_whole_games_under_every_rule_quickly_and_reproducibly(rules: Rules) -> None:
    first, times = play(rules, 11, ["expert", "greedy"])
    again, _ = play(rules, 11, ["expert", "greedy"])
    assert first.history() == again.history()
    assert sum(times) / len(times) < 0.02


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{r.variant}-{r.scoring}")
def test_remembering_gains_between_decisions_changes_no_rating(rules: Rules) -> None:
    """The expert remembers what cards are worth to each collection from one decision to
    the next; its ratings are the same as with nothing remembered, in any order."""
    final, _ = play(rules, 5, ["expert", "greedy"])
    states = [new_game(rules, seed=5)]
    for move in final.history():
        states.append(states[-1].apply(move.action))
    positions = [s for s in states if not s.is_over and len(s.legal_actions()) > 1]
    bot = ExpertBot(seed=1, observe=False)
    fresh = []
    for state in positions:
        expert_module._GAINS.clear()
        fresh.append(bot.rate(state.view(state.current_player), state.legal_actions()))
    remembered = [
        bot.rate(state.view(state.current_player), state.legal_actions())
        for state in reversed(positions)
    ]
    assert fresh == remembered[::-1]


def test_beats_greedy_heads_up() -> None:
    wins = 0.0
    for seed in range(20):
        seat = seed % 2
        specs = ["expert", "greedy"] if seat == 0 else ["greedy", "expert"]
        state, _ = play(Rules(players=2), seed, specs)
        outcome = state.outcome()
        assert outcome is not None
        wins += outcome.share(seat)
    assert wins >= 14


def test_waits_longer_while_the_rows_have_room() -> None:
    # Round 2, five cards on the four rows of three: 7 of the 12 places are free.
    state = deal_and_play(FOUR, START, BLUE_ROW)
    view, legal = state.view(0), state.legal_actions()
    flat = ExpertBot(observe=False, patience=0, waiting=0).rate(view, legal)
    brown = ExpertBot(observe=False).rate(view, legal)
    assert brown[DRAW] - flat[DRAW] == pytest.approx(-2 + 8 * 7 / 12)
    assert all(brown[a] == flat[a] for a in legal if a.kind is ActionKind.TAKE)
    # On the gray side with four seats the defaults add nothing.
    gray = deal_and_play(FOUR_GRAY, START, BLUE_ROW)
    view, legal = gray.view(0), gray.legal_actions()
    flat = ExpertBot(observe=False, patience=0, waiting=0).rate(view, legal)
    assert ExpertBot(observe=False).rate(view, legal) == flat


def test_at_five_gray_seats_its_timing_follows_the_table() -> None:
    game = new_game(Rules(players=5, scoring="gray"), seed=5)
    for row in (1, 2, 3):
        game = game.apply("draw").apply(f"place {row}")
    game = game.apply("take 1")  # one seat out: three of the mover's four others are in
    view, legal = game.view(game.current_player), game.legal_actions()
    flat = ExpertBot(observe=False, patience=0, waiting=0, crowd=0, final=0, early=0)
    fitted = ExpertBot(observe=False).rate(view, legal)
    open_rows = [r for r, taken in enumerate(view.rows_taken) if not taken]
    free = sum(view.row_capacities[r] - len(view.rows[r]) for r in open_rows)
    room = sum(view.row_capacities[r] for r in open_rows)
    before = view.cards_before_last_round
    assert before is not None
    assert before >= 45  # early in the game: the ``early`` term counts in full
    expected = 0.4 + 0.2 * free / room + 0.6 * 3 / 4 - 0.8
    assert fitted[DRAW] - flat.rate(view, legal)[DRAW] == pytest.approx(expected)


def test_heads_up_on_the_brown_side_its_patience_is_fixed() -> None:
    game = new_game(Rules(players=2), seed=5)
    for row in (1, 2):
        game = game.apply("draw").apply(f"place {row}")
    view, legal = game.view(game.current_player), game.legal_actions()
    fixed = ExpertBot(observe=False, patience=2, waiting=0).rate(view, legal)
    assert ExpertBot(observe=False).rate(view, legal) == fixed
    scaled = ExpertBot(observe=False, patience=-2, waiting=8).rate(view, legal)
    assert scaled[DRAW] != fixed[DRAW]


def test_options_come_through_the_registry() -> None:
    bot = make_bot("expert:denial=0.2:patience=1:waiting=3:crowd=0:final=-1:early=0.5", seed=3)
    assert isinstance(bot, ExpertBot)
    assert (bot.denial, bot.patience, bot.waiting) == (0.2, 1, 3)
    assert (bot.crowd, bot.final, bot.early) == (0, -1, 0.5)
    with pytest.raises(ValueError, match="denial"):
        ExpertBot(denial=-1)
    with pytest.raises(ValueError, match="final must be a number"):
        make_bot("expert:final=soon", seed=3)


def test_gray_side_counts_the_junk_to_come() -> None:
    # Seat 0 (blue 2, orange 1, green 1) builds those three. Row 1 holds two blue,
    # row 2 pink and yellow: two colours it would have to carry as minus colours,
    # whose further cards should cost it more than their first points.
    script = [*SPREAD, "blue>1", "pink>2", "blue>1", "yellow>2", "green>3"]
    state = deal_and_play(FOUR_GRAY, START, script)
    assert state.current_player == 0
    view, legal = state.view(0), state.legal_actions()
    plain = ExpertBot(observe=False, junk=0).rate(view, legal)
    wary = ExpertBot(observe=False, junk=1).rate(view, legal)
    blue_row, junk_row = Action.take(0), Action.take(1)
    assert wary[junk_row] - plain[junk_row] < wary[blue_row] - plain[blue_row] - 1.0
    assert ExpertBot(observe=False).rate(view, legal) == ExpertBot(observe=False, junk=0.25).rate(
        view, legal
    )
    brown = deal_and_play(FOUR, START, script)
    brown_view = brown.view(0)
    assert ExpertBot(observe=False).rate(brown_view, legal) == ExpertBot(
        observe=False, junk=0
    ).rate(brown_view, legal)


def test_the_junk_option_is_checked() -> None:
    bot = make_bot("expert:junk=0.5", seed=3)
    assert isinstance(bot, ExpertBot)
    assert bot.junk == 0.5
    with pytest.raises(ValueError, match="junk"):
        ExpertBot(junk=-1)


@pytest.mark.parametrize(("players", "counted"), [(4, True), (5, False)])
def test_its_junk_counts_by_default_up_to_four_gray_seats(players: int, counted: bool) -> None:
    game = new_game(Rules(players=players, scoring="gray"), seed=8)
    differs = False
    while not game.is_over:
        view, legal = game.view(game.current_player), game.legal_actions()
        default = ExpertBot(observe=False)
        differs |= default.rate(view, legal) != ExpertBot(observe=False, junk=0).rate(view, legal)
        game = game.apply(default.choose(view, legal))
    assert differs is counted
