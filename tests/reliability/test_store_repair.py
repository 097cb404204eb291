"""A damaged stored table heals: the next upload of the same table rewrites it, its owner can
delete its record, and /healthz counts damaged objects until then."""

from __future__ import annotations

import pytest

from copa_dash.app_factory import create_app
from copa_dash.config import Settings
from copa_dash.services import pending_work, store

from .conftest import CSV, SAME_ORIGIN, upload


@pytest.fixture
def fresh(tmp_path):
    app = create_app(Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache"))
    return app.server.test_client(), tmp_path / "data"


def _objects(data_dir):
    return sorted((data_dir / "objects").glob("*.parquet"))


def _truncate(path):
    """Damage a stored object on disk, as a worker that never read it sees it: the upload
    itself read the table (its first view), and this process keeps recent tables in memory."""
    for key in list(pending_work._jobs):          # the uploads' first views, still running
        pending_work.wait_for(key)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    store._recently_loaded.clear()


def test_the_next_upload_of_the_same_table_rewrites_a_damaged_object(fresh):
    client, data_dir = fresh
    first = upload(client).get_json()
    [stored] = _objects(data_dir)
    _truncate(stored)
    assert client.get(f"/api/datasets/{first['id']}/csv").status_code == 410
    health = client.get("/healthz").get_json()
    assert health["damaged_objects"] == 1 and health["status"] == "degraded"

    again = upload(client)
    assert again.status_code == 201
    second = again.get_json()
    assert client.get(f"/api/datasets/{second['id']}/csv").status_code == 200
    # one object for both records: the first link works again too
    assert _objects(data_dir) == [stored]
    assert client.get(f"/api/datasets/{first['id']}/csv").status_code == 200
    health = client.get("/healthz").get_json()
    assert health["damaged_objects"] == 0 and health["status"] == "ok"


def test_an_object_changed_in_place_counts_as_damaged_and_is_rewritten(fresh):
    client, data_dir = fresh
    upload(client)
    [stored] = _objects(data_dir)
    data = bytearray(stored.read_bytes())
    data[len(data) // 3] ^= 0xFF  # same size, one byte flipped
    stored.write_bytes(bytes(data))
    assert client.get("/healthz").get_json()["damaged_objects"] == 1
    upload(client)
    assert client.get("/healthz").get_json()["damaged_objects"] == 0


def test_the_owner_deletes_a_dataset_whose_table_is_damaged(fresh):
    client, data_dir = fresh
    saved = upload(client).get_json()
    [stored] = _objects(data_dir)
    _truncate(stored)
    answer = client.delete(f"/api/datasets/{saved['id']}",
                           headers={"X-Copa-Owner-Token": saved["owner_token"],
                                    "Origin": SAME_ORIGIN})
    assert answer.status_code == 200, answer.get_json()
    assert client.get(f"/api/datasets/{saved['id']}").status_code == 404
    assert _objects(data_dir) == []
    assert client.get("/healthz").get_json()["damaged_objects"] == 0
    assert CSV  # the same table can be uploaded again afterwards
    assert upload(client).status_code == 201


def test_the_owner_deletes_a_record_whose_text_is_damaged(fresh):
    client, data_dir = fresh
    saved = upload(client).get_json()
    record = data_dir / "records" / f"{saved['id']}.json"
    text = record.read_text()
    record.write_text(text.replace('"roles"', '"ro', 1))  # no longer JSON; the owner's hash stays
    assert client.get(f"/api/datasets/{saved['id']}").status_code == 410
    headers = {"Origin": SAME_ORIGIN}
    wrong = client.delete(f"/api/datasets/{saved['id']}",
                          headers={**headers, "X-Copa-Owner-Token": "not-the-token"})
    assert wrong.status_code == 403
    answer = client.delete(f"/api/datasets/{saved['id']}",
                           headers={**headers, "X-Copa-Owner-Token": saved["owner_token"]})
    assert answer.status_code == 200, answer.get_json()
    assert not record.exists() and _objects(data_dir) == []
