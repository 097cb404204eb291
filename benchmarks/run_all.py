"""One summary table of copa-dash against the best peer: masks, layers, hypervolume 2-D to 8-D.

    python benchmarks/run_all.py --quick    # docs/benchmarks.md's table (a few minutes on 2 cores)
    python benchmarks/run_all.py            # the full grid of bench_pareto.py

Runs the grid of ``benchmarks/bench_pareto.py`` (interleaved repeats, CPU beside wall
time, every result checked against every peer: masks and layers exactly, volumes to
1e-12 relative) and prints one markdown row per cell: ours and the fastest agreeing peer
(median CPU ms), the number of interleaved rounds, the spread of each (interquartile
range over the median), the ratio ours / best peer with its spread (the per-round
ratios' interquartile range and min-max) and the wall-time ratio, and whether the results
agreed. A cell whose
peers all disagree shows ``refused`` instead of a ratio. The per-peer tables (wall times,
spreads, every peer) follow the summary. The other scripts (bench_copa, bench_posets,
bench_significance, bench_upload, bench_explore_browser) time other parts and are run
on their own.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import bench_pareto
from benchmarks._harness import fmt_ms, load_line, markdown, ratio_spread


def _rounds_and_spread(timing) -> tuple[str, str]:
    if timing.rounds == 1:
        return "1 call", "-"
    return str(timing.rounds), f"{100 * timing.cpu_spread:.0f}%"


def summary_row(row: bench_pareto.Row) -> list[str]:
    ours = row.timings["ours"]
    ours_cpu = fmt_ms(ours.cpu_median)
    rounds, spread = _rounds_and_spread(ours)
    if row.ratio.startswith("refused"):
        return [row.task, row.kind, str(row.k), f"{row.n:,}", ours_cpu, "-", rounds,
                f"{spread} / -", "-", "-", row.ratio]
    ratio, _, rest = row.ratio.partition(" (vs ")
    best = rest.split(")")[0]
    peer = row.timings[best]
    peer_rounds, peer_spread = _rounds_and_spread(peer)
    if peer_rounds != rounds:
        rounds = f"{rounds} / {peer_rounds}"
    checked = "exact" if row.task in ("mask", "layers") else "1e-12 rel."
    return [row.task, row.kind, str(row.k), f"{row.n:,}", ours_cpu,
            f"{best} {fmt_ms(peer.cpu_median)}", rounds, f"{spread} / {peer_spread}",
            f"**{ratio}**", ratio_spread(ours, peer),
            f"agree ({checked})" + (f"; {row.note}" if row.note else "")]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="docs/benchmarks.md's grid")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    before = load_line()
    rows = bench_pareto.run(bench_pareto.QUICK if args.quick else bench_pareto.FULL)
    flat = [r for task in ("mask", "layers", "hypervolume") for r in rows[task]]
    print(bench_pareto.header("quick" if args.quick else "full").replace(
        "Pareto benchmarks", "summary: ours / best peer"))
    print(before + " (before)\n")
    head = ["task", "data", "K", "N", "ours CPU ms", "best peer, CPU ms", "rounds",
            "IQR / median, ours / peer", "ours / best peer (CPU)",
            "spread of the ratio (per round, CPU); wall ratio", "results"]
    print(markdown(head, [summary_row(r) for r in flat]))
    worse = [f"{r.task} K={r.k} N={r.n:,}" for r in flat
             if not r.ratio.startswith("refused") and float(r.ratio.split()[0]) > 1.0]
    print("\nRows above 1.0: " + ("; ".join(worse) if worse else "none"))
    print("\n" + load_line() + " (after)")
    print(f"Total {time.perf_counter() - started:.0f} s\n")
    print("<details><summary>every peer, wall times and spreads</summary>\n")
    print(bench_pareto.tables(rows))
    print("\n</details>")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
