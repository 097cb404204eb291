"""``copa-dash compile``: fill numba's cache now, and the detached compile after a first run.

``copa-dash compile`` compiles every kernel on tiny inputs (the app's warm-up list), for an
install step or an image build (the Dockerfile runs it). After a command that answered
through numpy twins, :func:`compile_pending_later` starts ``copa-dash compile --pending
FILE`` detached from the terminal: it compiles exactly the kernels and signatures the twins
stood in for, so the next run finds them in the cache. One such process at a time per
cache directory (a lock file; a lock older than :data:`STALE_LOCK_SECONDS` is taken over).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# cli/__init__ imports this module inside main(), so numba here does not reach --help
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


def _compile_pending(path: str) -> int:
    """Compile the (module, qualname, signature) triples pickled in ``path``."""
    try:
        with open(path, "rb") as handle:
            pending = pickle.load(handle)
        for module_name, qualname, sig in pending:
            kernel = getattr(importlib.import_module(module_name), qualname)
            kernel.compile(sig)
    finally:
        Path(path).unlink(missing_ok=True)
        _lock_path().unlink(missing_ok=True)
    return 0


def run_compile(args) -> int:
    """Compile every kernel now (or, with --pending, the listed ones)."""
    if args.pending:
        return _compile_pending(args.pending)
    # here, not at the top: this module is imported at the end of every command
    # (compile_pending_later); warmup loads every core module, ~0.2 s CPU after `select`
    from ..services.warmup import warm_up_kernels

    jit.configure(mode="foreground", progress=True)
    seconds = warm_up_kernels()
    print(f"compiled or loaded every kernel in {seconds:.1f} s")
    return 0


def register(subparsers) -> None:
    """Add ``compile`` to the CLI."""
    sub = subparsers.add_parser(
        "compile", help="compile every numba kernel into the cache now (at install or image build)")
    sub.add_argument("--pending", help=argparse.SUPPRESS)
    sub.set_defaults(run=run_compile)
