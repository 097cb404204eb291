"""Reading a number a person typed, once for every front end: a link's ``p=inf``, a weight,
a range bound, a condition's right-hand side, the CLI's ``--p``.

The rules are Python's ``float`` (signs, exponents, surrounding white space, ``inf`` and
``infinity`` in any case) plus ``∞``; NaN is never a number a person means, so it reads as
"not a number" like any other text that is not one.
"""

from __future__ import annotations

import math

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
