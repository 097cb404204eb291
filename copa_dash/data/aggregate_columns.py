"""An "Average" column takes the direction of the scores it averages, when the cells show it.

Leaderboards put an ``Average`` (``avg``, ``mean``, ``overall``) beside the benchmark scores
it summarises. Its name says nothing of a direction, so the reader used to leave it
undecided and every analysis command asked the user. The direction is read from the cells:
an average of some columns lies, row by row, between the smallest and the largest of them.
When the name is an aggregate word, every decided objective of the table points the same
way, and the column lies within their envelope in almost every row, the column is given
that direction, marked *likely*, with the evidence in its reason. Anything less (mixed
directions, a column outside the envelope) leaves it undecided, as before.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from .role_guess import _words
from .statistic_columns import listed_quantiles, quantiles_it_summarises

AGGREGATE_WORDS = frozenset({"average", "avg", "mean", "overall", "aggregate", "all"})
_FILLER = frozenset({"score", "scores", "datasets", "dataset", "tasks", "task", "of", "the"})
MIN_SIBLINGS = 2
MIN_SHARE_INSIDE = 0.95
_SLACK = 1e-9


def is_aggregate_name(column: str) -> bool:
    words = [w for w in _words(column, joined=False) if not w.isdigit()]
    named = [w for w in words if w not in _FILLER]
    return bool(named) and all(w in AGGREGATE_WORDS for w in named)


def share_inside(values: np.ndarray, siblings: np.ndarray) -> tuple[float, int]:
    """Share of rows where ``values`` lies between the row's smallest and largest sibling.

    Parameters
    ----------
    values : ndarray of shape (n,)
    siblings : ndarray of shape (n, k)
        Rows with a missing value anywhere are left out.

    Returns
    -------
    (share, rows_compared)

    Examples
    --------
    >>> share_inside(np.array([2.0, 5.0, 9.0]), np.array([[1.0, 3], [4, 6], [1, 2]]))
    (0.6666666666666666, 3)
    """
    complete = np.isfinite(values) & np.isfinite(siblings).all(axis=1)
    if not complete.any():
        return 0.0, 0
    v, s = values[complete], siblings[complete]
    scale = _SLACK * max(1.0, float(np.abs(s).max()))
    inside = (v >= s.min(axis=1) - scale) & (v <= s.max(axis=1) + scale)
    return float(inside.mean()), int(complete.sum())


def direct_aggregates(frame: pd.DataFrame, guesses: list) -> list:
    """``guesses`` with undecided aggregate columns given their siblings' shared direction.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table as read.
    guesses : list of ColumnGuess
        As :func:`copa_dash.data.proposal.propose` builds them.

    Returns
    -------
    list of ColumnGuess
        The same list, with each qualifying ``Average``-like objective directed (likely).
    """
    groups = {}
    for g in guesses:
        if g.role == "objective" and g.direction is not None and g.name in frame.columns \
                and pd.api.types.is_numeric_dtype(frame[g.name]):
            groups.setdefault(g.direction, []).append(g.name)
    groups = {d: names for d, names in groups.items() if len(names) >= MIN_SIBLINGS}
    if not groups:
        return guesses
    out = []
    for guess in guesses:
        if guess.role == "objective" and guess.direction is None \
                and is_aggregate_name(guess.name):
            guess = _directed(guess, frame, groups)
        out.append(guess)
    return out


def _directed(guess, frame: pd.DataFrame, groups: dict):
    """``guess`` directed as the one group of same-direction objectives it averages."""
    values = frame[guess.name].to_numpy(dtype=np.float64, na_value=np.nan)
    passing = []
    for direction, names in groups.items():
        siblings = frame[names].to_numpy(dtype=np.float64, na_value=np.nan)
        share, rows = share_inside(values, siblings)
        if rows >= 2 and share >= MIN_SHARE_INSIDE:
            passing.append((direction, names, share, rows))
    if len(passing) != 1:  # none, or both ways: the cells do not decide
        return guess
    direction, names, share, rows = passing[0]
    word = "maximised" if direction == "max" else "minimised"
    shown = ", ".join(map(repr, names[:4])) + (" ..." if len(names) > 4 else "")
    return replace(guess, direction=direction, confidence="likely", reason=(
        f"an average of {word} scores ({shown}): between their smallest and largest in "
        f"{share:.0%} of {rows} rows"))


def double_count_notes(frame: pd.DataFrame, guesses: list) -> list[str]:
    """A note for each directed ``Average``-like objective that averages other objectives.

    It lies between the smallest and largest of the other objectives of its direction in
    at least :data:`MIN_SHARE_INSIDE` of the rows: weighing it beside them counts them twice.
    The column stays an objective, unticked in the first view
    (:func:`copa_dash.services.default_view.derived_aggregate`); the note says what the user
    can do.

    Parameters
    ----------
    frame : pandas.DataFrame
    guesses : list of ColumnGuess

    Returns
    -------
    list of str
    """
    notes = []
    for guess in guesses:
        if guess.role != "objective" or guess.direction is None \
                or not is_aggregate_name(guess.name) or guess.name not in frame.columns:
            continue
        names = [g.name for g in guesses if g.role == "objective" and g is not guess
                 and g.direction == guess.direction and g.name in frame.columns
                 and pd.api.types.is_numeric_dtype(frame[g.name])]
        if len(names) < MIN_SIBLINGS:
            continue
        share, rows = share_inside(frame[guess.name].to_numpy(dtype=np.float64, na_value=np.nan),
                                   frame[names].to_numpy(dtype=np.float64, na_value=np.nan))
        if rows >= 2 and share >= MIN_SHARE_INSIDE:
            quantiles = quantiles_it_summarises(guess.name, names)
            reads = (f"it is one more summary of the measure the quantiles "
                     f"{listed_quantiles(quantiles)} describe, so weighing it beside them "
                     "counts that measure twice" if quantiles else
                     "it reads as their average, so weighing it beside them counts them twice")
            notes.append(
                f"{guess.name!r} lies between the other {len(names)} "
                f"{'maximised' if guess.direction == 'max' else 'minimised'} objectives in "
                f"{share:.0%} of {rows} rows: {reads}. Make it metadata to compare on the "
                "measures alone, or keep it and make them metadata.")
    return notes


#: an exact mean: within this relative tolerance of its parts' row mean (rounding in exports)
_MEAN_TOLERANCE = 1e-6


def exact_means(frame: pd.DataFrame, guesses: list) -> dict[str, tuple[str, ...]]:
    """Objectives that are, row by row, the mean of a group of other numeric columns.

    A group is the columns whose names share their first and last words and differ between
    them (``evaluations_ifeval_normalized_score``, ``evaluations_mmlu_pro_normalized_score``,
    ...), at least :data:`MIN_SIBLINGS` of them. Whatever its name (``model_average_score`` is
    not named by aggregate words alone), a column equal to their mean in at least
    :data:`MIN_SHARE_INSIDE` of the complete rows counts them once more when weighed beside
    them or beside their raw twins: :func:`~copa_dash.data.proposal_extras.shorten_wide`
    lets it stand for them.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table as read; its bool columns are never parts.
    guesses : list of ColumnGuess
        Only the objectives among them are tested.

    Returns
    -------
    dict
        Objective name -> the names of the columns it averages, in file order. Cost:
        O(N) per group and objective; the groups are at most the numeric columns times the
        square of their longest name's word count.

    Examples
    --------
    >>> from types import SimpleNamespace as G
    >>> frame = pd.DataFrame({"avg": [2.0, 5.0, 7.0], "a_x_s": [1.0, 4, 6], "a_y_s": [3.0, 6, 8]})
    >>> exact_means(frame, [G(name="avg", role="objective")])
    {'avg': ('a_x_s', 'a_y_s')}
    """
    numeric = [c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c])
               and not pd.api.types.is_bool_dtype(frame[c])]
    templates: dict[tuple, list[int]] = {}
    for k, column in enumerate(numeric):   # same first and last words, any middle: mmlu_pro
        words = tuple(_words(column, joined=False))
        for start in range(1, len(words)):
            for end in range(start + 1, len(words)):
                templates.setdefault((words[:start], words[end:]), []).append(k)
    groups = {tuple(g) for g in templates.values() if len(g) >= MIN_SIBLINGS}
    if not groups:
        return {}
    matrix = frame[numeric].to_numpy(dtype=np.float64, na_value=np.nan)
    means = {g: matrix[:, list(g)].mean(axis=1) for g in sorted(groups)}   # NaN if any is
    found = {}
    for guess in guesses:
        if guess.role != "objective" or guess.name not in numeric:
            continue
        k = numeric.index(guess.name)
        parts = next((g for g, mean in means.items()
                      if k not in g and _is_mean(matrix[:, k], mean)), None)
        if parts is not None:
            found[guess.name] = tuple(numeric[j] for j in parts)
    return found


def _is_mean(values: np.ndarray, mean: np.ndarray) -> bool:
    complete = np.isfinite(values) & np.isfinite(mean)
    if complete.sum() < 2 or complete.mean() < MIN_SHARE_INSIDE:
        return False
    v, m = values[complete], mean[complete]
    if np.ptp(m) == 0:        # a constant says nothing of how it was made
        return False
    return bool((np.abs(v - m) <= _MEAN_TOLERANCE * np.maximum(1.0, np.abs(m))).mean()
                >= MIN_SHARE_INSIDE)
