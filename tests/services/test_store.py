"""DatasetStore: records with owners over content-addressed objects, on local and memory://
filesystems; strict ids, damaged files, the migration of format 1, atomic writes, and several
processes writing at once."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import time

import numpy as np
import pandas as pd
import pytest

from copa_dash.core.errors import InvalidInputError
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import store as store_module
from copa_dash.services.store import (
    DatasetDamagedError,
    DatasetNotFoundError,
    DatasetStore,
    NotOwnerError,
    clean_name,
    content_id,
)

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
    """Every file of a local store (relative paths), without the lock file."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if p.is_file() and p.name != ".metadata.lock")


@pytest.fixture(params=["local", "memory"])
def any_store(request, tmp_path):
    if request.param == "local":
        return DatasetStore(tmp_path / "store")
    return DatasetStore(f"memory://{tmp_path.name}/store")


@pytest.fixture
def store(tmp_path):
    return DatasetStore(tmp_path / "store", admin_token="admin-secret")


def test_save_load_round_trip_on_local_and_memory_filesystems(any_store):
    frame = make_frame()
    saved = any_store.save(frame, ROLES, name="my table")
    assert len(saved.id) == 32 and set(saved.id) <= set("0123456789abcdef")
    assert saved.object_id == content_id(frame, ROLES)
    table = any_store.load(saved.id)
    assert table.roles == ROLES
    pd.testing.assert_frame_equal(table.frame.reset_index(drop=True), frame,
                                  check_dtype=False)
    info = any_store.info(saved.id)
    assert info["id"] == saved.id and info["name"] == "my table"
    assert info["n_rows"] == 20 and info["columns"] == list(frame.columns)
    assert info["shared"] is False and Roles.from_dict(info["roles"]) == ROLES
    assert "owner" not in info and "object" not in info  # nothing of the token or content
    assert any_store.list() == [info] and any_store.count() == 1
    any_store.delete(saved.id, owner_token=saved.owner_token)
    assert any_store.list() == [] and any_store.files.names("objects", ".parquet") == []


def test_a_table_read_again_comes_from_memory_until_it_is_deleted(store, tmp_path):
    saved = store.save(make_frame(), ROLES)
    first = store.load(saved.id)
    assert store.load(saved.id) is first                       # not read from Parquet again
    assert DatasetStore(tmp_path / "store").load(saved.id) is first  # another instance
    copy = first.frame
    copy.loc[0, "error"] = 99.0                                # a caller's copy, not the table
    assert copy.loc[0, "error"] == 99.0 and store.load(saved.id).frame.loc[0, "error"] != 99.0
    store.delete(saved.id, owner_token=saved.owner_token)
    with pytest.raises(DatasetNotFoundError):
        store.load(saved.id)


def test_two_uploads_of_the_same_table_are_two_records_over_one_object(store):
    first = store.save(make_frame(), ROLES, name="first")
    path = store.root / "objects" / f"{first.object_id}.parquet"
    stamp, inode = path.stat().st_mtime_ns, path.stat().st_ino
    second = store.save(make_frame(), ROLES, name="second", shared=True)
    assert second.id != first.id and second.owner_token != first.owner_token
    assert second.object_id == first.object_id
    assert (path.stat().st_mtime_ns, path.stat().st_ino) == (stamp, inode)  # written once
    assert store.info(first.id)["name"] == "first" and store.info(second.id)["name"] == "second"
    assert store.count() == 2
    # neither owner can touch the other's record
    with pytest.raises(NotOwnerError):
        store.delete(first.id, owner_token=second.owner_token)
    with pytest.raises(NotOwnerError):
        store.rename(second.id, "mine now", owner_token=first.owner_token)
    store.delete(first.id, owner_token=first.owner_token)
    assert path.exists() and store.load(second.id).n_rows == 20  # still used by the second
    store.delete(second.id, owner_token=second.owner_token)
    assert not path.exists() and files(store.root) == []


@pytest.mark.parametrize("change", ["value", "row order", "column order", "direction",
                                    "metadata role", "column name", "text value"])
def test_content_id_depends_on_content_and_roles(change):
    frame, roles = make_frame(), ROLES
    base = content_id(frame, roles)
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
    assert content_id(frame, roles) != base


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


@pytest.mark.parametrize("bad", ["../../etc/passwd", "A" * 32, "a" * 31, "a" * 33,
                                 "g" * 32, "a" * 31 + "/", "", None, 12, "a" * 32 + "\n"])
def test_malformed_ids_are_refused_before_any_path_is_built(store, bad):
    for call in (store.load, store.info, lambda i: store.delete(i, owner_token="t"),
                 lambda i: store.rename(i, "x", owner_token="t"),
                 lambda i: store.set_shared(i, True, owner_token="t")):
        with pytest.raises(InvalidInputError, match="32 \\(or 64\\) lower-case hexadecimal"):
            call(bad)
    assert store.exists(bad) is False


def test_unknown_id_is_not_found(store):
    with pytest.raises(DatasetNotFoundError, match="no dataset has the id"):
        store.load("0" * 32)
    with pytest.raises(DatasetNotFoundError):
        store.delete("0" * 32, owner_token="admin-secret")
    assert issubclass(DatasetNotFoundError, InvalidInputError)


def test_invalid_table_is_refused_and_nothing_written(store):
    with pytest.raises(InvalidInputError, match="speed"):
        store.save(make_frame().drop(columns="speed"), ROLES)
    assert files(store.root) == []


def test_list_rename_share_delete_need_the_owner_or_admin_token(store):
    a = store.save(make_frame(seed=1), ROLES, name="  spaced \n name ")
    b = store.save(make_frame(seed=2), ROLES, shared=True)
    assert store.info(a.id)["name"] == "spaced name"
    assert {e["id"] for e in store.list()} == {a.id, b.id}
    assert [e["id"] for e in store.list(shared_only=True)] == [b.id]
    for token in (None, "", "wrong", b.owner_token, a.owner_token[:-1]):
        with pytest.raises(NotOwnerError, match="owner token"):
            store.rename(a.id, "stolen", owner_token=token)
    assert store.rename(a.id, "renamed", owner_token=a.owner_token)["name"] == "renamed"
    store.set_shared(a.id, True, owner_token=a.owner_token)
    assert {e["id"] for e in store.list(shared_only=True)} == {a.id, b.id}
    store.set_shared(b.id, False, owner_token="admin-secret")  # the admin may
    assert [e["id"] for e in store.list(shared_only=True)] == [a.id]
    with pytest.raises(InvalidInputError, match="'shared'"):
        store.set_shared(a.id, "yes", owner_token=a.owner_token)
    with pytest.raises(InvalidInputError, match="at most 200"):
        store.rename(a.id, "x" * 201, owner_token=a.owner_token)
    store.delete(b.id, owner_token=b.owner_token)
    assert [e["id"] for e in store.list()] == [a.id] and store.count() == 1
    assert not store.exists(b.id)
    assert files(store.root) == [f"objects/{a.object_id}.parquet",
                                 f"objects/{a.object_id}.sha256", f"records/{a.id}.json"]


def test_the_owner_token_is_kept_only_as_its_hash(store):
    saved = store.save(make_frame(), ROLES)
    text = (store.root / "records" / f"{saved.id}.json").read_text()
    assert saved.owner_token not in text
    assert json.loads(text)["owner"] == hashlib.sha256(saved.owner_token.encode()).hexdigest()


@pytest.mark.parametrize("raw, shown", [
    ("plain name", "plain name"),
    ("nul\x00byte", "nul byte"),
    ("\x1b[2J\x1b[31mred\x1b[0m", "red"),
    ("title\x1b]0;pwned\x07 end", "title end"),
    ("bidi\u202egnp.exe", "bidi gnp.exe"),
    ("tabs\tand\r\nlines", "tabs and lines"),
    ("\x00\x01", None),
])
def test_names_lose_control_characters_and_terminal_escapes(raw, shown):
    assert clean_name(raw) == shown


def test_a_damaged_record_is_skipped_in_the_listing_and_named_when_opened(store, caplog):
    good = store.save(make_frame(seed=1), ROLES, shared=True)
    bad = store.save(make_frame(seed=2), ROLES, shared=True)
    (store.root / "records" / f"{bad.id}.json").write_bytes(b"\x00{not json")
    assert [e["id"] for e in store.list()] == [good.id]
    with pytest.raises(DatasetDamagedError, match=bad.id):
        store.load(bad.id)
    assert "cannot be read" in caplog.text


def test_a_damaged_table_is_named_not_a_crash(store):
    saved = store.save(make_frame(), ROLES, name="leaderboard")
    path = store.root / "objects" / f"{saved.object_id}.parquet"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])  # truncated
    store_module._recently_loaded.clear()
    with pytest.raises(DatasetDamagedError, match="'leaderboard' is damaged"):
        store.load(saved.id)
    path.unlink()
    with pytest.raises(DatasetDamagedError, match="'leaderboard' is missing"):
        store.load(saved.id)


def _write_format_1(root, frame, roles, *, name, shared):
    """A dataset exactly as version 1 of the store wrote it (sidecar + table in the root)."""
    root.mkdir(parents=True, exist_ok=True)
    old_id = content_id(frame, roles)
    frame.to_parquet(root / f"{old_id}.parquet", index=False)
    (root / f"{old_id}.json").write_text(json.dumps({
        "format": 1, "id": old_id, "name": name, "shared": shared,
        "created": "2026-01-02T03:04:05+00:00", "n_rows": len(frame),
        "columns": list(frame.columns), "roles": roles.to_dict()}))
    return old_id


def test_datasets_of_format_1_are_migrated_and_keep_their_links(tmp_path, monkeypatch):
    root = tmp_path / "old-store"
    old_shared = _write_format_1(root, make_frame(seed=1), ROLES, name="old", shared=True)
    old_private = _write_format_1(root, make_frame(seed=2), ROLES, name="p", shared=False)
    monkeypatch.setattr(store_module, "_migrated", set())
    store = DatasetStore(root, admin_token="admin-secret")
    assert store.load(old_shared).n_rows == 20 and store.info(old_private)["name"] == "p"
    assert [e["id"] for e in store.list(shared_only=True)] == [old_shared]
    assert store.info(old_shared)["created"] == "2026-01-02T03:04:05+00:00"
    assert sorted(files(root)) == sorted(
        [f"objects/{old_shared}.parquet", f"objects/{old_private}.parquet",
         f"objects/{old_shared}.sha256", f"objects/{old_private}.sha256",
         f"records/{old_shared}.json", f"records/{old_private}.json"])
    # nobody holds an owner token for them: only the admin can delete
    with pytest.raises(NotOwnerError):
        store.delete(old_shared, owner_token="")
    store.delete(old_shared, owner_token="admin-secret")
    assert not store.exists(old_shared)
    # a new upload of the same table is a new record over the same object
    again = store.save(make_frame(seed=2), ROLES)
    assert again.object_id == old_private and again.id != old_private
    monkeypatch.setattr(store_module, "_migrated", set())
    assert DatasetStore(root).count() == 2  # migrating again changes nothing


def test_failed_table_write_leaves_nothing(store, monkeypatch):
    def broken(self, path, **kwargs):
        path.write(b"PAR1 partial")
        raise OSError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_parquet", broken)
    with pytest.raises(OSError, match="disk full"):
        store.save(make_frame(), ROLES)
    assert files(store.root) == []


def test_failed_record_write_leaves_nothing(store, monkeypatch):
    real = store.files.write

    def fail_on_record(path, data):
        if path.endswith(".json"):
            raise OSError("disk full")
        return real(path, data)

    monkeypatch.setattr(store.files, "write", fail_on_record)
    with pytest.raises(OSError, match="disk full"):
        store.save(make_frame(), ROLES)
    assert files(store.root) == []


# ---- several processes ------------------------------------------------------------------

def _save_many(root, seeds, queue):
    store = DatasetStore(root)
    queue.put([store.save(make_frame(n=200, seed=s), ROLES, name=f"s{s}").object_id
               for s in seeds])


def _read_while_writing(root, queue, rounds):
    store, seen = DatasetStore(root), set()
    for _ in range(rounds):
        for entry in store.list():
            table = store.load(entry["id"])  # a listed dataset is always complete
            assert table.n_rows == 200
            seen.add(entry["id"])
    queue.put(len(seen))


def _update_metadata(root, dataset_id, token, field, rounds, queue):
    # Each process changes one field and checks, a moment later, that a concurrent
    # read-modify-write of the other field did not put back a stale value.
    store, lost = DatasetStore(root), 0
    for i in range(rounds):
        if field == "name":
            value = f"name {i}"
            store.rename(dataset_id, value, owner_token=token)
        else:
            value = i % 2 == 0
            store.set_shared(dataset_id, value, owner_token=token)
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
    assert store.count() == 24  # 24 records over 12 objects
    assert len(store.files.names("objects", ".parquet")) == 12
    assert not [name for name in files(store.root) if "/.tmp-" in name]
    for entry in store.list():
        assert store.load(entry["id"]).n_rows == 200


def test_concurrent_metadata_updates_lose_nothing(store, fork):
    saved = store.save(make_frame(), ROLES)
    dataset_id = saved.id
    rounds, queue = 40, fork.Queue()
    processes = [fork.Process(target=_update_metadata,
                              args=(store.root, dataset_id, saved.owner_token, field, rounds,
                                    queue))
                 for field in ("name", "shared")]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
        assert process.exitcode == 0
    assert sorted(queue.get(timeout=5) for _ in processes) == [("name", 0), ("shared", 0)]
    info = json.loads((store.root / "records" / f"{dataset_id}.json").read_text())
    assert info["name"] == f"name {rounds - 1}"
    assert info["shared"] is ((rounds - 1) % 2 == 0)
    assert not [name for name in files(store.root) if "/.tmp-" in name]


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
