"""Brushing on Explore's parallel coordinates, this checkout against another, interleaved.

Starts ``python app.py`` of this checkout and of ``--peer`` (e.g. /work/main) on free
loopback ports, opens Explore on each dataset in one headless Chromium per app, and drags a
range on axis 1 of the parallel coordinates ``--repeats`` times in each, alternating the apps
sample by sample (which goes first alternates too), a new range each round. Each drag is
timed by the page as in ``bench_every_control`` (its ARM / COLLECT watcher: from the
pointer's release to the last change before the page settles), with the server's CPU
seconds (``/proc``) and the browser's (Chromium's process tree) over the same drag. After
each round the constraint both apps wrote into the link (``range=``) must be the same, or
the benchmark stops: the two are timed doing the same thing.

Usage::

    python benchmarks/bench_explore_brush.py --peer /work/main [--repeats 5]
        [--datasets open-llm-leaderboard-v2,decodingtrust,amlb-2022]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._app import RunningApp, free_port, headless_chromium, tree_cpu_seconds
from benchmarks._gestures import drag_on_axis
from benchmarks._harness import load_line, markdown
from benchmarks.bench_every_control import PAGES, TABLES, Bench

GRAPH = "#explore-parallel .js-plotly-plot"


def _ranges(driver) -> list[str]:
    return sorted(parse_qs(urlsplit(driver.current_url).query).get("range", []))


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer", type=Path, required=True, help="the other checkout")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--datasets", default=",".join(TABLES))
    args = parser.parse_args(argv)
    print(load_line(), flush=True)
    started = time.perf_counter()
    names = {"this": ROOT, "peer": args.peer.resolve()}
    samples: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    apps = {name: RunningApp(free_port(), app_dir=path) for name, path in names.items()}
    benches = {}
    try:
        for name, app in apps.items():
            benches[name] = Bench(app, headless_chromium(1400, 1000), args.repeats, 1)
        for dataset in args.datasets.split(","):
            for bench in benches.values():
                url = f"{bench.app.url}/explore?dataset={dataset}"
                bench.open(url, PAGES["explore"][2])          # warm: untimed
                bench.open(url, PAGES["explore"][2])
            for i in range(args.repeats):
                order = list(benches) if i % 2 == 0 else list(benches)[::-1]
                for name in order:
                    bench = benches[name]
                    graph = bench.into_view(GRAPH)
                    browser = tree_cpu_seconds(bench.driver.service.process.pid)
                    ms, _, server = bench.timed(lambda b=bench, g=graph, n=i: drag_on_axis(
                        b.driver, g, 1, 0.1 + 0.05 * n, 0.6 + 0.05 * n))
                    browser = tree_cpu_seconds(bench.driver.service.process.pid) - browser
                    samples.setdefault((dataset, name), []).append((ms, server, browser))
                    bench.quiet(0.5)
                seen = {name: _ranges(bench.driver) for name, bench in benches.items()}
                if seen["this"] != seen["peer"]:
                    raise SystemExit(f"{dataset}, drag {i}: the apps differ: {seen}")
                print(f"  {dataset} drag {i}: "
                      + ", ".join(f"{name} {samples[dataset, name][-1][0]:.0f} ms"
                                  for name in benches) + f"; range {seen['this']}", flush=True)
    finally:
        for bench in benches.values():
            bench.driver.quit()
        for app in apps.values():
            app.stop()
    head = ["dataset", "app", "n", "median ms", "p90 ms", "server CPU s", "browser CPU s",
            "this / peer (median)"]
    rows = []
    for dataset in args.datasets.split(","):
        peer = statistics.median(s[0] for s in samples[dataset, "peer"])
        for name in benches:
            got = samples[dataset, name]
            ms = [s[0] for s in got]
            rows.append([dataset, f"{name} ({names[name]})", str(len(ms)),
                         f"{statistics.median(ms):.0f}", f"{_p90(ms):.0f}",
                         f"{statistics.median(s[1] for s in got):.2f}",
                         f"{statistics.median(s[2] for s in got):.2f}",
                         f"{statistics.median(ms) / peer:.2f}" if peer > 0 else "-"])
    print(markdown(head, rows))
    print(f"\n{load_line()}; {time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
