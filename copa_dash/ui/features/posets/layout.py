"""Partial rankings of methods across tasks and their ufg depth: ``/posets?dataset=NAME&...``.

Per task, the methods form a dominance poset on the chosen criteria; the ufg depth of each
task's poset among all of them says how typical that task's ranking is (paper App. B).
The page shows the depth per task (most central and most outlying named), the Hasse
diagrams of the most central and the most outlying posets, how often each method is above
each other, and what the k most central posets agree on. The URL holds the view:
``/posets?dataset=dmop&crit=migd|migd_stage1&ties=drop&missing=drop&mode=exact&k=3``.
"""

from __future__ import annotations

import re
from dataclasses import replace

import dash
from dash import dcc, html

from copa_dash.core.errors import InvalidInputError
from copa_dash.services import posets
from copa_dash.services.catalog import catalog
from copa_dash.services.posets import NotLongTable, long_columns
from copa_dash.ui.common.alerts import empty_state
from copa_dash.ui.common.datasets import open_or_explain
from copa_dash.ui.common.empty import empty_figure
from copa_dash.ui.common.glossary import term
from copa_dash.ui.common.help import help_text
from copa_dash.ui.common.job_result import LIVE, MARK, result_class
from copa_dash.ui.common.page_frame import empty_state_page, view_page
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.short_labels import apart_labels, left_out_sentence
from copa_dash.ui.common.url_sync import share_box
from copa_dash.ui.common.working_context import read_context
from copa_dash.ui.features.posets.ids import ID
from copa_dash.ui.features.posets.state import (
    PosetsState,
    apply_context,
    parse_query,
    to_query,
    with_defaults,
)

PATH = "/posets"
EMPTY_FIGURE = empty_figure(120)
# hidden but laid out at the page's width (not display: none), so the figures drawn in it
# get their real width, not Plotly's default 700 px, before they are shown
HIDDEN = {"visibility": "hidden", "height": 0, "overflow": "hidden"}
DEFAULT_DATASET = "deepobs"
# the shipped long table a wide leaderboard's empty state links to (many methods, many tasks)
LONG_EXAMPLE = "amlb-2022"
# radio buttons beside their labels: the shared "rankings-radio" rule of assets/rankings.css


def criteria_pairs(table, names) -> tuple[tuple[str, str], ...]:
    """(name, direction) of the chosen objectives, with the table's directions."""
    known = set(table.objective_names)
    return tuple((n, table.objective(n).direction) for n in names if n in known)


def _options(values) -> list[dict]:
    return [{"label": str(v), "value": str(v)} for v in values]


def _dataset_picker(opened) -> dcc.Dropdown:
    options = [{"label": e.title, "value": e.ref} for e in catalog(current_settings())]
    if not any(o["value"] == opened.ref for o in options):
        options.append({"label": opened.title, "value": opened.ref})
    return dcc.Dropdown(id=ID.DATASET, options=options, value=opened.ref, clearable=False)


def _controls(opened, state: PosetsState) -> html.Aside:
    table = opened.table
    others = [c for c in table.frame.columns if c not in table.objective_names]
    return html.Aside(className="controls", children=[
        html.H4("Dataset"),
        _dataset_picker(opened),
        html.Details([html.Summary(f"About: {opened.title}"), html.P(opened.description)]),
        html.H4("Long table"),
        html.Label("Method column"),
        dcc.Dropdown(id=ID.METHOD, options=_options(others), value=state.method or None),
        html.Label("Task column"),
        dcc.Dropdown(id=ID.TASK, options=_options(others), value=state.task or None),
        html.H4("Criteria"),
        dcc.Dropdown(id=ID.CRITERIA, multi=True, value=list(state.criteria), options=[
            {"label": f"{n} ({d})", "value": n}
            for n, d in zip(table.objective_names, table.directions)]),
        help_text("On each task, a method is above another when it is no worse on every "
                  "criterion and better on one; otherwise they are incomparable."),
        html.H4("Ties"),
        dcc.RadioItems(id=ID.TIES, className="rankings-radio", value=state.ties, options=[
            {"label": "drop tasks with tied methods (the paper)", "value": "drop"},
            {"label": "keep them, tied methods incomparable", "value": "incomparable"}]),
        html.H4("Missing values"),
        dcc.RadioItems(id=ID.MISSING, className="rankings-radio", value=state.missing, options=[
            {"label": "drop the task", "value": "drop"},
            {"label": "count as worst", "value": "worst"}]),
        html.H4("Depth"),
        dcc.RadioItems(id=ID.MODE, className="rankings-radio", value=state.mode,
                       options=mode_options(None)),
        # what exact would cost on this view, said before the user starts it (callbacks.draw)
        html.P(id=ID.FORECAST, className="help", role="note"),
        html.Label("error at most (approximate)", htmlFor=ID.TOLERANCE, className="help"),
        dcc.Input(id=ID.TOLERANCE, type="number", min=0.001, max=0.5, step="any",
                  value=state.tolerance, debounce=True, style={"width": "90px"}),
        help_text("Exact depth examines every set of observed posets that can be union-free "
                  "generic; with many distinct posets that can take minutes or more. Automatic "
                  "predicts that work before it starts and, past this instance's budget, "
                  "stops once every depth is within the stated error (the notes say which it "
                  "did). A run can be cancelled."),
    ])


def layout(**query):
    """Build the page from the query string, so a copied link reproduces the view."""
    state = parse_query(query)
    opened, why_not = open_or_explain(state.dataset or DEFAULT_DATASET, current_settings(), "Posets")
    if opened is None:
        return why_not
    state, context_notes = apply_context(state, read_context(query), opened)
    state = with_defaults(state, opened)
    try:
        long_columns(opened.table, method=state.method or None, task=state.task or None)
    except NotLongTable:
        return _wide_table_page(opened, state)
    except InvalidInputError:
        pass        # e.g. the same column twice: the page opens and its alert line says so
    graph = {"config": {"displaylogo": False}, "figure": EMPTY_FIGURE}
    return view_page(ID.NAV, ID.QUERY, to_query(state), context_notes=context_notes, children=[
        dcc.Store(id=ID.REF, data=opened.ref),
        dcc.Store(id=ID.RESULT),
        dcc.Store(id=ID.JOB),     # the depth job's arguments, set only when nothing is stored
        dcc.Store(id=ID.DRAWN),   # the arguments of the depth drawn (None: none is)
        dcc.Store(id=ID.RESTORED),  # the arguments Cancel set the controls back to
        _controls(opened, state),
        html.Main(id=ID.RESULTS, className=result_class("results"), children=[
            html.Div(id=ID.PROGRESS_ROW, className=LIVE, style={"display": "none"}, children=[
                # what the bar shows, in words (running_words): a share, or the time so far
                html.Span(SHARE_WORDS, id=ID.PROGRESS_TEXT, style={"flex": "1 1 100%"}),
                html.Progress(id=ID.PROGRESS, value="0", max="100", style={"width": "240px"}),
                html.Button("Cancel", id=ID.CANCEL, className="button",
                            style={"marginLeft": "10px"}),
                # the predicted cost of an exact depth, beside the bar it would hold at
                html.Span(id=ID.FORECAST_BAR, className="help",
                          style={"marginLeft": "10px", "flex": "1 1 300px"}),
            ]),
            html.Div(id=ID.ALERT),
            html.Div(id=ID.HEADLINE, className=MARK),
            html.Div(id=ID.TIED),
            _figures(state, graph),
            html.Div(id=ID.NOTES),
            html.Div(className="share-row", children=[
                html.Span("Share this view: "),
                *share_box(ID.SHARE, PATH, to_query(state)),
            ]),
        ]),
    ])


def _figures(state, graph: dict) -> html.Div:
    """The depth bars, the two Hasse diagrams, the beats matrix and the agreement: hidden until
    there is a depth to show, so a table that cannot be read as partial rankings, or a first
    result still computing, shows its message alone, not empty frames."""
    return html.Div(id=ID.FIGURES, style=HIDDEN, children=[
        html.H4([term("ufg_depth", "Depth"), " of each task's poset (",
                 term("ufg", "union-free generic"), ")"]),
        dcc.Graph(id=ID.DEPTH, **graph),
        # side by side from 1200 px, one above the other below (assets/posets.css)
        html.Div(className="posets-pair", children=[dcc.Graph(id=ID.HASSE_CENTRAL, **graph),
                                       dcc.Graph(id=ID.HASSE_OUTLYING, **graph)]),
        help_text("Hasse diagrams: an edge means the upper method is above the lower one "
                  "with no method in between; methods on one level, or not linked by an "
                  "upward path, are incomparable."),
        html.Div(className="posets-pair", children=[
            dcc.Graph(id=ID.BEATS, **graph),
            html.Div([
                html.Div(className="axes-row", children=[
                    html.Label("What the", htmlFor=ID.K),
                    dcc.Input(id=ID.K, type="number", min=1, max=50, step=1, value=state.k,
                              debounce=True, style={"width": "60px"}),
                    html.Span("most central posets agree on")]),
                html.Div(id=ID.AGREEMENT)]),
        ]),
    ])


def register_page() -> None:
    """Register the page with Dash (app_shell registers its callbacks)."""
    dash.register_page("posets", path=PATH, name="Posets", title="copa-dash: posets",
                       layout=layout, nav=True)


SHARE_WORDS = "Computing the depth; share of the subsets settled:"


def running_words(exact: bool, seconds: float) -> str:
    """What the progress bar stands for while the depth runs.

    The approximate (and automatic) depth reports the share of the subset weight settled,
    which reaches 1 when it stops. The exact depth has no honest share: pruning decides how
    much of the predicted work is really done, so the weight settled reads 99% from the first
    second on a case that may run for years. Its bar is indeterminate (no value) and the
    words give the time so far; the prediction stands beside the bar.

    Examples
    --------
    >>> running_words(True, 75.2)
    'Computing the exact depth: 1 min 15 s so far; how much is left cannot be known ahead.'
    >>> running_words(False, 3)
    'Computing the depth; share of the subsets settled:'
    """
    if not exact:
        return SHARE_WORDS
    whole = int(seconds)
    spent = f"{whole // 60} min {whole % 60} s" if whole >= 60 else f"{whole} s"
    return (f"Computing the exact depth: {spent} so far; how much is left cannot be known "
            "ahead.")


def wide_table_words(title: str, state: PosetsState) -> str:
    """Why a table without a method or a task column has no partial rankings, in words.

    >>> wide_table_words("Open LLM Leaderboard v2", PosetsState())
    'Partial rankings need a long table: one row per method and task, with a column naming the method and one naming the task. Open LLM Leaderboard v2 has no method column and no task column (one row per entry, its scores side by side).'
    """
    missing = " and ".join(f"no {name} column" for name, given in
                           (("method", state.method), ("task", state.task)) if not given)
    return ("Partial rankings need a long table: one row per method and task, with a column "
            f"naming the method and one naming the task. {title} has {missing} (one row per "
            "entry, its scores side by side).")


def _wide_table_page(opened, state: PosetsState) -> html.Div:
    """A wide table: the pages' shared empty state (ui/common/page_frame), with the reason and
    the shipped long example one click away in its one box (id ``ID.ALERT``); no long-table
    controls, no empty frames."""
    return empty_state_page(
        ID.NAV, ID.QUERY, to_query(state), stores=[dcc.Store(id=ID.REF, data=opened.ref)],
        picker=_dataset_picker(opened), title=opened.title, description=opened.description,
        message=wide_table_words(opened.title, state), links=_long_example(),
        message_id=ID.ALERT)


def not_long_alert(message: str) -> html.Div:
    """A wide table's empty state: why Posets cannot read it, and the shipped long example
    one click away, with what that example shows (the shared empty-state box)."""
    return empty_state(message, _long_example())


def _long_example() -> list:
    """The link to the shipped long example, and what it shows."""
    return [dcc.Link("Open Posets on the shipped example, the AutoML Benchmark 2022",
                     href=f"{PATH}?dataset={LONG_EXAMPLE}"),
            (": 10 AutoML frameworks (methods) on 55 datasets (tasks), compared on error and "
             "on training and inference time; it shows which datasets rank the frameworks "
             "as most do and which rank them unusually.")]


def mode_options(exact_seconds: float | None) -> list[dict]:
    """The depth's three choices, the exact one with its predicted cost on the view shown
    (:func:`posets.exact_choice_words`; the drawing callback updates it)."""
    return [{"label": "automatic: exact when quick, else approximate", "value": "auto"},
            {"label": posets.exact_choice_words(exact_seconds), "value": "exact"},
            {"label": "approximate", "value": "approx"}]


def task_names(tasks) -> str:
    """Tasks listed for a sentence; tasks named by a number say they are tasks (BBOB's
    functions 1-24: "Most central: 14, 9" read as two counts).

    >>> task_names(["14", "9"]), task_names(["3"]), task_names(["abalone", "7"])
    ('tasks 14, 9', 'task 3', 'abalone, 7')
    """
    tasks = [str(t) for t in tasks]
    listed = ", ".join(tasks)
    if tasks and all(re.fullmatch(r"-?\d+(\.\d+)?", t) for t in tasks):
        return ("task " if len(tasks) == 1 else "tasks ") + listed
    return listed


def headline(view, central, outlying) -> html.Div:
    """The most central and most outlying tasks, named, with their depths, and how many
    others an approximate depth cannot tell from them (:func:`posets.within_bound_of_extremes`)."""
    top = float(view.depths.max())
    low = float(view.depths.min())
    counts = (f"{len(view.tasks)} tasks, {len(view.methods)} methods, "
              f"{view.distinct.shape[0]} distinct posets, {view.n_ufg_sets} ufg sets "
              f"({'exact' if view.exact else f'within ±{view.error_bound:.3g}'}; "
              f"computed in {view.seconds:.2f} s).")
    equal = posets.equal_depths_sentence(view)
    if equal:   # naming extremes would list every task twice (issue 33): say why instead
        return html.Div(className="alert alert-warning", children=[
            html.Strong(equal), html.Div(f"Among {counts}", className="help")])
    children = [
        html.Strong("Most central: "), f"{task_names(central)} (depth {top:.3f})",
        html.Span(" · "), html.Strong("most outlying: "), (f"{task_names(outlying)} "
        f"(depth {low:.3f}) among {counts}")]
    unsure = posets.unsure_extremes_sentence(view)
    if unsure:
        children.append(html.Div(unsure, className="posets-unsure"))
    return html.Div(className="alert alert-info", children=children)


def tied_panel(view) -> html.Div | None:
    """The tasks with methods equal on every criterion, and what was done with them."""
    if not view.tied_pairs:
        return None
    pairs = "; ".join(f"{t}: {a} = {b}" for t, a, b in view.tied_pairs[:20])
    more = f" (and {len(view.tied_pairs) - 20} more)" if len(view.tied_pairs) > 20 else ""
    action = ("left out (switch 'Ties' to keep them)" if view.ties == "drop"
              else "kept, the tied methods incomparable")
    return html.Div(className="alert alert-warning", children=[
        html.Strong(f"Tied tasks ({len(view.tied_tasks)}): "),
        f"{', '.join(view.tied_tasks)} are {action}. Equal on every criterion: {pairs}{more}."])


def grouped_pairs(pairs) -> list[tuple[str, list[str]]]:
    """Pairs ``(a, b)`` grouped by their first method, in order of first appearance.

    >>> grouped_pairs([("A", "B"), ("A", "C"), ("B", "C")])
    [('A', ['B', 'C']), ('B', ['C'])]
    """
    groups: dict[str, list[str]] = {}
    for a, b in pairs:
        groups.setdefault(str(a), []).append(str(b))
    return list(groups.items())


def _methods_in(pairs) -> list[str]:
    return list(dict.fromkeys(str(m) for pair in pairs for m in pair))


def agreement_items(agreed) -> list[str]:
    """The relations the k deepest posets share as a few lines: one per method ("A is above
    B, C"; "A and each of B, C are incomparable"), or a single line when every pair of the
    methods is incomparable (45 bullets on amlb-2022 before; issue 33, F13).

    >>> from types import SimpleNamespace as NS
    >>> agreement_items(NS(above=[("A", "B")], incomparable=[("A", "C"), ("B", "C")]))
    ['A is above B', 'C is incomparable with A and B']
    >>> agreement_items(NS(above=[], incomparable=[("A", "B"), ("A", "C"), ("B", "C")]))
    ['All 3 methods (A, B, C) are incomparable with each other (3 pairs)']
    """
    items = [f"{a} is above {', '.join(bs)}" for a, bs in grouped_pairs(agreed.above)]
    apart = list(agreed.incomparable)
    methods = _methods_in(apart)
    if not agreed.above and len(apart) == len(methods) * (len(methods) - 1) // 2 > 1:
        return [(f"All {len(methods)} methods ({', '.join(methods)}) are incomparable with "
                 f"each other ({len(apart)} pairs)")]
    partners: dict[str, list[str]] = {m: [] for m in methods}
    for a, b in apart:
        partners[str(a)].append(str(b))
        partners[str(b)].append(str(a))
    shown: set[frozenset] = set()
    # the method with the most incomparable partners first, each pair said once
    for m in sorted(methods, key=lambda m: -len(partners[m])):
        rest = [o for o in partners[m] if frozenset((m, o)) not in shown]
        if rest:
            shown.update(frozenset((m, o)) for o in rest)
            others = rest[0] if len(rest) == 1 else f"{', '.join(rest[:-1])} and {rest[-1]}"
            items.append(f"{m} is incomparable with {others}")
    return items


def without_shared_ends(agreed, methods):
    """``agreed`` with the methods named as on the figures: without the head or tail every
    one of ``methods`` shares (:func:`~copa_dash.ui.common.short_labels.apart_labels`), and
    the note saying what was left out ("" when nothing was)."""
    methods = [str(m) for m in methods]
    labels, note = apart_labels(methods, noun="method")
    if not note:
        return agreed, ""
    named = dict(zip(methods, labels))

    def rename(pairs):
        return tuple((named.get(str(a), str(a)), named.get(str(b), str(b))) for a, b in pairs)

    return replace(agreed, above=rename(agreed.above),
                   incomparable=rename(agreed.incomparable)), note


def agreement_panel(agreed, methods=()) -> html.Div:
    """What the k deepest distinct posets share, in words; ``methods`` (all the view's) tell
    the head or tail every name shares, left out of the lines and said once."""
    posets = "; ".join(f"{', '.join(tasks)} ({depth:.3f})"
                       for tasks, depth in zip(agreed.tasks, agreed.depths))
    agreed, note = without_shared_ends(agreed, methods)
    items = [html.Li(text) for text in agreement_items(agreed)]
    return html.Div([
        html.P(f"The {agreed.k} deepest distinct posets (tasks, depth): {posets}.",
               className="help"),
        html.H5("In all of them"),
        *([html.P(f"{left_out_sentence(note, 'below')}.", className="help")]
          if note else []),
        html.Ul(items) if items else html.P("they share no relation."),
        html.P(f"{agreed.undecided} pairs of methods are ordered differently among them.",
               className="help")])
