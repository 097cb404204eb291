"""How the compiled kernels are compiled and loaded: the one place that decides.

Every kernel module declares its kernels with ``@njit(...)`` imported from here instead of
from numba. The decorator returns a numba dispatcher (a subclass of numba's CPU dispatcher,
so other kernels call it as usual, and ``cache=True`` keeps the machine code in
``NUMBA_CACHE_DIR``). Nothing compiles at import. What happens on the first call of a
kernel with a new signature (numba's ``_compile_for_args``, reached only when no compiled
version matches) depends on the mode set by :func:`configure`:

``"foreground"`` (the default: library use, tests)
    Compile now, as numba does (a load from the disk cache when it is there).
``"background"`` (the app's server)
    When the kernel has a numpy twin (:mod:`copa_dash.core._twins`) and is not already in
    the disk cache, the twin answers this call and the kernel compiles in one background
    thread; later calls use the compiled kernel. Kernels without a twin compile now.
``"deferred"`` (the command line)
    As "background", but nothing compiles in this process: the signatures the twins
    stood in for are kept (:func:`pending`) so that the caller can compile them in another
    process after it has answered.

Why a dispatcher subclass rather than a wrapper: kernels call each other from compiled
code, which needs real dispatchers; overriding the one method numba calls on a miss keeps
every warm call on numba's C fast path, untouched.

While anything compiles, :func:`status` says what and how far, and with ``progress=True``
a line goes to stderr at the start and end of each compile.
"""

from __future__ import annotations

import heapq
import itertools
import os
import sys
import threading
import time
from dataclasses import dataclass

from numba.core import registry, types
from numba.core.compiler_lock import global_compiler_lock

MODES = ("foreground", "background", "deferred")


@dataclass(frozen=True)
class CompileStatus:
    """What the compiler is doing.

    Attributes
    ----------
    running : str or None
        Short name of the kernel compiling now (None when idle).
    queued : tuple of str
        Kernels (or warm-up steps) waiting for the background thread, in order.
    done : int
        Compiles finished in this process (loads from the disk cache not counted).
    seconds : float
        Time spent in those compiles.
    """

    running: str | None
    queued: tuple[str, ...]
    done: int
    seconds: float

    @property
    def busy(self) -> bool:
        """True while something compiles or waits to."""
        return self.running is not None or bool(self.queued)

    def describe(self) -> str:
        """One plain sentence for a status line; empty when idle.

        Not a countdown: kernels are queued as pages first use them, so the number waiting
        can grow (a newcomer read "27 done, 1 to go" followed by "28 done, 1 to go" as a
        job that never ends), so the sentence says that more may be added. No kernel names:
        a newcomer read "compiling dominance.nondominated_mask" as developer noise; what
        matters to them is what is happening, how far along it is, and that pages answer
        meanwhile.

        Examples
        --------
        >>> CompileStatus("sweep.alpha_sweep_select", ("posets.depth",), 27, 40.0).describe()
        'First start: preparing faster code for the calculations (27 of 29 parts ready; more are added as pages first need them). Pages answer meanwhile, a little slower; the faster code is kept for later starts.'
        >>> CompileStatus(None, (), 3, 1.0).describe()
        ''
        """
        if not self.busy:
            return ""
        return (f"First start: preparing faster code for the calculations ({self.ready}; more "
                "are added as pages first need them). Pages answer meanwhile, a little slower; "
                "the faster code is kept for later starts.")

    @property
    def ready(self) -> str:
        """How far along, in words: ``"27 of 29 parts ready"``.

        >>> CompileStatus("sweep.alpha_sweep_select", (), 0, 0.0).ready
        '0 of 1 part ready'
        """
        total = self.done + (self.running is not None) + len(self.queued)
        return f"{self.done} of {total} {'part' if total == 1 else 'parts'} ready"


class _State:
    """Process-wide settings and the background queue (one per process)."""

    def __init__(self) -> None:
        self.mode = "foreground"
        self.progress = False
        self.lock = threading.Lock()
        self.queue: list = []            # heap of (priority, seq, label, job)
        self.queued_keys: set = set()
        self.seq = itertools.count()
        self.thread: threading.Thread | None = None
        # what compiles now: the background thread's job, and each compile in progress in
        # any thread (a list, not one saved-and-restored value: compiles in two threads can
        # end in any order, and a restored "previous" then showed one running for ever)
        self.worker_label: str | None = None
        self.active: list[str] = []
        self.done = 0
        self.seconds = 0.0
        self.pending: dict = {}         # (module, qualname, sig) -> None, deferred mode
        self.local = threading.local()


_STATE = _State()


def _after_fork_in_child() -> None:
    """A forked child (Dash's background jobs fork the server) has no compile thread, but may
    hold copies of locks that thread held at the fork: give it fresh ones, an empty queue, and
    compile in the foreground there (a job is short; it must not wait on a thread that does
    not exist). numba's compiler lock is replaced the same way (private attribute, see
    :func:`in_disk_cache` for the others used here)."""
    global _STATE
    mode, progress = _STATE.mode, _STATE.progress
    _STATE = _State()
    _STATE.progress = progress
    _STATE.mode = "foreground" if mode != "foreground" else mode
    global_compiler_lock._lock = threading.RLock()
    llvm = _llvm_lock_holder()
    if llvm is not None:
        llvm._lock = threading.RLock()


def _llvm_lock_holder():
    """llvmlite's lock around the LLVM C API (``ffi.lib._lock``, private), or None."""
    try:
        from llvmlite.binding import ffi

        holder = ffi.lib._lock
        return holder if hasattr(holder, "_lock") else None
    except Exception:  # noqa: BLE001 - another llvmlite: only the compiler lock is held
        return None


#: how long a fork waits for a compile to leave the locks (one kernel's compile takes a few
#: seconds); past it the fork goes ahead and the child gets fresh locks (_after_fork_in_child)
FORK_LOCK_WAIT_SECONDS = 20.0
_HELD_ACROSS_FORK: list = []


def _before_fork() -> None:
    """Hold numba's compiler lock and LLVM's lock across a fork, waiting a bounded time.

    Why: a job forked while the compile thread was inside LLVM got a copy of LLVM's lock held
    by a thread that does not exist in the child, and its first kernel load (a Posets job
    on a freshly started server) waited on it for ever. Waiting here instead delays the fork
    by at most one kernel's compile, and the child starts with no compile half done. A lock
    held longer than :data:`FORK_LOCK_WAIT_SECONDS` is not waited for: the child then gets
    fresh locks, as before.
    """
    _HELD_ACROSS_FORK.clear()
    llvm = _llvm_lock_holder()
    for lock in (global_compiler_lock._lock, None if llvm is None else llvm._lock):
        if lock is None or not lock.acquire(timeout=FORK_LOCK_WAIT_SECONDS):
            break
        _HELD_ACROSS_FORK.append(lock)


def _after_fork_in_parent() -> None:
    while _HELD_ACROSS_FORK:
        _HELD_ACROSS_FORK.pop().release()


os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent,
                    after_in_child=_after_fork_in_child)


def configure(*, mode: str | None = None, progress: bool | None = None) -> None:
    """Set how kernels compile in this process.

    Parameters
    ----------
    mode : {"foreground", "background", "deferred"}, optional
        See the module docstring.
    progress : bool, optional
        Print a line on stderr when a compile starts and ends.
    """
    if mode is not None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        _STATE.mode = mode
    if progress is not None:
        _STATE.progress = progress


def status() -> CompileStatus:
    """Snapshot of the compiler's state (safe from any thread)."""
    with _STATE.lock:
        queued = tuple(label for _, _, label, _ in sorted(_STATE.queue))
        running = _STATE.active[-1] if _STATE.active else _STATE.worker_label
        return CompileStatus(running, queued, _STATE.done, _STATE.seconds)


def pending() -> list[tuple[str, str, object]]:
    """Deferred mode: (module, qualified name, numba signature) the twins stood in for."""
    with _STATE.lock:
        return list(_STATE.pending)


def submit(label: str, job, *, priority: int = 1) -> None:
    """Run ``job()`` on the background compile thread (warm-up steps use priority 1; the
    kernels a twin stood in for use 0, so they go first). Calls inside ``job`` compile in
    that thread, whatever the mode."""
    _enqueue(("job", label), label, job, priority)


def wait_idle(timeout: float | None = None) -> bool:
    """Block until the background queue is empty; False on timeout."""
    end = None if timeout is None else time.monotonic() + timeout
    while status().busy:
        if end is not None and time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def kernel_name(dispatcher) -> str:
    """``topic.function`` of a kernel, e.g. ``criteria.copa_select``."""
    func = dispatcher.py_func
    return f"{func.__module__.rsplit('.', 1)[-1]}.{func.__name__}"


def in_disk_cache(dispatcher, sig) -> bool:
    """True when numba's disk cache holds this kernel for ``sig`` (a quick load, no compile).

    Reads numba's cache index the way ``Dispatcher.compile`` does (private but stable API:
    ``_cache._index_key`` and ``_cache_file._load_index``); any surprise counts as "not there".
    """
    try:
        cache = dispatcher._cache
        key = cache._index_key(tuple(sig), dispatcher.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:  # noqa: BLE001 - a cache we cannot read is a cache miss
        return False


class LazyKernel(registry.CPUDispatcher):
    """A numba CPU dispatcher that asks :mod:`.jit` what to do when it would compile."""

    def _compile_for_args(self, *args, **kws):
        if kws or _STATE.mode == "foreground" or _is_worker():
            return self._compile_here(args, kws)
        twin = _twin_of(self)
        if twin is None:
            return self._compile_here(args, kws)
        sig = tuple(self.typeof_pyval(a) for a in args)
        if in_disk_cache(self, sig) and global_compiler_lock._lock.acquire(blocking=False):
            # cached and nobody compiling: loading takes milliseconds, do it now
            try:
                return super()._compile_for_args(*args)
            finally:
                global_compiler_lock._lock.release()
        if _STATE.mode == "deferred":
            with _STATE.lock:
                _STATE.pending[(self.py_func.__module__, self.py_func.__qualname__, sig)] = None
        else:
            _enqueue(("kernel", id(self), sig), kernel_name(self),
                     lambda: self.compile(sig), 0)
        return self._twin_call(twin)

    def get_call_template(self, args, kws):
        """Typing of a call from other compiled code: constants passed as arguments
        (``Literal[int](0)``) are typed as their plain type, so a kernel is compiled once
        for int64 rather than once more for every constant a caller passes."""
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})

    def _compile_here(self, args, kws):
        """Compile (or load) now in this thread; a real compile shows in :func:`status`.

        Threads that call a kernel at once (the depth's thread pool) wait for numba's
        compiler lock here, before saying anything: the first compiles, the others then
        find it compiled and say nothing, so the progress lines appear once (they appeared
        once per thread, tester 18).
        """
        sig = None if kws else tuple(self.typeof_pyval(a) for a in args)
        if sig is not None and in_disk_cache(self, sig):
            return super()._compile_for_args(*args)
        with global_compiler_lock:
            if sig is not None and sig in self.overloads:   # another thread compiled it
                return super()._compile_for_args(*args)
            with _compiling(kernel_name(self)):
                return super()._compile_for_args(*args, **kws)

    def _twin_call(self, twin):
        """The callable numba's dispatcher calls with the arguments: the twin, or, when the
        twin declines the input, the kernel compiled now."""
        declined = _twins_module().TwinDeclined

        def call(*args):
            try:
                return twin(*args)
            except declined:
                return self._compile_here(args, {})(*args)
        return call


def njit(*args, **options):
    """``numba.njit`` for the kernel modules: same options, returns a :class:`LazyKernel`.

    Use as ``@njit`` or ``@njit(cache=True, nogil=True)``. Explicit signatures compile
    eagerly, as in numba, and are refused here: nothing may compile at import.
    """
    if args and callable(args[0]):
        return njit(**options)(args[0])
    if args:
        raise TypeError("kernels are compiled lazily; declare them without signatures")
    cache = options.pop("cache", False)

    def wrap(func):
        kernel = LazyKernel(py_func=func, locals=options.pop("locals", {}),
                            targetoptions={"nopython": True, **options})
        if cache:
            kernel.enable_caching()
        return kernel

    return wrap


# ---------------------------------------------------------------- internals

def _twins_module():
    # imported when a kernel first misses in the background or deferred mode, not at the
    # top: foreground use (library calls, tests) never loads the twins
    from . import _twins

    return _twins


def _twin_of(dispatcher):
    name = kernel_name(dispatcher)
    if name.startswith("robustness."):
        # the robustness kernels' twins have a module of their own (_twins is long)
        from . import _twins_robustness

        return _twins_robustness.TWINS.get(name)
    return _twins_module().TWINS.get(name)


def _is_worker() -> bool:
    return getattr(_STATE.local, "in_place", False)


class _compiling:
    """Context: show ``label`` as compiling in :func:`status`, print progress lines."""

    def __init__(self, label: str, *, where: str = "") -> None:
        self.label = label
        self.where = where

    def __enter__(self):
        with _STATE.lock:
            _STATE.active.append(self.label)
        self.start = time.perf_counter()
        if _STATE.progress:
            print(f"copa-dash: compiling {self.label}{self.where} (first use; kept in the "
                  "numba cache for later runs)...", file=sys.stderr, flush=True)
        return self

    def __exit__(self, *exc):
        took = time.perf_counter() - self.start
        with _STATE.lock:
            _STATE.active.remove(self.label)
            _STATE.done += 1
            _STATE.seconds += took
        if _STATE.progress:
            print(f"copa-dash: compiled {self.label} in {took:.1f} s", file=sys.stderr,
                  flush=True)
        return False


def _enqueue(key, label: str, job, priority: int) -> None:
    with _STATE.lock:
        if key in _STATE.queued_keys:
            return
        _STATE.queued_keys.add(key)
        heapq.heappush(_STATE.queue, (priority, next(_STATE.seq), label, (key, job)))
        if _STATE.thread is None or not _STATE.thread.is_alive():
            _STATE.thread = threading.Thread(target=_worker, name="copa-jit", daemon=True)
            _STATE.thread.start()


def _worker() -> None:
    """Background thread: run queued compiles one at a time, most urgent first."""
    _STATE.local.in_place = True
    while True:
        with _STATE.lock:
            if not _STATE.queue:
                _STATE.thread = None
                return
            _, _, label, (key, job) = heapq.heappop(_STATE.queue)
            _STATE.queued_keys.discard(key)
            _STATE.worker_label = label
        try:
            if key[0] == "kernel":
                with _compiling(label, where=" in the background"):
                    job()
            else:
                job()
        except Exception as exc:  # noqa: BLE001 - a failed warm-up must not stop the thread
            print(f"copa-dash: compiling {label} failed: {exc}", file=sys.stderr, flush=True)
        finally:
            with _STATE.lock:
                _STATE.worker_label = None
