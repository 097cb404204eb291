"""The explorer's "Download report": the view's decision report as one HTML or PDF file.

The report is written by :mod:`copa_dash.reports` from the view the page's query store holds
(the same query as the share link), so it states exactly what the page shows. A PDF takes a
few seconds (Chromium prints it), so it runs as a background callback with the button
disabled meanwhile.
"""

from __future__ import annotations

import logging
from urllib.parse import parse_qs

from dash import Input, Output, State, dcc, html, no_update
from dash.exceptions import PreventUpdate

from copa_dash.core.errors import InvalidInputError
from copa_dash.reports import DecisionView, decision_report
from copa_dash.services.catalog import open_dataset
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.common.settings_access import current_cache, current_settings
from copa_dash.ui.features.explore.ids import ExploreIds
from copa_dash.ui.features.explore.state import parse_query, with_defaults

LOG = logging.getLogger(__name__)
NOWRAP = {"whiteSpace": "nowrap"}
ROW_STYLE = {"flexWrap": "wrap", "gap": "6px 12px"}


class ReportIds:
    """Ids of the report row."""

    FORMAT = "explore-report-format"
    BUTTON = "explore-report-button"
    DOWNLOAD = "explore-report-download"
    ALERT = "explore-report-alert"


def report_controls() -> html.Div:
    """The report row: format, button, the download and its message."""
    return html.Div(className="share-row report-row", style=ROW_STYLE, children=[
        html.Span("Decision report: ", style=NOWRAP),
        dcc.RadioItems(id=ReportIds.FORMAT, inline=True, value="html", style=NOWRAP,
                       options=[{"label": "HTML", "value": "html"},
                                {"label": "PDF", "value": "pdf"}]),
        html.Button("Download report", id=ReportIds.BUTTON, className="button", style=NOWRAP),
        html.Span("the pick, the preferences, how sure, and how to reproduce it (readable "
                  "offline)", className="help"),
        dcc.Download(id=ReportIds.DOWNLOAD),
        html.Div(id=ReportIds.ALERT),
    ])


def view_of(state) -> DecisionView:
    """The report's view of an explorer state (every setting the URL holds)."""
    return DecisionView(
        dataset=state.dataset, objectives=state.objectives, focus=state.focus,
        alpha=state.alpha, weights=state.weights, p=state.p, population=state.population,
        ranges=state.ranges, sets=state.sets, use_default_filters=False)


def report_file(query: str, fmt: str, *, share_base: str = "") -> tuple[bytes, str]:
    """The report of the view ``query`` (the page's query string) and its file name.

    Raises
    ------
    InvalidInputError
        What the report (the explorer service) says about the view.
    """
    settings = current_settings()
    given = parse_qs(query or "")
    state = parse_query(given)
    opened = open_dataset(state.dataset, settings)
    state = with_defaults(state, opened, given=set(given))
    name = f"copa-report-{opened.ref[:40]}.{fmt}"
    data = decision_report(opened, view_of(state), fmt=fmt, share_base=share_base,
                           output_name=name, cache=current_cache())
    return data, name


def register_callbacks(app) -> None:
    """The download callback (background: a PDF takes seconds)."""

    @app.callback(Output(ReportIds.DOWNLOAD, "data"), Output(ReportIds.ALERT, "children"),
                  Input(ReportIds.BUTTON, "n_clicks"), State(ExploreIds.QUERY, "data"),
                  State(ReportIds.FORMAT, "value"), State(ExploreIds.SHARE, "value"),
                  background=True, running=[(Output(ReportIds.BUTTON, "disabled"), True, False)],
                  prevent_initial_call=True)
    def download_report(n_clicks, query, fmt, share_link):
        if not n_clicks or not query:
            raise PreventUpdate
        base = (share_link or "").split("/explore", 1)[0]
        try:
            data, name = report_file(query, fmt or "html", share_base=base)
        except InvalidInputError as exc:
            return no_update, alert(f"No report: {exc}")
        except (RuntimeError, OSError):
            LOG.exception("the report could not be written")
            return no_update, alert("The report could not be written (see the server log); "
                                    "the HTML format needs no browser.", "error")
        return dcc.send_bytes(data, name), None


__all__ = ["ReportIds", "register_callbacks", "report_controls", "report_file", "view_of"]
