"""What repainting Explore's front figure costs the browser, this checkout against a git revision.

Every tick, direction change, slider move or hover repaints the front figure's plot area in
one or more frames; on the Open LLM leaderboard that is 2,921 SVG points. Session 21 found
the points' own style made each repaint dearer (an opacity under 1 written into the style
of 2,142 of them, each then painted as a group of its own). This benchmark times that part
alone: both sides served (``_revision_ab.sides_running``), Explore opened on the dataset in
one headless Chromium a side, and then, round after round in a rotated order, the plot's
background is repainted ``--frames`` times (its fill flipped between two near-whites, one
flip a frame, so every frame re-rasters the plot area with its points), with the CPU seconds
of the side's whole Chromium (``Bench.browser_cpu_seconds``: renderer, GPU and raster
processes) over the frames. Before the first round both pages are checked to draw the same
number of points and the same ringed (front) points: the two sides paint the same picture.

Usage::

    python benchmarks/bench_explore_repaint_ab.py [--peer-rev main] [--rounds 8]
        [--frames 30] [--dataset open-llm-leaderboard-v2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._harness import load_line, median_p90, print_result
from benchmarks._revision_ab import revision_files, round_order, sides_running
from benchmarks.bench_every_control import PAGES

# the front figure's points: how many, how many ringed (the front), their style opacities
POINTS = """
const points = [...document.querySelectorAll('#explore-front .scatterlayer path.point')];
return [points.length, points.filter(p => parseFloat(p.style.strokeWidth) > 0).length,
        [...new Set(points.map(p => p.style.opacity))].sort()];
"""

# ``arguments[0]`` frames, each after flipping the plot background's fill (async script)
REPAINT = """
const frames = arguments[0], done = arguments[arguments.length - 1];
const bg = document.querySelector('#explore-front .bglayer rect, #explore-front rect.bg');
let i = 0;
function step() {
    if (i >= frames) {
        bg.style.fill = '';
        requestAnimationFrame(() => setTimeout(done, 0));
        return;
    }
    bg.style.fill = (i % 2) ? 'rgb(255, 255, 255)' : 'rgb(254, 254, 254)';
    i += 1;
    requestAnimationFrame(() => setTimeout(step, 0));
}
step();
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peer-rev", default="main")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--dataset", default="open-llm-leaderboard-v2")
    args = parser.parse_args(argv)
    print(load_line(), flush=True)
    sides = {"this checkout": ROOT, f"peer {args.peer_rev}": revision_files(args.peer_rev)}
    samples = {name: [] for name in sides}
    with sides_running(sides, "copa-bench-repaint-") as (apps, benches):
        drawn = {}
        for name, bench in benches.items():
            bench.open(f"{apps[name].url}/explore?dataset={args.dataset}", PAGES["explore"][2])
            time.sleep(2)
            drawn[name] = bench.driver.execute_script(POINTS)
            print(f"  {name}: {drawn[name][0]} points, {drawn[name][1]} ringed, style "
                  f"opacities {drawn[name][2]}", flush=True)
        if len({tuple(d[:2]) for d in drawn.values()}) != 1:
            raise SystemExit(f"the sides draw different points: {drawn}")
        for n in range(-1, args.rounds):       # round -1 warms both up
            for name in round_order(sides, n):
                bench = benches[name]
                bench.driver.set_script_timeout(120)
                cpu = bench.browser_cpu_seconds()
                bench.driver.execute_async_script(REPAINT, args.frames)
                time.sleep(0.3)                 # the last frame's raster
                if n >= 0:
                    samples[name].append(bench.browser_cpu_seconds() - cpu)
            if n >= 0:
                print(f"  round {n + 1}: " + ", ".join(
                    f"{name} {samples[name][-1] * 1e3:.0f} ms" for name in sides), flush=True)
    head = ["side", f"browser CPU ms for {args.frames} repaints (median / p90)",
            "ms a repaint (median)", "each round"]
    rows = [[name, median_p90(s, scale=1e3),
             f"{statistics.median(s) * 1e3 / args.frames:.1f}",
             ", ".join(f"{c * 1e3:.0f}" for c in s)] for name, s in samples.items()]
    print_result(f"{args.dataset}: Explore's front figure repainted {args.frames} times a round",
                 head, rows, f"the sides drew the same points ({drawn[next(iter(sides))][0]}, "
                 f"{drawn[next(iter(sides))][1]} ringed)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
