"""AI opponents: the bot interface, the built-in bots and the arena.

A bot author needs only what is here: ``Bot`` (the protocol), ``Budget`` (how long a
move may take, given by the game and the arena) and ``BotFactory`` (what an entry point
names); optionally ``Analyst`` (a bot that values every action, returning an ``Estimate``
for each: the game review and the hints use it). See docs/bots.md, "Writing a bot".
"""

from coloretto.bots.base import Analyst, Bot, BotFactory, Budget, Estimate

__all__ = ["Analyst", "Bot", "BotFactory", "Budget", "Estimate"]
