"""AI opponents: the bot interface, the built-in bots and the arena.

A bot author needs only what is here: ``Bot`` (the protocol), ``Budget`` (how long a
move may take, given by the game and the arena) and ``BotFactory`` (what an entry point
names). See the README, "Writing a bot".
"""

from coloretto.bots.base import Bot, BotFactory, Budget

__all__ = ["Bot", "BotFactory", "Budget"]
