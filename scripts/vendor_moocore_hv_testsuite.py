"""Build tests/data/moocore_hv_testsuite.json.gz from a checkout of multi-objective/testsuite.

    python scripts/vendor_moocore_hv_testsuite.py GIT_DIR [--max-seconds 0.5] [--max-points 5000]

GIT_DIR is the repository's git directory (a bare mirror is fine: files are read with
``git show``). Every ``hv/*.test`` command of the form ``$PROGRAM -r "R1 .. RK" [-u] FILE``
(input by ``<``, as an argument, or through ``xzcat``) is run through copa-dash's exact
hypervolume: one value per point set (sets are separated by blank lines) or, with ``-u``,
one for their union. The numbers of the matching ``.exp`` file are paired with these
values in order; a test whose count differs (error cases, other options) is left out and
listed. Cases with more than ``--max-points`` rows or slower than ``--max-seconds`` are left
out too, so the fixture runs in seconds. The output records the upstream commit.
"""

from __future__ import annotations

import argparse
import gzip
import json
import lzma
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from copa_dash.core.hypervolume import hypervolume

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "moocore_hv_testsuite.json.gz"
# A number, or its leading digits followed by "..." (the testsuite's prefix match).
NUMBER = re.compile(r"^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?(\.\.\.)?\s*$")


def git_show(git_dir: str, path: str) -> bytes:
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"HEAD:{path}"],
                          check=True, capture_output=True).stdout


def parse_sets(text: str) -> list[np.ndarray]:
    """Point sets of a testsuite input file: rows of numbers, blank lines between sets."""
    sets, rows = [], []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            if rows:
                sets.append(np.array(rows, dtype=float))
                rows = []
            continue
        rows.append([float(v) for v in line.split()])
    if rows:
        sets.append(np.array(rows, dtype=float))
    return sets


def parse_command(line: str, testname: str) -> tuple[list[float], bool, str, bool] | None:
    """(ref, union, input path inside hv/, xz) of a plain hypervolume command, else None."""
    if "PROGRAM" not in line or line.lstrip().startswith("echo"):
        return None
    xz = False
    if "|" in line:
        left, line = line.split("|", 1)
        words = shlex.split(left.replace("${TESTNAME}", testname))
        if words[:1] != ["xzcat"] or len(words) != 2:
            return None
        source, xz = words[1], True
    else:
        source = None
    words = shlex.split(line.replace("${TESTNAME}", testname))
    ref, union, i = None, False, 0
    while i < len(words):
        word = words[i]
        if word in ("$PROGRAM", "${PROGRAM}"):
            pass
        elif word == "-r":
            ref = [float(v) for v in words[i + 1].split()]
            i += 1
        elif word == "-u":
            union = True
        elif word == "<":
            source = words[i + 1]
            i += 1
        elif word.startswith("-"):
            return None  # another option: not covered
        else:
            source = word
        i += 1
    if ref is None or source is None:
        return None
    return ref, union, source, xz


def store(sources: list, index: dict, points: np.ndarray) -> int:
    """Index of ``points`` in ``sources`` (each distinct set is written once)."""
    key = points.tobytes() + bytes(str(points.shape), "ascii")
    if key not in index:
        index[key] = len(sources)
        sources.append(points)
    return index[key]


def matches(value: float, expected: str, rtol: float = 1e-10) -> bool:
    """``value`` equals ``expected`` to ``rtol`` relative; a value written with a trailing
    "..." (leading digits only) may also differ by one unit of its last digit."""
    target = float(expected.rstrip("."))
    slack = rtol * max(abs(target), abs(value))
    if expected.endswith("..."):
        digits = expected.rstrip(".")
        decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
        slack = max(slack, 10.0 ** -decimals)
    return abs(value - target) <= slack


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir")
    parser.add_argument("--max-seconds", type=float, default=0.5)
    parser.add_argument("--max-points", type=int, default=5000)
    args = parser.parse_args(argv)
    commit = subprocess.run(["git", "--git-dir", args.git_dir, "rev-parse", "HEAD"],
                            check=True, capture_output=True, text=True).stdout.strip()
    listing = subprocess.run(["git", "--git-dir", args.git_dir, "ls-tree", "--name-only",
                              "HEAD", "hv/"], check=True, capture_output=True, text=True)
    hypervolume([[0.5, 0.5, 0.5, 0.5]], [1, 1, 1, 1])  # compile before timing
    hypervolume(np.random.default_rng(0).random((300, 7)), np.ones(7))
    cases, left_out, sources, index = [], [], [], {}
    for test in sorted(p for p in listing.stdout.split() if p.endswith(".test")):
        name = Path(test).stem
        try:
            expected_text = git_show(args.git_dir, f"hv/{name}.exp").decode()
        except subprocess.CalledProcessError:
            left_out.append(f"{name}: no .exp")
            continue
        expected = [v.strip() for v in expected_text.split("\n") if NUMBER.match(v)]
        commands = [parse_command(line, name)
                    for line in git_show(args.git_dir, test).decode().splitlines()]
        if any(c is None for c, line in zip(commands, git_show(args.git_dir, test).decode()
                                               .splitlines()) if "PROGRAM" in line):
            left_out.append(f"{name}: a command with other options")
            continue
        runs = []
        for ref, union, source, xz in (c for c in commands if c is not None):
            path = str(Path("hv", source)).replace("hv/../", "").replace("hv/./", "hv/")
            raw = git_show(args.git_dir, path)
            sets = parse_sets((lzma.decompress(raw) if xz else raw).decode())
            ids = [store(sources, index, points) for points in sets]
            groups = [(np.vstack(sets), ids)] if union and sets else list(zip(sets, [[i] for i in ids]))
            for points, set_ids in groups:
                k = len(ref)
                if points.shape[1] != k or not (points < np.array(ref)).all(axis=1).any():
                    runs.append(None)  # the program errors on such a set: no number
                    continue
                runs.append((points, ref, set_ids))
        values = [r for r in runs if r is not None]
        if len(values) != len(expected):
            left_out.append(f"{name}: {len(values)} values for {len(expected)} expected")
            continue
        for t, ((points, ref, set_ids), exp) in enumerate(zip(values, expected)):
            if points.shape[0] > args.max_points:
                left_out.append(f"{name}#{t}: {points.shape[0]} points")
                continue
            start = time.perf_counter()
            ours = hypervolume(points, ref)
            seconds = time.perf_counter() - start
            if seconds > args.max_seconds:
                left_out.append(f"{name}#{t}: {seconds:.1f} s")
                continue
            cases.append({"name": f"{name}#{t}", "ref": ref, "expected": exp,
                          "sets": set_ids, "ours_at_vendoring": ours})
            if not matches(ours, exp):
                print(f"  MISMATCH {name}#{t}: ours {ours!r}, expected {exp}")
    used = sorted({i for case in cases for i in case["sets"]})
    renumber = {old: new for new, old in enumerate(used)}
    for case in cases:
        case["sets"] = [renumber[i] for i in case["sets"]]
    payload = {"source": "https://github.com/multi-objective/testsuite", "commit": commit,
               "licence": "MPL-2.0", "cases": cases, "left_out": left_out,
               "point_sets": [sources[i].tolist() for i in used]}
    with gzip.open(OUT, "wt", encoding="utf-8") as fh:
        json.dump(payload, fh, separators=(",", ":"))
    worst = max((abs(c["ours_at_vendoring"] - float(c["expected"].rstrip(".")))
                 / max(abs(float(c["expected"].rstrip("."))), 1e-300) for c in cases), default=0.0)
    print(f"{len(cases)} cases, {len(left_out)} left out, worst relative error {worst:.1e}; "
          f"wrote {OUT} ({OUT.stat().st_size / 1024:.0f} KiB)")
    for line in left_out:
        print("  left out:", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
