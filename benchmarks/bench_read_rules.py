"""What the failed-row rules (copa_dash/data/failed_rows.py) cost a read: the reader with them
against the same reader without them (``leave_out_failed=False``, what the bundled datasets
use), interleaved in one process, CPU and wall time, on tables without any failed row (both
readers must then return the same frame, checked before a ratio is printed).

Tables: the 100,000-row plain CSV of ``bench_upload.py``, the same written the EU way (its
numbers are text until read: the failure-word check runs over them), and the corpus'
LLM-Perf export (901 rows).

Run: ``python benchmarks/bench_read_rules.py [--rows 100000]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import interleaved, load_line, markdown
from bench_reader import eu_version
from bench_upload import make_csv

from copa_dash.data.io import read_table_report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()
    plain = make_csv(args.rows)
    corpus = Path(__file__).resolve().parents[1] / "tests/data/messy/llm_perf_lb.csv"
    cases = {f"plain CSV {args.rows:,} rows": (plain, "t.csv"),
             f"EU CSV {args.rows:,} rows": (eu_version(plain), "t.csv"),
             "corpus llm_perf_lb.csv (901 rows)": (corpus.read_bytes(), "llm_perf_lb.csv")}
    print(load_line())
    rows = []
    for label, (data, name) in cases.items():
        timings, results = interleaved({
            "with rules": lambda d=data, n=name: read_table_report(d, filename=n).frame,
            "without": lambda d=data, n=name: read_table_report(
                d, filename=n, leave_out_failed=False).frame})
        same = results["with rules"].equals(results["without"])
        if not same:
            raise SystemExit(f"{label}: the frames differ - a rule changed a table without "
                             "failed rows")
        ratio = timings["with rules"].cpu_median / timings["without"].cpu_median
        rows.append([label, timings["with rules"].cell(), timings["without"].cell(),
                     f"{ratio:.2f}"])
    print(markdown(["table", "with the rules (cpu / wall ms)", "without (cpu / wall ms)",
                    "cpu ratio"], rows))


if __name__ == "__main__":
    main()
