"""One full application (pages, API, security rules) shared by the reliability tests."""

from __future__ import annotations

import io
import json

import pytest

from copa_dash.app_factory import create_app
from copa_dash.config import Settings

ADMIN_TOKEN = "admin-token-for-tests"
ROLES = {"id": "model", "objectives": [{"name": "error", "direction": "min"},
                                       {"name": "speed", "direction": "max"}]}
CSV = b"model,error,speed\na,0.1,3\nb,0.2,5\nc,-0.3,1\n"
#: The Origin a browser sends from the instance's own pages (Flask's test host).
SAME_ORIGIN = "http://localhost"


@pytest.fixture(scope="session")
def full_app(tmp_path_factory):
    root = tmp_path_factory.mktemp("reliability")
    settings = Settings(data_dir=root / "data", cache_dir=root / "cache",
                        admin_token=ADMIN_TOKEN)
    return create_app(settings)


@pytest.fixture
def client(full_app):
    return full_app.server.test_client()


def upload(client, content=CSV, *, filename="t.csv", roles=ROLES, headers=None, **fields):
    """POST /api/datasets as multipart, like curl -F or a browser form."""
    data = {"file": (io.BytesIO(content), filename)}
    if roles is not None:
        data["roles"] = roles if isinstance(roles, str) else json.dumps(roles)
    data.update(fields)
    return client.post("/api/datasets", data=data, content_type="multipart/form-data",
                       headers=headers or {})
