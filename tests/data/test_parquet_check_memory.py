"""The Parquet size check reads sizes from the footer: a 23 KB file of plain-encoded text
that expands to 200 MB is refused without the check itself growing the process (it grew a
worker by 460 MB before). Measured in a fresh interpreter: the peak of Arrow's memory pool
and the growth of the peak RSS (the check before this change: 112 MB of RSS, run by hand)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = r"""
import json, resource, sys
import pyarrow.parquet  # imported before the first reading of RSS, as in a worker
from copa_dash.core.errors import InvalidInputError
from copa_dash.data.io import Limits
from copa_dash.data.read_limits import check_before_expanding
data = open(sys.argv[1], "rb").read()
import pyarrow as pa
pool = pa.default_memory_pool()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
try:
    check_before_expanding(data, "parquet", "plain.parquet", Limits())
    error = None
except InvalidInputError as exc:
    error = str(exc)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"bytes": len(data), "growth": after - before, "error": error,
                  "arrow_peak": pool.max_memory()}))
"""


def _plain_parquet(path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({"model": [f"m{i}" for i in range(2000)],
                      "note": ["a" * 100_000] * 2000, "acc": list(range(2000))})
    pq.write_table(table, path, use_dictionary=False, compression="zstd")


def test_plain_encoded_text_is_sized_from_the_footer(tmp_path):
    path = tmp_path / "plain.parquet"
    _plain_parquet(path)
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(path)], capture_output=True, text=True,
                         check=True, timeout=120, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["bytes"] < 30_000
    assert result["error"] and "memory" in result["error"], result
    # Arrow's own peak allocation (its pool) and the process's peak RSS
    assert result["arrow_peak"] < 8 * 2**20, result
    assert result["growth"] < 40 * 2**20, result
