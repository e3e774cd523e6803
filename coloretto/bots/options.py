"""Checking a bot's options, which come from text such as ``greedy:threshold=abc``.

>>> number("threshold", "abc")
Traceback (most recent call last):
ValueError: threshold must be a number, not 'abc'
>>> number("seconds", float("nan"), above=0)
Traceback (most recent call last):
ValueError: seconds must be a finite number, not nan
>>> flag("sample", "maybe")
Traceback (most recent call last):
ValueError: sample must be true or false, not 'maybe'
"""

from __future__ import annotations

import math


def number(
    name: str,
    value: object,
    *,
    above: float | None = None,
    low: float | None = None,
    high: float | None = None,
) -> float:
    """``value`` as a finite float, ``> above`` and within ``low..high``; else ``ValueError``
    naming the option."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, not {value!r}")
    result = float(value)
    if not math.isfinite(result):
        raise ValueError(f"{name} must be a finite number, not {value!r}")
    if above is not None and result <= above:
        raise ValueError(f"{name} must be more than {above:g}, not {value!r}")
    if (low is not None and result < low) or (high is not None and result > high):
        span = f"between {low:g} and {high:g}" if low is not None and high is not None else None
        bound = span or (f"at least {low:g}" if low is not None else f"at most {high:g}")
        raise ValueError(f"{name} must be {bound}, not {value!r}")
    return result


def whole(name: str, value: object, *, low: int | None = None) -> int:
    """``value`` as an int of at least ``low``; else ``ValueError`` naming the option."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    if low is not None and value < low:
        raise ValueError(f"{name} must be at least {low}, not {value!r}")
    return value


def choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    """``value`` if it is one of ``allowed``; else ``ValueError`` naming the option."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be {' or '.join(allowed)}, not {value!r}")
    return value


def flag(name: str, value: object) -> bool:
    """``value`` if it is true or false; else ``ValueError`` naming the option."""
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, not {value!r}")
    return value
