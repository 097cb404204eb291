"""The front figure's redraw on a y-axis tick, this checkout's plotly.js bundle against a revision's.

A tick of the y axis's objective on Explore redraws every point of the front figure; most of
the browser's time after the answer is Plotly's (docs/benchmarks.md, sessions 22 and 23). This
benchmark times that redraw alone, without the server, Dash's renderer or the network, so a
change of the bundle shows above the noise of a shared machine:

1. it serves the app of this checkout, opens Explore on a bundled dataset (headless Chromium,
   1400x1000, the suite's flags) and keeps the front figure as drawn (``data`` and ``layout``)
   before and after the y axis's objective is unticked;
2. it opens one page with two frames of the front figure's size, each loading one bundle
   (``assets/plotly-*-copa.min.js`` of this checkout and of ``--peer-rev``), both in the page's
   renderer thread, and draws the first figure in both;
3. round after round, in an order that alternates, each frame redraws with ``Plotly.react`` to
   the other figure (untick, then tick back), timed from the call to the end of the style and
   layout it leaves (``getBoundingClientRect`` forces them); the figures are parsed from JSON
   before the clock starts.

It prints the median and p90 ms of each side's redraws and the ratio of the medians.

Usage::

    python benchmarks/bench_explore_redraw_ab.py [--peer-rev HEAD~1] [--rounds 30]
        [--dataset open-llm-leaderboard-v2] [--objective 0]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._app import app_env, free_port, headless_chromium
from benchmarks._harness import load_line, percentile
from benchmarks.bench_explore_tick_ab import BOXES
from benchmarks.profile_explore_interaction import serve

GRAPH = "#explore-front .js-plotly-plot"
FIGURE = """
const gd = document.querySelector(arguments[0]);
if (!gd || !gd._fullLayout || document.querySelector('.dash-graph--pending')) return null;
return JSON.stringify({data: gd.data, layout: gd.layout});
"""

# the bundle goes in the body, as Dash puts it: it adds its CSS to the document's body
FRAME = """<!doctype html><html><head><meta charset="utf-8"></head>
<body style="margin:0"><div id="graph" style="width:{width}px;height:{height}px"></div>
<script src="{bundle}"></script></body></html>
"""

# in the page of both frames: one redraw of frame ``side`` to figure ``which``, in ms
REDRAW = """
const done = arguments[arguments.length - 1];
const frame = document.getElementById(arguments[0]).contentWindow;
const figure = JSON.parse(window.copaFigures[arguments[1]]);
const gd = frame.document.getElementById('graph');
const started = performance.now();
frame.Plotly.react(gd, figure.data, figure.layout).then(() => {
  gd.getBoundingClientRect();
  done(performance.now() - started);
}).catch(e => done('error: ' + e));
"""


def front_figures(port: int, dataset: str, objective: int) -> tuple[str, str, tuple[int, int]]:
    """The front figure as drawn before and after the objective at index ``objective`` is
    unticked on Explore (JSON), and its size in pixels."""
    from selenium.webdriver.common.by import By

    driver = headless_chromium(1400, 1000)
    try:
        driver.get(f"http://127.0.0.1:{port}/explore?dataset={dataset}")
        _wait_for(lambda: driver.execute_script(FIGURE, GRAPH), 120)
        time.sleep(2)
        before = driver.execute_script(FIGURE, GRAPH)
        driver.find_elements(By.CSS_SELECTOR, BOXES)[objective].click()
        _wait_for(lambda: driver.execute_script(FIGURE, GRAPH) not in (None, before), 60)
        time.sleep(2)
        after = driver.execute_script(FIGURE, GRAPH)
        size = driver.execute_script(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
            "return [Math.round(r.width), Math.round(r.height)];", GRAPH)
    finally:
        driver.quit()
    return before, after, tuple(size)


def _wait_for(read, timeout: float):
    end = time.time() + timeout
    while time.time() < end:
        value = read()
        if value:
            return value
        time.sleep(0.3)
    raise TimeoutError("the front figure was not drawn")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def bundle_of(rev: str | None) -> bytes:
    """The plotly.js bundle in assets/ of this checkout (``None``) or of a git revision."""
    if rev is None:
        return next((ROOT / "assets").glob("plotly-*-copa.min.js")).read_bytes()
    names = subprocess.run(["git", "ls-tree", "--name-only", rev, "assets/"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    name = next(n for n in names if n.endswith("-copa.min.js"))
    return subprocess.run(["git", "show", f"{rev}:{name}"], cwd=ROOT, check=True,
                          capture_output=True).stdout


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer-rev", default="HEAD~1")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--dataset", default="open-llm-leaderboard-v2")
    parser.add_argument("--objective", type=int, default=0)
    args = parser.parse_args(argv)
    print(load_line(), flush=True)
    port = free_port()
    os.environ.update(app_env(port, Path(tempfile.mkdtemp(prefix="copa-redraw-"))))
    httpd = serve(port, [])
    try:
        before, after, (width, height) = front_figures(port, args.dataset, args.objective)
    finally:
        httpd.shutdown()

    site = Path(tempfile.mkdtemp(prefix="copa-redraw-site-"))
    sides = {"this checkout": None, f"peer {args.peer_rev}": args.peer_rev}
    frames = []
    for n, rev in enumerate(sides.values()):
        (site / f"bundle{n}.js").write_bytes(bundle_of(rev))
        (site / f"frame{n}.html").write_text(FRAME.format(bundle=f"bundle{n}.js", width=width,
                                                          height=height))
        frames.append(f'<iframe id="side{n}" src="frame{n}.html" '
                      f'style="width:{width}px;height:{height}px;border:0"></iframe>')
    (site / "index.html").write_text("<!doctype html><html><body style='margin:0'>"
                                     + "".join(frames) + "</body></html>")
    handler = functools.partial(QuietHandler, directory=str(site))
    static = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=static.serve_forever, daemon=True).start()
    driver = headless_chromium(1400, 2 * height + 100)
    times = {name: [] for name in sides}
    try:
        driver.set_script_timeout(60)
        driver.get(f"http://127.0.0.1:{static.server_address[1]}/index.html")
        _wait_for(lambda: driver.execute_script(
            "return ['side0', 'side1'].every(id => document.getElementById(id).contentWindow.Plotly)"),
            60)
        driver.execute_script("window.copaFigures = arguments[0];", [before, after])
        for n in range(2):                                   # drawn first, then warmed up
            for side in range(2):
                for which in (0, 1, 0):
                    driver.execute_async_script(REDRAW, f"side{side}", which)
        for n in range(args.rounds):
            order = (0, 1) if n % 2 == 0 else (1, 0)
            for which in (1, 0):                             # untick, then tick back
                for side in order:
                    ms = driver.execute_async_script(REDRAW, f"side{side}", which)
                    if isinstance(ms, str):
                        raise RuntimeError(ms)  # noqa: TRY004 (the page's error, not a type)
                    times[list(sides)[side]].append(ms)
    finally:
        driver.quit()
        static.shutdown()
    print(f"\n{args.dataset}: the front figure redrawn by Plotly.react to the view with objective "
          f"{args.objective} unticked and back ({len(json.loads(before)['data'][1]['x'])} + "
          f"{len(json.loads(before)['data'][0]['x'])} points), {args.rounds} rounds, "
          "two frames of one page alternating\n")
    print("| bundle | median ms | p90 ms |\n|---|---|---|")
    for name, values in times.items():
        print(f"| {name} | {statistics.median(values):.1f} | {percentile(values, 90):.1f} |")
    names = list(times)
    print(f"\nratio of the medians (this / peer): "
          f"{statistics.median(times[names[0]]) / statistics.median(times[names[1]]):.2f}")
    print(load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
