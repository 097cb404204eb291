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
import importlib
import pickle
from pathlib import Path

# cli/__init__ imports this module inside main(), so numba here does not reach --help
from ..core import jit

# the detached hand-over lives below the CLI (services/kernel_handover.py): the notebook
# starts it too, and nothing imports the command line
from ..services.kernel_handover import (  # noqa: F401 (the command and its tests use them here)
    STALE_LOCK_SECONDS,
    _lock_path,
    compile_pending_later,
)


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
