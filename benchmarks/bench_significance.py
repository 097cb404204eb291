"""Time the Pareto-improvement permutation test against moocore in a Python loop.

    python benchmarks/bench_significance.py            # B = 5,000, K = 2, 3 (+ K = 4 cost)
    python benchmarks/bench_significance.py --quick    # fewer repeats

Design: two sides of 5 seeds x 20 points (simulated_runs: effect 0.05, noise 0.05).
"ours" is pareto_improvement_test (compiled loop over hv2d / hv3d, chunks of 250).
"moocore loop" draws the same permutations and calls moocore.hypervolume on each side's
pooled points from Python: the obvious way to write the test with a trusted HV library.
Both must give the same null distribution. Timings are warm medians (compilation
excluded), interleaved in one process (``benchmarks/_harness.py``), no ratio when the null
distributions differ. Targets on this machine: < 50 ms (K = 2), < 80 ms (K = 3) for B = 5,000.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/numba_cache")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import moocore
import numpy as np

from benchmarks._harness import interleaved, load_line, ratio_cell
from copa_dash.core.significance import CHUNK, pareto_improvement_test, simulated_runs

N_SEEDS, POINTS_PER_RUN, B = 5, 20, 5000


def warm_median(fn, repeats: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``repeats`` calls after one warm-up call.

    Both loops are single-threaded, so on a busy machine the process CPU time is the
    better estimate of the idle wall time.
    """
    fn()
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def moocore_loop(y, run_index, run_side, ref, n_permutations, seed):
    """The same test with moocore.hypervolume per side per permutation, from Python."""
    labels0 = run_side.astype(np.int8)
    rows_of_run = [y[run_index == r] for r in range(run_side.size)]

    def delta(labels):
        sides = [np.vstack([rows_of_run[r] for r in np.flatnonzero(labels == s)]) for s in (0, 1)]
        return moocore.hypervolume(sides[1], ref=ref) - moocore.hypervolume(sides[0], ref=ref)

    generator = np.random.default_rng(seed)
    null = np.empty(n_permutations)
    done = 0
    while done < n_permutations:
        m = min(CHUNK, n_permutations - done)
        for t, labels in enumerate(generator.permuted(np.tile(labels0, (m, 1)), axis=1)):
            null[done + t] = delta(labels)
        done += m
    observed = delta(labels0)
    tol = abs(observed) * 100 * np.finfo(np.float64).eps
    return (1 + np.count_nonzero(np.abs(null) >= abs(observed) - tol)) / (n_permutations + 1), null


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    repeats = 5 if args.quick else 7
    print(f"pareto_improvement_test, 2 sides x {N_SEEDS} seeds x {POINTS_PER_RUN} points, "
          f"B = {B:,}; {os.cpu_count()} cores\n")
    print(load_line() + "\n")
    print("| K | ours CPU ms (±spread) / wall ms | moocore loop | moocore loop / ours (CPU) "
          "| same null |")
    print("|---:|---:|---:|---:|:---:|")
    for k in (2, 3):
        y, run_index, run_side = simulated_runs(
            np.random.default_rng(k), n_seeds=N_SEEDS, points_per_run=POINTS_PER_RUN,
            effect=0.05, noise_sd=0.05, n_objectives=k)
        res = pareto_improvement_test(y, run_index=run_index, run_side=run_side,
                                      n_permutations=B, rng=0)
        p_peer, null_peer = moocore_loop(y, run_index, run_side, res.ref, B, 0)
        same = bool(np.allclose(res.null_distribution, null_peer, rtol=0, atol=1e-12)
                    and res.p_value == p_peer)
        def ours(y=y, run_index=run_index, run_side=run_side):
            return pareto_improvement_test(y, run_index=run_index, run_side=run_side,
                                           n_permutations=B, rng=0)

        def peer(y=y, run_index=run_index, run_side=run_side, ref=res.ref):
            return moocore_loop(y, run_index, run_side, ref, B, 0)

        timings, _ = interleaved({"ours": ours, "moocore loop": peer}, repeats=repeats)
        ratio = ratio_cell(timings, "moocore loop",
                           {"ours": None if same else "null distributions differ"})
        print(f"| {k} | {timings['ours'].cell()} | {timings['moocore loop'].cell()} | "
              f"{ratio} | {'yes' if same else 'NO'} |")

    # K = 4: the general exact hypervolume is called from Python for every side.
    b4 = 100 if args.quick else 250
    y, run_index, run_side = simulated_runs(
        np.random.default_rng(4), n_seeds=N_SEEDS, points_per_run=POINTS_PER_RUN,
        effect=0.05, noise_sd=0.05, n_objectives=4)
    res = pareto_improvement_test(y, run_index=run_index, run_side=run_side,
                                  n_permutations=10, rng=0)
    t4 = warm_median(lambda: pareto_improvement_test(
        y, run_index=run_index, run_side=run_side, n_permutations=b4, rng=0), 1)[1]
    t4_peer = warm_median(lambda: moocore_loop(y, run_index, run_side, res.ref, b4, 0), 1)[1]
    print(f"\nK = 4 (CPU): {t4 / b4 * 1e3:.2f} ms per permutation with ours "
          f"(B = 5,000: about {t4 / b4 * B:.1f} s); moocore loop "
          f"{t4_peer / b4 * 1e3:.2f} ms per permutation (about {t4_peer / b4 * B:.1f} s).")
    print("\n" + load_line() + " (after)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
