"""The app's screens: setup, the game table, the score screen, and dialogs.

Each is imported on first use (``from coloretto.tui.screens import EndScreen``), so that a
game starts without importing the screens it does not show yet.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coloretto.tui.screens.dialogs import (
        ConfirmQuit,
        HelpScreen,
        MovesScreen,
        RulesScreen,
        TooSmallScreen,
    )
    from coloretto.tui.screens.end import EndScreen
    from coloretto.tui.screens.game import GameScreen
    from coloretto.tui.screens.replay import ReplayScreen
    from coloretto.tui.screens.setup import SetupScreen

_MODULES = {
    "ConfirmQuit": "dialogs",
    "EndScreen": "end",
    "GameScreen": "game",
    "HelpScreen": "dialogs",
    "MovesScreen": "dialogs",
    "ReplayScreen": "replay",
    "RulesScreen": "dialogs",
    "SetupScreen": "setup",
    "TooSmallScreen": "dialogs",
}
"""Each screen's module."""

__all__ = [
    "ConfirmQuit",
    "EndScreen",
    "GameScreen",
    "HelpScreen",
    "MovesScreen",
    "ReplayScreen",
    "RulesScreen",
    "SetupScreen",
    "TooSmallScreen",
]


def __getattr__(name: str) -> object:
    if name in _MODULES:
        return getattr(import_module(f"{__name__}.{_MODULES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
