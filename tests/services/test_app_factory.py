"""What ``create_app`` adds around Dash: the icon's caching headers."""

from __future__ import annotations

from copa_dash.app_factory import create_app
from copa_dash.config import Settings


def test_the_icon_may_be_kept_by_the_browser_and_pages_are_not(tmp_path):
    app = create_app(Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache"))
    client = app.server.test_client()
    icon = client.get("/_favicon.ico?v=1")
    assert icon.status_code == 200 and icon.cache_control.max_age == 86400
    assert icon.cache_control.public
    page = client.get("/explore")
    assert page.status_code == 200 and page.cache_control.max_age is None


def test_behind_a_login_the_icon_is_kept_by_the_browser_alone(tmp_path):
    import base64

    app = create_app(Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache",
                              auth_user="ana", auth_password="pw"))
    login = base64.b64encode(b"ana:pw").decode()
    icon = app.server.test_client().get("/_favicon.ico",
                                        headers={"Authorization": f"Basic {login}"})
    assert icon.status_code == 200 and icon.cache_control.private
    assert not icon.cache_control.public and icon.cache_control.max_age == 86400
