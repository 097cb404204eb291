"""Rankings' controls on a big table, this checkout against a git revision, two servers
alternating: what paging the rank table on the server changed after the open.

Issue 33: the Rankings table was sent whole (2,142 entries on the Open LLM leaderboard,
about 750 kB with the tooltips) on every control change, and paged in the browser; it is now
paged on the server (``ui/features/rankings/table_page``), so a control change sends 15 rows
but a page turn is a request. This benchmark serves the app of this checkout and of
``--peer-rev`` (``git archive``) side by side, opens Rankings on ``--dataset`` in one headless
Chromium per side, works an untimed round, waits until both servers are idle, then round
after round in a rotated order times, by the page itself (``bench_every_control``'s watcher:
from the click to the last change of the document before the page settles), with the
server's and the browser's CPU seconds (``/proc``):

- "raw ties": the ties radio switched to raw ties and back (a new view: chart and table);
- "next page": the table's next-page button.

The table's first shown entry is checked equal on both sides after each round.

Usage::

    python benchmarks/bench_rankings_table_ab.py [--peer-rev main] [--rounds 6]
        [--dataset open-llm-leaderboard-v2]
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._harness import load_line, median_p90, print_result
from benchmarks._revision_ab import peer_sides, revision_ab_arguments, sides_running, warm_rounds
from benchmarks.bench_every_control import PAGES

ACTIONS = {
    "raw ties": ("#rankings-ties input[value=keep]", "#rankings-ties input[value=break]"),
    "next page": ("#rankings-table .next-page", "#rankings-table .first-page"),
}
FIRST = "#rankings-table td[data-dash-column='entry']"


def work(bench, name: str) -> tuple[float, float, float]:
    """One action timed (ms, server CPU s, browser CPU s), then undone untimed."""
    do, undo = ACTIONS[name]
    ms, _, server, browser = bench.timed(lambda: bench.find(do).click())
    bench.timed(lambda: bench.find(undo).click())
    return ms, server, browser


def main(argv=None) -> int:
    parser = revision_ab_arguments(__doc__.split("\n\n")[0], rounds=6)
    parser.add_argument("--dataset", default="open-llm-leaderboard-v2")
    args = parser.parse_args(argv)
    print(load_line(), flush=True)
    path, _, ready = PAGES["rankings"]
    sides = peer_sides(args.peer_rev)
    samples = {(side, action): [] for side in sides for action in ACTIONS}
    with sides_running(sides, "copa-bench-rankings-") as (apps, benches):
        for name, bench in benches.items():
            bench.open(f"{apps[name].url}{path}?dataset={args.dataset}", ready)
        for n, order in warm_rounds(sides, args.rounds, apps):   # round -1 untimed
            for action in ACTIONS:
                firsts = []
                for side in order:
                    measured = work(benches[side], action)
                    if n >= 0:
                        samples[side, action].append(measured)
                    firsts.append(benches[side].find(FIRST).text)
                if len(set(firsts)) != 1:
                    raise SystemExit(f"round {n + 1}, {action}: the tables differ: {firsts}")
            if n >= 0:
                print(f"  round {n + 1}: " + "; ".join(
                    f"{side} {action} {samples[side, action][-1][0]:.0f} ms"
                    for action in ACTIONS for side in sides), flush=True)
    head = ["action", "side", "ms (median / p90)", "server CPU s (median)",
            "browser CPU s (median)", "ms (each)"]
    rows = [[action, side, median_p90(s[0] for s in got),
             f"{statistics.median(s[1] for s in got):.3f}",
             f"{statistics.median(s[2] for s in got):.3f}",
             ", ".join(f"{s[0]:.0f}" for s in got)]
            for (side, action), got in sorted(samples.items(), key=lambda k: k[0][1])]
    print_result(f"rankings on {args.dataset}: a control, to drawn and settled", head, rows,
                 "the first entry shown was the same on both sides in every round")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
