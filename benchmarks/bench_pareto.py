"""Time copa-dash's Pareto kernels against paretoset, moocore, pygmo and pymoo; print markdown.

    python benchmarks/bench_pareto.py            # full grid (several minutes)
    python benchmarks/bench_pareto.py --quick    # the grid of benchmarks/run_all.py --quick

Timing, checks and ratios follow ``benchmarks/_harness.py``: ours and the peers interleaved
in one process (at least 7 rounds and 3 s of measured CPU time per contender, at most 41
rounds or 40 s a cell), CPU and wall time (median, interquartile spread), masks and layers checked
exactly against every peer, volumes to 1e-12 relative, and no ratio for a peer whose
result differs. Data: ``random`` rows uniform in [0, 1]^K (few on the front) and
``front`` rows on the positive unit sphere (every row on the front); seeds fixed. A peer
that is not installed is skipped with a line saying so; a peer too slow for a cell (it
would take minutes: moocore's exact hypervolume at 7-D and up on hundreds of rows) is
listed as ``not run`` in that cell, with the reason.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/copa_numba_cache")

import numpy as np

from benchmarks._harness import (
    interleaved,
    load_line,
    markdown,
    ratio_cell,
    same_layers,
    same_mask,
    same_volume,
)
from copa_dash.core.dominance import nondominated_layers, nondominated_mask
from copa_dash.core.hypervolume import exact_method, hypervolume

PEERS = {}
MISSING = []
try:
    import moocore
    PEERS["moocore"] = moocore
except ImportError:
    MISSING.append("moocore")
try:
    from paretoset import paretoset
    PEERS["paretoset"] = paretoset
except ImportError:
    MISSING.append("paretoset")
try:
    import pygmo
    PEERS["pygmo"] = pygmo
except ImportError:
    MISSING.append("pygmo")
try:
    from pymoo.indicators.hv import HV as PymooHV
    PEERS["pymoo"] = PymooHV
except ImportError:
    MISSING.append("pymoo")

# Sampling rule of every cell (benchmarks/_harness.py, interleaved): at least `repeats`
# rounds and this much measured CPU time per contender, at most 41 rounds / 40 s wall.
MIN_CPU_SECONDS = 3.0

# Peer cells not run because one call takes minutes (measured once, on this machine):
# moocore's hypervolume at 7-D x 1,000 rows > 60 s, 8-D x 200 rows 28 s.
TOO_SLOW = {("moocore", 7, 1000), ("moocore", 8, 300), ("moocore", 8, 1000)}


def make_points(kind: str, n: int, k: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed + 1000 * k + n)
    if kind == "random":
        return rng.random((n, k))
    x = np.abs(rng.standard_normal((n, k)))
    return np.ascontiguousarray(x / np.linalg.norm(x, axis=1, keepdims=True))


@dataclass
class Row:
    """One benchmark cell: what, the timings, the ratio (or why none)."""

    task: str
    kind: str
    k: int
    n: int
    cells: dict
    ratio: str
    note: str = ""
    timings: dict = field(default_factory=dict)

    def values(self, peers: list[str]) -> list[str]:
        return ([self.task, self.kind, str(self.k), f"{self.n:,}", self.cells["ours"]]
                + [self.cells.get(p, "-") for p in peers] + [self.ratio, self.note])


def _run(task, kind, k, n, ours, peers: dict, compare, repeats, note="") -> Row:
    contenders = {"ours": ours, **peers}
    timings, results = interleaved(contenders, repeats=repeats,
                                   min_cpu_seconds=MIN_CPU_SECONDS)
    checks = {name: compare(results["ours"], results[name]) for name in peers}
    cells = {name: t.cell() for name, t in timings.items()}
    row = Row(task, kind, k, n, cells, ratio_cell(timings, "ours", checks), note, timings)
    print("  ", " | ".join(row.values(list(peers))), file=sys.stderr, flush=True)
    return row


def bench_mask(kind, k, n, repeats=7) -> Row:
    x = make_points(kind, n, k)
    peers = {}
    if "paretoset" in PEERS:
        peers["paretoset"] = lambda: PEERS["paretoset"](x, distinct=False)
    if "moocore" in PEERS:
        peers["moocore"] = lambda: PEERS["moocore"].is_nondominated(x, keep_weakly=True)
    return _run("mask", kind, k, n, lambda: nondominated_mask(x), peers, same_mask, repeats)


def bench_layers(kind, k, n, repeats=7) -> Row:
    x = make_points(kind, n, k)
    peers = {}
    if "moocore" in PEERS:
        peers["moocore"] = lambda: PEERS["moocore"].pareto_rank(x) + 1
    if "pygmo" in PEERS and n <= 2_000:  # Deb's O(N^2 K) sorting: minutes at 100,000
        peers["pygmo"] = lambda: PEERS["pygmo"].fast_non_dominated_sorting(x)[3] + 1
    return _run("layers", kind, k, n, lambda: nondominated_layers(x), peers, same_layers,
                repeats)


def bench_hypervolume(k, n, repeats=7) -> Row:
    x = make_points("front", n, k)
    ref = np.full(k, 1.1)
    peers, skipped = {}, []
    if "moocore" in PEERS:
        if ("moocore", k, n) in TOO_SLOW:
            skipped.append("moocore not run (one call > 20 s)")
        else:
            peers["moocore"] = lambda: PEERS["moocore"].hypervolume(x, ref=ref)
    if "pygmo" in PEERS:
        peers["pygmo"] = lambda: PEERS["pygmo"].hypervolume(x).compute(ref)
    if "pymoo" in PEERS and k <= 4:
        indicator = PEERS["pymoo"](ref_point=ref)
        peers["pymoo"] = lambda: indicator(x)
    note = f"ours: {exact_method(n, k)}" + "".join(f"; {s}" for s in skipped)
    return _run("hypervolume", "front", k, n, lambda: hypervolume(x, ref), peers, same_volume,
                repeats, note)


QUICK = {
    "mask": [("random", k, n) for k in (2, 3, 5, 8) for n in (10_000, 100_000)],
    "layers": [("random", k, n) for k in (2, 3, 4, 5, 6, 8) for n in (1_000, 10_000)],
    "hypervolume": [(2, 10_000), (3, 10_000), (4, 1_000), (5, 1_000), (6, 1_000), (7, 300),
                    (8, 150)],
}
FULL = {
    "mask": [(kind, k, n) for kind in ("random", "front") for k in (2, 3, 4, 5, 6, 8)
             for n in (1_000, 10_000, 100_000, 1_000_000) if kind == "random" or n <= 100_000],
    "layers": [(kind, k, n) for kind in ("random", "front") for k in (2, 3, 4, 5, 6, 7, 8)
               for n in (1_000, 10_000, 100_000) if kind == "random" or n <= 10_000],
    "hypervolume": [(2, 1_000), (2, 100_000), (3, 1_000), (3, 100_000), (4, 1_000),
                    (5, 1_000), (6, 1_000), (7, 300), (7, 1_000), (8, 300), (9, 100),
                    (10, 50)],
}


def warm_up() -> None:
    """Compile (or load from the numba cache) every kernel on tiny inputs."""
    for k in (2, 3, 4, 6, 8):
        x = make_points("front", 30, k)
        nondominated_mask(x)
        nondominated_layers(x)
        hypervolume(x, np.full(k, 1.1))


def run(grid: dict) -> dict[str, list[Row]]:
    warm_up()
    return {
        "mask": [bench_mask(*case) for case in grid["mask"]],
        "layers": [bench_layers(*case) for case in grid["layers"]],
        "hypervolume": [bench_hypervolume(*case) for case in grid["hypervolume"]],
    }


def tables(rows: dict[str, list[Row]]) -> str:
    out = []
    for task, peers in (("mask", ["paretoset", "moocore"]), ("layers", ["moocore", "pygmo"]),
                        ("hypervolume", ["moocore", "pygmo", "pymoo"])):
        head = (["task", "data", "K", "N", "ours"] + peers
                + ["ours / best peer (CPU)", "note"])
        out.append(f"### {task}\n\n" + markdown(head, [r.values(peers) for r in rows[task]]))
    return "\n\n".join(out)


def header(mode: str) -> str:
    import numba

    versions = [f"numpy {np.__version__}", f"numba {numba.__version__}"]
    versions += [f"{name} {getattr(mod, '__version__', '?')}" for name, mod in PEERS.items()
                 if hasattr(mod, "__version__")]
    lines = [f"# copa-dash Pareto benchmarks ({mode})", "",
             ", ".join(versions) + ". Cells: CPU ms (±interquartile spread) / wall ms, "
             "medians of interleaved repeats after one warm-up call each."]
    lines += [f"{name} is not installed: its columns are skipped." for name in MISSING]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the run_all --quick grid")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    print(header("quick" if args.quick else "full"))
    print(load_line() + " (before)\n")
    rows = run(QUICK if args.quick else FULL)
    print(tables(rows))
    print("\n" + load_line() + " (after)")
    print(f"Total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
