"""How kernels compile (core/jit.py): lazily, in the foreground, behind a twin in the
background, or deferred to another process; with progress on stderr and a status."""

import os
import pickle
import threading
import time

import numpy as np
import pytest

from copa_dash.core import _twins, jit
from copa_dash.core.jit import LazyKernel, njit


def _fresh_kernel():
    """A new kernel each call (so nothing is compiled yet), not cached on disk."""
    @njit
    def add_one(x):
        out = np.empty_like(x)
        for i in range(x.shape[0]):
            out[i] = x[i] + 1.0
        return out
    return add_one


@pytest.fixture
def jit_state(monkeypatch):
    """Restore the process's compile settings and twin table after the test."""
    state = jit._STATE
    monkeypatch.setattr(state, "mode", state.mode)
    monkeypatch.setattr(state, "progress", state.progress)
    monkeypatch.setattr(state, "pending", {})
    monkeypatch.setattr(_twins, "TWINS", dict(_twins.TWINS))
    yield state
    assert jit.wait_idle(timeout=60)


def test_kernels_are_numba_dispatchers_and_nothing_compiles_at_definition():
    kernel = _fresh_kernel()
    assert isinstance(kernel, LazyKernel)
    assert kernel.signatures == []
    with pytest.raises(TypeError, match="lazily"):
        njit("float64(float64)")


def test_foreground_compiles_on_first_call_with_progress_lines(jit_state, capsys):
    jit.configure(mode="foreground", progress=True)
    kernel = _fresh_kernel()
    np.testing.assert_array_equal(kernel(np.arange(3.0)), [1.0, 2.0, 3.0])
    assert len(kernel.signatures) == 1
    err = capsys.readouterr().err
    assert "compiling test_jit.add_one" in err and "compiled test_jit.add_one in" in err


def test_background_twin_answers_then_the_kernel_compiles(jit_state, monkeypatch):
    jit.configure(mode="background", progress=False)
    kernel = _fresh_kernel()
    calls = []

    def twin(x):
        calls.append(threading.current_thread().name)
        return x + 1.0

    _twins.TWINS[jit.kernel_name(kernel)] = twin
    gate = threading.Event()
    monkeypatch.setattr(LazyKernel, "compile",
                        lambda self, sig, _orig=LazyKernel.compile: (gate.wait(30),
                                                                     _orig(self, sig))[1])
    first = kernel(np.arange(3.0))
    np.testing.assert_array_equal(first, [1.0, 2.0, 3.0])
    assert calls == [threading.current_thread().name]          # the twin answered, here
    status = jit.status()
    assert status.busy and "test_jit.add_one" in (status.running or "") + "".join(status.queued)
    assert "First start" in status.describe()
    gate.set()
    assert jit.wait_idle(timeout=60)
    assert len(kernel.signatures) == 1
    np.testing.assert_array_equal(kernel(np.arange(3.0)), [1.0, 2.0, 3.0])
    assert len(calls) == 1                                       # compiled code from now on
    assert jit.status().describe() == ""


def test_a_declining_twin_hands_over_to_the_compiled_kernel(jit_state):
    jit.configure(mode="background", progress=False)
    kernel = _fresh_kernel()

    def twin(x):
        raise _twins.TwinDeclined("too big")

    _twins.TWINS[jit.kernel_name(kernel)] = twin
    np.testing.assert_array_equal(kernel(np.arange(2.0)), [1.0, 2.0])
    assert len(kernel.signatures) == 1


def test_deferred_mode_records_the_signature_for_another_process(jit_state, tmp_path,
                                                                  monkeypatch):
    from copa_dash.cli import kernel_compile
    from copa_dash.services import kernel_handover

    jit.configure(mode="deferred", progress=False)
    kernel = _fresh_kernel()
    _twins.TWINS[jit.kernel_name(kernel)] = lambda x: x + 1.0
    np.testing.assert_array_equal(kernel(np.arange(2.0)), [1.0, 2.0])
    assert kernel.signatures == []                               # nothing compiled here
    [(module, qualname, sig)] = jit.pending()
    assert (module, qualname.rsplit(".", 1)[-1]) == (__name__, "add_one")
    # the detached process gets the triples through a pickle, and compiles them
    started = []
    monkeypatch.setattr(kernel_handover.subprocess, "Popen",
                        lambda argv, **kw: started.append(argv))
    monkeypatch.setattr(kernel_handover, "_lock_path", lambda: tmp_path / "compile.lock")
    monkeypatch.setattr(kernel_compile, "_lock_path", lambda: tmp_path / "compile.lock")
    assert kernel_handover.compile_pending_later()
    assert not kernel_handover.compile_pending_later()           # one at a time (the lock)
    path = started[0][-1]
    assert started[0][-3:-1] == ["compile", "--pending"]
    with open(path, "rb") as handle:
        assert pickle.load(handle) == [(module, qualname, sig)]


def test_compile_pending_compiles_the_listed_kernels(tmp_path, monkeypatch):
    from copa_dash.cli import kernel_compile
    from copa_dash.core._kernels import baselines

    sig = (baselines.ahp_priorities.typeof_pyval(np.zeros(3)),)
    path = tmp_path / "pending.pickle"
    path.write_bytes(pickle.dumps([(baselines.__name__, "ahp_priorities", sig)]))
    lock = tmp_path / "compile.lock"
    lock.touch()
    monkeypatch.setattr(kernel_compile, "_lock_path", lambda: lock)
    assert kernel_compile._compile_pending(str(path)) == 0
    assert sig in [tuple(s) for s in baselines.ahp_priorities.signatures]
    assert not path.exists() and not lock.exists()


def test_in_disk_cache_sees_a_cached_kernel(tmp_path):
    from copa_dash.core._kernels import ranks

    y_t = np.zeros((1, 3))
    order = np.zeros((1, 3), dtype=np.int64)
    population = np.ones(3, dtype=bool)
    ranks.cdf_columns(y_t, order, population)                    # compiled or loaded
    sig = tuple(ranks.cdf_columns.typeof_pyval(a) for a in (y_t, order, population))
    assert jit.in_disk_cache(ranks.cdf_columns, sig)
    assert not jit.in_disk_cache(_fresh_kernel(), sig)


def test_a_forked_child_compiles_although_a_thread_held_the_compiler_lock(jit_state,
                                                                         monkeypatch):
    """Dash's background jobs fork the server, possibly while the compile thread compiles.
    The fork waits for the lock a bounded time (shortened here), then goes ahead."""
    import os
    import time

    from numba.core.compiler_lock import global_compiler_lock

    monkeypatch.setattr(jit, "FORK_LOCK_WAIT_SECONDS", 0.5)
    jit.configure(mode="background")
    held, release = threading.Event(), threading.Event()

    def hold():
        with global_compiler_lock:
            held.set()
            release.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    pid = os.fork()
    if pid == 0:  # the child: compile a new kernel, then leave without running pytest's exit
        try:
            ok = _fresh_kernel()(np.arange(2.0))[1] == 2.0 and jit._STATE.mode == "foreground"
            os._exit(0 if ok else 1)
        except BaseException:  # noqa: BLE001
            os._exit(2)
    release.set()
    holder.join()
    end = time.monotonic() + 120
    while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < end:
        time.sleep(0.1)
    if done[0] == 0:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    assert done[0] == pid and os.WEXITSTATUS(done[1]) == 0


def test_compiles_in_two_threads_ending_in_any_order_leave_the_status_idle(jit_state):
    """Two threads compiling at once, the first to start ending first: the status once kept a
    restored 'previous' label and showed a compile running for ever (seen on a fresh cache)."""
    first_entered, second_entered, first_may_end = (threading.Event() for _ in range(3))

    def first():
        with jit._compiling("kernels.first"):
            first_entered.set()
            second_entered.wait(10)
            first_may_end.wait(10)

    def second():
        first_entered.wait(10)
        with jit._compiling("kernels.second"):
            second_entered.set()
            first_may_end.set()
            time.sleep(0.2)  # the first thread leaves while this one still compiles

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert jit.status().running is None and not jit.status().busy


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork only")
def test_a_fork_during_a_compile_gives_the_child_usable_llvm_and_compiler_locks():
    # the context helper's deadlock: a Posets job forked while the compile thread was inside
    # LLVM waited for ever on LLVM's lock in the child. A thread holds both locks as a compile
    # does; the fork must wait for it, and the child must be able to take both at once.
    from numba.core.compiler_lock import global_compiler_lock

    from copa_dash.core.jit import _llvm_lock_holder

    llvm = _llvm_lock_holder()
    assert llvm is not None, "llvmlite moved its lock: update core/jit._llvm_lock_holder"
    holding = threading.Event()

    def compile_like():
        with global_compiler_lock, llvm:
            holding.set()
            time.sleep(0.5)

    thread = threading.Thread(target=compile_like)
    thread.start()
    holding.wait(5)
    pid = os.fork()
    if pid == 0:        # the child: both locks at once, or exit 1 after 3 s
        ok = (global_compiler_lock._lock.acquire(timeout=3)
              and _llvm_lock_holder()._lock.acquire(timeout=3))
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    thread.join()
    assert os.waitstatus_to_exitcode(status) == 0


def test_threads_calling_a_new_kernel_at_once_say_compiling_once(jit_state, capsys):
    """Tester 18: `copa-dash depth` printed "compiling posets.ufg_level_chunk" and "compiled
    ... in 23.2 s" twice, once per thread of its pool; one compile is said once."""
    jit.configure(mode="foreground", progress=True)
    kernel = _fresh_kernel()
    start = threading.Barrier(3)
    results = []

    def call():
        start.wait(10)
        results.append(kernel(np.arange(3.0)).tolist())

    threads = [threading.Thread(target=call) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert results == [[1.0, 2.0, 3.0]] * 3 and len(kernel.signatures) == 1
    err = capsys.readouterr().err
    assert err.count("compiling test_jit.add_one") == 1, err
    assert err.count("compiled test_jit.add_one in") == 1, err


def test_the_first_start_sentence_is_plain_words_with_how_many_of_how_many():
    # issue 33: "compiling dominance.nondominated_mask (4 compiled so far, 12 more waiting)"
    # named internal functions; the sentence says what is prepared, how far, that pages answer
    text = jit.CompileStatus("dominance.nondominated_mask", ("a.b", "c.d"), 4, 3.0).describe()
    assert "dominance" not in text and "a.b" not in text and "compil" not in text
    assert "(4 of 7 parts ready" in text and "Pages answer meanwhile" in text
    assert "(0 of 1 part ready" in jit.CompileStatus(None, ("a.b",), 0, 0.0).describe()
