"""The page, the report (from the CLI and from the notebook), the notebook's explorer and the
CLI's pick give the same Explore view for the same settings: they all build it with
``services/views`` and write its link with ``views.link``."""

from __future__ import annotations

import html
import json
import re

import copa_dash
from copa_dash import notebook
from copa_dash.cli import main
from copa_dash.reports import view as report_view
from copa_dash.services import explorer
from copa_dash.services.catalog import open_dataset
from copa_dash.services.views import ExploreView, link
from copa_dash.services.views.query import parsed

DATASET = "open-llm-leaderboard-v2"      # a stated default view, with a filter
SETTINGS = {"focus": "ifeval", "alpha": "0.3", "p": "2"}
BASE = "http://copa.example:8050"
_SHARE = re.compile(re.escape(BASE) + r"/explore\?[^\"<\s]+")


def _share_link(path) -> str:
    links = _SHARE.findall(path.read_text(encoding="utf-8"))
    assert len(set(links)) == 1, links
    return html.unescape(links[0])


def _as_page_opens(url: str, opened) -> ExploreView:
    """The view the page shows for ``url`` (what its layout does with the query)."""
    query = parsed(url.split("?", 1)[1])
    return ExploreView.from_query(query).with_defaults(opened, given=tuple(query))


class _App:
    """Stands in for the Dash app the notebook's explorer would serve (no server here)."""

    class server:
        @staticmethod
        def before_request(function):
            return function

    def run(self, **_options):
        return None


def test_the_page_the_reports_the_notebook_and_the_cli_give_one_view(tmp_path, monkeypatch,
                                                                      capsys):
    opened = open_dataset(DATASET)
    page = _as_page_opens(f"/explore?dataset={DATASET}&" + "&".join(
        f"{k}={v}" for k, v in SETTINGS.items()), opened)
    assert (page.focus, page.alpha, page.p) == (("ifeval",), 0.3, 2.0)
    assert page.sets == (("available_on_hub", ("true",)),)      # the default view's filter

    cli_report = tmp_path / "cli.html"
    assert main(["report", "--dataset", DATASET, "--focus", "ifeval", "--alpha", "0.3",
                 "--p", "2", "-o", str(cli_report), "--share-base", BASE]) == 0
    notebook_report = copa_dash.report(DATASET, tmp_path / "nb.html", focus="ifeval", alpha=0.3,
                                       p=2, share_base=BASE)
    monkeypatch.setattr(notebook, "create_app", lambda *a, **k: _App())
    shown = notebook.explore(DATASET, focus="ifeval", alpha=0.3, p=2, port=8050)
    notebook_link = BASE + shown.url.removeprefix("http://127.0.0.1:8050")

    links = {_share_link(cli_report), _share_link(notebook_report), notebook_link}
    assert len(links) == 1                                   # one link, written once
    assert _as_page_opens(links.pop(), opened) == page       # and it opens the page's view

    # the report's own resolution of the settings is the page's view, and so is its link
    resolved = report_view.resolve(report_view.DecisionView(
        DATASET, focus=("ifeval",), alpha=0.3, p=2.0), opened.table, opened.default_view)
    assert report_view.preferences(resolved) == page.preferences()
    assert report_view.row_filter(resolved).key() == page.row_filter().key()
    as_explore, lost = report_view.explore_view(resolved)
    assert lost == () and _as_page_opens(link(as_explore), opened) == page

    # the CLI's pick is the page's pick
    capsys.readouterr()
    assert main(["select", "--dataset", DATASET, "--focus", "ifeval", "--alpha", "0.3",
                 "--p", "2", "--json"]) == 0
    cli_pick = json.loads(capsys.readouterr().out)["id"]
    shown_on_page = explorer.explore(opened, page.preferences(), page.row_filter())
    assert cli_pick == str(shown_on_page.problem.ids[shown_on_page.pick])


def test_an_upload_opens_on_the_one_default_view():
    import pandas as pd

    from copa_dash.data.schema import EvalTable, Objective, Roles
    from copa_dash.services.default_view import first_view
    from copa_dash.services.first_view import default_view

    frame = pd.DataFrame({"m": list("abcdef"), "acc1": [.7, .8, .9, .6, .5, .75],
                          "acc5": [.9, .95, .99, .85, .8, .9], "params": [5., 20, 60, 3, 1, 900]})
    table = EvalTable(frame, Roles("m", (Objective("acc1", "max"), Objective("acc5", "max"),
                                         Objective("params", "min", "M"))))
    view = ExploreView.default_for(table, dataset="up")
    first = first_view(table)
    assert (view.dataset, view.x, view.y, view.focus, view.alpha, view.p) == (
        "up", first.x, first.y, first.focus, first.alpha, first.p)
    assert view.log == ("y",)                     # params spans more than two decades
    assert view.preferences() == first.preferences()
    prepared, row_filter = default_view(table)
    assert prepared == view.preferences() and row_filter.key() == view.row_filter().key()
