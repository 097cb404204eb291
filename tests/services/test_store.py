"""DatasetStore: content ids, round trips, strict ids, metadata, atomic writes, and
several processes writing at once."""

from __future__ import annotations

import json
import multiprocessing
import time

import numpy as np
import pandas as pd
import pytest

from copa_dash.core.errors import InvalidInputError
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import store as store_module
from copa_dash.services.store import DatasetNotFoundError, DatasetStore, content_id

ROLES = Roles("model", (Objective("error", "min"), Objective("speed", "max")),
              metadata=("family",))


def make_frame(n: int = 20, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "model": [f"m{i}" for i in range(n)],
        "error": rng.integers(0, 5, n).astype(float),  # ties on purpose
        "speed": rng.integers(0, 5, n).astype(float),
        "family": rng.choice(["cnn", "=vit", "mlp"], n),
    })


def files(root) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name != ".metadata.lock")


@pytest.fixture
def store(tmp_path):
    return DatasetStore(tmp_path / "store")


def test_save_load_round_trip(store):
    frame = make_frame()
    dataset_id = store.save(frame, ROLES, name="my table")
    assert len(dataset_id) == 64 and set(dataset_id) <= set("0123456789abcdef")
    table = store.load(dataset_id)
    assert table.roles == ROLES
    pd.testing.assert_frame_equal(table.frame.reset_index(drop=True), frame,
                                  check_dtype=False)
    info = store.info(dataset_id)
    assert info["id"] == dataset_id and info["name"] == "my table"
    assert info["n_rows"] == 20 and info["columns"] == list(frame.columns)
    assert info["shared"] is False and Roles.from_dict(info["roles"]) == ROLES


def test_a_table_read_again_comes_from_memory_until_it_is_deleted(store, tmp_path):
    dataset_id = store.save(make_frame(), ROLES)
    first = store.load(dataset_id)
    assert store.load(dataset_id) is first                       # not read from Parquet again
    assert DatasetStore(tmp_path / "store").load(dataset_id) is first  # another instance, same file
    copy = first.frame
    copy.loc[0, "error"] = 99.0                                  # a caller's copy, not the table
    assert copy.loc[0, "error"] == 99.0 and store.load(dataset_id).frame.loc[0, "error"] != 99.0
    store.delete(dataset_id)
    with pytest.raises(DatasetNotFoundError):
        store.load(dataset_id)
    assert store.save(make_frame(), ROLES) == dataset_id          # saved anew: read anew
    assert store.load(dataset_id) is not first


def test_same_content_twice_is_one_dataset_written_once(store):
    first = store.save(make_frame(), ROLES, name="first")
    paths = [store.root / f"{first}.parquet", store.root / f"{first}.json"]
    stamps = [p.stat().st_mtime_ns for p in paths]
    inodes = [p.stat().st_ino for p in paths]
    second = store.save(make_frame(), ROLES, name="second", shared=True)
    assert second == first
    assert [p.stat().st_mtime_ns for p in paths] == stamps
    assert [p.stat().st_ino for p in paths] == inodes
    assert store.info(first)["name"] == "first" and store.count() == 1


@pytest.mark.parametrize("change", ["value", "row order", "column order", "direction",
                                    "metadata role", "column name", "text value"])
def test_id_depends_on_content_and_roles(store, change):
    frame, roles = make_frame(), ROLES
    base = store.save(frame, roles)
    if change == "value":
        frame = frame.copy()
        frame.loc[3, "error"] += 0.5
    elif change == "row order":
        frame = frame.iloc[::-1].reset_index(drop=True)
    elif change == "column order":
        frame = frame[["model", "speed", "error", "family"]]
    elif change == "direction":
        roles = Roles("model", (Objective("error", "max"), Objective("speed", "max")),
                      metadata=("family",))
    elif change == "metadata role":
        roles = Roles("model", ROLES.objectives)
    elif change == "column name":
        frame = frame.rename(columns={"family": "kind"})
        roles = Roles("model", ROLES.objectives, metadata=("kind",))
    else:
        frame = frame.assign(family=frame["family"].where(frame.index != 0, "other"))
    assert store.save(frame, roles) != base


def test_content_id_is_unambiguous_and_ignores_the_index():
    a = pd.DataFrame({"x": ["ab", "c"], "y": [1.0, np.nan]})
    b = pd.DataFrame({"x": ["a", "bc"], "y": [1.0, np.nan]})
    assert content_id(a, ROLES) != content_id(b, ROLES)
    nan_variant = a.assign(y=np.array([1.0, -np.nan]))
    assert content_id(nan_variant, ROLES) == content_id(a, ROLES)
    assert content_id(a.set_axis([5, 9]), ROLES) == content_id(a, ROLES)
    missing = pd.DataFrame({"x": ["ab", None], "y": [1.0, np.nan]})
    as_text = pd.DataFrame({"x": ["ab", "None"], "y": [1.0, np.nan]})
    assert content_id(missing, ROLES) != content_id(as_text, ROLES)


@pytest.mark.parametrize("bad", ["../../etc/passwd", "A" * 64, "a" * 63, "a" * 65,
                                 "g" * 64, "a" * 63 + "/", "", None, 12, "a" * 64 + "\n"])
def test_malformed_ids_are_refused_before_any_path_is_built(store, bad):
    for call in (store.load, store.info, store.delete,
                 lambda i: store.rename(i, "x"), lambda i: store.set_shared(i, True)):
        with pytest.raises(InvalidInputError, match="64 lower-case hexadecimal"):
            call(bad)
    assert store.exists(bad) is False


def test_unknown_id_is_not_found(store):
    with pytest.raises(DatasetNotFoundError, match="no dataset has the id"):
        store.load("0" * 64)
    with pytest.raises(DatasetNotFoundError):
        store.delete("0" * 64)
    assert issubclass(DatasetNotFoundError, InvalidInputError)


def test_invalid_table_is_refused_and_nothing_written(store):
    with pytest.raises(InvalidInputError, match="speed"):
        store.save(make_frame().drop(columns="speed"), ROLES)
    assert files(store.root) == []


def test_list_rename_share_delete(store):
    a = store.save(make_frame(seed=1), ROLES, name="  spaced \n name ")
    b = store.save(make_frame(seed=2), ROLES, shared=True)
    assert store.info(a)["name"] == "spaced name"
    assert {e["id"] for e in store.list()} == {a, b}
    assert [e["id"] for e in store.list(shared_only=True)] == [b]
    assert store.rename(a, "renamed")["name"] == "renamed"
    store.set_shared(a, True)
    assert {e["id"] for e in store.list(shared_only=True)} == {a, b}
    store.set_shared(b, False)
    assert [e["id"] for e in store.list(shared_only=True)] == [a]
    with pytest.raises(InvalidInputError, match="'shared'"):
        store.set_shared(a, "yes")
    with pytest.raises(InvalidInputError, match="at most 200"):
        store.rename(a, "x" * 201)
    store.delete(b)
    assert [e["id"] for e in store.list()] == [a] and store.count() == 1
    assert not store.exists(b) and files(store.root) == [f"{a}.json", f"{a}.parquet"]


def test_failed_table_write_leaves_nothing(store, monkeypatch):
    def broken(self, path, **kwargs):
        path.write(b"PAR1 partial")
        raise OSError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_parquet", broken)
    with pytest.raises(OSError, match="disk full"):
        store.save(make_frame(), ROLES)
    assert files(store.root) == []


def test_failed_sidecar_write_leaves_nothing(store, monkeypatch):
    real = store_module._write_atomically

    def fail_on_sidecar(target, write):
        if target.suffix == ".json":
            def partial(handle):
                handle.write(b'{"id": ')
                raise OSError("disk full")
            return real(target, partial)
        return real(target, write)

    monkeypatch.setattr(store_module, "_write_atomically", fail_on_sidecar)
    with pytest.raises(OSError, match="disk full"):
        store.save(make_frame(), ROLES)
    assert files(store.root) == []


# ---- several processes ------------------------------------------------------------------

def _save_many(root, seeds, queue):
    store = DatasetStore(root)
    queue.put([store.save(make_frame(n=200, seed=s), ROLES, name=f"s{s}") for s in seeds])


def _read_while_writing(root, queue, rounds):
    store, seen = DatasetStore(root), set()
    for _ in range(rounds):
        for entry in store.list():
            table = store.load(entry["id"])  # a listed dataset is always complete
            assert table.n_rows == 200
            seen.add(entry["id"])
    queue.put(len(seen))


def _update_metadata(root, dataset_id, field, rounds, queue):
    # Each process changes one field and checks, a moment later, that a concurrent
    # read-modify-write of the other field did not put back a stale value.
    store, lost = DatasetStore(root), 0
    for i in range(rounds):
        if field == "name":
            value = f"name {i}"
            store.rename(dataset_id, value)
        else:
            value = i % 2 == 0
            store.set_shared(dataset_id, value)
        time.sleep(0.002)
        lost += store.info(dataset_id)[field] != value
    queue.put((field, lost))


@pytest.fixture
def fork():
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("needs fork")
    return multiprocessing.get_context("fork")


def test_concurrent_saves_from_two_processes(store, fork):
    queue = fork.Queue()
    seeds = list(range(12))
    workers = [fork.Process(target=_save_many, args=(store.root, order, queue))
               for order in (seeds, seeds[::-1])]
    reader = fork.Process(target=_read_while_writing, args=(store.root, queue, 30))
    for process in (*workers, reader):
        process.start()
    for process in (*workers, reader):
        process.join(60)
        assert process.exitcode == 0
    results = [queue.get(timeout=5) for _ in range(3)]
    id_lists = [r for r in results if isinstance(r, list)]
    assert id_lists[0] == id_lists[1][::-1] and len(set(id_lists[0])) == 12
    assert store.count() == 12
    assert not [name for name in files(store.root) if name.startswith(".tmp-")]
    for dataset_id in id_lists[0]:
        assert store.load(dataset_id).n_rows == 200


def test_concurrent_metadata_updates_lose_nothing(store, fork):
    dataset_id = store.save(make_frame(), ROLES)
    rounds, queue = 40, fork.Queue()
    processes = [fork.Process(target=_update_metadata,
                              args=(store.root, dataset_id, field, rounds, queue))
                 for field in ("name", "shared")]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
        assert process.exitcode == 0
    assert sorted(queue.get(timeout=5) for _ in processes) == [("name", 0), ("shared", 0)]
    info = json.loads((store.root / f"{dataset_id}.json").read_text())
    assert info["name"] == f"name {rounds - 1}"
    assert info["shared"] is ((rounds - 1) % 2 == 0)
    assert not [name for name in files(store.root) if name.startswith(".tmp-")]


@pytest.mark.parametrize("dtype", [object, "str", "string", "category"])
def test_text_hashing_fast_path_matches_value_by_value(dtype):
    series = pd.Series(["a", None, "bé", "", np.nan, "=x", "a"], dtype=dtype)
    fast = store_module._text_parts(series)
    slow = store_module._text_parts_by_value(series)
    assert fast[0].tolist() == slow[0].tolist() == [False, True, False, False, True,
                                                      False, False]
    assert fast[1].tolist() == slow[1].tolist() == [1, 0, 3, 0, 0, 2, 1]
    assert fast[2] == slow[2] == "abé=xa".encode()


def test_mixed_text_and_numbers_hash_value_by_value():
    mixed = pd.Series(["a", 3, None], dtype=object)
    assert store_module._text_parts(mixed)[2] == b"a3"
