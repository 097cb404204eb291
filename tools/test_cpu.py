"""Each test's CPU seconds, counted over its worker's whole process tree: a pytest plugin, and a
summary of what it wrote by file and by folder.

The suite is bound by CPU on the 2-core machine (docs/testing.md, session 18), and wall times
say little there: a test waits as long for a busy core as for its own work. What a test costs
is the CPU of everything it makes run: the worker, the app's server thread in it, chromedriver,
Chromium's processes (reaped by chromedriver), gunicorn, Celery, the CLI in a subprocess. The
plugin samples that tree before and after each test (``psutil``; a process that starts and
ends inside a test counts through its parent's waited-for children times)::

    PYTHONPATH=tools python -m pytest -n 2 --dist loadgroup -q -p no:cacheprovider \\
        -p test_cpu              # writes $COPA_TEST_CPU_DIR (default /tmp/copa-test-cpu)
    python tools/test_cpu.py /tmp/copa-test-cpu

We write this sampler ourselves because pytest and pytest-xdist report wall times only, and
``/usr/bin/time`` misses Chromium's renderers (they are not the shell's waited-for children).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

OUT_DIR = Path(os.environ.get("COPA_TEST_CPU_DIR", "/tmp/copa-test-cpu"))


def _tree_seconds(parents: dict[int, int] | None = None,
                  reaped: dict[int, float] | None = None) -> dict[tuple[int, float], float]:
    """CPU seconds (own and waited-for children's) of this process and every descendant, by
    (pid, start time) so a reused pid is not mistaken for the same process; given ``parents``
    and ``reaped``, each process's parent pid and its waited-for children's seconds alone are
    written there (for :func:`_spent`)."""
    import psutil

    me = psutil.Process()
    try:
        processes = [me, *me.children(recursive=True)]
    except psutil.Error:
        processes = [me]
    seen = {}
    for process in processes:
        try:
            times = process.cpu_times()
            children = times.children_user + times.children_system
            seen[(process.pid, process.create_time())] = times.user + times.system + children
            if parents is not None:
                parents[process.pid] = process.ppid()
            if reaped is not None:
                reaped[process.pid] = children
        except psutil.Error:
            continue
    return seen


def _record(node_id: str, wall: float, cpu: float) -> None:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(OUT_DIR / f"cpu-{worker}.tsv", "a", encoding="utf-8") as out:
        out.write(f"{node_id}\t{wall:.2f}\t{cpu:.2f}\n")


def _spent(before: dict[tuple[int, float], float], parents: dict[int, int],
           reaped: dict[int, float]) -> float:
    """CPU seconds the process tree used since ``before`` (a :func:`_tree_seconds` that
    filled ``parents`` and ``reaped``).

    A process that ended in between and was waited for inside the tree (Chromium by
    chromedriver, chromedriver by the worker) adds its whole life's CPU to its surviving
    ancestor's children times, so what it had used by ``before`` is taken off again: without
    this, quitting a module's Chromium counted its browser process's life a second time in the
    last test's tear-down. Not every ended process is folded in, though (Chromium's renderers
    are not: their zygote is not waited for), so what is taken off under an ancestor is at most
    the growth of that ancestor's children times (a process folded in after its last use here
    loses what it used since ``before``; a few hundredths of a second)."""
    after_reaped: dict[int, float] = {}
    after = _tree_seconds(reaped=after_reaped)
    alive = {pid for pid, _ in after}
    spent = sum(seconds - before.get(key, 0.0) for key, seconds in after.items())
    ended_under: dict[int, float] = {}
    for key, seconds in before.items():
        if key not in after:
            anchor = _alive_ancestor(key[0], parents, alive)
            if anchor is not None:
                ended_under[anchor] = ended_under.get(anchor, 0.0) + seconds
    for anchor, seconds in ended_under.items():
        folded = after_reaped.get(anchor, 0.0) - reaped.get(anchor, 0.0)
        spent -= min(seconds, max(folded, 0.0))
    return spent


def _alive_ancestor(pid: int, parents: dict[int, int], alive: set[int]) -> int | None:
    """The nearest ancestor of the ended process ``pid`` (by ``parents``) still in the tree:
    the one whose children times would hold the process's CPU."""
    seen = set()
    parent = parents.get(pid)
    while parent is not None and parent not in seen:
        if parent in alive:
            return parent
        seen.add(parent)
        parent = parents.get(parent)
    return None


def _record_phase(item, phase: str, started: float, sample) -> None:
    """Keep a phase's wall and CPU seconds on ``item`` for the timeline row (``sample``: the
    :func:`_sample` taken before the phase)."""
    item.stash.setdefault(_PHASES, {})[phase] = (time.monotonic() - started, _spent(*sample))


def _sample() -> tuple[dict, dict, dict]:
    """The process tree's seconds with its parents and children times, for :func:`_spent`."""
    parents: dict[int, int] = {}
    reaped: dict[int, float] = {}
    return _tree_seconds(parents, reaped), parents, reaped


_PHASES = pytest.StashKey[dict]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    """Measure the set-up on its own (a worker's first browser test starts its app and browser)."""
    sample, start = _sample(), time.monotonic()
    yield
    _record_phase(item, "setup", start, sample)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """Measure the call on its own, before the tear-down may end processes."""
    sample, start = _sample(), time.monotonic()
    yield
    _record_phase(item, "call", start, sample)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """Measure the tear-down on its own (the session's last tear-down stops the browser)."""
    sample, start = _sample(), time.monotonic()
    yield
    _record_phase(item, "teardown", start, sample)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Measure the process tree's CPU around the test's setup, call and teardown, and write
    the test's timeline row (tools/test_timeline.py) beside its CPU row."""
    sample, start, started_at = _sample(), time.monotonic(), time.time()
    yield
    phases = item.stash.get(_PHASES, {})
    if {"setup", "call", "teardown"} <= phases.keys():
        # summed by phase: a renderer that ends in the module's last tear-down (Chromium
        # quit) is not folded into any survivor, so a sample after it lost the renderer's
        # CPU of the whole test; sampled after the call, only the tear-down's is lost
        cpu = sum(phases[phase][1] for phase in ("setup", "call", "teardown"))
    else:
        cpu = _spent(*sample)
    wall = time.monotonic() - start
    _record(item.nodeid, wall, cpu)
    _record_timeline(item, started_at, wall, cpu)


def _record_timeline(item, started_at: float, wall: float, cpu: float) -> None:
    """One JSON line a test: its start (epoch seconds), wall and CPU, its set-up's and
    tear-down's, and the machine's 1-minute load when it ended."""
    phases = item.stash.get(_PHASES, {})
    row = {"id": item.nodeid, "start": round(started_at, 3), "wall": round(wall, 3),
           "cpu": round(cpu, 3), "load": os.getloadavg()[0]}
    for phase in ("setup", "teardown"):
        phase_wall, phase_cpu = phases.get(phase, (0.0, 0.0))
        row[f"{phase}_wall"], row[f"{phase}_cpu"] = round(phase_wall, 3), round(phase_cpu, 3)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(OUT_DIR / f"timeline-{worker}.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")


def summary(rows: list[tuple[str, float, float]], top: int = 30) -> str:
    """The CPU seconds of ``rows`` (node id, wall, cpu) by folder and by file, largest first."""
    by_folder, by_file, wall, count = Counter(), Counter(), Counter(), Counter()
    for node_id, seconds_wall, seconds_cpu in rows:
        path = node_id.split("::")[0]
        parts = path.split("/")
        folder = "/".join(parts[:2]) if len(parts) > 2 else path
        by_folder[folder] += seconds_cpu
        wall[folder] += seconds_wall
        count[folder] += 1
        by_file[path] += seconds_cpu
    total = sum(by_folder.values())
    lines = [f"{total:.0f} CPU s over {len(rows)} tests", "", "CPU s   wall s  tests  folder"]
    lines += [f"{s:6.1f} {wall[f]:8.1f} {count[f]:6d}  {f}" for f, s in by_folder.most_common()]
    lines += ["", "CPU s  file"]
    lines += [f"{s:6.1f}  {f}" for f, s in by_file.most_common(top)]
    return "\n".join(lines)


def read_rows(folder: Path) -> list[tuple[str, float, float]]:
    """Every row the plugin wrote in ``folder`` (one file a worker)."""
    rows = []
    for path in sorted(folder.glob("cpu-*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            node_id, wall, cpu = line.rsplit("\t", 2)
            rows.append((node_id, float(wall), float(cpu)))
    return rows


def report_main(argv: list[str] | None, *, description: str, read, render, missing: str,
                top: tuple[int, str], more: tuple[tuple[str, int, str], ...] = ()) -> int:
    """The command line of a report on a folder this plugin wrote (this module's and
    tools/test_timeline.py's): ``FOLDER`` (default :data:`OUT_DIR`), ``--top N`` and the integer
    options ``more`` (flag, default, help); ``read(folder)`` gives the data, ``render(data, args)``
    the text printed. Exits 2 saying ``missing`` when the folder holds nothing to read."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("folder", type=Path, nargs="?", default=OUT_DIR)
    parser.add_argument("--top", type=int, default=top[0], help=top[1])
    for flag, default, text in more:
        parser.add_argument(flag, type=int, default=default, help=text)
    args = parser.parse_args(argv)
    data = read(args.folder)
    if not data:
        print(f"{missing} in {args.folder}", file=sys.stderr)
        return 2
    print(render(data, args))
    return 0


def main(argv: list[str] | None = None) -> int:
    return report_main(argv, description=__doc__.split("\n\n")[0], read=read_rows,
                       render=lambda rows, args: summary(rows, args.top),
                       missing="test_cpu: no cpu-*.tsv", top=(30, "files listed (default 30)"))


if __name__ == "__main__":
    sys.exit(main())
