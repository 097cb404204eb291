"""The rank table of a criteria set, assembled from one memoised column per criterion.

Rankings memoises its view per criteria set (:func:`.rankings.rank_view`). A set chosen for
the first time (one criterion more or less than the default) used to rank every criterion
again, although each column is a function of its own criterion only: a criterion's scores
depend on the entries, objectives, directions and weights, its ranks on those scores and on
the tie-break keys (COPA at p = 8 and the sum of u, the same for every criterion); nothing
in one column depends on another criterion. On the Open LLM leaderboard (2,921 entries,
8 objectives) a new set cost 0.032-0.038 s of CPU; from kept columns 0.006-0.010 s
(docs/benchmarks.md, "28 Nov 2026, session 13"). :func:`rank_table_of` returns the same :class:`~copa_dash.core.rank_tables.RankTable`
as :func:`~copa_dash.core.rank_tables.rank_rows` (tests/services/test_rank_columns.py).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.rank_tables import (
    Criterion,
    RankTable,
    criterion_scores,
    rank_rows,
    rank_spread,
    rank_table,
    tie_break_keys,
)


def rank_table_of(values: np.ndarray, directions: Sequence[str], weights: np.ndarray,
                  criteria: Sequence[tuple[str, Criterion]], *, cache=None,
                  dataset_id: str = "", key: dict | None = None) -> RankTable:
    """Scores and ranks (ties broken and kept) of every entry under every criterion, as
    :func:`~copa_dash.core.rank_tables.rank_rows` with ``ties="break"``.

    Parameters
    ----------
    values, directions, weights
        The entries' raw values, the objectives' directions and the weights.
    criteria : sequence of (label, Criterion)
        As :func:`.rankings.parse_criteria` returns them; a label names its criterion among
        the entries and objectives ``key`` describes.
    cache, dataset_id, key
        The analysis cache, the dataset's id, and what besides the criterion the columns
        depend on (objectives, directions, weights, filter, grouping). Without a cache, one
        call of ``rank_rows``.
    """
    if cache is None:
        return rank_rows(values, list(directions), weights, [c for _, c in criteria],
                         ties="break")
    key = dict(key or {})
    keys = cache.memoize("rank_tie_keys", dataset_id, key,
                         lambda: tie_break_keys(values, list(directions), weights))

    def column(criterion: Criterion) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        scores = criterion_scores(values, list(directions), weights, [criterion])
        return (scores[:, 0], rank_table(scores, keys, ties="break")[:, 0],
                rank_table(scores, ties="keep")[:, 0])

    columns = [cache.memoize("rank_column", dataset_id, dict(key, criterion=label),
                             lambda c=criterion: column(c)) for label, criterion in criteria]
    scores, broken, kept = (np.column_stack([c[i] for c in columns]) for i in range(3))
    return RankTable(scores=scores, ranks=broken, tied_ranks=kept, tie_keys=keys,
                     spread=rank_spread(broken))
