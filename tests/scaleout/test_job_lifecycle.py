"""Celery jobs with the in-process jobs' lifecycle (services/jobs_lifecycle.py): at most N
running jobs per client and M in the queue of the replicas, with a plain message past them;
a job no page polls is revoked and the worker's process running it ends; asking for a job
that is running joins it.

An instance of its own on the session's Redis and worker, with small limits and a short
abandonment time, and a trusted user header so that one loopback test can be several people
(the scale-out session's instances keep the defaults their tests need).
"""

from __future__ import annotations

import time

import psutil
import pytest

from copa_dash.services.jobs_lifecycle import REDIS_REGISTRY_KEY

from .cluster import AppInstance, DashClient, cluster_env, is_celery_job, raw_job
from .test_two_instances import significance_payload, upload_many_runs

pytestmark = pytest.mark.scaleout

ABANDON_SECONDS = 3
USER_HEADER = "X-Forwarded-User"
# 1,000,000 permutations of 300 runs a side: about 20 s on an idle core, so every job here
# is still running when the test looks at it
PERMUTATIONS = 1_000_000


@pytest.fixture(scope="module")
def bounded(cluster, tmp_path_factory):
    """An instance with 1 job per person, 2 in the queue, jobs abandoned after 3 s."""
    base = tmp_path_factory.mktemp("bounded")
    env = cluster_env(cluster.redis, data_dir=cluster.a.env["COPA_DATA_DIR"],
                      cache_dir=base / "cache", secret=cluster.secret)
    env.update({"COPA_MAX_JOBS_PER_CLIENT": "1", "COPA_MAX_JOBS": "2",
                "COPA_JOB_ABANDON_SECONDS": str(ABANDON_SECONDS),
                "COPA_TRUSTED_PROXY": "127.0.0.1", "COPA_TRUSTED_USER_HEADER": USER_HEADER})
    instance = AppInstance(env, base / "bounded.log", workers=1).start()
    try:
        instance.wait_ready()
        cluster.worker.ensure_running()
        ref, _ = upload_many_runs(instance.url)
        yield instance, ref
    finally:
        instance.stop()


@pytest.fixture
def clean_queue(cluster, bounded):
    """No job of an earlier test left in the registry or on the worker, before and after.

    The registry is the replicas' shared one: the scale-out session's other instances (the
    two-instance and background-page tests) register their jobs in it too, and a job of theirs
    still running would count against this instance's limit of 2.
    """
    _forget_every_job(cluster)
    yield
    _forget_every_job(cluster)


def _forget_every_job(cluster):
    from celery import Celery

    app = Celery(broker=cluster.redis.url, backend=cluster.redis.url)
    for job in list(_registry(cluster)):
        app.control.revoke(job, terminate=True, signal="SIGKILL")
    cluster.redis.client().delete(REDIS_REGISTRY_KEY)


def _registry(cluster) -> dict:
    import json

    raw = cluster.redis.client().get(REDIS_REGISTRY_KEY)
    return json.loads(raw) if raw else {}


def person(instance, ref, name: str) -> DashClient:
    client = DashClient(instance.url)
    client.session.headers[USER_HEADER] = name
    client.open_page(f"/systems?dataset={ref}")
    return client


def submit(client: DashClient, ref: str, permutations: int = PERMUTATIONS):
    payload = significance_payload(client, ref, permutations)
    return payload, client.submit(payload)


def poll_once(client: DashClient, payload: dict, handles: dict):
    """One poll of a job, as the page sends it every half second."""
    blank = {**payload, "inputs": [{**i, "value": None} for i in payload["inputs"]],
             "state": [{**s, "value": None} for s in payload["state"]]}
    return client.post(blank, cacheKey=handles["cacheKey"], job=handles["job"])


def refusal_text(client: DashClient, payload: dict, handles: dict) -> str:
    """The message a refused job's first poll answers (Dash's callback error)."""
    return poll_once(client, payload, handles).text


def wait_until(condition, timeout: float, what: str):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


def test_jobs_past_the_limits_are_refused_with_a_plain_message(cluster, bounded, clean_queue):
    instance, ref = bounded
    alice, bob, carol = (person(instance, ref, name) for name in ("alice", "bob", "carol"))
    _, first = submit(alice, ref)
    assert is_celery_job(first), raw_job(first)
    payload, again = submit(alice, ref, PERMUTATIONS - 1)        # another job of the same person
    assert raw_job(again) == "0"
    assert "you already run 1 background job, the most one person may run" in \
        refusal_text(alice, payload, again)
    # each asks for a job of their own (the same arguments as a running job join it)
    _, second = submit(bob, ref, PERMUTATIONS - 2)
    assert is_celery_job(second) and raw_job(second) != raw_job(first)
    payload, third = submit(carol, ref, PERMUTATIONS - 3)
    assert raw_job(third) == "0", (raw_job(first), raw_job(second), _registry(cluster))
    assert "the job queue already runs 2 background jobs" in refusal_text(carol, payload, third)
    assert set(_registry(cluster)) == {raw_job(first), raw_job(second)}


def test_a_job_nobody_polls_is_revoked_and_its_process_ends(cluster, bounded, clean_queue):
    instance, ref = bounded
    dave = person(instance, ref, "dave")
    payload, handles = submit(dave, ref)
    job = raw_job(handles)
    assert is_celery_job(handles)
    from celery import Celery

    app = Celery(broker=cluster.redis.url, backend=cluster.redis.url)

    def started() -> bool:      # dave's page polls as it does, until the worker runs the job
        poll_once(dave, payload, handles)
        return app.AsyncResult(job).state == "STARTED"

    wait_until(started, 180, "the worker to start the job")
    runner = psutil.Process(app.AsyncResult(job).info["pid"])   # the pool process running it
    assert runner.ppid() == cluster.worker.process.popen.pid
    # then the tab is closed: abandoned after 3 s; the instance's sweeper looks every 5 s
    wait_until(lambda: app.AsyncResult(job).state == "REVOKED", 60, "the job revoked")
    wait_until(lambda: not runner.is_running() or runner.status() == psutil.STATUS_ZOMBIE, 30,
               "the pool process running the abandoned job to end")
    assert job not in _registry(cluster)


def test_a_job_asked_for_while_it_runs_is_joined(cluster, bounded, clean_queue):
    instance, ref = bounded
    erin, frank = person(instance, ref, "erin"), person(instance, ref, "frank")
    payload, first = submit(erin, ref, PERMUTATIONS - 4)
    assert is_celery_job(first)
    _, second = submit(frank, ref, PERMUTATIONS - 4)     # the same link opened by someone else
    assert raw_job(second) == raw_job(first)
    assert list(_registry(cluster)) == [raw_job(first)]
    # the joined job is erin's: frank may start one of his own, erin may not
    payload, refused = submit(erin, ref, PERMUTATIONS - 5)
    assert "you already run 1 background job" in refusal_text(erin, payload, refused)
    _, own = submit(frank, ref, PERMUTATIONS - 5)
    assert is_celery_job(own) and raw_job(own) != raw_job(first)
