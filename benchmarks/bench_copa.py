"""Time the COPA core against the obvious alternatives and print markdown tables with ratios.

    python benchmarks/bench_copa.py            # full: up to 1e6 rows, 10,000 alphas
    python benchmarks/bench_copa.py --quick    # under 30 s (numpy side on 500 alphas)

Timing, checks and ratios follow ``benchmarks/_harness.py`` (interleaved repeats, CPU
beside wall time, machine load). ``cdf_transform`` must equal scipy's ranks exactly; the
sweep's pick at every compared alpha must equal the numpy sweep's, or both must be
minimisers of the criterion (a tie each side breaks its own way); otherwise no ratio.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/numba_cache")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import scipy.stats

from benchmarks._harness import interleaved, load_line, markdown, ratio_cell
from copa_dash.core.ranks import cdf_transform
from copa_dash.core.sweep import alpha_sweep


def bench_cdf(sizes, repeats) -> list[str]:
    head = ["rows x 7", "cdf_transform", "scipy rankdata min", "ours / scipy (CPU)"]
    rows = []
    rng = np.random.default_rng(0)
    for n in sizes:
        y = rng.normal(size=(n, 7)).round(3)  # rounding makes ties
        timings, results = interleaved(
            {"ours": lambda y=y: cdf_transform(y),
             "scipy": lambda y=y, n=n: (scipy.stats.rankdata(y, method="min", axis=0) - 1) / n},
            repeats=repeats)
        same = np.array_equal(results["ours"], results["scipy"])
        checks = {"scipy": None if same else "ranks differ"}
        rows.append([f"{n:,}", timings["ours"].cell(), timings["scipy"].cell(),
                     ratio_cell(timings, "ours", checks)])
    return [markdown(head, rows)]


def numpy_sweep(u, focus, p, n_alphas, chunk=64):
    """Plain numpy: the criterion of every row at every alpha by broadcasting, then argmin.

    No tie-breaks (first minimum wins), chunked over alphas to bound memory (A x N x K).
    """
    k = u.shape[1]
    alphas = np.linspace(0.0, 1.0, n_alphas)
    in_focus = np.zeros(k, dtype=bool)
    in_focus[list(focus)] = True
    out = np.empty(n_alphas, dtype=np.int64)
    for start in range(0, n_alphas, chunk):
        a = alphas[start:start + chunk, None]
        w = np.where(in_focus, a / len(focus), (1.0 - a) / (k - len(focus)))  # (c, K)
        x = w[:, None, :] * u[None, :, :]  # (c, N, K)
        c = x.max(axis=2) if math.isinf(p) else (x ** p).sum(axis=2) ** (1.0 / p)
        out[start:start + chunk] = np.argmin(c, axis=1)
    return out


def _criterion(u, focus, p, alphas):
    """Criterion of every row at every alpha (A, N), as the numpy sweep computes it."""
    k = u.shape[1]
    in_focus = np.zeros(k, dtype=bool)
    in_focus[list(focus)] = True
    w = np.where(in_focus, alphas[:, None] / len(focus), (1.0 - alphas[:, None]) / (k - len(focus)))
    x = w[:, None, :] * u[None, :, :]
    return x.max(axis=2) if math.isinf(p) else (x ** p).sum(axis=2) ** (1.0 / p)


def compare_picks(u, focus, p, ours, theirs, alphas) -> tuple[str | None, str]:
    """(None or why they differ, "a same, b tied"). Where the picks differ, both must be
    minimisers of the criterion (a tie numpy breaks by row order, ours by the tie-break
    rules of METHODS.md); any other difference refuses the ratio."""
    differ = np.flatnonzero(ours != theirs)
    if differ.size == 0:
        return None, f"{ours.size} same"
    c = _criterion(u, focus, p, alphas[differ])
    rows = np.arange(differ.size)
    best = c.min(axis=1)
    tied = (np.isclose(c[rows, ours[differ]], best, rtol=1e-12, atol=0)
            & np.isclose(c[rows, theirs[differ]], best, rtol=1e-12, atol=0))
    summary = f"{ours.size - differ.size} same, {int(tied.sum())} tied"
    if tied.all():
        return None, summary
    return f"{int((~tied).sum())} picks differ", summary


def bench_sweep(shapes, n_alphas, n_compare, repeats) -> list[str]:
    """alpha_sweep at ``n_alphas``; both sides at ``n_compare`` alphas for the ratio,
    interleaved, and their picks compared at every one of the ``n_compare`` alphas."""
    head = ["table", "p", f"alpha_sweep, {n_alphas:,} alphas", f"alpha_sweep, {n_compare:,}",
            f"numpy broadcast, {n_compare:,}", "ours / numpy (CPU)", "picks (ours vs numpy)",
            "rows selected"]
    rows = []
    rng = np.random.default_rng(1)
    for n, k in shapes:
        u = cdf_transform(rng.normal(size=(n, k)))
        focus = [0]
        for p in (1.0, 2.0, 8.0, math.inf):
            def ours(count, u=u, focus=focus, p=p):
                return lambda: alpha_sweep(u, focus, p=p, n_alphas=count).selected

            timings, results = interleaved(
                {"ours": ours(n_compare),
                 "numpy": lambda u=u, focus=focus, p=p: numpy_sweep(u, focus, p, n_compare)},
                repeats=repeats)
            full, _ = interleaved({"full": ours(n_alphas)}, repeats=repeats)
            alphas = np.linspace(0.0, 1.0, n_compare)
            why, summary = compare_picks(u, focus, p, np.asarray(results["ours"]),
                                         np.asarray(results["numpy"]), alphas)
            selected = alpha_sweep(u, focus, p=p, n_alphas=n_alphas).rows.size
            rows.append([f"{n:,} x {k}", f"{p:g}", full["full"].cell(), timings["ours"].cell(),
                         timings["numpy"].cell(), ratio_cell(timings, "ours", {"numpy": why}),
                         summary, str(selected)])
    return [markdown(head, rows)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, under 30 s")
    args = parser.parse_args(argv)
    if args.quick:
        sizes, repeats, n_compare = [1_000, 10_000, 100_000], 5, 500
        shapes = [(2_100, 7), (1_000, 8)]
    else:
        sizes, repeats, n_compare = [1_000, 10_000, 100_000, 1_000_000], 9, 10_000
        shapes = [(2_100, 7), (1_000, 8), (20_000, 7)]
    print(f"# COPA core benchmarks ({'quick' if args.quick else 'full'})\n")
    print("Cells: CPU ms (±interquartile spread) / wall ms, medians of interleaved repeats "
          "after one warm-up call each; ratios only where the results agree.")
    print(load_line() + " (before)\n")
    print("## CDF transform vs scipy.stats.rankdata(method='min', axis=0)\n")
    print("\n".join(bench_cdf(sizes, repeats)))
    print("\n## alpha sweep (focus = objective 0) vs plain numpy broadcasting\n")
    print("\n".join(bench_sweep(shapes, 10_000, n_compare, repeats)))
    print("\n" + load_line() + " (after)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
