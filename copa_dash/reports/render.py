"""Render a report's facts to one self-contained HTML file (Jinja2 templates shipped in the
package, autoescaped; Plotly figures with plotly.js inline) or to PDF (the same page with the
figures as SVG, printed by Chromium).

The output is a pure function of the facts and the time stamp: figure containers have fixed
ids and nothing else varies, so the same view gives the same bytes apart from the stamp.
"""

from __future__ import annotations

import math
from datetime import datetime, timezone

import jinja2
from markupsafe import Markup

from ..core.errors import InvalidInputError
from ..services.systems import INDICATORS, LABELS, RADAR_AXES, RADAR_LABELS
from ..services.views import link
from ..version import __version__
from . import figures as report_figures
from . import pdf as pdf_output
from . import view as views
from .facts import DecisionFacts
from .systems_facts import SystemsFacts, systems_cli, systems_view

FORMATS = ("html", "pdf")

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("copa_dash.reports", "templates"),
    autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def _num(value) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-"
    return f"{value:.4g}"


_ENV.filters["num"] = _num
_ENV.filters["pct"] = lambda u: "-" if u is None or not math.isfinite(u) else f"{100 * u:.1f}%"
_ENV.filters["fixed3"] = lambda v: f"{v:.3f}"


def stamp(generated_at: datetime | None = None) -> str:
    """The report's time stamp, ISO 8601 to the second in UTC (now when not given)."""
    moment = generated_at or datetime.now(timezone.utc)
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc)
    return moment.replace(tzinfo=None, microsecond=0).isoformat(sep=" ")


def check_format(fmt: str) -> str:
    """``"html"`` or ``"pdf"`` (any case).

    Raises
    ------
    InvalidInputError
        For anything else.
    """
    text = str(fmt or "").lower().lstrip(".")
    if text not in FORMATS:
        raise InvalidInputError(f"a report is written as html or pdf, not {fmt!r}")
    return text


def _figures(figures, fmt: str) -> list[Markup]:
    if fmt == "pdf":
        svgs = pdf_output.figure_svgs(figures, width=report_figures.WIDTH,
                                      height=report_figures.HEIGHT)
        return [Markup(svg) for svg in svgs]       # Kaleido's own SVG; user text escaped in it
    return [Markup(figure.to_html(full_html=False, include_plotlyjs=(n == 0),
                                  div_id=f"report-figure-{n + 1}",
                                  config={"displaylogo": False, "responsive": True}))
            for n, figure in enumerate(figures)]


def _finish(html: str, fmt: str) -> bytes:
    return pdf_output.html_to_pdf(html) if fmt == "pdf" else html.encode("utf-8")


def source_arguments(facts_provenance, *, table_file: str | None = None,
                     id_column: str = "") -> tuple[list[str], list[str]]:
    """How a command names the report's data, and notes on it: ``--dataset NAME`` for a
    bundled dataset, else the table file (a placeholder when the table came from memory)."""
    if facts_provenance.kind == "bundled":
        return ["--dataset", facts_provenance.name], []
    notes = []
    if table_file is None:
        table_file = "TABLE.csv"
        where = ("download it from the instance (GET /api/datasets/<id>/csv)"
                 if facts_provenance.kind == "uploaded" else "save the DataFrame as CSV")
        notes.append(f"TABLE.csv stands for the table ({where}); its SHA-256 as CSV is "
                     f"{facts_provenance.content_sha256}.")
    return [table_file, "--id", id_column], notes


def decision_html(facts: DecisionFacts, *, fmt: str = "html", generated_at=None,
                  share_base: str = "", table_file: str | None = None,
                  output_name: str = "report.html") -> str:
    """The decision report as an HTML page (figures inline-JS for ``html``, SVG for ``pdf``)."""
    view = facts.view
    source, notes = source_arguments(facts.provenance, table_file=table_file,
                                     id_column=facts.id_column)
    bundled = facts.provenance.kind == "bundled"
    settings = views.cli_arguments(view, all_rows=bundled)[4:]   # after "copa-dash select --dataset NAME"
    select = ["copa-dash", "select", *source, *settings, "--json"]
    report = ["copa-dash", "report", *source, *settings, "-o", output_name]
    reproduce = [
        {"label": "The pick, from the command line (prints the same id):",
         "text": views.command_line(select)},
        {"label": "This report:", "text": views.command_line(report)},
        {"label": "How sure is the pick (the same acceptability, flips and leave-one-out):",
         "text": views.command_line(["copa-dash", "robustness", *source, *settings, "--json"])},
    ]
    explore, lost = views.explore_view(view)
    if facts.provenance.kind in ("bundled", "uploaded"):
        reproduce.append({"label": "Share link (opens the same view on a running copa-dash):",
                          "text": link(explore, base=share_base)})
    else:
        where = "a file on your machine" if table_file else "in memory (a notebook)"
        notes.append(f"The table is {where}, so there is no share link; upload it to an "
                     "instance to get one.")
    if lost:
        notes.append("The share link cannot hold these constraints (the explorer has no "
                      f"control for them): {'; '.join(lost)}.")
    if facts.view.answers:
        notes.append('The "Help me choose" answers are listed above; the command and the '
                     "link reproduce the weights shown, not the questions.")
    constraints = [text for text, _ in facts.rows.excluded_by]
    return _ENV.get_template("decision.html.j2").render(
        f=facts, prov=facts.provenance, version=__version__, generated_at=stamp(generated_at),
        p_text="inf" if math.isinf(view.p) else _num(view.p), constraints=constraints,
        figures=_figures([report_figures.decision_front(facts)], fmt), reproduce=reproduce,
        reproduce_notes=notes)


def systems_html(facts: SystemsFacts, *, fmt: str = "html", generated_at=None,
                 share_base: str = "", table_file: str | None = None,
                 id_column: str = "") -> str:
    """The systems report as an HTML page."""
    source, notes = source_arguments(facts.provenance, table_file=table_file,
                                     id_column=id_column)
    reproduce = [{"label": "From the command line:", "text": views.command_line(command)}
                 for command in systems_cli(facts, source)]
    if facts.provenance.kind in ("bundled", "uploaded"):
        reproduce.append({"label": "Share link (opens the same comparison on a running "
                                   "copa-dash):",
                          "text": link(systems_view(facts), base=share_base)})
    view = facts.view
    names = [n for n, _ in facts.objectives]
    titles = [report_figures.axis_title(n, view_label, "", d)
              for (n, d), view_label in zip(facts.objectives[:2], names[:2])]
    figures = [report_figures.systems_radar(facts.records, RADAR_LABELS, RADAR_AXES,
                                            facts.shown),
               report_figures.systems_front(view.raw[:, :2], view.system_of_row,
                                            list(view.systems), view.front_in(names[:2]),
                                            facts.shown, titles)]
    return _ENV.get_template("systems.html.j2").render(
        s=facts, prov=facts.provenance, version=__version__, generated_at=stamp(generated_at),
        keys=INDICATORS, labels=[LABELS[k] for k in INDICATORS],
        figures=_figures(figures, fmt), reproduce=reproduce, reproduce_notes=notes)


def to_bytes(html: str, fmt: str) -> bytes:
    """The finished file: the page itself (html) or Chromium's print of it (pdf)."""
    return _finish(html, check_format(fmt))
