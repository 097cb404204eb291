"""AnalysisCache: hits and misses, what the key holds, eviction by dataset, size bound,
the Redis backend (fakeredis) and its pickle-free codec."""

from __future__ import annotations

import dataclasses

import diskcache
import numpy as np
import pandas as pd
import pytest

from copa_dash.config import Settings
from copa_dash.data.schema import Objective
from copa_dash.services import codec
from copa_dash.services.cache import (
    AnalysisCache,
    DiskBackend,
    RedisBackend,
    freeze_arguments,
    get_cache,
)


class Counter:
    """A compute function that counts its calls."""

    def __init__(self, value):
        self.value, self.calls = value, 0

    def __call__(self):
        self.calls += 1
        return self.value


def _disk_cache(tmp_path, *, version="1.0", size_limit=2**26):
    return AnalysisCache(DiskBackend(tmp_path / "analysis", size_limit=size_limit),
                         version=version)


def _redis_cache(server, *, version="1.0"):
    fakeredis = pytest.importorskip("fakeredis")
    return AnalysisCache(RedisBackend(fakeredis.FakeRedis(server=server)), version=version)


@pytest.fixture(params=["disk", "redis"])
def make_cache(request, tmp_path):
    """A factory of caches sharing one backing store (directory or fake Redis server)."""
    if request.param == "disk":
        yield lambda **kw: _disk_cache(tmp_path, **kw)
    else:
        fakeredis = pytest.importorskip("fakeredis")
        server = fakeredis.FakeServer()
        yield lambda **kw: _redis_cache(server, **kw)


def test_miss_then_hit_calls_compute_once(make_cache):
    cache = make_cache()
    compute = Counter(np.arange(5.0))
    first = cache.memoize("front", "d1", {"p": 2.0}, compute)
    second = cache.memoize("front", "d1", {"p": 2.0}, compute)
    assert compute.calls == 1
    assert (cache.hits, cache.misses) == (1, 1)
    np.testing.assert_array_equal(first, second)


def test_none_is_a_value_not_a_miss(make_cache):
    cache = make_cache()
    compute = Counter(None)
    assert cache.memoize("f", "d1", {}, compute) is None
    assert cache.memoize("f", "d1", {}, compute) is None
    assert compute.calls == 1


def test_a_second_process_sees_the_entry(make_cache):
    make_cache().memoize("f", "d1", {"k": 1}, lambda: 41)
    assert make_cache().memoize("f", "d1", {"k": 1}, lambda: 0) == 41


@pytest.mark.parametrize("change", [
    {"function_name": "other"}, {"dataset_id": "d2"}, {"arguments": {"p": 3.0}},
    {"arguments": {"p": 2.0, "focus": ["a"]}}, {"arguments": {"p": 2}},
])
def test_key_holds_function_dataset_and_arguments(make_cache, change):
    cache = make_cache()
    base = {"function_name": "front", "dataset_id": "d1", "arguments": {"p": 2.0}}
    cache.memoize(**base, compute=lambda: "base")
    assert cache.memoize(**{**base, **change}, compute=lambda: "changed") == "changed"


def test_key_holds_the_core_version(make_cache):
    make_cache(version="1.0").memoize("f", "d1", {}, lambda: "old")
    assert make_cache(version="1.0").memoize("f", "d1", {}, lambda: "new") == "old"
    assert make_cache(version="1.1").memoize("f", "d1", {}, lambda: "new") == "new"


def test_default_version_is_the_package_version_and_the_cores_source(tmp_path):
    import copa_dash
    from copa_dash.services.core_version import CORE_DIR, core_version, source_hash

    cache = AnalysisCache(DiskBackend(tmp_path, size_limit=2**20))
    assert cache.version == core_version()
    assert cache.version == f"{copa_dash.__version__}+core.{source_hash(CORE_DIR)[:16]}"


def test_editing_a_core_file_changes_the_source_hash(tmp_path):
    import shutil

    from copa_dash.services.core_version import CORE_DIR, source_hash

    copy = tmp_path / "core"
    shutil.copytree(CORE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = source_hash(copy)
    assert before == source_hash(CORE_DIR)
    kernel = copy / "ranks.py"
    kernel.write_text(kernel.read_text() + "\n# a changed kernel\n")
    assert source_hash(copy) != before


def test_equivalent_arguments_share_a_key(tmp_path):
    cache = _disk_cache(tmp_path)
    key = cache.key("f", "d", {"focus": ("a", "b"), "p": 2.0, "n": 10})
    assert cache.key("f", "d", {"n": np.int64(10), "p": np.float64(2.0),
                                "focus": ["a", "b"]}) == key
    assert cache.key("f", "d", {"focus": ("b", "a"), "p": 2.0, "n": 10}) != key


def test_freeze_arguments_is_canonical_and_names_bad_arguments():
    assert freeze_arguments({"b": {2, 1}, "a": np.array([1, 2])}) == '{"a":[1,2],"b":[1,2]}'
    assert freeze_arguments({"p": float("inf")}) == '{"p":Infinity}'
    with pytest.raises(TypeError, match="'table'"):
        freeze_arguments({"table": object()})


def test_failed_compute_stores_nothing(make_cache):
    cache = make_cache()

    def fail():
        raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        cache.memoize("f", "d1", {}, fail)
    assert cache.memoize("f", "d1", {}, lambda: 7) == 7


def test_evict_dataset_drops_only_its_entries(make_cache):
    cache = make_cache()
    for name in ("a", "b", "c"):
        cache.memoize(name, "d1", {}, lambda: 1)
        cache.memoize(name, "d2", {}, lambda: 2)
    assert cache.evict_dataset("d1") == 3
    assert cache.evict_dataset("d1") == 0
    assert cache.memoize("a", "d1", {}, lambda: "recomputed") == "recomputed"
    assert cache.memoize("a", "d2", {}, lambda: "recomputed") == 2


def test_eviction_never_touches_the_dataset_store(tmp_path):
    store_dir = tmp_path / "data"
    store_dir.mkdir()
    (store_dir / ("a" * 64 + ".json")).write_text("{}")
    cache = AnalysisCache(DiskBackend(tmp_path / "cache", size_limit=2**20), version="1")
    cache.memoize("f", "a" * 64, {}, lambda: 1)
    cache.evict_dataset("a" * 64)
    cache.clear()
    assert sorted(p.name for p in store_dir.iterdir()) == ["a" * 64 + ".json"]


def test_size_bound_evicts_least_recently_used(tmp_path):
    limit = 2 * 2**20
    cache = _disk_cache(tmp_path, size_limit=limit)
    block = np.zeros(12_500)  # 100 kB each, kept as files by diskcache
    cache.memoize("keep", "d", {}, lambda: block)
    for i in range(60):  # 6 MB in all
        cache.memoize("block", "d", {"i": i}, lambda: block)
        cache.memoize("keep", "d", {}, lambda: None)  # a hit makes it most recently used
        assert cache.volume() <= limit + block.nbytes + 2**16  # culled at each write
    assert cache.memoize("block", "d", {"i": 0}, lambda: "gone") == "gone"
    assert isinstance(cache.memoize("block", "d", {"i": 59}, lambda: "gone"), np.ndarray)
    assert isinstance(cache.memoize("keep", "d", {}, lambda: "gone"), np.ndarray)
    assert cache.misses == 1 + 60 + 1 and cache.hits == 60 + 2


def test_a_failing_backend_is_bypassed(tmp_path, monkeypatch, caplog):
    cache = _disk_cache(tmp_path)

    def timeout(*args, **kwargs):
        raise diskcache.Timeout("database is locked")

    monkeypatch.setattr(cache.backend, "get", timeout)
    monkeypatch.setattr(cache.backend, "set", timeout)
    compute = Counter(3)
    assert cache.memoize("f", "d", {}, compute) == 3
    assert cache.memoize("f", "d", {}, compute) == 3
    assert compute.calls == 2
    assert "analysis cache unavailable" in caplog.text


def test_process_wide_cache_per_settings(tmp_path):
    settings = Settings(cache_dir=tmp_path / "one", cache_size_bytes=2**20)
    assert get_cache(settings) is get_cache(settings)
    assert get_cache() is get_cache(settings)
    other = get_cache(Settings(cache_dir=tmp_path / "two", cache_size_bytes=2**20))
    assert other is not get_cache(settings)
    assert (tmp_path / "two" / "analysis").is_dir()


def test_settings_with_redis_url_select_redis(monkeypatch):
    fakeredis = pytest.importorskip("fakeredis")
    import redis

    monkeypatch.setattr(redis.Redis, "from_url",
                        classmethod(lambda cls, url: fakeredis.FakeRedis()))
    cache = AnalysisCache.from_settings(Settings(redis_url="redis://localhost:6379/0"))
    assert isinstance(cache.backend, RedisBackend)


# ---- codec: what Redis stores, without pickle ------------------------------------------

@dataclasses.dataclass(frozen=True)
class _Foreign:
    x: int


def _roundtrip(value):
    return codec.decode(codec.encode(value))


@pytest.mark.parametrize("array", [
    np.array([1.5, np.nan, -np.inf]), np.arange(6, dtype=np.int32).reshape(2, 3),
    np.array([True, False]), np.array(["a", "bé"], dtype=object), np.zeros((0, 3)),
])
def test_codec_roundtrips_arrays(array):
    back = _roundtrip(array)
    assert back.dtype == array.dtype and back.shape == array.shape
    np.testing.assert_array_equal(back, array)


def test_codec_roundtrips_containers_frames_and_copa_dataclasses():
    frame = pd.DataFrame({"model": ["a", "b"], "err": [0.1, np.nan]})
    value = {"t": (1, 2.5, "x", None, True), "s": {3, 4}, 7: [np.float64(0.5)],
             "frame": frame, "series": frame["err"], "objective": Objective("err", "min")}
    back = _roundtrip(value)
    assert back["t"] == (1, 2.5, "x", None, True) and back["s"] == {3, 4}
    assert back[7] == [0.5] and isinstance(back[7][0], np.float64)
    pd.testing.assert_frame_equal(back["frame"], frame)
    pd.testing.assert_series_equal(back["series"], frame["err"])
    assert back["objective"] == Objective("err", "min")


def test_codec_refuses_what_it_cannot_rebuild_safely():
    with pytest.raises(TypeError, match="only dataclasses of copa_dash"):
        codec.encode(_Foreign(1))
    with pytest.raises(TypeError, match="object"):
        codec.encode(object())
    forged = codec.encode(Objective("err", "min")).replace(
        b"copa_dash.data.schema:Objective", b"os:system" + b" " * 22)
    with pytest.raises(ValueError, match="refusing"):
        codec.decode(forged)
    with pytest.raises(ValueError, match="not a copa-dash"):
        codec.decode(b"\x80\x04pickle")


def test_redis_values_are_not_pickled():
    fakeredis = pytest.importorskip("fakeredis")
    client = fakeredis.FakeRedis()
    cache = AnalysisCache(RedisBackend(client), version="1")
    cache.memoize("f", "d", {}, lambda: np.arange(3))
    (key,) = [k for k in client.keys("copa:analysis:*")]
    assert client.get(key).startswith(b"COPA-CODEC-1\n")
