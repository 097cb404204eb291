"""Time the partial-ranking core (task posets + exact ufg depth) and print a markdown table.

    python benchmarks/bench_posets.py            # synthetic shapes of the paper's three studies
    python benchmarks/bench_posets.py --quick    # skip the 11 x 21 cases
    python benchmarks/bench_posets.py --raw-dir DIR   # also the authors' DeepOBS / DMOP tables

Shapes follow papers/partial-rankings-of-optimizers-ufg-depth.txt: DeepOBS (3 methods x 8
tasks, 2 criteria; the authors' R code: ~1 s), DMOP (7 x 13, 4 criteria; ~10 s) and BBOB
(11 x 21, 2 criteria; 7 hours). Criteria are uniform random numbers drawn with a fixed seed
(no ties). Timings follow ``benchmarks/_harness.py``: the exact and the approximate depth
interleaved, one warm-up call each (compilation excluded), CPU ms (±interquartile spread) /
wall ms medians, the machine load printed; there is no peer in this process (the R code's
times are the paper's). The approximate column is ``ufg_depth(exact=False, tolerance=0.01)`` and its
proven error bound. The real tables are the CSVs of the authors' repository (see
shared/datasets-raw/optimizer-benchmarks-posets/PROVENANCE.md); their depths must match the
authors' published summaries, which is checked.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/numba_cache")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np

from benchmarks._harness import interleaved, load_line
from copa_dash.core.posets import task_posets, ufg_depth

SHAPES = [  # label, methods, tasks, criteria, seed, the paper's runtime with the R code
    ("DeepOBS-sized", 3, 8, 2, 0, "~1 s"),
    ("DMOP-sized", 7, 13, 4, 0, "~10 s"),
    ("BBOB-sized", 11, 21, 2, 0, "~7 h"),
    ("BBOB-sized", 11, 21, 3, 0, ""),
    ("BBOB-sized", 11, 21, 4, 0, ""),
]
LARGE = [  # approximate only: exact would enumerate up to 2^60 / 2^200 sets
    ("many tasks", 15, 60, 3, 0),
    ("many tasks", 30, 200, 3, 0),
]
REAL = [  # label, file, separator, decimal, task and method columns, criteria, authors' min, max
    ("DeepOBS (real)", "deepops_Schneideretal_data_test_loss.csv", ";", ",", "Test Problem",
     "Optimizer",
     ["Performance", "Speed"], (0.293838862559242, 0.649289099526066)),
    ("DMOP (real)", "3_stages_DMOP_Wuetal_data_no_std_err.csv", ",", ".", "Test Problem",
     "Optimizer",
     ["MIGD_total", "MIGD_1st_stage", "MIGD_2nd_stage", "MIGD_3rd_stage"],
     (0.172789668572607, 0.390968080293946)),
]


def synthetic_table(n_methods, n_tasks, n_criteria, seed):
    rng = np.random.default_rng(seed)
    crit = rng.random((n_tasks * n_methods, n_criteria))
    methods = np.tile(np.arange(n_methods), n_tasks)
    tasks = np.repeat(np.arange(n_tasks), n_methods)
    return crit, methods, tasks


def row(label, shape, crit, methods, tasks, paper, repeats):
    def run():
        tp = task_posets(crit, method_index=methods, task_index=tasks, missing="drop")
        return tp, ufg_depth(tp.relations)

    tp, _ = run()
    timings, results = interleaved(
        {"exact": run,
         "approx": lambda: ufg_depth(tp.relations, exact=False, tolerance=0.01)},
        repeats=repeats)
    res, approx = results["exact"][1], results["approx"]
    assert np.abs(approx.depths - res.depths).max() <= approx.error_bound + 1e-12
    return (f"| {label} | {shape} | {len(res.counts)} | {res.n_ufg_sets:,} | "
            f"{res.largest_size} | {res.depths.min():.3f} .. {res.depths.max():.3f} | "
            f"{timings['exact'].cell()} | {timings['approx'].cell()} (bound "
            f"{approx.error_bound:.1e}) | {paper} |"), res


def real_rows(raw_dir: Path, repeats: int) -> list[str]:
    import pandas as pd  # benchmarks only; the core never imports pandas

    lines = []
    for label, name, sep, dec, task_col, method_col, cols, (lo, hi) in REAL:
        path = raw_dir / name
        if not path.exists():
            continue
        df = pd.read_csv(path, sep=sep, decimal=dec, encoding="utf-8-sig").dropna(how="all")
        methods = pd.factorize(df[method_col])[0]
        tasks = pd.factorize(df[task_col])[0]
        crit = df[cols].to_numpy(dtype=float)
        line, res = row(label,
                        f"{methods.max() + 1} x {tasks.max() + 1} x {len(cols)}",
                        crit, methods, tasks, "", repeats)
        d = res.observed_depths
        assert abs(d.min() - lo) < 1e-12 and abs(d.max() - hi) < 1e-12, "authors' depths"
        lines.append(line)
    return lines


def bundled_rows(repeats: int) -> list[str]:
    """The shipped optimizer benchmarks, as the app and ``copa-dash depth --dataset`` read them."""
    import pandas as pd  # benchmarks only

    from copa_dash.data.bundled import load_bundled

    lines = []
    for name in ("deepobs", "dmop", "bbob"):
        table, info = load_bundled(name)
        frame = table.frame
        criteria = [o for o in table.roles.objectives if o.name in info.default_view.objectives]
        columns = [o.name for o in criteria]
        frame = frame.dropna(subset=columns)
        method = pd.factorize(frame[table.roles.system])[0]
        task = pd.factorize(frame[table.roles.task])[0]
        values = frame[columns].to_numpy(dtype=float)
        directions = [o.direction for o in criteria]
        values = np.where(np.array(directions) == "max", -values, values)
        line, _ = row(f"bundled `{name}`", f"{method.max() + 1} x {task.max() + 1} x {len(columns)}",
                      values, method, task, "", repeats)
        lines.append(line)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the 11 x 21 shapes")
    parser.add_argument("--raw-dir", type=Path, default=None,
                        help="a folder with the authors' raw DeepOBS / DMOP csv files (optional)")
    args = parser.parse_args()
    header = ("| case | methods x tasks x criteria | distinct posets | ufg sets | largest ufg "
              "set | depth range | exact (CPU ms / wall ms) | approx. tol 0.01 | authors' R code |")
    lines = [header,
             "|---|---|---:|---:|---:|---|---:|---:|---|"]
    for label, n, t, c, seed, paper in SHAPES:
        if args.quick and n > 7:
            continue
        repeats = 5 if n <= 7 else 1
        line, _ = row(label, f"{n} x {t} x {c}", *synthetic_table(n, t, c, seed), paper,
                      repeats)
        lines.append(line)
        print(line, file=sys.stderr)
    for label, n, t, c, seed in ([] if args.quick else LARGE):
        crit, methods, tasks = synthetic_table(n, t, c, seed)
        rel = task_posets(crit, method_index=methods, task_index=tasks, missing="drop").relations
        timings, results = interleaved(
            {"approx": lambda rel=rel: ufg_depth(rel, exact=False, tolerance=0.01, rng=0)},
            repeats=1)
        res = results["approx"]
        line = (f"| {label} | {n} x {t} x {c} | {len(res.counts)} | {res.n_ufg_sets:,} "
                f"enumerated + {res.n_samples:,} sampled | {res.largest_size} | "
                f"{res.depths.min():.3f} .. {res.depths.max():.3f} | - | {timings['approx'].cell()} "
                f"(bound {res.error_bound:.1e} at {res.confidence:.0%}) | |")
        lines.append(line)
        print(line, file=sys.stderr)
    lines += bundled_rows(5)
    if args.raw_dir is not None and args.raw_dir.is_dir():
        lines += real_rows(args.raw_dir, 5)
    print(load_line() + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
