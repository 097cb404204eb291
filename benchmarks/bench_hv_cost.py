"""Measure what an exact hypervolume costs, K = 4..10, and fit the exact / Monte-Carlo cost model.

    python benchmarks/bench_hv_cost.py            # sphere and random rows, K = 4..10 (a few minutes)
    python benchmarks/bench_hv_cost.py --k 6 7    # some K only

``copa_dash.core.hypervolume.hypervolume_auto`` computes the exact value when
``exact_cost_seconds(n_front, K)`` predicts at most its budget (0.5 s by default) and a
Monte-Carlo estimate otherwise. That prediction is a power law per K,
``t(n) = t100 * (n / 100) ** e`` in the number n of distinct non-dominated rows inside
the reference box (the ``_EXACT_COST`` table). This script times the exact computation the
app runs (:func:`copa_dash.core.hypervolume.hypervolume` on that front: moocore's
recursion or the WFG kernel, whichever ``exact_method`` picks) on

- ``sphere``: n rows on the positive unit sphere (every row on the front), ref 1.1;
- ``random``: M rows uniform in [0, 1]^K, ref 1.1 (the front is the rows' own front,
  n < M; the time is set against n),

for front sizes growing by a factor sqrt(2) until one call takes over ``--stop`` seconds
of CPU time. Each size: one warm-up call (numba compilation excluded), then the median
CPU time of 3 to 7 calls (fewer when they add up to over 1 s). The fit per K is least
squares of log t on log n over the sphere sizes that took at least 10 ms (below that,
timer and call overheads dominate and the budget is far); sphere fronts are the slow case
at a given front size, so the model is meant as an upper bound. The table prints how far
each measured time is from the fit (measured / predicted: above 1 the model errs towards
exact, below 1 towards Monte-Carlo) and what the model in ``hypervolume.py`` predicts.
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

import numpy as np

from benchmarks._harness import load_line, markdown
from copa_dash.core import hypervolume as hv
from copa_dash.core._kernels import hypervolume as hv_kernels

FIT_FROM_SECONDS = 0.01
START_ROWS = {4: 100, 5: 50, 6: 20, 7: 20, 8: 10, 9: 10, 10: 10}


def sphere(n: int, k: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed + 100 * k + n)
    x = np.abs(rng.standard_normal((n, k)))
    return np.ascontiguousarray(x / np.linalg.norm(x, axis=1, keepdims=True))


def random_front(m: int, k: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed + 100 * k + m)
    x = rng.random((m, k))
    return np.ascontiguousarray(hv_kernels.unique_front(x))


def cpu_median(func, max_calls: int = 7, enough_seconds: float = 1.0) -> tuple[float, int]:
    """Median CPU seconds of 3..max_calls calls (stops early past ``enough_seconds``)."""
    func()                                     # warm-up: compilation, caches
    times = []
    while len(times) < max_calls:
        start = time.process_time()
        func()
        times.append(time.process_time() - start)
        if len(times) >= 3 and sum(times) > enough_seconds or times[-1] > enough_seconds:
            break
    return statistics.median(times), len(times)


def measure(k: int, kind: str, stop_seconds: float, max_rows: int) -> list[tuple]:
    """(kind, K, rows given, front rows, method, CPU s, calls) for growing sizes."""
    out = []
    size = float(START_ROWS[k] if kind == "sphere" else 2 * START_ROWS[k])
    ref = np.full(k, 1.1)
    while size <= max_rows:
        m = round(size)
        front = sphere(m, k) if kind == "sphere" else random_front(m, k)
        n = front.shape[0]
        seconds, calls = cpu_median(lambda f=front: hv.hypervolume(f, ref))
        out.append((kind, k, m, n, hv.exact_method(n, k), seconds, calls))
        print(f"  {kind} K={k} rows={m} front={n} {hv.exact_method(n, k)}: "
              f"{seconds * 1e3:.2f} ms ({calls} calls)", file=sys.stderr, flush=True)
        if seconds > stop_seconds:
            break
        size *= 2 ** 0.5 if kind == "sphere" else 2.0
    return out


def fit(rows: list[tuple]) -> tuple[float, float] | None:
    """(t100, e) of ``t = t100 (n / 100)^e`` by least squares in log-log, or None.

    Fitted to the sphere rows only: at the same front size they are the slow case (random
    fronts of 8-10 objectives run 3-30x faster, a pooled fit was off by 10x both ways),
    and a budget is an upper bound, so the model predicts the hard case.
    """
    pts = [(n, t) for kind, _, _, n, _, t, _ in rows
           if kind == "sphere" and t >= FIT_FROM_SECONDS and n >= 2]
    if len({n for n, _ in pts}) < 2:
        return None
    logn = np.log([n / 100.0 for n, _ in pts])
    logt = np.log([t for _, t in pts])
    e, log_t100 = np.polyfit(logn, logt, 1)
    return float(np.exp(log_t100)), float(e)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, nargs="*", default=list(range(4, 11)))
    parser.add_argument("--stop", type=float, default=1.0,
                        help="stop a series after a call over this many CPU seconds")
    parser.add_argument("--max-rows", type=int, default=200_000)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    print("# Exact hypervolume cost (CPU time of copa_dash.core.hypervolume.hypervolume)\n")
    print(load_line() + " (before)\n")
    rows, fits = [], {}
    for k in args.k:
        series = measure(k, "sphere", args.stop, args.max_rows)
        series += measure(k, "random", args.stop, args.max_rows)
        rows += series
        fits[k] = fit(series)
    table = []
    for kind, k, m, n, method, seconds, calls in rows:
        model = fits.get(k)
        predicted = model[0] * (n / 100.0) ** model[1] if model else float("nan")
        table.append([kind, str(k), f"{m:,}", f"{n:,}", method, f"{seconds * 1e3:.2f}",
                      str(calls), f"{seconds / predicted:.2g}" if model else "-",
                      f"{hv.exact_cost_seconds(n, k) * 1e3:.2f}"])
    print(markdown(["data", "K", "rows", "front rows", "method", "CPU ms", "calls",
                    "measured / sphere fit", "model in hypervolume.py, ms"], table))
    print("\nFits t = t100 * (n / 100)^e over the sizes of at least "
          f"{FIT_FROM_SECONDS * 1e3:.0f} ms:")
    for k, model in fits.items():
        if model is None:
            print(f"  K={k}: too few sizes over {FIT_FROM_SECONDS * 1e3:.0f} ms to fit")
        else:
            rows_half = 100.0 * (0.5 / model[0]) ** (1.0 / model[1])
            print(f"  K={k}: ({model[0]:.3g}, {model[1]:.2f})  -> 0.5 s at about "
                  f"{rows_half:,.0f} front rows")
    print("\n" + load_line() + " (after)")
    print(f"Total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
