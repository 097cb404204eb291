"""Time the upload path and the reopen path of a 100,000 x 10 table.

First view (budget 3 s): read_table on the CSV bytes + DatasetStore.save (which
validates with build_eval_table, hashes the content and writes Parquet + sidecar).
build_eval_table is also timed alone, to show its share of save.
Reopen (budget 200 ms): DatasetStore.load + an AnalysisCache hit of the table's CDF
transform (a 100,000 x 6 float array, the largest per-dataset result the pages reuse).

Run: ``python benchmarks/bench_upload.py [--rows 100000] [--repeat 5]``. Prints, per step,
the median CPU time of this process (``process_time``) with its spread (interquartile range
over the median, ``benchmarks/_harness.py``) beside the median wall time, over ``repeat``
runs each on a fresh store and cache, and the machine's load before and after. Every run
checks its results before any time is printed: the reopened table's objective values equal
the uploaded ones exactly, and the cached u equals ``cdf_transform`` of the reopened table
computed directly.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._harness import Timing, fmt_ms, load_line, markdown
from copa_dash.data.io import build_eval_table, read_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services.cache import AnalysisCache, DiskBackend
from copa_dash.services.store import DatasetStore

N_OBJECTIVES = 6
BUDGET_FIRST_VIEW = 3.0
BUDGET_REOPEN = 0.2


def make_csv(n_rows: int, seed: int = 0) -> bytes:
    """10 columns: model id, 6 numeric objectives (with ties), 3 text metadata columns."""
    rng = np.random.default_rng(seed)
    columns = {"model": np.char.add("model-", np.arange(n_rows).astype(str))}
    for k in range(N_OBJECTIVES):
        columns[f"obj{k}"] = np.round(rng.random(n_rows) * 1000) / 1000
    columns["family"] = rng.choice(["cnn", "vit", "mlp", "rnn"], n_rows)
    columns["dataset"] = rng.choice([f"task{i}" for i in range(20)], n_rows)
    columns["note"] = rng.choice(["", "baseline", "tuned", "=suspicious"], n_rows)
    header = ",".join(columns)
    rows = zip(*(values.astype(str) if values.dtype.kind != "U" else values
                 for values in columns.values()))
    return (header + "\n" + "\n".join(",".join(row) for row in rows) + "\n").encode()


def roles() -> Roles:
    objectives = tuple(Objective(f"obj{k}", "min" if k % 2 else "max")
                       for k in range(N_OBJECTIVES))
    return Roles("model", objectives, metadata=("family", "dataset", "note"))


def cdf_of(table):
    from copa_dash.core.ranks import cdf_transform

    return cdf_transform(table.matrix(), list(table.directions))


class Steps:
    """Wall and CPU seconds of named steps, and of named sums of steps."""

    def __init__(self):
        self.times: dict[str, tuple[float, float]] = {}

    def run(self, name: str, func):
        wall, cpu = time.perf_counter(), time.process_time()
        value = func()
        self.times[name] = (time.perf_counter() - wall, time.process_time() - cpu)
        return value

    def total(self, name: str, *parts: str) -> None:
        self.times[name] = tuple(sum(self.times[p][i] for p in parts) for i in (0, 1))


def one_run(data: bytes, work: Path) -> dict[str, tuple[float, float]]:
    """One upload and reopen on a fresh store and cache: (wall, CPU) seconds per step.

    Raises
    ------
    SystemExit
        When a result is not the expected one (no time is then reported).
    """
    steps = Steps()
    frame = steps.run("read_table", lambda: read_table(data, filename="bench.csv"))
    table = steps.run("build_eval_table (alone)", lambda: build_eval_table(frame, roles()))
    store = DatasetStore(work / "store")
    dataset_id = steps.run("store.save (validate+hash+write)",
                           lambda: store.save(frame, roles(), name="bench")).id
    steps.total("FIRST VIEW = read_table + save", "read_table", "store.save (validate+hash+write)")

    cache = AnalysisCache(DiskBackend(work / "cache", size_limit=2**30), version="bench")
    steps.run("cache miss (cdf_transform + store)",
              lambda: cache.memoize("cdf_transform", dataset_id, {}, lambda: cdf_of(table)))
    loaded = steps.run("store.load", lambda: store.load(dataset_id))
    u = steps.run("cache hit", lambda: cache.memoize("cdf_transform", dataset_id, {},
                                                      lambda: None))
    steps.total("REOPEN = load + cache hit", "store.load", "cache hit")
    hits = cache.hits
    cache.close()
    if u is None or hits != 1:
        raise SystemExit("the reopen did not hit the analysis cache")
    if not np.array_equal(loaded.matrix(), table.matrix(), equal_nan=True):
        raise SystemExit("the reopened table's objective values differ from the uploaded ones")
    if not np.array_equal(u, cdf_of(loaded), equal_nan=True):
        raise SystemExit("the cached u differs from cdf_transform of the reopened table")
    return steps.times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    print("before: " + load_line())
    data = make_csv(args.rows)
    # Compile the numba kernels once, as the app's warm-up does at start-up.
    with tempfile.TemporaryDirectory() as warm:
        one_run(make_csv(50), Path(warm))
    runs = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as work:
            runs.append(one_run(data, Path(work)))
    print("after: " + load_line())
    print(f"upload of {args.rows:,} rows x 10 columns ({len(data) / 2**20:.1f} MiB CSV), "
          f"{args.repeat} runs; results checked in every run (values, u)")
    timings = {step: Timing(wall=[run[step][0] for run in runs], cpu=[run[step][1] for run in runs])
               for step in runs[0]}
    print(markdown(["step", "CPU ms (spread) / wall ms, medians"],
                   [[step, timing.cell()] for step, timing in timings.items()]))
    verdicts = [("first view", timings["FIRST VIEW = read_table + save"], BUDGET_FIRST_VIEW),
                ("reopen", timings["REOPEN = load + cache hit"], BUDGET_REOPEN)]
    for label, timing, budget in verdicts:
        state = "within" if timing.wall_median <= budget else "OVER"
        print(f"{label}: median wall {fmt_ms(timing.wall_median)} ms (CPU "
              f"{fmt_ms(timing.cpu_median)} ms), {state} the budget of {budget * 1e3:.0f} ms")
    return 0 if all(t.wall_median <= budget for _, t, budget in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
