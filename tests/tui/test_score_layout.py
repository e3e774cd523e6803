"""The score screen's places (ties shared, as the rules have it) and its layout: cards of
one size, sized to their content and centred, at the sizes a terminal has."""

from __future__ import annotations

import random

import pytest
from textual.app import App
from textual.geometry import Region
from textual.screen import Screen

from coloretto.engine import Outcome
from coloretto.play.config import GameConfig
from coloretto.play.session import Session
from coloretto.tui.screens import EndScreen
from coloretto.tui.screens.dialogs import ConfirmRematch
from coloretto.tui.screens.end import GROWTH, place_line, place_title
from coloretto.tui.widgets import ScoreCard
from coloretto.tui.widgets.score_card import signed

from .conftest import asynctest, make_app, make_config, play_to_end, text_of

NAMES = ["You", "Bot 1", "Bot 2", "Bot 3"]


def finished(config: GameConfig, seed: int) -> Session:
    """A game of ``config`` played to its end by random legal moves (seeded)."""
    session = Session(config)
    rng = random.Random(seed)
    while not session.game.is_over:
        session.apply(rng.choice(session.game.legal_actions()))
    return session


class ScoresApp(App[None]):
    """An app that shows one score screen."""

    def __init__(self, screen: Screen[object]) -> None:
        super().__init__()
        self.scores = screen

    def on_mount(self) -> None:
        self.push_screen(self.scores)


def top_border(card: ScoreCard) -> str:
    """The card's top line as the screen shows it, title and all."""
    return card.render_lines(Region(0, 0, *card.outer_size))[0].text


def test_a_place_of_ones_own_is_said_plainly() -> None:
    assert place_line(NAMES, Outcome.of([24, 15, 36, 33]), 0) == "You came 3rd of 4 with 24 points."


def test_a_shared_place_names_who_shares_it() -> None:
    # The rules break no tie: Bot 2 and you both come 3rd, and nobody 4th.
    outcome = Outcome.of([31, 40, 31, 35])
    assert place_line(NAMES, outcome, 0) == "You and Bot 2 share 3rd place with 31 points each."
    assert [place_title(outcome, seat) for seat in range(4)] == [
        "shared 3rd",
        "1st",
        "shared 3rd",
        "2nd",
    ]
    three = place_line(["Ana", "Ben", "Cy", "Di"], Outcome.of([20, 20, 20, 30]), 1)
    assert three == "Ben, Ana and Cy share 2nd place with 20 points each."
    assert [place_title(outcome, seat, short=True) for seat in range(4)] == [
        "=3rd",
        "1st",
        "=3rd",
        "2nd",
    ]


@pytest.mark.parametrize(
    ("size", "shared"), [((75, 24), "=2nd"), ((80, 24), "shared 2nd"), ((120, 40), "shared 2nd")]
)
@asynctest
async def test_a_shared_place_is_said_whole_however_narrow_the_card(
    size: tuple[int, int], shared: str
) -> None:
    session = finished(make_config(5, humans=0, seed=3), seed=3)
    assert session.game.final_scores() == (12, 18, 23, 18, 18)  # three share 2nd
    async with ScoresApp(EndScreen(session)).run_test(size=size) as pilot:
        await pilot.pause()
        cards = list(pilot.app.screen.query(ScoreCard))
        titles = [top_border(card) for card in cards]
        for card, title in zip(cards, titles, strict=True):
            want = {0: "5th", 2: "★ winner"}.get(card.seat, shared)
            assert f" {want} " in title, titles
            assert "…" not in title, titles  # never cut to "shared 2…"


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 50)])
@pytest.mark.parametrize("players", [4, 5])
@asynctest
async def test_the_cards_are_one_size_fit_their_content_and_are_centred(
    size: tuple[int, int], players: int
) -> None:
    session = finished(make_config(players, humans=1, seed=1, names=["Alexandra Smithe"]), 1)
    async with ScoresApp(EndScreen(session)).run_test(size=size) as pilot:
        await pilot.pause()
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        cards = list(end.query(ScoreCard))
        regions = [card.region for card in cards]
        assert len({(r.width, r.height) for r in regions}) == 1, regions  # one size
        assert len({r.y for r in regions}) == 1  # side by side
        assert all(end.region.contains_region(r) for r in regions)  # all in sight
        content = max(card.wanted_width for card in cards)
        assert regions[0].width <= content + 4 + GROWTH  # no huge empty boxes
        left, right = regions[0].x, size[0] - regions[-1].right
        assert abs(left - right) <= 2  # centred
        headline = end.query_one("#headline")
        above = headline.region.y
        below = size[1] - 2 - end.query_one("#end-key").region.bottom  # notice, footer
        assert abs(above - below) <= 2  # the results in the middle, not at the top
        for card in cards:
            body = text_of(card)
            assert end.view.seat_names[card.seat] in body.replace("\n", " ")
            assert body.count(" pts") == 0  # the total is said once, as "Total"


@asynctest
async def test_a_rematch_is_asked_for_and_a_match_in_progress_says_so() -> None:
    app = make_app(3, humans=1, seed=2, games=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_end(pilot)
        end = pilot.app.screen
        assert isinstance(end, EndScreen)
        await pilot.press("r")
        dialog = pilot.app.screen
        assert isinstance(dialog, ConfirmRematch)
        question = text_of(dialog.query_one("#confirm-question"))
        assert "new match" in question
        assert "stops after game 1 of 3" in question
        await pilot.press("n")
        assert pilot.app.screen is end
        assert end.view.match.game_number == 1


@asynctest
async def test_five_cards_at_80x24_show_every_points_whole() -> None:
    # Seat 1 holds three gray cards and three jokers counted with them: 3*** for +21.
    session = finished(make_config(5, humans=0, seed=79), seed=79)
    assert "3***" in text_of_breakdown(session, 0)
    async with ScoresApp(EndScreen(session)).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        cards = {card.seat: card for card in pilot.app.screen.query(ScoreCard)}
        for seat, card in cards.items():
            shown = shown_text(card)
            assert "…" not in shown, shown
            for entry in session.game.score_breakdown(seat).sets:
                assert signed(entry.points) in shown, shown
        first = shown_text(cards[0]).splitlines()
        assert any(line.split()[-2:] == ["3***", "+21"] for line in first if line.split())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@asynctest
async def test_the_cards_stand_by_place_the_winner_first(size: tuple[int, int]) -> None:
    session = finished(make_config(5, humans=0, seed=3), seed=3)
    scores = session.game.final_scores()  # 12, 18, 23, 18, 18: three share 2nd
    async with ScoresApp(EndScreen(session)).run_test(size=size) as pilot:
        await pilot.pause()
        cards = list(pilot.app.screen.query(ScoreCard))
        assert [card.seat for card in cards] == [2, 1, 3, 4, 0]  # a tie in seat order
        assert [scores[card.seat] for card in cards] == sorted(scores, reverse=True)
        xs = [card.region.x for card in cards]
        assert xs == sorted(xs)  # left to right


@asynctest
async def test_the_score_screen_grows_with_the_terminal() -> None:
    session = finished(make_config(4, humans=1, seed=1), seed=1)
    sizes = {}
    for size in [(80, 24), (120, 40)]:
        async with ScoresApp(EndScreen(session)).run_test(size=size) as pilot:
            await pilot.pause()
            card = pilot.app.screen.query(ScoreCard).first()
            sizes[size] = card.region.size
            lines = shown_text(card).splitlines()
            blank = [line for line in lines if not line.strip()]
            assert bool(blank) == (size == (120, 40))  # its lines spaced out
    small, large = sizes[(80, 24)], sizes[(120, 40)]
    assert large.width > small.width
    assert large.height > small.height + 4


def text_of_breakdown(session: Session, seat: int) -> str:
    return " ".join(
        f"{entry.cards}{'*' * entry.jokers}" for entry in session.game.score_breakdown(seat).sets
    )


def shown_text(card: ScoreCard) -> str:
    """The card's content as the screen shows it (cut where it does not fit)."""
    region = card.content_region
    lines = card.render_lines(Region(0, 0, *card.outer_size))
    top = region.y - card.region.y
    left = region.x - card.region.x
    return "\n".join(line.text[left : left + region.width] for line in lines[top:])
