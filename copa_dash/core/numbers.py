"""Reading a number a person typed, once for every front end: a link's ``p=inf``, a weight,
a range bound, a condition's right-hand side, the CLI's ``--p``.

The rules are Python's ``float`` (signs, exponents, surrounding white space, ``inf`` and
``infinity`` in any case) plus ``∞``; NaN is never a number a person means, so it reads as
"not a number" like any other text that is not one.
"""

from __future__ import annotations

import math

from .errors import InvalidInputError

_INFINITY_SIGN = "∞"


def read_number(text, default: float | None = None, *, finite: bool = False) -> float | None:
    """``text`` as a float, or ``default`` when it is not a number.

    Parameters
    ----------
    text : str, int, float or None
        What was typed (or a number already). ``True``/``False`` are not numbers here: a
        ticked box is never a weight.
    default : float or None
        Returned for text that is not a number, for NaN, for None and for booleans.
    finite : bool
        If True, infinite values are not numbers either (they give ``default``).

    Returns
    -------
    float or None

    Examples
    --------
    >>> read_number(" 2.5 "), read_number("Infinity"), read_number("-∞"), read_number("1e3")
    (2.5, inf, -inf, 1000.0)
    >>> read_number("nan"), read_number("abc", 0.5), read_number("inf", 2.0, finite=True)
    (None, 0.5, 2.0)
    """
    if text is None or isinstance(text, bool):
        return default
    if isinstance(text, str):
        stripped = text.strip()
        if stripped.lstrip("+-") == _INFINITY_SIGN:
            text = stripped.replace(_INFINITY_SIGN, "inf")
    try:
        value = float(text)
    except (TypeError, ValueError, OverflowError):
        return default
    if math.isnan(value) or (finite and math.isinf(value)):
        return default
    return value


def read_numbers(text: str, /, *, what: str) -> tuple[float, ...]:
    """Comma-separated numbers (a reference point ``"1, 2.5, inf"``), each read by
    :func:`read_number`.

    Raises
    ------
    InvalidInputError
        If a part is not a number: ``"{what} {text!r}: write numbers separated by commas"``.

    Examples
    --------
    >>> read_numbers("1, 2.5,inf", what="--ref")
    (1.0, 2.5, inf)
    """
    values = tuple(read_number(part) for part in str(text).split(","))
    if any(value is None for value in values):
        raise InvalidInputError(f"{what} {text!r}: write numbers separated by commas")
    return values
