"""The smaller faults: every request path answers 4xx for bad input, never 500."""

from __future__ import annotations

import io

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from copa_dash.services import store as store_module

from .conftest import upload


def store_of(client):
    return client.application.extensions["copa_dash"].store


def test_one_damaged_record_does_not_break_the_listing(client, caplog):
    good = upload(client, shared="true", name="good").get_json()
    bad = upload(client, b"model,error,speed\nq,1,1\nr,2,0\n", shared="true").get_json()
    store = store_of(client)
    (store.root / "records" / f"{bad['id']}.json").write_bytes(b"\x00\xff{broken")
    answer = client.get("/api/datasets")
    assert answer.status_code == 200
    ids = {d["id"] for d in answer.get_json()["datasets"]}
    assert good["id"] in ids and bad["id"] not in ids
    opened = client.get(f"/api/datasets/{bad['id']}")
    assert opened.status_code == 410 and bad["id"] in opened.get_json()["error"]
    assert "cannot be read" in caplog.text


def test_a_truncated_table_gives_410_naming_the_dataset(client):
    mine = upload(client, b"model,error,speed\nk,1,1\nl,2,0\nm,3,4\n", name="nightly").get_json()
    store = store_of(client)
    record = store._read_record(mine["id"])
    path = store.root / "objects" / f"{record['object']}.parquet"
    # the upload's first view is prepared in the background: let it end (or take it over)
    # before the damage, so it cannot put the table back in this process's memory after it
    from copa_dash.services import pending_work

    pending_work.wait_for(mine["id"])
    path.write_bytes(path.read_bytes()[:40])
    store_module._recently_loaded.clear()
    answer = client.get(f"/api/datasets/{mine['id']}/csv")
    assert answer.status_code == 410
    assert "'nightly'" in answer.get_json()["error"] and "upload it again" in answer.get_json()[
        "error"]


@pytest.mark.parametrize("roles", ["[" * 50_000, '{"id": ' + "[" * 5_000 + "]" * 5_000 + "}"])
def test_deeply_nested_roles_are_a_400(client, roles):
    answer = upload(client, roles=roles)
    assert answer.status_code == 400 and "levels deep" in answer.get_json()["error"]


def test_deeply_nested_patch_body_is_a_400(client):
    mine = upload(client).get_json()
    answer = client.patch(f"/api/datasets/{mine['id']}", data="[" * 50_000,
                          headers={"X-Copa-Owner-Token": mine["owner_token"]},
                          content_type="application/json")
    assert answer.status_code == 400


@pytest.mark.parametrize("path", [
    "/_dash-component-suites/../../app.py", "/_dash-component-suites/dash/../../../app.py",
    "/_dash-component-suites/nolib/x.js", "/assets/../app.py", "/api/datasets/..%2f..%2fapp",
])
def test_path_tricks_are_4xx(client, path):
    answer = client.get(path)
    assert 400 <= answer.status_code < 500, (path, answer.status_code)
    assert b"Traceback" not in answer.data


def test_names_lose_nul_and_terminal_escapes(client):
    answer = upload(client, name="bench\x00mark \x1b[2J\x1b[31mred\x1b[0m\r\nrun")
    assert answer.get_json()["name"] == "bench mark red run"
    from_file = upload(client, filename="ev\x1b]0;title\x07il.csv").get_json()
    assert from_file["name"] == "evil"  # the file name without its extension


def test_a_five_megabyte_cell_gets_a_plain_message(client):
    content = b"model,error,speed,note\na,1,2," + b"x" * (5 * 2**20) + b"\nb,2,1,short\n"
    answer = upload(client, content)
    assert answer.status_code == 400
    message = answer.get_json()["error"]
    assert "line 2 is 5.0 MB long" in message and "straddling" not in message


def test_a_parquet_cell_of_five_megabytes_gets_a_plain_message(client):
    table = pa.table({"model": ["a", "b"], "error": [1.0, 2.0], "speed": [2.0, 1.0],
                      "note": ["x" * (5 * 2**20), "short"]})
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    answer = upload(client, buffer.getvalue(), filename="t.parquet")
    assert answer.status_code == 400 and "column 'note' has a cell of 5.0 MB" in answer.get_json()[
        "error"]
