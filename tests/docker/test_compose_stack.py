"""The team image run for real: compose.yaml's stack built and started here (issue 32, item 7).

The images are built from Debian packages and the package index (tests/docker/stack.py),
the stack runs on free loopback ports with its own volumes, and is torn down at the end:

- an upload through one app replica is analysed through the other (one dataset store, one
  Redis, the Celery worker runs the job), and the p-value is the one this process computes;
- 20 users load the proxy for 30 s; one replica is killed after 10 s and no user sees an
  error (nginx's ``proxy_next_upstream`` sends the failed request to the other replica).

Opt-in: ``pytest -m docker tests/docker`` (``make docker-test``); it skips with the reason
when no Docker engine or compose is available. The phases' times are printed (``-s``) and
written to ``$COPA_DOCKER_TIMES`` when that is set (docs/hosting.md has the figures).
"""

from __future__ import annotations

import json
import os
import random
import re
import threading
import time
from dataclasses import dataclass, field

import pytest

from copa_dash.data.schema import EvalTable
from tests.scaleout.cluster import DashClient, is_celery_job
from tests.scaleout.test_two_instances import (
    SIDES,
    expected_p,
    fairness_table,
    indicators_payload,
    run_test,
    upload_copy_of_fairness,
)

from .stack import Engine, Stack, run

pytestmark = pytest.mark.docker

USERS, SECONDS, KILL_AFTER = 20, 30.0, 10.0
TIMES: dict[str, float] = {}


def _report(name: str, value: float) -> None:
    TIMES[name] = round(value, 1)
    print(f"[docker stack] {name}: {value:.1f}")
    if os.environ.get("COPA_DOCKER_TIMES"):
        with open(os.environ["COPA_DOCKER_TIMES"], "w", encoding="utf-8") as handle:
            json.dump(TIMES, handle, indent=1)


@pytest.fixture(scope="module")
def stack():
    engine = Engine.find()
    if isinstance(engine, str):
        if os.environ.get("CI") and os.environ.get("COPA_DOCKER_REQUIRED"):
            pytest.fail(engine)
        pytest.skip(engine)
    cold = time.monotonic()
    for image, seconds in engine.build_images().items():
        _report(f"build {image} s", seconds)
    running = Stack(engine, project=f"copatest{os.getpid()}")
    try:
        start = time.monotonic()
        running.up()
        running.wait_healthy([running.url, *running.replica_urls().values()])
        _report("stack up to every /healthz 200 s", time.monotonic() - start)
        _report("cold start (build + up) s", time.monotonic() - cold)
        yield running
    finally:
        start = time.monotonic()
        running.down()
        _report("teardown s", time.monotonic() - start)


def test_the_stack_runs_two_replicas_a_worker_redis_and_the_proxy(stack):
    assert len(stack.containers("app")) == 2
    for service in ("proxy", "worker", "redis"):
        assert len(stack.containers(service)) == 1, service
    # the app and the worker run as the image's non-root user
    for container in (*stack.containers("app"), *stack.containers("worker")):
        uid = run([stack.engine.docker, "exec", container, "id", "-u"], timeout=60)
        assert uid.stdout.strip() == "10001"


def test_an_upload_through_one_replica_is_analysed_through_the_other(stack):
    first, second = stack.replica_urls().values()
    start = time.monotonic()
    dataset_id = upload_copy_of_fairness(first)
    b = DashClient(second)
    b.open_page(f"/systems?dataset={dataset_id}")
    handles, answer, _ = run_test(b, dataset_id, 2_000, timeout=300)
    _report("upload on one replica + 2,000-permutation job from the other s",
            time.monotonic() - start)
    assert is_celery_job(handles)          # the worker container ran it
    table = fairness_table()
    two = EvalTable(table.frame[table.frame["algorithm"].isin(
        SIDES["baseline"] + SIDES["candidate"])].reset_index(drop=True), table.roles)
    assert expected_p(two, 2_000) in json.dumps(answer["response"])


@dataclass
class Load:
    """What the simulated users saw."""

    ok: int = 0
    after_kill: int = 0
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _user(url: str, ref: str, deadline: float, killed: threading.Event, load: Load,
          seed: int) -> None:
    """Opens the Systems page through the proxy, then asks for its indicator table and for
    the dataset's record, thinking 1-2 s between requests (20 users stay under the proxy's
    20 requests a second per address: they all come from this machine)."""
    rng = random.Random(seed)
    try:
        client = DashClient(url)
        client.open_page(f"/systems?dataset={ref}")
        payload = indicators_payload(client, ref)
    except Exception as error:  # noqa: BLE001 - every failure a user would see counts
        with load.lock:
            load.errors.append(f"open: {error!r}")
        return
    while time.monotonic() < deadline:
        start = time.monotonic()
        try:
            if rng.random() < 0.8:
                response = client.post(payload)
                good = response.status_code == 200 and "response" in response.json()
            else:
                response = client.session.get(f"{url}/api/datasets/{ref}", timeout=60)
                good = response.status_code == 200 and response.json().get("id") == ref
            problem = None if good else f"{response.status_code}: {response.text[:200]}"
        except Exception as error:  # noqa: BLE001
            problem = repr(error)
        with load.lock:
            if problem:
                load.errors.append(problem)
            else:
                load.ok += 1
                load.after_kill += killed.is_set()
                load.latencies.append(time.monotonic() - start)
        time.sleep(rng.uniform(1.0, 2.0))


def test_a_replica_killed_under_load_costs_no_user_an_error(stack):
    replicas = stack.replica_urls()
    dataset_id = upload_copy_of_fairness(stack.url)   # through the proxy, as users do
    load, killed = Load(), threading.Event()
    deadline = time.monotonic() + SECONDS
    users = [threading.Thread(target=_user, args=(stack.url, dataset_id, deadline, killed,
                                                  load, seed)) for seed in range(USERS)]
    for user in users:
        user.start()
    time.sleep(KILL_AFTER)
    victim = next(iter(replicas))
    stack.kill(victim)
    killed.set()
    for user in users:
        user.join(timeout=SECONDS + 120)
    proxy_log = stack.logs("proxy", tail="all")
    latencies = sorted(load.latencies)
    p95 = latencies[int(0.95 * (len(latencies) - 1))] if latencies else float("nan")
    _report("load: answers", load.ok)
    _report("load: answers after the kill", load.after_kill)
    _report("load: errors", len(load.errors))
    _report("load: p95 ms", 1000 * p95)
    _report("load: max ms", 1000 * latencies[-1] if latencies else float("nan"))
    assert not load.errors, load.errors[:10]
    assert load.ok >= USERS * 5 and load.after_kill >= USERS * 5
    # the kill was not missed: nginx met the dead replica (a refused, reset or timed-out
    # connection) and passed the request on
    assert re.search(r"\[(error|warn)\] .*upstream", proxy_log), proxy_log[-3000:]
