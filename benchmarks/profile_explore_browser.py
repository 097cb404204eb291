"""Where the explorer page spends the browser's CPU on a reload, profiled in headless Chromium.

Starts the app (``python app.py``, as ``bench_explore_browser`` does), opens the explorer's
view (the Open LLM Leaderboard's default view, or with ``--rows N --objectives K`` the same
seeded synthetic table ``bench_explore_browser`` uploads), waits until the first figure is in,
then reloads the page ``--reloads`` times. For each reload it reports:

- the CPU time of every Chromium thread that used some (renderer main thread, its worker
  threads, the browser and GPU processes), read from ``/proc`` before and after, beside the
  wall time to the first figure; without the profiler attached, so these are the real costs;
- then, in a second pass with the DevTools protocol's sampling profiler on
  (``Profiler.start/stop``, which slows the page down, so only shares count), the self time
  per script and the functions with the most self and inclusive time.

Usage::

    python benchmarks/profile_explore_browser.py [--rows 100000 --objectives 8] [--reloads 2]
        [--app-dir DIR] [--save-profile PATH]    # PATH.N.cpuprofile opens in Chrome DevTools

This is how docs/benchmarks.md's "The first open in a fresh browser" was found; it prints no ratio and
checks no result (``bench_explore_browser`` does).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._app import (
    CLK_TCK,
    RunningApp,
    app_env,
    descendants,
    free_port,
    headless_chromium,
)
from benchmarks._harness import load_line
from benchmarks.bench_explore_browser import (
    FIRST_FIGURE,
    synthetic_table,
    upload_table,
)


def _process_kind(pid: int) -> str:
    raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    for kind in ("renderer", "gpu-process", "utility", "zygote"):
        if f"--type={kind}".encode() in raw:
            return kind
    return "chromedriver" if b"chromedriver" in raw.split(b"\0")[0] else "browser"


def thread_cpu(root: int) -> collections.Counter:
    """CPU seconds of every live thread below ``root``, by (process kind, thread name)."""
    seconds = collections.Counter()
    for pid in [root, *descendants(root)]:
        try:
            kind = _process_kind(pid)
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:                 # the process ended meanwhile
            continue
        for task in tasks:
            try:
                name = Path(f"/proc/{pid}/task/{task}/comm").read_text().strip()
                fields = Path(f"/proc/{pid}/task/{task}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            seconds[(kind, name)] += (int(fields[11]) + int(fields[12])) / CLK_TCK
    return seconds


def _frame(node: dict) -> str:
    frame = node["callFrame"]
    script = frame["url"].rsplit("/", 1)[-1].split("?")[0] or "(native)"
    return f"{frame['functionName'] or '(anonymous)'} [{script}:{frame['lineNumber']}]"


def summarise(profile: dict, top: int = 15) -> list[str]:
    """Self time per script, and the functions with the most self and inclusive time (ms)."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}
    per_script, own, total = collections.Counter(), collections.Counter(), collections.Counter()
    for sample, delta in zip(profile["samples"], profile["timeDeltas"]):
        ms = delta / 1000.0
        frame = nodes[sample]["callFrame"]
        per_script[frame["url"].rsplit("/", 1)[-1].split("?")[0] or "(native)"] += ms
        own[_frame(nodes[sample])] += ms
        seen, node = set(), sample
        while node is not None:
            name = _frame(nodes[node])
            if name not in seen:
                total[name] += ms
                seen.add(name)
            node = parent.get(node)
    lines = [f"  sampled {sum(per_script.values()):.0f} ms; self time per script:"]
    lines += [f"    {ms:7.0f}  {script}" for script, ms in per_script.most_common(top)]
    lines.append("  most self time:")
    lines += [f"    {ms:7.0f}  {name}" for name, ms in own.most_common(top)]
    lines.append("  most inclusive time:")
    lines += [f"    {ms:7.0f}  {name}" for name, ms in total.most_common(top + 1)[1:]]
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=0)
    parser.add_argument("--objectives", type=int, default=8)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--reloads", type=int, default=2)
    parser.add_argument("--app-dir", type=Path, default=ROOT)
    parser.add_argument("--save-profile", type=Path, default=None)
    args = parser.parse_args(argv)
    from copa_dash.config import Settings

    print("before: " + load_line())
    port = free_port()
    state = Path(tempfile.mkdtemp(prefix="copa-profile-"))
    dataset = "open-llm-leaderboard-v2"
    if args.rows:
        settings = Settings.from_env(app_env(port, state, args.app_dir))
        dataset = upload_table(settings, synthetic_table(args.rows, args.objectives, args.seed))
    url = f"http://127.0.0.1:{port}/explore?dataset={dataset}&alpha=1"
    with RunningApp(port, state=state, app_dir=args.app_dir) as app:
        driver = headless_chromium(1440, 1100)
        try:
            driver.set_script_timeout(300)
            driver.get(url)
            driver.execute_async_script(FIRST_FIGURE)
            time.sleep(3)
            root = driver.service.process.pid
            for n in range(args.reloads):
                before, started = thread_cpu(root), time.time()
                driver.get(url)
                painted = driver.execute_async_script(FIRST_FIGURE) / 1000.0
                used = thread_cpu(root) - before
                print(f"reload {n + 1}: first figure after {painted - started:.2f} s; CPU by thread "
                      f"(s): total {sum(used.values()):.2f}; " + ", ".join(
                          f"{kind}/{name} {s:.2f}" for (kind, name), s in used.most_common(8)))
                time.sleep(2)
            for n in range(args.reloads):
                driver.execute_cdp_cmd("Profiler.enable", {})
                driver.execute_cdp_cmd("Profiler.setSamplingInterval", {"interval": 200})
                driver.execute_cdp_cmd("Profiler.start", {})
                driver.get(url)
                driver.execute_async_script(FIRST_FIGURE)
                profile = driver.execute_cdp_cmd("Profiler.stop", {})["profile"]
                print(f"profiled reload {n + 1}:")
                print("\n".join(summarise(profile)))
                if args.save_profile:
                    path = args.save_profile.with_suffix(f".{n + 1}.cpuprofile")
                    path.write_text(json.dumps(profile))
                    print(f"  saved to {path}")
                time.sleep(2)
        finally:
            driver.quit()
        print(f"server CPU in all: {app.cpu_seconds():.2f} s")
    print("after: " + load_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
