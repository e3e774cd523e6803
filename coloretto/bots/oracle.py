"""``oracle``: the search told the real order of the deck, for measurement only.

The oracle plays the search bot's search (``coloretto.bots.search``, with the same
options: ``oracle:iterations=64:at_five=32:sample=true`` is the hard level's search
without its clock) on the one true deal instead of deals sampled from what its seat
knows: the real order of the cards to come. Its opponents are still modelled as the
search models them (from their play this game), and ``sample`` still draws their rules
for each deal. Its win rate against a table is a ceiling for the search there: how much
a player who knew the next cards would win, beside which the hard level's win rate says
how much of the possible edge it already takes (docs/bots.md, "The ceiling: the oracle").

It cheats, so it is never a player's opponent: it is no entry point of the registry (no
level, not listed by ``coloretto bots``, refused by ``coloretto play``), only the arena
and the benchmarks make it (``make_measured_bot``), and only the arena shows it the deck
(``coloretto.engine.view.RevealedView``, ``BotPlayers`` with ``measuring``). Given a
seat's ordinary view it refuses to move.
"""

from __future__ import annotations

from collections.abc import Sequence

from coloretto.bots.base import Bot, Budget, Estimate
from coloretto.bots.registry import ORACLE, BotError, BotSpec, make_bot
from coloretto.bots.search import SearchBot
from coloretto.engine import Action, GameState, PlayerView
from coloretto.engine.view import RevealedView


class OracleBot(SearchBot):
    """The search bot on the real deal: every deal it searches is the game itself, the
    order of the deck included (for measurement only; options as ``search``'s)."""

    def choose(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> Action:
        """The search's choice, on the true deal (``view`` must reveal it)."""
        _revealed(view)
        return super().choose(view, legal, budget)

    def analyse(
        self, view: PlayerView, legal: Sequence[Action], budget: Budget | None = None
    ) -> dict[Action, Estimate]:
        """The search's values, on the true deal (``view`` must reveal it)."""
        _revealed(view)
        return super().analyse(view, legal, budget)

    def _cards(self, view: PlayerView) -> GameState:
        return _revealed(view).true_state()


def _revealed(view: PlayerView) -> RevealedView:
    if not isinstance(view, RevealedView):
        raise BotError("the oracle needs the order of the deck, which only the arena shows it")
    return view


def sees_the_deck(spec: str | BotSpec) -> bool:
    """True when ``spec`` names the oracle (whose table must show it the deck).

    >>> sees_the_deck("oracle:iterations=64"), sees_the_deck("hard")
    (True, False)
    """
    parsed = spec if isinstance(spec, BotSpec) else BotSpec.parse(spec)
    return parsed.name == ORACLE


def make_measured_bot(spec: str | BotSpec, seed: int | None = None) -> Bot:
    """The bot ``spec`` names where bots are measured (the arena, the benchmarks): the
    registry's bots, and the oracle.

    >>> type(make_measured_bot("oracle:iterations=8", seed=1)).__name__
    'OracleBot'
    """
    parsed = spec if isinstance(spec, BotSpec) else BotSpec.parse(spec)
    if parsed.name != ORACLE:
        return make_bot(parsed, seed)
    try:
        return OracleBot(seed, **parsed.options)  # type: ignore[arg-type]
    except (TypeError, ValueError) as error:
        raise BotError(f"bot {str(parsed)!r}: {error}") from error
