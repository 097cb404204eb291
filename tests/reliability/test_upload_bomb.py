"""A decompression bomb is refused in under a second, and the worker's memory stays bounded.

The upload runs in a fresh Python process (a worker's stand-in) so that its peak resident
size (``ru_maxrss``) measures this request alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

WORKER = textwrap.dedent("""
    import io, json, resource, sys, time
    import dash
    import pyarrow as pa, pyarrow.parquet as pq
    from dash import html
    from copa_dash.api import register_api
    from copa_dash.config import Settings

    def parquet_bomb(rows, width):
        # one long string repeated: stored once in a dictionary page, expanded per row
        # (built as a dictionary array, so making the bomb does not expand it either)
        model = pa.DictionaryArray.from_arrays(pa.array([0] * rows, pa.int32()),
                                               pa.array(["x" * width]))
        table = pa.table({"model": model,
                          "error": pa.array(range(rows), pa.float64()),
                          "speed": pa.array(range(rows), pa.float64())})
        buffer = io.BytesIO()
        pq.write_table(table, buffer, compression="zstd")
        return buffer.getvalue()

    def gzip_bomb(rows):
        import gzip, zlib
        compressor = zlib.compressobj(6, zlib.DEFLATED, 31)  # gzip framing, streamed
        chunk = b"a,1,2\\n" * 100_000
        parts = [compressor.compress(b"model,error,speed\\n")]
        parts += [compressor.compress(chunk) for _ in range(rows // 100_000)]
        return b"".join(parts) + compressor.flush()

    app = dash.Dash(__name__)
    app.layout = html.Div()
    register_api(app.server, Settings(data_dir=sys.argv[1] + "/data",
                                      cache_dir=sys.argv[1] + "/cache"))
    client = app.server.test_client()
    roles = json.dumps({"id": "model", "objectives": [{"name": "error", "direction": "min"},
                                                      {"name": "speed", "direction": "max"}]})
    def post(data, name):
        return client.post("/api/datasets", data={"file": (io.BytesIO(data), name),
                                                  "roles": roles},
                           content_type="multipart/form-data")
    assert post(b"model,error,speed\\na,1,2\\nb,2,1\\n", "warm.csv").status_code == 201
    results = {}
    for kind in ("parquet", "gzip"):
        data = parquet_bomb(20_000, 200_000) if kind == "parquet" else gzip_bomb(12_000_000)
        baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        # CPU time, not wall: the bound is on the work done (the bomb is not expanded),
        # and a loaded machine stretches wall time, not the work
        start = time.process_time()
        answer = post(data, "bomb." + kind.replace("gzip", "csv.gz"))
        elapsed = time.process_time() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        results[kind] = {"status": answer.status_code, "error": answer.get_json()["error"],
                         "cpu_seconds": elapsed, "file_bytes": len(data),
                         "growth_bytes": peak - baseline}
        del data
    print(json.dumps(results))
""")


@pytest.fixture(scope="module")
def bombs(tmp_path_factory):
    """Both bombs posted by one fresh process (one interpreter start for the two)."""
    env = dict(os.environ, PYTHONPATH=str(REPO), COPA_MAX_UPLOAD_MEMORY_MB="")
    done = subprocess.run([sys.executable, "-c", WORKER, str(tmp_path_factory.mktemp("bomb"))],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("kind, status, bound_mb", [("parquet", 413, 64), ("gzip", 400, 128)])
def test_a_bomb_is_refused_fast_with_bounded_memory(bombs, kind, status, bound_mb):
    result = bombs[kind]
    assert result["status"] == status, result
    assert result["cpu_seconds"] < 1.0, result
    if kind == "parquet":  # 4 GB of text described in a few kilobytes
        assert "COPA_MAX_UPLOAD_MEMORY_MB" in result["error"]
        assert result["file_bytes"] < 200_000
    else:  # 72 MB of CSV in 0.1 MB: decompression stops at 512 MB / TEXT_FACTOR
        assert "decompressed, the file is over 56.9 MiB" in result["error"]
    # the file itself is in memory a few times (request body, form parse, bytes), and a
    # gzip's decompressed bytes up to their bound; nothing of the gigabytes described
    assert result["growth_bytes"] < bound_mb * 2**20 + 4 * result["file_bytes"], result
