"""The Upload page's controls on a wide export, this checkout against a git revision, two
servers alternating.

Issue 33: on the fairness Adult/sex export (215 columns read, 115 of them under "More
columns") every click on the Upload page took 1.4 s of the browser before the request went
out, Dash's renderer working through the pattern-matching components of every column's row.
This benchmark serves the app of this checkout and of ``--peer-rev`` (its whole tree from
``git archive``) side by side, one headless Chromium at 1400x1000 each, and round after
round, in an order rotated each round, works the page the same way on both:

1. drop FILE on the page (timed from the file handed to the input to the role form drawn
   and settled);
2. open "More columns" (its summary clicked);
3. tick the race-* family, then untick it;
4. set the role of the ``accuracy`` row to metadata (the menu opened untimed, the option
   clicked timed);
5. set "All of them" under "More columns" to objectives, then back to metadata;
6. close "More columns";
7. "Save and explore" (timed to the explorer drawn and settled).

Each step but the drop and the save is timed by the page itself (``bench_every_control``'s
watcher: from the click to the last change of the document before the page settles), with
the server's and the browser's CPU seconds over it (``/proc``: the app's process tree, and
chromedriver's Chromium tree). The two ends are timed from the browser's clock. Round 0
warms both sides up and is not counted. After each round the roles both sides saved are read
from their data directories and must be equal, and equal to the proposal's with
``accuracy`` moved to metadata (computed here from ``stage_upload``, independently of either
page); a difference stops the benchmark.

Usage::

    python benchmarks/bench_upload_controls_ab.py [--peer-rev main] [--rounds 4] [FILE]
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._app import RunningApp
from benchmarks._harness import load_line, median_p90, print_result
from benchmarks._revision_ab import peer_sides, revision_ab_arguments, sides_running, warm_rounds
from benchmarks.bench_every_control import PAGE_SETTLED, PAGES, Bench

ROLE_ROW = "accuracy"
STEPS = ("drop the file", "open More columns", "tick race-*", "untick race-*",
         "role of accuracy: metadata", "More columns: all objectives",
         "More columns: back to metadata", "close More columns", "save and explore")
NOW = "return performance.timeOrigin + performance.now();"
DRAWN = "#upload-check .alert"


def _role_menu(bench: Bench, column: str):
    """Open the role menu of ``column`` and narrow it to "metadata" (untimed); the option."""
    from selenium.webdriver.common.by import By

    dom_id = json.dumps({"column": column, "type": "upload-role"}, separators=(",", ":"))
    bench.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})",
                                bench.find(f"[id='{dom_id}']"))
    bench.find(f"[id='{dom_id}']").click()
    bench.quiet(0.3)
    bench.find(".dash-dropdown-search").send_keys("metadata")
    for _ in range(100):
        options = bench.driver.find_elements(By.CSS_SELECTOR,
                                             ".dash-dropdown-options .dash-dropdown-option")
        if [o.text for o in options] == ["metadata (filter on it)"]:
            return options[0]
        time.sleep(0.05)
    raise SystemExit(f"the role menu of {column!r} did not offer metadata")


def _wall_step(bench: Bench, action, ready: str, *, to: str | None = None
               ) -> tuple[float, float, float]:
    """ms from ``action`` to the page settled with ``ready`` drawn (the browser's clock, a
    navigation to the path ``to`` included), and the server's and the browser's CPU seconds
    over it."""
    cpu, browser = bench.app.cpu_seconds(), bench.browser_cpu_seconds()
    start = bench.driver.execute_script(NOW)
    action()
    bench.driver.set_script_timeout(300)
    for _ in range(1200):
        if to is None or to in bench.driver.current_url:
            break
        time.sleep(0.05)
    last = float(bench.driver.execute_async_script(PAGE_SETTLED, ready))
    origin = bench.driver.execute_script("return performance.timeOrigin;")
    return (origin + last - start, bench.app.cpu_seconds() - cpu,
            bench.browser_cpu_seconds() - browser)


def one_pass(bench: Bench, file: Path) -> tuple[dict, str]:
    """The steps on one side: {step: (ms, server CPU s, browser CPU s)}, and the id of the
    dataset saved."""
    out = {}
    bench.open(f"{bench.app.url}/upload", PAGES["upload"][2])
    upload = bench.find("#upload-file input[type=file]")
    out["drop the file"] = _wall_step(bench, lambda: upload.send_keys(str(file)), DRAWN)

    def click(css: str) -> tuple[float, float, float]:
        element = bench.into_view(css)
        ms, _, server, browser = bench.timed(element.click)
        bench.quiet()
        return ms, server, browser

    out["open More columns"] = click("#upload-more summary")
    out["tick race-*"] = click("#upload-families input[value='race']")
    out["untick race-*"] = click("#upload-families input[value='race']")
    option = _role_menu(bench, ROLE_ROW)
    ms, _, server, browser = bench.timed(option.click)
    out["role of accuracy: metadata"] = (ms, server, browser)
    bench.quiet()
    out["More columns: all objectives"] = click("#upload-more-role input[value='objective']")
    out["More columns: back to metadata"] = click("#upload-more-role input[value='metadata']")
    out["close More columns"] = click("#upload-more summary")
    save = bench.into_view("#upload-save")
    if not save.is_enabled():
        raise SystemExit("Save and explore is off after the steps: "
                         + bench.find("#upload-check").text)
    out["save and explore"] = _wall_step(bench, save.click, PAGES["explore"][2],
                                      to="/explore")
    dataset = bench.driver.current_url.split("dataset=")[1].split("&")[0]
    return out, dataset


def saved_roles(app: RunningApp, dataset: str) -> dict:
    """The roles the side's app saved (read with this checkout's store)."""
    from copa_dash.config import Settings
    from copa_dash.services.store import open_store

    settings = Settings(data_dir=app.state / "data", cache_dir=app.state / "cache")
    return open_store(settings).info(dataset)["roles"]


def _comparable(roles: dict) -> dict:
    """What the page decides in a Roles dict: the id, the objectives with their directions
    in order, the single-column roles, and the metadata as a set (units and labels are the
    reader's, not the page's)."""
    return {**{k: v for k, v in roles.items() if k not in ("objectives", "metadata")},
            "objectives": [(o["name"], o["direction"]) for o in roles["objectives"]],
            "metadata": sorted(roles.get("metadata") or [])}


def expected_roles(file: Path) -> dict:
    """The reader's proposed roles with ``accuracy`` moved to metadata: what both pages must
    save (from ``stage_upload``, independently of either page)."""
    from copa_dash.config import Settings
    from copa_dash.services.uploads import stage_upload

    folder = Path(tempfile.mkdtemp(prefix="copa-bench-roles-"))
    staged = stage_upload(Settings(data_dir=folder / "data", cache_dir=folder / "cache"),
                          file.name, file.read_bytes())
    roles = _comparable(staged.proposed.to_dict())
    return {**roles, "objectives": [o for o in roles["objectives"] if o[0] != ROLE_ROW],
            "metadata": sorted([*roles["metadata"], ROLE_ROW])}


def main(argv=None) -> int:
    parser = revision_ab_arguments(__doc__.split("\n\n")[0], rounds=4)
    args = parser.parse_args(argv)
    print(load_line(), flush=True)
    expected = expected_roles(args.file)
    sides = peer_sides(args.peer_rev)
    samples = {name: {step: [] for step in STEPS} for name in sides}
    with sides_running(sides, "copa-bench-upload-") as (apps, benches):
        for n, order in warm_rounds(sides, args.rounds, apps):   # round -1 untimed
            saved = {}
            for name in order:
                steps, dataset = one_pass(benches[name], args.file)
                saved[name] = saved_roles(apps[name], dataset)
                if n >= 0:
                    for step, sample in steps.items():
                        samples[name][step].append(sample)
            for name, roles in saved.items():
                if _comparable(roles) != expected:
                    raise SystemExit(f"round {n + 1}: {name} saved other roles than the "
                                     f"proposal with {ROLE_ROW!r} as metadata:\n{roles}\n"
                                     f"expected\n{expected}")
            if n >= 0:
                print(f"  round {n + 1}: " + "; ".join(
                    f"{name}: " + ", ".join(f"{samples[name][s][-1][0]:.0f}" for s in STEPS)
                    + " ms" for name in sides), flush=True)
    head = ["step", *(f"{name}: ms median / p90 (server / browser CPU s)" for name in sides)]
    rows = []
    for step in STEPS:
        cells = []
        for name in sides:
            got = samples[name][step]
            cells.append(f"{median_p90(s[0] for s in got)} "
                         f"({statistics.median(s[1] for s in got):.2f} / "
                         f"{statistics.median(s[2] for s in got):.2f})")
        rows.append([step, *cells])
    print_result(f"{args.file.name}: the Upload page, {args.rounds} interleaved rounds a side",
                 head, rows, "both sides saved the same roles in every round: the proposal's "
                 f"with {ROLE_ROW!r} as metadata")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
