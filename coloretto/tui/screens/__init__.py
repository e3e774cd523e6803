"""The app's screens: setup, the game table, the score screen, and dialogs."""

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
