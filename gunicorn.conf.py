"""gunicorn settings of copa-dash: ``gunicorn app:server`` reads this file from the cwd.

Environment: ``COPA_HOST`` (default 0.0.0.0) and ``COPA_PORT``, or ``PORT`` as set by
container platforms (default 8050); ``COPA_WORKERS`` (default 2); ``COPA_LOG_LEVEL``
(default info). Each worker builds its own app after the fork (no preload), so numba,
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


_host = os.environ.get("COPA_HOST") or "0.0.0.0"
_port = _positive_int("COPA_PORT", _positive_int("PORT", 8050))

bind = [f"[{_host}]:{_port}" if ":" in _host else f"{_host}:{_port}"]
workers = _positive_int("COPA_WORKERS", 2)
# Analyses of large uploads and first numba compiles can take a while; sync workers.
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
