"""One report job, as the page runs it (a process forked from the server), with and without
the server's prime (:func:`copa_dash.ui.common.report_row.prime_reports`), interleaved.

Two server processes are started (``create_app`` and the kernels' warm-up, as a served app
after its first start); one of them then writes the small prime report. Each round asks
both, in alternating order, to fork a child that writes the Explore page's HTML report of
the dataset (``report_file``, the job's body) and to say the child's wall and CPU seconds
and a digest of the report (its time stamp left out), checked equal on both sides. The
first round is the view's first report (its analysis not cached yet), the later ones warm.

    python benchmarks/bench_report_job_ab.py [--dataset decodingtrust] [--rounds 6]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._harness import load_line
from benchmarks._revision_ab import ROOT, round_order

SERVER = r"""
import hashlib, json, os, re, sys, time
from pathlib import Path
from copa_dash.app_factory import create_app
from copa_dash.config import Settings
from copa_dash.services.warmup import warm_up_kernels
from copa_dash.ui.common.report_row import prime_reports
from copa_dash.ui.features.explore.report_panel import report_file
root = Path(sys.argv[1])
settings = Settings(data_dir=root / "data", cache_dir=root / "cache")
app = create_app(settings)
warm_up_kernels()
if sys.argv[2] == "primed":
    prime_reports(settings)
print("ready", flush=True)
for line in sys.stdin:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        wall, cpu = time.perf_counter(), time.process_time()
        with app.server.app_context():
            data, _ = report_file("dataset=" + line.strip(), "html")
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        text = re.sub(rb"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d)?[^<\"]*", b"", data)
        os.write(write, json.dumps({"wall": wall, "cpu": cpu, "bytes": len(data),
                                    "digest": hashlib.sha1(text).hexdigest()}).encode())
        os._exit(0)
    os.close(write)
    answer = b""
    while chunk := os.read(read, 4096):
        answer += chunk
    os.waitpid(pid, 0)
    os.close(read)
    print(answer.decode(), flush=True)
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="decodingtrust")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args(argv)
    print(f"# report job, {args.dataset}; {load_line()}")
    state = Path(tempfile.mkdtemp(prefix="copa-report-job-"))
    sides = {name: subprocess.Popen([sys.executable, "-c", SERVER, str(state / name), name],
                                    cwd=ROOT, text=True, stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE)
             for name in ("primed", "unprimed")}
    for process in sides.values():
        assert process.stdout.readline().strip() == "ready"
    rows: dict[str, list[dict]] = {name: [] for name in sides}
    try:
        for n in range(args.rounds):
            for name in round_order(sides, n):
                sides[name].stdin.write(args.dataset + "\n")
                sides[name].stdin.flush()
                rows[name].append(json.loads(sides[name].stdout.readline()))
            a, b = rows["primed"][-1], rows["unprimed"][-1]
            same = "equal" if a["digest"] == b["digest"] else "DIFFERENT"
            print(f"round {n}: primed {a['wall']:.2f} s wall / {a['cpu']:.2f} CPU s, unprimed "
                  f"{b['wall']:.2f} / {b['cpu']:.2f}; reports {same} ({a['bytes']:,} bytes)",
                  flush=True)
    finally:
        for process in sides.values():
            process.stdin.close()
            process.wait(timeout=60)
    for name, got in rows.items():
        warm = got[1:]
        print(f"{name:>8}: first {got[0]['wall']:.2f} s / {got[0]['cpu']:.2f} CPU s; warm median "
              f"{statistics.median(r['wall'] for r in warm):.2f} s / "
              f"{statistics.median(r['cpu'] for r in warm):.2f} CPU s")
    print(f"# after: {load_line()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
