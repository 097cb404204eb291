"""Liveness of Celery workers and of the jobs they run, kept in Redis by heartbeats.

Celery alone cannot tell a running job from a lost one: when a worker dies mid-job (killed,
out of memory, its host gone) the job's state stays ``STARTED`` for ever and a page that
follows it would spin for ever. Two heartbeats close that gap:

worker heartbeat
    Every worker process (its main process, from the ``worker_ready`` signal) writes its
    name and the time into the sorted set ``copa:workers`` every
    :data:`HEARTBEAT_SECONDS`. :func:`live_workers` counts the names seen within
    :data:`STALE_SECONDS`; the web process sends a job to Celery only when it is at least one.
job heartbeat
    While a task runs (``task_prerun`` .. ``task_postrun``, in the pool process that runs it)
    the key ``copa:job-alive:<task id>`` is renewed every :data:`HEARTBEAT_SECONDS` with a
    time-to-live of :data:`STALE_SECONDS`. A task Celery reports as ``STARTED`` whose key has
    expired was lost: :func:`job_lost` says so.

Celery's own remote-control ``inspect().active()`` answers the same questions, but by a
broadcast that waits for every worker's reply (a second or more per poll); a key read is
one round trip, which the page's poll every half second can afford.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time

logger = logging.getLogger(__name__)

#: How often both heartbeats are renewed (seconds).
HEARTBEAT_SECONDS = 1.0
#: A heartbeat older than this means its worker or job is gone (seconds).
STALE_SECONDS = 5.0
WORKERS_KEY = "copa:workers"
_JOB_PREFIX = "copa:job-alive:"


def job_key(task_id: str) -> str:
    """The Redis key a running task renews."""
    return _JOB_PREFIX + str(task_id)


def live_workers(client, *, now: float | None = None) -> int:
    """How many workers sent a heartbeat within :data:`STALE_SECONDS`.

    Raises
    ------
    redis.RedisError
        When Redis cannot be reached (the caller then runs the job in-process).
    """
    now = time.time() if now is None else now
    return int(client.zcount(WORKERS_KEY, now - STALE_SECONDS, "+inf"))


def job_lost(client, task_id: str, state: str) -> bool:
    """True when the task had started and its heartbeat has expired.

    A task still queued (``PENDING``) is not lost: a worker will take it. Finished tasks
    (``SUCCESS``, ``FAILURE``, ``REVOKED``) have their result or their reason already.
    """
    return state == "STARTED" and not client.exists(job_key(task_id))


class _Beat:
    """A daemon thread calling ``beat()`` every :data:`HEARTBEAT_SECONDS` until stopped."""

    def __init__(self, beat, name: str):
        self._stop = threading.Event()
        self._beat = beat
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> _Beat:
        self._thread.start()
        return self

    def _run(self) -> None:
        while True:
            try:
                self._beat()
            except Exception:  # a missed beat must never kill the worker
                logger.warning("heartbeat %s failed", self._thread.name, exc_info=True)
            if self._stop.wait(HEARTBEAT_SECONDS):
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2 * HEARTBEAT_SECONDS)


def install_heartbeats(celery_app, client_factory) -> None:
    """Connect the worker and job heartbeats to ``celery_app``'s signals.

    Parameters
    ----------
    celery_app : celery.Celery
        Only its tasks and its workers beat.
    client_factory : callable
        Returns a redis-py client; called in each process that beats (after the fork).
    """
    from celery import signals  # the redis extra, not installed by default

    beats: dict[str, _Beat] = {}
    clients: list = []

    def client():
        if not clients:
            clients.append(client_factory())
        return clients[0]

    def on_worker_ready(sender=None, **_):
        if getattr(sender, "app", None) is not celery_app:
            return
        name = f"{getattr(sender, 'hostname', socket.gethostname())}"
        beats["worker"] = _Beat(lambda: client().zadd(WORKERS_KEY, {name: time.time()}),
                                f"copa-worker-beat-{name}").start()

    def on_worker_shutdown(sender=None, **_):
        beat = beats.pop("worker", None)
        if beat is not None:
            beat.stop()
            try:
                client().zrem(WORKERS_KEY, getattr(sender, "hostname", ""))
            except Exception:  # shutting down anyway; the beat goes stale
                logger.debug("could not remove the worker's heartbeat", exc_info=True)

    def on_prerun(task_id=None, task=None, **_):
        if getattr(task, "app", None) is not celery_app:
            return
        key = job_key(task_id)
        # the first beat before the task runs: Celery writes STARTED right after this
        # signal, and a job seen STARTED before its beat thread ran once looked lost
        try:
            client().set(key, b"1", ex=int(STALE_SECONDS))
        except Exception:  # the beat thread tries again
            logger.warning("first heartbeat of %s failed", task_id, exc_info=True)
        beats[key] = _Beat(lambda: client().set(key, b"1", ex=int(STALE_SECONDS)),
                           f"copa-job-beat-{task_id}").start()

    def on_postrun(task_id=None, **_):
        key = job_key(task_id)
        beat = beats.pop(key, None)
        if beat is not None:
            beat.stop()
            try:
                client().delete(key)
            except Exception:  # the key expires by itself
                logger.debug("could not remove the heartbeat of %s", task_id, exc_info=True)

    signals.worker_ready.connect(on_worker_ready, weak=False)
    signals.worker_shutdown.connect(on_worker_shutdown, weak=False)
    signals.task_prerun.connect(on_prerun, weak=False)
    signals.task_postrun.connect(on_postrun, weak=False)


def worker_is_alive(client, name: str, *, now: float | None = None) -> bool:
    """True when the worker ``name`` (e.g. ``worker@host``) beat within :data:`STALE_SECONDS`."""
    now = time.time() if now is None else now
    score = client.zscore(WORKERS_KEY, name)
    return score is not None and float(score) >= now - STALE_SECONDS


def main(argv=None) -> int:
    """Container healthcheck of a worker: ``python -m copa_dash.services.job_health NAME``.

    Exit 0 when the worker ``NAME`` sent a heartbeat to ``COPA_REDIS_URL`` recently, else 1
    with one line on stderr.
    """
    import redis  # the redis extra (pip install "copa-dash[redis]"), not installed by default

    args = sys.argv[1:] if argv is None else argv
    url = os.environ.get("COPA_REDIS_URL")
    if len(args) != 1 or not url:
        print("usage: COPA_REDIS_URL=... python -m copa_dash.services.job_health WORKER_NAME",
              file=sys.stderr)
        return 2
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        alive = worker_is_alive(client, args[0])
    except redis.RedisError as exc:
        print(f"Redis unreachable: {exc}", file=sys.stderr)
        return 1
    if not alive:
        print(f"no recent heartbeat from {args[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
