"""The tutorial: a scripted game that teaches Coloretto on the real table, one step at a
time (pure: the terminal shows it with ``coloretto.tui.screens.tutorial``).

The script is data: ``STEPS`` is a list of ``Step``, each with the words of its bubble, the
part of the table the bubble points at (``Spot``), the move it waits for (or none: the
player presses Enter to go on), a check on the game it is shown in, and the moves played
for the others after it. The deal is made from the same moves (``tutorial_setup``): each
card is drawn where the script says, and the Last Round card turns up where it must.

``Lesson`` walks through the script: a move other than the one asked for is refused with a
hint (``WrongMove``), and the game is the engine's, scores and all.

>>> lesson = Lesson.start()
>>> lesson = lesson.answer(None).answer(None)  # two words of welcome: Enter goes on
>>> lesson.answer(Action.take(0))
Traceback (most recent call last):
...
coloretto.play.tutorial.WrongMove: Row 1 is empty: press d to draw a card first.
>>> lesson.answer(DRAW).game.drawn_card
<Card.GREEN: 3>
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from coloretto.engine import (
    DRAW,
    Action,
    ActionKind,
    Card,
    GameState,
    IllegalAction,
    Rules,
    Scoring,
    Setup,
    score,
)
from coloretto.engine.setup import CARDS_BELOW_LAST_ROUND, full_deck
from coloretto.play.words import CARD_NAMES, names_and

RULES = Rules(players=3)
"""The tutorial's game: three players, the brown side."""
NAMES = ("You", "Ana", "Ben")
"""The seats' names: the person, then the two scripted players."""
YOU = 0
"""The person's seat."""


class Part(StrEnum):
    """A part of the table a bubble can point at."""

    TABLE = "table"
    """The rows as a whole."""
    ROW = "row"
    DECK = "deck"
    """The deck, or the card just drawn."""
    SEAT = "seat"
    """A player's cards and score."""
    TOP = "top"
    """The top bar: the round, the deck and the Last Round card."""


@dataclass(frozen=True)
class Spot:
    """Where a bubble points: a part of the table, and which row or seat (from 0)."""

    part: Part
    index: int = 0


TABLE = Spot(Part.TABLE)
DECK = Spot(Part.DECK)
TOP = Spot(Part.TOP)
ROW_1 = Spot(Part.ROW, 0)
YOUR_SEAT = Spot(Part.SEAT, YOU)
EVERYONE = tuple(Spot(Part.SEAT, seat) for seat in range(RULES.seats))
"""Every player's seat: the players' panel."""


@dataclass(frozen=True)
class Turn:
    """A scripted turn: its actions, and the card its draw turns up (the deal puts it
    there)."""

    actions: tuple[Action, ...]
    card: Card | None = None


def draw(card: Card) -> Turn:
    """Draw ``card``."""
    return Turn((DRAW,), card)


def place(row: int) -> Turn:
    """Put the drawn card on row ``row`` (from 1, as players count)."""
    return Turn((Action.place(row - 1),))


def take(row: int) -> Turn:
    """Take row ``row`` (from 1)."""
    return Turn((Action.take(row - 1),))


def put(card: Card, row: int) -> Turn:
    """Draw ``card`` and put it on row ``row`` (from 1)."""
    return Turn((DRAW, Action.place(row - 1)), card)


@dataclass(frozen=True)
class KeyNames:
    """The keys the words name: the game's own, or those a keymap put in their place (the
    screen knows which)."""

    draw: str = "d"
    rows: tuple[str, ...] = tuple(str(n) for n in range(1, len(RULES.row_capacities) + 1))
    """Row 1's key first."""
    go_on: str = "Enter"


GAME_KEY_NAMES = KeyNames()
"""The game's own keys."""

Words = str | Callable[[GameState], str]
"""What a bubble says: words that may name keys (``{keys.draw}``, ``{keys.rows[0]}``: a
``KeyNames``), or words made from the game shown (its scores)."""


@dataclass(frozen=True)
class Step:
    """One step of the tutorial: a bubble, and the move that ends it."""

    words: Words
    spot: Spot
    """What the bubble points at."""
    move: Turn | None = None
    """The player's move (one action); ``None``: Enter goes on."""
    then: tuple[Turn, ...] = ()
    """The moves played after it, for the others (and, in a fast-forward, for the player)."""
    fast: bool = False
    """``then`` is a fast-forward: played quickly rather than at the bots' pace."""
    check: Callable[[GameState], bool] | None = None
    """What holds in the game this step is shown in (the words rely on it)."""
    about: tuple[Spot, ...] = ()
    """The other parts of the table the words talk about (the card drawn, the players):
    the bubble keeps off them, as off ``spot``."""

    @property
    def expect(self) -> Action | None:
        """The action this step waits for (``None``: Enter)."""
        return None if self.move is None else self.move.actions[0]

    @property
    def others(self) -> tuple[Action, ...]:
        """The actions of ``then``, one by one."""
        return tuple(action for turn in self.then for action in turn.actions)

    def text(self, game: GameState, keys: KeyNames = GAME_KEY_NAMES) -> str:
        """The bubble's words in ``game``, naming ``keys``."""
        if isinstance(self.words, str):
            return self.words.format(keys=keys)
        return self.words(game)


def instruction(expect: Action | None, keys: KeyNames = GAME_KEY_NAMES) -> str:
    """What to press for ``expect``, in words: ``"press 2 to take row 2"``.

    >>> instruction(None), instruction(Action.place(2))
    ('press Enter to go on', 'press 3 to put the card on row 3')
    >>> instruction(Action.take(0), KeyNames(rows=("F1", "F2", "F3")))
    'press F1 to take row 1'
    """
    if expect is None:
        return f"press {keys.go_on} to go on"
    if expect.kind is ActionKind.DRAW:
        return f"press {keys.draw} to draw a card"
    row = (expect.row or 0) + 1
    key = keys.rows[row - 1]
    if expect.kind is ActionKind.PLACE:
        return f"press {key} to put the card on row {row}"
    return f"press {key} to take row {row}"


class WrongMove(ValueError):
    """Not the move the step asks for; the message says what to press instead."""


# ------------------------------------------------------------------ the words of the end


def _table(scoring: Scoring) -> str:
    """The score table as two lines: the cards of a colour, and their points."""
    counts = "".join(f"{n:>3}" for n in ("1", "2", "3", "4", "5", "6+"))
    points = "".join(f"{p:>3}" for p in scoring.table[1:])
    return f"cards  {counts}\npoints {points}"


def _colours(cards: list[Card]) -> str:
    return names_and([CARD_NAMES[card] for card in cards])


def _plus_and_minus(game: GameState) -> str:
    sets = game.score_breakdown(YOU).sets
    plus = _colours([s.colour for s in sets if s.plus])
    minus = _colours([s.colour for s in sets if not s.plus])
    return (
        f"The game is over! Only your 3 best colours score plus (+): {plus}. "
        f"All the others score minus (\N{MINUS SIGN}): {minus}."
    )


def _points(game: GameState) -> str:
    breakdown = game.score_breakdown(YOU)
    joined = [s for s in breakdown.sets if s.jokers]
    jokers = " ".join(
        f"Your joker joined {CARD_NAMES[s.colour]}: {s.count} {CARD_NAMES[s.colour]} score "
        f"{s.points:+d}."
        for s in joined
    )
    return (
        f"A colour scores by its number of cards:\n{_table(Scoring.BROWN)}\n{jokers} "
        f'With {breakdown.plus2} "+2" cards your score is {breakdown.total}.'
    )


def _sides(game: GameState) -> str:
    counts = game.counts(YOU)
    gray = score(
        {colour: counts[colour] for colour in game.colours},
        jokers=counts[Card.JOKER],
        plus2=counts[Card.PLUS2],
        scoring=Scoring.GRAY,
    )
    brown_jokers = game.score_breakdown(YOU).jokers
    where = _colours(list(dict.fromkeys(gray.jokers)))
    instead = " instead" if gray.jokers != brown_jokers else ""
    return (
        "That was the brown side of the score card. Before a game you may choose the gray "
        f"side, where 3 cards of a colour score most:\n{_table(Scoring.GRAY)}\n"
        f"There you would score {gray.total}, the joker joining {where}{instead}."
    )


def summary(game: GameState) -> str:
    """The final scores, best first, and who won (the engine's scores).

    >>> game = Lesson.start().finish().game
    >>> summary(game) == "Final scores: You 32, Ben 23, Ana 22. You win!"
    True
    """
    scores = game.final_scores()
    order = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    standings = ", ".join(f"{NAMES[seat]} {scores[seat]}" for seat in order)
    outcome = game.outcome()
    assert outcome is not None  # final_scores: the game is over
    winners = outcome.winners
    if winners == (YOU,):
        verdict = "You win!"
    elif YOU in winners:
        verdict = "You share the win!"
    else:
        verdict = f"{names_and([NAMES[seat] for seat in winners])} won this time."
    return f"Final scores: {standings}. {verdict}"


# ------------------------------------------------------------------ the script

GREEN, BROWN, GRAY, BLUE, ORANGE = Card.GREEN, Card.BROWN, Card.GRAY, Card.BLUE, Card.ORANGE
YELLOW, JOKER, PLUS2 = Card.YELLOW, Card.JOKER, Card.PLUS2

# One line a turn would run to a hundred lines: the rounds are written as a table.
# fmt: off
_FAST_FORWARD = (
    # Round 3 (Ben, You, Ana): you take two greens.
    put(GREEN, 1), put(GREEN, 1), put(BROWN, 2), put(GRAY, 2), take(1),
    put(PLUS2, 3), put(ORANGE, 2), put(YELLOW, 3), put(BLUE, 3), take(2), take(3),
    # Round 4 (Ben, You, Ana): you take a yellow.
    put(YELLOW, 1), take(1),
    put(ORANGE, 2), put(JOKER, 3), put(BROWN, 3), put(GREEN, 2), put(BLUE, 2), put(GREEN, 3),
    take(3), take(2),
    # Round 5 (Ben, You, Ana): a yellow and an orange.
    put(YELLOW, 1), put(ORANGE, 1), put(PLUS2, 2), put(BROWN, 3), take(1),
    put(GRAY, 3), put(GREEN, 2), put(YELLOW, 2), put(BROWN, 3), take(2), take(3),
    # Round 6 (Ben, You, Ana): an orange.
    put(ORANGE, 1), take(1),
    put(BLUE, 2), put(YELLOW, 3), put(GREEN, 3), put(GRAY, 2), put(ORANGE, 2), put(BROWN, 3),
    take(3), take(2),
    # Round 7 (Ben, You, Ana): a blue, taken last, so that you start the last round.
    put(BLUE, 1), put(ORANGE, 2), put(YELLOW, 2), put(GRAY, 3), put(BROWN, 2),
    take(2), take(3), take(1),
)
# fmt: on
"""Rounds 3 to 7, played for everyone while the player watches."""

STEPS: tuple[Step, ...] = (
    Step(
        "Welcome to Coloretto! This is a real game against Ana and Ben, and I will show "
        "you every move.",
        TABLE,
        about=EVERYONE,
    ),
    Step(
        "This is you. Everyone starts with one card: yours is green. Collect many cards "
        "of a few colours: those score plus at the end.",
        YOUR_SEAT,
        check=lambda game: game.collection(YOU) == {GREEN: 1},
        about=EVERYONE,
    ),
    Step(
        "On your turn you either draw a card and put it on a row, or take a row. Press "
        "{keys.draw} to draw the top card of the deck.",
        DECK,
        draw(GREEN),
        check=lambda game: game.current_player == YOU and not any(game.rows),
    ),
    Step(
        "Green, like your card! Put it on row 1: press {keys.rows[0]}. A row holds up to 3 cards.",
        ROW_1,
        place(1),
        (put(BLUE, 2), put(BROWN, 1)),
        check=lambda game: game.drawn_card is GREEN,
        about=(DECK, YOUR_SEAT),
    ),
    Step(
        "Ben put brown on row 1, the row you were filling with green: the others put "
        "cards you do not want on the rows you would take. Press {keys.draw} to draw again.",
        ROW_1,
        draw(GREEN),
        check=lambda game: game.rows[0] == (GREEN, BROWN),
        about=EVERYONE,
    ),
    Step(
        "Green again: put it on row 1 too (press {keys.rows[0]}). Then the row is full.",
        ROW_1,
        place(1),
        (put(YELLOW, 2), put(ORANGE, 3)),
        check=lambda game: game.drawn_card is GREEN,
        about=(DECK,),
    ),
    Step(
        "Instead of drawing you may take a row: its cards are yours, and you sit out "
        "the rest of the round. Take row 1: press {keys.rows[0]}.",
        ROW_1,
        take(1),
        (put(BLUE, 2), put(GRAY, 3), take(2), take(3)),
        check=lambda game: game.rows[0] == (GREEN, BROWN, GREEN),
        about=EVERYONE,
    ),
    Step(
        "Ana and Ben took the other rows: everyone has one, so the round is over. The "
        "rows are empty again; Ben took last, so he starts.",
        TABLE,
        then=(put(PLUS2, 1),),
        check=lambda game: game.round == 2 and game.current_player == 2 and not any(game.rows),
        about=EVERYONE,
    ),
    Step(
        'Ben put a "+2" card on row 1: it is worth 2 points to whoever takes it, '
        "whatever their colours. Press {keys.draw} to draw.",
        ROW_1,
        draw(JOKER),
        check=lambda game: game.rows[0] == (PLUS2,),
        about=EVERYONE,
    ),
    Step(
        "A joker! It counts as any colour: at the end it joins the colour where it "
        "scores most. Put it on row 1: press {keys.rows[0]}.",
        ROW_1,
        place(1),
        (put(GRAY, 2), put(YELLOW, 3)),
        check=lambda game: game.drawn_card is JOKER,
        about=(DECK,),
    ),
    Step(
        'Row 1 holds the "+2" and the joker: take it (press {keys.rows[0]}) before someone '
        "else does.",
        ROW_1,
        take(1),
        (put(BLUE, 2), put(ORANGE, 3), take(2), take(3)),
        check=lambda game: game.rows[0] == (PLUS2, JOKER),
        about=EVERYONE,
    ),
    Step(
        "You know the moves now! The next rounds are played for you, quickly. Watch the "
        "top bar: it counts the cards left before the Last Round card.",
        TOP,
        then=_FAST_FORWARD,
        fast=True,
        check=lambda game: game.round == 3 and game.collection(YOU)[PLUS2] == 1,
        about=EVERYONE,
    ),
    Step(
        "Five rounds later, that count is 0: the next card is the Last Round card. "
        "Press {keys.draw} to draw.",
        TOP,
        draw(YELLOW),
        check=lambda game: (
            game.round == 8 and game.cards_before_last_round == 0 and game.current_player == YOU
        ),
    ),
    Step(
        "The Last Round card! This round is the last one, as the top bar says. You drew "
        "the card under it at once.",
        TOP,
        check=lambda game: game.last_round and game.drawn_card is YELLOW,
        about=(DECK,),
    ),
    Step(
        "Put the yellow card on row 1: press {keys.rows[0]}. Once everyone has taken a row "
        "in this last round, the game ends.",
        ROW_1,
        place(1),
        (put(BROWN, 3), put(PLUS2, 1)),
        check=lambda game: game.drawn_card is YELLOW,
        about=(DECK, *EVERYONE),
    ),
    Step(
        'Ben put a "+2" next to the yellow on row 1: take row 1 (press {keys.rows[0]}).',
        ROW_1,
        take(1),
        (put(GRAY, 2), take(3), take(2)),
        check=lambda game: game.rows[0] == (YELLOW, PLUS2) and not game.rows[1],
        about=EVERYONE,
    ),
    Step(_plus_and_minus, YOUR_SEAT, check=lambda game: game.is_over),
    Step(_points, YOUR_SEAT, check=lambda game: bool(game.score_breakdown(YOU).jokers)),
    Step(_sides, YOUR_SEAT),
)
"""The tutorial, step by step."""


def tutorial_setup(steps: tuple[Step, ...] = STEPS) -> Setup:
    """The deal the script needs: the cards its draws turn up, in order, with the Last
    Round card where the rules put it; the cards never drawn at the bottom."""
    removed = (Card.PINK,)
    starting = ((GREEN,), (BLUE,), (ORANGE,))
    drawn = [
        turn.card
        for step in steps
        for turn in (step.move, *step.then)
        if turn is not None and turn.card is not None
    ]
    rest = full_deck(RULES, removed) - Counter(card for hand in starting for card in hand)
    above = rest.total() - CARDS_BELOW_LAST_ROUND
    rest -= Counter(drawn)
    deck = (*drawn[:above], Card.LAST_ROUND, *drawn[above:], *sorted(rest.elements()))
    return Setup(removed, starting, deck, first_player=YOU)


@dataclass(frozen=True)
class Lesson:
    """Where the tutorial stands: the step shown, the game, and whether the step still
    waits for the player or its moves for the others are being played."""

    game: GameState
    number: int = 0
    """The step shown, from 0 (``len(steps)``: the tutorial is over)."""
    played: int | None = None
    """``None`` while the step waits for the player; then the moves of ``then`` played."""
    steps: tuple[Step, ...] = field(default=STEPS, repr=False)

    @classmethod
    def start(cls, steps: tuple[Step, ...] = STEPS) -> Lesson:
        """The first step, on the tutorial's deal."""
        return cls(GameState.from_setup(RULES, tutorial_setup(steps)), steps=steps)

    @property
    def finished(self) -> bool:
        """True once every step is done (the game is over)."""
        return self.number >= len(self.steps)

    @property
    def step(self) -> Step:
        """The step shown."""
        return self.steps[self.number]

    @property
    def waiting(self) -> bool:
        """True while the step waits for the player's move (or Enter)."""
        return not self.finished and self.played is None

    @property
    def pending(self) -> Action | None:
        """The next move played for the others (``None`` when none is due)."""
        if self.finished or self.played is None:
            return None
        return self.step.others[self.played]

    def answer(self, move: Action | None, keys: KeyNames = GAME_KEY_NAMES) -> Lesson:
        """The lesson after the player's ``move`` (``None``: Enter); ``WrongMove`` says
        what to press (one of ``keys``) when it is not the move asked for."""
        if not self.waiting:
            raise WrongMove("Wait a moment: the others are playing.")
        expect = self.step.expect
        if move != expect:
            raise WrongMove(self.refusal(move, keys))
        game = self.game if move is None else self.game.apply(move)
        return self._moved(game, 0)

    def advance(self) -> Lesson:
        """The lesson after the next move played for the others."""
        action = self.pending
        if action is None or self.played is None:
            raise ValueError("no move is due: the step waits for the player")
        return self._moved(self.game.apply(action), self.played + 1)

    def finish(self) -> Lesson:
        """The end of the tutorial, every step answered as asked (for tests and docs)."""
        lesson = self
        while not lesson.finished:
            lesson = lesson.advance() if lesson.pending else lesson.answer(lesson.step.expect)
        return lesson

    def _moved(self, game: GameState, played: int) -> Lesson:
        if played < len(self.step.others):
            return Lesson(game, self.number, played, self.steps)
        return Lesson(game, self.number + 1, None, self.steps)

    def refusal(self, move: Action | None, keys: KeyNames = GAME_KEY_NAMES) -> str:
        """Why ``move`` is not taken now, and what to press instead (one of ``keys``)."""
        expect = self.step.expect
        want = instruction(expect, keys)
        if expect is not None and expect.kind is ActionKind.DRAW:
            want += " first"
        if move is None:
            return f"{want[0].upper()}{want[1:]}."
        if expect is None:
            return f"Read the bubble first, then press {keys.go_on} to go on."
        try:
            self.game.apply(move)
        except IllegalAction as error:
            return f"{error.problem[0].upper()}{error.problem[1:]}: {want}."
        return f"That is allowed in a real game, but here {want}."
