"""The server's share of the first open of a freshly uploaded big table on a warm app.

Starts the app (``python app.py``, :class:`benchmarks._app.RunningApp`) and waits until it
is quiet (numba kernels loaded, warm-up steps done). Then:

1. records, once, the callback requests a page load of ``/explore?dataset=ID&alpha=1``
   sends: headless Chromium opens the page of a first uploaded table with a fetch hook
   installed before the page's scripts run (``Page.addScriptToEvaluateOnNewDocument``), and
   waits until the front figure is drawn;
2. per repeat, uploads a NEW synthetic table through the app's own HTTP path
   (``POST /api/datasets``, as a script would; the upload page's "Save" calls the same
   service) and replays that page load over HTTP for the new dataset id (the page's GET,
   then each recorded ``_dash-update-component`` request in the order the browser sent
   them, one after the other), three ways, interleaved in each round:

   ``immediate``  the first open sent as soon as the upload answered (the upload page's
                  "Save and explore");
   ``later``      the first open after the app went quiet again (a link opened later: any
                  work started by the upload is done);
   ``reload``     the same page load again on a dataset already open (the warm floor).

   Each table has the same numbers (one seed) and its own row names, so every upload is a
   new file and a new dataset: nothing of an earlier repeat is reused.

For each open it reads the app's CPU time from ``/proc`` (process and threads) before and
after, beside the wall time, and checks the answer before printing anything: every request
answers 200 with a response and no error alert, and the pick the replayed page names is the
pick the explorer service and ``copa_select`` over every row compute in this process for the
view the share link holds.

``--profile`` instead builds the app in this process (same settings), uploads a table
through its API, waits 5 s and replays the first open under cProfile, printing the
functions with the most cumulative time (where the first open's server time goes; with the
upload's background first view, what is left of it once that work ended; run the script
with ``PYTHONPATH`` set to a checkout before it to profile the whole computation).

Usage::

    python benchmarks/bench_first_open_server.py --rows 100000 --objectives 8 --repeats 5
    python benchmarks/bench_first_open_server.py --rows 1000000 --objectives 4 --repeats 3
    python benchmarks/bench_first_open_server.py --rows 100000 --objectives 8 --profile

``--app-dir DIR`` runs another checkout's ``app.py``; ``--compare-dir DIR`` runs a second
one (e.g. ``git archive`` of the commit before a change) beside it, both apps started at
once and their rounds interleaved (order rotated per round), so that load from elsewhere on
the machine hits both alike; the run stops unless both pick the same row.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import requests

from benchmarks._app import RunningApp, app_env, free_port, headless_chromium
from benchmarks._harness import load_line
from benchmarks.bench_explore_browser import (
    FIRST_FIGURE,
    _check_pick,
    _wait_until_quiet,
    service_pick,
    synthetic_table,
)

# Installed before the page's own scripts: records every callback request of the page load.
RECORD_REQUESTS = """
window.__copaRequests = [];
window.__copaFetch = window.fetch;
window.fetch = function(url, options) {
  if (String(url).includes('_dash-update-component') && options && options.body) {
    window.__copaRequests.push({url: String(url), body: options.body});
  }
  return window.__copaFetch.apply(this, arguments);
};
"""
ERROR_ALERT = "global-error"
PICK = re.compile(r'"id":\s*"pick-id".{0,200}?"(?:html|children)":\s*"([^"]*)"', re.DOTALL)


def table_bytes(rows: int, objectives: int, prefix: str) -> bytes:
    """A synthetic table (``synthetic_table``, seed 23) as Parquet, its row names prefixed
    by ``prefix`` so that every repeat uploads a different file."""
    frame = synthetic_table(rows, objectives, 23)
    frame["model"] = prefix + frame["model"]
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


def upload(base_url: str, data: bytes, name: str) -> str:
    """POST the table to the app's API (shared, the proposed roles); the new dataset id."""
    response = requests.post(f"{base_url}/api/datasets", files={"file": ("big.parquet", data)},
                             data={"name": name, "shared": "true"}, timeout=600)
    if response.status_code != 201:
        raise SystemExit(f"upload failed: HTTP {response.status_code} {response.text[:300]}")
    return response.json()["id"]


def record_page_load(base_url: str, dataset: str) -> list[dict]:
    """The callback requests the browser sends to open ``/explore?dataset=ID&alpha=1``."""
    driver = headless_chromium(1400, 1000)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_REQUESTS})
        driver.set_script_timeout(320)
        driver.get(f"{base_url}/explore?dataset={dataset}&alpha=1")
        if driver.execute_async_script(FIRST_FIGURE) < 0:
            raise SystemExit("the explorer did not draw the front figure within 5 minutes")
        time.sleep(3)                   # callbacks the first figure does not wait for
        recorded = driver.execute_script("return window.__copaRequests;")
    finally:
        driver.quit()
    if not recorded:
        raise SystemExit("the page load sent no callback request")
    return [{"path": "/" + r["url"].split("/", 3)[-1] if r["url"].startswith("http")
             else r["url"], "body": r["body"]} for r in recorded]


def replay(session: requests.Session, base_url: str, recorded: list[dict], old: str,
           new: str) -> tuple[float, list[str]]:
    """Open the page of dataset ``new`` as the recorded load of ``old`` did; returns the wall
    seconds and the answers' texts. Stops the run on any failed answer."""
    started = time.perf_counter()
    page = session.get(f"{base_url}/explore?dataset={new}&alpha=1", timeout=600)
    if page.status_code != 200:
        raise SystemExit(f"the page answered HTTP {page.status_code}")
    answers = []
    for request in recorded:
        body = request["body"].replace(old, new)
        response = session.post(base_url + request["path"], data=body, timeout=600,
                                headers={"Content-Type": "application/json"})
        if response.status_code == 204:         # PreventUpdate: nothing to change
            continue
        if response.status_code != 200 or "response" not in response.json():
            raise SystemExit(f"a callback answered HTTP {response.status_code}: "
                             f"{response.text[:300]}")
        if ERROR_ALERT in response.text:
            raise SystemExit(f"a callback answered with the error alert: {response.text[:300]}")
        answers.append(response.text)
    return time.perf_counter() - started, answers


def check_pick(settings, answers: list[str], dataset: str) -> str:
    """The pick the replayed page names against the explorer service and ``copa_select``."""
    links = [m for text in answers
             for m in re.findall(r'"explore-share":\s*\{"value":\s*"([^"]+)"', text)]
    if not links:
        raise SystemExit("no answer holds the share link")
    link = links[-1]
    if f"dataset={dataset}" not in link:
        raise SystemExit(f"the share link {link!r} is not of dataset {dataset}")
    via_service, direct = service_pick(settings, link)
    if via_service != direct:
        raise SystemExit(f"the explorer service picks {via_service!r}, copa_select {direct!r}")
    if not any(f">{via_service}<" in text or f'"{via_service}"' in text for text in answers):
        raise SystemExit(f"the replayed page does not name the pick {via_service!r}")
    return via_service


def _session(base_url: str) -> requests.Session:
    session = requests.Session()
    session.headers.update({"Origin": base_url, "Referer": f"{base_url}/explore"})
    return session


class Contender:
    """One running app (a checkout's ``app.py``) with its recorded page load and results."""

    def __init__(self, label: str, app_dir: Path, rows: int, objectives: int):
        from copa_dash.config import Settings

        self.label = label
        port = free_port()
        root = Path(tempfile.mkdtemp(prefix="copa-first-open-"))
        self.settings = Settings.from_env(app_env(port, root, app_dir))
        self.app = RunningApp(port, state=root, app_dir=app_dir)
        self.rows, self.objectives = rows, objectives
        self.results = {"immediate": [], "later": [], "reload": [], "browser immediate": [],
                        "browser later": []}
        self.uploads = []
        self.picks = set()

    def record(self) -> None:
        _wait_until_quiet(self.app)
        self.first = upload(self.app.url, table_bytes(self.rows, self.objectives, "rec-"),
                            "recorded")
        self.recorded = record_page_load(self.app.url, self.first)
        self.session = _session(self.app.url)
        print(f"{self.label}: recorded {len(self.recorded)} callback requests of one page "
              "load: " + ", ".join(json.loads(r["body"])["output"][:40] for r in self.recorded))

    def _open(self, dataset: str) -> tuple[float, float]:
        cpu = self.app.cpu_seconds()
        wall, answers = replay(self.session, self.app.url, self.recorded, self.first, dataset)
        spent = self.app.cpu_seconds() - cpu
        self.picks.add(check_pick(self.settings, answers, dataset).split("-", 1)[1])
        return wall, spent

    def round(self, number: int) -> None:
        """Each kind of open once (immediate and later in an order alternated per round)."""
        order = ("immediate", "later") if number % 2 == 0 else ("later", "immediate")
        for kind in order:
            data = table_bytes(self.rows, self.objectives, f"r{number}{kind[0]}-")
            _wait_until_quiet(self.app)
            cpu = self.app.cpu_seconds()
            started = time.perf_counter()
            dataset = upload(self.app.url, data, f"{kind} {number}")
            self.uploads.append((time.perf_counter() - started, self.app.cpu_seconds() - cpu))
            if kind == "later":
                _wait_until_quiet(self.app)
            self.results[kind].append(self._open(dataset))
            if kind == "immediate":         # the warm floor on the same dataset
                _wait_until_quiet(self.app)
                self.results["reload"].append(self._open(dataset))


    def browser_round(self, driver, number: int) -> None:
        """The first open in headless Chromium, right after the upload answered and after
        the app went quiet: from ``driver.get`` to the first figure drawn (as
        ``bench_explore_browser`` times it), with the server's CPU over that time."""
        order = ("immediate", "later") if number % 2 == 0 else ("later", "immediate")
        for kind in order:
            data = table_bytes(self.rows, self.objectives, f"b{number}{kind[0]}-")
            _wait_until_quiet(self.app)
            dataset = upload(self.app.url, data, f"browser {kind} {number}")
            if kind == "later":
                _wait_until_quiet(self.app)
            cpu = self.app.cpu_seconds()
            started = time.time()
            driver.get(f"{self.app.url}/explore?dataset={dataset}&alpha=1")
            painted = driver.execute_async_script(FIRST_FIGURE)
            if painted < 0:
                raise SystemExit("the explorer did not draw the front figure within 5 minutes")
            self.results["browser " + kind].append((painted / 1000.0 - started,
                                                    self.app.cpu_seconds() - cpu))
            time.sleep(1)
            _check_pick(driver, self.settings, f"{self.label}, browser {kind}")


LABELS = {"immediate": "first open, right after the upload answered",
          "later": "first open, app quiet after the upload",
          "reload": "reload (dataset already open)",
          "browser immediate": "in Chromium: first open right after the upload, to first figure",
          "browser later": "in Chromium: first open, app quiet after the upload, to first figure"}


def measure(args) -> int:
    dirs = [("this checkout" if args.app_dir.resolve() == ROOT else str(args.app_dir),
             args.app_dir)]
    if args.compare_dir:
        dirs.append((f"{args.compare_dir}", args.compare_dir))
    print(f"table {args.rows:,} x {args.objectives}, {args.repeats} rounds; apps: "
          + "; ".join(f"{label} ({path.resolve()})" for label, path in dirs))
    print("before: " + load_line())
    contenders = []
    try:
        for label, path in dirs:
            contenders.append(Contender(label, path, args.rows, args.objectives))
        for contender in contenders:
            contender.record()
        for number in range(args.repeats):     # the apps' rounds interleaved, order rotated
            for contender in contenders[number % len(contenders):] + \
                    contenders[:number % len(contenders)]:
                contender.round(number)
        if args.browser_rounds:
            driver = headless_chromium(1400, 1000)
            try:
                driver.set_script_timeout(320)
                for contender in contenders:       # the browser caches the page's scripts
                    driver.get(f"{contender.app.url}/explore?dataset={contender.first}&alpha=1")
                    driver.execute_async_script(FIRST_FIGURE)
                for number in range(args.browser_rounds):
                    for contender in contenders[number % len(contenders):] + \
                            contenders[:number % len(contenders)]:
                        contender.browser_round(driver, number)
            finally:
                driver.quit()
    finally:
        for contender in contenders:
            contender.app.stop()
    print("after: " + load_line())
    picks = {c.label: sorted(c.picks) for c in contenders}
    if len({tuple(p) for p in picks.values()}) != 1 or len(contenders[0].picks) != 1:
        raise SystemExit(f"the apps pick different rows of the same table: {picks}")
    print("checked: every answer 200, no error alert; on every open the page's pick equals "
          "the explorer service's and copa_select's over every row, and every app and "
          f"repeat picks the same row of the table ({contenders[0].picks.pop()})")
    print("\n| app | open of /explore?dataset=ID&alpha=1 | n | server CPU median s (min-max) "
          "| wall median s (min-max) |")
    print("|---|---|---|---|---|")
    for contender in contenders:
        for kind, label in LABELS.items():
            runs = contender.results[kind]
            if not runs:
                continue
            cpu = [r[1] for r in runs]
            wall = [r[0] for r in runs]
            print(f"| {contender.label} | {label} | {len(runs)} | {statistics.median(cpu):.2f} "
                  f"({min(cpu):.2f}-{max(cpu):.2f}) | {statistics.median(wall):.2f} "
                  f"({min(wall):.2f}-{max(wall):.2f}) |")
        print(f"| {contender.label} | the upload itself (POST /api/datasets until it answered) | "
              f"{len(contender.uploads)} | {statistics.median(u[1] for u in contender.uploads):.2f} | "
              f"{statistics.median(u[0] for u in contender.uploads):.2f} |")
    return 0


def profile(args) -> int:
    """One cold replay inside this process under cProfile (the app built here, Flask's test
    client speaking for the browser)."""
    import cProfile
    import pstats

    from copa_dash.app_factory import create_app
    from copa_dash.config import Settings
    from copa_dash.services.warmup import warm_up_kernels

    port = free_port()
    root = Path(tempfile.mkdtemp(prefix="copa-first-open-"))
    with RunningApp(port, state=root, app_dir=args.app_dir) as app:
        _wait_until_quiet(app)
        first = upload(app.url, table_bytes(args.rows, args.objectives, "rec-"), "recorded")
        recorded = record_page_load(app.url, first)
    settings = Settings.from_env(app_env(port, root, args.app_dir))
    dash_app = create_app(settings)
    client = dash_app.server.test_client()
    warm_up_kernels()                              # the kernels loaded, as in a warm app
    headers = {"Origin": "http://localhost", "Referer": "http://localhost/explore"}

    def open_page(dataset: str) -> None:
        client.get(f"/explore?dataset={dataset}&alpha=1", headers=headers)
        for request in recorded:
            response = client.post(request["path"], data=request["body"].replace(first, dataset),
                                   headers={**headers, "Content-Type": "application/json"})
            if response.status_code not in (200, 204) or ERROR_ALERT in response.get_data(True):
                raise SystemExit(f"a callback failed: {response.status_code}")

    for n in range(2):           # the first call imports and fills per-process memos
        response = client.post("/api/datasets", headers=headers, data={
            "file": (io.BytesIO(table_bytes(args.rows, args.objectives, f"p{n}-")), "big.parquet"),
            "shared": "true"}, content_type="multipart/form-data")
        dataset = response.get_json()["id"]
        if n == 0:
            open_page(dataset)
            continue
        time.sleep(5)            # anything the upload started in the background is done
        profiler = cProfile.Profile()
        profiler.enable()
        open_page(dataset)
        profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(45)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--objectives", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=5, help="rounds (each: every kind once)")
    parser.add_argument("--browser-rounds", type=int, default=0,
                        help="rounds of first opens in headless Chromium after the replays")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--app-dir", type=Path, default=ROOT)
    parser.add_argument("--compare-dir", type=Path, default=None,
                        help="a second checkout whose app.py is measured in the same rounds")
    args = parser.parse_args(argv)
    if args.rows < 10 or not 2 <= args.objectives <= 16 or not 1 <= args.repeats <= 50:
        print("--rows >= 10, --objectives 2..16, --repeats 1..50", file=sys.stderr)
        return 2
    return profile(args) if args.profile else measure(args)


if __name__ == "__main__":
    sys.exit(main())
