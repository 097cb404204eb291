"""The deployment path: ``gunicorn app:server`` with 2 workers sharing the store.

An upload answered by one worker is served by both (their pids are in the access log),
and survives a restart of gunicorn.
"""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from benchmarks._app import free_port
from benchmarks._gunicorn import GunicornServer

requests = pytest.importorskip("requests")
pytest.importorskip("gunicorn")

pytestmark = pytest.mark.slow

BOOT_SECONDS = 120


class Gunicorn(GunicornServer):
    """``gunicorn app:server`` with 2 workers on ``port``, the answering worker's pid in every
    access-log line (:class:`benchmarks._gunicorn.GunicornServer`)."""

    def __init__(self, tmp_path: Path, port: int, name: str):
        super().__init__(tmp_path, name=name, port=port,
                         args=["--access-logformat", "worker=%(p)s %(m)s %(U)s %(s)s"],
                         env={"COPA_HOST": "127.0.0.1", "COPA_WORKERS": "2",
                              "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR",
                                                                str(tmp_path / "numba"))})

    def wait_ready(self, seconds: float = BOOT_SECONDS) -> Gunicorn:
        return super().wait_ready(seconds)

    def text(self, chars: int = 5000) -> str:
        return super().text(chars)

    def worker_pids(self, path: str) -> set[str]:
        pattern = re.compile(rf"worker=<?(\d+)>? GET {re.escape(path)} 200")
        return set(pattern.findall(self.text()))


@pytest.fixture
def servers(tmp_path):
    started = []

    def start(name: str) -> Gunicorn:
        server = Gunicorn(tmp_path, free_port(), name)
        started.append(server)
        server.wait_ready()
        return server

    yield start
    for server in started:
        server.stop()


def make_csv(n_rows: int = 5_000) -> bytes:
    rng = np.random.default_rng(5)
    lines = ["model,error,latency,family"]
    lines += [f"m{i},{rng.integers(0, 100) / 10},{rng.integers(1, 50)},=f{i % 3}"
              for i in range(n_rows)]
    return ("\n".join(lines) + "\n").encode()


ROLES = ('{"id": "model", "objectives": [{"name": "error", "direction": "min"}, '
         '{"name": "latency", "direction": "min"}], "metadata": ["family"]}')


def test_two_workers_share_uploads_across_a_restart(servers):
    first = servers("first")
    response = requests.post(first.url + "/api/datasets", timeout=60,
                             files={"file": ("runs.csv", make_csv(), "text/csv")},
                             data={"roles": ROLES, "name": "runs", "shared": "true"})
    assert response.status_code == 201, response.text
    dataset_id = response.json()["id"]
    answer = response.json()
    # "view": the one default view the upload opens on (services/default_view.py)
    assert {k: v for k, v in answer.items() if k != "view"} == {
        "id": dataset_id, "name": "runs", "n_rows": 5_000, "owner_token": answer["owner_token"]}
    assert answer["view"]["objectives"]

    csv_path = f"/api/datasets/{dataset_id}/csv"

    def fetch(_):
        answer = requests.get(first.url + csv_path, timeout=60)
        return answer.status_code, answer.content

    with ThreadPoolExecutor(max_workers=6) as pool:
        for _ in range(10):  # concurrent requests keep both workers busy
            answers = list(pool.map(fetch, range(24)))
            if len(first.worker_pids(csv_path)) == 2:
                break
    assert {status for status, _ in answers} == {200}
    assert len({content for _, content in answers}) == 1
    body = answers[0][1].decode()
    assert body.splitlines()[1].endswith(",'=f0")  # escaped by the export
    assert len(first.worker_pids(csv_path)) == 2, first.text()

    first.stop()
    second = servers("second")
    info = requests.get(f"{second.url}/api/datasets/{dataset_id}", timeout=30)
    assert info.status_code == 200 and info.json()["n_rows"] == 5_000
    again = requests.get(second.url + csv_path, timeout=60)
    assert again.status_code == 200 and again.content == answers[0][1]
    assert requests.get(second.url + "/healthz", timeout=10).json()["datasets"] == 1
    listed = requests.get(second.url + "/api/datasets", timeout=30).json()["datasets"]
    assert [d["id"] for d in listed] == [dataset_id]
