"""The Textual game: play Coloretto from the keyboard against bots or friends at one keyboard.

>>> from coloretto.engine import Rules
>>> from coloretto.tui import ColorettoApp, GameConfig
>>> config = GameConfig.build(Rules(players=4), humans=1, bot="easy", seed=1, delay=0)
>>> app = ColorettoApp(config)  # app.run() plays it

The app (and Textual with it) is imported on first use, so that the other commands of
``coloretto`` start without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from coloretto.play.config import GameConfig, Player
from coloretto.play.session import Session

if TYPE_CHECKING:
    from coloretto.tui.app import ColorettoApp

__all__ = ["ColorettoApp", "GameConfig", "Player", "Session"]


def __getattr__(name: str) -> object:
    if name == "ColorettoApp":
        from coloretto.tui.app import ColorettoApp  # noqa: PLC0415 (lazy on purpose)

        return ColorettoApp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
