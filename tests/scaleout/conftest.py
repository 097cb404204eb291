"""One real scaled-out copa-dash per test session: redis-server, a Celery worker and two
gunicorn instances (one dataset store, separate local caches), all on loopback.

They start once (session scope: the suite pays the start-up once) and are always stopped.
Without ``redis-server`` the tests skip, except on CI (``CI`` set), where that is a failure:
``make test`` installs it.
"""

from __future__ import annotations

import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from .cluster import AppInstance, CeleryWorker, RedisServer, cluster_env

SECRET = "scale-out-tests"


def pytest_collection_modifyitems(config, items):
    """The test that kills the session's Celery worker runs after the other scale-out tests,
    so that none of them waits for a new worker to start (and no other test runs between)."""
    killers = [item for item in items if item.get_closest_marker("kills_worker")]
    if not killers:
        return
    rest = [item for item in items if item not in killers]
    last = max((i for i, item in enumerate(rest) if item.get_closest_marker("scaleout")),
               default=len(rest) - 1)
    items[:] = rest[:last + 1] + killers + rest[last + 1:]


def _require(executable: str, why: str) -> None:
    if shutil.which(executable):
        return
    message = f"{executable} is not installed ({why}; make test installs it)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    """A redis-server with compose's options on a free port, its files in a temp dir."""
    _require("redis-server", "the scale-out tests run a real Redis")
    pytest.importorskip("celery")
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Cluster:
    redis: RedisServer
    worker: CeleryWorker
    a: AppInstance
    b: AppInstance
    secret: str = SECRET

    def restart_worker(self) -> None:
        self.worker.stop()
        self.worker.start()


@pytest.fixture(scope="session")
def cluster(redis_server, tmp_path_factory):
    """Two gunicorn instances and one Celery worker on ``redis_server`` (compose's commands)."""
    base = tmp_path_factory.mktemp("cluster")
    data = base / "data"

    def env(name):
        return cluster_env(redis_server, data_dir=data, cache_dir=base / f"cache-{name}",
                           secret=SECRET)

    a = AppInstance(env("a"), base / "a.log", workers=1)
    b = AppInstance(env("b"), base / "b.log", workers=1)
    worker = CeleryWorker(redis_server, env("worker"), base / "worker.log")
    started = []
    try:
        for instance in (a, b):
            started.append(instance.start())
        started.append(worker)
        with ThreadPoolExecutor(3) as pool:
            for future in [pool.submit(worker.start), pool.submit(a.wait_ready),
                           pool.submit(b.wait_ready)]:
                future.result()
        yield Cluster(redis_server, worker, a, b)
    finally:
        with ThreadPoolExecutor(3) as pool:     # in parallel: the teardown costs the slowest
            list(pool.map(lambda process: process.stop(), started))
