"""The systems page's "Download report": the comparison (indicators, radar, each system's
front) and, when the table has seeds, the permutation test of the chosen sides, as one HTML or
PDF file written by :mod:`copa_dash.reports` from the view in the page's query store."""

from __future__ import annotations

from urllib.parse import parse_qs

from dash import html

from copa_dash.reports import systems_report
from copa_dash.services.catalog import open_dataset
from copa_dash.services.systems import system_names
from copa_dash.ui.common.report_row import ReportRowIds, register_report_download, report_row
from copa_dash.ui.common.settings_access import current_cache, current_settings
from copa_dash.ui.features.systems.ids import SystemsIds
from copa_dash.ui.features.systems.state import parse_query, with_defaults

ReportIds = ReportRowIds("systems")


def report_controls() -> html.Div:
    """The report row: format, button, the download and its message."""
    return report_row(ReportIds, "Systems report: ",
                      "indicators, radar, fronts and the test of the chosen sides (readable "
                      "offline)")


def report_file(query: str, fmt: str, *, share_base: str = "",
                progress=None) -> tuple[bytes, str]:
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
        opened, fmt=fmt, share_base=share_base, cache=current_cache(), progress=progress,
        objectives=list(state.objectives), normalize=state.normalize, sigma=state.sigma,
        baseline=state.baseline if testable else (),
        candidate=state.candidate if testable else (), permutations=state.permutations,
        rng_seed=state.seed, ref_rule=state.ref_rule, shown=state.shown,
        hv_budget_seconds=settings.hv_budget_seconds)  # the page's numbers
    return data, name


def register_callbacks(app) -> None:
    """The download callback (background: a PDF takes seconds)."""
    register_report_download(app, ReportIds, query_store=SystemsIds.QUERY, share_box=SystemsIds.SHARE,
                             path="/systems", report_file=report_file)


__all__ = ["ReportIds", "register_callbacks", "report_controls", "report_file"]
