"""Dash's first-request set-up runs once, under a lock, before any other request hook (two
first requests on a gthread worker both ran it, and one answered 500: "dictionary changed
size during iteration" in dash's validate_background_callbacks)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from copa_dash.app_factory import create_app
from copa_dash.config import Settings


def _app(tmp_path, monkeypatch):
    monkeypatch.setenv("COPA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COPA_CACHE_DIR", str(tmp_path / "cache"))
    return create_app(Settings.from_env())


def test_the_set_up_hook_comes_first_and_runs_once(tmp_path, monkeypatch):
    app = _app(tmp_path, monkeypatch)
    hooks = app.server.before_request_funcs[None]
    # only the hook that names this app as Dash's current one runs before it (the set-up then
    # registers the cancel callbacks of this app, app_factory._serve_as_this_app)
    assert [hook.__name__ for hook in hooks[:2]] == ["set_current_app", "set_up_dash"]
    calls = []
    original = app._setup_server
    gate = threading.Barrier(8)

    def counted():
        calls.append(1)
        original()

    app._setup_server = counted

    def first_request(_):
        gate.wait(5)
        return app.server.test_client().get("/_dash-layout").status_code

    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(first_request, range(8)))
    assert statuses == [200] * 8
    assert len(calls) == 1
