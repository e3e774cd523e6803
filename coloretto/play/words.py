"""The game in words, for any front end: moves as they happen (the coach's reasons are in
``coloretto.play.advice``).

A narrated line is made of words and cards (``Line``), so that each front end shows the
cards its own way: the terminal as coloured names, plain text (``Line.plain``) by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from coloretto.engine import (
    Action,
    ActionKind,
    Card,
    Edition,
    GameState,
    Move,
    Rules,
    Seed,
    Variant,
)

DASH = "\N{EN DASH}"
"""The dash between row numbers (1-5) and before advice in messages: an en dash."""

CARD_NAMES: Mapping[Card, str] = MappingProxyType(
    {
        Card.BLUE: "blue",
        Card.BROWN: "brown",
        Card.GRAY: "gray",
        Card.GREEN: "green",
        Card.ORANGE: "orange",
        Card.PINK: "pink",
        Card.YELLOW: "yellow",
        Card.JOKER: "joker",
        Card.GOLDEN_JOKER: "golden joker",
        Card.PLUS2: '"+2"',
        Card.LAST_ROUND: "Last Round card",
    }
)
"""Every card's name in words, as the move log says it."""

Part = str | Card | tuple[Card, ...]
"""A piece of a narrated line: words, a card, or a list of cards."""


@dataclass(frozen=True)
class Line:
    """One narrated line: words and cards, and whether it is news worth stressing.

    >>> line = Line(("Ana took row 2: ", (Card.ORANGE, Card.PLUS2), "."))
    >>> line.plain
    'Ana took row 2: orange, "+2".'
    """

    parts: tuple[Part, ...]
    bold: bool = False

    @property
    def plain(self) -> str:
        """The line as plain text, cards by name."""
        return "".join(_plain(part) for part in self.parts)


def _plain(part: Part) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, Card):
        return CARD_NAMES[part]
    return ", ".join(CARD_NAMES[card] for card in part)


def row_list(rows: Iterable[int], *, runs: bool = True) -> str:
    """Row numbers (0-based in) as players read them: ``"1, 2 or 4"``; a run of three or
    more with a dash, unless not ``runs`` (where "row 2\N{EN DASH}4" would not read well).

    >>> row_list([0, 1, 3]), row_list([2]), row_list([0, 1, 2, 3, 4])
    ('1, 2 or 4', '3', '1\N{EN DASH}5')
    >>> row_list([1, 2, 3], runs=False), row_list([])
    ('2, 3 or 4', '')
    """
    numbers = [r + 1 for r in rows]
    if runs and len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}{DASH}{numbers[-1]}"
    if len(numbers) <= 1:
        return "".join(map(str, numbers))
    return ", ".join(map(str, numbers[:-1])) + f" or {numbers[-1]}"


def rules_in_words(rules: Rules) -> str:
    """The rules in a few words.

    >>> rules_in_words(Rules(players=4, edition="anniversary"))
    '4 players, brown side, anniversary edition'
    """
    what = [f"{rules.players} players", f"{rules.scoring.value} side"]
    if rules.edition is not Edition.CLASSIC:
        what.append(f"{rules.edition.value} edition")
    if rules.variant is not Variant.STANDARD:
        what.append(f"{rules.variant.value} variant")
    return ", ".join(what)


def describe_deal(game: GameState, names: Sequence[str], seed: Seed, number: int = 1) -> list[Line]:
    """The deal in words: the rules and seed (``number`` of the match's games), the colours
    removed, everyone's starting cards and who starts."""
    rules = game.rules
    what = rules_in_words(rules)
    if rules.games > 1:
        what = f"Game {number} of {rules.games}: {what}"
    lines = [Line((f"{what}; seed {seed}.",))]
    if game.removed_colours:
        lines.append(Line(("Removed from the game: ", game.removed_colours, ".")))
    starting: list[Part] = ["Starting cards: "]
    for seat in range(rules.seats):
        if seat:
            starting.append("; ")
        starting.append(f"{names[seat]} ")
        for i, card in enumerate(game.setup.starting[seat]):
            starting += [" and ", card] if i else [card]
    lines.append(Line((*starting, ".")))
    first = names[game.setup.first_player]
    lines.append(Line((f"{first} {starts(first)}.",)))
    return lines


LAST_ROUND_NEWS = Line(("The Last Round card came up: this round is the last!",), bold=True)


def describe_move(
    move: Move, before: GameState, after: GameState, names: Sequence[str]
) -> list[Line]:
    """The move in words (its first line), then what followed from it (Last Round, end of
    round, discards). A draw that turned up the Last Round card says so first, on its line.

    ``before`` and ``after`` are the states around the move.

    >>> from coloretto.engine import Rules, new_game
    >>> game = new_game(Rules(players=3), seed=2)
    >>> after = game.apply("draw")
    >>> [line.plain for line in describe_move(after.last_move, game, after, ["Ana", "Ben", "Cy"])]
    ['Ben drew gray.']
    """
    who = names[move.player]
    lines: list[Line] = []
    kind = move.action.kind
    row = move.action.row
    if kind is ActionKind.DRAW:
        assert move.card is not None
        drew = (f"{who} drew ", move.card, ".")
        if move.last_round:  # it came up first, then the card under it was drawn
            lines.append(Line((*LAST_ROUND_NEWS.parts, " ", *drew), bold=True))
        else:
            lines.append(Line(drew))
    elif kind is ActionKind.PLACE:
        assert row is not None
        assert before.drawn_card is not None
        lines.append(Line((f"{who} put ", before.drawn_card, f" on row {row + 1}.")))
    else:
        assert row is not None
        parts: list[Part] = [f"{who} took row {row + 1}: ", before.rows[row]]
        if move.card is not None:
            parts += ["; the golden joker brought in ", move.card]
        lines.append(Line((*parts, ".")))
        if move.last_round:
            lines.append(LAST_ROUND_NEWS)
        discarded = after.discards[len(before.discards) :]
        if discarded:
            lines.append(Line(("Left on the rows and discarded: ", discarded, ".")))
        if after.is_over:
            lines.append(Line(("The game is over.",), bold=True))
        elif after.round != before.round:
            first = names[after.current_player]
            lines.append(
                Line(
                    (f"Round {before.round} is over; {first} {starts(first)} round {after.round}.",)
                )
            )
    return lines


def starts(name: str) -> str:
    """The verb for ``name``: "You start", "Ana starts".

    >>> starts("You"), starts("Ana")
    ('start', 'starts')
    """
    return "start" if name == "You" else "starts"


def row_gain(state: GameState, seat: int, cards: Iterable[Card]) -> int:
    """How much ``seat``'s score (best joker assignment) would change on collecting ``cards``.

    >>> from coloretto.engine import Rules, new_game
    >>> game = new_game(Rules(players=3), seed=1)
    >>> row_gain(game, 0, [])
    0
    """
    return state.score_with(seat, cards) - state.score_with(seat)


def describe_action(action: Action, state: GameState) -> str:
    """An action as a player would say it: "draw", "take row 2", "put it on row 3"."""
    if action.kind is ActionKind.DRAW:
        return "draw a card"
    assert action.row is not None
    if action.kind is ActionKind.TAKE:
        return f"take row {action.row + 1}"
    card = state.drawn_card
    what = CARD_NAMES[card] if card is not None else "it"
    return f"put the {what} card on row {action.row + 1}"


def short_action(action: Action, state: GameState) -> str:
    """An action in a few letters, for tables: "draw", "take row 2", "blue → row 3".

    >>> from coloretto.engine import DRAW, new_game
    >>> short_action(DRAW, new_game(seed=1)), short_action(Action.take(1), new_game(seed=1))
    ('draw', 'take row 2')
    """
    if action.kind is ActionKind.DRAW:
        return "draw"
    assert action.row is not None
    if action.kind is ActionKind.TAKE:
        return f"take row {action.row + 1}"
    card = state.drawn_card
    return f"{CARD_NAMES[card] if card is not None else 'card'} → row {action.row + 1}"


def names_and(names: Sequence[str]) -> str:
    """``"Ana"``, ``"Ana and Ben"``, ``"Ana, Ben and Cy"``.

    >>> names_and(["Ana", "Ben", "Cy"])
    'Ana, Ben and Cy'
    """
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" and {names[-1]}"


def ordinal(n: int) -> str:
    """``"2nd"``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11)]
    ['1st', '2nd', '3rd', '4th', '11th']
    """
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n, "th")
    return f"{n}{suffix}"
