"""A notebook's first call of each function on an empty numba cache: CPU and wall time.

Each case runs in a fresh Python process with a fresh ``NUMBA_CACHE_DIR``, as a new
notebook kernel on a new machine does, in two variants, alternated round by round:

* ours, the notebook's default (``copa_dash/notebook_compile.py``): the numpy twins answer
  and the kernels are handed to a detached compile process (stopped here: the lock is
  reported taken, so its CPU does not land on the other variant's measurement);
* peer: ``COPA_JIT_MODE=foreground``, numba compiles what the call needs before answering
  (what the notebook API did before).

CPU is the process's own user + system time (every thread), taken with getrusage before and
after the call; the import of the notebook API is reported apart, and so is the whole
process's CPU (interpreter start, imports, data, calls). The two variants' answers
are compared before a ratio is printed (picks, rankings and ids exactly; numbers to the
selection's tie tolerance, 1e-12 relative). The machine's load is printed before and after.

Usage::

    python benchmarks/bench_notebook_first_call.py [--repeats 1] [--cases select,hypervolume]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SETUP = """
import json, resource, sys, time
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
from copa_dash.cli import kernel_compile
kernel_compile._take_lock = lambda: False   # no detached compile during the measurement
c0 = cpu()
import numpy as np, pandas as pd
import copa_dash
from copa_dash import notebook
c_import = cpu() - c0
rng = np.random.default_rng(0)
df = pd.DataFrame(rng.random((1000, 3)), columns=["acc", "co2", "latency"],
                  index=[f"m{i}" for i in range(1000)])
obj = {"acc": "max", "co2": "min", "latency": "min"}
SYSTEMS = dict(baseline=["SVM", "LR"], candidate=["Feldman-SVM", "Feldman-LR"])
out = {"import_cpu": c_import, "calls": []}
for name, call in CALLS:
    c, w = cpu(), time.perf_counter()
    result = call()
    out["calls"].append({"name": name, "cpu": cpu() - c, "wall": time.perf_counter() - w,
                         "answer": result})
out["process_cpu"] = cpu()   # everything since the interpreter started
print(json.dumps(out))
"""

CASES = {
    "select": 'lambda: [copa_dash.select(df, obj).pick, copa_dash.select(df, obj).score]',
    "rank": 'lambda: list(copa_dash.rank(df, obj, top=20).table.index)',
    "sweep": 'lambda: list(map(str, copa_dash.sweep(df, obj, focus="co2", alphas=500).selected))',
    "front": 'lambda: copa_dash.front(df, obj).ids',
    "hypervolume (3-D)": 'lambda: float(copa_dash.hypervolume(df, obj))',
    "indicators": ('lambda: copa_dash.indicators("fairness-adult-sex").table.round(12)'
                   '.to_json()'),
    "significance": ('lambda: copa_dash.significance("fairness-adult-sex", permutations=300,'
                     ' **SYSTEMS).p_value'),
}
# the target: a fresh kernel's select, then a 3-D hypervolume
SCENARIO = ("select + hypervolume", ["select", "hypervolume (3-D)"])
VARIANTS = {"ours": None, "peer (foreground)": "foreground"}


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (1 min) / {five:.2f} (5 min) on {os.cpu_count()} CPUs"


def run(names, mode) -> dict:
    calls = ",".join(f"({n!r}, {CASES[n]})" for n in names)
    code = f"CALLS = [{calls}]\n{SETUP}"
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": cache}
        env.pop("COPA_JIT_MODE", None)
        if mode:
            env["COPA_JIT_MODE"] = mode
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, check=False, timeout=1800)
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--cases", default=",".join(CASES),
                        help="comma-separated names (default: all)")
    args = parser.parse_args(argv)
    cases = [(n, [n]) for n in args.cases.split(",")] + [SCENARIO]
    print(load())
    rows = []
    for label, names in cases:
        figures = {v: {"cpu": [], "wall": [], "import": [], "total": [], "answers": None}
                   for v in VARIANTS}
        for r in range(args.repeats):
            order = list(VARIANTS) if r % 2 == 0 else list(reversed(VARIANTS))
            for variant in order:
                result = run(names, VARIANTS[variant])
                fig = figures[variant]
                fig["cpu"].append(sum(c["cpu"] for c in result["calls"]))
                fig["wall"].append(sum(c["wall"] for c in result["calls"]))
                fig["import"].append(result["import_cpu"])
                fig["total"].append(result["process_cpu"])
                fig["answers"] = [c["answer"] for c in result["calls"]]
        ours, peer = figures["ours"], figures["peer (foreground)"]
        agree = same(ours["answers"], peer["answers"])
        row = (label, statistics.median(ours["import"]), statistics.median(ours["cpu"]),
               statistics.median(ours["wall"]), statistics.median(peer["cpu"]),
               statistics.median(peer["wall"]), statistics.median(ours["total"]),
               statistics.median(peer["total"]),
               f"{statistics.median(peer['cpu']) / max(statistics.median(ours['cpu']), 1e-3):.0f}x"
               if agree else "refused: answers differ")
        rows.append(row)
        print(" | ".join(str(round(v, 2)) if isinstance(v, float) else str(v) for v in row),
              flush=True)
    print()
    print("| first call (fresh process, empty cache) | import CPU s | ours CPU s | ours wall s "
          "| foreground CPU s | foreground wall s | process CPU s, ours | process CPU s, "
          "foreground | CPU peer/ours |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(f"{v:.2f}" if isinstance(v, float) else str(v) for v in row)
              + " |")
    print(f"\n{args.repeats} round(s), medians; {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
