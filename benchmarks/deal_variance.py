"""How uncertain the coach's differences are, and what other ways of sampling deals would save.

On fixed positions (decisions of seeded four-player games among expert bots), the coach's
bot values every action ``--repeats`` times with different seeds. For the difference in
margin between the two actions the first analysis ranks best, it prints:

- the standard error the coach reports, measured deal by deal (paired: every action is
  played out on the same deals, ``Valuation.paired``), against the one it would report if
  the two estimates were independent (what the review assumed before: their errors
  combined), and the spread of the difference across the repeats (what the errors should
  match);
- the same spread when the deals are drawn otherwise (for comparison only: the search
  itself is unchanged): *stratified* (the next card off the deck drawn evenly over the
  unseen cards, deal by deal, the rest shuffled) and *antithetic* (every other deal is the
  one before with the deck in reverse order);
- and the spread of the difference corrected by a control variate: the cards of the
  seat's own colours among the next ``CONTROL_CARDS`` of each deal's deck, less what is
  expected from the unseen cards (known exactly), regressed out of the deals' differences.

Run: ``python benchmarks/deal_variance.py [--positions 12] [--repeats 10] [--deals 16]``.
Figures in docs/coach.md ("How sure the coach is").
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import time
from abc import abstractmethod
from collections.abc import Sequence

from coloretto.bots.expert import ExpertBot
from coloretto.bots.search import SearchBot
from coloretto.engine import Card, GameState, PlayerView, Rules, new_game
from coloretto.play.analysis import valuation
from coloretto.play.coach import ranked


class _Sampler(SearchBot):
    """The coach's search bot with another way of ordering each sampled deal's deck."""

    def _observe(self, view: PlayerView, start: float, seconds: float | None) -> None:
        self._orders: list[list[Card]] = []
        super()._observe(view, start, seconds)

    def _deal(self, view: PlayerView) -> GameState:
        base = super()._deal(view)
        order = self._order(_undrawn(base), len(self._orders))
        self._orders.append(order)
        return base.with_deck_order(order)

    @abstractmethod
    def _order(self, cards: list[Card], number: int) -> list[Card]:
        """The deck of deal ``number`` (from 0) of an analysis, from its ``cards``."""


class Stratified(_Sampler):
    """The next card drawn evenly over the unseen cards (deal ``i`` of ``n`` from the
    ``i``-th ``n``-th of them, in a fixed order), the rest shuffled."""

    strata = 16

    def _order(self, cards: list[Card], number: int) -> list[Card]:
        share = (number % self.strata + self._rng.random()) / self.strata
        top = cards.pop(min(len(cards) - 1, int(share * len(cards))))
        self._rng.shuffle(cards)
        return [top, *cards]


class Recorded(_Sampler):
    """Deals as the search draws them (shuffled), their decks kept for the control variate."""

    def _order(self, cards: list[Card], number: int) -> list[Card]:
        self._rng.shuffle(cards)
        return cards


CONTROL_CARDS = 4
"""The next cards of a deal whose colours make the control variate."""


def controlled(state: GameState, bot: Recorded, differences: Sequence[float]) -> float:
    """The mean of the deals' ``differences`` less the part the control variate explains:
    the cards of the seat's colours among each deal's next ``CONTROL_CARDS`` cards, whose
    mean is known from the unseen cards."""
    seat = state.current_player
    mine = {card for card, n in state.collection(seat).items() if n and card.is_colour}
    unseen = _undrawn(state)
    expected = CONTROL_CARDS * sum(card in mine for card in unseen) / max(1, len(unseen))
    controls = [sum(c in mine for c in order[:CONTROL_CARDS]) - expected for order in bot._orders]
    spread = statistics.pvariance(controls)
    if spread == 0:
        return statistics.fmean(differences)
    slope = statistics.covariance(differences, controls) / statistics.variance(controls)
    return statistics.fmean(differences) - slope * statistics.fmean(controls)


class Antithetic(_Sampler):
    """Every other deal is the one before with its deck in reverse order."""

    def _order(self, cards: list[Card], number: int) -> list[Card]:
        if number % 2:
            return list(reversed(self._orders[-1]))
        self._rng.shuffle(cards)
        return cards


def _undrawn(state: GameState) -> list[Card]:
    """The cards still to be drawn (but the Last Round card), in a fixed order."""
    unseen = state.unseen()
    return sorted(card for card, n in unseen.items() for _ in range(n) if card != Card.LAST_ROUND)


def positions(count: int) -> list[GameState]:
    """Decisions with a choice, every ninth of seeded four-player games between experts."""
    found: list[GameState] = []
    expert = ExpertBot()
    seed = 0
    while len(found) < count:
        game = new_game(Rules(players=4), seed=seed)
        while not game.is_over and len(found) < count:
            legal = game.legal_actions()
            if len(legal) > 1 and game.ply % 9 == 4:
                found.append(game)
            game = game.apply(expert.choose(game.view(game.current_player), legal))
        seed += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--deals", type=int, default=16)
    args = parser.parse_args()
    print(
        f"{args.positions} positions, {args.repeats} analyses each on {args.deals} deals "
        f"(search sample=true); {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load {os.getloadavg()[0]:.1f}"
    )
    kinds: dict[str, type[SearchBot]] = {
        "plain": SearchBot,
        "stratified": Stratified,
        "antithetic": Antithetic,
    }
    names = [*kinds, "controlled"]
    spreads: dict[tuple[str, int], list[float]] = {(k, m): [] for k in names for m in (0, 1)}
    paired: dict[int, list[float]] = {0: [], 1: []}
    unpaired: dict[int, list[float]] = {0: [], 1: []}
    start = time.perf_counter()
    for state in positions(args.positions):
        view, legal = state.view(state.current_player), state.legal_actions()
        first = valuation(SearchBot(0, iterations=args.deals, sample=True), view, legal)
        best, *rest = ranked(first.estimates)
        unlike = [a for a in rest if first.estimates[a] != first.estimates[best]]
        if not unlike:
            continue
        second = unlike[0]
        for name, kind in kinds.items():
            differences: dict[int, list[float]] = {0: [], 1: []}
            for repeat in range(args.repeats):
                bot = kind(1000 + repeat, iterations=args.deals, sample=True)
                found = valuation(bot, view, legal)
                mine, theirs = found.estimates[best], found.estimates[second]
                differences[0].append(mine.win - theirs.win)
                differences[1].append(mine.margin - theirs.margin)
                if name == "plain":
                    errors = found.difference_error(best, second)
                    alone = (
                        math.hypot(mine.win_error, theirs.win_error),
                        math.hypot(mine.margin_error, theirs.margin_error),
                    )
                    for measure in (0, 1):
                        paired[measure].append(errors[measure])
                        unpaired[measure].append(alone[measure])
            for measure in (0, 1):
                spreads[name, measure].append(statistics.stdev(differences[measure]))
        corrected: dict[int, list[float]] = {0: [], 1: []}
        for repeat in range(args.repeats):
            recorded = Recorded(1000 + repeat, iterations=args.deals, sample=True)
            values = recorded.deal_values(view, legal)
            for measure in (0, 1):
                deals = [
                    a[measure] - b[measure]
                    for a, b in zip(values[best], values[second], strict=True)
                ]
                corrected[measure].append(controlled(state, recorded, deals))
        for measure in (0, 1):
            spreads["controlled", measure].append(statistics.stdev(corrected[measure]))
    print(f"({time.perf_counter() - start:.0f} s)")
    print("the best option less the next (root mean square over the positions):")
    print(f"{'':44} {'win %':>6} {'points':>6}")
    print(f"  reported error, paired (deal by deal):    {_pair(paired)}")
    print(f"  reported error, as if independent:        {_pair(unpaired)}")
    for name in names:
        spread = {m: spreads[name, m] for m in (0, 1)}
        print(f"  spread across repeats, {name:10} deals: {_pair(spread)}")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


def _rms(values: Sequence[float]) -> float:
    return math.sqrt(statistics.fmean(x * x for x in values))


def _pair(values: dict[int, list[float]]) -> str:
    """A win chance's and a margin's root mean squares, in points of % and points."""
    return f"{100 * _rms(values[0]):6.2f} {_rms(values[1]):6.2f}"


if __name__ == "__main__":
    main()
