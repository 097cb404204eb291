"""Decision and systems reports: one self-contained HTML or PDF file that says what was
chosen, under which preferences, how sure, and how to reproduce it.

``facts`` / ``systems_facts`` gather what a report states from the explorer's and the
systems page's services; ``render`` fills the Jinja2 templates of ``templates/`` (escaped)
and embeds the Plotly figures; ``pdf`` prints the page with Chromium. The entry points:

>>> from copa_dash.reports import decision_report, DecisionView
>>> data = decision_report(open_dataset("copa-synthetic"), DecisionView("copa-synthetic"))  # doctest: +SKIP
"""

from __future__ import annotations

from .facts import DecisionFacts, decision_facts, opened_table
from .render import FORMATS, check_format, decision_html, stamp, systems_html, to_bytes
from .systems_facts import SystemsFacts, systems_facts
from .view import DecisionView

__all__ = ["FORMATS", "DecisionFacts", "DecisionView", "SystemsFacts", "check_format",
           "decision_facts", "decision_html", "decision_report", "opened_table", "stamp",
           "systems_facts", "systems_html", "systems_report", "to_bytes"]


def decision_report(opened, view: DecisionView, *, fmt: str = "html", generated_at=None,
                    share_base: str = "", table_file: str | None = None,
                    output_name: str = "report.html", cache=None) -> bytes:
    """The decision report of ``view`` on ``opened`` as the bytes of an HTML or PDF file.

    Raises
    ------
    InvalidInputError
        A view the explorer rejects (with its message), or an unknown format.
    """
    fmt = check_format(fmt)
    facts = decision_facts(opened, view, cache=cache)
    html = decision_html(facts, fmt=fmt, generated_at=generated_at, share_base=share_base,
                         table_file=table_file, output_name=output_name)
    return to_bytes(html, fmt)


def systems_report(opened, *, fmt: str = "html", generated_at=None, share_base: str = "",
                   table_file: str | None = None, cache=None, **options) -> bytes:
    """The systems report (indicators, radar, fronts and, with ``baseline`` and
    ``candidate``, the permutation test) as the bytes of an HTML or PDF file; ``options``
    go to :func:`~.systems_facts.systems_facts`.

    Raises
    ------
    InvalidInputError
        What the systems service raises, or an unknown format.
    """
    fmt = check_format(fmt)
    facts = systems_facts(opened, cache=cache, **options)
    html = systems_html(facts, fmt=fmt, generated_at=generated_at, share_base=share_base,
                        table_file=table_file, id_column=opened.table.roles.id)
    return to_bytes(html, fmt)
