"""Reading values out of a parsed URL query (``{key: str | list[str]}``), forgivingly:
a malformed value falls back to a default, so a hand-edited link never crashes a page."""

from __future__ import annotations

import math


def as_list(value) -> list[str]:
    """A query value as a list of strings (a repeated key gives several)."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return [str(value)]


def first(query: dict, key: str, default: str = "") -> str:
    """The first value of ``key``, or ``default``."""
    values = as_list(query.get(key))
    return values[0] if values else default


def number(text, default: float, low: float = -math.inf, high: float = math.inf) -> float:
    """``text`` as a finite float clamped to [low, high]; ``default`` when it is not one.

    Examples
    --------
    >>> number("7", 0.5, 0, 1), number("abc", 0.5), number("inf", 2.0)
    (1, 0.5, 2.0)
    """
    try:
        value = float(text)
    except (TypeError, ValueError):
        return default
    if math.isnan(value) or math.isinf(value):
        return default
    return min(high, max(low, value))
