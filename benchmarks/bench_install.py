"""Install time of the built wheel in a clean venv, through the lock (constraints.txt).

Builds the wheel once (``uv build``: sdist, then the wheel from it), then, alternating the
order each round, installs it into a new venv with

* pip: ``python -m pip install -c constraints.txt WHEEL`` (what the README tells a user;
  pip's configured indexes);
* uv: ``uv pip install -c constraints.txt WHEEL`` (what tests/test_package.py uses);

and runs ``copa-dash datasets --json`` from another folder with the installed command, to
check that each install works (the two lists of datasets must be equal). Wall time and the
CPU time of the child processes (getrusage RUSAGE_CHILDREN) are printed, with the machine
load before and after. Package caches (pip's and uv's) are as this machine has them: warm
after the first run, which is what a developer re-creating a venv sees; the first install on
a new machine also downloads ~150 MB of wheels.

Usage::

    python benchmarks/bench_install.py [--repeats 2]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (1 min) / {five:.2f} (5 min) on {os.cpu_count()} CPUs"


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(command, **kwargs) -> tuple[float, float]:
    cpu, wall = children_cpu(), time.perf_counter()
    subprocess.run(command, check=True, **kwargs)
    return time.perf_counter() - wall, children_cpu() - cpu


def uv_bin() -> str:
    import uv

    return uv.find_uv_bin()


def install(tool: str, wheel: Path, work: Path) -> tuple[float, float, list]:
    venv = work / f"venv-{tool}"
    if tool == "pip":
        command = [sys.executable, "-m", "venv", str(venv)]
    else:
        command = [sys.executable, "-m", "venv", "--without-pip", str(venv)]
    wall_v, cpu_v = timed(command)
    python = venv / "bin" / "python"
    if tool == "pip":
        command = [str(python), "-m", "pip", "install", "-q", "-c",
                   str(ROOT / "constraints.txt"), str(wheel)]
    else:
        command = [uv_bin(), "pip", "install", "-q", "--python", str(python), "-c",
                   str(ROOT / "constraints.txt"), str(wheel)]
    wall, cpu = timed(command, stderr=subprocess.DEVNULL)
    elsewhere = work / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "COPA_DATASETS_DIR")}
    listed = subprocess.run([str(venv / "bin" / "copa-dash"), "datasets", "--json"],
                            cwd=elsewhere, env=env, capture_output=True, text=True, check=True)
    names = [d["name"] for d in json.loads(listed.stdout)["datasets"]]
    return wall + wall_v, cpu + cpu_v, names


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args(argv)
    print(load())
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        wall, cpu = timed([uv_bin(), "build", "--quiet", "--out-dir", str(work / "dist"),
                           str(ROOT)])
        wheel = next((work / "dist").glob("copa_dash-*.whl"))
        print(f"build sdist + wheel: {wall:.1f} s wall, {cpu:.1f} s CPU; wheel "
              f"{wheel.stat().st_size / 2**20:.1f} MiB")
        figures = {"pip": ([], []), "uv": ([], [])}
        answers = {}
        for r in range(args.repeats):
            for tool in (("pip", "uv") if r % 2 == 0 else ("uv", "pip")):
                round_dir = work / f"round{r}"
                round_dir.mkdir(exist_ok=True)
                w, c, names = install(tool, wheel, round_dir)
                figures[tool][0].append(w)
                figures[tool][1].append(c)
                answers[tool] = names
                print(f"round {r}: {tool} {w:.1f} s wall, {c:.1f} s CPU", flush=True)
        if answers["pip"] != answers["uv"] or not answers["pip"]:
            print("refused: the two installs list different datasets")
            return 1
    print()
    print("| install of the wheel in a new venv (lock as constraints) | wall s (median) | "
          "CPU s (median) | rounds |")
    print("|---|---|---|---|")
    for tool, (walls, cpus) in figures.items():
        print(f"| {tool} | {statistics.median(walls):.1f} | {statistics.median(cpus):.1f} | "
              f"{len(walls)} |")
    print(f"\nboth installs list the same {len(answers['pip'])} bundled datasets; {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
