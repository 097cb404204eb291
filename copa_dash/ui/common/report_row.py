"""The "Download report" row that the Explore and Systems pages share: a format choice, a
button, the download and its message, and the background callback that writes the file.

Each page gives its own ids (a prefix), its words and a ``report_file(query, fmt,
share_base=...)`` function; the row and the callback are written once, here.

Where the time goes (issue 33: an HTML report of DecodingTrust took 14.9 s in the page the
first time, 3 s from the CLI): the report is written in a background job, a process forked
from the server, and whatever the server has not loaded yet, each job loads again and throws
away: numba's kernels for the report's calls, about 200 Plotly figure modules, the Jinja
templates. Measured in a forked child of an app whose kernels were warmed (load 10-12):
0.48-0.52 CPU s a report, 0.10-0.14 once the server had written one small report itself
(docs/benchmarks.md, session 20). :func:`prime_reports` is that small report, written once
in the server after the kernels' warm-up (``app_factory``), so every job inherits it. On a
first start the kernels compile meanwhile: the row says so while the job waits for them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from dash import Input, Output, State, dcc, html, no_update
from dash.exceptions import PreventUpdate

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.warmup import compile_ready
from copa_dash.ui.common.alerts import alert

LOG = logging.getLogger(__name__)
NOWRAP = {"whiteSpace": "nowrap"}
PRIME_DATASET = "copa-synthetic"     # small (a second to report), bundled with every install
STARTING = "Starting: opening the dataset and the view"
ROW_STYLE = {"flexWrap": "wrap", "gap": "6px 12px"}


@dataclass(frozen=True)
class ReportRowIds:
    """Ids of one page's report row (``<prefix>-report-format`` and so on)."""

    prefix: str

    def _id(self, part: str) -> str:
        return f"{self.prefix}-report-{part}"

    # upper-case properties: they read like the pages' id constants (ids.X.FORMAT)
    FORMAT = property(lambda self: self._id("format"))
    BUTTON = property(lambda self: self._id("button"))
    DOWNLOAD = property(lambda self: self._id("download"))
    ALERT = property(lambda self: self._id("alert"))

    @property
    def PROGRESS(self) -> str:
        return f"{self.prefix}-report-progress"


def report_row(ids: ReportRowIds, label: str, help_text: str) -> html.Div:
    """The report row: format, button, the download and its message."""
    return html.Div(className="share-row report-row", style=ROW_STYLE, children=[
        html.Span(label, style=NOWRAP),
        dcc.RadioItems(id=ids.FORMAT, inline=True, value="html", style=NOWRAP,
                       options=[{"label": "HTML", "value": "html"},
                                {"label": "PDF", "value": "pdf"}]),
        html.Button("Download report", id=ids.BUTTON, className="button", style=NOWRAP),
        html.Span(help_text, className="help"),
        dcc.Download(id=ids.DOWNLOAD),
        # what the report is doing while it is written, in words ("Step 2 of 3: ...")
        html.Span(id=ids.PROGRESS, className="help", role="status", **{"aria-live": "polite"}),
        html.Div(id=ids.ALERT),
    ])


def register_report_download(app, ids: ReportRowIds, *, query_store: str, share_box: str,
                             path: str, report_file: Callable) -> None:
    """The download callback, in the background (a PDF or a permutation test takes seconds).

    ``report_file(query, fmt, share_base=..., progress=...)`` returns ``(bytes, file name)``
    or raises InvalidInputError with what the services say about the view; it tells
    ``progress`` each step in words, which the row shows beside the greyed button.
    """

    @app.callback(Output(ids.DOWNLOAD, "data"), Output(ids.ALERT, "children"),
                  Input(ids.BUTTON, "n_clicks"), State(query_store, "data"),
                  State(ids.FORMAT, "value"), State(share_box, "value"),
                  background=True, running=[(Output(ids.BUTTON, "disabled"), True, False)],
                  progress=[Output(ids.PROGRESS, "children")], progress_default=[None],
                  interval=500, prevent_initial_call=True)
    def download_report(set_progress, n_clicks, query, fmt, share_link):
        if not n_clicks or not query:
            raise PreventUpdate
        base = (share_link or "").split(path, 1)[0]
        set_progress((starting_words(),))   # before the dataset opens: that can take seconds
        try:
            data, name = report_file(query, fmt or "html", share_base=base,
                                     progress=lambda text: set_progress((text,)))
        except InvalidInputError as exc:
            return no_update, alert(f"No report: {exc}")
        except (RuntimeError, OSError):
            LOG.exception("the report could not be written (%s)", path)
            return no_update, alert("The report could not be written (see the server log); "
                                    "the HTML format needs no browser.", "error")
        return dcc.send_bytes(data, name), None


def starting_words() -> str:
    """What the row says as the job starts: opening the dataset, and, while the server is
    still preparing its faster code (a first start), that this report takes longer.

    >>> starting_words().startswith("Starting: opening the dataset and the view")
    True
    """
    ready = compile_ready()             # "3 of 29 parts ready", empty when nothing compiles
    if not ready:
        return f"{STARTING}..."
    return (f"{STARTING}. The server is still preparing its faster code after a first start "
            f"({ready}), so this report takes longer than usual...")


def prime_reports(settings) -> None:
    """Write one small decision report (HTML, discarded) in this process, so that report jobs
    forked from it find the report's kernels, Plotly's figure modules and the templates
    loaded (see the module notes). Any failure is logged and ignored: it costs speed only."""
    from copa_dash.reports import DecisionView, decision_report
    from copa_dash.services.catalog import open_dataset

    try:
        decision_report(open_dataset(PRIME_DATASET, settings), DecisionView(PRIME_DATASET),
                        fmt="html")
    except Exception:      # a missing or odd table only leaves jobs slower
        LOG.warning("the report machinery was not loaded ahead (reports stay slower)",
                    exc_info=True)
