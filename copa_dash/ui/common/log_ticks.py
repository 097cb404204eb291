"""Tick marks for log axes that read as numbers.

Left to itself Plotly labels a log axis's minor ticks with a bare digit ("5, 2, 100, 5, 2, 10"),
which a reader takes for wrong values (issue 33, F11), and mixes SI prefixes with decimals
("100µ" next to "0.001"). :func:`log_ticks` states the ticks instead: every decade when the
axis spans enough of them, else 1-2-5 steps, each labelled with its full value.
"""

from __future__ import annotations

import math

__all__ = ["log_tick_text", "log_ticks"]

_SUFFIXES = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


def log_tick_text(value: float) -> str:
    """A tick value in at most a few characters: ``0.001``, ``0.5``, ``20``, ``5000``,
    ``20k``, ``1M``; below 0.001 in powers of ten (``1e-5``, ``2e-4``).

    >>> [log_tick_text(v) for v in (1e-5, 2e-4, 0.001, 0.5, 20, 5000, 2e4, 1e6)]
    ['1e-5', '2e-4', '0.001', '0.5', '20', '5000', '20k', '1M']
    """
    if value >= 1e4:
        for size, suffix in _SUFFIXES:
            if value >= size:
                return f"{value / size:g}{suffix}"
    if value < 1e-3:
        mantissa, exponent = f"{value:.0e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    return f"{value:g}"


def log_ticks(low: float, high: float) -> dict:
    """Plotly axis settings (``tickmode``, ``tickvals``, ``ticktext``) for a log axis whose
    range is [low, high] in log10 units: decades when the range spans two or more, else the
    1-2-5 values inside it (1, 2, 5, 10, 20, ...), each labelled in full.

    Returns an empty dict (Plotly's own ticks) for a range that is not finite.

    >>> log_ticks(-0.1, 2.1)["ticktext"]
    ['1', '10', '100']
    >>> log_ticks(0.9, 2.1)["ticktext"]
    ['10', '20', '50', '100']
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        return {}
    low, high = sorted((low, high))
    first, last = math.floor(low), math.ceil(high)
    if high - low >= 2:
        step = max(1, math.ceil((last - first) / 8))      # at most about 8 labels
        exponents = [e for e in range(first, last + 1, step) if low <= e <= high]
        values = [10.0 ** e for e in exponents]
    else:
        values = [m * 10.0 ** e for e in range(first, last + 1) for m in (1, 2, 5)
                  if low <= e + math.log10(m) <= high]
    if len(values) < 2:            # a sliver of a decade: Plotly's own ticks read fine there
        return {}
    return {"tickmode": "array", "tickvals": values, "ticktext": [log_tick_text(v) for v in values]}
