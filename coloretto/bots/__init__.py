"""The bots: the protocol a bot follows, the built-in bots, the registry of installed bots
(built-ins and plug-ins alike) and the arena that measures them."""
