"""The setup screen (plain ``coloretto``): the same choices as ``coloretto play``'s options,
and the games in progress, to resume or discard."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input, Label, OptionList, Static

from coloretto.bots.registry import LEVELS
from coloretto.engine import Edition, Rules, Scoring, Variant
from coloretto.play.config import PACES, GameConfig, typed_names
from coloretto.play.saving import SavedGame, first_run
from coloretto.play.seed_text import parse_seed, seed_text
from coloretto.store.paths import DataDir
from coloretto.store.saves import games_in_progress, save_path
from coloretto.store.text import printable
from coloretto.tui.messages import ResumeGame, StartGame
from coloretto.tui.screens.dialogs import ConfirmDiscard
from coloretto.tui.services import AppServices, services
from coloretto.tui.widgets import KeysBar, TextInput
from coloretto.tui.widgets.action_button import ActionButton
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


OFFER = "New to Coloretto? Press t for a 3-minute tutorial."
"""What the setup screen says on the first run (``first_run``)."""


def _options(values: list[str]) -> list[tuple[str, str]]:
    return [(value, value) for value in values]


def _choice(options: list[tuple[str, Any]], value: object, widget_id: str) -> Choice:
    """A compact drop-down list that always holds one of ``options``."""
    return Choice(options, value, id=widget_id)


SEED_CHARACTERS = r"[0-9A-TV-Za-tv-z -]*"
"""What the Seed field takes: a number, or a code (``parse_seed``: no U, hyphens, spaces)."""


class SetupScreen(Screen[None]):
    """Choose players, people at the keyboard, the bots' level, the rules, then start."""

    DEFAULT_CSS = """
    SetupScreen {
        align: center middle;
    }

    #setup-box {
        width: 78;
        max-width: 100%;
        height: auto;
        border: round $primary;
        padding: 0 1;
    }

    #form {
        grid-size: 4;
        grid-columns: 9 1fr 9 1fr;
        grid-rows: 1;
        grid-gutter: 1 1;
        height: auto;
        margin-top: 1;
    }

    #names, #seed {
        column-span: 3;
    }

    #setup-help {
        color: $text-muted;
        margin-top: 1;
    }

    #setup-tutorial {
        color: $text-success;
        text-style: bold;
    }

    #setup-resume {
        color: $text-success;
        margin-top: 1;
    }

    /* Several games in progress: pick one to resume or discard. */
    #setup-games {
        height: auto;
        max-height: 3;
        border: none;
    }

    /* A long message (a file's path, a name quoted) takes more lines: all of it is read. */
    #setup-error {
        color: $text-error;
        text-style: bold;
        height: auto;
    }

    #setup-buttons {
        height: auto;
        align-horizontal: center;
    }

    #setup-buttons ActionButton {
        margin: 0 1;
    }

    /* The field with the focus stands out on any terminal (256 colours, no colour): its value
       on the accent colour and its label in reverse. */
    #form Choice:focus, #form Input:focus {
        background: $accent 70%;
        color: $text;
        text-style: bold;
    }

    #form Label.-active {
        text-style: bold reverse;
    }
    """
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
        self.saves: list[str] = []
        """The ids of the games in progress, the one played last first: up to
        ``MOST_SHOWN``."""
        self.games: dict[str, SavedGame | None] = {}
        """The games in progress read so far (in a worker thread), by id (``None``: it
        cannot be read)."""
        self.more = 0
        """Games in progress not shown."""

    class GamesRead(Message):
        """Games in progress read in a worker thread, by id."""

        def __init__(self, games: dict[str, SavedGame | None]) -> None:
            super().__init__()
            self.games = games

    @property
    def app_services(self) -> AppServices | None:
        """The app's services: the data directory, the last setup, discarding a game."""
        return services(self.app)

    @property
    def picked(self) -> int:
        """The game in progress picked (in ``saves``): the one highlighted in the list."""
        if len(self.saves) < 2:
            return 0
        for listed in self.query("#setup-games").results(OptionList):
            return min(listed.highlighted or 0, len(self.saves) - 1)
        return 0

    @property
    def resumable(self) -> Path | None:
        """The save of the game in progress picked, if there is one ("Resume")."""
        if not self.saves or (app := self.app_services) is None:
            return None
        return save_path(app.data_dir(), self.saves[self.picked])

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
                    "" if config.seed is None else seed_text(config.seed),
                    placeholder="random, or a number, or the code a score screen showed",
                    restrict=SEED_CHARACTERS,
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
            yield Static("", id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield ActionButton("Start (ctrl+s)", "start", variant="primary", id="start")
                yield ActionButton("Resume (ctrl+r)", "resume", variant="success", id="resume")
                yield ActionButton("Quit (Esc)", "app.quit", id="quit")
        yield KeysBar(id="keys")

    @staticmethod
    def _people_options(players: int) -> list[tuple[str, int]]:
        labels = {0: "0 (watch bots)", 1: "1 (you against bots)"}
        return [(labels.get(n, f"{n} (hotseat)"), n) for n in range(players + 1)]

    def on_mount(self) -> None:
        """The games in progress (described once read); start in the first field."""
        self._list_saves()
        self._show_saves()
        self.query_one("#players", Choice).focus()

    def _list_saves(self) -> None:
        """Which games are in progress (up to ``MOST_SHOWN``), at once; what they are is
        read in a worker thread (each save is replayed: milliseconds a game)."""
        app = self.app_services
        if app is None:
            return
        data = app.data_dir()
        ids = games_in_progress(data)
        self.saves = ids[:MOST_SHOWN]
        self.more = len(ids) - len(self.saves)
        unread = [i for i in self.saves if i not in self.games]
        if unread:
            read = partial(self._read, data, unread)  # once the screen is drawn
            self.call_after_refresh(self.run_worker, read, thread=True, group="saves")

    def _read(self, data: DataDir, ids: list[str]) -> None:
        """Read the games ``ids`` (in a worker thread)."""
        self.post_message(self.GamesRead({i: SavedGame.read(save_path(data, i)) for i in ids}))

    def on_setup_screen_games_read(self, message: GamesRead) -> None:
        """The games read: describe them."""
        self.games.update(message.games)
        self._show_saves(keep_pick=True)

    def _show_saves(self, *, keep_pick: bool = False) -> None:
        """Say what games are in progress: the one there is, or a list to pick one from
        (made the first time there are two), the first picked (or the one picked still:
        ``keep_pick``)."""
        saves = self.saves
        described = self.query_one("#setup-resume", Static)
        described.display = bool(saves)
        self.query_one("#resume", ActionButton).display = bool(saves)
        for listed in self.query("#setup-games"):
            listed.display = len(saves) > 1
        if len(saves) == 1:
            described.update(Text(_in_progress(saves[0], self.games)))
        elif saves:
            count = len(saves) + self.more
            described.update(
                f"{count} games in progress: ctrl+r resumes the one picked, ctrl+x discards it"
            )
            listed = self._games_list()
            picked = self.picked if keep_pick else 0
            listed.set_options(_line(i, self.games) for i in saves)
            listed.highlighted = picked
            self.query_one("#setup-help", Static).display = False  # room for the list
        self.refresh_bindings()

    def _games_list(self) -> OptionList:
        """The list of the games in progress, made the first time there are two."""
        for listed in self.query("#setup-games").results(OptionList):
            return listed
        listed = OptionList(id="setup-games", compact=True)
        self.query_one("#setup-box").mount(listed, after="#setup-resume")
        return listed

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
        session_id = self.saves[self.picked]
        if session_id not in self.games:  # not read yet: this one at once
            app = self.app_services
            assert app is not None
            self.games[session_id] = SavedGame.read(save_path(app.data_dir(), session_id))
        game = self.games[session_id]

        def answered(yes: bool | None) -> None:
            if yes:
                self._discard(session_id, game)

        self.app.push_screen(ConfirmDiscard(_in_progress(session_id, self.games)), answered)

    def _discard(self, session_id: str, game: SavedGame | None) -> None:
        app = self.app_services
        assert app is not None
        problem = app.discard(session_id)
        if problem is not None:
            self.show_error(f"cannot discard the game: {problem}")
            return
        self._list_saves()
        self._show_saves()
        help_line = self.query_one("#setup-help", Static)
        help_line.update(f"Discarded: {game.standing(SHORT_NAME) if game else session_id}.")
        help_line.display = True

    def action_tutorial(self) -> None:
        """``t``: the tutorial (offered on the first run); ``q`` at its end comes back."""
        from coloretto.tui.screens.tutorial import open_tutorial  # noqa: PLC0415 (when shown)

        open_tutorial(self.app, quits=False)

    def action_no_game(self) -> None:
        """Ctrl+R with no game in progress: say so."""
        self.show_error("there is no game in progress to resume")

    def show_error(self, text: str) -> None:
        """Show what is wrong, under the form, whole (on more lines if need be: it may
        quote a file's path); the tip about the fields gives it room on a small terminal."""
        self.query_one("#setup-help", Static).display = False
        self.query_one("#setup-error", Static).update(Text(f"! {printable(text)}"))

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_start()

    def config(self) -> GameConfig:
        """The game the form describes; ``ValueError`` says what is wrong."""

        def value(widget_id: str) -> object:
            return self.query_one(f"#{widget_id}", Choice).value

        games_text = self.query_one("#games", Input).value.strip() or "1"
        seed_given = self.query_one("#seed", Input).value.strip()
        try:
            games = int(games_text)
        except ValueError:
            raise ValueError(f"games must be a whole number, not {games_text!r}") from None
        try:
            seed = parse_seed(seed_given) if seed_given else None
        except ValueError as error:
            raise ValueError(f"the seed {error}") from None
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


def _in_progress(session_id: str, games: dict[str, SavedGame | None]) -> str:
    """The game in progress ``session_id`` (in ``games`` once read) in two lines at most
    (five players' names cut to 10 characters): "Game in progress, saved 21 Nov at 07:45:
    Ana 12, Ben 8 (round 3)."."""
    if session_id not in games:
        return "A game in progress (reading it…)."
    game = games[session_id]
    if game is None:
        return "A game in progress was saved, but it cannot be read."
    saved = f", saved {game.when()}" if game.saved is not None else ""
    return f"Game in progress{saved}: {game.standing(SHORT_NAME)}."


def _line(session_id: str, games: dict[str, SavedGame | None]) -> Text:
    """The game in progress ``session_id`` on one line of the list: "21 Nov at 07:45 ·
    round 3 · Ana 12, Ben 8"."""
    if session_id not in games:
        return Text(f"{session_id}: reading it…", style="italic")
    game = games[session_id]
    if game is None:
        return Text(f"{session_id}: cannot be read", style="italic")
    scores = ", ".join(
        f"{printable(name, LIST_NAME)} {score}"
        for name, score in zip(game.players, game.scores, strict=False)
    )
    line = Text(f"{game.when()} · {game.stage} · {scores}")
    line.truncate(LINE_WIDTH, overflow="ellipsis")
    return line
