"""Columns that belong to the task, not to the system's set-up or to the user's goals.

* A text or number column that takes one value within each task (AMLB's ``problem_type``:
  ``binary``, ``multiclass`` or ``regression`` for a dataset) is a property of the task:
  task metadata, never the ``config`` that names a system's configurations. Taking it for a
  config named rows ``framework · multiclass (7)`` without the task they ran on.
* A ``rank`` that numbers the rows 1..k within each task (AMLB: each framework's rank on a
  dataset by its error, 1 = best) is a result the source computed from another column, not
  a setting: it is left as metadata with that reason (the pages rank the systems from the
  objectives themselves; the user can make it an objective to minimise).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .role_guess import _words

RANK_WORDS = frozenset({"rank", "ranking", "position", "place"})
RANK_REASON = ("the source's rank of each row within its task (1 = best), computed from "
               "another result: a result, not a setting; left out since the pages rank "
               "systems from the objectives (make it an objective to minimise if wanted)")


def task_column(frame: pd.DataFrame, named_role) -> str | None:
    """The first column whose name says it is the task (``named_role(column) == "task"``)."""
    return next((c for c in frame.columns if named_role(c) == "task"), None)


def task_properties(frame: pd.DataFrame, task: str | None, columns) -> tuple[str, ...]:
    """Those of ``columns`` that take one value within each task (and vary across tasks).

    Examples
    --------
    >>> f = pd.DataFrame({"dataset": ["a", "a", "b", "b"], "kind": ["bin", "bin", "reg", "reg"],
    ...                   "batch": [1, 2, 1, 2]})
    >>> task_properties(f, "dataset", ["kind", "batch"])
    ('kind',)
    """
    if task is None or task not in frame.columns:
        return ()
    keys = frame[task].astype("string").fillna("")
    out = []
    for column in columns:
        if column == task or column not in frame.columns:
            continue
        values = frame[column].astype("string").fillna("")
        if values.nunique() > 1 and (values.groupby(keys.to_numpy()).nunique() <= 1).all():
            out.append(column)
    return tuple(out)


def is_rank_within_tasks(frame: pd.DataFrame, task: str | None, column: str) -> bool:
    """True when ``column`` is named a rank and numbers the rows 1..k within each task.

    Ties may share a rank (``2.5``); at least 80% of each task's ranks differ.

    Examples
    --------
    >>> f = pd.DataFrame({"dataset": ["a", "a", "a", "b", "b", "b"],
    ...                   "rank": [1.0, 2, 3, 2, 1, 3], "lora_rank": [8, 8, 16, 8, 16, 16]})
    >>> is_rank_within_tasks(f, "dataset", "rank"), is_rank_within_tasks(f, "dataset", "lora_rank")
    (True, False)
    """
    words = _words(column, joined=False)
    if task is None or task not in frame.columns or not words or words[-1] not in RANK_WORDS:
        return False
    values = pd.to_numeric(frame[column], errors="coerce")
    if values.notna().sum() < 3:
        return False
    for _, group in values.groupby(frame[task].astype("string").fillna("").to_numpy()):
        v = group.dropna().to_numpy(dtype=np.float64)
        if len(v) and (v.min() < 1 or v.max() > len(v) or len(np.unique(v)) < 0.8 * len(v)):
            return False
    return True


__all__ = ["RANK_REASON", "is_rank_within_tasks", "task_column", "task_properties"]
