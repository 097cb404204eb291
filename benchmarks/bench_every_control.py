"""Every page and every control, timed in headless Chromium against the app served warm.

Starts the app (``python app.py``) on a free loopback port, opens each page (Datasets, Upload,
Explore, Rankings, Systems, Val -> test, Posets, Help) on the largest bundled tables (Open LLM
leaderboard v2, DecodingTrust, amlb-2022; Val -> test on the breast-cancer table, the bundled
one with validation and test columns) and works the page's controls, each ``--repeats``
times:

* sliders (``[role=slider]``) by the arrow keys, left then right;
* check boxes (objective ticks, log axes, options) clicked off and on again;
* radio groups (directions, modes, views) switched to another choice and back;
* dropdowns (not the dataset switchers, which leave the page) opened and an option chosen;
* tabs switched;
* table columns sorted by their header (and the explorer's sort menu, a dropdown);
* the explorer's range constraint typed in and cleared;
* a range dragged on an axis of the explorer's parallel coordinates (brushing), a new range each time.

Each interaction is timed by the page itself: a watcher armed before the action starts the
clock at the action's first event (keydown / pointerdown, captured; a drag at its release,
pointerup; it does not settle while the pointer is held) and stops it at the last
change of the document (a MutationObserver) before the page settles: no component marked as
waiting for a callback (``data-dash-is-loading``), no callback pending (Dash's
``_dash-loading-callback``) and 150 ms without a change. Plotly draws into the document, so
a figure counts once drawn (the ``plotly_afterplot`` point). An interaction with no callback
(a dropdown opening) settles in the browser alone.

Opening a page is timed from the navigation's start (``performance.timeOrigin``) to the last
change before the page settles with its main part drawn; each page is opened once untimed
first (warm: the server has computed and cached the view) and then ``--repeats`` times.

The table gives each interaction's median, 90th percentile and maximum in ms, and the
server's CPU seconds per interaction (median; ``/proc``) beside the browser's (chromedriver's
Chromium and its renderer processes: where the time goes when the server's share is small),
then the slowest interactions,
and the targets of issue 33 (every control under 1 s warm, an objective tick or a direction
change on Explore under 300 ms, Rankings on the Open LLM leaderboard drawn within 1.5 s)
checked. The machine's load is printed before and after: on a shared machine wall times
follow the load.

Usage::

    python benchmarks/bench_every_control.py [--repeats 5] [--pages explore,rankings]
        [--datasets open-llm-leaderboard-v2] [--max-per-kind 6] [--markdown]
        [--upload FILE ...]

``--upload FILE`` (repeatable) saves the file in the served app's data directory before the
app starts, the way the upload page's "Save and explore" does with its proposal accepted
(``services.uploads.stage_upload`` then ``save_upload`` with the proposed roles, in a process
with the app's environment and package: no roles written by hand), and adds its id to the
datasets the dataset-bound pages are worked on. The tables name it by the file's stem; ``--datasets``
may name it by its stem too (``--datasets adult_sex_numerical-binsensitive`` works on the upload
alone).

Needs Debian's chromium and chromium-driver (``make test`` installs them).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._app import RunningApp, app_env, free_port, headless_chromium, tree_cpu_seconds
from benchmarks._gestures import drag_on_axis
from benchmarks._harness import load_line, markdown, percentile

TABLES = ("open-llm-leaderboard-v2", "decodingtrust", "amlb-2022")
# an uploaded dataset's id -> the name the tables give it (its file's stem)
NAMES: dict[str, str] = {}
VAL_TEST = "breast-cancer-val-test"
# page: (path, dataset-bound, what shows once the page is drawn)
PAGES = {
    "datasets": ("/", False, "#datasets-search"),
    "upload": ("/upload", False, ".drop-zone"),
    "explore": ("/explore", True, "#explore-front .js-plotly-plot .main-svg"),
    "rankings": ("/rankings", True, "#rankings-bump .js-plotly-plot .main-svg, .alert"),
    "systems": ("/systems", True, "#systems-radar .js-plotly-plot .main-svg, .alert"),
    "val-test": ("/generalization", "val-test", "main.results, .alert"),
    "posets": ("/posets", True, "#posets-depth .js-plotly-plot .main-svg, .alert"),
    "help": ("/help", False, ".help-page .glossary"),
}

# Armed before each action: the clock starts at the action's first event, stops at the last
# change of the document before the page settles (see the module's docstring).
ARM = """
const gen = (window.__copaGen || 0) + 1;
window.__copaGen = gen;
window.__copaAct = null;
if (window.__copaObs) { window.__copaObs.disconnect(); }
const t = {start: null, last: null, busySeen: false, held: false, moved: false};
const busy = () => !!document.querySelector(
  '[data-dash-is-loading="true"], ._dash-loading-callback');
const obs = new MutationObserver(() => {
  if (t.start !== null && gen === window.__copaGen) {
    t.last = performance.now();
    if (busy()) { t.busySeen = true; }
  }
});
window.__copaObs = obs;
obs.observe(document.documentElement, {childList: true, subtree: true, characterData: true,
                                       attributes: true});
function poll() {
  if (gen !== window.__copaGen) { return; }
  const now = performance.now();
  if (busy()) { t.busySeen = true; }
  const last = t.last === null ? t.start : t.last;
  if (!t.held && !busy() && now - last >= 150 && (t.busySeen || now - t.start >= 600)) {
    obs.disconnect();
    window.__copaAct = {ms: last - t.start, server: t.busySeen, changed: t.last !== null};
    return;
  }
  if (now - t.start > 60000) { obs.disconnect(); window.__copaAct = {ms: -1}; return; }
  setTimeout(poll, 10);
}
function begin() {
  if (gen !== window.__copaGen || t.start !== null) { return; }
  t.start = performance.now();
  poll();
}
for (const type of ['keydown', 'pointerdown', 'mousedown']) {
  document.addEventListener(type, begin, {capture: true, once: true});
}
// a drag (a brush) is timed from its release: the page cannot settle while the pointer is
// held, and the clock restarts at pointerup after a move (a drag's scripted moves are the
// gesture, not the page's answer; on a figure with few lines nothing changes between them)
document.addEventListener('pointerdown', () => { t.held = true; }, {capture: true, once: true});
document.addEventListener('pointermove', () => { if (t.held) { t.moved = true; } },
                          {capture: true});
document.addEventListener('pointerup', () => {
  if (gen !== window.__copaGen || !t.held) { return; }
  t.held = false;
  if (t.moved) { t.start = performance.now(); t.last = null; }
}, {capture: true, once: true});
"""

COLLECT = """
const done = arguments[arguments.length - 1];
(function wait() {
  if (window.__copaAct !== null && window.__copaAct !== undefined) { done(window.__copaAct); return; }
  setTimeout(wait, 20);
}());
"""

# After a navigation: wait until the page's main part is there and the page settled; the
# time is that of the last change, from the navigation's start.
PAGE_SETTLED = """
const [ready, done] = [arguments[0], arguments[arguments.length - 1]];
let last = performance.now();
const busy = () => !!document.querySelector(
  '[data-dash-is-loading="true"], ._dash-loading-callback');
const obs = new MutationObserver(() => { last = performance.now(); });
obs.observe(document.documentElement, {childList: true, subtree: true, characterData: true,
                                       attributes: true});
(function poll() {
  const now = performance.now();
  if (document.querySelector(ready) && !busy() && now - last >= 200) {
    obs.disconnect(); done(last); return;
  }
  if (now > 120000) { obs.disconnect(); done(-1); return; }
  setTimeout(poll, 10);
}());
"""

# The page's controls, in the page's own part (not the header), each with a CSS path the
# benchmark finds again after a re-render.
CONTROLS = """
const root = document.querySelector('#_pages_content') || document.body;
const limit = arguments[0];
const out = [];
function path(el) {
  const parts = [];
  for (let e = el; e && e !== document.body; e = e.parentElement) {
    let part = e.tagName.toLowerCase();
    if (e.id) { parts.unshift(`${part}[id='${e.id.replace(/'/g, "\\\\'")}']`); break; }
    const same = [...e.parentElement.children].filter(c => c.tagName === e.tagName);
    if (same.length > 1) { part += `:nth-of-type(${same.indexOf(e) + 1})`; }
    parts.unshift(part);
  }
  return parts.join(' > ');
}
function label(el) {
  const own = el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].innerText)
    || el.innerText || el.value || '';
  const box = el.closest('[id]');
  return `${own.trim().replace(/\\s+/g, '/').slice(0, 40)}${box ? ' @' + box.id.slice(0, 50) : ''}`;
}
const visible = el => el.getClientRects().length > 0 && !el.disabled
  && !el.closest('[aria-disabled="true"], .nav, header, .report-row');
const take = (kind, els) => els.filter(visible).slice(0, limit).forEach(
  el => out.push({kind: kind, path: path(el), label: label(el)}));
take('slider', [...root.querySelectorAll('[role=slider]')]);
take('checkbox', [...root.querySelectorAll('input[type=checkbox]')]);
// a radio group or a set of tabs is worked through its box: each action picks the first
// choice in it that is not the current one
const boxes = (els, boxOf) => [...new Set(els.filter(visible).map(boxOf).filter(Boolean))];
take('radio', boxes([...root.querySelectorAll('input[type=radio]')], r => r.closest('[id]')));
take('dropdown', [...root.querySelectorAll('button.dash-dropdown')].filter(
  b => !/dataset/i.test((b.closest('[id]') || {}).id || '')));
take('tab', boxes([...root.querySelectorAll('.tab')], t => t.parentElement));
take('sort', [...root.querySelectorAll('.column-header--sort')]);
take('range', [...root.querySelectorAll("input[id*='range-min']")]);
// brushing: a range dragged on an axis of Explore's parallel coordinates (a constraint)
take('brush', [...root.querySelectorAll('#explore-parallel .js-plotly-plot')]);
return out;
"""


@dataclass
class Timing:
    page: str
    dataset: str
    control: str
    ms: list[float] = field(default_factory=list)
    server_cpu: list[float] = field(default_factory=list)
    browser_cpu: list[float] = field(default_factory=list)
    callback: bool = False

    def row(self) -> list[str]:
        ms = sorted(self.ms)
        p90 = percentile(ms, 90)
        return [self.page, NAMES.get(self.dataset, self.dataset) or "-", self.control, str(len(ms)),
                f"{statistics.median(ms):.0f}" if ms else "-", f"{p90:.0f}",
                f"{max(ms):.0f}" if ms else "-",
                f"{statistics.median(self.server_cpu):.3f}" if self.server_cpu else "-",
                f"{statistics.median(self.browser_cpu):.3f}" if self.browser_cpu else "-",
                "yes" if self.callback else "no"]


class Bench:
    def __init__(self, app: RunningApp, driver, repeats: int, max_per_kind: int):
        self.app, self.driver = app, driver
        self.repeats, self.max_per_kind = repeats, max_per_kind
        self.timings: list[Timing] = []
        self.verbose = False
        self.crashes: list[str] = []

    # -- one timed action -------------------------------------------------------------
    def browser_cpu_seconds(self) -> float:
        """CPU seconds of chromedriver and its Chromium (renderer, GPU, ... processes)."""
        return tree_cpu_seconds(self.driver.service.process.pid)

    def timed(self, action) -> tuple[float, bool, float, float]:
        driver = self.driver
        driver.execute_script(ARM)
        cpu, browser = self.app.cpu_seconds(), self.browser_cpu_seconds()
        action()
        driver.set_script_timeout(90)
        result = driver.execute_async_script(COLLECT)
        return (float(result["ms"]), bool(result.get("server")), self.app.cpu_seconds() - cpu,
                self.browser_cpu_seconds() - browser)

    def find(self, css: str):
        from selenium.webdriver.common.by import By
        found = self.driver.find_elements(By.CSS_SELECTOR, css)
        return found[0] if found else None

    def quiet(self, seconds: float = 0.3) -> None:
        time.sleep(seconds)

    def into_view(self, css: str):
        element = self.find(css)
        if element is not None:
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", element)
            self.quiet(0.3)
        return self.find(css)

    # -- pages ---------------------------------------------------------------------------
    def open(self, url: str, ready: str) -> float:
        self.driver.get(url)
        self.driver.set_script_timeout(150)
        return float(self.driver.execute_async_script(PAGE_SETTLED, ready))

    def page(self, name: str, dataset: str | None) -> None:
        path, _, ready = PAGES[name]
        url = f"{self.app.url}{path}" + (f"?dataset={dataset}" if dataset else "")
        self.open(url, ready)                                   # warm: untimed
        opened = Timing(name, dataset or "", "open the page (to drawn and settled)")
        for _ in range(self.repeats):
            cpu, browser = self.app.cpu_seconds(), self.browser_cpu_seconds()
            opened.ms.append(self.open(url, ready))
            opened.server_cpu.append(self.app.cpu_seconds() - cpu)
            opened.browser_cpu.append(self.browser_cpu_seconds() - browser)
        opened.callback = True
        self.timings.append(opened)
        if self.verbose:
            print(f"    open: {[round(ms) for ms in opened.ms]} ms, server CPU "
                  f"{[round(c, 2) for c in opened.server_cpu]} s, browser CPU "
                  f"{[round(c, 2) for c in opened.browser_cpu]} s", flush=True)
        for control in self.driver.execute_script(CONTROLS, self.max_per_kind):
            timing = Timing(name, dataset or "", f"{control['kind']}: {control['label']}")
            try:
                self.work(control, timing)
            except Exception as exc:  # noqa: BLE001 - a control that vanished is reported, not fatal
                timing.control += f" (stopped: {type(exc).__name__})"
            if timing.ms:
                self.timings.append(timing)
            if self.verbose:
                print(f"    {timing.control}: {[round(ms) for ms in timing.ms]} ms, server CPU "
                      f"{[round(c, 2) for c in timing.server_cpu]} s, browser CPU "
                      f"{[round(c, 2) for c in timing.browser_cpu]} s", flush=True)
            if self.driver.current_url.split("?")[0] != url.split("?")[0]:
                self.open(url, ready)                           # a control left the page

    def work(self, control: dict, timing: Timing) -> None:
        from selenium.webdriver.common.keys import Keys

        kind, css = control["kind"], control["path"]
        for i in range(self.repeats):
            element = self.into_view(css)
            if element is None:
                return
            if kind == "slider":
                key = Keys.ARROW_LEFT if i % 2 == 0 else Keys.ARROW_RIGHT
                sample = self.timed(lambda e=element, k=key: e.send_keys(k))
            elif kind in ("checkbox", "sort"):
                sample = self.timed(element.click)
            elif kind in ("radio", "tab"):
                other = element.find_elements(
                    "css selector", "input[type=radio]:not(:checked)" if kind == "radio"
                    else ".tab:not(.tab--selected)")
                if not other:
                    return
                sample = self.timed(other[0].click)
            elif kind == "dropdown":
                element.click()                                 # open (untimed)
                self.quiet(0.4)
                option = self.find(".dash-dropdown-options .dash-dropdown-option:nth-child("
                                   f"{1 + i % 2})")
                if option is None:
                    element.send_keys(Keys.ESCAPE)
                    return
                sample = self.timed(option.click)
                menu = self.find(".dash-dropdown-options")
                if menu is not None:
                    self.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
            elif kind == "range":
                # the column's minimum (the box's placeholder) typed in, then cleared; Enter
                # submits (the box is debounced)
                low = (element.get_attribute("placeholder") or "min 0").split()[-1]
                keys = low + Keys.ENTER if i % 2 == 0 else Keys.BACKSPACE * 16 + Keys.ENTER
                sample = self.timed(lambda e=element, k=keys: e.send_keys(k))
            elif kind == "brush":
                # axis 1 (the second objective), a different range of u each time: each drag
                # replaces that objective's range constraint
                sample = self.timed(lambda e=element, n=i: drag_on_axis(
                    self.driver, e, 1, 0.05 * n + 0.1, 0.05 * n + 0.6))
            else:
                return
            ms, server, cpu, browser = sample
            if ms >= 0:
                timing.ms.append(ms)
                timing.server_cpu.append(cpu)
                timing.browser_cpu.append(browser)
                timing.callback |= server
            self.quiet(0.2)
        if kind == "checkbox" and self.repeats % 2 == 1:
            # an odd number of clicks leaves the box flipped: clicked once more (untimed), so
            # the controls after it (the brush needs two objectives ticked) see the page as
            # opened. Without it every objective of a table ended unticked and the brush
            # reached no callback (session 14).
            element = self.into_view(css)
            if element is not None:
                element.click()
                self.quiet(0.4)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pages", default=",".join(PAGES))
    parser.add_argument("--datasets", default=None,
                        help=f"comma-separated ids (an upload by its file's stem); default "
                             f"{','.join(TABLES)} and every --upload")
    parser.add_argument("--max-per-kind", type=int, default=8,
                        help="at most this many controls of each kind per page")
    parser.add_argument("--slowest", type=int, default=15)
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    parser.add_argument("--app-dir", type=Path, default=ROOT,
                        help="run the app.py of another checkout (PYTHONPATH set to it)")
    parser.add_argument("--verbose", action="store_true", help="print each sample as it comes")
    parser.add_argument("--upload", type=Path, action="append", default=[], metavar="FILE",
                        help="save FILE as an upload (its proposal accepted) before the app "
                             "starts and work the dataset-bound pages on it too (repeatable)")
    args = parser.parse_args(argv)
    print(load_line(), flush=True)
    started = time.perf_counter()
    from selenium.common.exceptions import WebDriverException

    port = free_port()
    state = Path(tempfile.mkdtemp(prefix="copa-bench-"))
    uploaded = save_uploads(args.upload, app_env(port, state, args.app_dir), args.app_dir)
    NAMES.update({i: stem for stem, i in uploaded.items()})
    datasets = _datasets(args.datasets, uploaded)
    with RunningApp(port, state=state, app_dir=args.app_dir) as app:
        driver = headless_chromium(1400, 1000)
        try:
            bench = Bench(app, driver, args.repeats, args.max_per_kind)
            bench.verbose = args.verbose
            for name in args.pages.split(","):
                bound = PAGES[name][1]
                for dataset in ([VAL_TEST] if bound == "val-test" else
                                datasets if bound else [None]):
                    print(f"  {name} {dataset or ''} ...", flush=True)
                    try:
                        bench.page(name, dataset)
                    except WebDriverException as exc:     # e.g. "tab crashed": said, then on
                        first = (exc.msg or type(exc).__name__).splitlines()[0]
                        bench.crashes.append(f"{name}/{dataset or '-'}: {first}")
                        print(f"    the browser failed: {first}", flush=True)
                        bench.driver.quit()
                        bench.driver = headless_chromium(1400, 1000)
        finally:
            bench.driver.quit()
    head = ["page", "dataset", "interaction", "n", "median ms", "p90 ms", "max ms",
            "server CPU s", "browser CPU s", "callback"]
    rows = [t.row() for t in bench.timings]
    slowest = sorted(bench.timings, key=lambda t: -statistics.median(t.ms))[:args.slowest]
    show = markdown if args.markdown else _plain
    print("\nEvery interaction (ms from the action to the settled page):")
    print(show(head, rows))
    print(f"\nThe {len(slowest)} slowest (by median):")
    print(show(head, [t.row() for t in slowest]))
    for crash in bench.crashes:
        print(f"\nThe browser failed on {crash}")
    print("\nTargets (issue 33):")
    for line in _targets(bench.timings):
        print("  " + line)
    print(f"\n{load_line()}; {time.perf_counter() - started:.0f} s in all")
    return 0


# Run in a process with the app's environment and package (``--app-dir``): the upload page's
# "Save and explore" with its proposal accepted.
SAVE_UPLOAD = """
import json, sys
from pathlib import Path
from copa_dash.config import Settings
from copa_dash.services.uploads import save_upload, stage_upload
settings = Settings.from_env()
saved = {}
for name in sys.argv[1:]:
    path = Path(name)
    staged = stage_upload(settings, path.name, path.read_bytes())
    saved[path.stem] = save_upload(settings, staged.token, staged.filename, staged.proposed,
                                   name=staged.suggested_name, shared=False).id
print(json.dumps(saved))
"""


def save_uploads(files: list[Path], env: dict, app_dir: Path) -> dict[str, str]:
    """Save each of ``files`` into the data directory of the app about to start (``env``) as
    the upload page does, its proposed roles accepted; returns {file stem: dataset id}."""
    if not files:
        return {}
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise SystemExit(f"--upload: no such file: {', '.join(missing)}")
    done = subprocess.run([sys.executable, "-c", SAVE_UPLOAD, *map(str, files)], cwd=app_dir,
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"--upload: saving failed:\n{done.stderr.strip()}")
    saved = json.loads(done.stdout.strip().splitlines()[-1])
    for stem, dataset in saved.items():
        print(f"  uploaded {stem} as dataset {dataset}", flush=True)
    return saved


def _datasets(given: str | None, uploaded: dict[str, str]) -> list[str]:
    """The dataset-bound pages' datasets: ``--datasets`` (an upload named by its file's stem),
    or the three bundled tables and every upload when it is not given."""
    if given is None:
        return [*TABLES, *uploaded.values()]
    return [uploaded.get(name, name) for name in given.split(",") if name]


def _targets(timings: list[Timing]) -> list[str]:
    over = [t for t in timings if not t.control.startswith("open") and statistics.median(t.ms) >= 1000]
    tick = [t for t in timings if t.page == "explore" and (
        t.control.startswith("checkbox") and "explore-objectives" in t.control
        or t.control.startswith("radio") and "explore-direction" in t.control)]
    slow_tick = [t for t in tick if statistics.median(t.ms) >= 300]
    rankings = [t for t in timings if t.page == "rankings" and t.dataset == TABLES[0]
                and t.control.startswith("open")]
    if not tick:
        tick_line = "not measured"
    else:
        tick_line = "met" if not slow_tick else "missed by " + ", ".join(map(_name, slow_tick))
    lines = ["every control under 1 s warm (median): "
             + ("met" if not over else "missed by " + ", ".join(map(_name, over))),
             "Explore objective tick / direction under 300 ms: " + tick_line]
    for t in rankings:
        lines.append(f"Rankings on {t.dataset} drawn within 1.5 s warm: median "
                     f"{statistics.median(t.ms):.0f} ms: "
                     f"{'met' if statistics.median(t.ms) < 1500 else 'missed'}")
    return lines


def _name(t: Timing) -> str:
    return f"{t.page}/{NAMES.get(t.dataset, t.dataset) or '-'} {t.control} ({statistics.median(t.ms):.0f} ms)"


def _plain(head: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    return "\n".join("  ".join(str(c).ljust(w) for c, w in zip(r, widths)) for r in [head, *rows])


if __name__ == "__main__":
    raise SystemExit(main())
