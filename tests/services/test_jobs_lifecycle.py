"""The jobs' lifecycle rules (services/jobs_lifecycle.py), once for both managers: limits with
a plain message, joining, abandonment; and the Redis registry under concurrent replicas
(a real redis-server: eight threads asking at once never pass the limits)."""

from __future__ import annotations

import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from copa_dash.config import Settings
from copa_dash.services.jobs_lifecycle import (
    DiskcacheRegistry,
    JobLifecycle,
    RedisRegistry,
    abandoned,
    refusal,
)


class FakeJobs:
    """Jobs that run until killed or marked done."""

    def __init__(self):
        self.alive, self.killed, self.count = set(), [], 0
        self._lock = threading.Lock()

    def launch(self):
        with self._lock:
            self.count += 1
            job = f"job-{self.count}"
            self.alive.add(job)
        return job

    def running(self, job) -> bool:
        return job in self.alive

    def kill(self, job) -> None:
        self.alive.discard(job)
        self.killed.append(job)


@pytest.fixture
def settings(tmp_path):
    return Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache", max_jobs=3,
                    max_jobs_per_client=2, job_abandon_seconds=0.5)


@pytest.fixture
def local(tmp_path, settings):
    from copa_dash.services.cache import open_diskcache

    jobs = FakeJobs()
    registry = DiskcacheRegistry(open_diskcache(tmp_path / "jobs"), "registry")
    return JobLifecycle(registry, jobs, settings), jobs


def test_the_refusals_say_why_in_plain_words(settings):
    one = {"j1": {"client": "addr:a"}}
    assert refusal({}, "addr:a", settings) is None
    assert refusal(one, "addr:a", settings) is None
    two = {**one, "j2": {"client": "addr:a"}}
    assert refusal(two, "addr:a", settings) == (
        "you already run 2 background jobs, the most one person may run at once; wait for "
        "one to finish")
    three = {**two, "j3": {"client": "addr:b"}}
    assert refusal(three, "addr:c", settings, where="the job queue") == (
        "the job queue already runs 3 background jobs, the most it runs at once; try again "
        "in a minute")


def test_abandoned_means_not_polled_for_the_stated_time(settings):
    assert not abandoned({"polled": 100.0}, 100.5, settings)
    assert abandoned({"polled": 100.0}, 100.51, settings)


def test_join_refuse_start_and_sweep(local):
    lifecycle, jobs = local
    first = lifecycle.admit("k1", "addr:a", jobs.launch)
    assert first.job == "job-1" and not first.joined
    again = lifecycle.admit("k1", "addr:b", jobs.launch)
    assert again.job == "job-1" and again.joined and jobs.count == 1
    assert lifecycle.admit("k2", "addr:a", jobs.launch).job == "job-2"
    refused = lifecycle.admit("k3", "addr:a", jobs.launch)
    assert refused.job is None and "you already run 2" in refused.refused and jobs.count == 2
    jobs.alive.discard("job-1")                                    # it ended
    assert lifecycle.admit("k3", "addr:a", jobs.launch).job == "job-3"
    time.sleep(0.3)
    lifecycle.touch("job-3")                                       # followed
    time.sleep(0.3)
    assert lifecycle.sweep() == ["job-2"] and jobs.killed == ["job-2"]
    assert set(lifecycle.registry.load()) == {"job-3"}


@pytest.fixture(scope="module")
def redis_client(tmp_path_factory):
    if not shutil.which("redis-server"):
        pytest.skip("redis-server is not installed (make test installs it)")
    pytest.importorskip("redis")
    from tests.scaleout.cluster import RedisServer

    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server.client()
    finally:
        server.stop()


def test_replicas_asking_at_once_never_pass_the_limits(redis_client, settings):
    redis_client.flushdb()
    jobs = FakeJobs()
    # eight replicas, each its own registry object on the one Redis
    lifecycles = [JobLifecycle(RedisRegistry(redis_client), jobs, settings,
                               where="the job queue") for _ in range(8)]
    clients = ["addr:a", "addr:a", "addr:a", "addr:b", "addr:b", "addr:c", "addr:d", "addr:e"]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda i: lifecycles[i].admit(f"key-{i}", clients[i],
                                                               jobs.launch), range(8)))
    started = [a for a in answers if a.job is not None]
    assert len(started) == 3 == jobs.count                       # max_jobs
    registry = lifecycles[0].registry.load()
    assert len(registry) == 3
    per_client = [e["client"] for e in registry.values()]
    assert all(per_client.count(c) <= 2 for c in per_client)     # max_jobs_per_client
    assert all(a.refused for a in answers if a.job is None)


def test_the_same_job_asked_for_by_two_replicas_at_once_starts_once(redis_client, settings):
    redis_client.flushdb()
    jobs = FakeJobs()
    lifecycles = [JobLifecycle(RedisRegistry(redis_client), jobs, settings) for _ in range(4)]
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda lc: lc.admit("same", f"addr:{id(lc)}", jobs.launch),
                                lifecycles))
    assert jobs.count == 1 and {a.job for a in answers} == {"job-1"}
    assert sum(a.joined for a in answers) == 3


def test_a_damaged_registry_in_redis_starts_empty(redis_client, settings):
    from copa_dash.services.jobs_lifecycle import REDIS_REGISTRY_KEY

    redis_client.set(REDIS_REGISTRY_KEY, b"\xff not json")
    lifecycle = JobLifecycle(RedisRegistry(redis_client), FakeJobs(), settings)
    assert lifecycle.registry.load() == {}
    assert lifecycle.admit("k", "addr:a", lambda: "x").job == "x"


def test_a_job_started_within_the_grace_counts_whatever_its_state_says(tmp_path, settings):
    """A Celery task's state can lag its start: within ``grace_seconds`` it still counts."""
    from copa_dash.services.cache import open_diskcache

    jobs = FakeJobs()
    registry = DiskcacheRegistry(open_diskcache(tmp_path / "grace"), "registry")
    lifecycle = JobLifecycle(registry, jobs, settings, grace_seconds=0.5)
    lifecycle.admit("k1", "addr:a", jobs.launch)
    lifecycle.admit("k2", "addr:a", jobs.launch)
    jobs.alive.clear()                       # both look ended (a lagging state)
    assert "you already run 2" in lifecycle.admit("k3", "addr:a", jobs.launch).refused
    time.sleep(0.6)                          # past the grace: they ended
    assert lifecycle.admit("k3", "addr:a", jobs.launch).job == "job-3"
