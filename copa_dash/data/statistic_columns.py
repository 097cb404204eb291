"""A column named only by a statistic (``mean``, ``median``, ``2%``) takes the direction of
the measure it summarises, when the cells show which measure that is.

IOHanalyzer's ERT export (BBOB) has ``mean``, ``median`` and the quantiles ``2%`` ... ``98%``
of the runtime beside ``PAR-1`` and ``ERT``, runtimes the vocabulary reads as costs. The
names say nothing of a direction, and a ``mean`` elsewhere is a mean reward or accuracy, so
the name alone must not decide. The evidence is in the cells: a column *follows* another
when they rise and fall together across the rows (Spearman rank correlation at least
:data:`MIN_RANK_CORRELATION`) on the same scale (in the median row within a factor
:data:`MAX_FACTOR` of each other). Starting from the table's directed columns, a
statistic-named column that follows a directed one, or follows a statistic already reached,
is the same measure summarised another way, and takes that direction - marked *likely*,
with the evidence in its reason. Reached from both directions, or from none, it stays
undecided and the user is asked, as before.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pandas as pd

from ..core.ranks import rank_correlations

__all__ = ["direct_statistics", "is_statistic_name", "quantiles_it_summarises"]

MIN_RANK_CORRELATION = 0.9
MAX_FACTOR = 10.0
_STATISTIC = re.compile(
    r"^\s*(mean|median|avg|average|geomean|p\d{1,2}(\.\d+)?|q\d{1,2}|\d{1,2}(\.\d+)?\s*%"
    r"|\d{1,2}(st|nd|rd|th)\s*percentile|percentile\s*\d{1,2})\s*$", re.IGNORECASE)


def is_statistic_name(column: str) -> bool:
    """Whether the whole name is a statistic of an unnamed measure.

    >>> [is_statistic_name(c) for c in ("mean", "2%", "p99", "median", "mean_reward", "ERT")]
    [True, True, True, True, False, False]
    """
    return bool(_STATISTIC.match(str(column)))


_CENTRE = re.compile(r"^\s*(mean|median|avg|average|geomean)\s*$", re.IGNORECASE)
#: quantile columns it takes before a centre (``mean``) reads as one more summary of their measure
MIN_QUANTILES = 2


def quantiles_it_summarises(column: str, others) -> tuple[str, ...]:
    """The quantile columns among ``others`` when ``column`` is named only by a centre
    (``mean``, ``median``) and there are at least :data:`MIN_QUANTILES` of them; else ``()``.

    Such a ``mean`` is not an average of other scores (the words a leaderboard's ``Average``
    gets) but one more summary of the measure the quantiles describe (IOHanalyzer's ``mean``
    runtime beside its ``2%`` ... ``98%``): the notes on counting it twice say so.

    >>> quantiles_it_summarises("mean", ["median", "2%", "50%", "98%", "ERT"])
    ('2%', '50%', '98%')
    >>> quantiles_it_summarises("Average", ["MMLU", "GSM8K"]), quantiles_it_summarises("mean", ["2%"])
    ((), ())
    """
    if not _CENTRE.match(str(column)):
        return ()
    found = tuple(o for o in others if is_statistic_name(o) and not _CENTRE.match(str(o)))
    return found if len(found) >= MIN_QUANTILES else ()


def listed_quantiles(quantiles) -> str:
    """``'2%' ... '98%'`` for a long list, each named for a short one.

    >>> listed_quantiles(["2%", "50%", "98%"]), listed_quantiles(["2%", "5%", "25%", "75%", "98%"])
    ("'2%', '50%', '98%'", "'2%' ... '98%'")
    """
    quantiles = list(quantiles)
    if len(quantiles) > 3:
        return f"{quantiles[0]!r} ... {quantiles[-1]!r}"
    return ", ".join(map(repr, quantiles))


def _numbers(column: pd.Series) -> np.ndarray:
    return pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)


def _follows(x: np.ndarray, y: np.ndarray) -> tuple[bool, float, float]:
    """(follows, rank correlation, median factor) of two columns' numbers on their positive
    rows."""
    both = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
    if both.sum() < 5 or np.ptp(x[both]) == 0 or np.ptp(y[both]) == 0:
        return False, float("nan"), float("nan")
    # not pandas' corr(method="spearman"): it imports scipy.stats (~1.5 CPU s)
    rho = float(rank_correlations(np.column_stack([x[both], y[both]]))[0, 1])
    factor = float(10 ** np.median(np.abs(np.log10(x[both] / y[both]))))
    return rho >= MIN_RANK_CORRELATION and factor <= MAX_FACTOR, rho, factor


def direct_statistics(frame: pd.DataFrame, guesses: list) -> list:
    """``guesses`` with undecided statistic-named objectives directed as the measure they
    follow (see the module's docstring).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table as read: the cells are the evidence.
    guesses : list of ColumnGuess
        The directed ones (objectives or not) are where the search starts; only undecided
        objectives named by a statistic are directed.

    Returns
    -------
    list of ColumnGuess
        In the same order; each column reached from one direction only is directed (likely),
        its reason naming the column it follows, the rank correlation and the typical ratio.

    Examples
    --------
    >>> from copa_dash.data.proposal import ColumnGuess as G
    >>> frame = pd.DataFrame({"ERT": [7.0, 560, 80, 3e4, 900, 12],
    ...                       "mean": [7.0, 562, 75, 2.9e4, 950, 12],
    ...                       "2%": [6.0, 300, 40, 1e4, 500, 9]})
    >>> out = direct_statistics(frame, [G("ERT", "objective", "min"),
    ...                                 G("mean", "objective"), G("2%", "objective")])
    >>> [(g.name, g.direction) for g in out]
    [('ERT', 'min'), ('mean', 'min'), ('2%', 'min')]
    """
    reached: dict[str, tuple[set, str, float, float]] = {}   # name -> directions, via, rho, x
    open_ = [g for g in guesses if g.role == "objective" and g.direction is None
             and is_statistic_name(g.name) and g.name in frame.columns]
    frontier = [(g.name, {g.direction}) for g in guesses if g.direction is not None
                and g.name in frame.columns and pd.api.types.is_numeric_dtype(frame[g.name])]
    numbers = {}                   # each column read as numbers once, not once per pair
    while frontier:
        name, directions = frontier.pop(0)
        for g in open_:
            if g.name == name:
                continue
            for column in (g.name, name):
                if column not in numbers:
                    numbers[column] = _numbers(frame[column])
            follows, rho, factor = _follows(numbers[g.name], numbers[name])
            if not follows:
                continue
            if g.name not in reached:
                reached[g.name] = (set(directions), name, rho, factor)
                frontier.append((g.name, directions))
            elif not directions <= reached[g.name][0]:
                reached[g.name][0].update(directions)
                frontier.append((g.name, reached[g.name][0]))
    out = []
    for g in guesses:
        if g.name in reached and len(reached[g.name][0]) == 1 and g in open_:
            directions, via, rho, factor = reached[g.name]
            direction = next(iter(directions))
            g = replace(g, direction=direction, confidence="likely", reason=(
                f"{direction}imised like {via!r}, a statistic of the same measure: it follows "
                f"it row by row (rank correlation {rho:.2f}, typical ratio {factor:.1f})"))
        out.append(g)
    return out
