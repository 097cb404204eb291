"""How fast the explorer answers a slider move, measured in headless Chromium.

Starts the app (``python app.py``) on a free loopback port, opens the Open LLM Leaderboard's
default view at alpha = 1, then moves alpha down with the keyboard (from 1 to 0.6 the pick
changes at 7 of the 40 steps), then p through its stops (inf down to 1 and back up). Each move
is timed by the page itself, from the keydown event to the first frame painted after the
share link changed and no component is marked as waiting for a callback
(``data-dash-is-loading``) and no callback is pending at all (Dash's
``_dash-loading-callback`` marker): the explorer's view callback writes the share link, the
p controls and the figures, then the pick card and the table page render from the view it
stored, so a move is done when the last of them has answered. The time until the figures are
in (the share link holds the new view and neither figure waits for a callback) is reported
beside it, and the app process's CPU time per move. The watcher is set up before the key is
pressed; WebDriver only collects its result afterwards, and the script checks that the share
link then holds the value the slider shows. Alpha moves that change the pick (and so redraw
the figures' markers) are also reported apart. The first two alpha moves are not timed (the
browser is still compiling the page's JavaScript).

With ``--rows N --objectives K`` the page is measured on a big uploaded table instead: a
seeded synthetic table (N rows, an id and K objectives that trade off along a latent
quality, so the front is a small share of the rows) is generated in memory, uploaded
through the upload service as the upload page does (stage, the proposed roles, save), and
``/explore?dataset=ID`` is opened. The time to the first figure is then reported too: from
the page load (``driver.get``) to the first frame painted with the pick shown and the front
figure drawn, for the cold first open (the server computes ranks and the front) and for a
warm reload.

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
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from copa_dash.ui.features.explore.state import P_STOPS, format_p

# The first figure is in when the pick is named, the front figure has drawn its traces (SVG
# points or a WebGL canvas) and nothing waits for a callback; timed at the next painted frame.
FIRST_FIGURE = """
const done = arguments[arguments.length - 1];
const start = performance.now();
function drawn() {
  const pick = document.getElementById('pick-id');
  const plot = document.querySelector('#explore-front .js-plotly-plot');
  return pick && pick.textContent && plot && plot._fullData && plot._fullData.length
    && (plot.querySelectorAll('.scatterlayer .trace .point').length > 0
        || plot.querySelector('canvas.gl-canvas-context'))
    && !document.querySelector('[data-dash-is-loading="true"]');
}
(function poll() {
  if (drawn()) { requestAnimationFrame(() => done(performance.timeOrigin + performance.now())); return; }
  if (performance.now() - start > 300000) { done(-1); return; }
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
    // the figures are in when the share link holds the new view (the figures' callback writes
    // both) and neither figure waits for a callback; timed at the frame painted after
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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _bench_env(root: Path, port: int) -> dict:
    return dict(os.environ, COPA_PORT=str(port), COPA_DATA_DIR=str(root / "data"),
                COPA_CACHE_DIR=str(root / "cache"), COPA_MAX_UPLOAD_MB="400")


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


def _server_cpu(process) -> float:
    """CPU seconds the app's process has used so far (user + system, every thread; Linux)."""
    fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_until_quiet(process, share: float = 0.05, limit: float = 300.0) -> float:
    """Wait until the app's process has used under ``share`` of a core for two seconds in a
    row (a fresh process compiles numba kernels in a background thread for a while, which
    would time the compiler, not the page); returns the seconds waited."""
    started = quiet = time.perf_counter()
    used = _server_cpu(process)
    while time.perf_counter() - started < limit:
        time.sleep(1.0)
        now = _server_cpu(process)
        if now - used > share:
            quiet = time.perf_counter()
        elif time.perf_counter() - quiet >= 2.0:
            break
        used = now
    return time.perf_counter() - started


def _start_app(port: int, root: Path | None = None, app_dir: Path = ROOT) -> subprocess.Popen:
    root = root or Path(tempfile.mkdtemp(prefix="copa-bench-"))
    env = _bench_env(root, port)
    env.setdefault("NUMBA_CACHE_DIR", str(root / "numba"))
    process = subprocess.Popen([sys.executable, "app.py"], cwd=app_dir, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(1200):  # a cold numba cache compiles the kernels first
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return process
        except OSError:
            time.sleep(0.5)
    process.kill()
    raise SystemExit("the app did not start within 10 minutes")


def _driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options

    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-background-networking", "--window-size=1440,1100"):
        options.add_argument(argument)
    if os.path.exists("/usr/bin/chromium"):
        options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(options=options)


def _timed_moves(driver, slider_css: str, key, readout, moves: int, warmup: int = 2) -> list[float]:
    """Time ``moves`` key presses on a slider, after ``warmup`` untimed ones (the browser
    compiles the page's JavaScript on the first updates): (until every part answered, whether
    the pick changed, until the figures were in) per move."""
    from selenium.webdriver.common.by import By

    slider = driver.find_elements(By.CSS_SELECTOR, slider_css)[0]
    times = []
    for _ in range(warmup + moves):
        before = driver.find_element(By.ID, "pick-id").text
        driver.execute_script(ARM_MOVE_WATCH)
        slider.send_keys(key)
        elapsed, figure = driver.execute_async_script(COLLECT_MOVE)
        if elapsed < 0:
            continue
        needle = readout(driver)        # the page settled on the move the slider shows
        if needle not in driver.find_element(By.ID, "explore-share").get_attribute("value"):
            raise SystemExit(f"the share link does not hold {needle!r} after the move")
        times.append((elapsed, driver.find_element(By.ID, "pick-id").text != before,
                      figure if figure >= 0 else elapsed))
        time.sleep(0.1)                 # no move while the page still finishes the last one
    return times[warmup:]


def main(argv=None) -> int:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--rows", type=int, default=0,
                        help="measure on a synthetic uploaded table of this many rows")
    parser.add_argument("--objectives", type=int, default=8)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--app-dir", type=Path, default=ROOT,
                        help="the checkout whose app.py runs (default: this one)")
    args = parser.parse_args(argv)
    print(f"app: {args.app_dir.resolve()}; machine load (1, 5, 15 min) before: "
          f"{os.getloadavg()}, cores: {os.cpu_count()}")
    port = _free_port()
    root = Path(tempfile.mkdtemp(prefix="copa-bench-"))
    url = f"http://127.0.0.1:{port}/explore?dataset=open-llm-leaderboard-v2&alpha=1"
    if args.rows:
        from copa_dash.config import Settings

        frame = synthetic_table(args.rows, args.objectives, args.seed)
        started = time.perf_counter()
        dataset = upload_table(Settings.from_env(_bench_env(root, port)), frame)
        print(f"table: {args.rows} rows x {args.objectives} objectives (seed {args.seed}), "
              f"uploaded as {dataset} in {time.perf_counter() - started:.1f} s")
        url = f"http://127.0.0.1:{port}/explore?dataset={dataset}&alpha=1"
    app = _start_app(port, root, args.app_dir)
    driver = _driver()
    first = []
    try:
        driver.set_script_timeout(320)
        for label in ("first open (cold server)", "reload (warm server)"):
            started = time.time()
            driver.get(url)
            painted = driver.execute_async_script(FIRST_FIGURE)
            if painted < 0:
                raise SystemExit("the explorer did not draw the front figure within 5 minutes")
            first.append((label, painted / 1000.0 - started))
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
        print(f"waited {_wait_until_quiet(app):.0f} s for the app's background compiles")

        def alpha_text(d):
            value = d.find_elements(By.CSS_SELECTOR, "#explore-alpha [role=slider]")[0] \
                .get_attribute("aria-valuenow")
            return f"alpha={float(value):g}&"

        def p_text(d):  # the slider's stop (the p box follows it in a callback of its own)
            index = d.find_elements(By.CSS_SELECTOR, "#explore-p-slider [role=slider]")[0] \
                .get_attribute("aria-valuenow")
            return "p=" + format_p(P_STOPS[int(index)]) + "&"

        cpu = [_server_cpu(app)]
        alpha_times = _timed_moves(driver, "#explore-alpha [role=slider]", Keys.ARROW_LEFT,
                                   alpha_text, args.moves)
        cpu.append(_server_cpu(app))
        p_times = _timed_moves(driver, "#explore-p-slider [role=slider]", Keys.ARROW_LEFT,
                               p_text, 6, warmup=0)
        p_times += _timed_moves(driver, "#explore-p-slider [role=slider]", Keys.ARROW_RIGHT,
                                p_text, 6, warmup=0)
        cpu.append(_server_cpu(app))
    finally:
        driver.quit()
        app.terminate()
    print(f"load average after: {os.getloadavg()}")
    # the alpha moves' count includes the two untimed warm-up moves
    print(f"server CPU per move: alpha {1000 * (cpu[1] - cpu[0]) / (args.moves + 2):.1f} ms, "
          f"p {1000 * (cpu[2] - cpu[1]) / len(p_times):.1f} ms")
    if args.rows:
        print(f"front figure traces: {size[0]}; its data as JSON: {size[1] / 1e6:.1f} MB")
        print("callbacks of the reload (start ms, duration ms, bytes): "
              + ", ".join(f"({a}, {b}, {c})" for a, b, c in size[2]))
        print("| page load | s |")
        print("|---|---|")
        for label, seconds in first:
            print(f"| {label} | {seconds:.2f} |")
    print("| move | until | n | median ms | p90 ms | max ms |")
    print("|---|---|---|---|---|---|")
    for until, at in (("figures in", 2), ("every part", 0)):
        rows = (("alpha, every move", [m[at] for m in alpha_times]),
                ("alpha, moves that change the pick", [m[at] for m in alpha_times if m[1]]),
                ("p, every move", [m[at] for m in p_times]),
                ("p, moves that change the pick", [m[at] for m in p_times if m[1]]))
        for name, times in rows:
            if not times:
                print(f"| {name} | {until} | 0 | - | - | - |")
                continue
            ordered = sorted(times)
            p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
            print(f"| {name} | {until} | {len(times)} | {statistics.median(times):.0f} "
                  f"| {p90:.0f} | {max(times):.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
