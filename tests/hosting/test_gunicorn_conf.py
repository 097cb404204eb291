"""gunicorn.conf.py: where the documented command listens, and with which workers."""

from __future__ import annotations

import runpy

import pytest

from .server import REPO


def _conf(monkeypatch, **env) -> dict:
    for name in ("COPA_HOST", "COPA_AUTH_USER", "COPA_AUTH_PASSWORD",
                 "COPA_TRUSTED_USER_HEADER", "COPA_PORT", "PORT", "COPA_THREADS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(REPO / "gunicorn.conf.py"))


def test_without_a_login_it_listens_on_loopback_only(monkeypatch):
    assert _conf(monkeypatch)["bind"] == ["127.0.0.1:8050"]
    # a user name without a password is no login
    assert _conf(monkeypatch, COPA_AUTH_USER="team")["bind"] == ["127.0.0.1:8050"]


@pytest.mark.parametrize("env", [
    {"COPA_AUTH_USER": "team", "COPA_AUTH_PASSWORD": "secret"},
    {"COPA_TRUSTED_USER_HEADER": "X-Forwarded-User"},
])
def test_behind_a_login_it_listens_on_every_interface(monkeypatch, env):
    assert _conf(monkeypatch, **env)["bind"] == ["0.0.0.0:8050"]


def test_a_host_given_is_the_host_used(monkeypatch):
    assert _conf(monkeypatch, COPA_HOST="0.0.0.0", COPA_PORT="9000")["bind"] == ["0.0.0.0:9000"]
    assert _conf(monkeypatch, COPA_HOST="::1")["bind"] == ["[::1]:8050"]


def test_threaded_workers_hold_slow_clients(monkeypatch):
    conf = _conf(monkeypatch)
    assert conf["worker_class"] == "gthread" and conf["threads"] == 32
    assert _conf(monkeypatch, COPA_THREADS="8")["threads"] == 8
