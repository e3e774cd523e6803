"""The seed as the game shows it (a code for a seed drawn at random, the decimal for one a
person chose) is what ``--seed`` takes back, all 128 bits of it; the old decimal form
still works; a mistyped code is refused, not dealt as another game."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto.cli import play_command
from coloretto.cli.main import build_parser
from coloretto.engine import Rules, new_game
from coloretto.engine.record import load_record, to_record
from coloretto.engine.seeds import SECRET_SEED, SEED_BITS
from coloretto.play.config import GameConfig
from coloretto.play.replay import Replay
from coloretto.play.seed_text import (
    ALPHABET,
    CODE_LENGTH,
    SYMBOLS,
    deal_seed_text,
    parse_seed,
    seed_code,
    seed_text,
)

SEEDS = st.integers(0, 2**SEED_BITS - 1)
LONGEST = 2**SEED_BITS - 1


def grouped(symbols: list[str]) -> str:
    """Symbols in the groups of a code (digits only with no hyphen would be a decimal)."""
    return "-".join("".join(symbols[i : i + 4]) for i in range(0, len(symbols), 4))


def config_of(*argv: str) -> GameConfig:
    parser = build_parser()
    args = parser.parse_args(["play", *argv])
    return play_command.config_from_args(args, args.parser)


@settings(deadline=None)  # the first call builds the parser
@given(SEEDS)
def test_the_seed_shown_is_the_seed_seed_takes_back(seed: int) -> None:
    assert config_of("--seed", seed_text(seed)).seed == seed
    assert config_of("--seed", seed_code(seed)).seed == seed
    assert config_of("--seed", str(seed)).seed == seed  # the decimal form, as before


@given(SEEDS | st.integers(SECRET_SEED, 2**SEED_BITS - 1))
def test_a_seed_drawn_at_random_shows_as_a_short_code_of_plain_symbols(seed: int) -> None:
    shown = seed_text(seed)
    if seed < SECRET_SEED:  # a seed a person chose shows as they typed it
        assert shown == str(seed)
        return
    assert shown == seed_code(seed)
    assert len(shown) == CODE_LENGTH == 33  # not 39 digits; one line of the log at 80x24
    groups = shown.split("-")
    assert [len(g) for g in groups] == [4, 4, 4, 4, 4, 4, 3]
    assert set("".join(groups)) <= set(ALPHABET)
    assert not set("ILOU") & set(shown)  # nothing read two ways


@given(SEEDS)
def test_a_code_is_read_in_any_case_with_or_without_its_hyphens(seed: int) -> None:
    code = seed_code(seed)
    for typed in (code.lower(), code.replace("-", " "), f" {code}\n"):
        assert parse_seed(typed) == seed
    unbroken = code.replace("-", "")
    assert parse_seed(unbroken) == (int(unbroken) if unbroken.isdigit() else seed)  # a decimal
    assert parse_seed(code.replace("0", "O").replace("1", "l")) == seed  # read as 0 and 1


@given(SEEDS, st.integers(0, SYMBOLS - 1), st.sampled_from(ALPHABET))
def test_a_mistyped_symbol_is_caught(seed: int, at: int, typed: str) -> None:
    symbols = list(seed_code(seed).replace("-", ""))
    if symbols[at] == typed:
        return
    symbols[at] = typed
    with pytest.raises(ValueError, match="mistyped"):
        parse_seed(grouped(symbols))


@given(SEEDS, st.integers(0, SYMBOLS - 2))
def test_two_symbols_swapped_are_caught(seed: int, at: int) -> None:
    symbols = list(seed_code(seed).replace("-", ""))
    if symbols[at] == symbols[at + 1]:
        return
    symbols[at], symbols[at + 1] = symbols[at + 1], symbols[at]
    with pytest.raises(ValueError, match="mistyped"):
        parse_seed(grouped(symbols))


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        (str(LONGEST + 1), f"must be 0 to {LONGEST}"),
        ("-1", f"must be 0 to {LONGEST}"),
        ("9" * 5000, f"must be 0 to {LONGEST}"),  # beyond what ``int`` reads
        ("7K3M-Q2XD", "a code of 27 letters and digits; '7K3M-Q2XD' has 8"),
        ("7K3U-Q2XD-0000-0000-0000-0000-000", "not '7K3U-Q2XD"),  # U is no symbol
        ("", "not ''"),
        ("\x1b[2Jseed", "not 'seed'"),  # shown printable: no escape reaches the terminal
    ],
)
def test_a_seed_that_is_none_says_why(
    typed: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ValueError, match=r"must be|mistyped") as error:
        parse_seed(typed)
    assert says in str(error.value)
    with pytest.raises(SystemExit):
        config_of("--seed", typed)
    err = capsys.readouterr().err
    assert f"--seed {error.value}" in err
    assert "\x1b" not in err


def test_a_replay_shows_the_recorded_seed_as_the_game_did() -> None:
    game = new_game(Rules(players=3), seed=7)
    while not game.is_over:
        game = game.apply(game.legal_actions()[0])

    def shown(seed: object) -> str:
        record = json.loads(json.dumps(to_record(game)))
        record["setup"]["seed"] = seed
        return Replay.from_record(load_record(record)).shown_seed

    assert shown(LONGEST) == seed_code(LONGEST)
    assert shown(7) == "7"
    assert shown(f"{LONGEST}/3") == f"{seed_code(LONGEST)} (game 3 of its match)"
    assert shown("\x1b]0;pwned\x07odd") == "odd"  # a record is a file from anywhere
    assert deal_seed_text([1, 2]) == "[1, 2]"
