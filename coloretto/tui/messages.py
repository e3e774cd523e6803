"""What happens in the game, as Textual messages between workers, screens and the app."""

from __future__ import annotations

from pathlib import Path

from textual.message import Message

from coloretto.play.config import GameConfig
from coloretto.play.table import Hint
from coloretto.play.table_view import TableView


class HintReady(Message):
    """The hint bot has answered: what it would do, and why in a few words."""

    def __init__(self, token: int, hint: Hint) -> None:
        super().__init__()
        self.token = token
        self.hint = hint


class GameOver(Message):
    """The game on screen has ended: time for the score screen."""

    def __init__(self, view: TableView) -> None:
        super().__init__()
        self.view = view


class StartGame(Message):
    """Start a new game (or match) with ``config``, e.g. from the setup screen."""

    def __init__(self, config: GameConfig) -> None:
        super().__init__()
        self.config = config


class ResumeGame(Message):
    """Resume the game saved in ``path`` (the setup screen's "Resume")."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
