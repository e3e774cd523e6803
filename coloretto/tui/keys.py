"""The keys, written once: each screen's bindings, its help and ``coloretto play --help``
are all made from these tables (which are read without importing Textual).

>>> print(keys_text(GAME_KEYS[:1] + REPLAY_KEYS[:1]))
  d        draw the top card of the deck
  ←/→      one action back / forward
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.binding import Binding


@dataclass(frozen=True)
class Key:
    """One key (or a family of keys, such as the rows 1-5) and what it does.

    ``presses`` pairs each Textual key name (several names with commas: ``"plus,equals"``)
    with its action; the first pair is the one the footer shows (when ``footer``).
    """

    shown: str
    """How the help writes the key(s): ``"1-5"``, ``"+ / -"``."""
    label: str
    """The footer's short label."""
    explains: tuple[str, ...]
    """What it does, in the help's words (one line each)."""
    presses: tuple[tuple[str, str], ...]
    id: str
    """The binding's id (``row-1``... for a family), so that keys can be remapped."""
    footer: bool = True

    def bindings(self) -> list[Binding]:
        """The Textual bindings for this key."""
        from textual.binding import Binding  # noqa: PLC0415 (the tables are read without Textual)

        family = len(self.presses) > 1
        return [
            Binding(
                press,
                action,
                self.label if i == 0 else f"{self.label} {i + 1}",
                show=self.footer and i == 0,
                key_display=self.shown if i == 0 else None,
                id=f"{self.id}-{i + 1}" if family else self.id,
            )
            for i, (press, action) in enumerate(self.presses)
        ]


def bindings(keys: Iterable[Key]) -> list[Binding]:
    """Every binding of ``keys``, in order."""
    return [binding for key in keys for binding in key.bindings()]


def keys_text(keys: Sequence[Key], indent: int = 2, width: int = 9) -> str:
    """The keys as plain lines: the key, then what it does."""
    lines = []
    for key in keys:
        for i, line in enumerate(key.explains):
            head = key.shown if i == 0 else ""
            lines.append(f"{' ' * indent}{head:<{width}}{line}")
    return "\n".join(lines)


def row_keys(rows: int) -> str:
    """How the help and the footer write the row keys of a table of ``rows`` rows (with an
    en dash).

    >>> row_keys(3).replace("\N{EN DASH}", "-")
    '1-3'
    """
    return f"1\N{EN DASH}{rows}"


def offered_row_keys(numbers: Sequence[int]) -> str:
    """How the footer writes the keys of the rows ``numbers`` (1-based) that can be played
    now: a run of three or more with an en dash, otherwise one by one.

    >>> [offered_row_keys(n).replace("\N{EN DASH}", "-") for n in ([2, 3, 4], [1, 3], [5])]
    ['2-4', '1,3', '5']
    """
    if len(numbers) > 2 and list(numbers) == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}\N{EN DASH}{numbers[-1]}"
    return ",".join(map(str, numbers))


def _row(n: int) -> tuple[str, str]:
    return (str(n), f"row({n})")


GAME_KEYS: tuple[Key, ...] = (
    Key("d", "Draw", ("draw the top card of the deck",), (("d,D", "draw"),), "draw"),
    Key(
        row_keys(5),
        "Row",
        ("after drawing: put the drawn card on that row;", "without a drawn card: take that row"),
        tuple(_row(n) for n in range(1, 6)),
        "row",
    ),
    Key(
        "h",
        "Hint",
        (
            "hint: what the strongest bot would do, and why;",
            "while others move: at your next turn",
        ),
        (("h,H", "hint"),),
        "hint",
    ),
    Key("l", "Log", ("show or hide the move log",), (("l,L", "toggle_log"),), "toggle-log"),
    Key(
        "m",
        "All moves",
        ("all the moves so far, scrollable",),
        (("m,M", "moves"),),
        "all-moves",
        False,
    ),
    Key("?", "Keys", ("all keys and the card letters",), (("question_mark", "help"),), "help"),
    Key("r", "Rules", ("the rules of the game",), (("r,R", "rules"),), "rules"),
    Key("q", "Quit", ("quit (asks first)",), (("q,Q", "quit"),), "quit"),
    Key(
        "+ / -",
        "Faster bots",
        ("bots play faster / slower",),
        (("plus,equals_sign", "pace(-1)"), ("minus", "pace(1)")),
        "pace",
        footer=False,
    ),
    Key(
        "Enter",
        "Scores",
        ("the score screen, once the game is over (Esc too)",),
        (("enter", "results"), ("escape", "results")),
        "results",
    ),
)
"""The game screen's keys (Coloretta's: ``d`` draws, ``1``-``5`` place or take); the
footer shows those that work at the moment (the game screen's ``check_action``)."""

MOUSE_HELP = ("mouse", "clicking a row acts like its number; clicking the deck draws")
"""What the mouse does on the game screen, for the help."""

REPLAY_KEYS: tuple[Key, ...] = (
    Key(
        "←/→",
        "Step",
        ("one action back / forward",),
        (("right", "step(1)"), ("left", "step(-1)")),
        "replay-step",
    ),
    Key(
        "Home End",
        "Deal / end",
        ("the deal / the end",),
        (("home", "jump('start')"), ("end", "jump('end')")),
        "replay-jump",
    ),
    Key(
        "[ ]",
        "Round",
        ("rounds (also PgUp PgDn)",),
        (
            ("right_square_bracket,pagedown", "round(1)"),
            ("left_square_bracket,pageup", "round(-1)"),
        ),
        "replay-round",
    ),
    Key(
        "n",
        "Next mistake",
        ("the next inaccuracy, mistake or blunder (of a reviewed game)",),
        (("n,N", "next_mistake"),),
        "replay-next-mistake",
    ),
    Key("Enter", "Scores", ("the scores",), (("enter", "results"),), "replay-results", False),
    Key("m", "All moves", ("all moves",), (("m,M", "moves"),), "replay-moves", footer=False),
    Key("?", "Keys", ("these keys",), (("question_mark", "help"),), "replay-help"),
    Key("r", "Rules", ("rules",), (("r,R", "rules"),), "replay-rules", footer=False),
    Key("q", "Quit", ("quit",), (("q,Q", "quit"),), "replay-quit"),
)
"""The replay screen's keys."""


LOBBY_KEYS: tuple[Key, ...] = (
    Key(
        "s",
        "Start the game",
        ("the host starts the game (Enter too)",),
        (("s,enter", "start"),),
        "start-online",
    ),
    Key(
        "x",
        "Remove",
        ("the host removes a person from the table: x, then their seat",),
        (("x,X", "remove"),),
        "lobby-remove",
    ),
    Key(
        "2\N{EN DASH}5",
        "Seat",
        ("the seat of the person to remove",),
        tuple((str(n), f"seat({n})") for n in range(2, 6)),
        "lobby-seat",
    ),
    Key(
        "Esc",
        "Remove nobody",
        ("remove nobody after all",),
        (("escape", "cancel"),),
        "lobby-cancel",
    ),
    Key(
        "l", "Lock", ("the host closes the table to new players",), (("l,L", "lock"),), "lobby-lock"
    ),
    Key(
        "l",
        "Unlock",
        ("the host opens the table to new players again",),
        (("l,L", "unlock"),),
        "lobby-unlock",
    ),
    Key("q", "Quit", ("leave the room",), (("q", "quit_lobby"),), "quit-lobby"),
)
"""The room's keys before the game starts (the lobby's ``check_action`` offers those that
work at the moment: the host's, and the seats only while choosing whom to remove)."""


_SPOKEN = {"enter": "Enter", "escape": "Esc", "tab": "Tab"}


def spoken(key: str) -> str:
    """A key as a sentence names it, from Textual's name for it (a binding's or a keymap's).

    >>> [spoken(key) for key in ("d", "enter", "escape", "question_mark", "ctrl+x")]
    ['d', 'Enter', 'Esc', '?', 'ctrl+x']
    """
    if key in _SPOKEN:
        return _SPOKEN[key]
    from textual.keys import format_key  # noqa: PLC0415 (the tables are read without Textual)

    return format_key(key)


def keys_line(keys: Iterable[Key]) -> str:
    """The keys on one line, e.g. for a message: ``→ ←: one action forward / back · …``."""
    return " · ".join(f"{key.shown}: {key.explains[0]}" for key in keys)
