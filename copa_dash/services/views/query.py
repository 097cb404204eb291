"""Reading values out of a parsed URL query (``{key: str | list[str]}``), forgivingly:
a malformed value falls back to a default, so a hand-edited link never crashes a page.

The one query codec every page's view (``services/views``) and the working context use.
"""

from __future__ import annotations

import math
from urllib.parse import parse_qs


def parsed(query) -> dict:
    """A query string (a leading ``?`` allowed) or an already parsed query as
    ``{key: str | list[str]}``, the way Dash hands a page's layout its query (blank values
    kept, a key given once as a string).

    Examples
    --------
    >>> parsed("?dataset=d&obj=a:max&obj=b:min&x=")
    {'dataset': 'd', 'obj': ['a:max', 'b:min'], 'x': ''}
    >>> parsed({"dataset": "d"})
    {'dataset': 'd'}
    """
    if query is None:
        return {}
    if isinstance(query, str):
        pairs = parse_qs(query.removeprefix("?"), keep_blank_values=True)
        return {k: v[0] if len(v) == 1 else v for k, v in pairs.items()}
    return dict(query)

from copa_dash.core.numbers import read_number


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
    value = read_number(text, finite=True)
    return default if value is None else min(high, max(low, value))


# The three kinds of setting every page may share (the working context, see
# ``ui/common/working_context.py``) are written the explorer's way, read here once:
# ``obj=NAME:min|max``, ``range=NAME:LOW:HIGH`` (either bound may be empty) and
# ``in=NAME:VALUE|VALUE``.


def exact_number(value: float) -> str:
    """The shortest text that reads back as exactly ``value`` (1.0 -> "1", 0.1 -> "0.1")."""
    value = float(value)
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def objective_pairs(values) -> tuple[tuple[str, str], ...]:
    """``["acc:max", "co2:min"]`` -> ``(("acc", "max"), ("co2", "min"))``; items without a
    direction are left out."""
    out = []
    for item in as_list(values):
        name, sep, direction = item.rpartition(":")
        if sep and name and direction in ("min", "max"):
            out.append((name, direction))
    return tuple(out)


def range_triples(values) -> tuple[tuple[str, float | None, float | None], ...]:
    """``["co2:0:5", "params::10"]`` -> ``(("co2", 0.0, 5.0), ("params", None, 10.0))``."""
    out = []
    for item in as_list(values):
        head, _, high = item.rpartition(":")
        name, _, low = head.rpartition(":")
        if name:
            out.append((name, read_number(low) if low else None,
                        read_number(high) if high else None))
    return tuple(out)


def value_sets(values) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``["type:chat|base"]`` -> ``(("type", ("chat", "base")),)``."""
    out = []
    for item in as_list(values):
        name, sep, allowed = item.partition(":")
        if sep and name:
            out.append((name, tuple(v for v in allowed.split("|") if v != "")))
    return tuple(out)


def objective_items(pairs) -> list[str]:
    """The inverse of :func:`objective_pairs`."""
    return [f"{name}:{direction}" for name, direction in pairs]


def range_items(triples) -> list[str]:
    """The inverse of :func:`range_triples`."""
    return [f"{name}:{'' if low is None else exact_number(low)}:"
            f"{'' if high is None else exact_number(high)}" for name, low, high in triples]


def set_items(sets) -> list[str]:
    """The inverse of :func:`value_sets`."""
    return [f"{name}:{'|'.join(values)}" for name, values in sets]
