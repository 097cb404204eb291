"""How fast the explorer answers a slider move, measured in headless Chromium.

Starts the app (``python app.py``) on a free loopback port, opens the Open LLM Leaderboard's
default view, then moves alpha and p with the keyboard. Each move is timed in the page, from
the key press to the moment the share link (written by the last callback of the chain)
shows the new value, i.e. the pick card, the figure and the table have all been updated.

Usage::

    python benchmarks/bench_explore_browser.py [--moves 15]

Needs Debian's chromium and chromium-driver (``make test`` installs them).
"""

from __future__ import annotations

import argparse
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

WAIT_FOR = """
const [needle, done] = [arguments[0], arguments[arguments.length - 1]];
const start = window.__copaKeyTime;
function poll() {
  const share = document.getElementById('explore-share');
  if (share && share.value.includes(needle)) { done(performance.now() - start); return; }
  if (performance.now() - start > 20000) { done(-1); return; }
  requestAnimationFrame(poll);
}
poll();
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start_app(port: int) -> subprocess.Popen:
    root = Path(tempfile.mkdtemp(prefix="copa-bench-"))
    env = dict(os.environ, COPA_PORT=str(port), COPA_DATA_DIR=str(root / "data"),
               COPA_CACHE_DIR=str(root / "cache"))
    env.setdefault("NUMBA_CACHE_DIR", str(root / "numba"))
    process = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(240):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return process
        except OSError:
            time.sleep(0.5)
    process.kill()
    raise SystemExit("the app did not start within 2 minutes")


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


def _timed_moves(driver, slider_css: str, key, readout, moves: int) -> list[float]:
    from selenium.webdriver.common.by import By

    slider = driver.find_elements(By.CSS_SELECTOR, slider_css)[0]
    times = []
    for _ in range(moves):
        driver.execute_script("window.__copaKeyTime = performance.now();")
        slider.send_keys(key)
        needle = readout(driver)
        elapsed = driver.execute_async_script(WAIT_FOR, needle)
        if elapsed >= 0:
            times.append(elapsed)
    return times


def main(argv=None) -> int:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=15)
    args = parser.parse_args(argv)
    port = _free_port()
    app = _start_app(port)
    driver = _driver()
    try:
        driver.set_script_timeout(30)
        driver.get(f"http://127.0.0.1:{port}/explore?dataset=open-llm-leaderboard-v2")
        for _ in range(120):
            if driver.find_elements(By.ID, "pick-id"):
                break
            time.sleep(0.5)
        time.sleep(2)

        def alpha_text(d):
            value = d.find_elements(By.CSS_SELECTOR, "#explore-alpha [role=slider]")[0] \
                .get_attribute("aria-valuenow")
            return f"alpha={float(value):g}&"

        def p_text(d):
            return "p=" + d.find_element(By.ID, "explore-p").get_attribute("value")

        alpha_times = _timed_moves(driver, "#explore-alpha [role=slider]", Keys.ARROW_LEFT,
                                   alpha_text, args.moves)
        p_times = _timed_moves(driver, "#explore-p-slider [role=slider]", Keys.ARROW_LEFT,
                               p_text, 5)
    finally:
        driver.quit()
        app.terminate()
    print("| move | n | median ms | p90 ms | max ms |")
    print("|---|---|---|---|---|")
    for name, times in (("alpha (arrow key)", alpha_times), ("p (arrow key)", p_times)):
        if not times:
            print(f"| {name} | 0 | - | - | - |")
            continue
        ordered = sorted(times)
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        print(f"| {name} | {len(times)} | {statistics.median(times):.0f} | {p90:.0f} | {max(times):.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
