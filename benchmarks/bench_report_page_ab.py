"""The Explore page's "Download report" (HTML) timed in the browser, this checkout against
an earlier revision, interleaved (issue 33: 14.9 s on DecodingTrust the first time, where
``copa-dash report`` takes about 3 s).

Each side runs its own app (``python app.py``, background jobs in forked processes, as
served) and its own headless Chromium at 1400 x 1000. A round opens Explore on the dataset
on both sides (alternating which goes first), clicks "Download report" and times the click
to the button's return (the job's end, the file handed to the browser), reading the words
the row shows meanwhile every 50 ms. The first round is the "first time" (the view's
analysis not in the cache yet), the later ones warm. Server CPU (the app and its job
processes) beside the wall time; the report's size is checked equal on both sides.

    python benchmarks/bench_report_page_ab.py --peer-rev main --rounds 4 [--dataset decodingtrust]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._harness import load_line
from benchmarks._revision_ab import (
    ROOT,
    revision_ab_arguments,
    revision_files,
    round_order,
    sides_running,
)

BUTTON = "explore-report-button"
PROGRESS = "explore-report-progress"


def _report_once(bench, url: str) -> dict:
    """Open ``url``, click the report button, and time it to the button's return."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as seen
    from selenium.webdriver.support.ui import WebDriverWait

    driver = bench.driver
    driver.get(url)
    wait = WebDriverWait(driver, 300, poll_frequency=0.05)
    wait.until(seen.element_to_be_clickable((By.ID, BUTTON)))
    time.sleep(1.0)           # the view's own callbacks settle first
    cpu = bench.app.cpu_seconds()
    start = time.perf_counter()
    driver.find_element(By.ID, BUTTON).click()
    said: list[tuple[float, str]] = []
    disabled_seen = False
    while time.perf_counter() - start < 300:
        text = driver.find_element(By.ID, PROGRESS).text
        if text and (not said or said[-1][1] != text):
            said.append((time.perf_counter() - start, text))
        disabled = driver.find_element(By.ID, BUTTON).get_attribute("disabled") is not None
        disabled_seen |= disabled
        if disabled_seen and not disabled:
            break
        time.sleep(0.05)
    wall = time.perf_counter() - start
    size = driver.execute_script(
        "const d = document.querySelector('#explore-report-alert'); return d ? d.innerText : ''")
    return {"wall": wall, "cpu": bench.app.cpu_seconds() - cpu, "said": said, "alert": size}


def _settled(bench, url: str, timeout: float = 1800) -> float:
    """Open ``url`` until the page no longer says the server is preparing its faster code
    (a peer revision's files are new to numba's cache, so its kernels compile first); the
    seconds that took. Rounds then time reports, not a first start's compiles."""
    from selenium.webdriver.common.by import By

    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        bench.driver.get(url)
        time.sleep(3)
        if "preparing faster code" not in bench.driver.find_element(By.TAG_NAME, "body").text:
            return time.perf_counter() - start
        time.sleep(15)
    raise SystemExit(f"{url}: still compiling after {timeout:.0f} s")


def main(argv=None) -> int:
    parser = revision_ab_arguments(__doc__.splitlines()[0], rounds=4)
    parser.add_argument("--dataset", default="decodingtrust")
    args = parser.parse_args(argv)
    sides = {"this": ROOT, args.peer_rev: revision_files(args.peer_rev)}
    url_path = f"/explore?dataset={args.dataset}"
    print(f"# report in the page, {args.dataset}; {load_line()}")
    results: dict[str, list[dict]] = {name: [] for name in sides}
    with sides_running(sides, "copa-report-ab-") as (apps, benches):
        for name in sides:      # the app's own page, not the benchmark's: no view cached
            settled = _settled(benches[name], apps[name].url + "/help")
            print(f"{name}: kernels ready {settled:.0f} s after the first page", flush=True)
        for n in range(args.rounds):
            for name in round_order(sides, n):
                result = _report_once(benches[name], apps[name].url + url_path)
                results[name].append(result)
                words = " | ".join(f"{t:.1f}s {text}" for t, text in result["said"])
                print(f"round {n} {name:>6}: {result['wall']:6.2f} s wall, server CPU "
                      f"{result['cpu']:5.2f} s; said: {words or '-'}"
                      + (f"; alert: {result['alert']}" if result["alert"] else ""), flush=True)
    for name, rows in results.items():
        warm = [r["wall"] for r in rows[1:]]
        print(f"{name:>6}: first {rows[0]['wall']:.2f} s (CPU {rows[0]['cpu']:.2f}), warm "
              f"median {statistics.median(warm) if warm else float('nan'):.2f} s (CPU "
              f"{statistics.median([r['cpu'] for r in rows[1:]]) if warm else float('nan'):.2f})")
    print(f"# after: {load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
