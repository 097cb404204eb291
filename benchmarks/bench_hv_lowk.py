"""4-D and 5-D exact hypervolume: ours (moocore's C code after one validation) against moocore.

    python benchmarks/bench_hv_lowk.py

For K = 4 and 5 :func:`copa_dash.core.hypervolume.hypervolume` validates the rows once
(``oriented_view``: no copy of a C-contiguous float64 input, one finiteness pass) and
hands them to moocore's C entry point ``moocore._moocore._hypervolume`` (HV4D+ at 4-D, its
recursion with the HV4D+ base case at 5-D). This script shows what that costs and whether
the compiled WFG kernel (which ours uses from 6-D) would beat moocore at 4-D or 5-D for
some front size. Contenders, interleaved by ``benchmarks/_harness.py`` (at least 7 rounds
and 1 s of CPU time each; CPU beside wall time):

- ``ours``: ``hypervolume(x, ref)``, the public call;
- ``moocore``: ``moocore.hypervolume(x, ref=ref)``, the peer's public call;
- ``moocore C``: ``moocore._moocore._hypervolume(x, ref)``, its C entry point alone;
- ``wfg``: ``copa_dash.core._kernels.hypervolume_wfg.hv_wfg(x, ref)``, our WFG kernel
  on the same (all non-dominated) rows.

Rows lie on the positive unit sphere (every row on the front), ref 1.1. Every volume is
checked against moocore's to 1e-12 relative before a ratio is printed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("NUMBA_CACHE_DIR", "/tmp/copa_numba_cache")

import moocore
import numpy as np
from moocore import _moocore as moocore_private

from benchmarks._harness import interleaved, load_line, markdown, same_volume
from benchmarks.bench_hv_cost import sphere
from copa_dash.core._kernels import hypervolume_wfg
from copa_dash.core.hypervolume import hypervolume

SIZES = {4: (10, 30, 100, 300, 1_000, 3_000), 5: (10, 30, 100, 300, 1_000)}


def row(k: int, n: int) -> list[str]:
    x = sphere(n, k)
    ref = np.full(k, 1.1)
    contenders = {
        "ours": lambda: hypervolume(x, ref),
        "moocore": lambda: moocore.hypervolume(x, ref=ref),
        "moocore C": lambda: moocore_private._hypervolume(x, ref),
        "wfg": lambda: hypervolume_wfg.hv_wfg(x, ref),
    }
    timings, results = interleaved(contenders, repeats=7, min_cpu_seconds=1.0,
                                   max_rounds=2001, max_wall_seconds=20.0)
    cells = [f"{k}", f"{n:,}", str(timings["ours"].rounds)]
    for name in contenders:
        cells.append(timings[name].cell())
    for name in ("ours", "moocore C", "wfg"):
        why = same_volume(results[name], results["moocore"])
        cells.append(f"refused ({why})" if why else
                     f"{timings[name].cpu_median / timings['moocore'].cpu_median:.2f}")
    print("  ", " | ".join(cells), file=sys.stderr, flush=True)
    return cells


def main() -> int:
    print("# 4-D and 5-D exact hypervolume: ours against moocore\n")
    print(load_line() + " (before)\n")
    hypervolume_wfg.hv_wfg(sphere(30, 5), np.full(5, 1.1))   # compile outside the timing
    rows = [row(k, n) for k, sizes in SIZES.items() for n in sizes]
    print(markdown(["K", "N", "rounds", "ours", "moocore", "moocore C", "wfg",
                    "ours / moocore", "moocore C / moocore", "wfg / moocore"], rows))
    print("\nCells: CPU ms (±IQR / median) / wall ms, medians of interleaved rounds; "
          "ratios on median CPU time, volumes checked to 1e-12 relative.")
    print(load_line() + " (after)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
