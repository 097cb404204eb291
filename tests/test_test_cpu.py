"""tools/test_cpu.py: the per-test CPU rows are read back and summed by folder and file."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

TOOL = Path(__file__).resolve().parents[1] / "tools" / "test_cpu.py"
_spec = importlib.util.spec_from_file_location("test_cpu_tool", TOOL)
test_cpu = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(test_cpu)


def test_rows_are_read_from_every_worker_and_summed_by_folder_and_file(tmp_path):
    (tmp_path / "cpu-gw0.tsv").write_text(
        "tests/e2e/test_a.py::t1@browser-test_a\t10.00\t4.50\n"
        "tests/core/test_b.py::t[x\ty]\t1.00\t0.25\n", encoding="utf-8")
    (tmp_path / "cpu-gw1.tsv").write_text("tests/e2e/test_a.py::t2\t3.00\t1.50\n",
                                          encoding="utf-8")
    rows = test_cpu.read_rows(tmp_path)
    assert sorted(rows) == sorted([("tests/e2e/test_a.py::t1@browser-test_a", 10.0, 4.5),
                                   ("tests/core/test_b.py::t[x\ty]", 1.0, 0.25),
                                   ("tests/e2e/test_a.py::t2", 3.0, 1.5)])
    text = test_cpu.summary(rows)
    assert text.splitlines()[0] == "6 CPU s over 3 tests"
    assert "   6.0     13.0      2  tests/e2e" in text
    assert "   6.0  tests/e2e/test_a.py" in text and "   0.2  tests/core/test_b.py" in text


def test_an_empty_folder_is_exit_2_with_a_message(tmp_path, capsys):
    assert test_cpu.main([str(tmp_path)]) == 2
    assert "no cpu-*.tsv" in capsys.readouterr().err


def test_the_plugin_measures_a_test_that_burns_cpu(tmp_path, monkeypatch):
    monkeypatch.setattr(test_cpu, "OUT_DIR", tmp_path)
    before = test_cpu._tree_seconds()
    end = sum(range(3_000_000))                        # ~0.1 s of this process's CPU
    after = test_cpu._tree_seconds()
    spent = sum(s - before.get(k, 0.0) for k, s in after.items())
    assert end > 0 and 0.02 < spent < 5
    test_cpu._record("x.py::t", 1.0, spent)
    assert test_cpu.read_rows(tmp_path)[0][0] == "x.py::t"


def _burning_child(script_tail: str = "sys.stdin.read()\n"):
    """A Python child that burns 0.5 s of CPU, says so, then runs ``script_tail``."""
    import subprocess
    import sys

    burn = ("import os, sys, time\n"
            "while time.process_time() < 0.5: pass\n"
            "print('burnt', os.getpid(), flush=True)\n" + script_tail)
    child = subprocess.Popen([sys.executable, "-c", burn], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().startswith("burnt")
    return child


def test_a_child_reaped_inside_the_tree_counts_only_what_it_used_since_the_sample():
    """Quitting Chromium folds its browser process's whole life into chromedriver's children
    times: the part used before the first sample must not be counted again (it was, up to
    session 20)."""
    child = _burning_child()
    try:
        before, parents, reaped = test_cpu._sample()
        assert parents[child.pid] == os.getpid()
        assert before[next(k for k in before if k[0] == child.pid)] >= 0.45
    finally:
        child.stdin.close()
        child.wait()                                   # reaped here: its CPU joins ours
    spent = test_cpu._spent(before, parents, reaped)
    assert spent < 0.3                                 # its exit, not its 0.5 s of burning


def test_a_grandchild_nobody_waits_for_is_not_taken_off_twice():
    """A process that ends without being waited for inside the tree (Chromium's renderers: their
    zygote is not) takes its CPU with it; nothing is taken off for it, so a test never counts
    less than the CPU of the processes that stay (it went negative in session 20's first fix)."""
    # the child starts a burning grandchild and leaves it to init when the child exits
    tail = ("import subprocess\n"
            "code = 'import time\\nwhile time.process_time() < 0.5: pass\\n"
            "print(1, flush=True)\\nimport sys; sys.stdin.read()'\n"
            "g = subprocess.Popen([sys.executable, '-c', code], stdin=subprocess.PIPE,"
            " stdout=subprocess.PIPE, text=True)\n"
            "g.stdout.readline()\n"
            "print(g.pid, flush=True)\n"
            "sys.stdin.readline()\n"
            "g.stdin.close()\n"
            "os._exit(0)\n")                          # no wait: the grandchild is not reaped here
    child = _burning_child(tail)
    try:
        grandchild = int(child.stdout.readline())
        before, parents, reaped = test_cpu._sample()
        assert parents[grandchild] == child.pid
        child.stdin.write("go\n")
        child.stdin.flush()
    finally:
        child.wait()
    spent = test_cpu._spent(before, parents, reaped)
    assert -0.05 < spent < 0.3       # the child's own 0.5 s comes back through our wait, once
