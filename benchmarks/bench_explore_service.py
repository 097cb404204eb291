"""The server's share of an explorer slider move on a big table: ours against the full path.

One alpha move and one p move (a p not seen before: the alpha sweep is computed) of the
explorer service on the seeded synthetic table of ``bench_explore_browser.py``, in this process,
with the weight-independent part (rows, u, constraint mask, front) already built, as in the app
after the first view. Two contenders, interleaved by ``benchmarks/_harness.py``:

* ours: :func:`copa_dash.services.explorer.explore`'s move path - the scores, the ranking head
  (``services/ranked.py``) and the sweep over the front rows (``explorer.front_sweep``);
* full: the same move ranking every row (``selection.ranking``) and sweeping every eligible row
  (``selection.sweep``), as the explorer did before.

Before a ratio is printed the two answers are compared exactly: the pick, the first 100 places,
the number of ranked rows, and for the p move the sweep's pick at each of the 10,000 alphas.

Usage::

    python benchmarks/bench_explore_service.py --rows 100000 --objectives 8
    python benchmarks/bench_explore_service.py --rows 1000000 --objectives 4
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._harness import interleaved, load_line, markdown, ratio_cell
from benchmarks.bench_explore_browser import synthetic_table
from copa_dash.data.filters import RowFilter
from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import explorer, selection
from copa_dash.services.ranked import RankedRows


def _problem(rows: int, objectives: int, seed: int):
    frame = synthetic_table(rows, objectives, seed)
    names = [c for c in frame.columns if c != "model"]
    roles = Roles("model", tuple(Objective(n, "max" if n.startswith("score") else "min")
                                 for n in names))
    table = build_eval_table(frame, roles)
    prefs = selection.Preferences(objectives=tuple(names), directions=tuple(
        o.direction for o in roles.objectives), focus=(names[0],), alpha=1.0, p=math.inf)
    problem = selection.build_problem(table, prefs, RowFilter())
    return problem, selection.front_mask(problem)


def ours(problem, front, sweep: bool):
    scores = selection.scores(problem)
    ranked = RankedRows(problem, scores)
    swept = explorer.front_sweep(problem, front) if sweep else None
    return int(ranked[0]), np.asarray(ranked.head), len(ranked), swept


def full(problem, front, sweep: bool):
    selection.scores(problem)
    ranking = selection.ranking(problem)
    swept = selection.sweep(problem) if sweep else None
    return int(ranking[0]), ranking[:100], len(ranking), swept


def _same(a, b) -> str | None:
    if a[0] != b[0]:
        return f"picks {a[0]} and {b[0]}"
    if not np.array_equal(a[1], b[1]) or a[2] != b[2]:
        return "rankings differ"
    if a[3] is not None and not np.array_equal(a[3].selected, b[3].selected):
        return f"sweeps differ at {int((a[3].selected != b[3].selected).sum())} alphas"
    return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--objectives", type=int, default=8)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    print("before: " + load_line())
    problem, front = _problem(args.rows, args.objectives, args.seed)
    rows = []
    moves = (("alpha move (alpha 1 -> 0.9)", replace(problem.preferences, alpha=0.9), False),
             ("p move (p inf -> 2, sweep computed)", replace(problem.preferences, p=2.0), True))
    for label, prefs, sweep in moves:
        moved = replace(problem, preferences=prefs)
        timings, results = interleaved(
            {"ours": lambda m=moved, s=sweep: ours(m, front, s),
             "full": lambda m=moved, s=sweep: full(m, front, s)},
            repeats=args.repeats, budget_seconds=60.0, single_call_seconds=30.0)
        why = _same(results["ours"], results["full"])
        rows.append([label, timings["ours"].cell(), timings["full"].cell(),
                     ratio_cell(timings, "ours", {"full": why})])
    print("after: " + load_line())
    print(f"{args.rows:,} rows x {args.objectives} objectives (seed {args.seed}); front "
          f"{int(front.sum()):,} rows; CPU ms (spread) / wall ms, medians")
    print(markdown(["move", "ours", "full ranking + full sweep", "ours / full (CPU)"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
