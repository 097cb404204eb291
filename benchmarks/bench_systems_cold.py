"""Systems' first view on a cold numba cache: this checkout against a git revision, interleaved.

Issue 33, F2: the first Systems view of the fairness Adult/sex upload (12 objectives) took
39.7 s. Each run is a new process with an empty ``NUMBA_CACHE_DIR`` and the server's jit mode
("background": a kernel with a numpy twin answers through the twin while it compiles in a
background thread), which reads the upload as "Save and explore" stores it (the proposal
accepted) and calls ``services.systems.systems_view`` on every objective under the default HV
budget: the call's CPU seconds (its thread) and wall seconds are printed, then the process
ends without waiting for the background compiles. The peer is the package of ``--peer-rev``
(``git archive``), run the same way; the rounds alternate the two, in a rotated order. Both
sides' indicators must be equal (1e-12 relative), else no ratio is printed.

Usage::

    python benchmarks/bench_systems_cold.py [--peer-rev HEAD~1] [--rounds 3] [FILE]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np

from benchmarks._harness import load_line, markdown
from benchmarks._revision_ab import revision_ab_arguments, revision_files

ONE_RUN = """
import json, os, sys, time
from pathlib import Path
from copa_dash.core import jit
jit.configure(mode="background")
from copa_dash.data.io import read_table_report
from copa_dash.data.proposal import prepare_frame, propose
from copa_dash.data.schema import EvalTable
from copa_dash.services.systems import systems_view
read = read_table_report(Path(sys.argv[1]))
proposal = propose(read.frame, units=read.units, labels=read.labels)
roles = proposal.directed_roles()
table = EvalTable(prepare_frame(read.frame, proposal, roles), roles)
cpu, wall = time.thread_time(), time.perf_counter()
view = systems_view(table, hv_budget_seconds=0.5)
cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
ind = view.indicators
print(json.dumps({"cpu": cpu, "wall": wall, "hv": [float(v) for v in ind.hv],
                  "os": [float(v) for v in ind.os], "exact": [not ind.hv_is_estimate(s)
                  for s in range(len(view.systems))]}), flush=True)
os._exit(0)
"""


def one_run(package: Path, table: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(package),
               NUMBA_CACHE_DIR=tempfile.mkdtemp(prefix="copa-numba-cold-"))
    done = subprocess.run([sys.executable, "-c", ONE_RUN, str(table)], env=env, cwd=package,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(done.stderr.strip())
    return json.loads(done.stdout.strip().splitlines()[-1])


def _equal(a: dict, b: dict) -> bool:
    return all(np.allclose(a[key], b[key], rtol=1e-12, atol=0, equal_nan=True)
               for key in ("hv", "os"))


def main(argv=None) -> int:
    parser = revision_ab_arguments(__doc__.split("\n\n")[0], rounds=3)
    args = parser.parse_args(argv)
    print(load_line(), flush=True)
    sides = {"this checkout": ROOT,
             f"peer {args.peer_rev}": revision_files(args.peer_rev, "copa_dash")}
    runs: dict[str, list[dict]] = {name: [] for name in sides}
    for n in range(args.rounds):
        order = list(sides) if n % 2 == 0 else list(sides)[::-1]
        for name in order:
            runs[name].append(one_run(sides[name], args.file.resolve()))
            print(f"  round {n + 1}, {name}: {runs[name][-1]['wall']:.2f} s wall", flush=True)
    first = next(iter(runs.values()))[0]
    equal = all(_equal(first, r) for rs in runs.values() for r in rs)
    head = ["side", "CPU s (median)", "wall s (median)", "wall s (each)", "HV exact for"]
    rows = [[name, f"{statistics.median(r['cpu'] for r in rs):.3f}",
             f"{statistics.median(r['wall'] for r in rs):.3f}",
             ", ".join(f"{r['wall']:.2f}" for r in rs),
             f"{sum(rs[0]['exact'])} of {len(rs[0]['exact'])} systems"]
            for name, rs in runs.items()]
    print(f"\n{args.file.name}: Systems' first view, every objective, cold numba cache")
    print(markdown(head, rows))
    if not equal:
        print("the indicators differ between the sides: no ratio")
        return 1
    this, peer = (statistics.median(r["wall"] for r in rs) for rs in runs.values())
    print(f"indicators equal on both sides (1e-12); wall this / peer = {this / peer:.3f}")
    print(load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
