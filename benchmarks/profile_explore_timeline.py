"""When each part of one Explore interaction reaches the page: a timeline of its DOM changes.

Serves the app in this process (as ``profile_explore_interaction`` does), opens Explore on a
bundled dataset in headless Chromium (1400x1000) and repeats one interaction (``--action
tick|direction`` on the objective at index ``--objective``; 0 is Open LLM's ``ifeval``, the
front figure's y axis) ``--repeats`` times, each timed as ``bench_every_control`` times it.
A MutationObserver armed before each action records every change of the document; the
milestones are printed in ms after the click (its ``pointerdown``), with their medians:

- ``sent`` / ``read``: the view's request sent and its answer read (Resource Timing);
- ``commit``: the ranked table's new rows in the document (the answer's first render);
- ``drawn``: the figures' points drawn (the first change of an SVG path's ``d``);
- ``share``: the share box's new value in the document;
- ``header``: the header's links rewritten for the new context (assets/context.js);
- ``last``: the last change before the page settled (what ``bench_every_control`` times),
  and what it was.

This is how docs/benchmarks.md's session 22 section found that about a third of a y-axis
tick comes after its figures are drawn. It prints no ratio; the A/B timings are
``bench_explore_tick_ab``'s.

Usage::

    python benchmarks/profile_explore_timeline.py [--action tick|direction] [--objective 0]
        [--dataset open-llm-leaderboard-v2] [--repeats 8]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._app import app_env, free_port, headless_chromium
from benchmarks._harness import load_line
from benchmarks.bench_every_control import PAGES, Bench
from benchmarks.profile_explore_interaction import InProcessApp, action, serve

# Armed before each action: every change of the document as [ms, type, nearest id, attribute]
# (ms from the arming), and the click's time.
RECORD = """
if (window.__copaTimeline) { window.__copaTimeline.obs.disconnect(); }
const t0 = performance.now();
const rec = {t0: t0, click: null, changes: [], obs: null};
function owner(node) {
  let n = node && node.nodeType !== 1 ? node.parentElement : node;
  for (let k = 0; n && k < 8; k += 1, n = n.parentElement) {
    if (n.id) { return n.id; }
  }
  return '';
}
rec.obs = new MutationObserver((list) => {
  const now = performance.now() - t0;
  for (const m of list) { rec.changes.push([now, m.type, owner(m.target), m.attributeName || '']); }
});
rec.obs.observe(document.documentElement, {childList: true, subtree: true,
                                           characterData: true, attributes: true});
document.addEventListener('pointerdown', () => {
  if (rec.click === null) { rec.click = performance.now() - t0; }
}, {capture: true, once: true});
window.__copaTimeline = rec;
"""

READ = """
const rec = window.__copaTimeline;
rec.obs.disconnect();
const requests = performance.getEntriesByType('resource')
    .filter(e => e.name.includes('_dash-update-component') && e.startTime >= rec.t0)
    .map(e => [e.startTime - rec.t0, e.responseEnd - rec.t0]);
return {click: rec.click, changes: rec.changes, requests: requests};
"""

MILESTONES = {
    "commit": lambda kind, owner, attr: owner == "explore-table" and kind == "childList",
    "drawn": lambda kind, owner, attr: attr == "d",
    # an input's value attribute; a textarea's text (the box since session 22 (2))
    "share": lambda kind, owner, attr: owner == "explore-share" and (
        attr == "value" or kind in ("childList", "characterData")),
    "header": lambda kind, owner, attr: '"nav-link"' in owner and attr == "href",
}


def milestones(record: dict, settled_ms: float) -> dict:
    """The milestones of one interaction (ms after the click) from what :data:`READ` gave;
    ``last``: the last change within the time the page's watcher measured."""
    click = record["click"] or 0.0
    changes = [(t - click, kind, owner, attr) for t, kind, owner, attr in record["changes"]]
    out = {}
    if record["requests"]:
        biggest = record["requests"][0]          # the view's: the first request after the click
        out["sent"], out["read"] = biggest[0] - click, biggest[1] - click
    for name, test in MILESTONES.items():
        times = [t for t, kind, owner, attr in changes if test(kind, owner, attr)]
        if times:
            out[name] = min(times)
    counted = [c for c in changes if c[0] <= settled_ms + 1.0]
    if counted:
        last = max(counted, key=lambda c: c[0])
        out["last"] = last[0]
        out["last was"] = f"{last[1]} {last[3]} #{last[2]}".strip()
    return out


def interaction_arguments(description: str, repeats: int) -> argparse.ArgumentParser:
    """The command line of a script that repeats one interaction on Explore."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--action", choices=("tick", "direction"), default="tick")
    parser.add_argument("--objective", type=int, default=0)
    parser.add_argument("--dataset", default="open-llm-leaderboard-v2")
    parser.add_argument("--repeats", type=int, default=repeats)
    return parser


def explore_opened(dataset: str, driver) -> tuple[Bench, object]:
    """The app of this checkout served in this process (a new temporary data and cache
    folder), and ``driver`` with Explore open on ``dataset`` (opened twice: the second is
    warm), as a ``Bench``; and the server, to shut down."""
    print(load_line(), flush=True)
    port = free_port()
    os.environ.update(app_env(port, Path(tempfile.mkdtemp(prefix="copa-explore-"))))
    httpd = serve(port, [])
    bench = Bench(InProcessApp(port), driver, 1, 1)
    for _ in range(2):
        bench.open(f"http://127.0.0.1:{port}/explore?dataset={dataset}", PAGES["explore"][2])
        time.sleep(2)
    return bench, httpd


def main(argv=None) -> int:
    args = interaction_arguments(__doc__.splitlines()[0], 8).parse_args(argv)
    bench, httpd = explore_opened(args.dataset, headless_chromium(1400, 1000))
    rows = []
    try:
        for n in range(args.repeats + 2):           # the first two: untimed warm-up
            step = action(bench, args.action, n, args.objective)
            bench.driver.execute_script(RECORD)
            bench.driver.execute_script("performance.clearResourceTimings()")
            ms, _, _, browser = bench.timed(step)
            time.sleep(0.3)
            found = milestones(bench.driver.execute_script(READ), ms)
            if n < 2:
                continue
            rows.append(found)
            print(f"{args.action} {n - 1}: {ms:.0f} ms, browser CPU {browser:.2f} s; " + ", ".join(
                f"{k} {v:.0f}" if isinstance(v, float) else f"{k} {v}" for k, v in found.items()),
                flush=True)
    finally:
        bench.driver.quit()
        httpd.shutdown()
    print("median ms after the click: " + ", ".join(
        f"{name} {statistics.median(r[name] for r in rows if name in r):.0f}"
        for name in ("sent", "read", "commit", "drawn", "share", "header", "last")
        if any(name in r for r in rows)))
    print(load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
