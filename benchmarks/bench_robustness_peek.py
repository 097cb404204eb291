"""The look-up of a view's "How sure" result that Explore's view callback makes on every tick
(``robustness_panel.kept_result_of``: the query read, the memo key built, the analysis cache
peeked), with the table's uncertainty pairs kept per table (this checkout) against read by
the upload reader on every call (before session 20: the same code with the kept pairs
dropped before each call), interleaved in one process (``_harness.interleaved``), the
results checked equal.

Usage::

    python benchmarks/bench_robustness_peek.py [--dataset open-llm-leaderboard-v2] [--repeats 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._harness import interleaved, load_line, markdown


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="open-llm-leaderboard-v2")
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args(argv)
    state = Path(tempfile.mkdtemp(prefix="copa-peek-"))
    os.environ.update(COPA_DATA_DIR=str(state / "data"), COPA_CACHE_DIR=str(state / "cache"))
    from copa_dash.app_factory import create_app
    from copa_dash.config import Settings
    from copa_dash.services import robustness
    from copa_dash.services.catalog import open_dataset
    from copa_dash.ui.features.explore import robustness_panel
    from copa_dash.ui.features.explore.state import parse_query, to_query, with_defaults

    print(load_line(), flush=True)
    app = create_app(Settings.from_env())
    with app.server.test_request_context("/"):
        given = {"dataset": [args.dataset]}
        opened = open_dataset(args.dataset, robustness_panel.current_settings())
        query = to_query(with_defaults(parse_query(given), opened, given=set(given)))
        robustness_panel.result_of(query)            # the view seen before: a cache hit

        def read_each_time():
            robustness._PAIRS.clear()
            return robustness_panel.kept_result_of(query)

        timings, results = interleaved(
            {"pairs kept per table": lambda: robustness_panel.kept_result_of(query),
             "pairs read on every call": read_each_time},
            repeats=args.repeats, budget_seconds=60.0)
    if len({repr(r) for r in results.values()}) != 1 or None in results.values():
        raise SystemExit(f"the sides differ: {results}")
    rows = [[name, f"{1e3 * statistics.median(t.cpu):.2f}", f"{1e3 * statistics.median(t.wall):.2f}",
             str(len(t.cpu))] for name, t in timings.items()]
    print(markdown(["side", "CPU ms (median)", "wall ms (median)", "calls"], rows))
    print(f"equal results on both sides; {load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
