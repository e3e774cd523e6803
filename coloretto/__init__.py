"""Coloretto, the card game, for the terminal."""

__version__ = "0.1.0"
