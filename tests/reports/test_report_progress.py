"""A report says what it is doing while it is written (issue 33: the PDF took 9-14 s with only
a greyed button): each step in words, in order, through the download callback's progress."""

from __future__ import annotations

import dash

from copa_dash.reports import DecisionView, decision_report, steps, systems_report
from copa_dash.services.catalog import open_dataset
from copa_dash.ui.features.explore import report_panel
from copa_dash.ui.features.explore.report_panel import ReportIds


def test_a_decision_report_tells_each_step_before_it_starts():
    said = []
    page = decision_report(open_dataset("copa-synthetic"), DecisionView("copa-synthetic"),
                           progress=said.append)
    assert page.startswith(b"<!DOCTYPE html>") or b"<html" in page[:500]
    assert said == ["Step 1 of 2: Working out the pick, the front and how sure it is...",
                    "Step 2 of 2: Drawing the figures and writing the page..."]


def test_a_systems_report_tells_its_steps_too():
    said = []
    systems_report(open_dataset("amlb-2022"), progress=said.append)
    assert [s.split(":")[0] for s in said] == ["Step 1 of 2", "Step 2 of 2"]
    assert "indicators" in said[0]


def test_a_pdf_has_a_third_step_the_print_and_no_progress_costs_nothing():
    said = []
    say = steps("pdf", said.append)
    for text in ("numbers", "page", "print", "one too many"):
        say(text)
    assert said == ["Step 1 of 3: numbers...", "Step 2 of 3: page...", "Step 3 of 3: print..."]
    steps("pdf", None)("nothing to tell")                    # no listener: nothing happens


def test_the_download_callback_shows_its_progress_in_the_report_row():
    app = dash.Dash(__name__)
    report_panel.register_callbacks(app)
    spec = next(spec for key, spec in app.callback_map.items()
                if key.startswith(f"..{ReportIds.DOWNLOAD}.data"))
    assert [str(o) for o in spec["background"]["progress"]] == [
        f"{ReportIds.PROGRESS}.children"]
    layout = str(report_panel.report_controls())
    assert ReportIds.PROGRESS in layout
