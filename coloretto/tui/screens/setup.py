"""The setup screen (plain ``coloretto``): the same choices as ``coloretto play``'s options,
and the games in progress, to resume or discard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Label, OptionList, Static

from coloretto.bots.registry import LEVELS
from coloretto.engine import Edition, Rules, Scoring, Variant
from coloretto.engine.setup import SEED_BITS
from coloretto.play.config import PACES, GameConfig, typed_names
from coloretto.play.saving import SavedGame
from coloretto.store.saves import games_in_progress, save_path
from coloretto.store.text import printable
from coloretto.tui.messages import ResumeGame, StartGame
from coloretto.tui.screens.dialogs import ConfirmDiscard
from coloretto.tui.screens.tutorial import OFFER, first_run, open_tutorial
from coloretto.tui.services import AppServices, services
from coloretto.tui.widgets import KeysBar, TextInput
from coloretto.tui.widgets.choice import Choice

SHORT_NAME = 10
"""Names in the line about the game in progress are cut to this length (two lines at most)."""
LIST_NAME = 6
"""Names in the list of games in progress are cut to this length."""
LINE_WIDTH = 70
"""The most cells a game in the list takes (one line)."""
MOST_SHOWN = 20
"""The most games in progress listed (the others are counted: ``coloretto saves`` lists
them all)."""


def _options(values: list[str]) -> list[tuple[str, str]]:
    return [(value, value) for value in values]


def _choice(options: list[tuple[str, Any]], value: object, widget_id: str) -> Choice:
    """A compact drop-down list that always holds one of ``options``."""
    return Choice(options, value, id=widget_id)


class SetupScreen(Screen[None]):
    """Choose players, people at the keyboard, the bots' level, the rules, then start."""

    CSS_PATH = "setup.tcss"
    BINDINGS = [  # noqa: RUF012 (Textual's convention)
        Binding("ctrl+s", "start", "Start", id="start", priority=True),
        Binding("ctrl+r", "resume", "Resume", id="resume", priority=True),
        Binding("ctrl+r", "no_game", show=False, id="no-resume", priority=True),
        Binding("ctrl+x", "discard", "Discard", id="discard", priority=True),
        Binding("t", "tutorial", "Tutorial", show=False, id="tutorial"),
        Binding("escape", "app.quit", "Quit", id="quit-setup"),
    ]

    def __init__(self, defaults: GameConfig | None = None) -> None:
        super().__init__()
        self.given = defaults
        """The choices to start from; ``None``: the last setup kept, else the defaults."""
        self.defaults = defaults or GameConfig.build(Rules())
        self.saves: list[tuple[str, SavedGame | None]] = []
        """The games in progress (their ids, and what they are, ``None`` if they cannot be
        read), the one played last first: up to ``MOST_SHOWN``."""
        self.more = 0
        """Games in progress not shown."""

    @property
    def app_services(self) -> AppServices | None:
        """The app's services: the data directory, the last setup, discarding a game."""
        return services(self.app)

    @property
    def picked(self) -> int:
        """The game in progress picked (in ``saves``): the one highlighted in the list."""
        if len(self.saves) < 2:
            return 0
        highlighted = self.query_one("#setup-games", OptionList).highlighted
        return min(highlighted or 0, len(self.saves) - 1)

    @property
    def resumable(self) -> Path | None:
        """The save of the game in progress picked, if there is one ("Resume")."""
        if not self.saves or (app := self.app_services) is None:
            return None
        return save_path(app.data_dir(), self.saves[self.picked][0])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers Resume and Discard only when there is a game in progress;
        Ctrl+R without one says there is none (``action_no_game``)."""
        if action in ("resume", "discard"):
            return bool(self.saves)
        if action == "no_game":
            return not self.saves
        return True

    def compose(self) -> ComposeResult:
        """A two-column form, the start button and a line for mistakes."""
        app = self.app_services
        if self.given is None and app is not None:
            self.defaults = app.last_setup() or self.defaults
        config = self.defaults
        rules = config.rules
        people = [p.name for p in config.players if p.is_human]
        names = ", ".join(people) if typed_names(config) else ""  # not "You" or "Player 1"
        paces = sorted({*PACES, config.delay})
        level = config.bots_level
        with Vertical(id="setup-box") as box:
            box.border_title = "Coloretto: a new game"
            with Grid(id="form"):
                yield Label("Players")
                yield _choice([(str(n), n) for n in range(2, 6)], rules.players, "players")
                yield Label("People")
                yield _choice(self._people_options(rules.players), config.humans, "humans")
                yield Label("Names")
                yield TextInput(
                    names,
                    placeholder="comma-separated, e.g. Ana, Ben (optional)",
                    compact=True,
                    id="names",
                )
                yield Label("Bots")
                yield _choice(_options(list(LEVELS)), level, "level")
                yield Label("Bot pace")
                yield _choice([(f"{p:g} s per move", p) for p in paces], config.delay, "delay")
                yield Label("Scoring")
                yield _choice(_options([s.value for s in Scoring]), rules.scoring.value, "scoring")
                yield Label("Edition")
                yield _choice(_options([e.value for e in Edition]), rules.edition.value, "edition")
                yield Label("Variant")
                yield _choice(_options([v.value for v in Variant]), rules.variant.value, "variant")
                yield Label("Games")
                yield TextInput(str(rules.games), type="integer", compact=True, id="games")
                yield Label("Seed")
                yield TextInput(
                    "" if config.seed is None else str(config.seed),
                    placeholder="random",
                    type="integer",
                    compact=True,
                    id="seed",
                )
            yield Static(
                "Variants four-rows and ghost are for 2 players. Tab moves between fields.",
                id="setup-help",
            )
            if app is not None and first_run(app.data_dir()):
                yield Static(OFFER, id="setup-tutorial")
            yield Static(id="setup-resume")
            yield OptionList(id="setup-games", compact=True)
            yield Static("", id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Start (ctrl+s)", id="start", variant="primary")
                yield Button("Resume (ctrl+r)", id="resume", variant="success")
                yield Button("Quit (Esc)", id="quit")
        yield KeysBar(id="keys")

    @staticmethod
    def _people_options(players: int) -> list[tuple[str, int]]:
        labels = {0: "0 (watch bots)", 1: "1 (you against bots)"}
        return [(labels.get(n, f"{n} (hotseat)"), n) for n in range(players + 1)]

    def on_mount(self) -> None:
        """The games in progress; start in the first field."""
        self._read_saves()
        self._show_saves()
        self.query_one("#players", Choice).focus()

    def _read_saves(self) -> None:
        """Read the games in progress (up to ``MOST_SHOWN``)."""
        app = self.app_services
        if app is None:
            return
        data = app.data_dir()
        ids = games_in_progress(data)
        self.saves = [(i, SavedGame.read(save_path(data, i))) for i in ids[:MOST_SHOWN]]
        self.more = len(ids) - len(self.saves)

    def _show_saves(self) -> None:
        """Say what games are in progress: the one there is, or a list to pick one from."""
        saves = self.saves
        described = self.query_one("#setup-resume", Static)
        listed = self.query_one("#setup-games", OptionList)
        described.display = bool(saves)
        listed.display = len(saves) > 1
        self.query_one("#resume", Button).display = bool(saves)
        if len(saves) == 1:
            described.update(Text(_in_progress(saves[0][1])))
        elif saves:
            count = len(saves) + self.more
            described.update(
                f"{count} games in progress: ctrl+r resumes the one picked, ctrl+x discards it"
            )
            listed.set_options(_line(game, i) for i, game in saves)
            listed.highlighted = 0
            self.query_one("#setup-help", Static).display = False  # room for the list
        self.refresh_bindings()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The label of the field with the focus is marked too (not by colour alone)."""
        fields = list(self.query_one("#form", Grid).children)
        for i, widget in enumerate(fields):
            if isinstance(widget, Label):
                following = fields[i + 1] if i + 1 < len(fields) else None
                widget.set_class(following is event.widget, "-active")

    @on(Choice.Changed, "#players")
    def _players_changed(self, event: Choice.Changed) -> None:
        players = event.value
        humans = self.query_one("#humans", Choice)
        current = humans.value
        humans.set_options(self._people_options(players))
        humans.value = min(current, players)

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#resume")
    @on(OptionList.OptionSelected, "#setup-games")
    def _resume_pressed(self) -> None:
        self.action_resume()

    def action_resume(self) -> None:
        """Resume the game in progress (if there is one)."""
        if self.resumable is None:
            self.action_no_game()
        else:
            self.post_message(ResumeGame(self.resumable))

    def action_discard(self) -> None:
        """Ctrl+X: discard the game in progress picked, for good, once confirmed."""
        session_id, game = self.saves[self.picked]

        def answered(yes: bool | None) -> None:
            if yes:
                self._discard(session_id, game)

        self.app.push_screen(ConfirmDiscard(_in_progress(game)), answered)

    def _discard(self, session_id: str, game: SavedGame | None) -> None:
        app = self.app_services
        assert app is not None
        problem = app.discard(session_id)
        if problem is not None:
            self.show_error(f"cannot discard the game: {problem}")
            return
        self._read_saves()
        self._show_saves()
        help_line = self.query_one("#setup-help", Static)
        help_line.update(f"Discarded: {game.standing(SHORT_NAME) if game else session_id}.")
        help_line.display = True

    def action_tutorial(self) -> None:
        """``t``: the tutorial (offered on the first run); ``q`` at its end comes back."""
        open_tutorial(self.app, quits=False)

    def action_no_game(self) -> None:
        """Ctrl+R with no game in progress: say so."""
        self.show_error("there is no game in progress to resume")

    def show_error(self, text: str) -> None:
        """Show what is wrong, under the form, whole (on more lines if need be: it may
        quote a file's path); the tip about the fields gives it room on a small terminal."""
        self.query_one("#setup-help", Static).display = False
        self.query_one("#setup-error", Static).update(Text(f"! {printable(text)}"))

    @on(Button.Pressed, "#quit")
    def _quit_pressed(self) -> None:
        self.app.exit()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_start()

    def config(self) -> GameConfig:
        """The game the form describes; ``ValueError`` says what is wrong."""

        def value(widget_id: str) -> object:
            return self.query_one(f"#{widget_id}", Choice).value

        games_text = self.query_one("#games", Input).value.strip() or "1"
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            games = int(games_text)
        except ValueError:
            raise ValueError(f"games must be a whole number, not {games_text!r}") from None
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            raise ValueError(f"the seed must be a whole number, not {seed_text!r}") from None
        if seed is not None and not 0 <= seed < 2**SEED_BITS:
            raise ValueError(f"the seed must be 0 to {2**SEED_BITS - 1}")
        players = value("players")
        humans = value("humans")
        assert isinstance(players, int)
        assert isinstance(humans, int)
        rules = Rules(
            players=players,
            scoring=Scoring(str(value("scoring"))),
            edition=Edition(str(value("edition"))),
            variant=Variant(str(value("variant"))),
            games=games,
        )
        names_text = self.query_one("#names", Input).value
        names = [n.strip() for n in printable(names_text).split(",") if n.strip()]
        delay = value("delay")
        assert isinstance(delay, float | int)
        return GameConfig.build(
            rules,
            humans=humans,
            names=names,
            bot=str(value("level")),
            seed=seed,
            delay=float(delay),
            hint_bot=self.defaults.hint_bot,
        )

    def action_start(self) -> None:
        """Start the game, or say what is wrong with the choices."""
        try:
            config = self.config()
        except ValueError as error:
            self.show_error(str(error))
            return
        if (app := self.app_services) is not None:
            app.remember(config)
        self.post_message(StartGame(config))


def _in_progress(game: SavedGame | None) -> str:
    """A game in progress in two lines at most (five players' names cut to 10
    characters): "Game in progress, saved 21 Nov at 07:45: Ana 12, Ben 8 (round 3)."."""
    if game is None:
        return "A game in progress was saved, but it cannot be read."
    saved = f", saved {game.when()}" if game.saved is not None else ""
    return f"Game in progress{saved}: {game.standing(SHORT_NAME)}."


def _line(game: SavedGame | None, session_id: str) -> Text:
    """A game in progress on one line of the list: "21 Nov at 07:45 · round 3 · Ana 12,
    Ben 8"."""
    if game is None:
        return Text(f"{session_id}: cannot be read", style="italic")
    scores = ", ".join(
        f"{printable(name, LIST_NAME)} {score}"
        for name, score in zip(game.players, game.scores, strict=False)
    )
    line = Text(f"{game.when()} · {game.stage} · {scores}")
    line.truncate(LINE_WIDTH, overflow="ellipsis")
    return line
