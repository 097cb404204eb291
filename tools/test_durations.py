"""Write tests/durations.json from a pytest run's ``--durations=0`` report.

``make test`` hands the longest work to its workers first (tests/xdist_schedule.py); this is
where its times come from. After a change that makes tests much slower or faster::

    python -m pytest -n 2 --dist loadgroup --durations=0 -p no:randomly | tee /tmp/run.txt
    python tools/test_durations.py /tmp/run.txt

or from the folder the CPU plugin wrote (tools/test_cpu.py: its ``timeline-*.jsonl`` rows hold
each test's wall time, set-up and tear-down included)::

    python tools/test_durations.py /tmp/copa-test-cpu

Setup, call and teardown of a test are added; given several reports, each test keeps its
shortest time (a test that happened to pay a cold numba compile or a busy machine in one run
does not look long for ever); tests under ``--min-seconds`` are left out (the scheduler
counts them at its small default). The file keeps relative times: a run on a
busier machine scales them all, which leaves the order alone.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"^\s*([0-9.]+)s (setup|call|teardown)\s+(\S.*?)\s*$")


def durations(lines) -> dict[str, float]:
    """``{node id: seconds}`` summed over phases, from the lines after pytest's "slowest
    durations" header (node ids without xdist's ``@group`` suffix)."""
    sys.path.insert(0, str(ROOT))
    from tests.xdist_schedule import plain_id

    seconds: dict[str, float] = defaultdict(float)
    inside = False
    for line in lines:
        if "slowest" in line and "durations" in line:
            inside = True
            continue
        match = LINE.match(line) if inside else None
        if match:
            seconds[plain_id(match.group(3))] += float(match.group(1))
    return dict(seconds)


def timeline_durations(folder: Path) -> dict[str, float]:
    """``{node id: seconds}`` from the ``timeline-*.jsonl`` rows tools/test_cpu.py wrote in
    ``folder`` (a row's ``wall`` is its set-up, call and tear-down), node ids without xdist's
    ``@group`` suffix; empty when the folder holds none."""
    sys.path.insert(0, str(ROOT))
    from tests.xdist_schedule import plain_id

    seconds: dict[str, float] = {}
    for path in sorted(folder.glob("timeline-*.jsonl")):
        for line in path.read_text().splitlines():
            row = json.loads(line)
            seconds[plain_id(row["id"])] = float(row["wall"])
    return seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", type=Path, nargs="+",
                        help="pytest's output with --durations=0, or a folder of "
                             "tools/test_cpu.py's timelines (one or more runs)")
    parser.add_argument("--min-seconds", type=float, default=0.5)
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "durations.json")
    args = parser.parse_args(argv)
    found: dict[str, float] = {}
    for report in args.reports:
        seen = (timeline_durations(report) if report.is_dir()
                else durations(report.read_text(errors="replace").splitlines()))
        if not seen:
            print(f"no --durations=0 report or timeline in {report}", file=sys.stderr)
            return 2
        for test, seconds in seen.items():
            found[test] = min(seconds, found.get(test, seconds))
    kept = {k: round(v, 1) for k, v in sorted(found.items()) if v >= args.min_seconds}
    args.out.write_text(json.dumps({
        "about": "seconds per test (setup + call + teardown) from one run of the suite; "
                 "written by tools/test_durations.py, read by tests/xdist_schedule.py",
        "seconds": kept}, indent=1) + "\n")
    print(f"{len(kept)} of {len(found)} tests at >= {args.min_seconds} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
