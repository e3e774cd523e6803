"""Online play: a game server and the client the game screen plays at (``docs/online.md``).

No Textual here. ``wire`` is what both ends agree on (the requests and messages, declared
once); ``server`` the game server (each room a state machine in an asyncio shell, its
store, accounts, budgets, the relay); ``client`` a player's side (a state machine in the
``RemoteTable`` shell, a ``play.table.Table``). ``wire`` imports neither of the others,
and ``client`` and ``server`` never import each other.
"""
