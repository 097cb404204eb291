"""Where a parallel run's wall time goes beyond CPU: each xdist worker's timeline, read from the
rows ``tools/test_cpu.py`` writes (``timeline-<worker>.jsonl``: each test's start, wall and CPU
over the worker's process tree, and its set-up's and tear-down's).

The suite is bound by CPU (docs/testing.md, session 18), yet with two workers its wall time was
~125 s above half its CPU seconds (session 19). This says where those seconds are::

    PYTHONPATH=$PWD:tools python -m pytest -n 2 --dist loadgroup -q -p no:cacheprovider \\
        -p test_cpu                  # writes $COPA_TEST_CPU_DIR (default /tmp/copa-test-cpu)
    python tools/test_timeline.py /tmp/copa-test-cpu

- **the tail**: how long each worker sat idle at the end while the other finished, and the
  work units (an ``@group``, or a file's ungrouped tests) each worker ran last;
- **gaps**: time inside a worker between one test's end and the next one's start (the
  controller handing out work, a module's import);
- **clock waits**: the tests whose wall time is far above their CPU (sleeps, timeouts,
  polling), largest gap first;
- **set-up**: each file's set-up and tear-down, wall and CPU (an app's start, Chromium's).

Wall above CPU is not all waiting: when the other worker's tree takes more than its core
(Chromium's renderer beside its browser process), this worker's tests wait for a core too.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

from test_cpu import report_main


def read_timeline(folder: Path) -> dict[str, list[dict]]:
    """``{worker: rows in start order}`` from every ``timeline-*.jsonl`` in ``folder``."""
    workers = {}
    for path in sorted(folder.glob("timeline-*.jsonl")):
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                if line.strip()]
        workers[path.stem.removeprefix("timeline-")] = sorted(rows, key=lambda r: r["start"])
    return workers


def unit_of(node_id: str) -> str:
    """The work unit a test belongs to: its ``@group``, else its file (an ``@`` inside a
    parameter's brackets is no group, as xdist reads it)."""
    at = node_id.rfind("@")
    if at > node_id.rfind("]"):
        return node_id[at:]
    return node_id.split("::")[0]


def units(rows: list[dict]) -> list[dict]:
    """Runs of consecutive tests of one unit: ``{unit, start, end, tests, cpu}``."""
    runs: list[dict] = []
    for row in rows:
        name, end = unit_of(row["id"]), row["start"] + row["wall"]
        if runs and runs[-1]["unit"] == name:
            runs[-1].update(end=end, tests=runs[-1]["tests"] + 1, cpu=runs[-1]["cpu"] + row["cpu"])
        else:
            runs.append({"unit": name, "start": row["start"], "end": end, "tests": 1,
                         "cpu": row["cpu"]})
    return runs


def worker_lines(workers: dict[str, list[dict]], t0: float, t_end: float) -> list[str]:
    """Per worker: busy wall, CPU, gaps between tests, idle at the start and the end."""
    lines = ["worker  tests  busy s  cpu s  gaps s  idle-start s  idle-end s"]
    for worker, rows in workers.items():
        busy = sum(r["wall"] for r in rows)
        ends = [r["start"] + r["wall"] for r in rows]
        gaps = sum(max(0.0, b["start"] - a_end) for a_end, b in zip(ends, rows[1:]))
        lines.append(f"{worker:6s} {len(rows):6d} {busy:7.1f} {sum(r['cpu'] for r in rows):6.1f}"
                     f" {gaps:7.1f} {rows[0]['start'] - t0:13.1f} {t_end - max(ends):11.1f}")
    return lines


def tail_lines(workers: dict[str, list[dict]], t0: float, last: int) -> list[str]:
    """The last ``last`` work units of each worker, with their start and end since ``t0``."""
    lines = []
    for worker, rows in workers.items():
        lines.append(f"{worker}: last {last} units (start s, end s, tests, cpu s)")
        for run in units(rows)[-last:]:
            lines.append(f"  {run['start'] - t0:7.1f} {run['end'] - t0:7.1f} {run['tests']:5d}"
                         f" {run['cpu']:7.1f}  {run['unit']}")
    return lines


def biggest_units(workers: dict[str, list[dict]], t0: float, top: int) -> list[str]:
    """The ``top`` longest unit runs of the whole run, by wall time."""
    runs = [(worker, run) for worker, rows in workers.items() for run in units(rows)]
    runs.sort(key=lambda wr: wr[1]["start"] - wr[1]["end"])
    lines = ["wall s  cpu s  tests  start s  worker  unit"]
    for worker, run in runs[:top]:
        lines.append(f"{run['end'] - run['start']:6.1f} {run['cpu']:6.1f} {run['tests']:6d}"
                     f" {run['start'] - t0:8.1f}  {worker:6s}  {run['unit']}")
    return lines


def clock_wait_lines(rows: list[dict], top: int) -> list[str]:
    """Tests whose wall time is furthest above their CPU seconds."""
    lines = ["wall-cpu s  wall s  cpu s  load  test"]
    for row in sorted(rows, key=lambda r: r["cpu"] - r["wall"])[:top]:
        lines.append(f"{row['wall'] - row['cpu']:10.1f} {row['wall']:7.1f} {row['cpu']:6.1f}"
                     f" {row['load']:5.1f}  {row['id']}")
    return lines


def setup_lines(rows: list[dict], top: int) -> list[str]:
    """Each file's set-up and tear-down seconds, wall and CPU, the largest set-up walls first."""
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for row in rows:
        sums = by_file[row["id"].split("::")[0]]
        sums[0] += row["setup_wall"]
        sums[1] += row["setup_cpu"]
        sums[2] += row["teardown_wall"]
        sums[3] += row["teardown_cpu"]
    lines = ["setup wall  setup cpu  teardown wall  teardown cpu  file"]
    for path, (sw, sc, tw, tc) in sorted(by_file.items(), key=lambda kv: -kv[1][0])[:top]:
        lines.append(f"{sw:10.1f} {sc:10.1f} {tw:14.1f} {tc:13.1f}  {path}")
    return lines


def report(workers: dict[str, list[dict]], top: int = 20, last: int = 6) -> str:
    """The whole timeline report (see the module's docstring)."""
    rows = [row for worker_rows in workers.values() for row in worker_rows]
    t0 = min(r["start"] for r in rows)
    t_end = max(r["start"] + r["wall"] for r in rows)
    cpu = sum(r["cpu"] for r in rows)
    head = [(f"{len(rows)} tests on {len(workers)} workers: {t_end - t0:.0f} s from the first "
             f"test's start to the last one's end; {cpu:.0f} CPU s, so {cpu / len(workers):.0f} s "
             "a worker if spread evenly"), ""]
    sections = [worker_lines(workers, t0, t_end), tail_lines(workers, t0, last),
                biggest_units(workers, t0, top), clock_wait_lines(rows, top),
                setup_lines(rows, top)]
    return "\n".join(head + [line for section in sections for line in section + [""]])


def main(argv: list[str] | None = None) -> int:
    return report_main(argv, description=__doc__.split("\n\n")[0], read=read_timeline,
                       render=lambda workers, args: report(workers, args.top, args.last),
                       missing="test_timeline: no timeline-*.jsonl",
                       top=(20, "rows a table (default 20)"),
                       more=(("--last", 6, "units of each tail (default 6)"),))


if __name__ == "__main__":
    sys.exit(main())
