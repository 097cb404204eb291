"""Time non-dominated sorting (layers) for 4-8 objectives against moocore's ``pareto_rank``.

    python benchmarks/bench_layers.py            # 1,000 to 40,000 rows, random and fronts
    python benchmarks/bench_layers.py --quick    # 4-8 objectives x 1,000-20,000 rows, and 3 more

Where the layers switch algorithm (``copa_dash/core/_kernels/dominance_layers.py``): up to
``BITSET_MAX_ROWS`` rows the dominance-set bitsets rank every row at once; above it layers
are peeled first. This script times, interleaved in one process (``benchmarks/_harness.py``:
at least 7 rounds and 1 s of CPU time per contender, CPU and wall time, the spread of the
ratio over the rounds, the machine load before and after), ``nondominated_layers`` as it
is ("ours"), the bitset kernel called on all rows ("bitsets at once": what ours does up to
the limit, and would do above it), and moocore. Every result is checked against moocore's
exactly; a differing one gets no ratio. ``random``: uniform rows in [0, 1]^K (seeded);
``front``: rows on the positive unit sphere (one layer, where Best Order Sort, used here
before, was quadratic).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/copa_numba_cache")

import moocore
import numpy as np

from benchmarks._harness import interleaved, load_line, markdown, ratio_cell, same_layers
from copa_dash.core._kernels.dominance_bitsets import BITSET_MAX_ROWS, bitset_layers
from copa_dash.core.dominance import nondominated_layers

QUICK = ([("random", k, n) for k in (4, 5, 6, 8) for n in (1_000, 10_000, 20_000)]
         + [("random", 5, 30_000), ("front", 5, 10_000)])
FULL = ([("random", k, n) for k in (4, 5, 6, 7, 8) for n in (1_000, 5_000, 10_000, 20_000,
                                                             40_000)]
        + [("front", k, n) for k in (4, 5, 6, 8) for n in (1_000, 5_000, 10_000)])


def make_points(kind: str, n: int, k: int) -> np.ndarray:
    rng = np.random.default_rng(1000 * k + n)
    if kind == "random":
        return rng.random((n, k))
    x = np.abs(rng.standard_normal((n, k)))
    return np.ascontiguousarray(x / np.linalg.norm(x, axis=1, keepdims=True))


def bench(kind: str, k: int, n: int) -> list[str]:
    x = make_points(kind, n, k)
    contenders = {"ours": lambda: nondominated_layers(x),
                  "moocore": lambda: moocore.pareto_rank(x) + 1}
    if n > BITSET_MAX_ROWS:
        contenders["bitsets at once"] = lambda: bitset_layers(x) + 1
    timings, results = interleaved(contenders, repeats=7, min_cpu_seconds=1.0,
                                   max_rounds=41, max_wall_seconds=40.0)
    ratio = ratio_cell(timings, "ours", {"moocore": same_layers(results["ours"],
                                                                 results["moocore"])})
    at_once = "-"
    if "bitsets at once" in timings:
        at_once = timings["bitsets at once"].cell() + "; " + ratio_cell(
            timings, "bitsets at once",
            {"moocore": same_layers(results["bitsets at once"], results["moocore"])})
    row = [kind, str(k), f"{n:,}", str(int(results["moocore"].max())),
           timings["ours"].cell(), timings["moocore"].cell(), ratio, at_once]
    print("  ", " | ".join(row), file=sys.stderr, flush=True)
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the smaller grid")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    for k in (4, 8):  # compile (or load from the cache) outside the timings
        nondominated_layers(make_points("random", 50, k))
    print(f"# Layers against moocore {moocore.__version__} "
          f"({'quick' if args.quick else 'full'})\n")
    print("Cells: CPU ms (±interquartile spread) / wall ms, medians of interleaved rounds; "
          "ratios on median CPU time with the spread of the per-round ratios and the "
          "wall-time ratio.")
    print(load_line() + " (before)\n")
    head = ["data", "K", "N", "layers", "ours", "moocore", "ours / moocore (CPU)",
            "bitsets at once (above the limit); / moocore"]
    rows = [bench(*case) for case in (QUICK if args.quick else FULL)]
    print(markdown(head, rows))
    print("\n" + load_line() + " (after)")
    print(f"Total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
