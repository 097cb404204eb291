"""The detached compile after a first run that numpy twins answered (CLI and notebook).

:func:`compile_pending_later` starts ``copa-dash compile --pending FILE`` detached from the
terminal: it compiles exactly the kernels and signatures the twins stood in for, so the next
run finds them in numba's cache. One such process at a time per cache directory (a lock
file; a lock older than :data:`STALE_LOCK_SECONDS` is taken over). It lives below the CLI so
the notebook API (``copa_dash/notebook_compile.py``) can start it without importing the
command line.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..core import jit

STALE_LOCK_SECONDS = 900


def _lock_path() -> Path:
    where = os.environ.get("NUMBA_CACHE_DIR") or str(Path(__file__).resolve().parents[1])
    digest = hashlib.sha256(os.path.abspath(where).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"copa-dash-compile-{digest}.lock"


def _take_lock() -> bool:
    path = _lock_path()
    try:
        if time.time() - path.stat().st_mtime > STALE_LOCK_SECONDS:
            path.unlink(missing_ok=True)
    except FileNotFoundError:
        pass
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def compile_pending_later(pending=None, *, say_busy: bool = True) -> bool:
    """Start the detached compile of what the twins stood in for (``pending``, default
    :func:`copa_dash.core.jit.pending`); True when started. ``say_busy=False``: no line
    on stderr when another process holds the compile lock (the caller tries again later)."""
    pending = jit.pending() if pending is None else list(pending)
    if not pending:
        return False
    names = ", ".join(sorted({qualname for _, qualname, _ in pending}))
    start = _take_lock()
    if not start and not say_busy:
        return False
    print(f"copa-dash: first run: answered with numpy while {names} are not compiled; "
          + ("compiling them in the background now (later runs are faster)" if start else
             "another copa-dash process is compiling kernels in the background"),
          file=sys.stderr, flush=True)
    if not start:
        return False
    with tempfile.NamedTemporaryFile("wb", suffix=".pickle", prefix="copa-dash-pending-",
                                     delete=False) as handle:
        pickle.dump(pending, handle)
    subprocess.Popen(
        [sys.executable, "-m", "copa_dash.cli", "compile", "--pending", handle.name],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True, env={**os.environ, "COPA_JIT_MODE": "foreground"})
    return True
