"""Every page's empty state has one shape (issue 33: on Val -> test the link sat outside the
box, and the pages differed in wording and shape): one ``.empty-state`` box saying why, with
the links to go on from inside it (ui/common/alerts.empty_state)."""

from __future__ import annotations

import pytest
from dash import dcc

from copa_dash.ui.common.alerts import empty_state
from tests.ui.dash_tree import walk


@pytest.fixture(autouse=True)
def _tmp_store(tmp_path, monkeypatch):
    monkeypatch.setenv("COPA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COPA_CACHE_DIR", str(tmp_path / "cache"))


def _pages():
    from copa_dash.app_factory import create_app
    from copa_dash.ui.features.explore import layout as explore
    from copa_dash.ui.features.generalization import layout as generalization
    from copa_dash.ui.features.posets import layout as posets
    from copa_dash.ui.features.rankings import layout as rankings
    from copa_dash.ui.features.systems import layout as systems

    create_app()
    return {
        # a name no dataset has: the page says so and links to the catalogue
        "explore": (explore.layout(dataset="no-such-table"), ["/"]),
        "rankings": (rankings.layout(dataset="no-such-table"), ["/"]),
        # a dataset the page cannot show: why, and a dataset it can show
        "systems": (systems.layout(dataset="decodingtrust"),
                    ["/systems?dataset=fairness-adult-sex", "/upload"]),
        "generalization": (generalization.layout(dataset="decodingtrust"),
                           ["/generalization?dataset=breast-cancer-val-test"]),
        # a wide table: why Posets needs a long one, and the shipped long example
        "posets": (posets.layout(dataset="decodingtrust"), ["/posets?dataset=amlb-2022"]),
    }


def _classes(node) -> str:
    return getattr(node, "className", None) or ""


def test_each_page_shows_one_empty_state_box_holding_its_links():
    for name, (page, hrefs) in _pages().items():
        nodes = list(walk(page))
        boxes = [n for n in nodes if "empty-state" in _classes(n).split()]
        assert len(boxes) == 1, name
        (box,) = boxes
        inside = [n.href for n in walk(box) if isinstance(n, dcc.Link)]
        outside = [n.href for n in nodes if isinstance(n, dcc.Link)]
        assert inside == outside == hrefs, name            # no link outside the box
        assert [p.className for p in box.children][:1] == ["empty-why"], name
        # no other message box beside it
        assert [n for n in nodes if "alert" in _classes(n).split()] == [box], name


def test_the_empty_state_says_why_then_what_next():
    box = empty_state("No systems.", ["Open ", dcc.Link("the example", href="/x")],
                      kind="info", component_id="here")
    assert box.id == "here" and box.className == "alert alert-info empty-state"
    assert box.children[0].children == "No systems."
    assert box.children[1].children[1].href == "/x"
    assert len(empty_state("Nothing.").children) == 1
    # a service's message in lower case starts the box with a capital
    assert empty_state("unknown bundled dataset 'x'").children[0].children == (
        "Unknown bundled dataset 'x'")
