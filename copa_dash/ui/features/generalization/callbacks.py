"""Thin callbacks of the validation -> test page: read the controls, get the (cached)
report from the generalisation service, hand it to the figure builders."""

from __future__ import annotations

from dash import Input, Output, State, html

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.catalog import open_dataset
from copa_dash.services.generalization import dataset_report, label_text, pair_comparisons
from copa_dash.ui.common.alerts import alert, view_notes
from copa_dash.ui.common.empty import empty_figure
from copa_dash.ui.common.settings_access import current_cache, current_settings
from copa_dash.ui.common.table_ids import id_tooltips
from copa_dash.ui.common.url_sync import register_url_sync, view_link, view_link_outputs
from copa_dash.ui.features.generalization import figures
from copa_dash.ui.features.generalization.ids import ID
from copa_dash.ui.features.generalization.layout import HELP_MORE, HELP_TWO, PATH
from copa_dash.ui.features.generalization.state import GapViewState, parse_ref, to_query

CRITERIA = {"hv_difference": "Hypervolume difference", "dominance": "Front dominance",
            "gap": "Approximation gap"}
EMPTY = empty_figure(120)
METRIC_INPUTS = [Input(ID.METRICS, "value"), Input(ID.REF, "value")]
CONTEXT = [State(ID.REF_STORE, "data"), State(ID.DIRECTIONS, "data")]


def _report(metrics, ref_text, dataset, directions):
    """The report for the chosen metrics (in the checklist's order) and reference point."""
    ordered = [m for m in directions if m in (metrics or [])]
    if len(ordered) < 2:
        raise InvalidInputError("choose at least two metrics")
    opened = open_dataset(dataset, current_settings())
    return dataset_report(opened, metrics=[(m, directions[m]) for m in ordered],
                          ref=parse_ref(ref_text) or None, cache=current_cache())


def _title(search) -> str:
    parts = [f"{name} {label_text(value)}" for name, value in
             (("system", search.system), ("budget", search.budget), ("seed", search.seed))
             if value is not None]
    fronts = search.fronts
    return (f"Search: {', '.join(parts) or 'all rows'} · {search.rows.size} configurations, "
            f"{int(fronts.validation_mask.sum())} on the validation front · "
            f"gap {fronts.gap:.4f}")


def _verdicts(report, comparisons, budget, seed) -> list:
    """The three sentences at (budget, seed), then how often each system wins over seeds."""
    here = [c for c in comparisons if label_text(c.budget) == budget]
    chosen = [c for c in here if label_text(c.seed) == seed]
    if not chosen:
        return [alert("The two systems do not both have a search at this budget and seed.", "info")]
    items = [html.Li([html.B(CRITERIA[v.criterion] + ": "), v.sentence])
             for v in chosen[0].verdicts.verdicts]
    out = [html.Ul(items, id="generalization-verdict-list")]
    if len(here) > 1:
        a, b = label_text(chosen[0].system_a), label_text(chosen[0].system_b)
        lines = []
        for k, criterion in enumerate(CRITERIA.values()):
            winners = [c.verdicts.verdicts[k].winner for c in here]
            lines.append(f"{criterion}: {a} {winners.count('A')}, {b} {winners.count('B')}, "
                         f"undecided {sum(w not in ('A', 'B') for w in winners)}")
        out.append(html.P(f"Over the {len(here)} seeds at this budget — " + "; ".join(lines) + ".",
                          className="help"))
    return out


def register_callbacks(app) -> None:
    """Attach the page's callbacks to ``app``."""

    @app.callback(Output(ID.ALERT, "children"), Output(ID.SEARCH_TITLE, "children"),
                  Output(ID.PANELS, "figure"), Output(ID.PANELS_HELP, "children"),
                  Output(ID.FRONT_TABLE, "data"),
                  Output(ID.FRONT_TABLE, "columns"), Output(ID.FRONT_TABLE, "tooltip_data"),
                  *METRIC_INPUTS, Input(ID.SYSTEM, "value"), Input(ID.BUDGET, "value"),
                  Input(ID.SEED, "value"), *CONTEXT)
    def update_search(metrics, ref_text, system, budget, seed, dataset, directions):
        """The three panels (or, beyond two metrics, parallel axes) and the front's table."""
        try:
            report = _report(metrics, ref_text, dataset, directions)
            search = report.search(system, budget, seed)
        except InvalidInputError as exc:
            return alert(str(exc)), "", EMPTY, "", [], [], []
        two = len(report.spec.metrics) == 2
        figure = figures.search_panels(report, search) if two else figures.parallel_front(report, search)
        data, columns = figures.front_table(report, search)
        notes = view_notes(None, report.notes)
        return (notes, _title(search), figure, HELP_TWO if two else HELP_MORE, data, columns,
                id_tooltips(data, "id"))

    @app.callback(Output(ID.VERDICTS, "children"), Output(ID.SYSTEMS, "figure"),
                  Output(ID.SYSTEMS, "style"), *METRIC_INPUTS, Input(ID.BUDGET, "value"),
                  Input(ID.SEED, "value"), Input(ID.A, "value"), Input(ID.B, "value"), *CONTEXT)
    def update_comparison(metrics, ref_text, budget, seed, a, b, dataset, directions):
        """The three verdicts between systems A and B in words, and both systems' fronts."""
        hidden = {"display": "none"}
        if not a or not b or a == b:
            return alert("Choose two different systems to compare.", "info"), EMPTY, hidden
        try:
            report = _report(metrics, ref_text, dataset, directions)
            comparisons = pair_comparisons(report, a, b)
            shown = report.search(a, budget, seed), report.search(b, budget, seed)
        except InvalidInputError as exc:
            return alert(str(exc), "info"), EMPTY, hidden
        if len(report.spec.metrics) != 2:
            return _verdicts(report, comparisons, budget, seed), EMPTY, hidden
        return _verdicts(report, comparisons, budget, seed), figures.systems_fronts(report, *shown), {}

    @app.callback(Output(ID.SUMMARY, "data"), Output(ID.SUMMARY, "columns"),
                  Output(ID.SUMMARY, "tooltip_data"), Output(ID.BUDGET_CHART, "figure"), *METRIC_INPUTS, *CONTEXT)
    def update_summary(metrics, ref_text, dataset, directions):
        """The per-system table and the hypervolumes against budget (paper's Table 1)."""
        try:
            report = _report(metrics, ref_text, dataset, directions)
        except InvalidInputError:
            return [], [], [], EMPTY
        data, columns = figures.summary_table(report)
        return data, columns, id_tooltips(data, "system"), figures.budget_figure(report)

    @app.callback(*view_link_outputs(ID.QUERY, ID.SHARE), *METRIC_INPUTS, Input(ID.SYSTEM, "value"),
                  Input(ID.BUDGET, "value"), Input(ID.SEED, "value"), Input(ID.A, "value"),
                  Input(ID.B, "value"), *CONTEXT)
    def update_query(metrics, ref_text, system, budget, seed, a, b, dataset, directions):
        """The URL query that reproduces the view."""
        try:
            ref = parse_ref(ref_text)
        except InvalidInputError:
            ref = ()
        chosen = tuple((m, directions[m]) for m in directions if m in (metrics or []))
        state = GapViewState(dataset=dataset, metrics=chosen, ref=ref, system=system or "",
                             budget=budget or "", seed=seed or "", a=a or "", b=b or "")
        return view_link(PATH, to_query(state))

    register_url_sync(app, path=PATH, nav=ID.NAV, dataset=ID.DATASET, ref=ID.REF_STORE)
