"""Ownership that follows the person: behind an authenticating proxy, uploads belong to the
signed-in user (any browser, no token) and can be listed for a group; the proxy's headers
count only from COPA_TRUSTED_PROXY; without the setting, owner tokens work as before."""

from __future__ import annotations

import pytest

from copa_dash.app_factory import create_app
from copa_dash.config import Settings
from copa_dash.core.errors import InvalidInputError
from copa_dash.services.uploads import my_uploads

from .conftest import SAME_ORIGIN, upload

PROXY = "10.1.2.3"
USER, GROUPS = "X-Forwarded-User", "X-Forwarded-Groups"


@pytest.fixture
def proxied(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache",
                        trusted_proxy=(PROXY,), trusted_user_header=USER,
                        trusted_groups_header=GROUPS)
    app = create_app(settings)
    return app.server.test_client(), settings


def _as(user, groups="", address=PROXY):
    headers = {"Origin": SAME_ORIGIN, USER: user}
    if groups:
        headers[GROUPS] = groups
    return {"headers": headers, "environ_base": {"REMOTE_ADDR": address}}


def test_the_signed_in_user_owns_their_upload_from_any_browser(proxied):
    client, settings = proxied
    ana = _as("ana@team.example")
    answer = client.open("/api/datasets", method="POST", **_multipart(), **ana)
    assert answer.status_code == 201, answer.get_json()
    dataset_id = answer.get_json()["id"]
    # another browser, no owner token: the user is enough
    renamed = client.patch(f"/api/datasets/{dataset_id}", json={"name": "ana's runs"}, **ana)
    assert renamed.status_code == 200 and renamed.get_json()["name"] == "ana's runs"
    assert [i["id"] for i in my_uploads(settings, {}, user="ana@team.example")] == [dataset_id]
    assert my_uploads(settings, {}, user="bob@team.example") == []
    bob = client.delete(f"/api/datasets/{dataset_id}", **_as("bob@team.example"))
    assert bob.status_code == 403
    # the same header from anywhere but the proxy is not believed
    around = client.delete(f"/api/datasets/{dataset_id}",
                           **_as("ana@team.example", address="10.9.9.9"))
    assert around.status_code == 403
    assert client.delete(f"/api/datasets/{dataset_id}", **ana).status_code == 200


def test_an_upload_shared_with_a_group_is_listed_for_its_members_only(proxied):
    client, _ = proxied
    ana = _as("ana", groups="ml-team, staff")
    dataset_id = client.open("/api/datasets", method="POST", **_multipart(), **ana).get_json()["id"]
    assert client.patch(f"/api/datasets/{dataset_id}", json={"groups": ["ml-team"]},
                        **ana).get_json()["groups"] == ["ml-team"]

    def listed(**who):
        return [d["id"] for d in client.get("/api/datasets", **who).get_json()["datasets"]]

    assert listed(**_as("bob", groups="ml-team")) == [dataset_id]
    assert listed(**_as("carl", groups="sales")) == []
    assert listed(**_as("bob", groups="ml-team", address="10.9.9.9")) == []  # not the proxy
    assert listed(**ana) == [dataset_id]  # her own, shared or not


def test_the_user_header_needs_a_trusted_proxy():
    with pytest.raises(InvalidInputError, match="COPA_TRUSTED_PROXY"):
        Settings.from_env({"COPA_TRUSTED_USER_HEADER": USER})


def test_without_the_setting_owner_tokens_work_as_before(client):
    saved = upload(client).get_json()
    headers = {"Origin": SAME_ORIGIN, USER: "ana"}
    assert client.delete(f"/api/datasets/{saved['id']}", headers=headers).status_code == 403
    headers["X-Copa-Owner-Token"] = saved["owner_token"]
    assert client.delete(f"/api/datasets/{saved['id']}", headers=headers).status_code == 200


def _multipart():
    import io
    import json

    from .conftest import CSV, ROLES
    return {"data": {"file": (io.BytesIO(CSV), "t.csv"), "roles": json.dumps(ROLES)},
            "content_type": "multipart/form-data"}


def test_the_datasets_page_lists_an_upload_shared_with_the_users_group(proxied):
    from copa_dash.services.catalog import catalog

    client, settings = proxied
    ana = _as("ana", groups="ml-team")
    dataset_id = client.open("/api/datasets", method="POST", **_multipart(), **ana).get_json()["id"]
    client.patch(f"/api/datasets/{dataset_id}", json={"groups": ["ml-team"]}, **ana)
    assert dataset_id in [e.ref for e in catalog(settings, groups=("ml-team",))]
    assert dataset_id not in [e.ref for e in catalog(settings, groups=("sales",))]
    assert dataset_id not in [e.ref for e in catalog(settings)]
