"""COPA_ALLOWED_HOSTS: a request naming another host (DNS rebinding) is refused."""

from __future__ import annotations

import pytest

from copa_dash.app_factory import create_app
from copa_dash.config import Settings


def _client(tmp_path, **settings):
    app = create_app(Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache",
                              **settings))
    return app.server.test_client()


def _status(client, host, path="/_dash-layout"):
    return client.get(path, headers={"Host": host}).status_code


def test_without_a_login_only_loopback_names_are_answered(tmp_path):
    client = _client(tmp_path)
    for host in ("localhost", "localhost:8050", "127.0.0.1:8050", "[::1]:8050"):
        assert _status(client, host) == 200, host
    answer = client.get("/api/datasets", headers={"Host": "rebound.evil.example"})
    assert answer.status_code == 400
    assert "COPA_ALLOWED_HOSTS" in answer.get_json()["error"]
    assert _status(client, "rebound.evil.example:8050", "/") == 400
    assert _status(client, "rebound.evil.example", "/healthz") == 200


def test_the_allowed_hosts_setting_names_the_hosts(tmp_path):
    client = _client(tmp_path, allowed_hosts=("copa.team.example", "*.lab.example"))
    assert _status(client, "copa.team.example") == 200
    assert _status(client, "gpu1.lab.example:443") == 200
    assert _status(client, "lab.example") == 400
    assert _status(client, "localhost") == 400


def test_behind_a_login_any_host_is_answered_unless_listed(tmp_path):
    client = _client(tmp_path, auth_user="team", auth_password="pw")
    assert _status(client, "copa.team.example") == 401  # reached the login, not refused


@pytest.mark.parametrize(("raw", "hosts"), [("", ()), (" A.example , *.b.example,", (
    "a.example", "*.b.example"))])
def test_the_setting_is_read_from_the_environment(raw, hosts):
    assert Settings.from_env({"COPA_ALLOWED_HOSTS": raw}).allowed_hosts == hosts
