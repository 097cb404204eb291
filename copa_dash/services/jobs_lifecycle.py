"""The lifecycle of background jobs, written once for both ways they run.

A job runs in a child process of the web worker (:class:`copa_dash.ui.job_lifecycle.
LifecycleManager`, registry in the instance's jobs diskcache) or on a Celery worker
(:class:`copa_dash.ui.background.FailoverManager`, registry in Redis, shared by every replica
on that Redis). Both follow the same rules, here:

- **limits**: a new job is refused when its client already runs
  ``settings.max_jobs_per_client`` jobs or ``settings.max_jobs`` run in all (on the instance,
  or in the Celery queue of every replica), with a plain message (:func:`refusal`);
- **joining**: a job asked for while the same job (Dash's cache key: the same callback with
  the same arguments) is running is not started again; the asker follows the running one;
- **abandonment**: a job no page polled for ``settings.job_abandon_seconds`` is killed
  (:func:`abandoned`); finished jobs leave the registry.

:class:`JobLifecycle` applies them over two small adapters: a *registry* (``transaction()``,
a context manager giving the registry as a dict that is saved when it ends; only one
transaction runs at a time, across processes) and *jobs* (``running(job)``, ``kill(job)``).
This module has no dash: the adapters for diskcache and for Redis + Celery are here too.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from dataclasses import dataclass

logger = logging.getLogger(__name__)

#: The Redis key of the registry of Celery jobs, and of its lock.
REDIS_REGISTRY_KEY = "copa:job-registry"
REDIS_LOCK_KEY = "copa:job-registry:lock"
#: States of a Celery task that is queued or running.
CELERY_RUNNING = ("PENDING", "RECEIVED", "STARTED", "RETRY", "PROGRESS")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def refusal(running: dict, client: str, settings, *, where: str = "this instance") -> str | None:
    """Why a new job of ``client`` may not start, or None when it may.

    Parameters
    ----------
    running : dict
        ``job -> entry`` of the running jobs (each entry has a ``"client"``).
    client : str
        The asker's :attr:`copa_dash.client_identity.Client.key`.
    settings : copa_dash.config.Settings
        ``max_jobs_per_client`` and ``max_jobs``.
    where : str
        What runs the jobs, for the message ("this instance", "the job queue").
    """
    mine = sum(1 for entry in running.values() if entry.get("client") == client)
    if mine >= settings.max_jobs_per_client:
        return (f"you already run {_plural(mine, 'background job')}, the most one person may "
                f"run at once; wait for {'one' if mine > 1 else 'it'} to finish")
    if len(running) >= settings.max_jobs:
        return (f"{where} already runs {_plural(len(running), 'background job')}, the most "
                "it runs at once; try again in a minute")
    return None


def abandoned(entry: dict, now: float, settings) -> bool:
    """True when no page polled the job of ``entry`` for ``settings.job_abandon_seconds``."""
    return now - float(entry.get("polled", now)) > settings.job_abandon_seconds


@dataclass(frozen=True)
class Admission:
    """What became of a request for a job: ``job`` started or joined, or ``refused`` (why)."""

    job: object = None
    joined: bool = False
    refused: str | None = None


class JobLifecycle:
    """Limits, joining and abandonment over a registry and a way to run jobs (see module).

    Parameters
    ----------
    registry
        Has ``transaction()``: a context manager yielding the registry (``job -> entry``)
        as a dict, saved when the block ends; transactions exclude each other.
    jobs
        Has ``running(job) -> bool`` and ``kill(job)``.
    settings : copa_dash.config.Settings
        ``max_jobs``, ``max_jobs_per_client``, ``job_abandon_seconds``.
    where : str
        What runs the jobs, as the refusal says it.
    grace_seconds : float
        A job started this recently counts as running whatever ``jobs.running`` says (a
        Celery task's state and heartbeat may lag its start).
    """

    def __init__(self, registry, jobs, settings, *, where: str = "this instance",
                 grace_seconds: float = 0.0):
        self.registry, self.jobs, self.settings, self.where = registry, jobs, settings, where
        self.grace_seconds = grace_seconds

    def _prune(self, registry: dict) -> None:
        """Drop the jobs that ended (those started under ``grace_seconds`` ago are kept:
        a queued job whose worker has not told yet that it runs still counts)."""
        now = time.time()
        for job in [job for job, entry in registry.items()
                    if now - float(entry.get("started", 0)) >= self.grace_seconds
                    and not self.jobs.running(job)]:
            logger.debug("background job %s ended; it leaves the registry", job)
            del registry[job]

    def admit(self, key, client: str, launch) -> Admission:
        """Join the running job of ``key``, refuse past the limits, or ``launch()`` one.

        ``launch()`` returns the new job's id; it runs inside the transaction, so two
        replicas asked at once cannot both pass the limits or both start ``key``.
        """
        now = time.time()
        with self.registry.transaction() as registry:
            self._prune(registry)
            for job, entry in registry.items():
                if entry.get("key") == key:   # the same job runs: follow it
                    registry[job] = {**entry, "polled": now}
                    logger.info("a page joined the running background job %s", job)
                    return Admission(job=job, joined=True)
            why = refusal(registry, client, self.settings, where=self.where)
            if why is not None:
                logger.info("refused a background job of %s: %s", client, why)
                return Admission(refused=why)
            job = launch()
            registry[job] = {"client": client, "key": key, "started": now, "polled": now}
        return Admission(job=job)

    def touch(self, job) -> None:
        """A page polled ``job``: it is followed."""
        with self.registry.transaction() as registry:
            if job in registry:
                registry[job] = {**registry[job], "polled": time.time()}

    def forget(self, job) -> None:
        """``job`` ended or was cancelled: it leaves the registry."""
        with self.registry.transaction() as registry:
            registry.pop(job, None)

    def sweep(self) -> list:
        """Drop finished jobs and kill those nobody polled for ``job_abandon_seconds``;
        returns the killed ones."""
        now = time.time()
        with self.registry.transaction() as registry:
            self._prune(registry)
            gone = [job for job, entry in registry.items()
                    if abandoned(entry, now, self.settings)]
            for job in gone:
                del registry[job]
        for job in gone:
            logger.warning("background job %s was not followed for %.0f s: cancelled", job,
                           self.settings.job_abandon_seconds)
            self.jobs.kill(job)
        return gone


class DiskcacheRegistry:
    """The registry in a diskcache (one instance's workers), keys as the jobs are (pids)."""

    def __init__(self, cache, key: str):
        self.cache, self.key = cache, key

    def load(self) -> dict:
        value = self.cache.get(self.key)
        return dict(value) if isinstance(value, dict) else {}

    @contextlib.contextmanager
    def transaction(self):
        with self.cache.transact():
            registry = self.load()
            before = dict(registry)
            yield registry
            if registry != before:
                self.cache.set(self.key, registry)


class RedisRegistry:
    """The registry of Celery jobs in Redis (a JSON object under :data:`REDIS_REGISTRY_KEY`),
    shared by every replica on that Redis; a transaction holds a Redis lock (released
    by itself after ``lock_seconds`` if its holder died)."""

    def __init__(self, client, *, lock_seconds: float = 30.0, wait_seconds: float = 10.0):
        self.client, self.lock_seconds, self.wait_seconds = client, lock_seconds, wait_seconds

    def load(self) -> dict:
        raw = self.client.get(REDIS_REGISTRY_KEY)
        try:
            value = json.loads(raw) if raw else {}
        except ValueError:   # a damaged registry starts empty
            logger.warning("the job registry in Redis was not JSON; starting it again")
            value = {}
        return value if isinstance(value, dict) else {}

    @contextlib.contextmanager
    def transaction(self):
        lock = self.client.lock(REDIS_LOCK_KEY, timeout=self.lock_seconds,
                                blocking_timeout=self.wait_seconds)
        if not lock.acquire():
            raise TimeoutError("the job registry in Redis stayed locked")
        try:
            registry = self.load()
            before = dict(registry)
            yield registry
            if registry != before:
                self.client.set(REDIS_REGISTRY_KEY, json.dumps(registry))
        finally:
            with contextlib.suppress(Exception):   # expired meanwhile: nothing to release
                lock.release()


class CeleryJobs:
    """Celery tasks as jobs: running while queued or started (and its heartbeat is fresh,
    :func:`copa_dash.services.job_health.job_lost`); killed by revoking with SIGKILL, so
    that the worker's pool process running it ends at once (a numba loop does not see a
    SIGTERM) and the pool starts a fresh one."""

    def __init__(self, celery_app, client):
        self.app, self.client = celery_app, client

    def state(self, job) -> str:
        return self.app.AsyncResult(str(job)).state

    def running(self, job) -> bool:
        from . import job_health

        state = self.state(job)
        return state in CELERY_RUNNING and not job_health.job_lost(self.client, job, state)

    def kill(self, job) -> None:
        self.app.control.revoke(str(job), terminate=True, signal="SIGKILL")


__all__ = [
    "Admission",
    "CeleryJobs",
    "DiskcacheRegistry",
    "JobLifecycle",
    "RedisRegistry",
    "abandoned",
    "refusal",
]
