"""A range typed into one of Explore's constraint boxes, timed in headless Chromium, with the
link checked after each entry (``bench_every_control.py`` times the same gesture but does not
check that the view changed: on the Open LLM leaderboard its "range" row timed entries that
left the view as it was; docs/benchmarks.md, session 15).

The column's observed minimum (the box's placeholder) is typed in and Enter pressed, then the
box is cleared; each entry is timed by the benchmark's own watcher (``Bench.timed``: from the
first key to the page settled) and printed with the ``range=`` items of the link after it.

Usage::

    python benchmarks/bench_explore_range_entry.py [--app-dir CHECKOUT] [--dataset ID]
        [--column NAME] [--repeats 6] [--add]

``--add`` first chooses the first column of the "Add a constraint on another column" list.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._app import RunningApp, free_port, headless_chromium
from benchmarks.bench_every_control import PAGES, Bench


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app-dir", type=Path, default=ROOT)
    parser.add_argument("--dataset", default="open-llm-leaderboard-v2")
    parser.add_argument("--column", default="ifeval")
    parser.add_argument("--repeats", type=int, default=6)
    parser.add_argument("--add", action="store_true")
    args = parser.parse_args(argv)
    from selenium.webdriver.common.keys import Keys

    print(f"machine: load average {' / '.join(f'{x:.2f}' for x in os.getloadavg())}")
    env = {"NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR", "/tmp/numba-bench")}
    with RunningApp(free_port(), app_dir=args.app_dir, env=env) as app:
        driver = headless_chromium()
        try:
            bench = Bench(app, driver, args.repeats, 1)
            url = f"{app.url}/explore?dataset={args.dataset}"
            ready = PAGES["explore"][2]
            bench.open(url, ready)                              # warm: untimed
            bench.open(url, ready)
            if args.add:
                bench.into_view("#explore-add-constraint").click()
                time.sleep(0.5)
                bench.find(".dash-dropdown-options .dash-dropdown-option").click()
                time.sleep(2)
            css = f"input[id*='range-min'][id*='\"{args.column}\"']"
            for i in range(args.repeats):
                box = bench.into_view(css)
                low = (box.get_attribute("placeholder") or "min 0").split()[-1]
                keys = low + Keys.ENTER if i % 2 == 0 else Keys.BACKSPACE * 16 + Keys.ENTER
                ms, _, server, browser = bench.timed(lambda b=box, k=keys: b.send_keys(k))
                ranges = parse_qs(urlsplit(driver.current_url).query).get("range", [])
                print(f"{'typed' if i % 2 == 0 else 'cleared'}: {ms:.0f} ms, server CPU "
                      f"{server:.2f} s, browser CPU {browser:.2f} s; link ranges {ranges}")
        finally:
            driver.quit()
    print(f"machine: load average {' / '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
