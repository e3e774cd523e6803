"""What the screens ask of the app that shows them: a typed interface the game's apps
implement (``GuardedApp``), which a screen reaches with ``services(self.app)``."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from textual.app import App

from coloretto.play.config import GameConfig
from coloretto.store.paths import DataDir


@runtime_checkable
class AppServices(Protocol):
    """The app, as its screens see it (methods only: checking for them runs no code)."""

    def data_dir(self) -> DataDir:
        """Where the saves, the history and the last setup are kept."""
        ...

    def last_setup(self) -> GameConfig | None:
        """The setup of the last game started here, if one is kept."""
        ...

    def remember(self, config: GameConfig) -> None:
        """Keep ``config`` as the setup the setup screen offers next time."""
        ...

    def discard(self, session_id: str) -> str | None:
        """Discard the game in progress ``session_id`` for good; what went wrong, if any."""
        ...

    def quit_question(self) -> str | None:
        """What the quit dialog asks (Textual markup); ``None``: its usual question."""
        ...

    def leave(self) -> None:
        """Quit; the words left behind say how to come back."""
        ...


def services(app: App[object]) -> AppServices | None:
    """``app``'s services; ``None`` for an app without them (a test's bare ``App``)."""
    return app if isinstance(app, AppServices) else None
