"""What happens in the game, as Textual messages between workers, screens and the app."""

from __future__ import annotations

from pathlib import Path

from textual.message import Message

from coloretto.engine import Action
from coloretto.tui.config import GameConfig
from coloretto.tui.session import Session


class BotChose(Message):
    """A bot (in its worker thread) has chosen an action for ``seat``."""

    def __init__(
        self, token: int, seat: int, action: Action, seconds: float, problem: str | None = None
    ) -> None:
        super().__init__()
        self.token = token
        """Which position the bot thought about: a stale answer is ignored."""
        self.seat = seat
        self.action = action
        self.seconds = seconds
        """How long the bot thought."""
        self.problem = problem
        """Set when the bot failed and a fallback action was chosen for it."""


class HintReady(Message):
    """The hint bot has answered: what it would do, and why in a few words."""

    def __init__(self, token: int, action: Action, reason: str) -> None:
        super().__init__()
        self.token = token
        self.action = action
        self.reason = reason


class GameOver(Message):
    """The game on screen has ended: time for the score screen."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session


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
