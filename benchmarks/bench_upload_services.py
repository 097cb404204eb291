"""CPU seconds of the services behind Explore's and Systems' controls on an upload, in process.

Issue 33 (F2, F9): on the fairness Adult/sex upload (186 rows, 12 proposed objectives) a
newcomer saw an objective tick take 0.7-2.2 s, p = inf after p = 1 (a value seen) 2.28 s,
and Systems' first view 39.7 s. This benchmark asks the server's side alone, without a
browser: the file is saved as "Save and explore" saves it (``stage_upload`` + ``save_upload``
with the proposed roles, into a temporary store), and the services the pages call are timed
in this process (CPU seconds by ``time.process_time``, beside wall seconds; the machine is
shared): the Explore view (``services.views.memo.exploration``, what the view callback
reads) for the default view, an objective unticked and ticked back, a direction flipped and
back, p = 1 and back to inf; the "How sure is this pick?" panel (``services.robustness``) for
each of those views; Systems (``services.systems.systems_view`` under the instance's HV
budget) on all objectives, 11 of them, and COPA's u.

Each pass starts from empty caches (a new analysis cache directory and every in-process
memo cleared), so a step costs what a new setting costs; "again" is the same step at once
(the memo's hit). Pass 1 also pays for loading (or compiling, with a cold
``NUMBA_CACHE_DIR``) the kernels: it is printed apart and left out of the medians.
Every pass checks that the results are the same as pass 1's (the pick, the ranking, the
indicators).

Usage::

    python benchmarks/bench_upload_services.py [FILE] [--passes 5]

FILE defaults to ``tests/data/messy/fairness_adult_sex.csv`` (a byte copy of
``fairness-comparison/adult_sex_numerical-binsensitive.csv``).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._harness import load_line, markdown

FAIRNESS = ROOT / "tests" / "data" / "messy" / "fairness_adult_sex.csv"


def _flip(view, i: int):
    return replace(view, objectives=tuple(
        (n, ("min" if d == "max" else "max") if j == i else d)
        for j, (n, d) in enumerate(view.objectives)))


def steps(view, names):
    """(label, Explore view, Systems arguments or None) in the order a user works them."""
    untick = replace(view, objectives=view.objectives[:1] + view.objectives[2:])
    return [
        ("Explore: open (default view)", view, None),
        ("Explore: untick an objective", untick, None),
        ("Explore: tick it back (seen)", view, None),
        ("Explore: flip a direction", _flip(view, 0), None),
        ("Explore: flip it back (seen)", view, None),
        ("Explore: p = 1", replace(view, p=1.0), None),
        ("Explore: p = inf again (seen)", view, None),
        ("Systems: first view, all objectives", None, {"objectives": list(names)}),
        ("Systems: 11 objectives", None, {"objectives": list(names[:-1])}),
        ("Systems: COPA's u", None, {"objectives": list(names), "normalize": "cdf"}),
    ]


def one_pass(path: Path, state: Path):
    """Every step once (new) and again (memo hit): {label: (cpu, wall, cpu again)}, and the
    results to compare between passes."""
    os.environ.update(COPA_DATA_DIR=str(state / "data"), COPA_CACHE_DIR=str(state / "cache"))
    from copa_dash.config import Settings
    from copa_dash.services import recent, systems
    from copa_dash.services import robustness as robust
    from copa_dash.services.cache import get_cache
    from copa_dash.services.catalog import open_dataset
    from copa_dash.services.uploads import save_upload, stage_upload
    from copa_dash.services.views import memo
    from copa_dash.services.views.explore import ExploreView

    for values in recent._SHARED:       # a new setting, not a hit from the last pass
        values.clear()
    settings = Settings.from_env()
    staged = stage_upload(settings, path.name, path.read_bytes())
    saved = save_upload(settings, staged.token, staged.filename, staged.proposed,
                        name=staged.suggested_name, shared=False)
    opened, cache = open_dataset(saved.id, settings), get_cache(settings)
    default = ExploreView(dataset=saved.id).with_defaults(opened)
    names = opened.table.objective_names
    times, results = {}, []
    for label, view, system_args in steps(default, names):
        if view is not None:
            def work(v=view):
                found = memo.exploration(v, settings, cache)
                sure = robust.robustness(opened.table, v.preferences(), v.row_filter(),
                                         dataset_id=opened.cache_id, cache=cache)
                return found, sure
        else:
            def work(a=system_args):
                return systems.systems_view(opened.table, sigma=0.1,
                                            hv_budget_seconds=settings.hv_budget_seconds,
                                            dataset_id=opened.cache_id, cache=cache, **a)
        cpu, wall = time.process_time(), time.perf_counter()
        result = work()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        again = time.process_time()
        work()
        times[label] = (cpu, wall, time.process_time() - again)
        results.append(_summary(result))
    return times, results


def _summary(result):
    """What must be equal between passes: the pick and ranking, or every indicator."""
    if isinstance(result, tuple):
        found, sure = result
        return ("explore", int(found.pick), tuple(int(r) for r in found.ranking[:10]),
                sure.pick, tuple((a["id"], round(a["rank1"], 12)) for a in sure.acceptability),
                round(sure.local["stays"], 12))
    records = result.records()
    return ("systems", tuple((r["system"], *(round(r[k], 12) if not math.isnan(r[k]) else None
                                             for k in ("hv", "onvg", "ud_bar", "os")))
                             for r in records))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=FAIRNESS)
    parser.add_argument("--passes", type=int, default=5)
    args = parser.parse_args(argv)
    print(load_line(), flush=True)
    passes, first_results = [], None
    for n in range(args.passes):
        times, results = one_pass(args.file, Path(tempfile.mkdtemp(prefix="copa-bench-svc-")))
        if first_results is None:
            first_results = results
        elif results != first_results:
            raise SystemExit(f"pass {n + 1} gave other results than pass 1")
        passes.append(times)
        print(f"  pass {n + 1} done", flush=True)
    head = ["step", "CPU s, pass 1 (kernels load)", "CPU s new (median)", "wall s new (median)",
            "CPU s again (median)"]
    rows = []
    for label in passes[0]:
        later = [p[label] for p in passes[1:]] or [passes[0][label]]
        rows.append([label, f"{passes[0][label][0]:.3f}",
                     f"{statistics.median(t[0] for t in later):.3f}",
                     f"{statistics.median(t[1] for t in later):.3f}",
                     f"{statistics.median(t[2] for t in later):.4f}"])
    print(f"\n{args.file.name}: services in process, Explore steps include the 'How sure' panel")
    print(markdown(head, rows))
    print(f"results equal in all {args.passes} passes; {load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
