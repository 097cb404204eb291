"""Bounded loopback load: 50 users move the explorer's alpha slider for 60 s.

What a user does is taken from the real page: headless Chromium opens the Explore page of
the bundled Open LLM Leaderboard v2 (2,921 models x 7 objectives), a fetch hook records the
``_dash-update-component`` requests one alpha move sends, and every simulated user replays
that move with a random alpha (0.05 .. 0.95) in the recorded bodies, one request after the
other as the renderer sends them, then thinks 0.5-1.5 s and moves again. A request is an
error when it fails, is not HTTP 200, carries no ``response`` or shows the page's error
alert. Every user waits for its answers, so the load is bounded by the users, never by a
request rate.

Two deployments, started from compose.yaml's commands by tests/scaleout/cluster.py:

``single``
    one ``gunicorn app:server`` with 2 workers, local diskcache (issue 17's target:
    0 errors, p95 under 500 ms).
``cluster``
    redis-server, 2 gunicorn instances (2 workers each, one dataset store, separate local
    caches; users alternate between them) and 1 Celery worker; meanwhile a permutation test
    (Systems page, fairness-adult-sex, 20,000 permutations, a new seed each time) is
    submitted every ``--job-every`` seconds over HTTP and followed to its result, as the page
    does.

Usage::

    python benchmarks/bench_load.py                     # both deployments, 50 users, 60 s
    python benchmarks/bench_load.py --mode single --users 50 --seconds 60

Prints per-request and per-move p50/p95/p99 (ms), errors, jobs submitted and completed,
requests per second, the servers' CPU seconds and the machine's load average. Needs
redis-server, chromium and chromium-driver (``make test`` installs them).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psutil
import requests

from benchmarks._harness import percentile
from tests.scaleout.cluster import (
    AppInstance,
    CeleryWorker,
    DashClient,
    RedisServer,
    cluster_env,
)

DATASET = "open-llm-leaderboard-v2"
ALPHA = "explore-alpha"
ERROR_ALERT = "global-error"

# Installed in the page after it settled: records the body and URL of every callback request.
RECORD_REQUESTS = """
window.__copaRequests = [];
if (!window.__copaFetch) {
  window.__copaFetch = window.fetch;
  window.fetch = function(url, options) {
    if (String(url).includes('_dash-update-component') && options && options.body) {
      window.__copaRequests.push({url: String(url), body: options.body});
    }
    return window.__copaFetch.apply(this, arguments);
  };
}
"""


def record_alpha_move(base_url: str) -> list[dict]:
    """The callback requests one alpha move on the Explore page sends (URL path and body)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000"):
        options.add_argument(argument)
    if os.path.exists("/usr/bin/chromium"):
        options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(options=options)
    try:
        driver.get(f"{base_url}/explore?dataset={DATASET}")
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if driver.find_elements(By.CSS_SELECTOR, f"#{ALPHA} [role=slider]") and \
                    not driver.find_elements(By.CSS_SELECTOR, '[data-dash-is-loading="true"]'):
                break
            time.sleep(0.5)
        else:
            raise SystemExit("the Explore page did not settle within 3 minutes")
        time.sleep(2)
        slider = driver.find_elements(By.CSS_SELECTOR, f"#{ALPHA} [role=slider]")[0]
        moves = []
        for _ in range(3):                # the last of three moves (the first warm the page)
            driver.execute_script(RECORD_REQUESTS)
            slider.send_keys(Keys.ARROW_LEFT)
            time.sleep(3)
            moves.append(driver.execute_script("return window.__copaRequests;"))
    finally:
        driver.quit()
    move = moves[-1]
    if not any(_touches_alpha(json.loads(r["body"])) for r in move):
        raise SystemExit("no recorded request carries the alpha slider's value")
    return [{"path": "/" + r["url"].split("/", 3)[-1] if r["url"].startswith("http")
             else r["url"], "body": json.loads(r["body"])} for r in move]


def _items(body: dict):
    """Every ``{"id", "property", "value"}`` of a body's inputs and state (nested lists of
    pattern-matching callbacks included)."""
    stack = list(body.get("inputs", [])) + list(body.get("state", []))
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            yield item


def _touches_alpha(body: dict) -> bool:
    return any(item.get("id") == ALPHA for item in _items(body))


def with_alpha(body: dict, alpha: float) -> dict:
    """The recorded body with the slider at ``alpha``."""
    body = copy.deepcopy(body)
    for item in _items(body):
        if item.get("id") == ALPHA and item.get("property") == "value":
            item["value"] = alpha
    return body


@dataclass
class Tally:
    request_ms: list = field(default_factory=list)
    move_ms: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    jobs_submitted: int = 0
    jobs_completed: int = 0
    job_errors: list = field(default_factory=list)
    job_seconds: list = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def user(base_url: str, move: list[dict], tally: Tally, stop: threading.Event, seed: int):
    """One user: replay the move with a random alpha, think, again, until ``stop``."""
    rng = random.Random(seed)
    session = requests.Session()
    session.headers.update({"Origin": base_url, "Referer": f"{base_url}/explore"})
    time.sleep(rng.uniform(0, 1.0))                     # users do not start in lock step
    while not stop.is_set():
        alpha = round(rng.uniform(0.05, 0.95), 2)
        move_start = time.perf_counter()
        times, failed = [], None
        for request in move:
            start = time.perf_counter()
            try:
                response = session.post(base_url + request["path"],
                                        json=with_alpha(request["body"], alpha), timeout=30)
                if response.status_code != 200:
                    failed = f"HTTP {response.status_code}"
                elif "response" not in response.json():
                    failed = "no response in the answer"
                elif ERROR_ALERT in response.text:
                    failed = "the page's error alert"
            except (requests.RequestException, ValueError) as exc:
                failed = type(exc).__name__
            times.append((time.perf_counter() - start) * 1000)
            if failed:
                break
        with tally.lock:
            tally.request_ms.extend(times)
            if failed:
                tally.errors.append(failed)
            else:
                tally.move_ms.append((time.perf_counter() - move_start) * 1000)
        stop.wait(rng.uniform(0.5, 1.5))


def job_submitter(urls: list[str], every: float, tally: Tally, stop: threading.Event):
    """Submit a permutation test every ``every`` seconds (alternating instances) and follow
    each to its result in its own thread."""
    followers = []
    seed = 0
    next_at = time.monotonic() + 2
    while not stop.is_set():
        if time.monotonic() >= next_at:
            seed += 1
            thread = threading.Thread(target=run_job, args=(urls[seed % len(urls)], seed, tally),
                                      daemon=True)
            thread.start()
            followers.append(thread)
            next_at += every
        stop.wait(0.2)
    for thread in followers:
        thread.join(timeout=120)


def run_job(url: str, seed: int, tally: Tally) -> None:
    client = DashClient(url)
    start = time.perf_counter()
    try:
        client.open_page("/systems?dataset=fairness-adult-sex")
        values = {"systems-run.n_clicks": 1, "systems-ref.data": "fairness-adult-sex",
                  "systems-objectives.value": ["accuracy", "di_distance"],
                  "systems-baseline.value": ["SVM"], "systems-candidate.value": ["Feldman-SVM"],
                  "systems-permutations.value": 20_000, "systems-seed.value": seed,
                  "systems-ref-rule.value": "range"}
        payload = client.payload("systems-result.children", values,
                                 triggered="systems-run.n_clicks")
        with tally.lock:
            tally.jobs_submitted += 1
        answer = client.poll(payload, client.submit(payload), timeout=120)
        if "p = " not in json.dumps(answer.get("response", {})):
            raise RuntimeError(f"no p-value in the answer: {str(answer)[:200]}")
        with tally.lock:
            tally.jobs_completed += 1
            tally.job_seconds.append(time.perf_counter() - start)
    except Exception as exc:  # noqa: BLE001 - every failure is counted and printed
        with tally.lock:
            tally.job_errors.append(f"{type(exc).__name__}: {exc}"[:200])


def cpu_seconds(processes) -> float:
    total = 0.0
    for process in processes:
        try:
            parent = psutil.Process(process.popen.pid)
            for p in [parent, *parent.children(recursive=True)]:
                times = p.cpu_times()
                total += times.user + times.system
        except psutil.NoSuchProcess:
            continue
    return total


def run(mode: str, users: int, seconds: float, job_every: float) -> dict:
    base = Path(tempfile.mkdtemp(prefix=f"copa-load-{mode}-"))
    redis = worker = None
    instances = []
    processes = []
    try:
        if mode == "cluster":
            redis = RedisServer(base / "redis").start()
            processes.append(redis.process)

        def env(name):
            return cluster_env(redis, data_dir=base / "data", cache_dir=base / f"cache-{name}")

        count = 2 if mode == "cluster" else 1
        instances = [AppInstance(env(f"app{i}"), base / f"app{i}.log", workers=2).start()
                     for i in range(count)]
        if mode == "cluster":
            worker = CeleryWorker(redis, env("worker"), base / "worker.log").start()
        for instance in instances:
            instance.wait_ready()
        processes += [i.process for i in instances] + ([worker.process] if worker else [])
        urls = [i.url for i in instances]
        move = record_alpha_move(urls[0])
        for url in urls:                                 # warm every worker of every instance
            warm = Tally()
            stop = threading.Event()
            threads = [threading.Thread(target=user, args=(url, move, warm, stop, s))
                       for s in range(4)]
            for t in threads:
                t.start()
            time.sleep(8)
            stop.set()
            for t in threads:
                t.join()
        tally = Tally()
        stop = threading.Event()
        load_before = os.getloadavg()
        cpu_before = cpu_seconds(processes)
        threads = [threading.Thread(target=user, args=(urls[i % len(urls)], move, tally, stop,
                                                       1000 + i)) for i in range(users)]
        if mode == "cluster" and job_every > 0:
            threads.append(threading.Thread(target=job_submitter,
                                            args=(urls, job_every, tally, stop)))
        started = time.perf_counter()
        for t in threads:
            t.start()
        time.sleep(seconds)
        stop.set()
        for t in threads:
            t.join(timeout=180)
        elapsed = time.perf_counter() - started
        return {"mode": mode, "users": users, "seconds": seconds, "elapsed": elapsed,
                "requests_per_move": len(move), "tally": tally,
                "cpu_s": cpu_seconds(processes) - cpu_before,
                "load_before": load_before, "load_after": os.getloadavg()}
    finally:
        for process in ([worker] if worker else []) + instances + ([redis] if redis else []):
            process.stop()
        shutil.rmtree(base, ignore_errors=True)


def report(result: dict) -> None:
    tally = result["tally"]
    requests_done = len(tally.request_ms)
    print(f"\n### {result['mode']}: {result['users']} users, {result['seconds']:.0f} s "
          f"({result['requests_per_move']} callback request(s) per alpha move)\n")
    print("| measure | n | p50 ms | p95 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, values in (("request", tally.request_ms), ("alpha move", tally.move_ms)):
        if values:
            print(f"| {name} | {len(values):,} | {statistics.median(values):.0f} | "
                  f"{percentile(values, 95):.0f} | {percentile(values, 99):.0f} | "
                  f"{max(values):.0f} |")
    print(f"\nrequests/s {requests_done / result['elapsed']:.1f}; errors {len(tally.errors)}"
          + (f" ({', '.join(sorted(set(tally.errors)))})" if tally.errors else ""))
    if result["mode"] == "cluster":
        print(f"permutation tests: {tally.jobs_submitted} submitted, {tally.jobs_completed} "
              f"completed, {len(tally.job_errors)} failed"
              + (f"; median {statistics.median(tally.job_seconds):.1f} s from submit to result"
                 if tally.job_seconds else ""))
        for error in sorted(set(tally.job_errors))[:5]:
            print(f"  job error: {error}")
    print(f"server CPU {result['cpu_s']:.0f} s in {result['elapsed']:.0f} s on "
          f"{psutil.cpu_count()} cores; load average before "
          f"{', '.join(f'{x:.1f}' for x in result['load_before'])}, after "
          f"{', '.join(f'{x:.1f}' for x in result['load_after'])}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("single", "cluster", "both"), default="both")
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--job-every", type=float, default=5.0,
                        help="seconds between permutation tests in the cluster run (0: none)")
    args = parser.parse_args(argv)
    if not 1 <= args.users <= 200 or not 1 <= args.seconds <= 600:
        print("--users must be 1..200 and --seconds 1..600 (a bounded load)", file=sys.stderr)
        return 2
    modes = ("single", "cluster") if args.mode == "both" else (args.mode,)
    print(f"# bench_load: {DATASET}, alpha moves replayed from the real page; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    for mode in modes:
        report(run(mode, args.users, args.seconds, args.job_every))
    return 0


if __name__ == "__main__":
    sys.exit(main())
