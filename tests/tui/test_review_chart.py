"""The review's chart: each person's chance to win after each decision, with the flaws
marked (glyph and colour), moved through with the keys, filled in as the review goes; its
snapshots at 80x24, 120x40 and without colour."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from coloretto.engine import GameRecord
from coloretto.play.advice import signed
from coloretto.play.coach import Decision, Grade, StoredHint, Valuation
from coloretto.play.keeper import Keeper
from coloretto.play.replay import Replay
from coloretto.play.review import positions, review_of, with_review
from coloretto.store.paths import DataDir
from coloretto.tui import ColorettoApp
from coloretto.tui.replay_app import ReplayApp
from coloretto.tui.screens.review import ChartScreen, ReviewChart, ReviewScreen
from coloretto.tui.widgets import KeysBar, Notice
from coloretto.tui.widgets.win_chart import MARKS, ChartPoint, WinChart, draw, legend
from tests.test_review import PLUMBING

from .conftest import SIZE, asynctest, render_text, text_of
from .review_fixtures import reviewed_record
from .test_replay import screen_of

SnapCompare = Callable[..., bool]
LARGE = (120, 40)


def chart_text(chart: WinChart) -> str:
    """The chart as drawn, without colour."""
    return render_text(chart.render(), width=chart.size.width)


def detail(screen: ReviewScreen) -> str:
    return text_of(screen.query_one("#chart-detail", Static))


async def opened(pilot: Pilot[None], record: GameRecord, home: Path) -> ReviewScreen:
    """The review of ``record`` on screen, its summaries shown (the analysis done)."""
    await pilot.pause()
    await pilot.app.push_screen(ReviewScreen(record, None, DataDir(home)))
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    body = screen.query_one("#review-body", Static)
    for _ in range(3000):
        if "accuracy" in text_of(body):
            break
        await pilot.pause(0.01)
    assert "accuracy" in text_of(body)
    await pilot.pause()
    return screen


def test_the_flaws_are_marked_by_glyph_under_their_bars_and_the_selection_by_a_caret() -> None:
    record = reviewed_record()
    review = review_of(record, states := positions(record))
    assert review is not None
    mine = sorted((d for d in review.decisions.values() if d.seat == 0), key=lambda d: d.ply)
    points = [ChartPoint(d.ply, states[d.ply].round, d) for d in mine]
    lines = draw(points, selected=4, width=5 + len(points), rows=6, share=1 / 3)
    marks, axis = lines[-1].plain, lines[-2].plain
    for place, decision in enumerate(mine):  # a cell each: the mark right under its bar
        glyph = MARKS.get(decision.grade, " ")
        assert marks.ljust(5 + len(mine))[5 + place] == glyph
    assert any(d.grade.is_flaw for d in mine)  # the made-up game has some
    assert set(marks) - {" "} == {MARKS[d.grade] for d in mine if d.grade in MARKS}
    assert axis.index("▲") == 5 + 4
    assert axis.startswith("  0%┼1")  # round 1 starts at the first bar
    assert all(len(line.plain) == 5 + len(points) for line in lines[:-1])


def test_decisions_not_analysed_yet_are_dots_on_the_axis() -> None:
    lines = draw([ChartPoint(3, 1), ChartPoint(9, 2)], selected=0, width=7, rows=4, share=0.25)
    assert lines[-3].plain == "    │··"
    assert lines[-1].plain.strip() == ""


@asynctest
async def test_the_keys_move_through_the_decisions_and_p_shows_the_next_persons(
    tmp_path: Path,
) -> None:
    record = reviewed_record()
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, record, tmp_path)
        chart = screen.query_one(WinChart)
        assert chart.has_focus
        count = len(chart.points)
        assert all(p.decision is not None and p.decision.seat == 0 for p in chart.points)
        assert detail(screen).startswith(f"Decision 1 of {count} · move ")
        await pilot.press("right", "l")
        assert chart.selected == 2
        assert detail(screen).startswith(f"Decision 3 of {count}")
        await pilot.press("h")
        assert chart.selected == 1
        await pilot.press("end")
        assert chart.selected == count - 1
        await pilot.press("right")  # no further
        assert chart.selected == count - 1
        await pilot.press(
            "home", "n"
        )  # the first inaccuracy, mistake or blunder after the first decision
        errors = [i for i, p in enumerate(chart.points) if p.grade and p.grade.is_flaw]
        first = next(i for i in errors if i > 0)
        assert chart.selected == first
        point = chart.points[first]
        assert point.decision is not None
        shown = detail(screen)
        assert point.decision.grade.value in shown
        assert "best: " in shown
        assert "Why: " in shown
        # Both measures of each move, so a move called better is seen better in one.
        played = point.decision.estimates[point.decision.played]
        best = point.decision.estimates[point.decision.best]
        assert f"after it chance to win {point.win:.0%}" in shown
        assert f"lead over the best rival {signed(played.margin)} (± " in shown
        assert f"{signed(best.margin)} (± {best.margin_error:.1f}) points" in shown
        await pilot.pause()
        drawn = chart_text(chart)
        assert "▲" in drawn
        assert "⁇ blunder" in drawn  # the legend
        title = text_of(screen.query_one("#chart-title", Static))
        assert title.strip() == "Ana's chance to win after each decision  (p: next person, Ben)"
        await pilot.press("p")
        title = text_of(screen.query_one("#chart-title", Static))
        assert "Ben's chance to win after each decision  (p: next person, Cy)" in title
        assert chart.selected == 0
        assert all(p.decision is not None and p.decision.seat == 1 for p in chart.points)
        await pilot.press("p", "p")  # Cy, then Ana again
        title = text_of(screen.query_one("#chart-title", Static))
        assert "Ana's chance to win after each decision  (p: next person, Ben)" in title
        await pilot.press("b")
        assert not isinstance(app.screen, ReviewScreen)


@asynctest
async def test_the_chart_reads_without_colour(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        assert app.no_color
        screen = await opened(pilot, reviewed_record(), tmp_path)
        chart = screen.query_one(WinChart)
        drawn = chart_text(chart).splitlines()
        marks = drawn[-2]
        flaws = {MARKS[p.grade] for p in chart.points if p.grade in MARKS}
        assert flaws & {"?", "⁇"}  # a mistake or a blunder
        assert set(marks) - {" "} == flaws
        assert "▲" in drawn[-3]
        title = text_of(screen.query_one("#chart-title", Static))
        assert "Ana's chance to win after each decision  (p: " in title


@asynctest
async def test_the_chart_fills_in_as_the_decisions_are_analysed(tmp_path: Path) -> None:
    record = reviewed_record(players=2, left=3, bot=PLUMBING)
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = ReviewScreen(record, None, DataDir(tmp_path))
        todo = set(screen.reviewing.todo)
        assert len(todo) == 3
        app.push_screen(screen)
        await pilot.pause()
        chart = screen.query_one(WinChart)
        if not todo & {p.ply for p in chart.points}:
            await pilot.press("p")  # the other person's decisions are the ones left
        assert todo & {p.ply for p in chart.points}
        for _ in range(3000):  # the summaries do not draw the chart: each analysis does
            if all(p.decision is not None for p in chart.points):
                break
            await pilot.pause(0.01)
        assert all(p.decision is not None for p in chart.points)
        await pilot.press("end")
        assert "not analysed" not in detail(screen)


@asynctest
async def test_a_decision_not_analysed_yet_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = reviewed_record(players=2, left=3, bot=PLUMBING)
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = ReviewScreen(record, None, DataDir(tmp_path))
        monkeypatch.setattr(screen, "analyse", lambda: None)  # as the analysis starts
        app.push_screen(screen)
        await pilot.pause()
        chart = screen.query_one(WinChart)
        if chart.points[-1].decision is not None:
            await pilot.press("p")
        await pilot.press("end")
        await pilot.pause()
        assert chart.points[-1].decision is None
        assert detail(screen).strip().endswith("not analysed yet")
        assert chart_text(chart).splitlines()[-4].rstrip().endswith("·")


async def review_on_screen(pilot: Pilot[None], home: Path, keys: tuple[str, ...] = ()) -> None:
    await opened(pilot, reviewed_record(), home)
    await pilot.press(*keys)
    await pilot.pause()


@pytest.mark.parametrize("size", [SIZE, LARGE], ids=["80x24", "120x40"])
def test_review_chart_snapshot(
    snap_compare: SnapCompare, size: tuple[int, int], tmp_path: Path
) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await review_on_screen(pilot, tmp_path, ("n", "n"))

    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_review_chart_snapshot_without_colour(
    snap_compare: SnapCompare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")

    async def run_before(pilot: Pilot[None]) -> None:
        await review_on_screen(pilot, tmp_path, ("p", "n"))

    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


async def first_blunder(
    pilot: Pilot[None], tmp_path: Path
) -> tuple[ReviewScreen, ChartPoint, Decision]:
    """The reviewed game's screen, its first blunder's point and that decision."""
    screen = await opened(pilot, reviewed_record(), tmp_path)
    point = next(p for p in screen.query_one(WinChart).points if p.grade is Grade.BLUNDER)
    assert point.decision is not None
    return screen, point, point.decision


@asynctest
async def test_the_hint_given_in_the_game_is_told_beside_the_verdict(tmp_path: Path) -> None:
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        screen, point, decision = await first_blunder(pilot, tmp_path)
        valuation = Valuation(decision.estimates)
        for hinted, said in ((decision.played, "· as hinted"), (decision.best, "· hint: ")):
            hint = StoredHint(hinted, valuation, "search", 0)
            told = replace(point, decision=replace(decision, hint=hint))
            first = screen.query_one(ReviewChart).detail(0, told).plain.splitlines()[0]
            assert said in first, first
        assert "hint" not in screen.query_one(ReviewChart).detail(0, point).plain.splitlines()[0]


@asynctest
async def test_the_replay_shows_the_chart_and_enter_goes_to_the_decision() -> None:
    record = reviewed_record()
    app = ReplayApp(Replay.from_record(record, "game.json"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        replay = screen_of(pilot)
        assert "c" in [key for key, _, _ in replay.query_one(KeysBar).keys]
        await pilot.press("end", "c")
        await pilot.pause()
        chart_screen = app.screen
        assert isinstance(chart_screen, ChartScreen)
        chart = chart_screen.query_one(WinChart)
        assert chart.has_focus
        last = max(p.ply for p in chart.points)
        assert chart.current is not None
        assert chart.current.ply == last  # the decision nearest to where the replay stands
        await pilot.press("home", "right", "enter")
        await pilot.pause()
        assert app.screen is replay
        assert replay.step == chart.points[1].ply + 1  # the move of the decision chosen
        await pilot.press("c", "escape")
        assert app.screen is replay
        assert replay.step == chart.points[1].ply + 1


@asynctest
async def test_c_in_a_replay_not_reviewed_says_so() -> None:
    record = reviewed_record()
    plain = replace(record, meta={k: v for k, v in record.meta.items() if k != "analysis"})
    app = ReplayApp(Replay.from_record(plain, "game.json"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        replay = screen_of(pilot)
        assert "c" not in [key for key, _, _ in replay.query_one(KeysBar).keys]
        await pilot.press("c")
        assert app.screen is replay
        assert "has not been reviewed" in text_of(replay.query_one(Notice))


@asynctest
async def test_a_move_within_the_error_of_the_top_one_is_not_shown_worse(tmp_path: Path) -> None:
    # Issue 59: a decision headed "best · as hinted" went on to say what the other move
    # "would have been worth", as if the move played had cost something.
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        screen, point, decision = await first_blunder(pilot, tmp_path)
        played, top = decision.played, decision.best
        estimates = dict(decision.estimates)
        estimates[played] = replace(estimates[top], margin=estimates[top].margin - 0.2)
        close = replace(decision, estimates=estimates, paired={(played, top): (0.003, 0.3)})
        hint = StoredHint(played, Valuation(estimates), "search", 0)
        told = replace(point, decision=replace(close, hint=hint))
        assert told.decision is not None
        assert told.decision.grade is Grade.BEST
        lines = screen.query_one(ReviewChart).detail(0, told).plain.splitlines()
        assert "best · as hinted" in lines[0]
        assert "; about as good: " in lines[1]
        assert "; best: " not in lines[1]
        assert "was one of the best moves; " in lines[2]
        assert "is about as good (0.2 ± 0.3 points more lead" in lines[2]
        assert "would have been" not in lines[2]


@asynctest
async def test_the_best_move_against_the_hint_is_told_why(tmp_path: Path) -> None:
    # "best · hint: blue → row 2", then "Played: put the blue card on row 1, the best
    # move" and no word of why the hint differed.
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        screen, point, decision = await first_blunder(pilot, tmp_path)
        played, top = decision.played, decision.best
        estimates = dict(decision.estimates)
        estimates[played], estimates[top] = estimates[top], estimates[played]  # played: best
        best = replace(decision, estimates=estimates, paired={})
        hint = StoredHint(top, Valuation(decision.estimates), "search", 0)
        told = replace(point, decision=replace(best, hint=hint))
        assert told.decision is not None
        assert told.decision.best == played
        lines = screen.query_one(ReviewChart).detail(0, told).plain.splitlines()
        assert "the best move" in lines[1]
        assert lines[2].startswith("Why: ")
        assert "was the best move" in lines[2]
        assert "the hint in the game was to " in lines[2]


def without_flaws(record: GameRecord) -> GameRecord:
    """``record`` with every decision of its review played as well as the best."""
    review = review_of(record, positions(record))
    assert review is not None
    for ply, decision in review.decisions.items():
        played = decision.estimates[decision.played]
        estimates = dict.fromkeys(decision.estimates, played)
        review.decisions[ply] = replace(decision, estimates=estimates)
    return with_review(record, review)


@asynctest
async def test_n_without_a_mistake_says_so_under_the_chart_covering_nothing(
    tmp_path: Path,
) -> None:
    app = ColorettoApp(keeper=Keeper(DataDir(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot, without_flaws(reviewed_record()), tmp_path)
        chart = screen.query_one(WinChart)
        assert "⁇ blunder" in chart_text(chart)  # the legend
        await pilot.press("n")
        await pilot.pause()
        assert chart.selected == 0
        assert "n: no inaccuracy, mistake or blunder in these decisions." in chart_text(chart)
        assert not app.query("Toast")  # no pop-up over the review
        assert "accuracy 100%" in text_of(screen.query_one("#review-body", Static))
        await pilot.press("right")  # the next key: the legend again
        await pilot.pause()
        assert chart.selected == 1
        assert "⁇ blunder" in chart_text(chart)
        assert "no mistake" not in chart_text(chart)


def test_the_charts_legend_says_what_the_axis_numbers_are() -> None:
    assert legend(0.25, 120).plain.endswith("┈ even chance (25%)  2 round 2 starts")
