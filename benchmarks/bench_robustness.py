"""Time "How sure is this pick?" (issue 30) and print markdown tables.

    python benchmarks/bench_robustness.py            # everything (about 2 minutes)
    python benchmarks/bench_robustness.py --quick    # fewer rounds, no cold start
    python benchmarks/bench_robustness.py --acceptability-only --p 1 3 inf   # section 1 at each p

1. Rank acceptability, 10,000 Dirichlet(1) weight draws on the Open LLM leaderboard's default
   view (its rows, objectives and p): the compiled kernels against (a) the numpy twins (the same
   pruning and tie rule, vectorised over the draws) and (b) a plain numpy implementation (every
   row's criterion for a batch of draws by broadcasting, then the three smallest by argsort).
   Interleaved, CPU and wall time, machine load; results checked equal (shares exactly) before a
   ratio is printed. Goal: under 0.3 s of CPU once compiled.
2. ``copa-dash robustness`` against ``copa-dash select`` on the same view (child CPU and wall
   time of the whole command, interleaved, warm numba cache). Goal: within 2x.
3. Cold start: the new kernels' compile time with an empty NUMBA_CACHE_DIR, and how long the
   first call takes in the app's background mode (numpy twins answer while they compile).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/numba_cache")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np

from benchmarks._harness import interleaved, load_line, markdown, ratio_cell
from copa_dash.core import _twins_robustness as twins
from copa_dash.core import robustness as core
from copa_dash.core._kernels.criteria import TIE_RTOL
from copa_dash.services import selection

DATASET = "open-llm-leaderboard-v2"
SAMPLES = 10_000


def default_view():
    """u, eligible rows and p of the dataset's default view, as ``select`` builds them."""
    from copa_dash.cli import build_parser
    from copa_dash.cli.preferences import build

    args = build_parser("robustness").parse_args(["robustness", "--dataset", DATASET])
    table, prefs, row_filter = build(args)
    problem = selection.build_problem(table, prefs, row_filter)
    return problem.u, problem.eligible, prefs.p


def shares(top, n_rows):
    rank1 = np.bincount(top[:, 0], minlength=n_rows) / top.shape[0]
    top3 = np.bincount(top[top >= 0], minlength=n_rows) / top.shape[0]
    return rank1, top3


def with_twins(u, eligible, p, weights):
    cand = twins.top_candidates(u, eligible, 3)
    return shares(twins.top_rows(u, cand, weights, p, 3), u.shape[0])


def plain_numpy(u, eligible, p, weights, chunk=64):
    """No pruning, no tie bands: every eligible row's criterion per draw by broadcasting, then
    the three first of a lexicographic sort on (C, C at p = 8, sum of u, table order) - the
    selection rule with exact ties instead of bands of 1e-12."""
    rows = np.flatnonzero(eligible & ~np.isnan(u).any(axis=1))
    y = u[rows]
    sums = y.sum(axis=1)
    top = np.empty((weights.shape[0], 3), dtype=np.int64)

    def norm(x, q):
        if np.isinf(q):
            return x.max(axis=2)
        m = x.max(axis=2, keepdims=True)
        safe = np.where(m == 0, 1.0, m)
        return np.where(m[..., 0] == 0, 0.0, m[..., 0] * ((x / safe) ** q).sum(axis=2) ** (1 / q))

    for lo in range(0, weights.shape[0], chunk):
        x = weights[lo:lo + chunk, None, :] * y[None, :, :]
        c, c8 = norm(x, p), norm(x, 8.0)
        for t in range(x.shape[0]):
            order = np.lexsort((rows, sums, c8[t], c[t]))
            top[lo + t] = rows[order[:3]]
    return shares(top, u.shape[0])


def compiled(u, eligible, p, weights):
    from copa_dash.core._kernels import robustness as kernels

    cand = kernels.top_candidates(u, eligible, 3)
    return shares(kernels.top_rows(u, cand, weights, p, 3), u.shape[0])


def check(ours, other) -> str | None:
    if all(np.array_equal(a, b) for a, b in zip(ours, other)):
        return None
    diff = float(np.abs(ours[0] - other[0]).max())
    return f"rank-1 shares differ by up to {diff:.4f} (ties broken differently)"


def bench_acceptability(repeats, p_override=None) -> str:
    u, eligible, p = default_view()
    if p_override is not None:
        p = p_override
    weights = core.simplex_draws(u.shape[1], SAMPLES, 0)
    timings, results = interleaved({
        "compiled": lambda: compiled(u, eligible, p, weights),
        "numpy twins": lambda: with_twins(u, eligible, p, weights),
        "plain numpy": lambda: plain_numpy(u, eligible, p, weights),
    }, repeats=repeats, budget_seconds=30.0, single_call_seconds=30.0)
    checks = {"numpy twins": check(results["compiled"], results["numpy twins"]),
              "plain numpy": check(results["compiled"], results["plain numpy"])}
    api = core.rank_acceptability(u, p=p, eligible=eligible, samples=SAMPLES, rng=0)
    assert np.array_equal(api.rank1, results["compiled"][0]), "the public function differs"
    cpu = timings["compiled"].cpu_median
    rows = [[name, timings[name].cell(), f"{timings[name].rounds}",
             "-" if name == "compiled" else ratio_cell(timings, "compiled", {name: checks[name]})]
            for name in timings]
    n_rows = int((eligible & ~np.isnan(u).any(axis=1)).sum())
    return (f"Rank acceptability, {SAMPLES:,} draws, {DATASET} default view ({n_rows:,} rows x "
            f"{u.shape[1]} objectives, p = {p}; tie band {TIE_RTOL:g}):\n\n"
            + markdown(["contender", "CPU ms (spread) / wall ms", "rounds", "compiled / it (CPU)"],
                       rows)
            + f"\n\ncompiled: {cpu:.3f} s CPU, goal under 0.3 s: {'met' if cpu < 0.3 else 'NOT met'}")


def _command(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "copa_dash.cli", *argv], capture_output=True,
                         text=True, check=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out.stdout


def bench_cli(repeats) -> str:
    runs = {"select": ["select", "--dataset", DATASET, "--json"],
            "robustness": ["robustness", "--dataset", DATASET, "--json"]}
    times = {name: ([], []) for name in runs}
    outputs = {name: _command(argv)[2] for name, argv in runs.items()}   # warm caches
    for r in range(repeats):
        for name in (list(runs) if r % 2 == 0 else list(runs)[::-1]):
            wall, cpu, _ = _command(runs[name])
            times[name][0].append(wall)
            times[name][1].append(cpu)
    same = json.loads(outputs["robustness"])["pick"] == json.loads(outputs["select"])["id"]
    med = {name: (float(np.median(w)), float(np.median(c))) for name, (w, c) in times.items()}
    ratio = med["robustness"][1] / med["select"][1]
    rows = [[name, f"{1e3 * c:.0f}", f"{1e3 * w:.0f}"] for name, (w, c) in med.items()]
    return ("`copa-dash` commands on the default view (median of "
            f"{repeats}, interleaved; child CPU ms / wall ms; warm numba cache):\n\n"
            + markdown(["command", "CPU ms", "wall ms"], rows)
            + f"\n\nrobustness / select (CPU): {ratio:.2f}, goal within 2x: "
            f"{'met' if ratio <= 2 else 'NOT met'}; same pick: {same}")


COLD = """
import sys, time
from copa_dash.core import jit
jit.configure(mode=sys.argv[1])
from benchmarks.bench_robustness import default_view
from copa_dash.core import robustness as core
u, eligible, p = default_view()
t, c = time.perf_counter(), time.process_time()
core.rank_acceptability(u, p=p, eligible=eligible, samples=10000)
first = (time.perf_counter() - t, time.process_time() - c)
busy = jit.status().busy
jit.wait_idle(600)
print(first[0], first[1], busy, jit.status().seconds)
"""


def bench_cold() -> str:
    lines = []
    for mode in ("foreground", "background"):
        with tempfile.TemporaryDirectory() as cache:
            out = subprocess.run([sys.executable, "-c", COLD, mode], capture_output=True,
                                 text=True, check=True,
                                 env={**os.environ, "NUMBA_CACHE_DIR": cache,
                                      "PYTHONPATH": str(ROOT)})
            wall, cpu, busy, compile_s = out.stdout.split()
            lines.append([mode, f"{float(wall):.2f}", f"{float(cpu):.2f}", busy,
                          f"{float(compile_s):.2f}"])
    return ("Cold start, empty NUMBA_CACHE_DIR, first rank_acceptability (the default view, "
            "10,000 draws):\n\n" + markdown(["mode", "first call wall s", "first call CPU s",
                                      "compiling after it", "compile seconds in all"], lines)
            + "\n\nforeground compiles before answering; background (the app) answers with "
              "the numpy twins and compiles in its thread.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--p", nargs="+", type=float, metavar="P",
                        help="run section 1 at these p instead of the view's (e.g. 1 3 inf)")
    parser.add_argument("--acceptability-only", action="store_true",
                        help="section 1 only (no CLI, no cold start)")
    args = parser.parse_args()
    print(load_line())
    for p in args.p or [None]:
        print(bench_acceptability(3 if args.quick else 7, p))
        print()
    if args.acceptability_only:
        print(load_line())
        return
    print(bench_cli(3 if args.quick else 5))
    if not args.quick:
        print()
        print(bench_cold())
    print(load_line())


if __name__ == "__main__":
    main()
