"""The systems page's "Download report": the comparison (indicators, radar, each system's
front) and, when the table has seeds, the permutation test of the chosen sides, as one HTML or
PDF file written by :mod:`copa_dash.reports` from the view in the page's query store."""

from __future__ import annotations

import logging
from urllib.parse import parse_qs

from dash import Input, Output, State, dcc, html, no_update
from dash.exceptions import PreventUpdate

from copa_dash.core.errors import InvalidInputError
from copa_dash.reports import systems_report
from copa_dash.services.catalog import open_dataset
from copa_dash.services.systems import system_names
from copa_dash.ui.common.alerts import alert
from copa_dash.ui.common.settings_access import current_cache, current_settings
from copa_dash.ui.features.systems.ids import SystemsIds
from copa_dash.ui.features.systems.state import parse_query, with_defaults

LOG = logging.getLogger(__name__)
NOWRAP = {"whiteSpace": "nowrap"}
ROW_STYLE = {"flexWrap": "wrap", "gap": "6px 12px"}


class ReportIds:
    """Ids of the report row."""

    FORMAT = "systems-report-format"
    BUTTON = "systems-report-button"
    DOWNLOAD = "systems-report-download"
    ALERT = "systems-report-alert"


def report_controls() -> html.Div:
    """The report row: format, button, the download and its message."""
    return html.Div(className="share-row report-row", style=ROW_STYLE, children=[
        html.Span("Systems report: ", style=NOWRAP),
        dcc.RadioItems(id=ReportIds.FORMAT, inline=True, value="html", style=NOWRAP,
                       options=[{"label": "HTML", "value": "html"},
                                {"label": "PDF", "value": "pdf"}]),
        html.Button("Download report", id=ReportIds.BUTTON, className="button", style=NOWRAP),
        html.Span("indicators, radar, fronts and the test of the chosen sides (readable "
                  "offline)", className="help"),
        dcc.Download(id=ReportIds.DOWNLOAD),
        html.Div(id=ReportIds.ALERT),
    ])


def report_file(query: str, fmt: str, *, share_base: str = "") -> tuple[bytes, str]:
    """The systems report of the view ``query`` and its file name.

    Raises
    ------
    InvalidInputError
        What the systems service says about the view.
    """
    settings = current_settings()
    state = parse_query(parse_qs(query or ""))
    opened = open_dataset(state.dataset, settings)
    state = with_defaults(state, opened, system_names(opened.table))
    testable = opened.table.roles.seed is not None and state.baseline and state.candidate
    name = f"copa-systems-{opened.ref[:40]}.{fmt}"
    data = systems_report(
        opened, fmt=fmt, share_base=share_base, cache=current_cache(),
        objectives=list(state.objectives), normalize=state.normalize, sigma=state.sigma,
        baseline=state.baseline if testable else (),
        candidate=state.candidate if testable else (), permutations=state.permutations,
        rng_seed=state.seed, ref_rule=state.ref_rule, shown=state.shown)
    return data, name


def register_callbacks(app) -> None:
    """The download callback (background: the test and a PDF take seconds)."""

    @app.callback(Output(ReportIds.DOWNLOAD, "data"), Output(ReportIds.ALERT, "children"),
                  Input(ReportIds.BUTTON, "n_clicks"), State(SystemsIds.QUERY, "data"),
                  State(ReportIds.FORMAT, "value"), State(SystemsIds.SHARE, "value"),
                  background=True, running=[(Output(ReportIds.BUTTON, "disabled"), True, False)],
                  prevent_initial_call=True)
    def download_report(n_clicks, query, fmt, share_link):
        if not n_clicks or not query:
            raise PreventUpdate
        base = (share_link or "").split("/systems", 1)[0]
        try:
            data, name = report_file(query, fmt or "html", share_base=base)
        except InvalidInputError as exc:
            return no_update, alert(f"No report: {exc}")
        except (RuntimeError, OSError):
            LOG.exception("the systems report could not be written")
            return no_update, alert("The report could not be written (see the server log); "
                                    "the HTML format needs no browser.", "error")
        return dcc.send_bytes(data, name), None


__all__ = ["ReportIds", "register_callbacks", "report_controls", "report_file"]
