"""The app's screens: setup, the game table, the score screen, and dialogs."""

from coloretto.tui.screens.dialogs import ConfirmQuit, HelpScreen, MovesScreen, RulesScreen
from coloretto.tui.screens.end import EndScreen
from coloretto.tui.screens.game import GameScreen
from coloretto.tui.screens.setup import SetupScreen

__all__ = [
    "ConfirmQuit",
    "EndScreen",
    "GameScreen",
    "HelpScreen",
    "MovesScreen",
    "RulesScreen",
    "SetupScreen",
]
