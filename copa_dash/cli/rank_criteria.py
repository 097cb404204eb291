"""``copa-dash rank --criteria ...``: ranks under several criteria at once.

``rank --criteria "copa:1,copa:inf,mean,norm,delta:REF,obj:COL"`` prints, with ``--json``,
``{"criteria": [...], "ranks": [{"id": ..., "copa:1": 3, ...}, ...], "view": {...}}``: one entry
per row (or per system, averaged over its rows, when the table has a system column with several
rows per system), rank 1 best, ties broken as in the page's bump chart (COPA at p = 8, then the
sum of u, then table order) unless ``--ties keep``. The weights are those of plain ``rank``
(with --dataset, the default view's focus and alpha), or equal with ``--equal-weights`` (the
Rankings page's default, as in the paper's figures); ``"view"`` (or the last line) says which.
Apart from ``benchmark`` (cli/rankings.py) so that ``select`` and ``rank`` do not import scipy.
"""

from __future__ import annotations

import numpy as np

from ..core.errors import InvalidInputError
from ..core.rank_tables import rank_spread
from ..services import rankings
from ._common import emit, format_table, say
from .preferences import build, describe_view, view_line


def run_criteria_rank(args) -> int:
    """Print the rank of every row under every criterion of ``args.criteria``."""
    table, prefs, row_filter = build(args)
    equal = bool(getattr(args, "equal_weights", False))
    if equal and (args.focus or args.weights or args.alpha is not None):
        raise InvalidInputError("give either --equal-weights or --focus/--alpha/--weights, not both")
    weights = None if equal else prefs.weight_vector()
    described = describe_view(prefs, row_filter)
    del described["p"], described["method"]  # each criterion names its own
    if equal:
        described["weighting"] = "equal weights (--equal-weights)"
        described["weights"] = {o: 1.0 / len(prefs.objectives) for o in prefs.objectives}
    view = rankings.rank_view(table, criteria=args.criteria,
                              objectives=list(zip(prefs.objectives, prefs.directions)),
                              weights=weights, row_filter=row_filter)
    if view.task_span is not None:
        say(getattr(args, "command", None),
            view.task_span.cli_line(view.task_what))
    ties = getattr(args, "ties", "break") or "break"
    ranks = view.ranks(ties)
    records = rankings.rank_records(view, ties=ties)
    if args.top is not None:
        if args.top < 1:
            raise InvalidInputError("--top must be a positive number")
        keep = np.argsort(ranks[:, 0], kind="stable")[: args.top]
        records = [records[i] for i in keep]
    if args.json:
        emit({"criteria": list(view.criteria), "ranks": records, "view": described}, args)
        return 0
    spread = rank_spread(ranks)
    shown = {r["id"] for r in records}
    rows = []
    for i in rankings.change_order(view, ties=ties):
        if str(view.ids[i]) in shown:
            rows.append({"id": str(view.ids[i]), **{c: int(ranks[i, j])
                                                    for j, c in enumerate(view.criteria)},
                         "moves": int(spread[i])})
    print(format_table(rows, ["id", *view.criteria, "moves"]))
    print(f"({len(view.ids)} entries; largest rank changes first; ties "
          f"{'kept' if ties == 'keep' else 'broken by COPA at p = 8'})")
    for note in view.notes:
        print(note)
    print(view_line(described))
    return 0
