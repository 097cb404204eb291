"""Numeric columns that are never goals, and what they are instead.

A table's numbers are not all measurements to optimise. Before a column is proposed as an
objective, :func:`never_goal` asks, in this order:

* a spread of another column (``standard_error``, ``acc_std``, ``ci_low``, ``±``): kept as
  that column's uncertainty, paired by :func:`uncertainty_of` (the robustness views use it);
* a time stamp or date (``created_at``; the words under ``timestamps``);
* the source's own ranking of the rows (``Rank``, ``position``, ``#``: whole numbers within
  1..n, nearly all distinct): the leaderboard's verdict, neither a goal nor a setting;
* a count or sample size (``n_total``, ``num_samples``, ``support``): how much was measured;
* a setting of the workload or run (``k``, ``nprobe``, ``batch_size``, ``filter_ratio``,
  ``shards``): a configuration, never a goal;
* a yes/no flag (``is_moe``, values only 0 and 1, a boolean);
* the same value in every row (``0`` everywhere: a placeholder), which orders nothing.

The words come from :mod:`copa_dash.data.vocabulary` (``[never_goals]``). Each answer comes
with a reason the upload page and ``copa-dash inspect`` show.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .role_guess import _normal, _words, name_terms
from .vocabulary import vocabulary

_SPREAD_MARKS = ("±", "+/-", "+-")


def _terms(column: str, words_set) -> list[str]:
    return [t for t, _ in name_terms(_words(column, joined=False), words_set)]


def uncertainty_kind(column: str) -> str | None:
    """The spread word of ``column`` (``"standard_error"``, ``"std"``, ``"ci_low"``), or None.

    Examples
    --------
    >>> uncertainty_kind("lc_standard_error"), uncertainty_kind("acc ± std"), uncertainty_kind("acc")
    ('standard_error', 'std', None)
    """
    found = _terms(column, vocabulary().uncertainty)
    if found:
        return found[-1]
    if any(mark in str(column) for mark in _SPREAD_MARKS):
        return "±"
    return None


def uncertainty_of(column: str, columns: list[str], candidates: list[str]) -> str | None:
    """The metric whose spread ``column`` is, among ``candidates`` (in table order), or None.

    The words left once the spread word is removed name the metric: ``acc_std`` -> ``acc``;
    an abbreviation matches the metric's initials (``lc_standard_error`` ->
    ``length_controlled_winrate``); nothing left (``standard_error`` alone) means the
    nearest candidate to its left, as exports put a spread right after its mean (a column
    named only ``mean`` to its left first: ``mean, median, sd``).

    Examples
    --------
    >>> cols = ["win_rate", "standard_error", "length_controlled_winrate", "lc_standard_error"]
    >>> cands = ["win_rate", "length_controlled_winrate"]
    >>> uncertainty_of("standard_error", cols, cands), uncertainty_of("lc_standard_error", cols, cands)
    ('win_rate', 'length_controlled_winrate')
    >>> uncertainty_of("sd", ["mean", "median", "sd"], ["mean", "median"])
    'mean'
    """
    vocab = vocabulary()
    words = _words(str(column).replace("±", " "), joined=False)
    spread = {w for t in _terms(column, vocab.uncertainty) for w in t.split("_")}
    rest = [w for w in words if w not in spread and w not in ("of", "the", "mean", "avg")]
    if rest:
        key = "_".join(rest)
        for name in candidates:
            normal = _normal(name)
            initials = "".join(w[0] for w in _words(name, joined=False) if w)
            if normal == key or normal.startswith(key + "_") or initials.startswith(key) \
                    or key.startswith(normal):
                return name
        return None
    at = columns.index(column)
    before = [c for c in candidates if columns.index(c) < at]
    # a spread is about a mean: IOHanalyzer writes "mean, median, sd" (the sd of the mean's
    # runs), and the median next to it is no mean
    means = [c for c in before if _normal(c) in ("mean", "avg", "average")]
    return means[-1] if means else before[-1] if before else None


def _values(series: pd.Series) -> np.ndarray:
    values = series.to_numpy(dtype=np.float64, na_value=np.nan)
    return values[np.isfinite(values)]


_RANK_WORDS = frozenset({"rank", "ranking", "position", "pos", "place", "placing", "standing"})
RANKING_REASON = "the source's own ranking: not a goal and not a setting"


def is_source_ranking(series: pd.Series) -> bool:
    """True when ``series`` is the rows' own position in the source (a leaderboard's ``Rank``).

    The name is a rank word (``Rank``, ``Arena rank``, ``position``, ``#``) and the values are
    whole numbers in 1..n (n the filled rows; ties allowed) with at least 80% distinct: a
    LoRA ``rank`` of 8, 16, 64 repeats and is a setting, not a position.

    Examples
    --------
    >>> is_source_ranking(pd.Series([1, 2, 2, 4, 5], name="Rank"))
    True
    >>> is_source_ranking(pd.Series([8, 16, 8, 64, 16], name="lora_rank"))
    False
    >>> is_source_ranking(pd.Series([3, 1, 2], name="score"))
    False
    """
    name = str(series.name).strip()
    words = _words(name, joined=False)
    if not (name in ("#", "No.", "№") or (words and (words[0] in _RANK_WORDS
                                                    or words[-1] in _RANK_WORDS))):
        return False
    values = _values(series)
    if len(values) < 3 or not np.all(values == np.round(values)):
        return False
    return bool(values.min() >= 1 and values.max() <= len(values)
                and len(np.unique(values)) >= 0.8 * len(values))


def never_goal(series: pd.Series) -> tuple[str, str] | None:
    """``(kind, reason)`` when the numeric column ``series`` is never a goal, else None.

    ``kind`` is one of ``uncertainty``, ``ranking``, ``timestamp``, ``count``, ``setting``,
    ``flag``, ``constant``. The name is ``series.name``.

    Examples
    --------
    >>> never_goal(pd.Series([805, 805], name="n_total"))[0]
    'count'
    >>> never_goal(pd.Series([10, 10], name="count"))[0], never_goal(pd.Series([1, 0], name="is_moe"))[0]
    ('count', 'flag')
    >>> never_goal(pd.Series([0.0, 0.0, 0.0], name="mean_latency"))[0]
    'constant'
    >>> never_goal(pd.Series([1, 2, 3], name="Rank"))[0]
    'ranking'
    >>> never_goal(pd.Series([0.5, 0.7], name="recall")) is None
    True
    """
    vocab = vocabulary()
    name = str(series.name)
    words = _words(name, joined=False)
    normal = "_".join(words)
    kind = uncertainty_kind(name)
    if kind is not None:
        return "uncertainty", f"a spread ({kind}) of another column, not a goal"
    if is_source_ranking(series):
        return "ranking", RANKING_REASON
    if _terms(name, vocab.timestamps):
        return "timestamp", "a date or time stamp"
    if normal in vocab.settings and normal not in vocab.counts:  # num_candidates: a setting
        return "setting", "a setting of the workload or run (a configuration, not a goal)"
    directed = bool(_terms(name, vocab.maximise | vocab.minimise | vocab.benchmarks))  # num_params
    if normal in vocab.counts or (not directed and words and (
            words[0] in ("n", "num", "number") or words[-1] in ("count", "counts", "samples"))):
        return "count", "a count or sample size: how much was measured, not how well"
    if normal in vocab.settings or (words and words[-1] in vocab.settings and not directed):
        return "setting", "a setting of the workload or run (a configuration, not a goal)"
    values = _values(series)
    if pd.api.types.is_bool_dtype(series.dtype) or (
            words and (words[0] in ("is", "has") or normal in vocab.flags)):
        return "flag", "a yes/no flag"
    if len(values) >= 2 and (values == values[0]).all():
        shown = f"{values[0]:g}"
        return "constant", (f"the same value ({shown}) in every row: it orders nothing "
                            "(a placeholder?)")
    if len(values) > 2 and np.isin(values, (0.0, 1.0)).all() and not directed \
            and pd.api.types.is_integer_dtype(series.dtype):
        return "flag", "only 0 and 1: a yes/no flag"
    return None
