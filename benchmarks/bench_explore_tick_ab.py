"""An objective tick on Explore, this checkout against a git revision, two servers alternating.

Issue 33 (F9): an objective tick on an upload with 12 objectives took seconds with a few
hundredths of a second of server CPU. This benchmark serves the app of this checkout and of
``--peer-rev`` (its whole tree from ``git archive``) side by side, each with FILE saved as
"Save and explore" saves it (``bench_every_control.save_uploads``), opens Explore on it in one
headless Chromium per side, works an untimed round on both and waits until each server is idle
(a new tree compiles its kernels in the server's background thread first), then, round after
round in a rotated order, unticks the second objective and ticks it back (and with
``--direction`` flips the second objective's direction and back), each timed by the
page itself (``bench_every_control``'s watcher: from the click to the last change of the
document before the page settles), with the server's and the browser's CPU seconds over each
(``/proc``). The picks of both sides are checked equal after each round. On a shared machine
the wall times follow the load; the
browser's CPU seconds are the steadier measure of the page's own work.

Usage::

    python benchmarks/bench_explore_tick_ab.py [--peer-rev HEAD~1] [--rounds 6] [FILE]
        [--dataset open-llm-leaderboard-v2] [--direction] [--new-view]

``--dataset NAME`` opens a bundled dataset on both sides instead of saving FILE. With
``--new-view`` each round also goes to a view no round saw before (:data:`NEW_VIEWS`: an
objective unticked or its direction flipped) and back: the first is timed to its "How sure"
panel shown (the page settles only then), the case a view seen before does not cover.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._app import app_env
from benchmarks._harness import load_line, markdown, percentile
from benchmarks._revision_ab import (
    revision_ab_arguments,
    revision_files,
    round_order,
    settle,
    sides_running,
)
from benchmarks.bench_every_control import PAGES, save_uploads

BOXES = "input[type=checkbox][name*='explore-objectives']"
# the second objective's direction: the radio not checked (flips it)
DIRECTIONS = "[id*='explore-direction']"
# with --new-view, each round (the warm-up round first) goes to a view no round saw before:
# one objective unticked, or its direction flipped (not the second's, which the other steps
# work), and back; the "How sure" panel of such a view is not in the server's cache
NEW_VIEWS = tuple((kind, k) for kind in ("untick", "direction") for k in (0, 2, 3, 4, 5, 6))



def control(driver, step: str, new_view: tuple[str, int], objective: int = 1):
    """The control a step clicks: the tick box of the objective at index ``objective`` (the
    second by default) or its direction's other radio, or for "new view" (and back) those of
    ``new_view``'s objective."""
    from selenium.webdriver.common.by import By

    kind, k = new_view if step.startswith("new view") else (
        "direction" if step.startswith("direction") else "untick", objective)
    if kind == "direction":
        group = driver.find_elements(By.CSS_SELECTOR, DIRECTIONS)[k]
        return group.find_elements(By.CSS_SELECTOR, "input[type=radio]:not(:checked)")[0]
    return driver.find_elements(By.CSS_SELECTOR, BOXES)[k]


def main(argv=None) -> int:

    parser = revision_ab_arguments(__doc__.split("\n\n")[0], rounds=6)
    parser.add_argument("--dataset", help="a bundled dataset's id, opened instead of FILE")
    parser.add_argument("--direction", action="store_true",
                        help="also flip the second objective's direction and back")
    parser.add_argument("--new-view", action="store_true",
                        help="also go to a view no round saw (its 'How sure' panel not "
                        "worked out yet) and back, each round another")
    parser.add_argument("--objective", type=int, default=1,
                        help="the index of the objective unticked and flipped (default 1; on "
                        "Open LLM 0 is ifeval, the front figure's y axis: a tick redraws the "
                        "points instead of restyling them)")
    args = parser.parse_args(argv)
    if args.new_view and args.objective != 1:
        parser.error("--new-view works objectives other than the second: use it with "
                     "the default --objective")
    if args.new_view and args.rounds >= len(NEW_VIEWS):
        parser.error(f"--new-view has {len(NEW_VIEWS)} new views: at most "
                     f"{len(NEW_VIEWS) - 1} rounds")
    steps = (("untick", "tick") + (("direction", "direction back") if args.direction else ())
             + (("new view", "new view back") if args.new_view else ()))
    print(load_line(), flush=True)
    sides = {"this checkout": ROOT, f"peer {args.peer_rev}": revision_files(args.peer_rev)}
    samples = {name: {**{step: [] for step in steps}, "server": [], "browser": []}
               for name in sides}
    datasets = {}

    def save_the_upload(name, port, state, folder):
        datasets[name] = args.dataset or next(iter(save_uploads(
            [args.file], app_env(port, state, folder), folder).values()))

    with sides_running(sides, "copa-bench-tick-", save_the_upload) as (apps, benches):
        urls = {name: f"{app.url}/explore?dataset={datasets[name]}" for name, app in apps.items()}
        for n in range(-1, args.rounds):       # round -1 warms both up (the peer's tree
            picks = []                          # is a new path: its kernels compile first)
            for name in round_order(sides, n):
                bench = benches[name]
                bench.open(urls[name], PAGES["explore"][2])
                for step in steps:
                    box = control(bench.driver, step, NEW_VIEWS[n + 1], args.objective)
                    ms, _, server, browser = bench.timed(box.click)
                    if n >= 0:
                        samples[name][step].append(ms)
                        samples[name]["server"].append(server)
                        samples[name]["browser"].append(browser)
                    time.sleep(0.3)
                picks.append(bench.find("#pick-id").text)
            if len(set(picks)) != 1:
                raise SystemExit(f"round {n + 1}: the sides pick differently: {picks}")
            if n < 0:
                for name in sides:
                    settle(apps[name])
                continue
            print(f"  round {n + 1}: " + ", ".join(
                f"{name} {samples[name]['browser'][-1]:.2f} s browser CPU"
                for name in sides), flush=True)
    head = ["side", *(f"{step} ms (median / p90)" for step in steps), "server CPU s a step",
            "browser CPU s a step (median)", "browser CPU s (each)"]
    rows = [[name, *(f"{statistics.median(s[step]):.0f} / {percentile(s[step], 90):.0f}" for step in steps),
             f"{statistics.median(s['server']):.3f}", f"{statistics.median(s['browser']):.3f}",
             ", ".join(f"{c:.2f}" for c in s["browser"])] for name, s in samples.items()]
    print(f"\n{args.dataset or args.file.name}: Explore, objective {args.objective} unticked and "
          "ticked back" + (", its direction flipped and back" if args.direction else "")
          + ("; a view no round saw and back" if args.new_view else ""))
    print(markdown(head, rows))
    print(f"the picks were equal on both sides in every round; {load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
