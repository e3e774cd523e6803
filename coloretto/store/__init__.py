"""What the game keeps on disk: games in progress, finished games, statistics and a log.

Everything lives in one data directory (``DataDir``): the platform's user data directory,
or ``$COLORETTO_HOME`` when set. The engine knows nothing of it.
"""

from coloretto.store.paths import DataDir

__all__ = ["DataDir"]
