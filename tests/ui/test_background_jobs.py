"""The background-callback manager: diskcache by default; on Redis, Celery while a worker beats,
in-process otherwise, and a lost job reported as lost."""

from __future__ import annotations

import tempfile
import time

import dash
import diskcache
import pytest

from copa_dash.config import Settings
from copa_dash.services import job_health
from copa_dash.services.jobs import JOB_LOST, celery_app_for
from copa_dash.services.jobs import redis_client as bounded_client
from copa_dash.ui.background import FailoverManager, background_callback_manager


def test_diskcache_manager_in_the_jobs_directory(tmp_path):
    manager = background_callback_manager(Settings(cache_dir=tmp_path / "cache"))
    assert isinstance(manager, dash.DiskcacheManager)
    assert manager.cache_by is None  # results are handed over once, not cached by inputs
    assert (tmp_path / "cache" / "jobs").is_dir()
    assert manager.handle.directory == str(tmp_path / "cache" / "jobs")


def test_celery_manager_on_redis_without_connecting(tmp_path):
    pytest.importorskip("celery")
    settings = Settings(redis_url="redis://127.0.0.1:1/0",  # nothing listens there
                        cache_dir=tmp_path / "cache")
    manager = background_callback_manager(settings)
    assert isinstance(manager, FailoverManager)
    assert isinstance(manager.remote, dash.CeleryManager)
    assert isinstance(manager.local, dash.DiskcacheManager)
    app = celery_app_for(settings)
    assert manager.remote.handle is app and celery_app_for(settings) is app
    assert app.conf.broker_url == "redis://127.0.0.1:1/0"
    assert app.conf.accept_content == ["json"]  # workers never unpickle messages
    assert app.conf.task_track_started  # a lost job is told from a queued one by STARTED


def test_celery_needs_a_redis_url():
    with pytest.raises(ValueError, match="COPA_REDIS_URL"):
        celery_app_for(Settings())


class FakeManager:
    """A Dash manager double that records what it was asked to run or stop."""

    UNDEFINED = FailoverManager.UNDEFINED

    def __init__(self, job, result=None, handle=None):
        self.job, self.result, self.handle = job, result, handle
        self.func_registry = {"bg-key": f"job-fn-of-{job}"}
        self.calls = []
        self.expire = 60

    def get_progress(self, key):
        self.calls.append(("progress", key))

    def call_job_fn(self, key, job_fn, args, context):
        self.calls.append(("call", key, job_fn))
        return self.job

    def get_result(self, key, job):
        self.calls.append(("result", key, job))
        if isinstance(self.result, list) and self.result and self.result[0] == "late":
            self.result = self.result[1:]          # written just after the first read
            return self.UNDEFINED
        return self.UNDEFINED if self.result is None else self.result

    def get_task(self, job):
        return type("Task", (), {"state": self.state})()

    def terminate_job(self, job):
        self.calls.append(("terminate", job))

    def job_running(self, job):
        return True


@pytest.fixture
def redis_client():
    fakeredis = pytest.importorskip("fakeredis")
    return fakeredis.FakeRedis()


def failover(redis_client, *, remote_result=None, state="STARTED"):
    remote = FakeManager("0f1e2d3c-0000-4000-8000-000000000000", remote_result)
    remote.state = state
    local = FakeManager(4242, handle=diskcache.Cache(tempfile.mkdtemp()))
    return FailoverManager(remote, local, redis_client), remote, local


def test_jobs_go_to_celery_only_while_a_worker_beats(redis_client):
    manager, remote, local = failover(redis_client)
    assert manager.call_job_fn("k1", "bg-key", [], {}) == 4242          # no worker yet
    assert local.calls == [("call", "k1", "job-fn-of-4242")] and not remote.calls
    redis_client.zadd(job_health.WORKERS_KEY, {"worker@h": time.time()})
    assert manager.call_job_fn("k2", "bg-key", [], {}) == remote.job
    assert remote.calls == [("call", "k2", f"job-fn-of-{remote.job}")]
    redis_client.zadd(job_health.WORKERS_KEY, {"worker@h": 0.0})     # its beat went stale
    assert manager.call_job_fn("k3", "bg-key", [], {}) == 4242


def test_jobs_run_in_process_when_redis_is_unreachable(tmp_path):
    pytest.importorskip("redis")
    manager, remote, _ = failover(bounded_client("redis://127.0.0.1:1/0"))
    assert manager.call_job_fn("k", "bg-key", [], {}) == 4242
    # a job Celery had, followed while Redis is away, is lost (not a spinner for ever)
    assert JOB_LOST in manager.get_result("k", remote.job)["background_callback_error"]["msg"]
    manager.terminate_job(remote.job)                # cancelling it does not raise


def test_a_started_job_without_a_heartbeat_is_lost(redis_client):
    manager, remote, _ = failover(redis_client, state="STARTED")
    redis_client.zadd(job_health.WORKERS_KEY, {"worker@h": time.time()})
    redis_client.set(job_health.job_key(remote.job), b"1", ex=5)
    assert manager.get_result("k", remote.job) is manager.UNDEFINED     # still beating
    redis_client.delete(job_health.job_key(remote.job))
    lost = manager.get_result("k", remote.job)
    assert lost["background_callback_error"]["msg"].startswith(JOB_LOST)
    assert "worker stopped" in lost["background_callback_error"]["msg"]


def test_a_queued_job_waits_while_a_worker_lives_and_is_lost_without_one(redis_client):
    manager, remote, _ = failover(redis_client, state="PENDING")
    redis_client.zadd(job_health.WORKERS_KEY, {"worker@h": time.time()})
    assert manager.get_result("k", remote.job) is manager.UNDEFINED
    redis_client.delete(job_health.WORKERS_KEY)
    assert "no background worker" in \
        manager.get_result("k", remote.job)["background_callback_error"]["msg"]


def test_results_and_stops_go_to_the_manager_that_owns_the_job(redis_client):
    manager, remote, local = failover(redis_client, remote_result=["done"])
    assert manager.get_result("k", "4242") is manager.UNDEFINED
    assert local.calls[-1] == ("result", "k", "4242")
    assert manager.get_result("k", remote.job) == ["done"]
    manager.terminate_job("4242")
    manager.terminate_job(remote.job)
    assert local.calls[-1] == ("terminate", "4242")
    assert remote.calls[-1] == ("terminate", remote.job)


def test_the_signing_secret_is_the_configured_one(redis_client):
    manager, _, _ = failover(redis_client)
    manager.secret = "shared by every instance"
    assert manager.get_or_create_signing_secret(lambda: b"random") == b"shared by every instance"


def test_worker_healthcheck_reads_the_heartbeat(redis_client, monkeypatch, capsys):
    assert not job_health.worker_is_alive(redis_client, "worker@h")
    redis_client.zadd(job_health.WORKERS_KEY, {"worker@h": time.time()})
    assert job_health.worker_is_alive(redis_client, "worker@h")
    assert job_health.live_workers(redis_client) == 1
    redis_client.zadd(job_health.WORKERS_KEY, {"worker@h": time.time() - 60})
    assert not job_health.worker_is_alive(redis_client, "worker@h")
    assert job_health.live_workers(redis_client) == 0
    monkeypatch.delenv("COPA_REDIS_URL", raising=False)
    assert job_health.main(["worker@h"]) == 2
    assert "usage" in capsys.readouterr().err


def test_a_result_written_between_two_reads_is_delivered(redis_client):
    # the job finishes after the result was read (absent) and before its state is read
    manager, remote, _ = failover(redis_client, remote_result=["late", "done"], state="SUCCESS")
    assert manager.get_result("k", remote.job) == ["done"]


def test_running_is_answered_from_the_state_read_with_the_result(redis_client):
    manager, remote, _ = failover(redis_client, state="STARTED")
    redis_client.set(job_health.job_key(remote.job), b"1", ex=5)
    assert manager.get_result("k", remote.job) is manager.UNDEFINED
    remote.job_running = lambda job: False      # it finished meanwhile
    assert manager.job_running(remote.job)      # ...but the poll saw it running: poll again
    assert not manager.job_running(remote.job)


def test_progress_of_an_in_process_job_never_waits_on_redis(redis_client):
    manager, remote, local = failover(redis_client)
    manager.call_job_fn("k-local", "bg-key", [], {})             # no worker: in-process
    assert manager.get_progress("k-local") is None
    assert ("progress", "k-local") in local.calls
    assert not [c for c in remote.calls if c[0] == "progress"]   # Redis not asked
    manager.get_progress("k-other")                              # unknown key: both asked
    assert ("progress", "k-other") in remote.calls


def test_a_stopped_redis_answers_at_once():
    redis = pytest.importorskip("redis")
    client = bounded_client("redis://127.0.0.1:1/0")
    started = time.monotonic()
    with pytest.raises(redis.ConnectionError):
        client.ping()
    assert time.monotonic() - started < 1.0       # redis-py's default retries take > 3 s
