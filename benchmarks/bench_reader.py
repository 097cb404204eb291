"""Time the messy-table reader against pandas on the same bytes, interleaved in one process.

Ours: ``read_table_report`` (separator and decimal sniffed, title lines, marked numbers,
notes). Peer: ``pandas.read_csv`` told the separator and decimal mark (what a user who
knows the file would write) - the reader's rules are the overhead measured. Files: the
100,000-row table of ``bench_upload.py`` (plain), the same written the EU way (``;``,
decimal commas, ``%`` in one column), and the corpus' EU export. Both readers' numbers are
compared before a ratio is printed.

Run: ``python benchmarks/bench_reader.py [--rows 100000] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_upload import make_csv

from copa_dash.data.io import read_table_report


def eu_version(data: bytes) -> bytes:
    frame = pd.read_csv(io.BytesIO(data), keep_default_na=False)
    frame["obj0"] = [f"{v:.3f}%".replace(".", ",") for v in frame["obj0"]]
    return frame.to_csv(sep=";", decimal=",", index=False).encode()


def timed(fn):
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    plain = make_csv(args.rows)
    corpus = (Path(__file__).resolve().parents[1] / "tests/data/messy/imagenet_eu.csv").read_bytes()
    cases = {
        f"plain CSV {args.rows:,} rows": (plain, {}, "obj1"),
        f"EU CSV {args.rows:,} rows (';', ',', %)": (eu_version(plain),
                                                       {"sep": ";", "decimal": ","}, "obj1"),
        "corpus imagenet_eu.csv (114 rows)": (corpus, {"sep": ";", "decimal": ",",
                                                       "skiprows": 1, "encoding": "utf-8-sig"},
                                              "GFLOPS"),
    }
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"{args.repeat} interleaved repeats, median")
    print(f"{'file':44} {'ours wall/cpu [ms]':>20} {'pandas wall/cpu [ms]':>22} {'ratio':>6}")
    for name, (data, options, column) in cases.items():
        ours, peer = [], []
        for _ in range(args.repeat):
            # the lambdas bind this case's data and options (B023: no late binding)
            read, wall, cpu = timed(lambda d=data: read_table_report(d, filename="t.csv"))
            ours.append((wall, cpu))
            frame, wall, cpu = timed(
                lambda d=data, o=options: pd.read_csv(io.BytesIO(d), **o))
            peer.append((wall, cpu))
        for col in (column, "obj0") if "obj0" in frame else (column,):
            expected = frame[col]
            if not pd.api.types.is_numeric_dtype(expected):  # pandas leaves "0,548%" as text
                expected = expected.str.rstrip("%").str.replace(",", ".").astype(float)
            np.testing.assert_allclose(read.frame[col].to_numpy(float),
                                       expected.to_numpy(float), equal_nan=True)
        ow, oc = (statistics.median(x) * 1e3 for x in zip(*ours))
        pw, pcpu = (statistics.median(x) * 1e3 for x in zip(*peer))
        print(f"{name:44} {ow:9.1f} / {oc:7.1f} {pw:11.1f} / {pcpu:7.1f} {ow / pw:6.2f}")


if __name__ == "__main__":
    main()
