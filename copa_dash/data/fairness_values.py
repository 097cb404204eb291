"""Which value of a fairness measure is parity, read from the column's values as well as its name.

A name alone does not tell: ``CV`` is the Calders-Verwer discrimination score, a difference
of positive rates best at 0, in most papers, but the fairness-comparison exports (Friedler et
al. 2019) store ``CV`` and every ``*Diff`` / ``diff:`` column as ``1 - difference``, so parity
is 1 and the values sit around 1 (``CV`` 0.72-1.11 on Adult/sex). Minimising ``|CV|`` there
rewards the least fair models. Rules, on the finite values:

* the name says a difference (best at 0) but every value is positive and the median is
  within 0.5 of 1: the values say best at 1 (``|1 - x|``), said in the reason, "likely";
* the name says a ratio (best at 1) but a value is negative (a ratio of rates never is):
  undecided - the column stays an objective with no direction and the user chooses;
* otherwise the name's guess stands.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

_NEAR_ONE = 0.5


def _span(values: np.ndarray) -> str:
    return f"{values.min():.3g}-{values.max():.3g}"


def target_from_values(target: str, series: pd.Series) -> tuple[str | None, str]:
    """The fairness target (``"abs"`` best at 0, ``"abs_one_minus"`` best at 1) the name's
    guess ``target`` and the values of ``series`` agree on, and why when the values decide;
    ``(None, why)`` when they contradict the name and the user must choose.

    Examples
    --------
    >>> target_from_values("abs", pd.Series([0.72, 0.82, 1.11]))[0]
    'abs_one_minus'
    >>> target_from_values("abs", pd.Series([-0.1, 0.02, 0.2]))
    ('abs', '')
    >>> target_from_values("abs_one_minus", pd.Series([-0.3, 0.1]))[0] is None
    True
    """
    values = pd.to_numeric(series, errors="coerce").to_numpy(dtype=np.float64)
    values = values[np.isfinite(values)]
    if values.size == 0:
        return target, ""
    if target == "abs" and values.min() > 0 and abs(np.median(values) - 1.0) <= _NEAR_ONE:
        return "abs_one_minus", (f"the name reads as a difference (best at 0), but its values "
                                 f"({_span(values)}) sit around 1: stored as 1 - difference, "
                                 "so 1 is parity")
    if target == "abs_one_minus" and values.min() < 0:
        return None, (f"the name reads as a ratio (best at 1), but it has negative values "
                      f"({_span(values)}): choose which way is better, or make it metadata")
    return target, ""


__all__ = ["target_from_values"]
