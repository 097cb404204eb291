"""The Systems page on a table without a system column (issue 19): only the message saying
what a system column is and how to give one, and the dataset switcher; no tabs, tables or
empty figure frames under it. A table with systems still gets the whole page."""

from __future__ import annotations

import pytest
from dash import dash_table, dcc

from copa_dash.services.systems import NO_SYSTEM_COLUMN
from copa_dash.ui.features.systems import layout as page
from copa_dash.ui.features.systems.ids import ID
from tests.ui.dash_tree import walk


@pytest.fixture(autouse=True)
def _tmp_store(tmp_path, monkeypatch):
    monkeypatch.setenv("COPA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COPA_CACHE_DIR", str(tmp_path / "cache"))


def _all_text(component) -> str:
    """Every string under ``component`` in reading order, the text of links included."""
    children = getattr(component, "children", None)
    if isinstance(component, str):
        return component
    return "".join(_all_text(c) for c in (children if isinstance(children, list)
                                          else [children]) if c is not None)


def test_no_system_column_shows_the_message_and_no_figure_frames():
    built = page.layout(dataset="decodingtrust")      # 55 models, no system column
    nodes = list(walk(built))
    assert not [n for n in nodes if isinstance(n, (dcc.Graph, dcc.Tabs, dash_table.DataTable))]
    alert = next(n for n in nodes if getattr(n, "id", None) == ID.ALERT)
    said = _all_text(alert)
    assert "no system column (the system each row belongs to)" in said
    assert "upload page: role 'system'" in said and "--system COL" in said
    assert said.startswith(NO_SYSTEM_COLUMN[0].upper())
    # the dataset it names is a link to its Systems page, the upload page a link too (G10)
    example = next(n for n in walk(alert) if getattr(n, "id", None) == ID.EXAMPLE_LINK)
    assert example.children == "fairness-adult-sex"
    assert example.href == "/systems?dataset=fairness-adult-sex"
    assert [n.href for n in walk(alert) if isinstance(n, dcc.Link)] == [
        "/systems?dataset=fairness-adult-sex", "/upload"]
    switcher = next(n for n in nodes if getattr(n, "id", None) == ID.DATASET)
    assert switcher.value == "decodingtrust"
    assert "fairness-adult-sex" in [o["value"] for o in switcher.options]


def test_a_table_with_systems_keeps_its_figures():
    nodes = list(walk(page.layout(dataset="fairness-adult-sex")))
    graphs = {n.id for n in nodes if isinstance(n, dcc.Graph)}
    assert {ID.RADAR, ID.FRONT} <= graphs


def test_val_test_and_systems_empty_states_share_one_shape():
    """Issue 33: the Val -> test empty state looked unlike the other pages'; both are now
    ui/common/page_frame.empty_state_page (dataset switcher beside the message)."""
    from copa_dash.app_factory import create_app
    from copa_dash.ui.features.generalization import layout as generalization
    from copa_dash.ui.features.systems import layout as systems

    create_app()
    shapes = []
    for drawn in (generalization.layout(dataset="dmop"),
                  systems.layout(dataset="decodingtrust")):
        children = drawn.children
        aside = next(c for c in children if type(c).__name__ == "Aside")
        main = next(c for c in children if type(c).__name__ == "Main")
        shapes.append((aside.className, main.className,
                       [type(c).__name__ for c in aside.children]))
    assert shapes[0] == shapes[1]
