"""Cross-site writes are refused (API and Dash callbacks); every answer carries the security
headers; the CSP admits exactly the inline scripts the app's own page has."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

from .conftest import SAME_ORIGIN, upload

EVIL = "http://evil.example"


@pytest.mark.parametrize("headers", [
    {"Origin": EVIL}, {"Referer": EVIL + "/attack.html"}, {"Origin": "null"},
    {"Origin": "http://localhost.evil.example"}, {"Origin": "http://localhost:9999"},
])
def test_cross_site_upload_is_refused(client, headers):
    answer = upload(client, headers=headers)
    assert answer.status_code == 403
    assert "cross-site request refused" in answer.get_json()["error"]


@pytest.mark.parametrize("headers", [
    {"Origin": SAME_ORIGIN}, {"Referer": SAME_ORIGIN + "/upload"}, {},  # {}: curl, scripts
])
def test_same_site_and_non_browser_uploads_pass(client, headers):
    assert upload(client, headers=headers).status_code == 201


def test_delete_from_another_site_is_refused_before_the_token_is_looked_at(client):
    mine = upload(client).get_json()
    forged = client.delete(f"/api/datasets/{mine['id']}", headers={"Origin": EVIL})
    assert forged.status_code == 403 and "cross-site" in forged.get_json()["error"]
    # an API client sending the token header is not a forged form (it needs a preflight)
    real = client.delete(f"/api/datasets/{mine['id']}",
                         headers={"Origin": EVIL, "X-Copa-Owner-Token": mine["owner_token"]})
    assert real.status_code == 200


def test_dash_callbacks_from_another_site_are_refused(client):
    body = {"output": "x.children", "outputs": {"id": "x", "property": "children"},
            "inputs": [], "changedPropIds": []}
    forged = client.post("/_dash-update-component", json=body, headers={"Origin": EVIL})
    assert forged.status_code == 403
    own = client.post("/_dash-update-component", json=body, headers={"Origin": SAME_ORIGIN})
    assert own.status_code != 403


def test_a_trusted_origin_may_write(tmp_path):
    import dash
    from dash import html

    from copa_dash.api import register_api
    from copa_dash.config import Settings
    from copa_dash.web_security import apply_web_security

    settings = Settings(data_dir=tmp_path / "d", cache_dir=tmp_path / "c",
                        trusted_origins=("https://portal.example.org/",))
    app = dash.Dash(__name__)
    app.layout = html.Div("page")
    register_api(app.server, settings)
    apply_web_security(app, settings)
    client = app.server.test_client()
    assert upload(client, headers={"Origin": "https://portal.example.org"}).status_code == 201
    assert upload(client, headers={"Origin": EVIL}).status_code == 403


@pytest.mark.parametrize("path", ["/", "/healthz", "/api/datasets", "/assets/style.css",
                                  "/no-such-page"])
def test_every_answer_carries_the_security_headers(client, path):
    headers = client.get(path).headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    policy = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";", 1)[0]


def test_the_csp_admits_each_inline_script_of_the_page(client):
    answer = client.get("/")
    policy = answer.headers["Content-Security-Policy"]
    page = re.sub(r"<!--.*?-->", "", answer.get_data(as_text=True), flags=re.DOTALL)
    scripts = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>(.*?)</script>", page,
                         flags=re.DOTALL)
    executable = [body for attributes, body in scripts
                  if "application/json" not in attributes and body.strip()]
    assert executable, "the page has Dash's inline renderer script"
    for body in executable:
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy
