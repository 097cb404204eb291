"""Where one Explore interaction's time goes: each server request's CPU, and the browser's profile.

Serves the app in this process (werkzeug, threaded, on a free loopback port; data and cache
in a new temporary folder) with a Flask hook that reads each ``_dash-update-component``
request's thread CPU, wall time and response size, opens Explore on a bundled dataset in
headless Chromium (1400x1000), and repeats one interaction ``--repeats`` times, each timed by
the page as ``bench_every_control`` times it (from the action to the last change before the
page settles, with the browser's CPU seconds from ``/proc``):

- ``brush``: a range dragged on axis 1 of the parallel coordinates, a new range each time;
- ``tick``: the second objective unticked or ticked back (alternately);
- ``direction``: the second objective's direction flipped (alternately back).

For each, it prints the callback requests it caused (their first outputs), with their CPU.
With ``--browser-profile`` it then repeats the interaction under the DevTools protocol's
sampling profiler and prints the self time per script and the functions with the most self
and inclusive time (``profile_explore_browser.summarise``; the profiler slows the page, so
only the shares count).

This is how docs/benchmarks.md's session 16 section found where a brush's server CPU goes
(the "How sure" panel of each new view) and what a tick's browser CPU is spent on. It prints
no ratio; the A/B timings are ``bench_explore_tick_ab`` and ``bench_explore_brush``'s.

Usage::

    python benchmarks/profile_explore_interaction.py [--action brush|tick|direction]
        [--dataset open-llm-leaderboard-v2] [--repeats 5] [--browser-profile]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._app import app_env, free_port, headless_chromium
from benchmarks._gestures import drag_on_axis
from benchmarks._harness import load_line
from benchmarks.bench_every_control import PAGES, Bench
from benchmarks.bench_explore_tick_ab import BOXES, DIRECTIONS
from benchmarks.profile_explore_browser import summarise

PARALLEL = "#explore-parallel .js-plotly-plot"

# each callback request the page made after ``arguments[0]`` (a performance.now() mark): when
# it was sent and when its answer was read, in ms after the mark. The gaps between one answer
# and the next request are the renderer's and Plotly's work on the critical path.
TIMELINE = """
return performance.getEntriesByType('resource')
    .filter(e => e.name.includes('_dash-update-component') && e.startTime >= arguments[0])
    .map(e => [e.startTime - arguments[0], e.responseEnd - arguments[0]]);
"""


class InProcessApp:
    """What ``Bench`` reads of an app: its address and the CPU seconds it used (this
    process's: the app is served here)."""

    def __init__(self, port: int):
        self.url = f"http://127.0.0.1:{port}"

    def cpu_seconds(self) -> float:
        return time.process_time()


def serve(port: int, requests: list, *, dev_bundles: bool = False):
    """The app of this checkout served on ``port`` in a daemon thread, each callback request
    appended to ``requests`` as (outputs, thread CPU s, wall s, response bytes); with
    ``dev_bundles``, Dash's unminified bundles (a profile then names the renderer's functions;
    they are slower, so only where the time goes counts, not how much)."""
    from flask import g, request
    from werkzeug.serving import make_server

    from copa_dash.app_factory import create_app
    from copa_dash.config import Settings

    app = create_app(Settings.from_env())
    if dev_bundles:
        app.enable_dev_tools(debug=False, dev_tools_serve_dev_bundles=True, dev_tools_ui=False,
                             dev_tools_props_check=False, dev_tools_hot_reload=False)
    server = app.server

    @server.before_request
    def started():
        g.copa_cpu, g.copa_wall = time.thread_time(), time.perf_counter()

    @server.after_request
    def finished(response):
        if request.path.endswith("_dash-update-component"):
            outputs = (request.get_json(silent=True) or {}).get("output", "")
            requests.append((outputs, time.thread_time() - g.copa_cpu,
                             time.perf_counter() - g.copa_wall,
                             response.content_length or len(response.get_data())))
        return response

    httpd = make_server("127.0.0.1", port, server, threaded=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def action(bench: Bench, kind: str, n: int, objective: int = 1):
    """The n-th interaction of ``kind`` on the open page, as a callable for ``Bench.timed``;
    a tick or a direction works the objective at index ``objective`` (the second: 1)."""
    from selenium.webdriver.common.by import By

    driver = bench.driver
    if kind == "brush":
        graph = bench.into_view(PARALLEL)
        return lambda: drag_on_axis(driver, graph, 1, 0.05 * n + 0.1, 0.05 * n + 0.6)
    if kind == "tick":
        return driver.find_elements(By.CSS_SELECTOR, BOXES)[objective].click
    group = driver.find_elements(By.CSS_SELECTOR, DIRECTIONS)[objective]
    return group.find_elements(By.CSS_SELECTOR, "input[type=radio]:not(:checked)")[0].click


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--action", choices=("brush", "tick", "direction"), default="brush")
    parser.add_argument("--dataset", default="open-llm-leaderboard-v2")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--browser-profile", action="store_true")
    parser.add_argument("--save-profile", type=Path, default=None,
                        help="write Chrome's profile (.cpuprofile JSON) here, for DevTools")
    parser.add_argument("--objective", type=int, default=1,
                        help="the index of the objective a tick or a direction works (Open "
                        "LLM: 0 is ifeval, the front figure's y axis; 1 is bbh, off the axes)")
    parser.add_argument("--dev-bundles", action="store_true",
                        help="serve Dash's unminified bundles, so the profile names functions")
    args = parser.parse_args(argv)
    print(load_line(), flush=True)
    port = free_port()
    os.environ.update(app_env(port, Path(tempfile.mkdtemp(prefix="copa-profile-"))))
    requests: list = []
    httpd = serve(port, requests, dev_bundles=args.dev_bundles)
    bench = Bench(InProcessApp(port), headless_chromium(1400, 1000), 1, 1)
    url = f"http://127.0.0.1:{port}/explore?dataset={args.dataset}"
    try:
        for _ in range(2):                          # the second open is warm
            bench.open(url, PAGES["explore"][2])
            time.sleep(2)
        for n in range(args.repeats):
            step = action(bench, args.action, n, args.objective)
            del requests[:]
            bench.driver.execute_script("performance.clearResourceTimings()")
            mark = bench.driver.execute_script("return performance.now()")
            ms, _, cpu, browser = bench.timed(step)
            time.sleep(0.5)                         # late requests (the panel) are counted
            timeline = bench.driver.execute_script(TIMELINE, mark)
            print(f"{args.action} {n + 1}: {ms:.0f} ms, server process CPU {cpu:.2f} s, "
                  f"browser CPU {browser:.2f} s")
            for outputs, thread_cpu, wall, size in requests[:]:   # a copy: the server's threads append
                print(f"    {thread_cpu:.3f} s CPU, {wall:.3f} s wall, {size / 1e3:5.0f} kB: "
                      f"{outputs[:100]}")
            print("    in the browser, ms after the action (request sent -> answer read):",
                  ", ".join(f"{start:.0f}->{end:.0f}" for start, end in timeline))
        if args.browser_profile:
            driver = bench.driver
            driver.execute_cdp_cmd("Profiler.enable", {})
            driver.execute_cdp_cmd("Profiler.setSamplingInterval", {"interval": 200})
            driver.execute_cdp_cmd("Profiler.start", {})
            for n in range(args.repeats):
                bench.timed(action(bench, args.action, args.repeats + n, args.objective))
                time.sleep(0.3)
            profile = driver.execute_cdp_cmd("Profiler.stop", {})["profile"]
            if args.save_profile:
                args.save_profile.write_text(json.dumps(profile))
            print(f"profiled {args.repeats} more:")
            print("\n".join(summarise(profile, 20)))
    finally:
        bench.driver.quit()
        httpd.shutdown()
    print(load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
