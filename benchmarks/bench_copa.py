"""Time the COPA core against the obvious alternatives and print markdown tables with ratios.

    python benchmarks/bench_copa.py            # full: up to 1e6 rows, 10,000 alphas
    python benchmarks/bench_copa.py --quick    # under 30 s (numpy side on 500 alphas)

Every timing is warm (one call first, so compilation is excluded) and is the median of
several repeats. Each comparison also checks that both sides give the same answer.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/numba_cache")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import scipy.stats

from copa_dash.core.criteria import copa_select, weights_from_alpha
from copa_dash.core.ranks import cdf_transform
from copa_dash.core.sweep import alpha_sweep


def warm_median(fn, repeats: int) -> float:
    """Median wall time in seconds of ``repeats`` calls after one warm-up call."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f}"


def bench_cdf(sizes, repeats) -> list[str]:
    lines = ["| rows x 7 | cdf_transform (ms) | scipy rankdata min (ms) | scipy / ours |",
             "|---:|---:|---:|---:|"]
    rng = np.random.default_rng(0)
    for n in sizes:
        y = rng.normal(size=(n, 7)).round(3)  # rounding makes ties
        ours = cdf_transform(y)
        theirs = (scipy.stats.rankdata(y, method="min", axis=0) - 1) / n
        assert np.array_equal(ours, theirs), "cdf_transform disagrees with scipy"
        reps = max(1, repeats // (1 + n // 100_000))
        t_ours = warm_median(lambda y=y: cdf_transform(y), reps)
        t_scipy = warm_median(
            lambda y=y, n=n: (scipy.stats.rankdata(y, method="min", axis=0) - 1) / n, reps)
        lines.append(f"| {n:,} | {fmt_ms(t_ours)} | {fmt_ms(t_scipy)} | "
                     f"{t_scipy / t_ours:.1f}x |")
    return lines


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


def bench_sweep(shapes, n_alphas, n_compare, repeats) -> list[str]:
    """alpha_sweep at ``n_alphas``; both sides at ``n_compare`` alphas for the ratio."""
    header = (f"| table | p | alpha_sweep, {n_alphas:,} alphas (ms) | alpha_sweep, {n_compare:,} "
              f"(ms) | numpy broadcast, {n_compare:,} (ms) | numpy / ours | rows selected "
              "| agrees with copa_select |")
    lines = [header, "|---|---:|---:|---:|---:|---:|---:|---|"]
    rng = np.random.default_rng(1)
    for n, k in shapes:
        u = cdf_transform(rng.normal(size=(n, k)))
        focus = [0]
        for p in (1.0, 2.0, 8.0, math.inf):
            result = alpha_sweep(u, focus, p=p, n_alphas=n_alphas)
            step = max(1, n_alphas // 200)  # spot-check 200 alphas against copa_select
            agree = all(result.selected[t] == copa_select(
                u, weights_from_alpha(k, focus, result.alphas[t]), p=p)
                for t in range(0, n_alphas, step))
            def ours(count, u=u, focus=focus, p=p):
                return lambda: alpha_sweep(u, focus, p=p, n_alphas=count)

            t_full = warm_median(ours(n_alphas), repeats)
            t_ours = warm_median(ours(n_compare), repeats)
            t_np = warm_median(lambda u=u, focus=focus, p=p: numpy_sweep(u, focus, p, n_compare), 1)
            lines.append(f"| {n:,} x {k} | {p:g} | {fmt_ms(t_full)} | {fmt_ms(t_ours)} | "
                         f"{fmt_ms(t_np)} | {t_np / t_ours:.0f}x | {result.rows.size} | "
                         f"{'yes' if agree else 'NO'} |")
    return lines


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
    print(f"# COPA core benchmarks ({'quick' if args.quick else 'full'}; warm, median of "
          f"repeats; {os.cpu_count()} cores)\n")
    print("## CDF transform vs scipy.stats.rankdata(method='min', axis=0)\n")
    print("\n".join(bench_cdf(sizes, repeats)))
    print("\n## alpha sweep (focus = objective 0) vs plain numpy broadcasting\n")
    print("\n".join(bench_sweep(shapes, 10_000, n_compare, repeats)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
