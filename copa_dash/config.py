"""Settings of one copa-dash instance, read once from the environment.

Every variable is optional; the defaults run a single-user instance with the bundled
datasets, a local data directory and a local diskcache.

=========================  ============================================  =====================
variable                   meaning                                       default
=========================  ============================================  =====================
COPA_DATA_DIR              where uploaded datasets are stored            ``./.copa_data``
COPA_DATA_URL              the store on any fsspec URL (``s3://b/copa``)  COPA_DATA_DIR
COPA_ADMIN_TOKEN           may delete/rename/share every upload          unset (owners only)
COPA_MAX_UPLOAD_MEMORY_MB  memory one upload may take once expanded      512
COPA_TRUSTED_ORIGINS       other origins allowed to POST (comma list)    unset (own origin)
COPA_ALLOWED_HOSTS         names the Host header may carry (comma list;  unset: loopback
                           ``*.domain``, ``*``; copa_dash/host_check.py)  names, any behind
                                                                         a login
COPA_CACHE_DIR             diskcache directory (analysis + callbacks)    ``./.copa_cache``
COPA_CACHE_SIZE_MB         bound of the analysis cache                   1024
COPA_MEMORY_CACHE_MB       in-process caches of each worker, in all      512
                           (recent tables, problems, masks; shares in
                           ``services/*.py``, see docs/architecture.md)
COPA_MAX_UPLOAD_MB         largest accepted upload                       50
COPA_MAX_ROWS              most rows an upload may have                  1000000
COPA_MAX_COLUMNS           most columns an upload may have               500
COPA_STAGED_QUOTA_MB       staged uploads (read, roles not yet saved)    1024
                           kept in all; the oldest go first
COPA_STAGED_CLIENT_MB      the same for one client (user or address)     200
COPA_TRUSTED_PROXY         address(es) of the proxy in front (comma      unset (none)
                           list): only requests from there may say who
                           the user is and where the client is
                           (X-Forwarded-For); copa_dash/client_identity.py
COPA_TRUSTED_USER_HEADER   the proxy's header naming the signed-in user  unset (owner tokens)
                           (oauth2-proxy: X-Forwarded-User); uploads
                           then belong to the user
COPA_TRUSTED_GROUPS_HEADER the proxy's header listing the user's groups  unset
                           (comma list; oauth2-proxy: X-Forwarded-Groups)
COPA_MAX_JOBS              background jobs running at once (instance)    8
COPA_MAX_JOBS_PER_CLIENT   the same for one client (user or address)     2
COPA_JOB_ABANDON_SECONDS   a job no page polled for this long is killed  60
                           (copa_dash/ui/job_lifecycle.py)
COPA_AUTH_USER             with COPA_AUTH_PASSWORD: HTTP basic auth      unset (no auth)
COPA_AUTH_PASSWORD         the shared password                           unset
COPA_REDIS_URL             Redis for the cache and Celery jobs           unset (diskcache)
COPA_SECRET_KEY            signs background-job handles; instances that  unset (kept in the
                           share a Redis must share it                   job store)
COPA_HOST / COPA_PORT      where ``python app.py`` listens               127.0.0.1 / 8050
COPA_WORKERS               gunicorn workers (read by gunicorn.conf.py)   2
COPA_THREADS               threads of each gunicorn worker (idem)        32
COPA_BODY_SECONDS          a request body must arrive within this many   60
                           seconds plus its size at COPA_MIN_UPLOAD_KBPS
                           (else 408; copa_dash/slow_bodies.py)
COPA_MIN_UPLOAD_KBPS       slowest upload rate accepted beyond that      50
COPA_DEBUG                 Dash debug mode for ``python app.py``         0
COPA_JIT_MODE              first use of an uncompiled numba kernel:      background
                           ``background`` (numpy answers, the kernel
                           compiles in a thread) or ``foreground``
                           (compile before answering); see core/jit.py
COPA_READ_SOURCES          upload page: read an Optuna study, an MLflow  0 (``copa-dash
                           experiment or an lm-eval folder by its URL    serve`` on loopback
                           or path ON THE SERVER (its files, its         turns it on)
                           network): only for your own machine
COPA_HV_BUDGET_SECONDS     Systems page: a system's HV is exact when     0.5
                           the measured cost model predicts at most
                           this many seconds, else a Monte-Carlo
                           estimate with its 95% interval (said on
                           the page)
COPA_DEPTH_EXACT_BUDGET    Posets page and CLI: the default ufg depth    2097152
                           is exact when it examines at most this many
                           sets of posets (an upper bound known before
                           it starts), else approximate (said there)
=========================  ============================================  =====================
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from .core.errors import InvalidInputError

# a dashboard only this machine reaches: `copa-dash serve` there may read sources
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _env_number(env, name: str, read, what: str):
    """The variable ``name`` read by ``read`` (int or float); None when unset or empty."""
    raw = env.get(name)
    if raw is None or raw == "":
        return None
    try:
        return read(raw)
    except ValueError:
        raise InvalidInputError(f"environment variable {name} must be {what}, not {raw!r}") from None


def _int_env(env, name: str, default: int) -> int:
    value = _env_number(env, name, int, "an integer")
    if value is None:
        return default
    if value <= 0:
        raise InvalidInputError(f"environment variable {name} must be positive, not {value}")
    return value


@dataclass(frozen=True)
class Settings:
    """Frozen configuration of one instance (see the module docstring for the variables)."""

    data_dir: Path = Path(".copa_data")
    cache_dir: Path = Path(".copa_cache")
    cache_size_bytes: int = 1024 * 2**20
    memory_cache_bytes: int = 512 * 2**20
    max_upload_bytes: int = 50 * 2**20
    max_rows: int = 1_000_000
    max_columns: int = 500
    max_upload_memory_bytes: int = 512 * 2**20
    data_url: str | None = None
    admin_token: str | None = None
    trusted_origins: tuple[str, ...] = ()
    #: host names the ``Host`` header may carry (empty: loopback, or any behind a login)
    allowed_hosts: tuple[str, ...] = ()
    auth_user: str | None = None
    auth_password: str | None = None
    redis_url: str | None = None
    secret_key: str | None = field(default=None, repr=False)
    host: str = "127.0.0.1"
    port: int = 8050
    workers: int = 2
    debug: bool = False
    # an app built in code (tests) compiles as numba does; from_env defaults to background
    jit_mode: str = "foreground"
    hv_budget_seconds: float = 0.5
    depth_exact_budget: int = 2 ** 21
    read_sources: bool = False  # the upload page's tracker form (COPA_READ_SOURCES)
    #: bytes of staged uploads kept in all, and for one client (oldest evicted first)
    staged_quota_bytes: int = 1024 * 2**20
    staged_client_quota_bytes: int = 200 * 2**20
    #: background jobs running at once on the instance, and for one client
    max_jobs: int = 8
    max_jobs_per_client: int = 2
    #: a background job that no page polled for this many seconds is killed
    job_abandon_seconds: float = 60.0
    #: addresses of the proxy in front whose forwarded headers are believed
    trusted_proxy: tuple[str, ...] = ()
    #: the proxy's header naming the signed-in user, and the one listing their groups
    trusted_user_header: str | None = None
    trusted_groups_header: str | None = None
    #: every request body gets this many seconds, plus its size at ``min_upload_kbps``
    body_seconds: float = 60.0
    #: slowest average upload rate (kilobytes per second) beyond ``body_seconds``
    min_upload_kbps: int = 50

    def __post_init__(self):
        # accept plain strings for the directories (tests, scripts)
        object.__setattr__(self, "data_dir", Path(self.data_dir))
        object.__setattr__(self, "cache_dir", Path(self.cache_dir))
        object.__setattr__(self, "trusted_origins", tuple(self.trusted_origins))
        object.__setattr__(self, "allowed_hosts", tuple(self.allowed_hosts))
        object.__setattr__(self, "trusted_proxy", tuple(self.trusted_proxy))
        if self.trusted_user_header and not self.trusted_proxy:
            raise InvalidInputError(
                "COPA_TRUSTED_USER_HEADER needs COPA_TRUSTED_PROXY: the address of the "
                "authenticating proxy, the only sender whose user header is believed")

    @property
    def store_url(self) -> str:
        """Where the dataset store lives: ``data_url``, else the local ``data_dir``."""
        return self.data_url or str(self.data_dir)

    @property
    def auth_enabled(self) -> bool:
        """True when the instance asks for the shared user name and password."""
        return bool(self.auth_user and self.auth_password)

    @classmethod
    def from_env(cls, env=None) -> Settings:
        """Read the settings from ``env`` (default: ``os.environ``)."""
        env = os.environ if env is None else env
        return cls(
            data_dir=Path(env.get("COPA_DATA_DIR") or ".copa_data"),
            cache_dir=Path(env.get("COPA_CACHE_DIR") or ".copa_cache"),
            cache_size_bytes=_int_env(env, "COPA_CACHE_SIZE_MB", 1024) * 2**20,
            memory_cache_bytes=_int_env(env, "COPA_MEMORY_CACHE_MB", 512) * 2**20,
            max_upload_bytes=_int_env(env, "COPA_MAX_UPLOAD_MB", 50) * 2**20,
            max_rows=_int_env(env, "COPA_MAX_ROWS", 1_000_000),
            max_columns=_int_env(env, "COPA_MAX_COLUMNS", 500),
            max_upload_memory_bytes=_int_env(env, "COPA_MAX_UPLOAD_MEMORY_MB", 512) * 2**20,
            data_url=env.get("COPA_DATA_URL") or None,
            admin_token=env.get("COPA_ADMIN_TOKEN") or None,
            trusted_origins=tuple(o.strip().rstrip("/") for o in
                                  (env.get("COPA_TRUSTED_ORIGINS") or "").split(",")
                                  if o.strip()),
            allowed_hosts=_list_env(env, "COPA_ALLOWED_HOSTS"),
            auth_user=env.get("COPA_AUTH_USER") or None,
            auth_password=env.get("COPA_AUTH_PASSWORD") or None,
            redis_url=env.get("COPA_REDIS_URL") or None,
            secret_key=env.get("COPA_SECRET_KEY") or None,
            host=env.get("COPA_HOST") or "127.0.0.1",
            port=_int_env(env, "COPA_PORT", 8050),
            workers=_int_env(env, "COPA_WORKERS", 2),
            debug=(env.get("COPA_DEBUG") or "0").lower() in ("1", "true", "yes"),
            jit_mode=_jit_mode(env),
            hv_budget_seconds=_seconds_env(env, "COPA_HV_BUDGET_SECONDS", 0.5),
            depth_exact_budget=_int_env(env, "COPA_DEPTH_EXACT_BUDGET", 2 ** 21),
            read_sources=(env.get("COPA_READ_SOURCES") or "0").lower() in ("1", "true", "yes"),
            staged_quota_bytes=_int_env(env, "COPA_STAGED_QUOTA_MB", 1024) * 2**20,
            staged_client_quota_bytes=_int_env(env, "COPA_STAGED_CLIENT_MB", 200) * 2**20,
            trusted_proxy=_list_env(env, "COPA_TRUSTED_PROXY"),
            max_jobs=_int_env(env, "COPA_MAX_JOBS", 8),
            max_jobs_per_client=_int_env(env, "COPA_MAX_JOBS_PER_CLIENT", 2),
            job_abandon_seconds=_seconds_env(env, "COPA_JOB_ABANDON_SECONDS", 60.0),
            trusted_user_header=env.get("COPA_TRUSTED_USER_HEADER") or None,
            trusted_groups_header=env.get("COPA_TRUSTED_GROUPS_HEADER") or None,
            body_seconds=_seconds_env(env, "COPA_BODY_SECONDS", 60.0),
            min_upload_kbps=_int_env(env, "COPA_MIN_UPLOAD_KBPS", 50),
        )


def _list_env(env, name: str) -> tuple[str, ...]:
    return tuple(part.strip().lower() for part in (env.get(name) or "").split(",")
                 if part.strip())


def _seconds_env(env, name: str, default: float) -> float:
    value = _env_number(env, name, float, "a number of seconds")
    if value is None:
        return default
    if not (math.isfinite(value) and value >= 0):
        raise InvalidInputError(f"environment variable {name} must be finite and >= 0, "
                                f"not {env[name]!r}")
    return value


def _jit_mode(env) -> str:
    raw = (env.get("COPA_JIT_MODE") or "background").strip().lower()
    if raw not in ("background", "foreground"):
        raise InvalidInputError(
            f"environment variable COPA_JIT_MODE must be background or foreground, not {raw!r}")
    return raw
