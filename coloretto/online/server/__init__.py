"""The game server: each room a state machine (``room_machine``) in a thin asyncio shell
(``room_server``), its store (``room_space`` over ``database``), accounts, budgets and the
relay between processes."""
