"""The tutorial on the real table (``coloretto tutorial``, and offered on the first run).

A scripted game (``coloretto.play.tutorial``) played with the game's own keys: each step's
bubble points at the part of the table it is about and waits for the move it asks for; any
other key gets a hint and changes nothing. The others' moves are the script's, played at the
bots' pace (a fast-forward quickly). At the end: the scores, then ``n`` for a real game
against easy bots, or ``q`` to leave.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from rich.text import Text
from textual import events
from textual.actions import parse
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.geometry import Region
from textual.screen import Screen
from textual.timer import Timer

from coloretto.engine import DRAW, Action, ActionKind, GameState, Match, Rules
from coloretto.play.config import DEFAULT_DELAY, GameConfig, Player
from coloretto.play.table_view import Mover, shown_seed
from coloretto.play.tutorial import (
    NAMES,
    RULES,
    YOU,
    KeyNames,
    Lesson,
    Part,
    Spot,
    WrongMove,
    instruction,
    summary,
)
from coloretto.play.words import describe_deal, describe_move
from coloretto.tui.glyphs import render
from coloretto.tui.keys import GAME_KEYS, Key, bindings, row_keys, spoken
from coloretto.tui.messages import StartGame
from coloretto.tui.screens.dialogs import ConfirmQuit, HelpScreen, RulesScreen
from coloretto.tui.table import show_table, table_widgets
from coloretto.tui.widgets import KeysBar, Legend, MoveLog, Notice
from coloretto.tui.widgets.bubble import (
    MAX_WIDTH,
    MIN_WIDTH,
    Bubble,
    BubbleTail,
    Placement,
    Side,
    place_bubble,
    wrapped_lines,
)

TutorialEnd = Literal["new-game", "quit"]
"""How the tutorial ended: ``n`` (a real game next) or ``q``."""

FAST_PACE = 0.04
"""Seconds between two moves of a fast-forward."""

REAL_GAME = GameConfig.build(Rules(players=3), humans=1, bot="easy")
"""The game ``n`` starts at the end: the tutorial's table, against easy bots."""

SCRIPTED = "bot"
"""What the players' panel says the tutorial's other players are."""

_GAME_KEY = {key.id: key for key in GAME_KEYS}
TUTORIAL_KEYS: tuple[Key, ...] = (
    _GAME_KEY["draw"],
    replace(_GAME_KEY["row"], shown=row_keys(len(RULES.row_capacities))),
    Key(
        "Enter",
        "Go on",
        ("go on to the next step (space too)",),
        (("enter,space", "go_on"),),
        "tutorial-go-on",
    ),
    Key(
        "n",
        "Real game",
        ("at the end: a real game against easy bots",),
        (("n,N", "new_game"),),
        "tutorial-new-game",
    ),
    _GAME_KEY["help"],
    _GAME_KEY["rules"],
    Key(
        "q", "Leave", ("leave the tutorial (Esc too)",), (("q,Q,escape", "quit"),), "tutorial-quit"
    ),
)
"""The tutorial's keys: the game's own ``d`` and row keys (the same binding ids, so a key
remapped for the game is remapped here too), Enter to go on, and the way out. The keys bar
shows those that work at the moment; the words name the keys bound (``bound_keys``)."""

ANSWERS = frozenset(
    binding.id
    for key in TUTORIAL_KEYS
    if key.id in ("draw", "row", "tutorial-go-on")
    for binding in key.bindings()
)
"""The binding ids of the keys that answer a step: pressed when they are not the answer,
they get a hint."""

_END = Spot(Part.SEAT, YOU)
"""The summary's bubble points at the players and their scores."""

_SELECTORS = {Part.TABLE: "#rows", Part.DECK: "#drawn", Part.TOP: "#top"}


def _selector(spot: Spot) -> str:
    """The widget of the table ``spot`` is: ``#row-1``, ``#seat-2``, ``#drawn``..."""
    return _SELECTORS.get(spot.part) or f"#{spot.part}-{spot.index + 1}"


def open_tutorial(
    app: App[Any], *, quits: bool, pace: float = DEFAULT_DELAY, fast_pace: float = FAST_PACE
) -> None:
    """Open the tutorial over the current screen; at its end ``n`` starts a real game (a
    ``StartGame`` message to the app) and ``q`` quits the app (``quits``) or goes back."""

    def ended(end: TutorialEnd | None) -> None:
        if end == "new-game":
            app.post_message(StartGame(REAL_GAME))
        elif quits:
            app.exit()

    app.push_screen(TutorialScreen(quits=quits, pace=pace, fast_pace=fast_pace), ended)


class _Scripted:
    """The tutorial's game for the table's widgets (a ``TableView``): the others' moves
    are the script's."""

    id = "tutorial"
    has_next_game = False

    def __init__(self, config: GameConfig, game: GameState) -> None:
        self.config = config
        self.match = Match(config.rules, None, game)
        self.seat_names = config.seat_names()

    @property
    def game(self) -> GameState:
        """Where the lesson stands."""
        return self.match.game

    @property
    def shown_seed(self) -> str:
        """The deal is the script's: no seed to show."""
        return shown_seed(self.match)

    def mover(self, seat: int) -> Mover:
        """The others do not think: they are people to move (the script moves them)."""
        return Mover.HERE if self.config.controller(seat).is_human else Mover.PERSON


class TutorialScreen(Screen[TutorialEnd]):
    """The tutorial: the table, a bubble, and the script's game (``Lesson``)."""

    CSS_PATH = ["game.tcss", "tutorial.tcss"]  # noqa: RUF012 (Textual's convention)
    BINDINGS = bindings(TUTORIAL_KEYS)  # type: ignore[assignment]

    def __init__(
        self, *, quits: bool = True, pace: float = DEFAULT_DELAY, fast_pace: float = FAST_PACE
    ) -> None:
        super().__init__()
        self.quits = quits
        """``q`` at the end quits the app (``coloretto tutorial``), else goes back."""
        self.pace = pace
        """Seconds between two of the others' moves (0: at once)."""
        self.fast_pace = fast_pace
        """Seconds between two moves of a fast-forward."""
        self.lesson = Lesson.start()
        """Where the tutorial stands."""
        players = tuple(
            Player(name, None if seat == YOU else SCRIPTED) for seat, name in enumerate(NAMES)
        )
        self.view = _Scripted(GameConfig(RULES, players), self.lesson.game)
        """The game as the table's widgets show it."""
        self._fresh_row: int | None = None
        self._timer: Timer | None = None
        self._named_keys: dict[str, list[str]] = {}
        """The keys the words shown name, by binding id."""

    @property
    def plain(self) -> bool:
        """True without colour (``NO_COLOR``)."""
        return self.app.no_color

    @property
    def notice(self) -> Notice:
        """The message line: what was played, or a hint."""
        return self.query_one(Notice)

    def compose(self) -> ComposeResult:
        """The game's table, the bubble over it, the keys."""
        yield from table_widgets(self.lesson.game)
        yield Bubble(id="bubble")
        yield BubbleTail(id="tail")
        yield BubbleTail(id="mark")
        yield KeysBar(id="keys")

    def bound_keys(self) -> dict[str, list[Binding]]:
        """The screen's bindings by id, as bound now: its own, or the app's keymap's in
        their place (``App.set_keymap``), each key of a binding a binding of its own."""
        found = self._bindings.copy()  # the map Textual's binding chain starts from
        # The keymap has no public getter: Textual's Screen._binding_chain applies it so.
        found.apply_keymap(self.app._keymap)
        by_id: dict[str, list[Binding]] = {}
        for bound in found.key_to_bindings.values():
            for binding in bound:
                by_id.setdefault(binding.id or "", []).append(binding)
        return by_id

    def _keys_named(self) -> dict[str, list[str]]:
        return {i: [binding.key for binding in bound] for i, bound in self.bound_keys().items()}

    def key_names(self) -> KeyNames:
        """The keys that answer the steps, as the words name them."""
        bound, default = self.bound_keys(), KeyNames()

        def name(binding_id: str, given: str) -> str:
            keys = bound.get(binding_id)
            return spoken(keys[0].key) if keys else given

        rows = tuple(name(f"row-{n}", key) for n, key in enumerate(default.rows, start=1))
        return KeyNames(name("draw", default.draw), rows, name("tutorial-go-on", default.go_on))

    def _named(self, binding_id: str) -> str:
        """The keys of ``binding_id`` in words: ``q or Esc`` (a letter once, in either
        case)."""
        names = [spoken(binding.key) for binding in self.bound_keys().get(binding_id, [])]
        return " or ".join(dict.fromkeys(n.lower() if len(n) == 1 else n for n in names))

    def on_mount(self) -> None:
        """Show the deal and the first step."""
        game = self.lesson.game
        self.query_one(Legend).show(game.colours, game.rules.edition, plain=self.plain)
        log = self.query_one(MoveLog)
        for line in describe_deal(game, NAMES, "")[1:]:  # not the rules and seed
            log.add(render(line, plain=self.plain))
        self.notice.say(f"A tutorial game: {self._named('tutorial-quit')} leaves it.")
        self.refresh_view()
        self.bindings_updated_signal.subscribe(self, self._keys_changed)

    def _keys_changed(self, screen: Screen[object]) -> None:
        """A keymap set (``App.set_keymap``): the words name the keys bound now."""
        if self._keys_named() != self._named_keys:
            self.refresh_view()

    def on_unmount(self) -> None:
        """No move is played once the tutorial is left."""
        if self._timer is not None:
            self._timer.stop()

    def on_resize(self) -> None:
        """The bubble follows the table."""
        self.call_after_refresh(self.point)

    # ------------------------------------------------------------------ showing

    def refresh_view(self) -> None:
        """Draw the lesson's game, the turn line, the bubble and the footer's keys."""
        lesson = self.lesson
        self._named_keys = self._keys_named()
        self.view.match = replace(self.view.match, game=lesson.game)
        spot = None if lesson.finished else lesson.step.spot
        about = spot.index if lesson.waiting and spot and spot.part is Part.ROW else None
        highlight = self._fresh_row if about is None else about  # the row the bubble is about
        show_table(self, self.view, fresh_row=highlight, prompt=self.prompt())
        self.refresh_bindings()
        self.point()
        self.call_after_refresh(self.point)  # once the table's new sizes are laid out

    def prompt(self) -> Text:
        """The turn line: the step and what to press, or who is playing."""
        lesson = self.lesson
        if lesson.finished:
            return Text(f"Tutorial done: {self._next}.", "bold")
        if lesson.waiting:
            head = Text(f"Step {lesson.number + 1} of {len(lesson.steps)}: ", "bold")
            return Text.assemble(head, instruction(lesson.step.expect, self.key_names()))
        if lesson.step.fast:
            return Text(f"Fast-forward: round {lesson.game.round}…")
        return Text(f"{NAMES[lesson.game.current_player]} is playing…")

    @property
    def _leaving(self) -> str:
        return "quits" if self.quits else "goes back to the game setup"

    @property
    def _next(self) -> str:
        """What the keys do at the end: ``n for a real game, q quits``."""
        new_game, leave = self._named("tutorial-new-game"), self._named("tutorial-quit")
        return f"{new_game} for a real game, {leave} {self._leaving}"

    def words(self) -> Text:
        """The bubble's words: the step's, or at the end the scores and what next."""
        lesson = self.lesson
        if lesson.finished:
            return Text.assemble(
                summary(lesson.game),
                "\n\nYou know the game now: drawing and taking rows, rounds, the Last "
                'Round card, jokers, "+2", plus and minus colours, the two score sides.\n\n',
                (self._named("tutorial-new-game"), "bold"),
                "  a real game against easy bots\n",
                (self._named("tutorial-quit"), "bold"),
                f"  {self._leaving}",
            )
        keys = self.key_names()
        words = Text(lesson.step.text(lesson.game, keys))
        if lesson.step.expect is None and lesson.waiting:
            words.append(f"\n{keys.go_on}: go on", style="bold")
        return words

    def point(self) -> None:
        """Put the bubble beside what its step is about (a row is marked as well), over
        nothing else that matters; none while the others play."""
        lesson = self.lesson
        bubble, tail, mark = self.query_one(Bubble), *self.query(BubbleTail)
        if not lesson.waiting and not lesson.finished:
            bubble.display = tail.display = mark.display = False
            return
        if not self.query_one("#rows").region:
            return  # not laid out yet: the bubble comes once the table is
        spot = _END if lesson.finished else lesson.step.spot
        words = self.words()
        side, placement = self._place(spot, words)
        bubble.border_title = (
            "Done" if lesson.finished else f"{lesson.number + 1}/{len(lesson.steps)}"
        )
        bubble.point(words, placement)
        tail.point(side, placement.tail)
        target = self.query_one(_selector(spot)).region
        row = (target.x - 1, target.y + (target.height - 1) // 2)
        mark.point(Side.LEFT, row if spot.part is Part.ROW else None)

    def _place(self, spot: Spot, words: Text) -> tuple[Side, Placement]:
        """Where the bubble goes for ``spot``: the first of its places (``_places``) where
        it covers nothing to keep in sight (``_kept_in_sight``), else the last."""
        screen, console = self.size, self.app.console
        kept = self._kept_in_sight(spot)
        found: tuple[Side, Placement] | None = None
        for side, target, edge, room in self._places(spot):
            width = max(MIN_WIDTH, min(MAX_WIDTH, room))
            lines = wrapped_lines(words, width, console)
            placement = place_bubble(
                target, side, edge=edge, screen=screen, lines=lines, width=width
            )
            found = (side, placement)
            if not any(placement.box.overlaps(region) for region in kept):
                break
        assert found is not None  # every spot has a place
        return found

    def _places(self, spot: Spot) -> list[tuple[Side, Region, int, int]]:
        """Where a bubble may go for ``spot``, best first: the side, its target, the edge
        it keeps to (see ``place_bubble``) and the cells across it may take. On the
        table's free part first (under the row or the top bar, left of the deck), so that
        it covers no player; else beside the table over the move log, pointing at the
        table from the log's top; beside the table, over the players, when that is taken
        too (a table over the rows)."""
        rows = self.query_one("#rows").region
        deck = self.query_one("#drawn").region
        log = self.query_one("#log").region
        inside = rows.x + 1  # within the table's border
        room = deck.x - 1 - inside  # the table left of the deck's column
        beside = (rows.right, self.size.width - rows.right)
        over_log = (Side.RIGHT, Region(rows.x, log.y + 1, rows.width, 1), *beside)
        if spot.part is Part.ROW:
            row = self.query_one(f"#row-{spot.index + 1}").region
            return [(Side.BELOW, row, row.bottom, room), over_log, (Side.RIGHT, row, *beside)]
        if spot.part is Part.DECK:
            return [(Side.LEFT, deck, deck.x - 1, room), over_log, (Side.RIGHT, deck, *beside)]
        if spot.part is Part.SEAT:
            seat = self.query_one(f"#seat-{spot.index + 1}").region
            side = self.query_one("#side").region
            return [(Side.LEFT, seat, side.x, side.x - 1)]
        if spot.part is Part.TOP:
            top = self.query_one("#top").region
            over_table = Region(inside, top.y, room, top.height)
            return [
                (Side.BELOW, over_table, rows.y + 1, room),
                (Side.BELOW, top, top.bottom, top.width - 2),
            ]
        return [over_log, (Side.OVER, rows, rows.y, rows.width - 2)]

    def _kept_in_sight(self, spot: Spot) -> list[Region]:
        """What a bubble for ``spot`` must not cover: the top bar, the players, the deck
        (or the card drawn), every row with cards, the turn line and the message under it,
        and what the step talks about: its spot and the parts it names (``Step.about``)."""
        lesson = self.lesson
        selectors = ["#top", "#seats", "#drawn", "#turn", "#notice"]
        selectors += [f"#row-{row + 1}" for row, cards in enumerate(lesson.game.rows) if cards]
        about = () if lesson.finished else lesson.step.about
        selectors += [_selector(part) for part in (spot, *about)]
        return [self.query_one(selector).region for selector in selectors]

    # ------------------------------------------------------------------ the flow

    def answer(self, move: Action | None) -> None:
        """The player's ``move`` (``None``: Enter): the next step if it is the one asked
        for, else a hint and nothing changes."""
        if self.lesson.finished:
            self.notice.say(f"The tutorial is over: {self._next}.")
            return
        try:
            lesson = self.lesson.answer(move, self.key_names())
        except WrongMove as refused:
            self.notice.say(str(refused), "error")
            return
        self._go_to(lesson)
        self._play_on()

    def _go_to(self, lesson: Lesson) -> None:
        """Make ``lesson`` the one shown, telling the move that led to it (if any)."""
        before = self.lesson.game
        self.lesson = lesson
        after = lesson.game
        move = after.last_move
        if after is before or move is None:
            return
        self._fresh_row = move.action.row if move.action.kind is ActionKind.PLACE else None
        lines = [
            render(line, plain=self.plain) for line in describe_move(move, before, after, NAMES)
        ]
        log = self.query_one(MoveLog)
        for line in lines:
            log.add(line, round_number=before.round)
        self.notice.say(Text(" ").join(lines), "event")

    def _play_on(self) -> None:
        """Play the others' moves, one per pause (or all at once without one), then show
        the table."""
        while self.lesson.pending is not None:
            pause = self.fast_pace if self.lesson.step.fast else self.pace
            if pause > 0:
                self._timer = self.set_timer(pause, self._play_one)
                break
            self._go_to(self.lesson.advance())
        self.refresh_view()

    def _play_one(self) -> None:
        self._go_to(self.lesson.advance())
        self._play_on()

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers the key that answers the step (the others still get a hint)."""
        lesson = self.lesson
        expect = lesson.step.expect if lesson.waiting else None
        if action == "draw":
            return lesson.waiting and expect == DRAW
        if action == "row":
            return expect is not None and expect.kind is not ActionKind.DRAW
        if action == "go_on":
            return lesson.waiting and expect is None
        if action == "new_game":
            return lesson.finished
        return True

    def key_display(self, binding: Binding) -> str | None:
        """How the keys bar names ``binding``: the row keys as the one row the step asks
        for (``1``, not ``1-3``); ``None`` for the usual name."""
        expect = self.lesson.step.expect if self.lesson.waiting else None
        if binding.id == "row-1" and expect is not None and expect.row is not None:
            return self.key_names().rows[expect.row]
        return None

    def action_draw(self) -> None:
        """``d``: draw."""
        self.answer(DRAW)

    def action_row(self, number: int) -> None:
        """``1``-``3``: put the drawn card on that row, or take it."""
        row = number - 1
        drawn = self.lesson.game.drawn_card is not None
        self.answer(Action.place(row) if drawn else Action.take(row))

    def action_go_on(self) -> None:
        """Enter: the next step, once this one is read."""
        self.answer(None)

    def on_key(self, event: events.Key) -> None:
        """A key that does nothing now says what does (a move key, why it is not the one)."""
        if event.key in self.app.active_bindings:
            return
        event.stop()
        plays = {
            binding.key: binding.action
            for binding_id, bound in self.bound_keys().items()
            if binding_id in ANSWERS
            for binding in bound
        }
        if event.key in plays:
            _, name, parameters = parse(plays[event.key])
            getattr(self, f"action_{name}")(*parameters)
            return
        lesson = self.lesson
        if lesson.finished:
            want = self._next
        elif lesson.waiting:
            want = instruction(lesson.step.expect, self.key_names())
        else:
            want = "wait a moment: the others are playing"
        key = event.character if event.is_printable and event.character else event.key
        self.notice.say(f"{key} does nothing here: {want}.", "error")

    def action_new_game(self) -> None:
        """``n`` at the end: a real game against easy bots."""
        self.dismiss("new-game")

    def action_help(self) -> None:
        """``?``: the keys and the card letters."""
        self.app.push_screen(HelpScreen(len(RULES.row_capacities)))

    def action_rules(self) -> None:
        """``r``: the rules."""
        self.app.push_screen(RulesScreen())

    def action_quit(self) -> None:
        """``q`` or Esc: leave (asking first, unless the tutorial is over)."""
        if self.lesson.finished:
            self.dismiss("quit")
            return

        def done(leave: bool | None) -> None:
            if leave:
                self.dismiss("quit")

        question = "Leave the tutorial?\ncoloretto tutorial starts it again."
        self.app.push_screen(ConfirmQuit(question=question), done)
