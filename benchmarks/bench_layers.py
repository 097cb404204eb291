"""Time non-dominated sorting (layers) for 4-8 objectives against moocore's ``pareto_rank``.

    python benchmarks/bench_layers.py            # 1,000 to 100,000 rows, random and fronts
    python benchmarks/bench_layers.py --quick    # 4-8 objectives x 1,000-20,000 rows, and 3 more
    python benchmarks/bench_layers.py --cases random:4:30000 front:5:10000   # chosen cases

Where the layers switch algorithm (``copa_dash/core/_kernels/dominance_layers.py``,
``layers_method``): the dominance-set bitsets up to 12,000-16,000 rows, the layer-maximum
k-d tree above (7-8-D: up to 70,000 / 20,000 rows), and peeling fronts first beyond. This
script times, interleaved in one process (``benchmarks/_harness.py``: at least 7 rounds
and 1 s of CPU time per contender, CPU and wall time, the spread of the ratio over the
rounds, the machine load before and after), ``nondominated_layers`` as it is ("ours"),
moocore, and the method ours did not pick on that side of its switch point ("other":
the tree where ours runs the bitsets or peels, the bitsets where ours runs the tree, up
to 40,000 rows, the peeling above), so each row shows the crossover it relies on. Every
result is checked against moocore's exactly; a differing one gets no ratio. ``random``:
uniform rows in [0, 1]^K (seeded); ``front``: rows on the positive unit sphere (one
layer, where Best Order Sort, used here before, was quadratic).
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
from copa_dash.core._kernels.dominance_bitsets import bitset_layers
from copa_dash.core._kernels.dominance_layer_tree import layer_tree_layers
from copa_dash.core._kernels.dominance_layers import (
    PEEL_UNTIL_ROWS,
    layers_method,
    peeled_layers,
)
from copa_dash.core.dominance import nondominated_layers

QUICK = ([("random", k, n) for k in (4, 5, 6, 8) for n in (1_000, 10_000, 20_000)]
         + [("random", 5, 30_000), ("front", 5, 10_000)])
FULL = ([("random", k, n) for k in (4, 5, 6, 7, 8) for n in (1_000, 5_000, 10_000, 20_000,
                                                             30_000, 50_000, 100_000)]
        + [("front", k, n) for k in (4, 5, 6, 8) for n in (1_000, 5_000, 10_000, 30_000)])


def make_points(kind: str, n: int, k: int) -> np.ndarray:
    rng = np.random.default_rng(1000 * k + n)
    if kind == "random":
        return rng.random((n, k))
    x = np.abs(rng.standard_normal((n, k)))
    return np.ascontiguousarray(x / np.linalg.norm(x, axis=1, keepdims=True))


def other_method(x: np.ndarray, method: str):
    """The method ours did not pick here, as ``(name, call)`` (module notes)."""
    if method in ("bitsets", "peel"):
        return "tree", lambda: layer_tree_layers(x) + 1
    if x.shape[0] <= 40_000:
        return "bitsets", lambda: bitset_layers(x) + 1
    return "peel", lambda: peeled_layers(x, PEEL_UNTIL_ROWS)


def bench(kind: str, k: int, n: int) -> list[str]:
    x = make_points(kind, n, k)
    method = layers_method(n, k)
    other, other_call = other_method(x, method)
    contenders = {"ours": lambda: nondominated_layers(x),
                  "moocore": lambda: moocore.pareto_rank(x) + 1,
                  other: other_call}
    timings, results = interleaved(contenders, repeats=7, min_cpu_seconds=1.0,
                                   max_rounds=41, max_wall_seconds=40.0)
    ratio = ratio_cell(timings, "ours", {"moocore": same_layers(results["ours"],
                                                                 results["moocore"])})
    other_cell = f"{other}: " + timings[other].cell() + "; " + ratio_cell(
        timings, other, {"moocore": same_layers(results[other], results["moocore"])})
    row = [kind, str(k), f"{n:,}", str(int(results["moocore"].max())), method,
           timings["ours"].cell(), timings["moocore"].cell(), ratio, other_cell]
    print("  ", " | ".join(row), file=sys.stderr, flush=True)
    return row


def parse_case(text: str) -> tuple[str, int, int]:
    kind, k, n = text.split(":")
    if kind not in ("random", "front"):
        raise SystemExit(f"a case is random:K:N or front:K:N, not {text!r}")
    return kind, int(k), int(n)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the smaller grid")
    parser.add_argument("--cases", nargs="+", metavar="KIND:K:N",
                        help="only these cases, e.g. random:4:30000 front:5:10000")
    args = parser.parse_args(argv)
    cases = ([parse_case(c) for c in args.cases] if args.cases
             else QUICK if args.quick else FULL)
    started = time.perf_counter()
    for k in (4, 8):  # compile (or load from the cache) outside the timings
        x = make_points("random", 50, k)
        nondominated_layers(x)
        layer_tree_layers(x)
        peeled_layers(x, PEEL_UNTIL_ROWS)
    grid = "chosen cases" if args.cases else "quick" if args.quick else "full"
    print(f"# Layers against moocore {moocore.__version__} ({grid})\n")
    print("Cells: CPU ms (±interquartile spread) / wall ms, medians of interleaved rounds; "
          "ratios on median CPU time with the spread of the per-round ratios and the "
          "wall-time ratio.")
    print(load_line() + " (before)\n")
    head = ["data", "K", "N", "layers", "ours: method", "ours", "moocore",
            "ours / moocore (CPU)", "the other method; / moocore"]
    rows = [bench(*case) for case in cases]
    print(markdown(head, rows))
    print("\n" + load_line() + " (after)")
    print(f"Total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
