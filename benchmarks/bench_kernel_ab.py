"""A kernel before and after a change, A/B in one process: this checkout's core against the
core of a git revision, their calls interleaved.

    python benchmarks/bench_kernel_ab.py --peer-rev HEAD~1 [--cases layers3d,hv3d] [--repeats 15]

The peer's ``copa_dash/core`` is copied out of git (``git archive``) into a temporary folder
as the package ``peer_core`` (the core imports only itself, relatively), so both versions of
a kernel are compiled in this process and timed by ``_harness.interleaved``: each round calls
every contender once, in a rotated order, so a burst of load hits both alike. Per case the
table gives each side's median CPU time (spread) / wall time, the ratio this / peer with the
spread of the per-round ratios, and whether the results are equal (layers exactly, volumes
to 1e-12 relative; a differing result refuses the ratio). Machine load is printed before and
after. For the cold compile time of a kernel, run ``--compile`` with an empty
``NUMBA_CACHE_DIR``: it times each side's first call (compilation included) once.

Cases: the 3-D layers (ENS-BS with a staircase per layer: ``search_sorted``), the 3-D
hypervolume (HV3D's staircase: ``search_sorted``), WFG's and QHV-II's inclusion-exclusion
(``lowest_row``, ``odd_size``: the generated 5-7-D frames, the generic one, four-row
boxes), the k-d
tree's walks (``root_stack``, ``push_children``: the 5-D front mask and the Monte-Carlo
hypervolume's sample count) and the permutation test's HV differences (``pooled_deltas``,
``mean_deltas``), each on seeded random data with ties.
"""

from __future__ import annotations

import argparse
import importlib
import io
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import _harness


def peer_core(rev: str) -> str:
    """Unpack ``copa_dash/core`` at ``rev`` as the package ``peer_core``; return its name."""
    folder = Path(tempfile.mkdtemp(prefix="copa_peer_core_"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "copa_dash/core"],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "copa_dash" / "core").rename(folder / "peer_core")
    sys.path.insert(0, str(folder))
    return "peer_core"


def _points(n: int, k: int, seed: int) -> np.ndarray:
    """Seeded rows with ties (values on a grid of 1/200) near a front."""
    rng = np.random.default_rng(seed)
    pts = np.round(rng.random((n, k)), 3)
    pts[:, -1] = np.round(1.0 - pts[:, :-1].sum(axis=1) / (k - 1) + 0.3 * rng.random(n), 3)
    return np.ascontiguousarray(pts)


def _sphere(n: int, k: int, seed: int) -> np.ndarray:
    """Seeded rows on the unit sphere's positive orthant: all mutually non-dominated (the
    slow case of an exact hypervolume)."""
    rows = np.abs(np.random.default_rng(seed).standard_normal((n, k)))
    return np.ascontiguousarray(rows / np.linalg.norm(rows, axis=1, keepdims=True))


def _cases():
    """name -> (kernel module, build(module) -> zero-argument call, check(a, b))."""
    layers_1k, layers_20k = _points(1_000, 3, 1), _points(20_000, 3, 2)
    hv_pts = _points(200_000, 3, 3)
    front = np.ascontiguousarray(hv_pts[:20_000])
    ref3 = np.array([1.1, 1.1, 1.6])
    rng = np.random.default_rng(4)
    rows = np.ascontiguousarray(_points(600, 2, 5))
    run_start = np.arange(0, 601, 10, dtype=np.int64)
    labels = np.ascontiguousarray(rng.permuted(np.tile(np.arange(60) % 2, (500, 1)), axis=1)
                                  .astype(np.int8))
    sums = np.ascontiguousarray(rows.reshape(60, 10, 2))  # run r's row c has config c
    counts = np.ones((60, 10))
    ref2 = np.array([1.1, 1.6])
    tree4 = _points(20_000, 4, 8)
    sphere6, sphere8 = _sphere(300, 6, 9), _sphere(60, 8, 10)
    sphere7, sphere10 = _sphere(300, 7, 11), _sphere(100, 10, 12)
    front5 = _points(20_000, 5, 6)
    mc_front = np.ascontiguousarray(front5[:2_000])
    samples = np.ascontiguousarray(np.random.default_rng(7).random((200_000, 5)) * 1.3)
    volume, layers, mask = _harness.same_volume, _harness.same_layers, _harness.same_mask
    deltas = lambda a, b: None if np.array_equal(a, b) else "deltas differ"
    return {
        "layers3d-1k": ("_kernels.dominance_layers",
                        lambda m: lambda: m.nondominated_layers(layers_1k), layers),
        "layers3d-20k": ("_kernels.dominance_layers",
                         lambda m: lambda: m.nondominated_layers(layers_20k), layers),
        "layers4d-tree-20k": ("_kernels.dominance_layer_tree",
                              lambda m: lambda: m.layer_tree_layers(tree4), layers),
        "hv3d-20k": ("_kernels.hypervolume", lambda m: lambda: m.hv3d(front, ref3), volume),
        "hv3d-200k": ("_kernels.hypervolume", lambda m: lambda: m.hv3d(hv_pts, ref3), volume),
        "wfg-6d-300": ("_kernels.hypervolume_wfg",
                       lambda m: lambda: m.hv_wfg(sphere6, np.full(6, 1.1)), volume),
        "wfg-8d-60": ("_kernels.hypervolume_wfg",
                      lambda m: lambda: m.hv_wfg(sphere8, np.full(8, 1.1)), volume),
        "qhv-7d-300": ("_kernels.hypervolume_qhv",
                       lambda m: lambda: m.hv_qhv(sphere7, np.full(7, 1.1)), volume),
        "qhv-10d-100": ("_kernels.hypervolume_qhv",
                        lambda m: lambda: m.hv_qhv(sphere10, np.full(10, 1.1)), volume),
        "front5d-kdtree": ("_kernels.dominance_tree",
                           lambda m: lambda: m.nondominated_mask_kdtree(front5), mask),
        "mc-count-5d": ("_kernels.hypervolume",
                        lambda m: lambda: m.count_dominated_samples(mc_front, samples),
                        lambda a, b: None if a == b else f"counts {a} and {b}"),
        "pooled-deltas": ("_kernels.significance",
                          lambda m: lambda: m.pooled_deltas(rows, run_start, labels, ref2),
                          deltas),
        "mean-deltas": ("_kernels.significance",
                        lambda m: lambda: m.mean_deltas(sums, counts, labels, ref2), deltas),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-rev", required=True, help="git revision of the peer core")
    parser.add_argument("--cases", default="", help="comma-separated case names (default all)")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--compile", action="store_true",
                        help="time each side's first call once (run with an empty cache)")
    args = parser.parse_args(argv)
    peer = peer_core(args.peer_rev)
    cases = _cases()
    chosen = [c for c in args.cases.split(",") if c] or list(cases)
    print(_harness.load_line())
    rows = []
    for name in chosen:
        module, build, check = cases[name]
        ours = build(importlib.import_module(f"copa_dash.core.{module}"))
        theirs = build(importlib.import_module(f"{peer}.{module}"))
        if args.compile:
            cells = []
            for call in (ours, theirs):
                cpu0 = time.process_time()
                call()
                cells.append(f"{time.process_time() - cpu0:.2f} s")
            rows.append([name, *cells, "first call, compile included"])
            continue
        timings, results = _harness.interleaved({"this": ours, "peer": theirs},
                                                repeats=args.repeats, budget_seconds=20.0)
        why = check(results["this"], results["peer"])
        rows.append([name, timings["this"].cell(), timings["peer"].cell(),
                     _harness.ratio_cell(timings, "this", {"peer": why})])
    print(_harness.markdown(["case", "this: CPU ms / wall ms", f"peer {args.peer_rev}",
                    "this / peer (CPU)"], rows))
    print(_harness.load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
