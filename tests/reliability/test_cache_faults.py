"""A damaged cache is a miss, never a failed request: each kind of cache file is broken on
purpose while two workers (two cache handles on one directory) keep serving a real view."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from copa_dash.api import register_api
from copa_dash.config import Settings
from copa_dash.services import rankings
from copa_dash.services.cache import AnalysisCache, DiskBackend, get_cache, open_diskcache
from copa_dash.services.catalog import open_dataset

DATASET = "open-llm-leaderboard-v2"  # a real leaderboard: its views are stored as .val files


@pytest.fixture(scope="module")
def opened():
    return open_dataset(DATASET)


def view(opened, cache, criteria="mean,copa:1,copa:inf"):
    return rankings.rank_view(opened.table, criteria=criteria, dataset_id=opened.cache_id,
                              cache=cache)


def same(a, b) -> bool:
    return (list(a.ids) == list(b.ids) and np.array_equal(a.ranks_broken, b.ranks_broken)
            and np.allclose(a.scores, b.scores, equal_nan=True))


def workers(directory: Path):
    """Two processes' worth of cache handles on one directory (gunicorn's two workers)."""
    return [AnalysisCache(DiskBackend(directory, size_limit=2**28)) for _ in range(2)]


def value_files(directory: Path) -> list[Path]:
    return sorted(directory.rglob("*.val"))


def fill(opened, cache) -> None:
    """Entries large enough to live in .val files beside cache.db."""
    for p in ("1", "inf"):
        view(opened, cache, criteria=f"mean,copa:{p}")


@pytest.mark.parametrize("damage", ["random bytes", "truncated"])
def test_a_damaged_value_file_is_a_logged_miss_then_mended(opened, tmp_path, caplog, damage):
    directory = tmp_path / "analysis"
    first, second = workers(directory)
    expected = view(opened, None)
    fill(opened, first)
    files = value_files(directory)
    assert files, "the test needs entries stored as files"
    for path in files:
        if damage == "random bytes":
            path.write_bytes(os.urandom(path.stat().st_size))
        elif damage == "truncated":
            path.write_bytes(path.read_bytes()[: path.stat().st_size // 3])
        else:
            path.write_bytes(b"")
    for cache in (second, first, second):  # both workers, again and again
        assert same(view(opened, cache), expected)
        fill(opened, cache)
    assert second.backend.dropped + first.backend.dropped >= 1
    assert caplog.text.count("cannot be read") >= 1
    hits = second.hits
    assert same(view(opened, second), expected) and second.hits == hits + 1  # mended: a hit


@pytest.mark.parametrize("damage", ["header", "truncated"])
def test_a_damaged_cache_db_is_rebuilt_while_in_use(opened, tmp_path, caplog, damage):
    directory = tmp_path / "analysis"
    first, second = workers(directory)
    expected = view(opened, None)
    fill(opened, first)
    assert same(view(opened, second), expected)
    database = directory / "cache.db"
    size = database.stat().st_size
    with open(database, "r+b") as handle:
        if damage == "header":
            handle.write(os.urandom(100))
        elif damage == "whole file":
            handle.write(os.urandom(size))
        else:
            handle.truncate(size // 2)
            handle.seek(0)
            handle.write(os.urandom(16))
    for cache in (second, first, second):
        assert same(view(opened, cache), expected)
    assert first.health() == "ok" and second.health() == "ok"
    with sqlite3.connect(directory / "cache.db") as connection:  # a working database again
        assert connection.execute("PRAGMA quick_check").fetchone() == ("ok",)
    assert "rebuilding it empty" in caplog.text
    hits = first.hits + second.hits
    view(opened, first)
    view(opened, second)
    assert first.hits + second.hits == hits + 2  # the rebuilt cache is shared and used


def test_a_removed_cache_directory_is_recreated_and_shared(opened, tmp_path):
    directory = tmp_path / "analysis"
    first, second = workers(directory)
    expected = view(opened, None)
    fill(opened, first)
    shutil.rmtree(directory)
    assert same(view(opened, first), expected)
    hits = second.hits
    assert same(view(opened, second), expected) and second.hits == hits + 1
    assert (directory / "cache.db").exists()


def test_a_damaged_jobs_cache_starts_empty(tmp_path):
    directory = tmp_path / "jobs"
    open_diskcache(directory).set("job", "result")
    (directory / "cache.db").write_bytes(os.urandom(4096))
    cache = open_diskcache(directory)
    cache.set("job", "again")
    assert cache.get("job") == "again"


def test_healthz_reports_store_and_cache_apart(tmp_path, monkeypatch):
    import dash
    from dash import html

    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    app = dash.Dash(__name__)
    app.layout = html.Div("page")
    register_api(app.server, settings)
    client = app.server.test_client()
    assert client.get("/healthz").get_json()["cache"] == "ok"

    cache = get_cache(settings)

    def broken():
        raise OSError("disk gone")

    monkeypatch.setattr(cache.backend, "probe", broken)
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.get_json()["status"] == "degraded"
    assert (answer.get_json()["store"], answer.get_json()["cache"]) == ("ok", "degraded")

    store = app.server.extensions["copa_dash"].store
    monkeypatch.setattr(store, "count", broken)
    answer = client.get("/healthz")
    assert answer.status_code == 503 and answer.get_json()["store"] == "unavailable"


def test_a_damaged_redis_entry_is_a_miss(opened):
    fakeredis = pytest.importorskip("fakeredis")
    from copa_dash.services.cache import RedisBackend

    client = fakeredis.FakeRedis()
    cache = AnalysisCache(RedisBackend(client))
    expected = view(opened, None)
    assert same(view(opened, cache), expected)
    stored = cache.misses          # the view and the memoised columns it is built from
    assert stored >= 1 and cache.hits == 0
    for key in client.keys("copa:analysis:*"):
        client.set(key, os.urandom(64))  # another party wrote garbage
    # every damaged entry is a miss, computed again, never an error
    assert same(view(opened, cache), expected) and cache.misses == 2 * stored
    assert same(view(opened, cache), expected) and cache.hits == 1  # stored again
