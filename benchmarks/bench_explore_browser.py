"""How fast the explorer answers a slider move, measured in headless Chromium.

Starts the app (``python app.py``) on a free loopback port, opens the Open LLM Leaderboard's
default view at alpha = 1, then moves alpha down with the keyboard (from 1 to 0.6 the pick
changes at 7 of the 40 steps), then p through its stops (inf down to 1 and back up). Each move
is timed by the page itself, from the keydown event to the first frame painted after the
share link changed and no component is marked as waiting for a callback
(``data-dash-is-loading``) and no callback is pending at all (Dash's
``_dash-loading-callback`` marker), so a move is done when the last part of the page (share
link, p controls, pick card, figures, table page) has answered, however many callbacks bring
them. The time until the figures are in (the share link holds the new view and neither
figure waits for a callback) is reported beside it: with the view split over several
callbacks the figures may come before the rest. The watcher is set
up before the key is pressed; WebDriver only collects its result afterwards, and the script
checks that the share link then holds the value the slider shows. Alpha moves that change the
pick (and so redraw the figures' markers) are also reported apart. The first two alpha moves
are not timed (the browser is still compiling the page's JavaScript).

Beside each wall time the CPU time spent over it is reported: the server's (the app process,
from ``/proc``) and the browser's (chromedriver and its Chromium processes), as medians with
the interquartile range of the wall times, and the machine's load before and after
(``benchmarks/_harness.py``): on a shared machine the wall times follow the load, CPU times
much less. Before any time is printed the page's pick is checked, at the first view, after the
alpha moves and after the p moves, against the pick the explorer service computes in this
process for the view the share link holds and against ``copa_select`` over every row; a
difference stops the run.

With ``--rows N --objectives K`` the page is measured on a big uploaded table instead: a
seeded synthetic table (N rows, an id and K objectives that trade off along a latent
quality, so the front is a small share of the rows) is generated in memory, uploaded
through the upload service as the upload page does (stage, the proposed roles, save), and
``/explore?dataset=ID`` is opened. The time to the first figure is then reported too: from
the page load (``driver.get``) to the first frame painted with the pick shown and the front
figure drawn, for the cold first open (the app just started: the server computes the ranks
and the front, the browser has nothing cached), for warm reloads, and for first opens in a
browser started for each (``--fresh-opens``; nothing cached, no script compiled before: a
teammate opening a shared link) against the warm server.

Usage::

    python benchmarks/bench_explore_browser.py [--moves 40] [--app-dir DIR]
    python benchmarks/bench_explore_browser.py --rows 100000 --objectives 8 --moves 20
    python benchmarks/bench_explore_browser.py --rows 1000000 --objectives 4 --moves 10

``--app-dir`` runs the ``app.py`` of another checkout (e.g. ``git archive`` of the commit
before a change, with PYTHONPATH set to it), to compare two versions with one watcher.

Needs Debian's chromium and chromium-driver (``make test`` installs them).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._app import RunningApp, app_env, free_port, headless_chromium, tree_cpu_seconds
from benchmarks._harness import load_line
from copa_dash.ui.features.explore.state import P_STOPS, format_p

# The first figure is in when the pick is named, the front figure has drawn its traces (SVG
# points or a WebGL canvas) and nothing waits for a callback; timed at the next painted frame.
# The page is checked whenever the document changes (a MutationObserver: its callback runs
# right after the change, inside the task that made it) and every 20 ms: a timer alone can
# fire only after whatever the page queued meanwhile (a below-the-screen figure drawn after
# the first paint, assets/plotly_offscreen.js), and would time that too.
FIRST_FIGURE = """
const done = arguments[arguments.length - 1];
const start = performance.now();
let state = 'waiting';          // then 'painting' (the frame is on its way), then 'done'
function drawn() {
  const pick = document.getElementById('pick-id');
  const plot = document.querySelector('#explore-front .js-plotly-plot');
  return pick && pick.textContent && plot && plot._fullData && plot._fullData.length
    && (plot.querySelector('.scatterlayer .trace .point') || plot.querySelector('canvas.gl-canvas-context'))
    && !document.querySelector('[data-dash-is-loading="true"]');
}
function finish(value) {
  if (state === 'done') { return; }
  state = 'done';
  observer.disconnect();
  done(value);
}
function check() {
  if (state === 'waiting' && drawn()) {
    state = 'painting';
    requestAnimationFrame(() => finish(performance.timeOrigin + performance.now()));
  }
}
const observer = new MutationObserver(check);
observer.observe(document.documentElement, {childList: true, subtree: true, characterData: true,
                                            attributes: true, attributeFilter: ['data-dash-is-loading']});
(function poll() {
  if (state !== 'waiting') { return; }
  check();
  if (performance.now() - start > 300000) { finish(-1); return; }
  setTimeout(poll, 20);
}());
"""

# Armed before the key is pressed, so the page times itself: WebDriver's own round trips
# (send_keys returning, then a script asking whether the page is done) take longer than many
# moves, and a watcher started after them only sees a page that settled earlier.
ARM_MOVE_WATCH = """
window.__copaMove = null;
window.__copaFigure = null;
const box = () => document.getElementById('explore-share');
const figuresIn = () => !document.querySelector(
  '#explore-front[data-dash-is-loading="true"], #explore-parallel[data-dash-is-loading="true"]');
const before = box() ? box().value : null;
document.addEventListener('keydown', () => {
  const start = performance.now();
  function settled() {
    // the share link holds the new view and no component waits for a callback
    return box() && box().value !== before
      && !document.querySelector('[data-dash-is-loading="true"]')
      && !document.querySelector('._dash-loading-callback');
  }
  function poll() {
    // the figures are in when the share link holds the new view and neither figure waits
    // for a callback; timed at the frame painted after (in a split view callback the pick
    // card or the table page may still be on their way then)
    if (window.__copaFigure === null && box() && box().value !== before && figuresIn()) {
      window.__copaFigure = -2;
      requestAnimationFrame(() => { window.__copaFigure = performance.now() - start; });
    }
    // done at the first frame the browser paints after the page settled (a
    // requestAnimationFrame callback runs before the frame it belongs to is painted)
    if (settled()) {
      requestAnimationFrame(() => { window.__copaMove = performance.now() - start; });
      return;
    }
    if (performance.now() - start > 20000) { window.__copaMove = -1; return; }
    requestAnimationFrame(poll);
  }
  requestAnimationFrame(poll);
}, {capture: true, once: true});
"""

COLLECT_MOVE = """
const done = arguments[arguments.length - 1];
(function wait() {
  if (window.__copaMove !== null && window.__copaFigure !== -2) {
    done([window.__copaMove, window.__copaFigure === null ? -1 : window.__copaFigure]);
    return;
  }
  setTimeout(wait, 25);
}());
"""


def synthetic_table(rows: int, objectives: int, seed: int = 23):
    """A seeded model-evaluation table: ``model`` names the rows; ``score_1..`` (higher is
    better) and ``cost_1..`` (lower is better) trade off: each row has a latent quality q
    and a budget b, scores grow with q and costs with q and (1 - b), plus noise."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    quality = rng.beta(2.0, 5.0, rows)
    budget = rng.random(rows)
    columns = {"model": [f"m{i:07d}" for i in range(rows)]}
    for k in range(objectives):
        noise = rng.normal(0.0, 0.05, rows)
        if k % 2 == 0:
            columns[f"score_{k // 2 + 1}"] = np.round(quality * (0.5 + budget) + noise, 6)
        else:
            columns[f"cost_{k // 2 + 1}"] = np.round(np.exp(3 * quality + 2 * (1 - budget) + noise), 6)
    return pd.DataFrame(columns)


def upload_table(settings, frame) -> str:
    """Upload ``frame`` as the upload page does: stage the file, take the proposed roles, save
    (shared, so the page opens it without an owner token). Returns the dataset id."""
    from copa_dash.services.uploads import save_upload, stage_upload

    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    staged = stage_upload(settings, "big.parquet", buffer.getvalue())
    saved = save_upload(settings, staged.token, "big.parquet", staged.proposed,
                        name=f"synthetic {len(frame)} x {frame.shape[1] - 1}", shared=True)
    return saved.id


class Meters:
    """CPU seconds of the server (the app process) and of the browser (chromedriver and
    every Chromium process below it), read before and after each timed step."""

    def __init__(self, app: RunningApp, driver):
        self.app = app
        self.browser_pid = driver.service.process.pid

    def read(self) -> tuple[float, float]:
        return self.app.cpu_seconds(), tree_cpu_seconds(self.browser_pid)

    def since(self, before: tuple[float, float]) -> tuple[float, float]:
        after = self.read()
        return after[0] - before[0], after[1] - before[1]


def _wait_until_quiet(app: RunningApp, share: float = 0.05, limit: float = 300.0) -> float:
    """Wait until the app has used under ``share`` of a core for two seconds in a row (a
    fresh process loads or compiles its numba kernels and runs warm-up steps in a background
    thread for a while, which would time that thread, not the page); the seconds waited."""
    started = quiet = time.perf_counter()
    used = app.cpu_seconds()
    while time.perf_counter() - started < limit:
        time.sleep(1.0)
        now = app.cpu_seconds()
        if now - used > share:
            quiet = time.perf_counter()
        elif time.perf_counter() - quiet >= 2.0:
            break
        used = now
    return time.perf_counter() - started


def _timed_moves(driver, meters: Meters, slider_css: str, key, readout, moves: int,
                 warmup: int = 2) -> list[dict]:
    """Time ``moves`` key presses on a slider, after ``warmup`` untimed ones (the browser
    compiles the page's JavaScript on the first updates). Each move: its wall time in the
    page (ms), the server's and the browser's CPU time over it (ms), whether the pick
    changed."""
    from selenium.webdriver.common.by import By

    slider = driver.find_elements(By.CSS_SELECTOR, slider_css)[0]
    times = []
    for _ in range(warmup + moves):
        before = driver.find_element(By.ID, "pick-id").text
        driver.execute_script(ARM_MOVE_WATCH)
        cpu = meters.read()
        slider.send_keys(key)
        elapsed, figures = driver.execute_async_script(COLLECT_MOVE)
        server, browser = meters.since(cpu)
        if elapsed < 0:
            continue
        needle = readout(driver)        # the page settled on the move the slider shows
        if needle not in driver.find_element(By.ID, "explore-share").get_attribute("value"):
            raise SystemExit(f"the share link does not hold {needle!r} after the move")
        times.append({"wall": elapsed, "figures": elapsed if figures < 0 else figures,
                      "server": 1e3 * server, "browser": 1e3 * browser,
                          "changed": driver.find_element(By.ID, "pick-id").text != before})
        time.sleep(0.1)                 # no move while the page still finishes the last one
    return times[warmup:]


def service_pick(settings, share_link: str) -> tuple[str, str]:
    """The pick of the view a share link describes, computed in this process without the
    page: through the explorer service (as the page does) and by the selection kernel
    alone over every row (``copa_select``, not the ranking head). Both ids."""
    from urllib.parse import urlsplit

    from copa_dash.services import selection
    from copa_dash.services.catalog import open_dataset
    from copa_dash.services.explorer import explore
    from copa_dash.ui.features.explore.state import with_defaults
    from copa_dash.ui.features.explore.view_memo import state_of
    from copa_dash.ui.features.explore.view_state import preferences_and_filter

    query = urlsplit(share_link).query
    state = state_of(query)
    opened = open_dataset(state.dataset, settings)
    state = with_defaults(state, opened, tuple(k.split("=")[0] for k in query.split("&")))
    prefs, row_filter = preferences_and_filter(state, opened.table)
    result = explore(opened, prefs, row_filter)
    problem = selection.build_problem(opened.table, prefs, row_filter)
    direct = selection.select(problem)
    return str(result.problem.ids[result.pick]), str(problem.ids[direct])


def _check_pick(driver, settings, where: str) -> str:
    """The page's pick against :func:`service_pick`; stops the run when they differ."""
    from selenium.webdriver.common.by import By

    shown = driver.find_element(By.ID, "pick-id").text
    link = driver.find_element(By.ID, "explore-share").get_attribute("value")
    via_service, direct = service_pick(settings, link)
    if not shown == via_service == direct:
        raise SystemExit(f"{where}: the page picks {shown!r}, the explorer service "
                         f"{via_service!r}, copa_select {direct!r} - refusing to report times")
    return f"{where}: page, explorer service and copa_select all pick {shown!r}"


def _timed_open(driver, meters: Meters, url: str, label: str) -> tuple[str, float, float, float]:
    """Open ``url`` in ``driver`` and time it to the first figure: (label, wall s, server CPU s,
    browser CPU s)."""
    cpu = meters.read()
    started = time.time()
    driver.get(url)
    painted = driver.execute_async_script(FIRST_FIGURE)
    if painted < 0:
        raise SystemExit("the explorer did not draw the front figure within 5 minutes")
    server, browser = meters.since(cpu)
    return label, painted / 1000.0 - started, server, browser


def _fresh_browser_open(app: RunningApp, url: str) -> tuple[str, float, float, float]:
    """:func:`_timed_open` in a browser started for it (nothing cached, no script compiled
    before: a teammate opening a shared link), against the warm server."""
    driver = headless_chromium(1440, 1100)
    try:
        driver.set_script_timeout(320)
        return _timed_open(driver, Meters(app, driver), url, "first open (warm server, fresh browser)")
    finally:
        driver.quit()


def _spread(values) -> str:
    """Interquartile range over the median, in percent (min-max below 4 values)."""
    med = statistics.median(values)
    if med <= 0:
        return "-"
    if len(values) < 4:
        return f"{100 * (max(values) - min(values)) / med:.0f}%"
    q1, _, q3 = statistics.quantiles(values, n=4)
    return f"{100 * (q3 - q1) / med:.0f}%"


def _p90(ordered) -> float:
    """The 90th percentile of sorted values (the nearest rank at or above it)."""
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def _move_rows(rows) -> list[str]:
    lines = [("| move | n | wall median ms (IQR) | wall p90 ms | figures in median ms | "
              "figures in p90 ms | server CPU median ms | browser CPU median ms |"),
             "|---|---|---|---|---|---|---|---|"]
    for name, moves in rows:
        if not moves:
            lines.append(f"| {name} | 0 | - | - | - | - | - | - |")
            continue
        wall = sorted(m["wall"] for m in moves)
        figures = sorted(m["figures"] for m in moves)
        lines.append(f"| {name} | {len(moves)} | {statistics.median(wall):.0f} ({_spread(wall)}) "
                     f"| {_p90(wall):.0f} | {statistics.median(figures):.0f} | "
                     f"{_p90(figures):.0f} | {statistics.median(m['server'] for m in moves):.0f} | "
                     f"{statistics.median(m['browser'] for m in moves):.0f} |")
    return lines


def main(argv=None) -> int:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from copa_dash.config import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--rows", type=int, default=0,
                        help="measure on a synthetic uploaded table of this many rows")
    parser.add_argument("--objectives", type=int, default=8)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--reloads", type=int, default=3,
                        help="warm reloads timed after the cold first open")
    parser.add_argument("--fresh-opens", type=int, default=3,
                        help="first opens in a newly started browser, after the reloads")
    parser.add_argument("--app-dir", type=Path, default=ROOT,
                        help="the checkout whose app.py runs (default: this one)")
    args = parser.parse_args(argv)
    print(f"app: {args.app_dir.resolve()}")
    print("before: " + load_line())
    port = free_port()
    root = Path(tempfile.mkdtemp(prefix="copa-bench-"))
    settings = Settings.from_env(app_env(port, root, args.app_dir))
    url = f"http://127.0.0.1:{port}/explore?dataset=open-llm-leaderboard-v2&alpha=1"
    if args.rows:
        frame = synthetic_table(args.rows, args.objectives, args.seed)
        started = time.perf_counter()
        dataset = upload_table(settings, frame)
        print(f"table: {args.rows} rows x {args.objectives} objectives (seed {args.seed}), "
              f"uploaded as {dataset} in {time.perf_counter() - started:.1f} s")
        url = f"http://127.0.0.1:{port}/explore?dataset={dataset}&alpha=1"
    app = RunningApp(port, state=root, app_dir=args.app_dir)
    driver = headless_chromium(1440, 1100)
    meters = Meters(app, driver)
    first, checks = [], []
    try:
        driver.set_script_timeout(320)
        for n in range(1 + args.reloads):
            if n == 1:      # the reloads time the page, not the app's background compiles
                checks.append(f"waited {_wait_until_quiet(app):.0f} s after the first open "
                              "for the app's background work to finish")
            first.append(_timed_open(driver, meters, url,
                                     "first open (cold server, fresh browser)" if n == 0
                                     else "reload (warm server, warm browser)"))
        for _ in range(args.fresh_opens):
            first.append(_fresh_browser_open(app, url))
        size = driver.execute_script(
            "const p = document.querySelector('#explore-front .js-plotly-plot');"
            "return [p._fullData.map(t => t.type + ':' + (t.x ? t.x.length : 0)).join(' '),"
            " JSON.stringify(p.data).length,"
            " performance.getEntriesByType('resource').filter(e => e.name.includes('_dash-update'))"
            ".map(e => [Math.round(e.startTime), Math.round(e.duration), e.transferSize])];")
        driver.set_script_timeout(30)
        for _ in range(240):  # a cold start computes the dataset's ranks and front first
            ready = driver.find_elements(By.ID, "pick-id") and driver.find_elements(
                By.CSS_SELECTOR, "#explore-alpha [role=slider]")
            if ready and driver.find_element(By.ID, "pick-id").text:
                break
            time.sleep(0.5)
        else:
            raise SystemExit("the explorer did not show a pick within 2 minutes")
        time.sleep(2)
        checks.append(_check_pick(driver, settings, "first view"))
        waited = _wait_until_quiet(app)
        checks.append(f"waited {waited:.0f} s for the app's background work to finish")
        idle = meters.read()             # what the open page and the server cost doing nothing
        time.sleep(2.0)
        idle = tuple(1e3 * v / 2.0 for v in meters.since(idle))

        def alpha_text(d):
            value = d.find_elements(By.CSS_SELECTOR, "#explore-alpha [role=slider]")[0] \
                .get_attribute("aria-valuenow")
            return f"alpha={float(value):g}&"

        def p_text(d):  # the slider's stop (the p box follows it in a callback of its own)
            index = d.find_elements(By.CSS_SELECTOR, "#explore-p-slider [role=slider]")[0] \
                .get_attribute("aria-valuenow")
            return "p=" + format_p(P_STOPS[int(index)]) + "&"

        alpha_times = _timed_moves(driver, meters, "#explore-alpha [role=slider]",
                                   Keys.ARROW_LEFT, alpha_text, args.moves)
        checks.append(_check_pick(driver, settings, "after the alpha moves"))
        p_times = _timed_moves(driver, meters, "#explore-p-slider [role=slider]",
                               Keys.ARROW_LEFT, p_text, 6, warmup=0)
        checks.append(_check_pick(driver, settings, "at p = 1"))
        p_times += _timed_moves(driver, meters, "#explore-p-slider [role=slider]",
                                Keys.ARROW_RIGHT, p_text, 6, warmup=0)
        checks.append(_check_pick(driver, settings, "back at p = inf"))
    finally:
        driver.quit()
        app.stop()
    print("after: " + load_line())
    print("\n".join(checks))
    print(f"idle, per second, before the moves: server CPU {idle[0]:.0f} ms, browser CPU "
          f"{idle[1]:.0f} ms (part of every move's CPU figures)")
    if args.rows:
        print(f"front figure traces: {size[0]}; its data as JSON: {size[1] / 1e6:.1f} MB")
        print("callbacks of the last reload (start ms, duration ms, bytes): "
              + ", ".join(f"({a}, {b}, {c})" for a, b, c in size[2]))
    print("| page load | n | wall median s (IQR) | server CPU s | browser CPU s |")
    print("|---|---|---|---|---|")
    for label in dict.fromkeys(label for label, *_ in first):
        runs = [r for r in first if r[0] == label]
        walls = [r[1] for r in runs]
        print(f"| {label} | {len(runs)} | {statistics.median(walls):.2f} ({_spread(walls)}) | "
              f"{statistics.median(r[2] for r in runs):.2f} | "
              f"{statistics.median(r[3] for r in runs):.2f} |")
    rows = (("alpha, every move", alpha_times),
            ("alpha, moves that change the pick", [m for m in alpha_times if m["changed"]]),
            ("p, every move", p_times),
            ("p, moves that change the pick", [m for m in p_times if m["changed"]]))
    print("\n".join(_move_rows(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
