"""What placing the front figure's labels and saying the pick's tie add to a slider move.

    python benchmarks/bench_explore_labels.py              # 200,000 and 1,000,000 rows
    python benchmarks/bench_explore_labels.py --rows 50000

A slider move patches the front figure's layers (``figures.front_layers``: the sweep's dots,
the rings, the labels placed by ``label_layout``) and rewrites the pick card
(``panels.pick_card_text``, which asks ``pick_tie`` whether the pick is tied). The labels
need each axis's range: ours reads it from the column's minimum and maximum; the peer is
the figure's own ``fixed_range`` (a copy of the finite values and a log10 of every row on a
log axis). Both must give the same layers (compared as JSON) before a ratio is printed.
Timing follows ``benchmarks/_harness.py`` (interleaved repeats, CPU beside wall time).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from unittest import mock

os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/numba_cache")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pandas as pd

from benchmarks._harness import interleaved, load_line, markdown, ratio_cell
from copa_dash.data.filters import RowFilter
from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.reports.facts import opened_table
from copa_dash.services import explorer, pick_tie, selection
from copa_dash.ui.features.explore import figures, panels


def _exploration(n_rows: int):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"id": [f"m{i}" for i in range(n_rows)],
                          "acc": rng.random(n_rows), "cost": rng.lognormal(size=n_rows),
                          "size": rng.integers(1, 100, n_rows).astype(float)})
    roles = Roles("id", (Objective("acc", "max"), Objective("cost", "min"),
                         Objective("size", "min")))
    opened = opened_table(build_eval_table(frame, roles), name=f"bench-{n_rows}")
    prefs = selection.Preferences(objectives=("acc", "cost", "size"),
                                  directions=("max", "min", "min"), focus=("cost",), alpha=0.5)
    return explorer.explore(opened, prefs, RowFilter())


def _layers(result):
    return figures.front_layers(result, mode="raw", x="cost", y="acc", log=("x",))


def _peer_layers(result):
    with mock.patch.object(figures, "_axis_range",
                           lambda values, log: figures.fixed_range(values, log=log)["range"]):
        return _layers(result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="*", default=[200_000, 1_000_000])
    args = parser.parse_args()
    print(load_line())
    rows = []
    for n in args.rows:
        result = _exploration(n)
        timings, results = interleaved({
            # each lambda binds this n's result (r=result): B023, no late binding
            "layers, ours": lambda r=result: _layers(r),
            "layers, fixed_range": lambda r=result: _peer_layers(r),
            "pick card (with the tie)": lambda r=result: panels.pick_card_text(r),
            "pick_tie alone": lambda r=result: pick_tie.pick_tie(r.problem, r.scores, r.pick),
        }, repeats=9)
        same = json.dumps(results["layers, ours"], sort_keys=True) == \
            json.dumps(results["layers, fixed_range"], sort_keys=True)
        check = {"layers, fixed_range": None if same else "different layers"}
        for name, timing in timings.items():
            ratio = ratio_cell(timings, "layers, ours", check) if name == "layers, ours" else ""
            rows.append([f"{n:,}", name, timing.cell(), ratio])
    print(markdown(["rows", "what", "CPU (spread) / wall", "ours / peer (CPU)"], rows))
    print(load_line())


if __name__ == "__main__":
    main()
