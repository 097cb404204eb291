"""The explorer's ranking: its first rows at once, every row only when asked.

A slider move needs the pick, five runners-up and the table's first page; ranking every row
sorts them all (on 1,000,000 rows about 0.5 s of CPU per move, most of a move's server time).
:class:`RankedRows` ranks only the rows that can reach the first ``head`` places and keeps the
rest of the ranking for when a page further down, a search, a sort or the CSV asks for it.

Why the first places come out exactly as in the full ranking
-------------------------------------------------------------
COPA ranks by repeated selection (:func:`~copa_dash.core.criteria.copa_ranking`): at each
step the band of the smallest criterion C among the rows left, ``[c, c (1 + TIE_RTOL)]``,
is narrowed by the tie-breaks. With ``c_m`` the m-th smallest C of the rankable rows, at each
of the first m steps the smallest C left is at most ``c_m`` (fewer than m rows are gone), so
every band of those steps lies below ``c_m (1 + TIE_RTOL)``. Ranking only the rows with
``C <= c_m (1 + margin)``, ``margin >= TIE_RTOL``, therefore takes the same first m steps. The
margin is wider than TIE_RTOL so that scores computed along another float path (numpy twins
while a kernel compiles) cannot leave a row of a band out. Other methods rank by (score,
table order): the rows with a score up to the m-th smallest decide the first m places.
``tests/services/test_ranked.py`` checks heads against the full ranking, ties included.
"""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np

from ..core import criteria
from . import selection

HEAD_ROWS = 100          # the pick, 5 runners-up and the table's first six pages
MARGIN = max(1e-9, criteria.TIE_RTOL)   # relative; at least TIE_RTOL (see above)


class RankedRows:
    """Positions of the ranked rows, best first, computed up to ``head`` rows on creation.

    Reads like a 1-D integer array for what the pages do with a ranking: ``len``, an
    integer index, a slice, ``np.asarray``. Anything past the head computes the full ranking
    once (thread-safe) and keeps it.

    Parameters
    ----------
    problem : selection.SelectionProblem
        The view's rows, u and constraint mask.
    scores : ndarray
        :func:`selection.scores` of ``problem`` (NaN where undefined).
    head : int
        How many first places to rank now.
    """

    def __init__(self, problem: selection.SelectionProblem, scores: np.ndarray, *,
                 head: int = HEAD_ROWS):
        self._problem = problem
        valid = problem.eligible & ~np.isnan(scores)
        self._count = int(valid.sum())
        self._full: np.ndarray | None = None
        self._lock = threading.Lock()
        m = min(head, self._count)
        if m == 0:
            self.head = selection.ranking(problem)[:0]   # raises the page's message
            return
        if m == self._count:
            self._full = np.asarray(selection.ranking(problem))
            self.head = self._full[:m]
            return
        c_m = float(np.partition(scores[valid], m - 1)[m - 1])
        if problem.preferences.method == "copa":
            limit = c_m * (1.0 + MARGIN) if c_m > 0 else c_m
            candidates = np.flatnonzero(valid & (scores <= limit))
            # ranked as a table of their own, in table order: the tie-breaks see the same
            # rows in the same order, and no copy of every row's u is made
            ranked = selection.ranking(_rows_of(problem, candidates))
            self.head = candidates[np.asarray(ranked)[:m]]
        else:
            rows = np.flatnonzero(valid & (scores <= c_m))
            self.head = rows[np.lexsort((rows, scores[rows]))][:m]

    def __len__(self) -> int:
        return self._count

    @property
    def nbytes(self) -> int:
        return self.head.nbytes + (0 if self._full is None else self._full.nbytes)

    @property
    def complete(self) -> bool:
        """True once every row is ranked (the full ranking was asked for)."""
        return self._full is not None

    def full(self) -> np.ndarray:
        """Every ranked position, best first (computed on the first call)."""
        with self._lock:
            if self._full is None:
                full = np.asarray(selection.ranking(self._problem))
                full.flags.writeable = False
                self._full = full
        return self._full

    def __getitem__(self, index):
        if isinstance(index, slice):
            _start, stop, step = index.indices(self._count)
            if step > 0 and stop <= len(self.head):
                return self.head[index]
            return self.full()[index]
        if isinstance(index, (int, np.integer)):
            position = int(index) + (self._count if index < 0 else 0)
            if 0 <= position < len(self.head):
                return self.head[position]
        return self.full()[index]

    def __array__(self, dtype=None, copy=None):
        full = self.full()
        return full if dtype is None else full.astype(dtype)

    def __iter__(self):
        return iter(self.full())

    def __repr__(self) -> str:
        state = "complete" if self.complete else f"first {len(self.head)} ranked"
        return f"RankedRows({self._count} rows, {state})"


def _rows_of(problem: selection.SelectionProblem, positions: np.ndarray):
    """The problem reduced to the rows at ``positions`` (ascending), all of them eligible."""
    return replace(problem, rows=problem.rows[positions], ids=problem.ids[positions],
                   raw=problem.raw[positions], u=problem.u[positions],
                   eligible=np.ones(positions.size, dtype=bool))

