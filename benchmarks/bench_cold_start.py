"""First start on an empty numba cache: time to the first page and to the first CLI answers.

Compares, in one run and alternating their order, the two ways a kernel can first compile
(``COPA_JIT_MODE``, see ``copa_dash/core/jit.py``):

* ours, the default: numpy twins answer while kernels compile (the app: in a background
  thread from the first request on; the CLI: in a detached process after it answered);
* peer: ``foreground``, compile before answering (the app compiles every kernel before it
  serves, as it did before issue 19; the CLI compiles what the command uses).

Each figure is taken on a fresh ``NUMBA_CACHE_DIR`` (cold) and on a cache filled by
``copa-dash compile`` (warm). Wall time beside CPU time (the process's own user + system
time; the app's background compile thread included, the CLI's detached compile not: it runs
after the answer). Before a ratio is printed the two variants' answers are compared (the CLI's
JSON, the explorer's pick card). The machine's load is printed with the table: on a shared
2-core machine wall times follow the load, CPU times much less.

Usage::

    python benchmarks/bench_cold_start.py [--repeats 1] [--no-browser]

The first-figure timing drives headless Chromium (Debian's chromium and chromium-driver).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._app import RunningApp, free_port, headless_chromium

DATASET = "open-llm-leaderboard-v2"
CLI_CASES = (
    ("copa-dash --help", ["--help"]),
    (f"select --dataset {DATASET}", ["select", "--dataset", DATASET, "--json"]),
    (f"sweep --dataset {DATASET}", ["sweep", "--dataset", DATASET, "--json"]),
    ("rank --dataset decodingtrust", ["rank", "--dataset", "decodingtrust", "--json"]),
    ("indicators --dataset fairness-adult-sex",
     ["indicators", "--dataset", "fairness-adult-sex", "--json"]),
    ("significance --dataset fairness-adult-sex",
     ["significance", "--dataset", "fairness-adult-sex", "--baseline", "SVM,LR",
      "--candidate", "Feldman-SVM,Feldman-LR", "--permutations", "500", "--json"]),
    ("depth --dataset dmop", ["depth", "--dataset", "dmop", "--json"]),
    ("gap --dataset breast-cancer-val-test", ["gap", "--dataset", "breast-cancer-val-test",
                                               "--json"]),
)
VARIANTS = {"ours": None, "peer": "foreground"}


def _env(numba_dir: Path, variant: str, **extra) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(numba_dir), **extra}
    env.pop("COPA_JIT_MODE", None)
    if VARIANTS[variant]:
        env["COPA_JIT_MODE"] = VARIANTS[variant]
    return env


def _wait_for_detached_compile(numba_dir: Path, timeout: float = 900) -> None:
    """Let the detached compile a first CLI run started finish before the next figure."""
    sys.path.insert(0, str(ROOT))
    from copa_dash.cli import kernel_compile

    old = os.environ.get("NUMBA_CACHE_DIR")
    os.environ["NUMBA_CACHE_DIR"] = str(numba_dir)
    try:
        lock = kernel_compile._lock_path()
    finally:
        if old is None:
            os.environ.pop("NUMBA_CACHE_DIR")
        else:
            os.environ["NUMBA_CACHE_DIR"] = old
    end = time.monotonic() + timeout
    while lock.exists() and time.monotonic() < end:
        time.sleep(0.5)


def run_cli(argv, numba_dir: Path, variant: str) -> tuple[float, float, str]:
    """(wall s, CPU s, stdout) of one ``copa-dash`` call as the shell runs it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "copa_dash.cli", *argv], cwd=ROOT,
                         env=_env(numba_dir, variant), capture_output=True, text=True, check=False,
                         timeout=900)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"{argv} failed: {out.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    _wait_for_detached_compile(numba_dir)
    return wall, cpu, out.stdout


FIGURE_DRAWN = """
const done = arguments[arguments.length - 1];
(function wait() {
  // the scatter's plot div holds the data once Plotly drew it (SVG or WebGL)
  const gd = document.querySelector('#explore-front .js-plotly-plot');
  const drawn = gd && gd._fullLayout && (gd.data || []).some(t => t.x && t.x.length > 100);
  const card = document.getElementById('explore-pick');
  if (drawn && card && card.innerText.trim()) { done(card.innerText); return; }
  setTimeout(wait, 50);
}());
"""


def run_app(numba_dir: Path, variant: str, driver) -> dict:
    """Start ``python app.py``; times to the first answer of ``/`` and, with a browser, to
    the explorer's scatter drawn for the Open LLM leaderboard."""
    state = Path(tempfile.mkdtemp(prefix="copa-cold-"))
    result = {}
    app = RunningApp(free_port(), state=state, ready_path="/",
                     environ=_env(numba_dir, variant))
    try:
        result["page"] = (app.ready_seconds, app.cpu_seconds())
        if driver is not None:
            driver.set_script_timeout(900)
            driver.get(f"{app.url}/explore?dataset={DATASET}")
            card = driver.execute_async_script(FIGURE_DRAWN)
            result["figure"] = (time.perf_counter() - app.started, app.cpu_seconds())
            result["card"] = card.split("\n")[0]
    finally:
        app.stop()
        shutil.rmtree(state, ignore_errors=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    driver = None if args.no_browser else headless_chromium()
    scratch = Path(tempfile.mkdtemp(prefix="copa-numba-bench-"))
    warm_dir = scratch / "warm"
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "copa_dash.cli", "compile"], cwd=ROOT, check=True,
                   env=_env(warm_dir, "peer"), capture_output=True)
    compile_all = time.perf_counter() - start
    loads = [os.getloadavg()[0]]
    rows: dict = {}
    answers: dict = {}
    try:
        for repeat in range(args.repeats):
            order = list(VARIANTS) if repeat % 2 == 0 else list(VARIANTS)[::-1]
            for variant in order:
                for kind in ("cold", "warm"):
                    numba_dir = scratch / f"cold-{repeat}-{variant}-app" if kind == "cold" else warm_dir
                    app = run_app(numba_dir, variant, driver)
                    rows.setdefault(("python app.py: first page (/)", kind, variant), []).append(app["page"])
                    if "figure" in app:
                        rows.setdefault(("python app.py: Explore scatter drawn", kind, variant),
                                        []).append(app["figure"])
                        answers.setdefault(("app", kind, variant), app["card"])
                    loads.append(os.getloadavg()[0])
                    for label, argv in CLI_CASES:
                        numba_dir = (scratch / f"cold-{repeat}-{variant}-{argv[0]}"
                                     if kind == "cold" else warm_dir)
                        wall, cpu, out = run_cli(argv, numba_dir, variant)
                        rows.setdefault((label, kind, variant), []).append((wall, cpu))
                        answers.setdefault((label, kind, variant), out)
                        loads.append(os.getloadavg()[0])
    finally:
        if driver is not None:
            driver.quit()
        shutil.rmtree(scratch, ignore_errors=True)
    _report(rows, answers, compile_all, loads, args.repeats)


TIMING_KEYS = frozenset({"seconds"})   # how long an answer took is not the answer


def _comparable(answer):
    """An answer with its timing fields left out and floats rounded to 12 significant
    digits (twins and kernels may sum in another order: the last digits differ)."""
    if isinstance(answer, str):
        try:
            answer = json.loads(answer)
        except ValueError:
            return answer
    if isinstance(answer, dict):
        return {k: _comparable(v) for k, v in answer.items() if k not in TIMING_KEYS}
    if isinstance(answer, list):
        return [_comparable(v) for v in answer]
    if isinstance(answer, float):
        return float(f"{answer:.12g}")
    return answer


def _same(answers, key, kind):
    """Whether ours and the peer gave the same answer (None when there is no answer)."""
    if (key, kind, "ours") not in answers or (key, kind, "peer") not in answers:
        return None
    return _comparable(answers[(key, kind, "ours")]) == _comparable(answers[(key, kind, "peer")])


def _report(rows, answers, compile_all, loads, repeats) -> None:
    print(f"## Cold start (numba cache empty) and warm start, {repeats} repeat(s), "
          f"{os.cpu_count()} CPUs; load average during the run {min(loads):.1f}-{max(loads):.1f}\n")
    print("| what | cache | ours wall / CPU (s) | peer (foreground) wall / CPU (s) | "
          "peer / ours (wall) | same answer |")
    print("|---|---|---:|---:|---:|:---:|")
    labels = dict.fromkeys(label for label, _, _ in rows)
    for label in labels:
        for kind in ("cold", "warm"):
            ours = rows.get((label, kind, "ours"))
            peer = rows.get((label, kind, "peer"))
            if not ours or not peer:
                continue
            key = "app" if label.startswith("python app.py: Explore") else label
            same = _same(answers, key, kind)
            ow, oc = (statistics.median(v) for v in zip(*ours))
            pw, pc = (statistics.median(v) for v in zip(*peer))
            ratio = f"{pw / ow:.1f}x" if same in (True, None) else "-"
            print(f"| {label} | {kind} | {ow:.1f} / {oc:.1f} | {pw:.1f} / {pc:.1f} | {ratio} | "
                  f"{'' if same is None else 'yes' if same else 'NO'} |")
    print(f"\n`copa-dash compile` (every kernel, empty cache): {compile_all:.0f} s wall.")
    mismatched = [k for k in answers if k[2] == "ours" and _same(answers, k[0], k[1]) is False]
    if mismatched:
        print("ANSWERS DIFFER: " + json.dumps([list(k[:2]) for k in mismatched]))


if __name__ == "__main__":
    main()
