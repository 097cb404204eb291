"""gunicorn settings of copa-dash: ``gunicorn app:server`` reads this file from the cwd.

Environment: ``COPA_HOST`` and ``COPA_PORT``, or ``PORT`` as set by container platforms
(default 8050); ``COPA_WORKERS`` (default 2); ``COPA_THREADS`` (threads of each worker,
default 32); ``COPA_LOG_LEVEL`` (default info).

Where it listens: ``COPA_HOST`` when set; else 0.0.0.0 when a login guards the instance
(``COPA_AUTH_USER`` + ``COPA_AUTH_PASSWORD``, or ``COPA_TRUSTED_USER_HEADER`` behind an
authenticating proxy), else 127.0.0.1: an instance without a login is not put on the
network by accident (the image sets ``COPA_HOST=0.0.0.0`` for its proxy).

Slow clients: ``gthread`` workers wait for a request's headers in one poller, without a
thread, and give each request a thread of a pool of ``COPA_THREADS``; a body that trickles
holds one thread until its deadline (copa_dash/slow_bodies.py, ``COPA_BODY_SECONDS``),
never a whole worker, so 20 clients sending a byte every 2 s leave /healthz and the pages
answering (tests/hosting/test_slow_clients.py). A proxy in front (deploy/nginx.conf)
buffers bodies before they reach gunicorn at all. Each worker builds its own app after the fork (no preload), so numba,
diskcache and Redis handles are never shared across processes; datasets and cached
results are shared through ``COPA_DATA_DIR`` and ``COPA_CACHE_DIR`` (or Redis).
"""

import os


def _positive_int(name: str, default: int) -> int:
    raw = os.environ.get(name) or ""
    if not raw:
        return default
    value = int(raw)  # a typo stops gunicorn at start-up, with the variable in the trace
    if value <= 0:
        raise ValueError(f"{name} must be a positive integer, not {raw!r}")
    return value


def _login_configured() -> bool:
    env = os.environ
    return bool((env.get("COPA_AUTH_USER") and env.get("COPA_AUTH_PASSWORD"))
                or env.get("COPA_TRUSTED_USER_HEADER"))


_host = os.environ.get("COPA_HOST") or ("0.0.0.0" if _login_configured() else "127.0.0.1")
_port = _positive_int("COPA_PORT", _positive_int("PORT", 8050))

bind = [f"[{_host}]:{_port}" if ":" in _host else f"{_host}:{_port}"]
workers = _positive_int("COPA_WORKERS", 2)
# Threads, not processes, per slow client: a trickling body ties one thread (until its
# deadline), and numba and numpy release the GIL in the heavy loops.
worker_class = "gthread"
threads = _positive_int("COPA_THREADS", 32)
# connections a worker keeps open (waiting for headers or idle keep-alive) beyond its threads
worker_connections = 1000
keepalive = 5
# Analyses of large uploads and first numba compiles can take a while (the worker's
# heartbeat comes from its main thread, so this bounds a stuck worker, not a request).
timeout = 120
graceful_timeout = 30
preload_app = False
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("COPA_LOG_LEVEL") or "info"
# Heartbeat files on a RAM disk where there is one (a container's /tmp may be overlayfs).
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"
# No runtime control socket (gunicorn >= 25): one less management surface, and several
# instances on one host (tests, blue/green) do not fight over ~/.gunicorn/gunicorn.ctl.
control_socket_disable = True
