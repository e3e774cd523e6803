"""The bots: legality under every rules combination, plug-ins, hidden information, determinism."""

from __future__ import annotations

import random
import re
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pytest

from coloretto.bots.base import Bot, Budget
from coloretto.bots.registry import LEVELS, BotError, BotSpec, available, make_bot
from coloretto.engine import (
    DRAW,
    Action,
    ActionKind,
    Card,
    Edition,
    GameState,
    Rules,
    Variant,
    new_game,
)

ALL_RULES = [
    Rules(players=p, scoring=s, edition=e)
    for p in (2, 3, 4, 5)
    for s in ("brown", "gray")
    for e in ("classic", "anniversary")
] + [
    Rules(players=2, variant=v, edition=e, scoring=s)
    for v in ("four-rows", "ghost")
    for e in ("classic", "anniversary")
    for s in ("brown", "gray")
]

FAST_SPECS = ["random", "greedy", "expert"]


def play(rules: Rules, specs: Sequence[str | Bot], seed: int) -> GameState:
    """Play one game (bots named or given); every action a bot returns must be legal."""
    given = [specs[p % len(specs)] for p in range(rules.players)]
    bots = [
        make_bot(spec, seed=seed + p) if isinstance(spec, str) else spec
        for p, spec in enumerate(given)
    ]
    state = new_game(rules, seed=seed)
    while not state.is_over:
        legal = state.legal_actions()
        action = bots[rules.controller(state.current_player)].choose(
            state.view(state.current_player), legal
        )
        assert action in legal, f"{action} not legal in {state}"
        state = state.apply(action)
    return state


def test_built_in_bots_are_registered_through_entry_points() -> None:
    assert {"random", "greedy", "expert", "search"} <= set(available())


def _short(value: object) -> str:
    """A test id: ``3p-gray-classic-standard`` for rules, the value itself otherwise."""
    if isinstance(value, Rules):
        return "-".join(
            [f"{value.players}p", value.scoring.value, value.edition.value, value.variant.value]
        )
    return str(value)


GAMES = {"random": 10, "greedy": 10, "expert": 5}
"""Whole games each fast bot plays (at seat 0, among fast bots drawn at random) under each
rules combination: 600 in all. The kinds of decision that seldom come up in a game are
each put to every fast bot in test_fast_bots_choose_legally_in_every_kind_of_position."""


@pytest.mark.parametrize(("game", "rules"), enumerate(ALL_RULES), ids=_short)
@pytest.mark.parametrize("spec", FAST_SPECS)
def test_fast_bots_play_hundreds_of_legal_games(spec: str, game: int, rules: Rules) -> None:
    rng = random.Random(f"{spec}/{game}")
    for n in range(GAMES[spec]):
        others = [rng.choice(FAST_SPECS) for _ in range(rules.players - 1)]
        play(rules, [spec, *others], seed=game + n * len(ALL_RULES))


def _situations(state: GameState) -> set[str]:
    """The kinds of decision the seat to move faces."""
    legal = state.legal_actions()
    seat = state.current_player
    found = {"a ghost seat"} if state.rules.controller(seat) != seat else set()
    if state.drawn_card is not None:
        return found | {"a placement" if len(legal) > 1 else "a forced placement"}
    takes = [a for a in legal if a.kind is ActionKind.TAKE]
    if DRAW in legal:
        found.add("take or draw" if takes else "draw only")
    else:
        found.add("takes only" if len(takes) > 1 else "one take")
    if state.last_round:
        found.add("the last round")
    if any(Card.GOLDEN_JOKER in state.rows[a.row or 0] for a in takes):
        found.add("the golden joker")
    if sum(state.seats_out) == len(state.seats_out) - 1:
        found.add("alone")
    return found


def _expected_situations(rules: Rules) -> set[str]:
    expected = {"a placement", "a forced placement", "draw only", "take or draw"}
    expected |= {"takes only", "the last round", "alone"}
    if rules.players > 2 or rules.variant is not Variant.STANDARD:
        expected.add("one take")  # two seats at three rows: the last to take has a choice
    if rules.edition is Edition.ANNIVERSARY:
        expected.add("the golden joker")
    if rules.variant is Variant.GHOST:
        expected.add("a ghost seat")
    return expected


POSITIONS = 10
"""Positions of each kind put to the fast bots under each rules combination."""


def _positions(rules: Rules) -> dict[str, list[GameState]]:
    """``POSITIONS`` positions of each kind of decision, reached by random play."""
    expected = _expected_situations(rules)
    found: dict[str, list[GameState]] = {situation: [] for situation in expected}
    for seed in range(100):
        rng = random.Random(seed)
        state = new_game(rules, seed=seed)
        while not state.is_over:
            for situation in _situations(state):
                kept = found.setdefault(situation, [])
                if len(kept) < POSITIONS:
                    kept.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
        if all(len(states) == POSITIONS for states in found.values()):
            break
    return found


@pytest.mark.parametrize("rules", ALL_RULES, ids=_short)
def test_fast_bots_choose_legally_in_every_kind_of_position(rules: Rules) -> None:
    positions = _positions(rules)
    assert set(positions) == _expected_situations(rules)
    for situation, states in positions.items():
        assert len(states) == POSITIONS, f"random play seldom reaches {situation}"
        for i, state in enumerate(states):
            legal = state.legal_actions()
            for spec in FAST_SPECS:
                action = make_bot(spec, seed=i).choose(state.view(state.current_player), legal)
                assert action in legal, f"{spec} chose {action} facing {situation} in {state}"


SEARCH_MODES = ["search:iterations=3", "search:iterations=2:rounds=0:sample=true"]
"""The search bot as the levels play it (a round ahead), and playing out to the game's end
with its opponents drawn for each deal."""


@pytest.mark.parametrize(("game", "rules"), enumerate(ALL_RULES), ids=_short)
@pytest.mark.parametrize("spec", SEARCH_MODES)
def test_search_bot_plays_legal_games_under_every_rules_combination(
    spec: str, game: int, rules: Rules
) -> None:
    # One search seat a game (searches cost most with many seats), a different seat from
    # one rules combination to the next; whole tables of search bots play in
    # test_bots_are_deterministic_given_a_seed.
    seat = game % rules.players
    play(rules, ["greedy"] * seat + [spec] + ["greedy"] * (rules.players - seat - 1), seed=game)


def test_unknown_bot_lists_the_levels_then_the_available_names() -> None:
    with pytest.raises(BotError) as refused:
        make_bot("nope")
    assert str(refused.value).startswith(
        "unknown bot 'nope'; choose a level (beginner, easy, normal, hard) or a bot ("
    )
    assert re.search(r"or a bot \(.*greedy.*random.*\)$", str(refused.value))


def test_a_level_with_options_is_not_called_an_unknown_bot() -> None:
    with pytest.raises(BotError, match=r"the level 'hard' takes no options \(it stands for search"):
        make_bot("hard:seconds=1")


def test_bad_options_are_reported_with_the_spec() -> None:
    with pytest.raises(BotError, match="search:colour=red"):
        make_bot("search:colour=red")
    with pytest.raises(BotError, match="search:playout=greedy"):  # the tree search is gone
        make_bot("search:playout=greedy")
    with pytest.raises(BotError, match="sample must be true or false, not 'maybe'"):
        make_bot("search:sample=maybe")
    with pytest.raises(BotError, match="observe must be true or false, not 1"):
        make_bot("expert:observe=1")
    with pytest.raises(BotError, match="key=value"):
        BotSpec.parse("search:fast")


def test_levels_map_onto_bots() -> None:
    for level, spec in LEVELS.items():
        assert isinstance(make_bot(level, seed=1), Bot), level
        assert str(BotSpec.parse(level)) == spec


def _install_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module_source: str) -> None:
    """Make a third-party distribution visible on sys.path with a coloretto.bots entry point."""
    (tmp_path / "thirdparty_bot.py").write_text(textwrap.dedent(module_source))
    dist = tmp_path / "thirdparty_bot-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: thirdparty-bot\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[coloretto.bots]\nfirst = thirdparty_bot:FirstLegal\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "thirdparty_bot", raising=False)


def test_a_third_party_bot_plugs_in_through_an_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install_plugin(
        tmp_path,
        monkeypatch,
        '''
        class FirstLegal:
            """Always plays the first legal action."""

            def __init__(self, seed=None, **options):
                self.options = options

            def choose(self, view, legal, budget=None):
                return legal[0]
        ''',
    )
    assert "first" in available()
    bot = make_bot("first:style=plain", seed=3)
    assert bot.options == {"style": "plain"}  # type: ignore[attr-defined]
    play(Rules(players=3), ["first", "greedy", "random"], seed=4)


def test_a_plugin_that_fails_to_import_gets_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _install_plugin(tmp_path, monkeypatch, "import module_that_does_not_exist\n")
    assert "first" in available()  # listing does not import
    with pytest.raises(BotError, match=r"'first' failed to load \(ModuleNotFoundError.*a level"):
        make_bot("first")


def _mid_game_states() -> list[GameState]:
    states = []
    for seed, rules in enumerate(ALL_RULES):
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 60)):
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            states.append(state)
    return states


@pytest.mark.parametrize("spec", [*FAST_SPECS, *SEARCH_MODES])
def test_bots_never_read_the_hidden_deck_order(spec: str) -> None:
    for i, state in enumerate(_mid_game_states()):
        scrambled = state.shuffled(random.Random(i))
        assert scrambled.setup.deck != state.setup.deck or state.deck_size < 2
        seat = state.current_player
        legal = state.legal_actions()
        real = make_bot(spec, seed=i).choose(state.view(seat), legal)
        other = make_bot(spec, seed=i).choose(scrambled.view(seat), legal)
        assert real == other, f"{spec} decided differently on a scrambled deck in {state}"


@pytest.mark.parametrize("spec", [*FAST_SPECS, *SEARCH_MODES])
def test_bots_are_deterministic_given_a_seed(spec: str) -> None:
    first = play(Rules(players=3), [spec, spec, spec], seed=11)
    second = play(Rules(players=3), [spec, spec, spec], seed=11)
    assert first.history() == second.history()


def _second_card(state: GameState) -> GameState:
    """The game after its first card is placed on row 1 and the next is drawn: the drawn
    card can go on that row or on an empty one (the empty rows are alike)."""
    drawn = state.apply("draw")
    return drawn.apply(drawn.legal_actions()[0]).apply("draw")


def test_search_searches_one_of_rows_alike() -> None:
    # With every row empty, where the first card goes makes no difference: the search
    # plays it at once, and its hints give every row the same estimate.
    state = new_game(Rules(players=4), seed=2).apply("draw")
    view, legal = state.view(state.current_player), state.legal_actions()
    search = make_bot("search:iterations=4:prune=-1", seed=1)
    assert search.choose(view, legal) in legal
    assert search.last_iterations == 0  # type: ignore[attr-defined]
    estimates = search.analyse(view, legal)  # type: ignore[attr-defined]
    assert set(estimates) == set(legal)
    assert len(set(estimates.values())) == 1
    # With a card on row 1, the drawn card has two different places to go.
    state = _second_card(new_game(Rules(players=4), seed=2))
    view, legal = state.view(state.current_player), state.legal_actions()
    estimates = search.analyse(view, legal)  # type: ignore[attr-defined]
    assert len(set(estimates.values())) == 2
    assert estimates[legal[1]] == estimates[legal[-1]] != estimates[legal[0]]


def test_search_spends_its_deals_on_the_candidates_that_can_still_win() -> None:
    # Every legal action is a candidate (prune=-1); those far behind the expert's choice
    # after a few deals are played out no more, the expert's choice on every deal.
    state = new_game(Rules(players=4), seed=3)
    expert = make_bot("expert")
    while len(state.rows_taken) - sum(state.rows_taken) < 4 or not state.rows[3]:
        state = state.apply(expert.choose(state.view(state.current_player), state.legal_actions()))
    view, legal = state.view(state.current_player), state.legal_actions()
    search = make_bot("search:iterations=32:prune=-1", seed=1)
    played: dict[Action, int] = {}
    rollout = search._rollout  # type: ignore[attr-defined]

    def counted(after: GameState, seat: int, deadline: float | None) -> float | None:
        move = after.history()[len(state.history())].action
        played[move] = played.get(move, 0) + 1
        return rollout(after, seat, deadline)  # type: ignore[no-any-return]

    search._rollout = counted  # type: ignore[attr-defined]
    choice = search.choose(view, legal)
    assert len(played) == len(legal) >= 3
    assert played[expert.choose(view, legal)] == played[choice] == 32
    assert min(played.values()) < 32


def _expert_moves(moves: int) -> GameState:
    """A 4-player game after ``moves`` of the expert's moves."""
    state = new_game(Rules(players=4), seed=3)
    expert = make_bot("expert")
    for _ in range(moves):
        state = state.apply(expert.choose(state.view(state.current_player), state.legal_actions()))
    return state


def test_search_stops_once_the_experts_choice_is_left_alone_in_the_race() -> None:
    # Drawing is far ahead of the one take there: after the race's first deals the take
    # drops out, and the expert's choice, left alone, is played at once.
    state = _expert_moves(2)
    view, legal = state.view(state.current_player), state.legal_actions()
    search = make_bot("search:iterations=24:prune=-1", seed=1)
    assert search.choose(view, legal) == make_bot("expert").choose(view, legal) == DRAW
    assert 8 <= search.last_iterations < 24  # type: ignore[attr-defined]


def test_search_extends_its_deals_while_the_comparison_is_close() -> None:
    # With ``extend=2`` a search whose candidates are still within two standard errors of
    # the expert's choice after its deals plays up to twice as many; one whose race is
    # settled stops as without it.
    close = _expert_moves(5)
    settled = _expert_moves(2)
    for state, deals in ((close, 48), (settled, None)):
        view, legal = state.view(state.current_player), state.legal_actions()
        plain = make_bot("search:iterations=24:prune=-1", seed=1)
        extended = make_bot("search:iterations=24:prune=-1:extend=2", seed=1)
        plain.choose(view, legal)
        extended.choose(view, legal)
        expected = plain.last_iterations if deals is None else deals  # type: ignore[attr-defined]
        assert extended.last_iterations == expected  # type: ignore[attr-defined]
    assert plain.last_iterations < 24  # type: ignore[attr-defined]


def test_search_takes_its_five_seat_deals_only_at_five_seats() -> None:
    # Its choice and its analysis (the hints) both run ``at_five`` deals at five seats,
    # ``iterations`` at fewer.
    for players, deals in ((4, 6), (5, 3)):
        state = _second_card(new_game(Rules(players=players), seed=2))
        view, legal = state.view(state.current_player), state.legal_actions()
        split, plain = (make_bot(s, seed=1) for s in ("search:iterations=6:at_five=3",
                                                      f"search:iterations={deals}"))  # fmt: skip
        split.choose(view, legal)
        assert split.last_iterations == deals  # type: ignore[attr-defined]
        plain.choose(view, legal)  # the same deals (and draws of the table) so far
        split.analyse(view, legal[:2])  # type: ignore[attr-defined]
        plain.analyse(view, legal[:2])  # type: ignore[attr-defined]
        assert split.last_iterations == plain.last_iterations  # type: ignore[attr-defined]


def test_search_respects_an_iteration_budget_and_a_time_budget() -> None:
    state = _second_card(new_game(Rules(players=4), seed=2))
    # 8 deals, not the default 16: the race (which may end a search early) starts after 8.
    bot = make_bot("search:iterations=8:prune=-1", seed=1)
    legal = state.legal_actions()
    bot.choose(state.view(state.current_player), legal)
    assert bot.last_iterations == 8  # type: ignore[attr-defined]
    bot.choose(state.view(state.current_player), legal, Budget(iterations=7))
    assert bot.last_iterations == 7  # type: ignore[attr-defined]
    # Deals cut short by the cap do not count: give the first one time, even on a busy
    # machine (a deal takes about 0.05 s on a 2-core machine at a load of 5: 1 s is 20 deals).
    timed = make_bot("search:seconds=1:prune=-1", seed=1)
    timed.choose(state.view(state.current_player), legal)
    assert timed.last_iterations >= 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("prune", ["3", "-1"])
def test_search_keeps_the_experts_choice_unless_another_clearly_beats_it(prune: str) -> None:
    # With every legal action a candidate too (prune=-1), the expert's choice is the one
    # kept: an unreachable confidence makes the search play as the expert does.
    state = new_game(Rules(players=4), seed=3)
    expert = make_bot("expert")
    search = make_bot(f"search:iterations=4:prune={prune}:confidence=1000", seed=1)
    choices = 0
    while not state.is_over:
        legal = state.legal_actions()
        view = state.view(state.current_player)
        choice = expert.choose(view, legal)
        if len(legal) > 1 and state.current_player == 0:
            choices += 1
            assert search.choose(view, legal) == choice, (state.round, legal)
        state = state.apply(choice)
    assert choices > 20


def _final_choices(limit: int) -> list[GameState]:
    """2-player positions where the seat left in the last round must take one of two rows."""
    found = []
    for seed in range(400):
        rng = random.Random(seed)
        state = new_game(Rules(players=2), seed=seed)
        while not state.is_over:
            legal = state.legal_actions()
            takes_only = all(a.kind.value == "take" for a in legal) and len(legal) > 1
            alone = state.last_round and sum(state.seats_out) == 1
            if alone and takes_only:
                found.append(state)
                break
            # The last seat in the last round fills the rows, so that it must take.
            state = state.apply(legal[0] if alone else rng.choice(legal))
        if len(found) == limit:
            break
    return found


def test_search_picks_the_take_with_the_best_final_result() -> None:
    positions = _final_choices(8)
    decisive = 0
    for state in positions:
        seat = state.current_player

        def result(action: Action, state: GameState = state, seat: int = seat) -> tuple[bool, int]:
            scores = state.apply(action).final_scores()
            rival = max(s for i, s in enumerate(scores) if i != seat)
            return scores[seat] >= rival, scores[seat] - rival

        outcomes = {result(a) for a in state.legal_actions()}
        decisive += len(outcomes) > 1
        best = max(outcomes)
        choice = make_bot("search:iterations=60", seed=1).choose(
            state.view(seat), state.legal_actions()
        )
        assert result(choice) == best
    assert decisive >= 4, "the positions should offer takes with different results"
