"""The kernels whose inner loops moved into shared helpers, timed against a peer checkout.

    python benchmarks/bench_kernel_loops.py --peer /path/to/checkout/before [--rounds 5]

Each round runs one process of this checkout and one of the peer, alternating (ours first on
even rounds), each process compiling or loading its kernels, then timing every case a few
times and printing its best CPU and wall time and a digest of its result. The table gives,
per case, the median over rounds of each side's best time, their ratio (ours / peer), and
whether the results are the same to 1e-10 (they must be: the helpers change no arithmetic;
ufg depth's own sums vary in their last bits from run to run with the chunks' timing). Machine
load is printed before and after. Cases: the 3-D front (dominance.nondominated_mask_3d,
tie_run_end), the alpha sweep (row_le, row_has_nan, criteria_and_band_limit), COPA scores
with tie-breaks (pick_from_band), the elicitation's next question and answer update
(half_exp_clipped), the permutation test (the HV difference) and ufg depth (_workspace).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPEATS = 3


def _cases():
    import numpy as np

    from copa_dash.core import elicitation
    from copa_dash.core._kernels.dominance import nondominated_mask_3d
    from copa_dash.core.criteria import copa_select
    from copa_dash.core.posets import task_posets
    from copa_dash.core.significance import pareto_improvement_test
    from copa_dash.core.sweep import alpha_sweep
    from copa_dash.core.ufg_depth import ufg_depth

    rng = np.random.default_rng(7)
    pts3 = np.round(rng.random((200_000, 3)), 3)
    pts3[:, 2] = 1.0 - pts3[:, 0] - pts3[:, 1] + np.round(rng.random(200_000), 2) * 0.1
    u = rng.random((4_000, 4))
    u[rng.random(4_000) < 0.01, 1] = np.nan
    u_small = rng.random((30, 3))
    runs = rng.random((400, 2))
    run_index = np.repeat(np.arange(40), 10)
    run_side = (np.arange(40) % 2).astype(int)
    crit = rng.integers(0, 5, size=(7 * 80, 2)).astype(float)
    methods = np.tile(np.arange(7), 80)
    tasks = np.repeat(np.arange(80), 7)

    def eliciting():
        state = elicitation.start(u_small)
        for _ in range(3):
            q = elicitation.next_question(state)
            state = elicitation.add_answer(state, q.a, q.b, "a")
        return state.log_mass

    return {
        "front 3-D, 200k rows with ties": lambda: nondominated_mask_3d(pts3),
        "alpha sweep, 4k rows x 4, 400k alphas": lambda: alpha_sweep(
            u, [0, 1], p=2.0, n_alphas=400_000).selected,
        "copa_select x 200 (tie-breaks)": lambda: np.array(
            [copa_select(np.round(u * 8) / 8, np.full(4, 0.25), p=p) for p in
             np.linspace(1, 20, 200)], dtype=float),
        "elicitation, 3 questions": eliciting,
        "permutation test, 40 runs, 2000 perms": lambda: pareto_improvement_test(
            runs, run_index=run_index, run_side=run_side, n_permutations=2000, rng=1).delta,
        "ufg depth, 80 tasks x 7 methods": lambda: ufg_depth(task_posets(
            crit, method_index=methods, task_index=tasks).relations, workers=1).depths,
    }


def _digest(value) -> str:
    import numpy as np
    # to 1e-10: ufg depth adds its chunks' sums in an order the chunks' timing decides
    arr = np.round(np.asarray(value, dtype=float), 10) + 0.0
    return hashlib.sha256(np.ascontiguousarray(arr).tobytes()).hexdigest()[:16]


def child(only: str = "") -> None:
    """Time every case (whose name contains ``only``) in this process; print one JSON line."""
    out = {}
    for name, case in _cases().items():
        if only not in name:
            continue
        result = case()  # compile or load
        cpu, wall = [], []
        for _ in range(REPEATS):
            c0, w0 = time.process_time(), time.perf_counter()
            result = case()
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
        out[name] = {"cpu": min(cpu), "wall": min(wall), "digest": _digest(result)}
    print(json.dumps(out))


def _run(checkout: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    env.setdefault("NUMBA_CACHE_DIR", "/tmp/copa_numba_cache")
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child"],
                          cwd=checkout, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer", type=Path, help="the checkout to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", help="time only the cases whose name contains this")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(os.environ.get("BENCH_ONLY", ""))
        return 0
    os.environ["BENCH_ONLY"] = args.only or ""
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    ours, peer = [], []
    for r in range(args.rounds):
        pair = [(ours, ROOT), (peer, args.peer)]
        for into, checkout in (pair if r % 2 == 0 else pair[::-1]):
            into.append(_run(checkout))
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print("| case | ours CPU s | peer CPU s | CPU ratio | ours wall s | peer wall s | same |")
    print("|---|---|---|---|---|---|---|")
    for name in ours[0]:
        o_cpu = statistics.median(run[name]["cpu"] for run in ours)
        p_cpu = statistics.median(run[name]["cpu"] for run in peer)
        o_wall = statistics.median(run[name]["wall"] for run in ours)
        p_wall = statistics.median(run[name]["wall"] for run in peer)
        same = {run[name]["digest"] for run in ours + peer}
        print(f"| {name} | {o_cpu:.4f} | {p_cpu:.4f} | {o_cpu / p_cpu:.2f} | {o_wall:.4f} | "
              f"{p_wall:.4f} | {'yes' if len(same) == 1 else 'NO'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
