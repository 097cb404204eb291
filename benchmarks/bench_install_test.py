"""``make install-test`` on a fresh clone and a fresh venv: pip's recipe against uv's, interleaved.

Each round clones this checkout's HEAD (``git clone``), makes a venv (``python3 -m venv``) and
runs ``make install-test PYTHON=VENV/bin/python`` once with ``INSTALLER=pip`` (the recipe before
session 21: ``pip install --no-compile --report`` then tools/compile_installed.py) and once with
the default (tools/install_locked.py: uv configured as pip is), alternating which goes first.
Caches: ``--caches cold`` gives every install new empty pip and uv caches (a CI machine);
``warm`` fills one cache folder per side with an unrecorded install first (a developer's
machine). Wall time and the CPU of the child processes (getrusage RUSAGE_CHILDREN) are printed
with the load before and after each install, and where each install spent its time: pip's
from its log (``PIP_LOG``: build set-up, resolve + download, install, then the compilation
until make returned), uv's from its own summary lines.

Refused unless both sides installed the same thing: equal ``pip freeze`` output (the
checkout's line aside), and equal files: the sha256 of every file in site-packages but the
``.pyc`` files and the installers' own records (RECORD, INSTALLER, REQUESTED, direct_url.json,
uv_cache.json, uv_build.json), and equal numbers of ``.pyc`` files.

Usage::

    python benchmarks/bench_install_test.py [--rounds 2] [--caches cold|warm]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_install import children_cpu, load

OWN_RECORDS = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json", "uv_cache.json",
               "uv_build.json"}
SIDES = ("pip", "auto")


def site_packages(venv: Path) -> Path:
    return next((venv / "lib").glob("python3*/site-packages"))


def installed_digest(venv: Path, clone: Path) -> tuple[str, int, list[str]]:
    """(sha256 over the installed files' names and contents, the clone's and venv's folders
    written as placeholders, number of .pyc files, pip freeze lines without the checkout's
    own line)."""
    site = site_packages(venv)
    digest, pyc = hashlib.sha256(), 0
    for path in sorted(site.rglob("*")):
        if path.suffix == ".pyc":
            pyc += 1
        elif path.is_file() and path.name not in OWN_RECORDS:
            data = path.read_bytes().replace(str(clone).encode(), b"CLONE")
            data = data.replace(str(venv).encode(), b"VENV")
            digest.update(str(path.relative_to(site)).encode() + b"\0" + data)
    freeze = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "freeze"], text=True,
                            capture_output=True, check=True).stdout.splitlines()
    return digest.hexdigest(), pyc, [line for line in freeze if "copa_dash" not in line]


def _stamp(line: str) -> float:
    return datetime.strptime(line[:23], "%Y-%m-%dT%H:%M:%S,%f").timestamp()


def pip_phases(log: Path, end: float) -> dict[str, float]:
    """Seconds of pip's phases from its log (``PIP_LOG``), the compilation until ``end``."""
    marks = {}
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        if len(line) > 24 and line[4] == "-":
            marks.setdefault("start", _stamp(line))
            if "Preparing editable metadata" in line and "done" in line:
                marks["prepared"] = _stamp(line)
            elif line[24:].startswith("Installing collected packages"):
                marks["install"] = _stamp(line)
            elif line[24:].startswith("Successfully installed"):
                marks["done"] = _stamp(line)
    return {"build set-up": marks["prepared"] - marks["start"],
            "resolve + download": marks["install"] - marks["prepared"],
            "install": marks["done"] - marks["install"], "compile .pyc": end - marks["done"]}


def uv_phases(output: str) -> dict[str, float]:
    """Seconds of uv's phases from its summary lines (``Resolved 180 packages in 2.1s``)."""
    phases = {}
    for name, word in (("resolve", "Resolved"), ("download + unpack", "Prepared"),
                       ("install", "Installed"), ("compile .pyc", "Bytecode compiled")):
        found = re.search(rf"^{word} .* in (?:(\d+)m )?([\d.]+)(ms|s)$", output, re.MULTILINE)
        if found:
            minutes, seconds, unit = found.groups()
            phases[name] = (float(seconds) / (1000 if unit == "ms" else 1)
                            + 60 * float(minutes or 0))
    return phases


def one_install(side: str, work: Path, caches: dict[str, Path]) -> dict:
    """Clone, venv and ``make install-test`` for one side; its figures."""
    clone, venv, log = work / "clone", work / "venv", work / "pip.log"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PIP_CACHE_DIR=str(caches["pip"]), UV_CACHE_DIR=str(caches["uv"]),
               PIP_LOG=str(log))
    before, cpu, wall = load(), children_cpu(), time.perf_counter()
    run = subprocess.run(["make", "install-test", f"PYTHON={venv}/bin/python",
                          f"INSTALLER={side}"], cwd=clone, env=env, text=True,
                         capture_output=True, check=False)
    wall, cpu, end = time.perf_counter() - wall, children_cpu() - cpu, time.time()
    if run.returncode != 0:
        raise SystemExit(f"make install-test INSTALLER={side} failed:\n{run.stderr[-3000:]}")
    phases = pip_phases(log, end) if side == "pip" else uv_phases(run.stderr + run.stdout)
    return {"wall": wall, "cpu": cpu, "phases": phases, "load": (before, load()),
            "installed": installed_digest(venv, clone)}


def fresh_caches(work: Path, side: str, mode: str, primed: dict) -> dict[str, Path]:
    """Empty cache folders (cold), or the side's folders after an unrecorded install (warm)."""
    if mode == "cold":
        return {"pip": work / "pip-cache", "uv": work / "uv-cache"}
    if side not in primed:
        folder = Path(tempfile.mkdtemp(prefix=f"bench-install-warm-{side}-"))
        primed[side] = {"pip": folder / "pip", "uv": folder / "uv"}
        one_install(side, folder / "prime", primed[side])
        shutil.rmtree(folder / "prime")
    return primed[side]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--caches", choices=("cold", "warm"), default="cold")
    args = parser.parse_args(argv)
    print(f"{load()}; caches {args.caches}; HEAD of {ROOT}", flush=True)
    figures, installed, primed = {s: [] for s in SIDES}, {}, {}
    try:
        for r in range(args.rounds):
            for side in (SIDES if r % 2 == 0 else SIDES[::-1]):
                work = Path(tempfile.mkdtemp(prefix=f"bench-install-{side}-"))
                try:
                    got = one_install(side, work, fresh_caches(work, side, args.caches, primed))
                finally:
                    shutil.rmtree(work, ignore_errors=True)
                figures[side].append(got)
                installed[side] = got["installed"]
                phases = ", ".join(f"{k} {v:.1f}" for k, v in got["phases"].items())
                print(f"round {r} INSTALLER={side}: {got['wall']:.1f} s wall, {got['cpu']:.1f} "
                      f"s CPU ({phases}); {got['load'][0]} -> {got['load'][1]}", flush=True)
    finally:
        for folders in primed.values():
            shutil.rmtree(folders["pip"].parent, ignore_errors=True)
    if installed["pip"] != installed["auto"]:
        (d1, n1, f1), (d2, n2, f2) = installed["pip"], installed["auto"]
        print(f"refused: the two installs differ: files {d1[:12]} / {d2[:12]}, .pyc {n1} / "
              f"{n2}, freeze {sorted(set(f1) ^ set(f2))}")
        return 1
    print(f"\n| make install-test, fresh clone + venv, {args.caches} caches | wall s (median) "
          "| CPU s (median) | rounds |\n|---|---|---|---|")
    for side, runs in figures.items():
        print(f"| INSTALLER={side} | {statistics.median(r['wall'] for r in runs):.1f} | "
              f"{statistics.median(r['cpu'] for r in runs):.1f} | {len(runs)} |")
    digest, pyc, freeze = installed["pip"]
    print(f"\nboth sides: {len(freeze)} distributions (pip freeze equal), the same files "
          f"(sha256 {digest[:12]}), {pyc} .pyc files; {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
