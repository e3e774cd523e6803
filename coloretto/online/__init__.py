"""Online play: a game server and the client the game screen plays at (``docs/online.md``).

No Textual here: ``protocol`` (the messages, every request checked), ``public`` (the game as
a seat sees it), ``rooms`` (tables and their saves), ``server`` (the asyncio WebSocket
server, bots through the guard) and ``client`` (``RemoteTable``, a ``play.table.Table``).
"""
