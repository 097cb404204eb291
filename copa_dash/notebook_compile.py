"""A notebook's first calls answer through the numpy twins; the kernels compile elsewhere.

On an empty numba cache, compiling the kernels of a first ``select`` and a 3-D
``hypervolume`` takes ~25 s of CPU. The notebook API therefore runs in the command line's
``"deferred"`` mode (:mod:`copa_dash.core.jit`): a kernel that is not in the disk cache is
answered by its numpy twin (same picks and rankings, values equal within the selection's tie
tolerance, see tests/core/test_twins.py), and after each call the signatures the twins stood
in for are compiled by a detached ``copa-dash compile --pending`` process
(:func:`copa_dash.services.kernel_handover.compile_pending_later`), on another core and without
the notebook's interpreter lock. Once that process has written them to the cache, the next
call of the kernel loads the compiled code (milliseconds). A background thread in the
kernel's own process (the app's "background" mode) was not used: its compile would hold the
interpreter lock and count in the notebook's CPU (benchmarks/bench_notebook_first_call.py).

``COPA_JIT_MODE`` (foreground, background, deferred) overrides the choice, as for the CLI.
"""

from __future__ import annotations

import functools
import os

from .core import jit

_HANDED_OVER: set = set()


def choose_mode() -> None:
    """Set this process's compile mode for the notebook API: ``$COPA_JIT_MODE`` or deferred."""
    jit.configure(mode=os.environ.get("COPA_JIT_MODE") or "deferred")


def compile_later(function):
    """Decorate a notebook function: after it returns (or raises), hand the kernels its twins
    stood in for to a detached compile process, once each."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        finally:
            hand_over_pending()

    return call


def hand_over_pending() -> bool:
    """Start the detached compile of the pending signatures not handed over yet; True when a
    process was started (False: nothing pending, or another one is compiling: retried after
    the next call)."""
    waiting = [entry for entry in jit.pending() if entry not in _HANDED_OVER]
    if not waiting:
        return False
    # here, not at the top: the hand-over is only needed once a twin has answered
    from .services.kernel_handover import compile_pending_later

    started = compile_pending_later(waiting, say_busy=False)
    if started:
        _HANDED_OVER.update(waiting)
    return started
