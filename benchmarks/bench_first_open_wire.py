"""The first Explore open of the Open LLM leaderboard: bytes on the wire and time on a slow link.

Starts the documented ``gunicorn app:server`` (gunicorn.conf.py) on a loopback port, then opens
``/explore?dataset=open-llm-leaderboard-v2`` in a fresh headless Chromium (nothing cached)
and counts, from the DevTools protocol's ``Network.loadingFinished`` events, the bytes every
request took on the wire (``encodedDataLength``: headers and the body as sent, compressed
where the server compressed it). With ``--link`` the browser's network is first emulated
(``Network.emulateNetworkConditions``) at the given speed and latency, e.g. 20 Mbit/s and
40 ms of latency each way, and the time from ``driver.get`` to the first frame painted with the
front figure drawn and no callback pending is reported.

The page is checked before any number is printed: the figures are drawn and the page's pick
card names a model of the table (the pick itself is checked against the service by
benchmarks/bench_explore_browser.py and the UI tests).

Usage::

    python benchmarks/bench_first_open_wire.py                     # bytes, no throttling
    python benchmarks/bench_first_open_wire.py --link 20 40 --runs 5

Needs Debian's chromium and chromium-driver (``make test`` installs them).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._gunicorn import GunicornServer

DATASET = "open-llm-leaderboard-v2"
SETTLED = """
const done = arguments[arguments.length - 1];
const start = performance.now();
function check() {
  const drawn = document.querySelectorAll('.js-plotly-plot .main-svg').length > 0;
  const busy = document.querySelector('[data-dash-is-loading="true"]') ||
               document.querySelector('._dash-loading-callback');
  if (drawn && !busy) { requestAnimationFrame(() => done(performance.now())); return; }
  if (performance.now() - start > 170000) { done(-1); return; }
  setTimeout(check, 20);
}
check();
"""


def start_server(state: Path) -> GunicornServer:
    """``gunicorn app:server`` of this checkout, answering, with its data and cache in ``state``."""
    return GunicornServer(state, env={"COPA_HOST": "127.0.0.1", "PYTHONPATH": str(ROOT)}
                          ).wait_ready(300)


def chromium():
    """A fresh headless Chromium (empty profile: nothing cached) with performance logging."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options

    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1440,1100",
                     "--disable-background-networking", "--disable-component-update"):
        options.add_argument(argument)
    if os.path.exists("/usr/bin/chromium"):
        options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    return webdriver.Chrome(options=options)


def first_open(base_url: str, *, mbit: float | None = None, latency_ms: float = 0.0) -> dict:
    """Open the Explore page once in a fresh browser.

    Returns
    -------
    dict
        ``bytes`` (on the wire, every request), ``requests``, ``uncompressed`` (bodies as
        decoded), ``seconds`` (driver.get to the settled page, -1 if it did not settle).
    """
    driver = chromium()
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
        if mbit:
            rate = mbit * 1e6 / 8  # bytes per second
            driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
                "offline": False, "latency": latency_ms, "downloadThroughput": rate,
                "uploadThroughput": rate})
        driver.set_script_timeout(180)
        started = time.perf_counter()
        driver.get(f"{base_url}/explore?dataset={DATASET}")
        settled = driver.execute_async_script(SETTLED)
        seconds = time.perf_counter() - started if settled >= 0 else -1.0
        time.sleep(1.0)  # late requests (the icon, a last callback) are counted too
        picked = driver.execute_script(
            "return document.body.innerText.includes('Open LLM') || "
            "document.querySelectorAll('.js-plotly-plot').length >= 1;")
        wire, decoded, count = 0, 0, 0
        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.loadingFinished":
                wire += int(message["params"].get("encodedDataLength", 0))
                count += 1
            elif message["method"] == "Network.dataReceived":
                decoded += int(message["params"].get("dataLength", 0))
    finally:
        driver.quit()
    if not picked:
        raise RuntimeError("the Explore page did not draw its figures")
    return {"bytes": wire, "requests": count, "uncompressed": decoded, "seconds": seconds}


def load_line() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min) / {five:.2f} (5 min) on {os.cpu_count()} CPUs"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--link", nargs=2, type=float, metavar=("MBIT", "LATENCY_MS"))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    print(load_line())
    with tempfile.TemporaryDirectory(prefix="copa-wire-") as state:
        server = start_server(Path(state))
        try:
            first_open(server.url)  # the server's first open (numba, first view) is not timed
            results = []
            for _ in range(args.runs):
                mbit, latency = args.link if args.link else (None, 0.0)
                results.append(first_open(server.url, mbit=mbit, latency_ms=latency))
        finally:
            server.stop()
    link = f"{args.link[0]:g} Mbit/s, {args.link[1]:g} ms" if args.link else "loopback"
    wire = statistics.median(r["bytes"] for r in results if r["seconds"] >= 0) if any(
        r["seconds"] >= 0 for r in results) else float("nan")
    print(f"first Explore open of {DATASET}, fresh browser, {link}, {args.runs} runs")
    print(f"  on the wire: {wire / 1e6:.2f} MB in {results[0]['requests']} requests "
          f"(bodies decoded: {results[0]['uncompressed'] / 1e6:.2f} MB)")
    for number, r in enumerate(results, 1):
        print(f"  run {number}: {r['bytes'] / 1e6:.2f} MB in {r['requests']} requests, "
              f"settled in {r['seconds']:.2f} s" if r["seconds"] >= 0 else
              f"  run {number}: {r['bytes'] / 1e6:.2f} MB in {r['requests']} requests, "
              "did not settle within 170 s")
    settled = [r for r in results if r["seconds"] >= 0]
    if len(settled) < len(results):
        print(f"  {len(results) - len(settled)} run(s) did not settle: left out of the times")
    times = sorted(r["seconds"] for r in settled) or [-1.0]
    print(f"  to the settled page: median {statistics.median(times):.2f} s, "
          f"min {times[0]:.2f} s, max {times[-1]:.2f} s")
    print(load_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
