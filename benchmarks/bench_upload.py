"""Time the upload path and the reopen path of a 100,000 x 10 table.

First view (budget 3 s): read_table on the CSV bytes + DatasetStore.save (which
validates with build_eval_table, hashes the content and writes Parquet + sidecar).
build_eval_table is also timed alone, to show its share of save.
Reopen (budget 200 ms): DatasetStore.load + an AnalysisCache hit of the table's CDF
transform (a 100,000 x 6 float array, the largest per-dataset result the pages reuse).

Run: ``python benchmarks/bench_upload.py [--rows 100000] [--repeat 3]``. Prints a table
of the best and median of ``repeat`` runs, each on a fresh store and cache.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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


def one_run(data: bytes, work: Path) -> dict[str, float]:
    times = {}
    start = time.perf_counter()
    frame = read_table(data, filename="bench.csv")
    times["read_table"] = time.perf_counter() - start

    start = time.perf_counter()
    table = build_eval_table(frame, roles())
    times["build_eval_table (alone)"] = time.perf_counter() - start

    store = DatasetStore(work / "store")
    start = time.perf_counter()
    dataset_id = store.save(frame, roles(), name="bench")
    times["store.save (validate+hash+write)"] = time.perf_counter() - start
    times["FIRST VIEW = read_table + save"] = times["read_table"] + times[
        "store.save (validate+hash+write)"]

    cache = AnalysisCache(DiskBackend(work / "cache", size_limit=2**30), version="bench")
    start = time.perf_counter()
    cache.memoize("cdf_transform", dataset_id, {}, lambda: cdf_of(table))
    times["cache miss (cdf_transform + store)"] = time.perf_counter() - start

    reopen = time.perf_counter()
    loaded = store.load(dataset_id)
    times["store.load"] = time.perf_counter() - reopen
    start = time.perf_counter()
    u = cache.memoize("cdf_transform", dataset_id, {}, lambda: None)
    times["cache hit"] = time.perf_counter() - start
    times["REOPEN = load + cache hit"] = time.perf_counter() - reopen
    assert u is not None and u.shape == (loaded.n_rows, N_OBJECTIVES) and cache.hits == 1
    cache.close()
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    data = make_csv(args.rows)
    # Compile the numba kernels once, as the app's warm-up does at start-up.
    with tempfile.TemporaryDirectory() as warm:
        one_run(make_csv(50), Path(warm))
    runs = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as work:
            runs.append(one_run(data, Path(work)))

    print(f"upload of {args.rows:,} rows x 10 columns ({len(data) / 2**20:.1f} MiB CSV), "
          f"{args.repeat} runs")
    print(f"{'step':<38}{'best [ms]':>12}{'median [ms]':>14}")
    for step in runs[0]:
        values = [run[step] for run in runs]
        print(f"{step:<38}{min(values) * 1e3:>12.1f}{statistics.median(values) * 1e3:>14.1f}")
    first = statistics.median(run["FIRST VIEW = read_table + save"] for run in runs)
    reopen = statistics.median(run["REOPEN = load + cache hit"] for run in runs)
    verdicts = [("first view", first, BUDGET_FIRST_VIEW), ("reopen", reopen, BUDGET_REOPEN)]
    for label, value, budget in verdicts:
        state = "within" if value <= budget else "OVER"
        print(f"{label}: median {value * 1e3:.0f} ms, {state} the budget of {budget * 1e3:.0f} ms")
    return 0 if all(value <= budget for _, value, budget in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
