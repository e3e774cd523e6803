"""A player's side of online play: the client's state machine (``machine``) in its asyncio
shell (``remote_table``), the words it shows, the lobby and the ladder."""
