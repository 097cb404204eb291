"""Opening an upload per request: a new store handle and two record reads (before) against the
kept handle and one record read (now), interleaved in one process.

What a slider move on an upload pays before the explorer runs: ``catalog.open_dataset(id)``.
"before" rebuilds what every request built until the handle was kept (a new
``DatasetStore``: fsspec set-up, three ``makedirs``, the format check) and reads the record
twice (``load`` then ``info``); "now" is ``open_dataset`` as it is. Both return the same table
and name (checked). On a local disk the difference is small; on S3 each ``makedirs`` and
record read is a request.

    python benchmarks/bench_store_handle.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._harness import interleaved, load_line, markdown
from copa_dash.config import Settings
from copa_dash.services import catalog, store
from copa_dash.services.inputs import Objective, Roles


def _before(settings, dataset):
    fresh = store.DatasetStore(settings.store_url, admin_token=settings.admin_token)
    table = fresh.load(dataset)
    info = fresh.info(dataset)
    return table, info.get("name")


def _now(settings, dataset):
    opened = catalog.open_dataset(dataset, settings)
    return opened.table, opened.title


def main() -> int:
    print(load_line())
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder) / "data", cache_dir=Path(folder) / "cache")
        rng = np.random.default_rng(0)
        frame = pd.DataFrame({"m": [f"m{i}" for i in range(3000)], "acc": rng.random(3000),
                              "cost": rng.random(3000), "co2": rng.random(3000)})
        roles = Roles("m", (Objective("acc", "max"), Objective("cost", "min"),
                            Objective("co2", "min")))
        dataset = store.open_store(settings).save(frame, roles, name="bench", shared=True).id
        timings, results = interleaved({"before": lambda: _before(settings, dataset),
                                        "now": lambda: _now(settings, dataset)},
                                       repeats=41, min_cpu_seconds=0.5)
        same = (results["before"][0] is results["now"][0]            # the kept table
                and results["before"][1] == results["now"][1])
        ratio = timings["now"].cpu_median / timings["before"].cpu_median
        print(markdown(["open an upload (3,000 x 3)", "before: cpu ms / wall ms",
                        "now: cpu ms / wall ms", "now / before (CPU)"],
                       [["local store", timings["before"].cell(), timings["now"].cell(),
                         f"{ratio:.2f}" if same else "refused (results differ)"]]))
    print(load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
