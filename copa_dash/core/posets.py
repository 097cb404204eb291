"""Partial rankings of methods across tasks (papers/partial-rankings-of-optimizers-ufg-depth.txt;
METHODS.md "Partial rankings and ufg depth").

Per task, method i is above method j iff i is no worse than j on every criterion and
strictly better on at least one (Pareto dominance on the oriented criteria). Each task
gives a strict partial order, stored as a boolean matrix ``rel[i, j]`` (i above j).
The ufg depth of these posets lives in :mod:`copa_dash.core.ufg_depth` and is
re-exported here, with helpers for the views: the "beats" matrix, the Hasse (cover)
relation, and what the most central posets agree on.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._kernels.posets import dominance_relations
from .errors import InvalidInputError
from .poset_relations import (
    DistinctPosets,
    as_relations,
    distinct_posets,
    exact_depth_work,
    max_ufg_size,
)
from .ufg_depth import DepthCancelled, UfgDepthResult, ufg_depth
from .validate import as_points, orient, parse_directions

__all__ = [
    "Agreement",
    "DepthCancelled",
    "DistinctPosets",
    "TaskPosets",
    "UfgDepthResult",
    "beats_matrix",
    "cover_relation",
    "distinct_posets",
    "exact_depth_work",
    "max_ufg_size",
    "task_posets",
    "top_k_agreement",
    "ufg_depth",
]

TIES = ("drop", "incomparable")
MISSING = ("error", "drop")


@dataclass(frozen=True, eq=False)
class TaskPosets:
    """Result of :func:`task_posets`.

    Attributes
    ----------
    relations : (T, n, n) bool, one strict partial order per kept task, ``[t, i, j]``
        True iff method i is above method j on task ``task_ids[t]``.
    task_ids : (T,) int64, the kept tasks, ascending.
    flagged_ties : int64, the tasks with every method (kept or not) where two methods
        are equal on every criterion (indifference: a preorder, not a poset).
    tied_pairs : (K, 3) int64 rows ``(task, i, j)``, i < j, of those equal methods.
    dropped : int64, the tasks left out (ties with ``ties="drop"``, missing methods
        with ``missing="drop"``), ascending.
    incomplete : int64, the tasks where some method has no row.
    ties : the ``ties`` option used.
    """

    relations: np.ndarray
    task_ids: np.ndarray
    flagged_ties: np.ndarray
    tied_pairs: np.ndarray
    dropped: np.ndarray
    incomplete: np.ndarray
    ties: str


@dataclass(frozen=True, eq=False)
class Agreement:
    """What the k most central posets share (:func:`top_k_agreement`).

    ``indices`` (k,) of the posets used, deepest first; ``above`` (n, n): i is above j
    in all of them (their intersection, itself a poset); ``never_above`` (n, n): i is
    above j in none of them (off-diagonal); ``incomparable`` (n, n): neither is above
    the other in any of them.
    """

    indices: np.ndarray
    above: np.ndarray
    never_above: np.ndarray
    incomparable: np.ndarray


def _index_vector(values, n_rows: int, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1 or arr.shape[0] != n_rows:
        raise InvalidInputError(
            f"'{name}' must be a 1-D array with one entry per row ({n_rows}), "
            f"but it has shape {arr.shape}")
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise InvalidInputError(f"'{name}' must hold integer indices")
    if not np.issubdtype(arr.dtype, np.integer) and (
            not np.isfinite(arr).all() or (arr != np.round(arr)).any()):
        raise InvalidInputError(f"'{name}' must hold integer indices")
    return arr.astype(np.int64)


def task_posets(criteria, /, directions=None, *, method_index, task_index,
                n_methods: int | None = None, ties: str = "drop",
                missing: str = "error") -> TaskPosets:
    """One dominance poset of the methods per task.

    Parameters
    ----------
    criteria : array_like, (N, C)
        One row per (method, task) pair, one column per criterion; no NaN (drop the
        row: the method then counts as missing on that task).
    directions : None, "min", "max" or sequence of them
        Direction of each criterion (None: all minimised).
    method_index : array_like of int, (N,)
        Method of each row, in [0, n_methods). The caller maps names to indices.
    task_index : array_like of int, (N,)
        Task of each row (any integers; they are returned as ``task_ids``).
    n_methods : int, optional
        Number of methods (default: max(method_index) + 1).
    ties : {"drop", "incomparable"}
        Tasks where two methods are equal on every criterion are always flagged;
        "drop" leaves them out (the paper's choice, App. C), "incomparable" keeps
        them with no relation between the equal methods.
    missing : {"error", "drop"}
        A task without a row for some method raises (default) or is left out.

    Returns
    -------
    TaskPosets

    Raises
    ------
    InvalidInputError
        Bad shapes or indices, NaN in ``criteria``, a (task, method) pair given twice,
        a missing method with ``missing="error"``, or an unknown option.

    Notes
    -----
    i above j iff ``y'_i <= y'_j`` on every criterion and ``<`` on one (oriented to
    minimisation). The relation is irreflexive and transitive; it is antisymmetric
    unless two methods are equal on every criterion, in which case neither is above
    the other here (a tie), so it is always a strict partial order; with
    ``ties="drop"`` such tasks are removed as the paper does. O(T n^2 C).

    Examples
    --------
    >>> crit = [[1, 1], [2, 2], [1, 3],   # task 0: method 0 above 1 and 2
    ...         [2, 1], [1, 2], [3, 3]]   # task 1: 0 and 1 incomparable, both above 2
    >>> tp = task_posets(crit, method_index=[0, 1, 2, 0, 1, 2], task_index=[0, 0, 0, 1, 1, 1])
    >>> tp.relations.astype(int).tolist()
    [[[0, 1, 1], [0, 0, 0], [0, 0, 0]], [[0, 0, 1], [0, 0, 1], [0, 0, 0]]]
    """
    if ties not in TIES:
        raise InvalidInputError(f"'ties' must be one of {TIES}, not {ties!r}")
    if missing not in MISSING:
        raise InvalidInputError(f"'missing' must be one of {MISSING}, not {missing!r}")
    values = as_points(criteria, name="criteria", min_rows=1)
    values = orient(values, parse_directions(directions, values.shape[1]))
    n_rows = values.shape[0]
    methods = _index_vector(method_index, n_rows, "method_index")
    tasks = _index_vector(task_index, n_rows, "task_index")
    n_methods = _check_n_methods(n_methods, methods)
    task_ids, task_pos = np.unique(tasks, return_inverse=True)
    task_pos = task_pos.reshape(-1)
    slot = task_pos * n_methods + methods
    order = np.argsort(slot, kind="stable")
    repeated = np.flatnonzero(np.diff(slot[order]) == 0)
    if repeated.size:
        a, b = int(order[repeated[0]]), int(order[repeated[0] + 1])
        raise InvalidInputError(
            f"rows {a} and {b} both give method {methods[a]} on task {tasks[a]}; "
            "give one row per (method, task) (average the seeds first)")
    present = np.zeros((task_ids.size, n_methods), dtype=bool)
    present[task_pos, methods] = True
    complete = present.all(axis=1)
    incomplete = task_ids[~complete]
    if incomplete.size and missing == "error":
        t = int(np.flatnonzero(~complete)[0])
        absent = np.flatnonzero(~present[t]).tolist()
        raise InvalidInputError(
            f"task {task_ids[t]} has no row for method(s) {absent}; every method needs a "
            "row on every task (or pass missing='drop' to leave such tasks out)")
    dense = np.zeros((task_ids.size, n_methods, values.shape[1]))
    dense[task_pos, methods] = values
    above, tied = dominance_relations(np.ascontiguousarray(dense[complete]))
    kept_ids = task_ids[complete]
    t_idx, i_idx, j_idx = np.nonzero(np.triu(tied, k=1))
    tied_pairs = np.stack([kept_ids[t_idx], i_idx, j_idx], axis=1).astype(np.int64)
    has_tie = tied.any(axis=(1, 2))
    keep = ~has_tie if ties == "drop" else np.ones(kept_ids.size, dtype=bool)
    dropped = np.union1d(incomplete, kept_ids[~keep]).astype(np.int64)
    return TaskPosets(
        relations=np.ascontiguousarray(above[keep]),
        task_ids=kept_ids[keep].astype(np.int64),
        flagged_ties=kept_ids[has_tie].astype(np.int64),
        tied_pairs=tied_pairs.reshape(-1, 3),
        dropped=dropped,
        incomplete=incomplete.astype(np.int64),
        ties=ties,
    )


def _check_n_methods(n_methods, methods) -> int:
    """``n_methods`` as an int (the largest index + 1 when None); every index below it."""
    if n_methods is None:
        n_methods = int(methods.max()) + 1
    elif isinstance(n_methods, (bool, np.bool_)) or not isinstance(n_methods, (int, np.integer)):
        raise InvalidInputError(f"'n_methods' must be an integer, not {n_methods!r}")
    n_methods = int(n_methods)
    if methods.min() < 0 or methods.max() >= n_methods:
        bad = int(np.argmax((methods < 0) | (methods >= n_methods)))
        raise InvalidInputError(
            f"'method_index' must be in [0, {n_methods}), but row {bad} has {methods[bad]}")
    return n_methods


def beats_matrix(relations, /, *, normalize: bool = False) -> np.ndarray:
    """How often method i is above method j across tasks.

    Parameters
    ----------
    relations : array_like, (T, n, n) bool
        Strict partial orders, e.g. ``TaskPosets.relations``.
    normalize : bool
        Divide by the number of tasks T (a fraction in [0, 1]).

    Returns
    -------
    ndarray (n, n)
        ``out[i, j]`` = #{t : i above j on task t} (int64), or that over T (float64).
        ``out[i, j] + out[j, i] <= T``; the rest are the tasks where they are
        incomparable (or tied).

    Raises
    ------
    InvalidInputError
        If an input is not a strict partial order.

    Examples
    --------
    >>> rel = [[[0, 1], [0, 0]], [[0, 0], [0, 0]], [[0, 1], [0, 0]]]
    >>> beats_matrix(rel).tolist()
    [[0, 2], [0, 0]]
    """
    rel = as_relations(relations, name="relations")
    counts = rel.sum(axis=0, dtype=np.int64)
    return counts / rel.shape[0] if normalize else counts


def cover_relation(relation, /) -> np.ndarray:
    """Hasse diagram of a poset: i covers j iff i is above j with nothing in between.

    Parameters
    ----------
    relation : array_like, (n, n) bool
        A strict partial order (``relation[i, j]``: i above j).

    Returns
    -------
    ndarray (n, n) bool
        ``out[i, j]`` True iff i above j and no k has i above k above j. The
        transitive closure of ``out`` is ``relation``.

    Raises
    ------
    InvalidInputError
        If ``relation`` is not a strict partial order.

    Notes
    -----
    ``out = R & ~(R @ R)`` on the transitive R. O(n^3).

    Examples
    --------
    >>> chain = [[0, 1, 1], [0, 0, 1], [0, 0, 0]]   # 0 > 1 > 2
    >>> cover_relation(chain).astype(int).tolist()
    [[0, 1, 0], [0, 0, 1], [0, 0, 0]]
    """
    rel = as_relations(relation, name="relation")
    if rel.shape[0] != 1:
        raise InvalidInputError("'relation' must be a single (n, n) matrix")
    r = rel[0]
    through = (r.astype(np.int64) @ r.astype(np.int64)) > 0
    return r & ~through


def top_k_agreement(posets, depths, /, *, k: int) -> Agreement:
    """What the k deepest (most central) posets agree on.

    Parameters
    ----------
    posets : array_like, (D, n, n) bool
        Posets, e.g. ``UfgDepthResult.posets``.
    depths : array_like, (D,)
        Their depths, e.g. ``UfgDepthResult.depths``.
    k : int
        How many of the deepest to intersect, 1 <= k <= D. Equal depths keep the
        input order (stable), so the choice at the k-th place is deterministic.

    Returns
    -------
    Agreement

    Raises
    ------
    InvalidInputError
        Shapes that do not match, non-finite depths, or k out of range.

    Notes
    -----
    ``above`` is the intersection of the k posets, the paper's "the three posets with
    the highest depth have this dominance order in common" (App. C, Fig. 3);
    ``never_above`` is the intersection of their non-edges (the R code's
    "nonedges in common"). O(k n^2) after an O(D log D) sort.

    Examples
    --------
    >>> p = [[[0, 1], [0, 0]], [[0, 0], [0, 0]], [[0, 1], [0, 0]]]
    >>> a = top_k_agreement(p, [0.9, 0.1, 0.5], k=2)
    >>> a.indices.tolist(), a.above.astype(int).tolist()
    ([0, 2], [[0, 1], [0, 0]])
    """
    rel = as_relations(posets, name="posets")
    d = np.asarray(depths, dtype=np.float64).reshape(-1)
    if d.shape[0] != rel.shape[0]:
        raise InvalidInputError(
            f"'depths' must have one value per poset ({rel.shape[0]}), but it has {d.shape[0]}")
    if not np.isfinite(d).all():
        raise InvalidInputError("'depths' must be finite")
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) \
            or not 1 <= k <= rel.shape[0]:
        raise InvalidInputError(f"'k' must be an integer in [1, {rel.shape[0]}], not {k!r}")
    idx = np.argsort(-d, kind="stable")[:k]
    chosen = rel[idx]
    n = rel.shape[1]
    off = ~np.eye(n, dtype=bool)
    never = ~chosen.any(axis=0) & off
    return Agreement(indices=idx.astype(np.int64), above=chosen.all(axis=0),
                     never_above=never, incomparable=never & never.T)
