"""The explorer's "How sure is this pick?" panel, beside the pick card, and its verdict in
the line above the figure.

The view's callback (explore/callbacks.py) fills both in its own answer when the analysis
cache holds the view's result already (:func:`view_outputs`: a view seen before, such as an
objective ticked back, costs no second request); otherwise it greys the last view's panel and
names the view in :data:`PENDING`, whose callback shows it after the figure is drawn, so it
never delays a slider move; its work starts in the background as soon as the view's answer
is sent (:func:`start_work`), and that callback reads it from the cache when it is done. That answer is shown only if its view is still the one shown
(:data:`SHOWN`, checked in the browser): a slow answer for a view left meanwhile is dropped.
The numbers are those of :func:`copa_dash.services.robustness.robustness` (the CLI's
``robustness``, the notebook's ``copa_dash.robustness`` and the decision report). Text from
the data is escaped.
"""

from __future__ import annotations

import logging
from functools import partial
from html import escape
from urllib.parse import parse_qs

import flask
from dash import Input, Output, State, dcc, html, no_update

from copa_dash.core.errors import InvalidInputError
from copa_dash.services import pending_work
from copa_dash.services import robustness as service
from copa_dash.services import robustness_jobs as jobs
from copa_dash.services.catalog import open_dataset
from copa_dash.ui.common.html_block import HtmlBlock
from copa_dash.ui.common.settings_access import current_cache, current_settings
from copa_dash.ui.common.short_labels import apart_labels, left_out_sentence
from copa_dash.ui.features.explore.state import parse_query, with_defaults
from copa_dash.ui.features.explore.view_state import preferences_and_filter

PANEL = "explore-robust"
BODY = "explore-robust-body"
VERDICT = "explore-robust-verdict"    # the verdict again, in the line above the figure
PENDING = "explore-robust-pending"    # the view whose panel the server works out (a miss)
ANSWER = "explore-robust-answer"      # that answer: {"query", "body", "verdict"}
SHOWN = "explore-robust-shown"        # the view the page shows, whose answer is applied
# acceptability bars shown; the sections under them fold (details) so the panel is no taller
# than the pick card beside it
BARS = 5
# characters of an id beside its bar (the 190 px column of assets/style.css)
ID_CHARS = 24
WAITING_WORDS = "working out how sure the pick is…"
WAITING = f"<p><em>{WAITING_WORDS[0].upper() + WAITING_WORDS[1:]}</em></p>"
FAILED_WORDS = ("How sure the pick is could not be worked out for this view: an error in "
                "copa-dash, logged on the server. The pick above does not depend on it; "
                "another setting may work.")
logger = logging.getLogger(__name__)


def panel() -> html.Div:
    """The panel's frame, with the stores of a view worked out apart; the view's callback
    (:func:`view_outputs`) or, for a view the cache did not hold, :func:`register_callbacks`'s
    fill its body."""
    return html.Div(id=PANEL, className="robust-card", children=[
        html.H3("How sure is this pick?"),
        HtmlBlock(id=BODY, className=BODY_CLASS, html=WAITING),
        dcc.Store(id=PENDING), dcc.Store(id=ANSWER), dcc.Store(id=SHOWN),
    ])


def _view_of(query: str):
    """The opened dataset, preferences and row filter of the view ``query``."""
    given = parse_qs(query or "")
    opened = open_dataset(parse_query(given).dataset, current_settings())
    state = with_defaults(parse_query(given), opened, given=set(given))
    return (opened, *preferences_and_filter(state, opened.table))


def result_of(query: str) -> service.Robustness:
    """The service's answer for the view ``query`` (the page's query string): read from the
    cache once the view's background job (:func:`start_work`) ends, when one runs."""
    opened, prefs, row_filter = _view_of(query)
    where = dict(dataset_id=opened.cache_id, cache=current_cache())
    jobs.join(opened.table, prefs, row_filter, **where,
              lock_dir=pending_work.lock_dir(current_settings()))
    return service.robustness(opened.table, prefs, row_filter, **where)


def start_work(query: str) -> None:
    """Start working out the view ``query``'s result in the background once this request's
    answer is sent (:mod:`copa_dash.services.robustness_jobs`), so that the panel's own
    request, sent after the figure is drawn, finds it done or under way. After the answer,
    not before: the job's kernels hold the interpreter while they run, and would slow down
    the answer's serialisation. A view that cannot be read starts nothing."""
    try:
        opened, prefs, row_filter = _view_of(query)
        job = partial(jobs.start, opened.table, prefs, row_filter, dataset_id=opened.cache_id,
                      cache=current_cache(), lock_dir=pending_work.lock_dir(current_settings()))
    except InvalidInputError:
        return
    except Exception:  # a defect here must not cost the view its answer: the panel's request
        logger.exception("the robustness of %s could not be started", query)   # works it out
        return
    after_the_answer(job)


def after_the_answer(work) -> None:
    """Run ``work()`` once the current request's answer has been sent (right away outside a
    request); a failure is logged, never raised."""
    def run():
        try:
            work()
        except Exception:
            logger.exception("the robustness panel's background job could not start")

    if not flask.has_request_context():
        run()
        return

    @flask.after_this_request
    def when_sent(response):
        response.call_on_close(run)
        return response


def kept_result_of(query: str) -> service.Robustness | None:
    """:func:`result_of` when the analysis cache holds it already, else ``None`` (nothing is
    computed; a view that cannot be read is ``None`` too, :func:`fill` says why)."""
    try:
        opened, prefs, row_filter = _view_of(query)
    except InvalidInputError:
        return None
    return service.kept_robustness(opened.table, prefs, row_filter,
                                   dataset_id=opened.cache_id, cache=current_cache())


def _code(value) -> str:
    return f"<code>{escape(' '.join(str(value).splitlines()))}</code>"


def body_html(result: service.Robustness) -> str:
    """The panel's HTML: verdict, acceptability bars, flips, leave-one-out, noise, missing."""
    parts = [f"<p class='robust-verdict'>{escape(result.verdict())}</p>",
             (f"<h4>Rank acceptability</h4><p><em>share of {result.samples:,} random weightings "
             "of the objectives (uniform over all weightings, seed "
             f"{result.seed}) under which a model ranks first (dark bar) or in the top 3 "
             "(light bar); ± one standard error.</em></p><div class='robust-bars'>")]
    shown = result.acceptability[:BARS]
    # head, tail and the part that tells the ids apart (a CSS cut at the end hid the config
    # of "model · 8bit" and "model · 4bit"); the full id on hover
    # (without a head or tail every id shown shares, said under the bars)
    labels, note = apart_labels([row["id"] for row in shown], limit=ID_CHARS, noun="id")
    for row, label in zip(shown, labels):
        mark = " robust-pick" if row["id"] == result.pick else ""
        parts.append(
            f"<div class='robust-row{mark}'><span class='robust-id' title='{escape(row['id'])}'>"
            f"{_code(label)}</span><span class='robust-track'>"
            f"<span class='robust-top3' style='width:{100 * row['top3']:.1f}%'></span>"
            f"<span class='robust-rank1' style='width:{100 * row['rank1']:.1f}%'></span></span>"
            f"<span class='robust-share'>{100 * row['rank1']:.1f}% ± {100 * row['rank1_se']:.1f}"
            f" first, {100 * row['top3']:.0f}% top 3</span></div>")
    parts.append("</div>")
    if note:
        parts.append(f"<p><em>{escape(left_out_sentence(note, 'above'))}.</em></p>")
    if len(result.acceptability) > BARS:
        parts.append(f"<p><em>{len(result.acceptability) - BARS} more models are first or in "
                     "the top 3 for some weighting.</em></p>")
    nearest = escape(result.flips[0]["text"]) if result.flips else \
        "no single change of alpha, p or one weight changes the pick"
    parts.append(f"<details class='robust-more'><summary><b>What flips it:</b> {nearest}"
                 "</summary><p><em>the smallest change of one setting that gives another "
                 "pick (others kept; weights rescaled to sum 1).</em></p><ul>")
    parts += [f"<li>{escape(f['text'])}</li>" for f in result.flips] or \
        ["<li>no single change of alpha, p or one weight changes the pick</li>"]
    if result.flips and not any(f["setting"] == "p" for f in result.flips):
        parts.append("<li>no p from 1 to inf changes the pick</li>")
    stays = sum(pick == result.pick for pick in result.leave_one_out.values())
    parts.append(f"</ul></details><details class='robust-more'><summary><b>Leave one objective "
                 f"out:</b> the same pick without {stays} of {len(result.leave_one_out)} "
                 "objectives</summary><p><em>the pick without each objective (same p, the other "
                 "weights rescaled).</em></p><ul>")
    for name, pick in result.leave_one_out.items():
        same = " (the same pick)" if pick == result.pick else ""
        parts.append(f"<li>without {_code(name)}: {_code(pick) if pick else 'no pick'}{same}</li>")
    parts.append("</ul></details>")
    parts += _membership_html(result.membership) + _missing_html(result.missing)
    return "".join(parts)


def _membership_html(membership) -> list[str]:
    if not membership:
        return [("<p><em>Noise: this table has no runs (system and seed) and no uncertainty "
                "column paired with a metric, so the scores are taken as exact.</em></p>")]
    rows = "".join(f"<li>{_code(r['id'])}: on the front {100 * r['front']:.0f}%, picked "
                   f"{100 * r['pick']:.0f}%</li>" for r in membership["rows"][:6])
    return [(f"<details class='robust-more'><summary><b>Under noise</b></summary><p><em>share "
             f"of {membership['samples']} redrawn score tables "
             f"({escape(membership['method'])}) in which a model is on the Pareto front (no "
             f"model better on every objective) and is the pick.</em></p><ul>{rows}</ul>"
             "</details>")]


def _missing_html(missing) -> list[str]:
    if not missing:
        return []
    text = (f"{missing['rows']} models miss a score: {missing['always_dominated']} are dominated "
            "(another model is as good on every objective and better on one) whatever the "
            "missing values are (within each column's observed range), "
            f"{missing['maybe_dominated']} only for some values, {missing['never_dominated']} "
            "never.")
    if "picks" in missing:
        picks = ", ".join(f"{_code(p['id'])} {100 * p['share']:.0f}%" for p in missing["picks"][:4])
        how = "every" if missing["exhaustive"] else "random"
        text = escape(text) + f" Picks over {missing['fillings']} {how} fillings: {picks}."
    else:
        text = escape(text)
    return [(f"<details class='robust-more'><summary><b>Missing scores</b></summary><p>{text}"
            "</p></details>")]


def verdict_line() -> html.Span:
    """The verdict's place in the line above the figure (:func:`fill` writes it)."""
    return html.Span(id=VERDICT, className="pick-line-verdict", children=WAITING_WORDS)


def fill(query):
    """The panel's body for the view ``query`` and its verdict for the line above the
    figure, or what to do when it cannot be computed (the line then says to look below)."""
    if not query:
        return WAITING, WAITING_WORDS
    try:
        result = result_of(query)
    except InvalidInputError as exc:
        return f"<p><em>{escape(str(exc))}</em></p>", "how sure it is: see the panel below."
    except Exception:  # a defect here must not leave the panel "working" forever
        # the app's on_error handler would log it too, but leave both outputs on their waiting
        # words; the pick and the figure above do not depend on this panel
        logger.exception("the robustness panel failed for %s", query)
        return (f"<p><em>{FAILED_WORDS}</em></p>",
                "how sure it is could not be worked out (see the panel below).")
    return body_html(result), _line_verdict(result)


def _line_verdict(result: service.Robustness) -> str:
    """The verdict for the line above the figure, which names the pick just before it."""
    verdict = result.verdict()
    if verdict.startswith(f"{result.pick} "):
        verdict = "it" + verdict[len(result.pick):]
    return verdict


BODY_CLASS = "robust-body"
# the last view's panel, greyed while the new view's is worked out: without it the new pick
# stood beside the last pick's share ("it stays the pick for 41%") for 0.3-1 s, a sure-looking
# number about another model
STALE_CLASS = BODY_CLASS + " robust-stale"
#: the view callback's outputs for the panel (:func:`view_outputs` fills them)
VIEW_OUTPUTS = (Output(BODY, "html"), Output(VERDICT, "children"), Output(BODY, "className"),
                Output(PENDING, "data"), Output(SHOWN, "data"))


def view_outputs(query: str) -> tuple:
    """The panel's part of the view callback's answer for the view ``query``: the panel
    itself when the cache holds its result (no second request), else the last view's panel
    greyed, the line saying it is being worked out, ``query`` in :data:`PENDING` for
    :func:`answer` to show, and its work started in the background (:func:`start_work`).
    Either way ``query`` is the view shown (:data:`SHOWN`)."""
    try:
        result = kept_result_of(query) if query else None
    except Exception:  # a defect here must not cost the view its answer: work it out apart
        logger.exception("the kept robustness of %s could not be read", query)
        result = None
    if result is None:
        if query:
            start_work(query)
        return no_update, WAITING_WORDS, STALE_CLASS, query, query
    return body_html(result), _line_verdict(result), BODY_CLASS, no_update, query


def answer(query):
    """The panel's body and verdict for the view ``query`` (:data:`PENDING`), with the view
    they are for: the browser shows them only if it is still the view shown."""
    body, verdict = fill(query)
    return {"query": query, "body": body, "verdict": verdict}


# In the browser: an answer is shown only while its view is the one shown; one that arrives
# after the page moved to another view (a slow view, then one seen before) is dropped.
APPLY = ("function (answer, shown) { const skip = window.dash_clientside.no_update;"
         " if (!answer || answer.query !== shown) { return [skip, skip, skip]; }"
         " return [answer.body, answer.verdict, '" + BODY_CLASS + "']; }")


def register_callbacks(app) -> None:
    """Work out the panel of a view the cache did not hold (:data:`PENDING`), and show the
    answer if its view is still shown."""
    app.callback(Output(ANSWER, "data"), Input(PENDING, "data"),
                 prevent_initial_call=True)(answer)
    app.clientside_callback(APPLY, Output(BODY, "html", allow_duplicate=True),
                            Output(VERDICT, "children", allow_duplicate=True),
                            Output(BODY, "className", allow_duplicate=True),
                            Input(ANSWER, "data"), State(SHOWN, "data"),
                            prevent_initial_call=True)


__all__ = ["VIEW_OUTPUTS", "after_the_answer", "answer", "body_html", "fill", "panel",
           "register_callbacks", "result_of", "start_work", "verdict_line", "view_outputs"]
