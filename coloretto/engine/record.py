"""Game records: every game as readable JSON (``coloretto-record/1``), like PGN for chess.

The format only: a game to a record and back (``to_record``, ``load_record``), as JSON text
(``record_text``, ``parse_record``), each record checked by replaying it. Record files are
read and written by ``coloretto.store.records``; the engine touches no file.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import msgspec

from coloretto.engine.actions import Action, IllegalAction
from coloretto.engine.cards import Card
from coloretto.engine.rules import MAX_GAMES, Edition, Rules, Scoring, Variant
from coloretto.engine.scoring import ScoreBreakdown
from coloretto.engine.setup import Setup
from coloretto.engine.state import GameState

FORMAT = "coloretto-record/1"


class RecordError(ValueError):
    """A record that cannot be loaded; the message says what is wrong and where.

    ``problem`` is what is wrong (with where in the record, e.g. ``actions[12]: row 3 was
    taken this round``) and ``path`` the file, when the record came from one; the message
    is both, ``path: problem``.

    >>> str(RecordError("seats: expected 3 names", path="game.json"))
    'game.json: seats: expected 3 names'
    """

    def __init__(self, problem: str, *, path: str | os.PathLike[str] | None = None) -> None:
        super().__init__(problem if path is None else f"{path}: {problem}")
        self.problem = problem
        self.path = None if path is None else Path(path)

    def in_file(self, path: str | os.PathLike[str]) -> RecordError:
        """The same error, said of the file ``path``."""
        return type(self)(self.problem, path=path)


class UnreadableRecord(RecordError):
    """A file that holds no record at all: it cannot be read, or is not JSON text."""


# ---------------------------------------------------------------- the rules' one form

Players = Annotated[int, msgspec.Meta(description="a whole number from 2 to 5", ge=2, le=5)]
Games = Annotated[
    int, msgspec.Meta(description=f"a whole number from 1 to {MAX_GAMES}", ge=1, le=MAX_GAMES)
]
ScoringName = Annotated[Scoring, msgspec.Meta(description="brown or gray")]
EditionName = Annotated[Edition, msgspec.Meta(description="classic or anniversary")]
VariantName = Annotated[Variant, msgspec.Meta(description="standard, four-rows or ghost")]


class TableRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The rules of a game as they are written, but for the match's length (an online
    table's opening sends that apart); with it, ``RulesForm``. Every field is written;
    any left out when read take their default. ``Rules`` checks them whole."""

    players: Players = 4
    scoring: ScoringName = Scoring.BROWN
    edition: EditionName = Edition.CLASSIC
    variant: VariantName = Variant.STANDARD

    def __post_init__(self) -> None:
        self.with_games(1)  # the rules' own check: a 2-player variant, say

    def with_games(self, games: int) -> Rules:
        """The engine's ``Rules``: these, for a match of ``games`` games."""
        return Rules(self.players, self.scoring, self.edition, self.variant, games)

    @classmethod
    def of(cls, rules: Rules) -> TableRules:
        """``rules``' form, without the match's length."""
        return cls(rules.players, rules.scoring, rules.edition, rules.variant)

    def to_json(self) -> dict[str, Any]:
        """The form as plain JSON values."""
        value: dict[str, Any] = msgspec.to_builtins(self)
        return value


class RulesForm(TableRules, frozen=True):
    """The rules of a game or match as written: a game record's ``rules`` and every
    online message's (the wire reuses this declaration: ``Rules``' one form).

    >>> RulesForm.of(Rules(players=3, games=2)).to_json()
    {'players': 3, 'scoring': 'brown', 'edition': 'classic', 'variant': 'standard', 'games': 2}
    >>> RulesForm.read({"players": 7}, "rules")
    Traceback (most recent call last):
    ...
    ValueError: rules.players: expected a whole number from 2 to 5
    """

    games: Games = 1

    @property
    def rules(self) -> Rules:
        """The engine's ``Rules``."""
        return self.with_games(self.games)

    @classmethod
    def of(cls, rules: Rules) -> RulesForm:
        """``rules``' form."""
        return cls(rules.players, rules.scoring, rules.edition, rules.variant, rules.games)

    @classmethod
    def read(cls, data: object, where: str) -> Rules:
        """The rules ``data`` (plain JSON values, found at ``where``) writes; ``ValueError``
        naming the field at fault unless it is exactly a rules object."""
        try:
            return msgspec.convert(data, cls).rules
        except msgspec.ValidationError as error:
            words, _, at = str(error).partition(" - at `$")
            field = at.rstrip("`").lstrip(".")
            if field in _WORDS and words.startswith("Expected"):
                words = f"expected {_WORDS[field]}"
            elif unknown := _UNKNOWN.fullmatch(words):
                words = f"unexpected field {unknown[1][:20]!r}"
            at_field = f"{where}.{field}" if field else where
            raise ValueError(f"{at_field}: {words}") from None


_WORDS = {
    field.encode_name: str(field.type.extra_json_schema["description"])
    for field in msgspec.inspect.type_info(RulesForm).fields  # type: ignore[attr-defined]
    if isinstance(field.type, msgspec.inspect.Metadata) and field.type.extra_json_schema
}
"""Each rules field's expected value, in words."""

_UNKNOWN = re.compile(r"Object contains unknown field `([^`]*)`")


@dataclass(frozen=True)
class GameRecord:
    """A loaded record: the rules, the seat names, the replayed position and the metadata."""

    rules: Rules
    seats: tuple[str, ...]
    state: GameState
    meta: Mapping[str, Any] = field(default_factory=dict)
    """What the program that wrote the record kept with it (e.g. who played which seat)."""


def to_record(
    state: GameState,
    seats: Sequence[str] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The record of ``state``'s game so far, as JSON-ready values.

    ``meta`` is kept as it is under the key ``"meta"`` (it must be JSON-ready): room for
    what a program wants to keep with the game, such as who played which seat.

    >>> from coloretto.engine import new_game
    >>> game = new_game(seed=3).apply("draw").apply("place 2")
    >>> record = to_record(game)
    >>> record["format"], record["actions"][1]
    ('coloretto-record/1', {'player': 2, 'action': 'place 2'})
    >>> load_record(record).state.rows == game.rows
    True
    """
    rules = state.rules
    names = list(seats) if seats is not None else [f"Seat {s + 1}" for s in range(rules.seats)]
    if len(names) != rules.seats:
        raise ValueError(f"{rules.seats} seat names are needed, not {len(names)}")
    setup = state.setup
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": RulesForm.of(rules).to_json(),
        "seats": names,
        "setup": {
            "seed": setup.seed,
            "removed": [c.text for c in setup.removed],
            "starting": [[c.text for c in hand] for hand in setup.starting],
            "deck": [c.text for c in setup.deck],
            "first_player": setup.first_player,
        },
        **({"meta": dict(meta)} if meta else {}),
        "actions": [
            _move_entry(move.player, move.action, move.card, move.last_round)
            for move in state.history()
        ],
    }
    outcome = state.outcome()
    if outcome is not None:
        record["result"] = {
            "scores": list(state.final_scores()),
            "places": list(outcome.places),
            "winners": list(outcome.winners),
            "breakdowns": [breakdown_to_json(state.score_breakdown(s)) for s in range(rules.seats)],
        }
    return record


def _move_entry(player: int, action: Action, card: Card | None, last: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {"player": player, "action": str(action)}
    if last:
        entry["last_round"] = True
    if card is not None:
        entry["card"] = card.text
    return entry


def breakdown_to_json(breakdown: ScoreBreakdown[Card]) -> dict[str, Any]:
    """A score breakdown as JSON-ready values."""
    return {
        "total": breakdown.total,
        "sets": [
            {
                "colour": s.colour.text,
                "cards": s.cards,
                "jokers": s.jokers,
                "points": s.points,
                "plus": s.plus,
            }
            for s in breakdown.sets
        ],
        "jokers": [c.text for c in breakdown.jokers],
        "plus2": breakdown.plus2,
    }


def load_record(data: object) -> GameRecord:
    """Replay a record through the engine; raise ``RecordError`` if it is not a valid game."""
    record = expect(data, Mapping, "the record", "an object")
    fmt = record.get("format")
    if fmt != FORMAT:
        found = repr(fmt) if isinstance(fmt, str) else json.dumps(fmt, default=str)[:40]
        raise RecordError(f"format: expected {FORMAT!r}, found {found}")
    rules_data = expect(record.get("rules"), Mapping, "rules", "an object")
    try:
        rules = RulesForm.read(rules_data, "rules")
    except ValueError as error:
        raise RecordError(str(error)) from None
    seats = expect(record.get("seats"), list, "seats", "a list of names")
    if len(seats) != rules.seats or not all(isinstance(n, str) for n in seats):
        raise RecordError(f"seats: expected {rules.seats} names")
    setup_data = expect(record.get("setup"), Mapping, "setup", "an object")
    setup = Setup(
        removed=_cards(setup_data.get("removed"), "setup.removed"),
        starting=tuple(
            _cards(hand, f"setup.starting[{i}]")
            for i, hand in enumerate(
                expect(setup_data.get("starting"), list, "setup.starting", "a list")
            )
        ),
        deck=_cards(setup_data.get("deck"), "setup.deck"),
        first_player=expect(
            setup_data.get("first_player"), int, "setup.first_player", "a seat number"
        ),
        seed=setup_data.get("seed"),
    )
    try:
        state = GameState.from_setup(rules, setup)
    except ValueError as error:
        raise RecordError(f"setup: {error}") from None
    meta = expect(record.get("meta", {}), Mapping, "meta", "an object")
    actions = expect(record.get("actions"), list, "actions", "a list")
    for i, entry in enumerate(actions):
        state = _replay(state, entry, f"actions[{i}]")
    if "result" in record:
        _check_result(state, record["result"])
    return GameRecord(rules, tuple(seats), state, meta)


def _replay(state: GameState, entry: object, where: str) -> GameState:
    move = expect(entry, Mapping, where, "an object")
    if state.is_over:
        raise RecordError(f"{where}: the game was already over")
    if "player" not in move or "action" not in move:
        found = json.dumps(move, default=str)[:40]
        raise RecordError(
            f'{where}: expected an action like {{"player": 0, "action": "draw"}}, found {found}'
        )
    player = expect(move.get("player"), int, f"{where}.player", "a seat number")
    if player != state.current_player:
        raise RecordError(f"{where}: it was seat {state.current_player}'s turn, not {player}'s")
    text = expect(move.get("action"), str, f"{where}.action", "text")
    try:
        after = state.apply(Action.parse(text))
    except (IllegalAction, ValueError) as error:
        raise RecordError(f"{where}: {error}") from None
    played = after.last_move
    assert played is not None
    expected = _move_entry(played.player, played.action, played.card, played.last_round)
    for key, missing in (("card", None), ("last_round", False)):
        if move.get(key, missing) != expected.get(key, missing):
            raise RecordError(
                f"{where}.{key}: the deck gives {expected.get(key, missing)!r}, "
                f"the record says {move.get(key)!r}"
            )
    return after


def _check_result(state: GameState, result: object) -> None:
    data = expect(result, Mapping, "result", "an object")
    if not state.is_over:
        raise RecordError("result: the actions do not finish the game")
    if data.get("scores") != list(state.final_scores()):
        raise RecordError(
            f"result.scores: the replay gives {list(state.final_scores())}, "
            f"the record says {data.get('scores')}"
        )


def _cards(value: object, where: str) -> tuple[Card, ...]:
    items = expect(value, list, where, "a list of cards")
    cards = []
    for i, item in enumerate(items):
        try:
            cards.append(Card.from_text(expect(item, str, f"{where}[{i}]", "a card name")))
        except ValueError as error:
            raise RecordError(f"{where}[{i}]: {error}") from None
    return tuple(cards)


def expect(value: Any, kind: type | tuple[type, ...], where: str, what: str) -> Any:
    """``value`` if it is a ``kind`` (``True`` is no number here), else a ``RecordError``
    saying where, what was expected and what was found.

    >>> expect(True, int, "setup.first_player", "a seat number")
    Traceback (most recent call last):
    ...
    coloretto.engine.record.RecordError: setup.first_player: expected a seat number, found true
    """
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RecordError(f"{where}: expected {what}, found {json.dumps(value)[:40]}")
    return value


MAX_DIGITS = 40
"""The longest whole number a record may hold (a seed is at most 39 digits: ``SEED_BITS``)."""


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RecordError(f"a number of {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def record_text(
    state: GameState,
    seats: Sequence[str] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> str:
    """The record of ``state``'s game as the JSON text of a record file (see ``to_record``).

    >>> from coloretto.engine import new_game
    >>> text = record_text(new_game(seed=3).apply("draw"), meta={"by": "me"})
    >>> parse_record(text).meta, text.count("\\n") > 10
    ({'by': 'me'}, True)
    """
    return json.dumps(to_record(state, seats, meta), indent=1) + "\n"


def parse_record(text: str | bytes) -> GameRecord:
    """Load a record from its JSON text (UTF-8 when given as bytes): ``UnreadableRecord``
    when it is no JSON text at all, ``RecordError`` when it is no valid game.

    The text is untrusted: numbers too long (``MAX_DIGITS``) and nesting too deep for the
    reader are refused like any other malformed record (bound its size before: the
    ``store`` reads at most ``MAX_RECORD_BYTES`` of a file).

    >>> parse_record(b"[[[1]]]")
    Traceback (most recent call last):
    ...
    coloretto.engine.record.RecordError: the record: expected an object, found [[[1]]]
    >>> parse_record("1" * 41)
    Traceback (most recent call last):
    ...
    coloretto.engine.record.UnreadableRecord: not a game record (a number of 41 digits (at most 40))
    """
    try:
        data = json.loads(
            text.decode("utf-8") if isinstance(text, bytes) else text, parse_int=_whole_number
        )
    except UnicodeDecodeError:
        raise UnreadableRecord("not a text file") from None
    except json.JSONDecodeError as error:
        raise UnreadableRecord(f"not valid JSON ({error.msg} at line {error.lineno})") from None
    except RecordError as error:
        raise UnreadableRecord(f"not a game record ({error})") from None
    except RecursionError:
        raise UnreadableRecord("not a game record (nested too deeply)") from None
    try:
        return load_record(data)
    except RecursionError:
        raise RecordError("not a game record (nested too deeply)") from None
