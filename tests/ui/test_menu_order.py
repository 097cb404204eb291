"""The menu lists the pages in the order of the work, not in Dash's module-name order."""

from __future__ import annotations

from copa_dash.app_factory import create_app
from copa_dash.ui import app_shell


def test_menu_follows_the_order_of_the_work():
    create_app()
    labels = [label for label, _ in app_shell.menu_links()]
    assert labels == ["Datasets", "Upload", "Explore", "Rankings", "Systems", "Val → test",
                      "Posets", "Help"]


def test_menu_paths_are_the_registered_pages():
    import dash

    create_app()
    registered = {page["path"] for page in dash.page_registry.values()}
    assert {path for _, path in app_shell.menu_links()} <= registered
