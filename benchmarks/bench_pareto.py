"""Time copa-dash's Pareto kernels against paretoset, moocore and pymoo; print markdown.

    python benchmarks/bench_pareto.py            # full run (several minutes)
    python benchmarks/bench_pareto.py --quick    # under a minute with a warm numba cache

Every function is compiled on a tiny input first; each cell then makes one warm-up call
on its data and reports the median of repeated calls (a single call when one takes
over a second). A peer whose previous, ten times smaller, size took over half a second
is skipped (it would likely take over 10 s) and the cell says so. Ratio = ours / best peer; the
contract asks for <= 1.5 everywhere. Data: ``random`` rows uniform in [0, 1]^K (few on
the front) and ``front`` rows on the positive unit sphere (all on the front).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/copa_numba_cache")

import moocore
from paretoset import paretoset
from pymoo.indicators.hv import HV as PymooHV

from copa_dash.core.dominance import nondominated_layers, nondominated_mask
from copa_dash.core.hypervolume import hypervolume

TARGET = 1.5
SKIP_AFTER = 0.5  # seconds at the previous, 10x smaller size: the next may take > 10 s


def make_points(kind: str, n: int, k: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed + 1000 * k + n)
    if kind == "random":
        return rng.random((n, k))
    x = np.abs(rng.standard_normal((n, k)))
    return np.ascontiguousarray(x / np.linalg.norm(x, axis=1, keepdims=True))


def timed(func, repeats: int) -> float:
    """Seconds per call: one warm-up call, then the median of ``repeats`` calls."""
    start = time.perf_counter()
    func()
    first = time.perf_counter() - start
    if first > 1.0:
        return first
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def fmt(seconds: float | None) -> str:
    if seconds is None:
        return "skipped"
    return f"{seconds * 1e3:.3f}" if seconds < 0.01 else f"{seconds * 1e3:.1f}"


class Table:
    """Rows of one markdown table plus the cells that miss the target."""

    def __init__(self, title: str, peers: list[str]):
        self.title, self.peers, self.rows, self.misses = title, peers, [], []
        self.last: dict[tuple, float] = {}

    def run(self, key: tuple, ours, peers: dict, repeats: int, check=None) -> None:
        t_ours = timed(ours, repeats)
        times, notes = {}, []
        for name in self.peers:
            func = peers.get(name)
            previous = self.last.get((name,) + key[:-1])
            if func is None:
                times[name] = None
            elif previous is not None and previous > SKIP_AFTER:
                times[name] = None
                notes.append(f"{name} skipped (>10 s)")
            else:
                times[name] = timed(func, repeats)
                self.last[(name,) + key[:-1]] = times[name]
        if check is not None:
            check()
        measured = [t for t in times.values() if t is not None]
        ratio = t_ours / min(measured) if measured else float("nan")
        if ratio > TARGET:
            self.misses.append(f"{self.title} {key}: ratio {ratio:.2f}")
        cells = [str(c) for c in key] + [fmt(t_ours)] + [fmt(times[p]) for p in self.peers]
        self.rows.append(cells + [f"{ratio:.2f}", "; ".join(notes)])
        print("  ", " | ".join(self.rows[-1]), file=sys.stderr, flush=True)

    def markdown(self, key_names: list[str]) -> str:
        head = key_names + ["ours (ms)"] + [f"{p} (ms)" for p in self.peers]
        head += ["ours / best", "note"]
        lines = [f"### {self.title}", "", "| " + " | ".join(head) + " |",
                 "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join(lines)


def bench_masks(sizes, ks, kinds) -> Table:
    table = Table(f"Non-dominated mask, {' and '.join(kinds)} data", ["paretoset", "moocore"])
    for kind in kinds:
        for k in ks:
            for n in sizes:
                x = make_points(kind, n, k)
                repeats = 5 if n <= 100_000 else 3
                peers = {"paretoset": lambda x=x: paretoset(x, distinct=False),
                         "moocore": lambda x=x: moocore.is_nondominated(x, keep_weakly=True)}

                def check(x=x, n=n):
                    if n <= 100_000:
                        assert np.array_equal(nondominated_mask(x),
                                              moocore.is_nondominated(x, keep_weakly=True))
                table.run((kind, k, n), lambda x=x: nondominated_mask(x), peers, repeats, check)
    return table


def bench_layers(sizes, ks, kinds) -> Table:
    table = Table(f"Non-dominated layers, {' and '.join(kinds)} data", ["moocore"])
    for kind in kinds:
        for k in ks:
            for n in sizes:
                x = make_points(kind, n, k)
                table.run((kind, k, n), lambda x=x: nondominated_layers(x),
                          {"moocore": lambda x=x: moocore.pareto_rank(x)}, 3)
    return table


def bench_hypervolume(sizes, ks) -> Table:
    table = Table("Hypervolume (front on the sphere, ref 1.1)", ["moocore", "pymoo"])
    for k in ks:
        for n in sizes:
            x = make_points("front", n, k)
            ref = np.full(k, 1.1)
            indicator = PymooHV(ref_point=ref)
            peers = {"moocore": lambda x=x, ref=ref: moocore.hypervolume(x, ref=ref),
                     "pymoo": lambda x=x, indicator=indicator: indicator(x)}

            def check(x=x, ref=ref):
                assert np.isclose(hypervolume(x, ref), moocore.hypervolume(x, ref=ref))
            table.run(("front", k, n), lambda x=x, ref=ref: hypervolume(x, ref), peers, 7, check)
    return table


def warm_up() -> None:
    """Compile (or load from the numba cache) every kernel on tiny inputs."""
    for k in (2, 3, 4):
        x = make_points("random", 50, k)
        nondominated_mask(x)
        nondominated_layers(x)
        hypervolume(x, np.full(k, 1.1))
    paretoset(make_points("random", 50, 3), distinct=False)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small grid, under a minute")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    warm_up()
    if args.quick:
        tables = [
            (bench_masks([1_000, 10_000, 100_000], [2, 3, 5, 8], ["random"]), ["data", "K", "N"]),
            (bench_masks([1_000, 10_000], [2, 3, 5, 8], ["front"]), ["data", "K", "N"]),
            (bench_layers([1_000, 10_000], [2, 3, 5], ["random"]), ["data", "K", "N"]),
            (bench_hypervolume([100, 1_000], [2, 3, 4, 5]), ["data", "K", "N"]),
        ]
    else:
        sizes = [1_000, 10_000, 100_000, 1_000_000]
        tables = [
            (bench_masks(sizes, [2, 3, 4, 5, 6, 8], ["random", "front"]), ["data", "K", "N"]),
            (bench_layers([1_000, 10_000, 100_000], [2, 3, 5], ["random", "front"]),
             ["data", "K", "N"]),
            (bench_hypervolume([100, 1_000], [2, 3, 4, 5, 6]), ["data", "K", "N"]),
        ]
    print(f"# copa-dash Pareto benchmarks ({'quick' if args.quick else 'full'} run)\n")
    print(f"numpy {np.__version__}, moocore {moocore.__version__}, {os.cpu_count()} CPUs; "
          "times in ms, median of repeats after one warm-up call.\n")
    misses = []
    for table, keys in tables:
        print(table.markdown(keys) + "\n")
        misses += table.misses
    print(f"Targets missed (ours / best peer > {TARGET}): " + ("; ".join(misses) or "none"))
    print(f"\nTotal {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
