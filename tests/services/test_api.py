"""The HTTP API inside a Dash app: health, upload, listing, CSV, deletion, every error
path (a 400 with its reason, 404, a generic 500) and basic auth."""

from __future__ import annotations

import base64
import csv
import io
import json
import logging

import dash
import pandas as pd
import pytest
from dash import html

from copa_dash import __version__
from copa_dash.api import FORM_OVERHEAD_BYTES, apply_auth, register_api
from copa_dash.config import Settings
from copa_dash.services.cache import get_cache
from copa_dash.services.export import safe_csv

ROLES = {"id": "model", "objectives": [{"name": "error", "direction": "min"},
                                       {"name": "speed", "direction": "max"}],
         "metadata": ["note"]}
CSV = ("model,error,speed,note\n"
       "a,0.1,3,=HYPERLINK(\"http://x\")\n"
       "b,0.2,5,plain\n"
       "c,-0.3,1,+1\n")


def make_app(tmp_path, **overrides):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache", **overrides)
    app = dash.Dash(__name__)
    app.layout = html.Div("page")
    register_api(app.server, settings)
    apply_auth(app, settings)
    return app, settings


@pytest.fixture
def client(tmp_path):
    app, _ = make_app(tmp_path)
    return app.server.test_client()


def upload(client, content=CSV, *, filename="t.csv", roles=ROLES, **fields):
    data = {"file": (io.BytesIO(content.encode() if isinstance(content, str) else content),
                     filename)}
    if roles is not None:
        data["roles"] = roles if isinstance(roles, str) else json.dumps(roles)
    data.update(fields)
    return client.post("/api/datasets", data=data, content_type="multipart/form-data")


def test_healthz_counts_datasets(client):
    from copa_dash.data.bundled import list_datasets

    assert client.get("/healthz").get_json() == {"status": "ok", "version": __version__,
                                                 "store": "ok", "cache": "ok",
                                                 "datasets": 0, "damaged_objects": 0,
                                                 "bundled_datasets": len(list_datasets())}
    assert upload(client).status_code == 201
    assert client.get("/healthz").get_json()["datasets"] == 1


def test_upload_info_list_csv_delete(client):
    response = upload(client, name="bench", shared="true")
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    dataset_id, token = body["id"], body["owner_token"]
    view = body.pop("view")  # the view the page opens it on: a quality against a cost
    assert body == {"id": dataset_id, "name": "bench", "n_rows": 3, "owner_token": token}
    assert (view["x"], view["y"], view["focus"]) == ("error", "speed", ["error"])
    assert len(dataset_id) == 32 and len(token) >= 43  # 128 and 256 random bits
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Location"] == f"/api/datasets/{dataset_id}"

    info = client.get(f"/api/datasets/{dataset_id}").get_json()
    assert info["shared"] is True and info["columns"] == ["model", "error", "speed", "note"]

    listing = client.get("/api/datasets").get_json()
    assert [d["id"] for d in listing["datasets"]] == [dataset_id]
    assert "copa-synthetic" in {b["name"] for b in listing["bundled"]}

    csv = client.get(f"/api/datasets/{dataset_id}/csv")
    assert csv.status_code == 200 and csv.mimetype == "text/csv"
    assert csv.headers["Content-Disposition"] == 'attachment; filename="bench.csv"'
    text = csv.get_data(as_text=True)
    assert ",-0.3," in text  # numbers stay numbers
    back = pd.read_csv(io.StringIO(text))
    assert back["note"].tolist() == ["'=HYPERLINK(\"http://x\")", "plain", "'+1"]

    get_cache().memoize("f", dataset_id, {}, lambda: "cached")
    assert client.delete(f"/api/datasets/{dataset_id}").status_code == 403
    assert client.delete(f"/api/datasets/{dataset_id}",
                         headers={"X-Copa-Owner-Token": token}).get_json() == {
        "deleted": dataset_id}
    assert get_cache().memoize("f", dataset_id, {}, lambda: "fresh") == "fresh"
    missing = client.get(f"/api/datasets/{dataset_id}")
    assert missing.status_code == 404 and "no dataset has the id" in missing.get_json()["error"]


def test_private_upload_is_not_listed_but_reachable_by_id(client):
    dataset_id = upload(client).get_json()["id"]
    assert client.get("/api/datasets").get_json()["datasets"] == []
    assert client.get(f"/api/datasets/{dataset_id}").status_code == 200


def test_an_upload_without_roles_takes_the_guesses_and_the_file_name(client):
    response = upload(client, "model;error;latency (ms)\na;0,1;3\nb;0,2;5\n",
                      filename="my runs.csv", roles=None)
    assert response.status_code == 201 and response.get_json()["name"] == "my runs"
    roles = client.get(f"/api/datasets/{response.get_json()['id']}").get_json()["roles"]
    assert [(o["name"], o["direction"], o["unit"]) for o in roles["objectives"]] == [
        ("error", "min", None), ("latency (ms)", "min", "ms")]



def test_same_upload_twice_gives_two_datasets(client):
    first, second = upload(client).get_json(), upload(client).get_json()
    assert first["id"] != second["id"] and first["owner_token"] != second["owner_token"]
    assert client.get("/healthz").get_json()["datasets"] == 2


@pytest.mark.parametrize("kwargs, message", [
    ({"roles": None}, "choose a direction (min or max) for 'speed'"),
    ({"roles": "{not json"}, "'roles' is not valid JSON"),
    ({"roles": "[1, 2]"}, "'roles' must be a JSON object"),
    ({"roles": {"id": "model", "objectives": []}}, "at least one objective"),
    ({"roles": {**ROLES, "objectives": [{"name": "missing", "direction": "min"}]}},
     "missing"),
    ({"roles": {**ROLES, "objectives": [{"name": "error", "direction": "up"}]}},
     "'min' or 'max'"),
    ({"roles": {**ROLES, "objectives": [{"name": "note", "direction": "min"}]}}, "note"),
    ({"shared": "maybe"}, "'shared' must be true or false"),
    ({"content": ""}, "empty"),
    ({"content": "model,error\na,1\na,2\n",
      "roles": {"id": "model", "objectives": [{"name": "error", "direction": "min"}]}},
     "'a'"),
    ({"content": b"\x89PNG\r\n\x1a\n" + b"\0" * 64, "filename": "t.csv"}, "t.csv"),
    ({"filename": "t.exe"}, "t.exe"),
    ({"name": "x" * 300}, "at most 200"),
])
def test_each_upload_error_is_a_400_with_its_reason(client, kwargs, message):
    response = upload(client, **kwargs)
    assert response.status_code == 400, response.get_json()
    assert message in response.get_json()["error"]
    assert client.get("/healthz").get_json()["datasets"] == 0


@pytest.mark.parametrize("roles, reason", [
    ("{not json", "'roles' is not valid JSON"),
    ("[1, 2]", "'roles' must be a JSON object"),
    ({"model": "id"}, "unknown"),
    ({"id": "model", "objectives": "error"}, "'objectives' must be a list"),
    ({"id": "model", "objectives": [{"name": "error"}]}, "needs 'name' and 'direction'"),
])
def test_a_malformed_roles_field_is_told_the_format_with_an_example(client, roles, reason):
    from copa_dash.api import ROLES_FORMAT

    response = upload(client, roles=roles)
    assert response.status_code == 400
    message = response.get_json()["error"]
    assert reason in message and message.endswith(ROLES_FORMAT)
    # the example in the message is itself a valid roles field for a table with its columns
    example = json.loads(ROLES_FORMAT.split("for example ", 1)[1])
    csv = "model,error,speed,family\na,1,10,x\nb,2,20,y\n"
    assert upload(client, content=csv, roles=example).status_code == 201


def test_missing_file_field(client):
    response = client.post("/api/datasets", data={"roles": json.dumps(ROLES)},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "multipart form field 'file'" in response.get_json()["error"]


def test_too_large_by_content_length_is_refused_before_reading(tmp_path):
    app, _ = make_app(tmp_path, max_upload_bytes=1000)
    read = []

    class Body(io.BytesIO):
        def read(self, *args):
            read.append(args)
            return super().read(*args)

    response = app.server.test_client().post(
        "/api/datasets", input_stream=Body(b"x" * 200_000), content_type="multipart/form-data",
        headers={"Content-Length": "200000"})
    assert response.status_code == 400
    assert "larger than the limit" in response.get_json()["error"]
    assert read == []


def test_too_large_file_is_refused(tmp_path):
    app, _ = make_app(tmp_path, max_upload_bytes=1000)
    response = upload(app.server.test_client(), CSV + "d,0.5,2,x\n" * 200)
    assert response.status_code == 400
    assert "larger than the limit of" in response.get_json()["error"]


def test_too_large_without_content_length_is_read_only_up_to_the_bound(tmp_path):
    app, _ = make_app(tmp_path, max_upload_bytes=1000)
    boundary = "b0undary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
            f"filename=\"t.csv\"\r\nContent-Type: text/csv\r\n\r\n").encode()
    body += b"x" * 1_000_000 + f"\r\n--{boundary}--\r\n".encode()

    class Counting(io.BytesIO):
        consumed = 0

        def read(self, *args):
            data = super().read(*args)
            Counting.consumed += len(data)
            return data

    response = app.server.test_client().post(
        "/api/datasets", input_stream=Counting(body), content_type=f"multipart/form-data; "
        f"boundary={boundary}", environ_overrides={"wsgi.input_terminated": True,
                                                   "CONTENT_LENGTH": ""})
    assert response.status_code == 400
    assert response.get_json()["error"] == "the upload is larger than the limit of 0.977 kB"
    assert Counting.consumed <= 1000 + FORM_OVERHEAD_BYTES + 2**16


@pytest.mark.parametrize("method, path", [
    ("get", "/api/datasets/ABC"), ("get", "/api/datasets/" + "z" * 64 + "/csv"),
    ("delete", "/api/datasets/%2e%2e"), ("get", "/api/datasets/" + "a" * 65),
])
def test_malformed_ids_are_400(client, method, path):
    response = getattr(client, method)(path)
    assert response.status_code == 400
    assert "32 (or 64) lower-case hexadecimal" in response.get_json()["error"]


@pytest.mark.parametrize("method, path", [
    ("get", "/api/datasets/" + "0" * 64), ("get", "/api/datasets/" + "0" * 64 + "/csv"),
    ("delete", "/api/datasets/" + "0" * 64),
])
def test_unknown_ids_are_404(client, method, path):
    response = getattr(client, method)(path)
    assert response.status_code == 404
    assert "no dataset has the id" in response.get_json()["error"]


def test_unexpected_errors_are_logged_and_generic(tmp_path, monkeypatch, caplog):
    app, _ = make_app(tmp_path)
    store = app.server.extensions["copa_dash"].store

    def broken(*args, **kwargs):
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr(store, "save", broken)
    with caplog.at_level(logging.ERROR, logger="copa_dash.api"):
        response = upload(app.server.test_client())
    assert response.status_code == 500
    assert "secret" not in response.get_data(as_text=True)
    assert "internal error" in response.get_json()["error"]
    assert "secret internal detail" in caplog.text and "Traceback" in caplog.text


def test_the_dash_page_still_serves(client):
    assert client.get("/").status_code == 200


# ---- authentication ---------------------------------------------------------------------

def basic(user, password):
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


@pytest.fixture
def auth_client(tmp_path):
    app, _ = make_app(tmp_path, auth_user="ana", auth_password="s3cret é")
    return app.server.test_client()


@pytest.mark.parametrize("path", ["/", "/api/datasets", "/_dash-layout",
                                  "/api/datasets/" + "0" * 64])
def test_auth_protects_everything_but_healthz(auth_client, path):
    denied = auth_client.get(path)
    assert denied.status_code == 401
    assert denied.headers["WWW-Authenticate"].startswith('Basic realm="copa-dash"')
    for headers in (basic("ana", "wrong"), basic("bob", "s3cret é"),
                    {"Authorization": "Bearer abc"}, {"Authorization": "Basic %%%"}):
        assert auth_client.get(path, headers=headers).status_code == 401
    allowed = auth_client.get(path, headers=basic("ana", "s3cret é"))
    assert allowed.status_code in (200, 404)


def test_auth_leaves_healthz_public_and_allows_uploads(auth_client):
    assert auth_client.get("/healthz").status_code == 200
    assert upload(auth_client).status_code == 401
    auth_client.environ_base.update(
        HTTP_AUTHORIZATION=basic("ana", "s3cret é")["Authorization"])
    assert upload(auth_client).status_code == 201


def test_no_auth_without_both_settings(tmp_path):
    app, _ = make_app(tmp_path, auth_user="ana")
    assert app.server.test_client().get("/api/datasets").status_code == 200


def test_safe_csv_escapes_text_and_headers_only():
    frame = pd.DataFrame({"=name": ["@SUM(A1)", "\tx", "\rx", "-x", "ok", None],
                          "value": [-1.5, 2.0, 3.0, 4.0, 5.0, 6.0]})
    text = safe_csv(frame)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == ["'=name", "value"]
    assert [r[0] for r in rows[1:]] == ["'@SUM(A1)", "'\tx", "'\rx", "'-x", "ok", ""]
    assert [r[1] for r in rows[1:]] == ["-1.5", "2.0", "3.0", "4.0", "5.0", "6.0"]
    assert frame.columns[0] == "=name" and frame.iloc[0, 0] == "@SUM(A1)"  # not mutated


def test_safe_csv_never_lets_a_carriage_return_start_a_bare_row():
    text = safe_csv(pd.DataFrame({"note": ["a\r=cmd()", "b\n@x", "c"], "v": [1, 2, 3]}))
    # Cells holding \r or \n are quoted, so a reader keeps them whole instead of starting
    # a new row at the line break (whose first cell would then be an unescaped formula).
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert [r[0] for r in rows] == ["note", "a\r=cmd()", "b\n@x", "c"]
    assert '"a\r=cmd()"' in text
