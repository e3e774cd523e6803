"""The score screen: breakdowns, the winner, and the keys for what comes next."""

from __future__ import annotations

from textual.widgets import Input

from coloretto.engine import Card, score
from coloretto.play.words import names_and
from coloretto.tui.prompt import turn_prompt
from coloretto.tui.screens import EndScreen, GameScreen, SetupScreen
from coloretto.tui.screens.dialogs import ConfirmRematch
from coloretto.tui.widgets import DrawnCard, Notice, ScoreCard
from coloretto.tui.widgets.score_card import breakdown_table, signed

from .conftest import (
    SIZE,
    asynctest,
    game_screen,
    key_for,
    make_app,
    play_to_end,
    render_text,
    settle,
    text_of,
)
from .test_keys import footer_keys


def test_a_breakdown_shows_counts_points_jokers_and_plus2() -> None:
    held = {Card.GREEN: 6, Card.YELLOW: 4, Card.ORANGE: 3, Card.BLUE: 2}
    breakdown = score(held, jokers=1, plus2=1)
    assert breakdown.total == 41
    text = render_text(breakdown_table(breakdown, plain=True))
    lines = [line.split() for line in text.splitlines()]
    assert ["+", "[G]", "6", "+21"] in lines
    assert ["+", "[Y]", "4*", "+15"] in lines  # four and a joker, written as on the board
    assert ["+", "[O]", "3", "+6"] in lines
    assert ["\N{MINUS SIGN}", "[B]", "2", "\N{MINUS SIGN}3"] in lines  # a real minus
    assert ["[+2]", "\N{MULTIPLICATION SIGN}1", "+2"] in lines  # the card's own label
    assert ["[*]", "→", "[Y]"] in lines
    assert ["Total", "41"] in lines
    assert "-" not in text  # no hyphen for a minus


def test_the_total_stands_under_the_points() -> None:
    held = {Card.GREEN: 6, Card.YELLOW: 3, Card.ORANGE: 3, Card.BLUE: 2, Card.PINK: 1}
    breakdown = score(held, jokers=0, plus2=2)
    assert breakdown.total == 21 + 6 + 6 - 3 - 1 + 4
    lines = render_text(breakdown_table(breakdown, plain=True)).splitlines()
    rows = [line.rstrip() for line in lines if line.strip()]
    assert rows[-1].startswith("Total")
    assert rows[-1].endswith(" 33")
    assert len({len(row) for row in rows}) == 1, rows  # every number ends in one column


def test_a_golden_joker_is_shown_as_such() -> None:
    breakdown = score({Card.PINK: 2, Card.BLUE: 1}, jokers=2)
    text = render_text(breakdown_table(breakdown, golden=1, plain=True))
    lines = [line.split() for line in text.splitlines()]
    assert ["[$]", "→", "[P]"] in lines
    assert ["[*]", "→", "[P]"] in lines


def test_names_are_joined_in_words() -> None:
    assert names_and(["Ana"]) == "Ana"
    assert names_and(["Ana", "Ben"]) == "Ana and Ben"


@asynctest
async def test_the_score_screen_and_its_keys() -> None:
    app = make_app(2, humans=1, seed=21)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(pilot)
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        session = end.view
        game = session.game
        scores = game.final_scores()
        cards = list(end.query(ScoreCard))
        assert [c.seat for c in cards] == [0, 1]
        for card in cards:
            assert card.has_class("-winner") == (scores[card.seat] == max(scores))
            assert card.border_title == ("★ winner" if card.has_class("-winner") else "2nd")
            body = text_of(card)
            assert body.count(str(scores[card.seat])) == 1  # the total, said once
            total = next(line for line in body.splitlines() if line.startswith("Total"))
            assert total.split() == ["Total", str(scores[card.seat])]
            for entry in game.score_breakdown(card.seat).sets:
                assert signed(entry.points) in body
        key = text_of(end.query_one("#end-key"))
        assert "\N{MINUS SIGN} minus" in key
        jokers = [game.score_breakdown(seat).jokers for seat in range(2)]
        assert ("joker" in key) == any(jokers)  # the notation explained only when shown
        headline = text_of(end.query_one("#headline"))
        outcome = game.outcome()
        assert outcome is not None
        winner = session.seat_names[outcome.winners[0]]
        assert headline.startswith(winner)
        assert "points!" in headline

        assert "seed 21" in text_of(end.query_one(Notice))
        await pilot.press("x")  # a key that does nothing here says which keys do
        assert "x does nothing here: r rematch · s new setup" in text_of(end.query_one(Notice))

        await pilot.press("b")  # back to the board, which stays readable
        screen = pilot.app.screen
        assert isinstance(screen, GameScreen)
        assert "d draws" not in text_of(screen.query_one(DrawnCard))  # nothing to draw
        # The footer offers what works: the scores first, no move, no hint.
        assert await footer_keys(pilot) == ["Enter", "l", "?", "r", "q"]
        for key in ("d", "1", "h"):
            await pilot.press(key)
            assert "The game is over: press Enter" in text_of(screen.query_one(Notice))
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, EndScreen)
        await pilot.press("b", "escape")  # Esc goes back to the scores too
        assert isinstance(pilot.app.screen, EndScreen)

        await pilot.press("r")  # a rematch (r is the rules on the board): asked first
        assert isinstance(pilot.app.screen, ConfirmRematch)
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, EndScreen)
        await pilot.press("r", "y")  # a new game with the next seed
        await settle(pilot)
        rematch = game_screen(pilot)
        assert rematch is not screen
        assert rematch.view.match.seed == 22
        assert not rematch.view.game.is_over
        assert rematch.view.config.players == session.config.players


@asynctest
async def test_a_new_setup_from_the_score_screen() -> None:
    app = make_app(2, humans=0, seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(pilot)
        assert isinstance(pilot.app.screen, EndScreen)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(pilot.app.screen, SetupScreen)
        assert pilot.app.screen.defaults.seed is None  # a new deal, not the same again
        assert pilot.app.screen.query_one("#seed", Input).value == ""
        await pilot.press("escape")
        await pilot.pause()
        assert not pilot.app.is_running


@asynctest
async def test_the_ghost_variant_ranks_the_players_alone() -> None:
    app = make_app(2, humans=1, seed=4, variant="ghost")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = game_screen(pilot)
        prompts = set()
        while not isinstance(pilot.app.screen, EndScreen):
            prompts.add(turn_prompt(screen.view).plain)
            await pilot.press(key_for(screen.view.game))
            await settle(pilot)
        assert any(p.startswith("Your ghost's turn (you play it)") for p in prompts), prompts
        end = pilot.app.screen
        game = end.view.game
        outcome = game.outcome()
        assert outcome is not None
        cards = list(end.query(ScoreCard))
        crowned = {card.seat for card in cards if card.has_class("-winner")}
        assert crowned == set(outcome.winners) <= {0, 1}  # a ghost never wins
        assert {card.seat for card in cards[2:]} == {2, 3}  # the ghosts last, with no place
        assert all("ghost" in end.view.seat_names[card.seat] for card in cards[2:])
        assert not end.query_one("#standings").display  # no team totals
        for card in cards:
            assert end.view.seat_names[card.seat] in text_of(card)


@asynctest
async def test_five_players_at_80x24_see_every_name_whole() -> None:
    app = make_app(5, humans=1, seed=2, names=["Alexandra Smithe"])
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(pilot)
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        for card in end.query(ScoreCard):
            assert end.view.seat_names[card.seat] in text_of(card).replace("\n", " ")
            assert "winner" not in text_of(card)  # on the frame: nothing to wrap
            assert card.region.width >= 14


@asynctest
async def test_enter_pressed_as_the_scores_come_by_themselves_is_no_mistake() -> None:
    # The scores come by themselves a moment after the last move; "press Enter for the
    # scores" is on the board meanwhile: an Enter that lands on the score screen is fine.
    app = make_app(2, humans=1, seed=21)
    async with app.run_test(size=SIZE) as pilot:
        await play_to_end(pilot)
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        before = text_of(end.query_one(Notice))
        await pilot.press("enter")
        assert pilot.app.screen is end
        assert text_of(end.query_one(Notice)) == before  # no "enter does nothing here"
        assert "Enter" not in await footer_keys(pilot)  # nothing to offer: shown already
