"""Two users upload the same bytes: two datasets, and neither can see or touch the other's."""

from __future__ import annotations

import json

from copa_dash.services import store as store_module
from copa_dash.services.store import DatasetStore, content_id

from .conftest import ADMIN_TOKEN, upload

TOKEN = "X-Copa-Owner-Token"


def test_two_users_same_bytes_two_private_datasets(client):
    alice = upload(client, name="alice's run").get_json()
    bob = upload(client, name="bob's run").get_json()
    assert alice["id"] != bob["id"] and alice["owner_token"] != bob["owner_token"]
    assert len(alice["id"]) == 32 and int(alice["id"], 16) >= 0  # 128 random bits

    # bob sees nothing of alice: not her name, not her upload time, not her id
    listing = client.get("/api/datasets").get_json()["datasets"]
    assert alice["id"] not in {d["id"] for d in listing}
    bob_info = client.get(f"/api/datasets/{bob['id']}").get_json()
    assert bob_info["name"] == "bob's run" and alice["id"] not in json.dumps(bob_info)

    # bob cannot delete, rename or share alice's dataset, even knowing its link
    for method, kwargs in (("delete", {}), ("patch", {"json": {"name": "mine"}}),
                           ("patch", {"json": {"shared": True}})):
        for headers in ({}, {TOKEN: bob["owner_token"]}, {TOKEN: "guess"}):
            answer = getattr(client, method)(f"/api/datasets/{alice['id']}", headers=headers,
                                             **kwargs)
            assert answer.status_code == 403, (method, headers)
            assert "owner token" in answer.get_json()["error"]
    assert client.get(f"/api/datasets/{alice['id']}").get_json()["name"] == "alice's run"

    # alice can
    renamed = client.patch(f"/api/datasets/{alice['id']}", json={"name": "final"},
                           headers={TOKEN: alice["owner_token"]})
    assert renamed.status_code == 200 and renamed.get_json()["name"] == "final"
    gone = client.delete(f"/api/datasets/{alice['id']}", headers={TOKEN: alice["owner_token"]})
    assert gone.get_json() == {"deleted": alice["id"]}
    assert client.get(f"/api/datasets/{alice['id']}").status_code == 404
    # bob's copy of the same bytes is untouched
    assert client.get(f"/api/datasets/{bob['id']}/csv").status_code == 200
    assert client.delete(f"/api/datasets/{bob['id']}",
                         headers={TOKEN: ADMIN_TOKEN}).status_code == 200  # the admin may


def test_sharing_lists_a_dataset_and_unsharing_hides_it(client):
    mine = upload(client, b"model,error,speed\nx,1,2\ny,2,1\n").get_json()
    headers = {TOKEN: mine["owner_token"]}
    assert client.patch(f"/api/datasets/{mine['id']}", json={"shared": True},
                        headers=headers).get_json()["shared"] is True
    assert mine["id"] in {d["id"] for d in client.get("/api/datasets").get_json()["datasets"]}
    client.patch(f"/api/datasets/{mine['id']}", json={"shared": False}, headers=headers)
    assert mine["id"] not in {d["id"]
                              for d in client.get("/api/datasets").get_json()["datasets"]}
    bad = client.patch(f"/api/datasets/{mine['id']}", json={"owner": "me"}, headers=headers)
    assert bad.status_code == 400 and '"name"' in bad.get_json()["error"]


def test_datasets_stored_before_ownership_keep_working_and_only_the_admin_deletes(
        tmp_path, monkeypatch):
    import dash
    import pandas as pd
    from dash import html

    from copa_dash.api import register_api
    from copa_dash.config import Settings
    from copa_dash.data.schema import Roles

    from .conftest import ROLES

    data_dir = tmp_path / "data"
    data_dir.mkdir()
    frame = pd.DataFrame({"model": ["a", "b"], "error": [0.1, 0.2], "speed": [3.0, 1.0]})
    roles = Roles.from_dict(ROLES)
    old_id = content_id(frame, roles)
    frame.to_parquet(data_dir / f"{old_id}.parquet", index=False)
    (data_dir / f"{old_id}.json").write_text(json.dumps({
        "format": 1, "id": old_id, "name": "from last year", "shared": True,
        "created": "2025-01-01T00:00:00+00:00", "n_rows": 2,
        "columns": ["model", "error", "speed"], "roles": roles.to_dict()}))
    monkeypatch.setattr(store_module, "_migrated", set())
    app = dash.Dash(__name__)
    app.layout = html.Div("page")
    register_api(app.server, Settings(data_dir=data_dir, cache_dir=tmp_path / "cache",
                                      admin_token=ADMIN_TOKEN))
    client = app.server.test_client()
    assert client.get(f"/api/datasets/{old_id}").get_json()["name"] == "from last year"
    assert client.get(f"/api/datasets/{old_id}/csv").status_code == 200
    assert [d["id"] for d in client.get("/api/datasets").get_json()["datasets"]] == [old_id]
    assert client.delete(f"/api/datasets/{old_id}").status_code == 403
    assert client.delete(f"/api/datasets/{old_id}", headers={TOKEN: ADMIN_TOKEN}).status_code == 200
    assert DatasetStore(data_dir).count() == 0 and not (data_dir / f"{old_id}.json").exists()
