"""The explorer's "Download report": the view's decision report as one HTML or PDF file.

The report is written by :mod:`copa_dash.reports` from the view the page's query store holds
(the same query as the share link), so it states exactly what the page shows. A PDF takes a
few seconds (Chromium prints it), so it runs as a background callback with the button
disabled meanwhile.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from dash import html

from copa_dash.reports import DecisionView, decision_report
from copa_dash.reports.view import from_explore
from copa_dash.services import elicitation
from copa_dash.services.catalog import file_stem, open_dataset
from copa_dash.ui.common.report_row import ReportRowIds, register_report_download, report_row
from copa_dash.ui.common.settings_access import current_cache, current_settings
from copa_dash.ui.features.explore.ids import ExploreIds
from copa_dash.ui.features.explore.state import parse_query, with_defaults
from copa_dash.ui.features.explore.view_state import preferences_and_filter

ReportIds = ReportRowIds("explore")


def report_controls() -> html.Div:
    """The report row: format, button, the download and its message."""
    return report_row(ReportIds, "Decision report: ",
                      "the pick, the preferences, how sure, and how to reproduce it (readable "
                      "offline)")


def view_of(state, answers: tuple = ()) -> DecisionView:
    """The report's view of an explorer state (:func:`copa_dash.reports.view.from_explore`)."""
    return from_explore(state, answers)


def answers_of(state) -> tuple:
    """The "Help me choose" questions and answers of the view (the URL's ``choose``), as
    (question, answer) in words; none when the panel was not used."""
    if not state.choose:
        return ()
    # the models the panel asks about (as choose_callbacks.problem_of, which imports the
    # layout, which imports this module)
    opened = open_dataset(state.dataset, current_settings())
    prefs, row_filter = preferences_and_filter(state, opened.table)
    problem = elicitation.view_choice_problem(opened, prefs, row_filter, cache=current_cache())
    return elicitation.answered_questions(problem, state.choose)


def report_file(query: str, fmt: str, *, share_base: str = "",
                progress=None) -> tuple[bytes, str]:
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
    name = f"{file_stem('copa-report', opened.ref, settings)}.{fmt}"
    data = decision_report(opened, view_of(state, answers_of(state)), fmt=fmt, share_base=share_base,
                           output_name=name, cache=current_cache(), progress=progress)
    return data, name


def register_callbacks(app) -> None:
    """The download callback (background: a PDF takes seconds)."""
    register_report_download(app, ReportIds, query_store=ExploreIds.QUERY, share_box=ExploreIds.SHARE,
                             path="/explore", report_file=report_file)


__all__ = ["ReportIds", "register_callbacks", "report_controls", "report_file", "view_of"]
