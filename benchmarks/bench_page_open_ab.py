"""A page's warm open, this checkout against a git revision, two servers alternating.

Issue 33: Rankings on the Open LLM leaderboard and Posets on amlb-2022 took seconds to open
warm with a tenth of a second of server CPU. This benchmark serves the app of this checkout
and of ``--peer-rev`` (its whole tree from ``git archive``) side by side, one headless
Chromium per side, opens ``--page`` on each ``--dataset`` once untimed on both (and waits
until each server is idle: a new tree compiles its kernels in the background first), then,
round after round in a rotated order, opens it again, timed by the page itself
(``bench_every_control``'s ``Bench.open``: from the navigation's start to the last change of
the document before the page settles with its main part drawn), with the server's and the
browser's CPU seconds over each open (``/proc``). What the page says (Rankings' at-a-glance
card, Posets' headline without its "computed in" time) is checked equal on both sides after
each round. On a shared machine the wall times follow the load; the browser's CPU seconds are
the steadier measure of the page's own work.

Usage::

    python benchmarks/bench_page_open_ab.py --page posets --dataset amlb-2022
        [--peer-rev main] [--rounds 6]
"""

from __future__ import annotations

import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._harness import load_line, median_p90, print_result
from benchmarks._revision_ab import peer_sides, revision_ab_arguments, sides_running, warm_rounds
from benchmarks.bench_every_control import PAGES, Bench

# what the page shows once drawn, compared between the sides
SAID = {"rankings": "#rankings-glance", "posets": "#posets-headline"}


def said(bench: Bench, page: str) -> str:
    """The page's summary text, without the time it took (Posets' "computed in 0.17 s")."""
    element = bench.find(SAID[page])
    text = element.text if element is not None else ""
    return re.sub(r"computed in [0-9.]+ s", "computed in ... s", text)


def main(argv=None) -> int:
    parser = revision_ab_arguments(__doc__.split("\n\n")[0], rounds=6)
    parser.add_argument("--page", choices=sorted(SAID), default="posets")
    parser.add_argument("--dataset", default="amlb-2022")
    args = parser.parse_args(argv)
    print(load_line(), flush=True)
    path, _, ready = PAGES[args.page]
    sides = peer_sides(args.peer_rev)
    samples = {name: {"ms": [], "server": [], "browser": []} for name in sides}
    with sides_running(sides, "copa-bench-open-") as (apps, benches):
        urls = {name: f"{app.url}{path}?dataset={args.dataset}" for name, app in apps.items()}
        for n, order in warm_rounds(sides, args.rounds, apps):   # round -1 untimed
            texts = []
            for name in order:
                bench, app = benches[name], apps[name]
                cpu, browser = app.cpu_seconds(), bench.browser_cpu_seconds()
                ms = bench.open(urls[name], ready)
                if n >= 0:
                    samples[name]["ms"].append(ms)
                    samples[name]["server"].append(app.cpu_seconds() - cpu)
                    samples[name]["browser"].append(bench.browser_cpu_seconds() - browser)
                texts.append(said(bench, args.page))
            if len(set(texts)) != 1 or not texts[0]:
                raise SystemExit(f"round {n + 1}: the sides say different things: {texts}")
            if n >= 0:
                print(f"  round {n + 1}: " + ", ".join(
                    f"{name} {samples[name]['ms'][-1]:.0f} ms, "
                    f"{samples[name]['browser'][-1]:.2f} s browser CPU" for name in sides),
                    flush=True)
    head = ["side", "open ms (median / p90)", "server CPU s an open (median)",
            "browser CPU s an open (median)", "open ms (each)"]
    rows = [[name, median_p90(s["ms"]),
             f"{statistics.median(s['server']):.3f}", f"{statistics.median(s['browser']):.3f}",
             ", ".join(f"{ms:.0f}" for ms in s["ms"])] for name, s in samples.items()]
    print_result(f"{args.page} on {args.dataset}: a warm open, to drawn and settled", head,
                 rows, "the pages said the same on both sides in every round")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
