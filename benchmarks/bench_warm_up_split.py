"""The test suite's numba warm-up on an empty cache: the steps split by position against the
steps claimed in :data:`tests.conftest.WARM_UP_ORDER`, interleaved.

``make test`` (pytest-xdist's controller, tests/conftest.py) fills the numba cache with the
app's warm-up steps (copa_dash/services/warmup.py) in two processes before the workers start.
Before session 22 each process ran every other step (``WARM_UP_STEPS[part::2]``); now both
claim the next unclaimed step in the order of ``WARM_UP_ORDER``. Each round runs both ways,
alternating which goes first, each on a new empty ``NUMBA_CACHE_DIR``, and prints the wall
time, each process's CPU seconds and their sum, with the load before and after.

Refused unless both ways left the same kernels in the cache: the same index files holding the
same signatures.

Usage::

    python benchmarks/bench_warm_up_split.py [--rounds 2]
"""

from __future__ import annotations

import argparse
import os
import pickle
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._harness import load_line
from tests.conftest import WARM_UP_CODE, warm_up_order

#: The split before session 22 (tests/conftest.py at 7144d2b), and its command line.
BY_POSITION = ("import sys\n"
               "from copa_dash.services.warmup import WARM_UP_STEPS\n"
               "part, parts = int(sys.argv[1]), int(sys.argv[2])\n"
               "for _, step in WARM_UP_STEPS[part::parts]:\n"
               "    step()\n")
#: Appended to both: the process's own CPU seconds on its last line.
SAY_CPU = "\nimport time\nprint(time.process_time())\n"


def kernels(cache: Path) -> dict[str, list[str]]:
    """``{index file: signatures}`` of a numba cache folder (the source path's hash left out)."""
    found = {}
    for index in cache.rglob("*.nbi"):
        with index.open("rb") as handle:
            pickle.load(handle)                           # numba's version
            _, overloads = pickle.loads(handle.read())
        found[index.name] = sorted(str(key[0]) for key in overloads)
    return found


def run(way: str, cache: Path) -> tuple[float, list[float]]:
    """Wall seconds and each process's CPU seconds of one warm-up ``way`` on ``cache``."""
    from copa_dash.services.warmup import WARM_UP_STEPS

    env = {**os.environ, "COPA_JIT_MODE": "foreground", "NUMBA_CACHE_DIR": str(cache),
           "PYTHONPATH": str(ROOT)}
    claims = tempfile.mkdtemp(prefix="copa-claims-")
    order = ",".join(map(str, warm_up_order([label for label, _ in WARM_UP_STEPS])))
    commands = ([[sys.executable, "-c", BY_POSITION + SAY_CPU, str(part), "2"] for part in (0, 1)]
                if way == "by position" else
                [[sys.executable, "-c", WARM_UP_CODE + SAY_CPU, claims, order]] * 2)
    start = time.perf_counter()
    started = [subprocess.Popen(c, cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
               for c in commands]
    outs = [p.communicate()[0] for p in started]
    wall = time.perf_counter() - start
    shutil.rmtree(claims)
    if any(p.returncode for p in started):
        raise SystemExit(f"{way}: a warm-up process failed")
    return wall, [float(out.strip().splitlines()[-1]) for out in outs]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    ways = ["by position", "claimed in order"]
    seen: dict[str, list[tuple[float, list[float]]]] = {w: [] for w in ways}
    for rnd in range(args.rounds):
        for way in (ways if rnd % 2 == 0 else ways[::-1]):
            cache = Path(tempfile.mkdtemp(prefix="copa-warm-bench-"))
            before = load_line()
            wall, cpus = run(way, cache)
            found = kernels(cache)
            shutil.rmtree(cache)
            seen[way].append((wall, cpus))
            print(f"round {rnd} {way:17s} wall {wall:6.1f} s  CPU {cpus[0]:5.1f} + "
                  f"{cpus[1]:5.1f} = {sum(cpus):5.1f} s  ({len(found)} kernels)\n"
                  f"    before: {before}\n    after:  {load_line()}", flush=True)
            if rnd == 0 and way == ways[0]:
                expected = found
            elif found != expected:
                raise SystemExit(f"{way} left other kernels in the cache than {ways[0]}")
    for way in ways:
        walls = [w for w, _ in seen[way]]
        cpu = [sum(c) for _, c in seen[way]]
        most = [max(c) for _, c in seen[way]]
        print(f"{way:17s} median wall {statistics.median(walls):6.1f} s, CPU in all "
              f"{statistics.median(cpu):5.1f} s, busier process {statistics.median(most):5.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
