"""Exact hypervolume, 4 to 10 objectives: ours against pygmo (7-10-D) and moocore (4-5-D).

    python benchmarks/bench_hv_highdim.py            # every case, 5 interleaved rounds (41 at 4-5-D)
    python benchmarks/bench_hv_highdim.py --rounds 7 --only 8x200

Contenders, called in one process with their rounds interleaved (round r runs every
contender once, in an order rotated each round; one untimed call each first, so numba's
compilation is excluded):

- ``ours``: ``copa_dash.core.hypervolume.hypervolume(x, ref)``, the public call (validation,
  the distinct front rows, then the method ``exact_method`` picks, printed per row);
- 7-10-D: ``pygmo``: ``pygmo.hypervolume(x).compute(ref)``. For more than 3 objectives its
  ``compute`` picks its WFG (``hypervolume::get_best_compute``: hv2d, hv3d, else hvwfg with
  the 2-D stop dimension), its only exact algorithm there, so that is its best;
  moocore's recursion takes minutes at these sizes and is not run;
- 4-5-D: ``moocore``: ``moocore.hypervolume(x, ref=ref)`` (HV4D+, its recursion above);
  ``qhv`` and ``wfg``: our two compiled kernels on the same rows, to show why ours calls
  moocore's C code there.

Per cell: median CPU time of the process (``time.process_time``) with the interquartile
spread over the median, and median wall time; ratio ours / peer on median CPU time, printed
only when the volumes agree to 1e-10 relative (else ``refused``), with the ratio's range
over the rounds (min and max of the per-round ratios) beside it. The machine load is
printed before and after. Fronts (ref 1.1 in every objective, every row non-dominated):
``sphere`` rows on the positive unit sphere (DTLZ2; concave for minimisation),
``linear`` on the simplex (DTLZ1-like), ``convex`` = 1 - sphere, ``random`` the first N
non-dominated rows of uniform random rows.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/copa_numba_cache")

import moocore
import numpy as np

from copa_dash.core._kernels.hypervolume_qhv import hv_qhv
from copa_dash.core._kernels.hypervolume_wfg import hv_wfg
from copa_dash.core.hypervolume import exact_method, hypervolume

try:
    import pygmo
except ImportError:  # pragma: no cover - the bench extra is not installed
    pygmo = None

HIGH = [(7, 300), (8, 150), (8, 200), (9, 120), (10, 100)]
LOW = [(4, 1000), (5, 1000)]
KINDS = ("sphere", "linear", "convex", "random")
RTOL = 1e-10
LOW_ROUNDS = 41  # rounds of the 4-5-D rows (1-60 ms calls)


def front(kind: str, n: int, k: int, seed: int = 0) -> np.ndarray:
    """``n`` non-dominated rows in ``k`` objectives of the named shape (seeded)."""
    rng = np.random.default_rng(seed + 1000 * k + n)
    if kind == "random":
        size = 4 * n
        while True:
            x = rng.random((size, k))
            nd = x[moocore.is_nondominated(x)]
            if nd.shape[0] >= n:
                return np.ascontiguousarray(nd[:n])
            size *= 2
    if kind == "linear":
        x = rng.exponential(size=(n, k))
        return np.ascontiguousarray(x / x.sum(axis=1, keepdims=True))
    x = np.abs(rng.standard_normal((n, k)))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return np.ascontiguousarray(1.0 - x if kind == "convex" else x)


def interleaved(contenders: dict, rounds: int) -> tuple[dict, dict, dict]:
    """CPU and wall seconds of every round of every contender, and their last results."""
    names = list(contenders)
    cpu = {name: [] for name in names}
    wall = {name: [] for name in names}
    results = {name: contenders[name]() for name in names}  # warm-up, untimed
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            c0, w0 = time.process_time(), time.perf_counter()
            results[name] = contenders[name]()
            cpu[name].append(time.process_time() - c0)
            wall[name].append(time.perf_counter() - w0)
    return cpu, wall, results


def spread(values: list[float]) -> float:
    """Interquartile range over the median (min-max below 4 values)."""
    med = statistics.median(values)
    if len(values) < 4:
        return (max(values) - min(values)) / med
    q1, _, q3 = statistics.quantiles(values, n=4)
    return (q3 - q1) / med


def cell(cpu: list[float], wall: list[float]) -> str:
    return (f"{1e3 * statistics.median(cpu):.2f} ±{100 * spread(cpu):.0f}% / "
            f"{1e3 * statistics.median(wall):.2f}")


def ratio(cpu: dict, results: dict, ours: str, peer: str) -> str:
    a, b = results[ours], results[peer]
    if not abs(a - b) <= RTOL * abs(b):
        return f"refused ({a!r} vs {b!r})"
    per_round = [x / y for x, y in zip(cpu[ours], cpu[peer])]
    med = statistics.median(cpu[ours]) / statistics.median(cpu[peer])
    return f"**{med:.2f}** ({min(per_round):.2f}-{max(per_round):.2f})"


def load_line() -> str:
    one, five, fifteen = os.getloadavg()
    cpus = os.cpu_count() or 1
    return (f"machine: {cpus} CPUs, load average {one:.2f} / {five:.2f} / {fifteen:.2f} "
            f"(1 / 5 / 15 min; {one / cpus:.1f} runnable per CPU)")


def row(kind: str, k: int, n: int, rounds: int) -> list[str]:
    x = front(kind, n, k)
    ref = np.full(k, 1.1)
    contenders = {"ours": lambda: hypervolume(x, ref)}
    if k >= 6:
        peer = "pygmo"
        contenders[peer] = lambda: pygmo.hypervolume(x).compute(ref)
    else:
        peer = "moocore"
        contenders[peer] = lambda: moocore.hypervolume(x, ref=ref)
        contenders["qhv"] = lambda: hv_qhv(x, ref)
        contenders["wfg"] = lambda: hv_wfg(x, ref)
    if k < 6:  # millisecond calls: more rounds for the same confidence (few seconds)
        rounds = max(rounds, LOW_ROUNDS)
    cpu, wall, results = interleaved(contenders, rounds)
    cells = [kind, str(k), f"{n:,}", exact_method(n, k), str(rounds),
             cell(cpu["ours"], wall["ours"]), f"{peer} {cell(cpu[peer], wall[peer])}",
             ratio(cpu, results, "ours", peer)]
    if k < 6:
        cells += [f"{cell(cpu[name], wall[name])}, {ratio(cpu, results, name, peer)}"
                  for name in ("qhv", "wfg")]
    print("  ", " | ".join(cells), file=sys.stderr, flush=True)
    return cells


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=None, help="cases as KxN, e.g. 8x200")
    parser.add_argument("--kinds", nargs="*", default=list(KINDS))
    args = parser.parse_args(argv)
    if pygmo is None:
        print("pygmo is not installed (pip install pygmo): the 7-10-D rows are skipped")
    cases = [(k, n) for k, n in HIGH + LOW if pygmo is not None or k < 6]
    if args.only:
        cases = [c for c in cases if f"{c[0]}x{c[1]}" in args.only]
    print("# Exact hypervolume, 4 to 10 objectives\n")
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "-", load_line(), "(before)\n")
    started = time.perf_counter()
    high = [row(kind, k, n, args.rounds) for k, n in cases if k >= 6 for kind in args.kinds]
    low = [row(kind, k, n, args.rounds) for k, n in cases if k < 6 for kind in args.kinds]
    head = ["front", "K", "N", "ours: method", "rounds", "ours CPU ms (±IQR) / wall ms",
            "peer CPU ms (±IQR) / wall ms", "ours / peer, CPU (per-round range)"]
    if high:
        print(markdown(head, high) + "\n")
    if low:
        print(markdown(head + ["qhv kernel, / moocore", "wfg kernel, / moocore"], low) + "\n")
    print(f"Volumes agree to {RTOL:g} relative wherever a ratio is printed. "
          f"{time.perf_counter() - started:.0f} s.")
    print(load_line(), "(after)")
    return 0


def markdown(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
