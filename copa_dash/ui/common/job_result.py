"""A running job dims the result it is about to replace.

While a background job runs (the Systems permutation test, the Posets depth), the result
on the page is still the previous settings' one: it is dimmed and labelled "from the
previous settings" until the new one arrives. The job's ``running`` property toggles a CSS
class on the container of its result (:func:`dim_while_running`); ``assets/style.css``
does the rest:

- ``job-result`` marks the container; ``job-stale`` is added while the job runs;
- a child with ``job-live`` (a progress row inside the container) stays bright;
- an element with ``job-marker`` that is still empty means there is no previous result
  yet (the page's first run), so nothing is dimmed and nothing is labelled.

Pages whose results come from ordinary callbacks (Val -> test) put :data:`DIMS_WHILE_LOADING`
on their results: each output Dash is recomputing (``data-dash-is-loading``) is dimmed the
same way.
"""

from __future__ import annotations

from dash import Output, html

RESULT = "job-result"
STALE = "job-stale"
LIVE = "job-live"
MARK = "job-marker"
DIMS_WHILE_LOADING = "dims-while-loading"


def result_class(base: str = "") -> str:
    """The className of a job's result container (``base`` first, e.g. ``"results"``)."""
    return f"{base} {RESULT}".strip()


def dim_while_running(component_id, base: str = "") -> tuple:
    """An item of a background callback's ``running`` list: the container ``component_id``
    (whose className is :func:`result_class` of ``base``) is dimmed while the job runs."""
    return (Output(component_id, "className"), f"{result_class(base)} {STALE}",
            result_class(base))


def loading_note() -> html.Div:
    """The label of a :data:`DIMS_WHILE_LOADING` page, shown while an output is recomputed."""
    return html.Div("From the previous settings: the new result is on its way.",
                    className="loading-note", role="status")
