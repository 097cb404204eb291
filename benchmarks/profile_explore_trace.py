"""Where the browser's main thread spends one Explore interaction: script, style, layout, paint.

The sampling profiler (``profile_explore_interaction --browser-profile``) names the scripts'
functions but puts the browser's own work (style recalculation, layout, paint) under one
"(program)". This script reads Chrome's trace instead (``devtools.timeline``, collected by
chromedriver's performance log): it serves the app in this process (as
``profile_explore_interaction`` does), opens Explore on a bundled dataset in headless
Chromium (1400x1000, the suite's flags), works the interaction twice untimed, then
``--repeats`` times traced, and prints, per interaction, the renderer main thread's time by
kind of work (self time: a style recalculation forced inside a script counts as style, not as
script), from the click to the page settled (``bench_every_control``'s watcher).

This is how docs/benchmarks.md's session 23 section split a y-axis tick into script and
rendering. It prints no ratio; the A/B timings are ``bench_explore_tick_ab``'s.

Usage::

    python benchmarks/profile_explore_trace.py [--action tick|direction] [--objective 0]
        [--dataset open-llm-leaderboard-v2] [--repeats 5]
"""

from __future__ import annotations

import collections
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._app import headless_chromium
from benchmarks._harness import load_line
from benchmarks.profile_explore_interaction import action
from benchmarks.profile_explore_timeline import explore_opened, interaction_arguments

# the trace events' names grouped into the kinds of work printed
KINDS = {
    "script": ("FunctionCall", "EvaluateScript", "TimerFire", "EventDispatch", "RunMicrotasks",
               "FireAnimationFrame", "v8.callFunction", "V8.Execute", "XHRReadyStateChange",
               "XHRLoad", "v8.run", "RunTask"),
    "garbage collection": ("MinorGC", "MajorGC", "V8.GCScavenger", "V8.GCCompactor",
                           "V8.GCFinalizeMC", "V8.GCIncrementalMarking", "BlinkGC.AtomicPhase",
                           "ThreadState::performIdleLazySweep", "V8.GC_MC_BACKGROUND_MARKING"),
    "style": ("UpdateLayoutTree", "RecalculateStyles", "ScheduleStyleRecalculation",
              "ParseAuthorStyleSheet"),
    "layout": ("Layout", "UpdateLayerTree", "InvalidateLayout"),
    "paint": ("Paint", "PrePaint", "PaintImage", "Layerize", "UpdateLayer", "Commit",
              "CompositeLayers", "RasterTask"),
    "parse": ("ParseHTML", "v8.compile", "v8.parseOnBackground", "ResourceReceivedData"),
    "hit test": ("HitTest",),
}
KIND_OF = {name: kind for kind, names in KINDS.items() for name in names}
TRACED = "devtools.timeline,disabled-by-default-devtools.timeline,v8"


def trace_events(driver) -> list[dict]:
    """The trace events chromedriver collected since the last call."""
    events = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Tracing.dataCollected":
            events.append(message["params"])
    return events


def main_thread_self_time(events: list[dict], start_us: float, end_us: float) -> collections.Counter:
    """Self time (ms) by kind of work of the renderer's main thread between two trace times:
    complete events nested by their times, each event's time less its children's."""
    threads = {(e["pid"], e["tid"]) for e in events
               if e.get("ph") == "M" and e.get("name") == "thread_name"
               and e.get("args", {}).get("name") == "CrRendererMain"}
    spans = sorted(((e["ts"], e["ts"] + e.get("dur", 0), e["name"]) for e in events
                    if e.get("ph") == "X" and (e["pid"], e["tid"]) in threads
                    and start_us <= e["ts"] <= end_us and e.get("dur")),
                   key=lambda s: (s[0], -s[1]))
    out = collections.Counter()
    stack: list[list] = []          # [end, kind, child time]

    def close(until: float) -> None:
        while stack and stack[-1][0] <= until:
            end, kind, child, begin = stack.pop()
            out[kind] += (end - begin - child) / 1000.0
            if stack:
                stack[-1][2] += end - begin

    for begin, end, name in spans:
        close(begin)
        kind = KIND_OF.get(name, stack[-1][1] if stack else "other: " + name)
        stack.append([end, kind, 0.0, begin])
    close(float("inf"))
    return out


def main(argv=None) -> int:
    args = interaction_arguments(__doc__.splitlines()[0], 5).parse_args(argv)
    bench, httpd = explore_opened(args.dataset, headless_chromium(trace_categories=TRACED))
    rows = []
    try:
        for n in range(args.repeats + 2):           # the first two: untimed warm-up
            step = action(bench, args.action, n, args.objective)
            trace_events(bench.driver)              # drop what came before
            ms, _, _, browser = bench.timed(step)
            time.sleep(1.0)                         # the trace's last events arrive
            events = trace_events(bench.driver)
            if n < 2:
                continue
            # trace times are the browser's monotonic clock: anchor on the click's trace event
            clicks = [e["ts"] for e in events if e.get("name") == "EventDispatch"
                      and e.get("args", {}).get("data", {}).get("type") in ("pointerdown", "click")]
            start = min(clicks) if clicks else min(e["ts"] for e in events if "ts" in e)
            used = main_thread_self_time(events, start, start + ms * 1000.0)
            rows.append(used)
            print(f"{args.action} {n - 1}: {ms:.0f} ms, browser CPU {browser:.2f} s; main thread "
                  f"{sum(used.values()):.0f} ms: " + ", ".join(
                      f"{kind} {v:.0f}" for kind, v in used.most_common(8)), flush=True)
    finally:
        bench.driver.quit()
        httpd.shutdown()
    kinds = sorted({k for r in rows for k in r}, key=lambda k: -statistics.median(r[k] for r in rows))
    print("median ms of the main thread from the click to the page settled: " + ", ".join(
        f"{k} {statistics.median(r[k] for r in rows):.0f}" for k in kinds[:10]))
    print(load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
