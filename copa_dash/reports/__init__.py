"""Decision and systems reports: one self-contained HTML or PDF file that says what was
chosen, under which preferences, how sure, and how to reproduce it.

``facts`` / ``systems_facts`` gather what a report states from the explorer's and the
systems page's services; ``render`` fills the Jinja2 templates of ``templates/`` (escaped)
and embeds the Plotly figures; ``pdf`` prints the page with Chromium. The entry points:

>>> from copa_dash.reports import decision_report, DecisionView
>>> data = decision_report(open_dataset("copa-synthetic"), DecisionView("copa-synthetic"))  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable

from .facts import DecisionFacts, decision_facts, opened_table
from .render import FORMATS, check_format, decision_html, stamp, systems_html, to_bytes
from .systems_facts import SystemsFacts, systems_facts
from .view import DecisionView

__all__ = ["FORMATS", "DecisionFacts", "DecisionView", "SystemsFacts", "check_format",
           "decision_facts", "decision_html", "decision_report", "opened_table", "stamp",
           "steps", "systems_facts", "systems_html", "systems_report", "to_bytes"]


def decision_report(opened, view: DecisionView, *, fmt: str = "html", generated_at=None,
                    share_base: str = "", table_file: str | None = None,
                    output_name: str = "report.html", cache=None,
                    progress: Callable[[str], None] | None = None) -> bytes:
    """The decision report of ``view`` on ``opened`` as the bytes of an HTML or PDF file;
    ``progress`` (if given) is told each step in words before it starts (:func:`steps`).

    Raises
    ------
    InvalidInputError
        A view the explorer rejects (with its message), or an unknown format.
    """
    fmt = check_format(fmt)
    say = steps(fmt, progress)
    say("Working out the pick, the front and how sure it is")
    facts = decision_facts(opened, view, cache=cache)
    say("Drawing the figures and writing the page")
    html = decision_html(facts, fmt=fmt, generated_at=generated_at, share_base=share_base,
                         table_file=table_file, output_name=output_name)
    say("Printing the PDF with Chromium (the longest step, about 5-10 s)")
    return to_bytes(html, fmt)


def systems_report(opened, *, fmt: str = "html", generated_at=None, share_base: str = "",
                   table_file: str | None = None, cache=None,
                   progress: Callable[[str], None] | None = None, **options) -> bytes:
    """The systems report (indicators, radar, fronts and, with ``baseline`` and
    ``candidate``, the permutation test) as the bytes of an HTML or PDF file; ``options``
    go to :func:`~.systems_facts.systems_facts`.

    Raises
    ------
    InvalidInputError
        What the systems service raises, or an unknown format.
    """
    fmt = check_format(fmt)
    say = steps(fmt, progress)
    say("Computing the indicators (and the permutation test, if asked)")
    facts = systems_facts(opened, cache=cache, **options)
    say("Drawing the figures and writing the page")
    html = systems_html(facts, fmt=fmt, generated_at=generated_at, share_base=share_base,
                        table_file=table_file, id_column=opened.table.roles.id)
    say("Printing the PDF with Chromium (the longest step, about 5-10 s)")
    return to_bytes(html, fmt)


def steps(fmt: str, progress: Callable[[str], None] | None) -> Callable[[str], None]:
    """A function telling ``progress`` each step of a report as "Step i of n: what...".

    An HTML report has two steps (the numbers, then the page); a PDF has a third, Chromium's
    print, which is the longest. The print step is told only for a PDF.

    Examples
    --------
    >>> said = []
    >>> say = steps("html", said.append)
    >>> say("Working"); say("Drawing"); say("Printing")
    >>> said
    ['Step 1 of 2: Working...', 'Step 2 of 2: Drawing...']
    """
    total = 3 if fmt == "pdf" else 2
    done = [0]

    def say(text: str) -> None:
        if progress is None or done[0] >= total:
            return
        done[0] += 1
        progress(f"Step {done[0]} of {total}: {text}...")

    return say
