"""The benchmarks' CPU meter (benchmarks/_app.py) counts a process tree's CPU time."""

import subprocess
import sys

from benchmarks._app import cpu_seconds, descendants, tree_cpu_seconds

# a parent that starts a child; the child burns 0.4 s of its own CPU time, says so, then idles
CHILD = ("import time, sys\n"
         "t = time.process_time()\n"
         "while time.process_time() - t < 0.4: pass\n"
         "print('burnt', flush=True); time.sleep(30)\n")
PARENT = ("import subprocess, sys\n"
          f"child = subprocess.Popen([sys.executable, '-c', {CHILD!r}], stdout=sys.stdout)\n"
          "child.wait()\n")


def test_the_tree_meter_counts_a_childs_cpu_time_and_the_process_meter_does_not():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout.readline().strip() == "burnt"
        children = descendants(parent.pid)
        assert len(children) == 1
        assert cpu_seconds(children[0]) >= 0.4
        assert tree_cpu_seconds(parent.pid) >= cpu_seconds(parent.pid) + 0.4
    finally:
        for pid in descendants(parent.pid):
            subprocess.run(["kill", str(pid)], check=False)
        parent.wait(timeout=30)
    assert cpu_seconds(parent.pid) == 0.0          # gone: nothing to read
