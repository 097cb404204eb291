"""Text panels of the explorer built from an Exploration: the pick card, the comparison of
normalisations and the ranked table's rows. User text is either passed as component children,
which Dash renders as text, or escaped into the HTML of an :class:`HtmlBlock`."""

from __future__ import annotations

import math
from html import escape

import pandas as pd
from dash import html

from copa_dash.services.explorer import BASELINE_LABELS, Exploration
from copa_dash.services.method_limits import PLAIN_NAMES
from copa_dash.services.pick_tie import pick_tie
from copa_dash.ui.common.break_names import breakable_html
from copa_dash.ui.common.glossary import info_html
from copa_dash.ui.common.html_block import HtmlBlock
from copa_dash.ui.common.short_labels import apart_labels, left_out_sentence
from copa_dash.ui.common.table_ids import id_cell_html

RUNNERS_UP = 5


def _fmt(value: float) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "-"
    return f"{value:.4g}"


def code_html(value) -> str:
    """User text (a model's id, a column's name) as an HTML ``code`` element that shows it as
    typed: ``<``, ``>``, ``&`` and quotes are escaped, and Markdown or link syntax means
    nothing in HTML. A line break becomes a space."""
    return f"<code>{escape(' '.join(str(value).splitlines()))}</code>"


CARD_ROWS = 12   # past a dozen objectives the pick card folds the rest under "N more"


def pick_card_layout(ids) -> html.Div:
    """The pick card's fixed frame; :func:`pick_card_text` fills ``ids.PICK_ID`` and
    ``ids.PICK_BODY``.

    The frame stays on the page and a slider move changes two strings: replacing the card's
    components instead costs the browser about 15 ms more on every move, and a Markdown body
    about 5 ms more than HTML (measured with ``benchmarks/bench_explore_browser.py``).
    """
    return html.Div(id=ids.PICK, className="pick-card", children=[
        html.H3(["COPA pick: ", html.Span(id=ids.PICK_ID)]),
        HtmlBlock(id=ids.PICK_BODY, className="pick-body"),
    ])


def pick_card_text(exploration: Exploration) -> tuple[str, str]:
    """The pick's id, and the card's body as HTML: raw values and top-x% with their
    uncertainty, the criterion, the alpha range and the runners-up."""
    problem = exploration.problem
    prefs = problem.preferences
    i = exploration.pick
    rows = []
    for k, name in enumerate(prefs.objectives):
        u = problem.u[i, k]
        low, high = (bound[k] for bound in exploration.u_interval)
        rows.append(f"<tr><td>{code_html(name)}</td><td>{escape(prefs.directions[k])}</td>"
                    f"<td>{_fmt(problem.raw[i, k])}</td>"
                    f"<td>top {100 * u:.1f}% ({100 * low:.1f}–{100 * high:.1f})</td></tr>")
    alpha_text = "weights set per objective (no alpha sweep)"
    if exploration.pick_alpha_range is not None:
        low, high = exploration.pick_alpha_range
        alpha_text = (f"the sweep picks it for alpha from {low:.3f} to {high:.3f} at this p "
                      "(10,000 alphas; the first and last alpha at which it wins)")
    elif exploration.sweep is not None:
        alpha_text = ("it wins only between the sweep's 10,000 grid alphas, so it has no "
                      "alpha range of its own")
    runners = "".join(f"<li>{code_html(problem.ids[j])} (criterion {_fmt(exploration.scores[j])})</li>"
                      for j in exploration.runners_up[:RUNNERS_UP])
    head = ("<table><thead><tr><th>objective</th><th>dir.</th><th>value</th>"
            "<th>top x% (95% CI)</th></tr></thead><tbody>")
    shown, folded = rows[:CARD_ROWS], rows[CARD_ROWS:]
    more = (f"<details class=\"more-objectives\"><summary>{len(folded)} more objectives"
            f"</summary>{head}{''.join(folded)}</tbody></table></details>") if folded else ""
    body = "".join([
        (f"<p>criterion C {info_html('criterion')} = {_fmt(exploration.scores[i])} (smaller is "
         f"better); {alpha_text}.</p>"), tie_html(exploration),
        head, *shown, "</tbody></table>", more,
        (f"<p><em>u {info_html('u')} over {problem.n_population} rows. In brackets: a 95% "
         f"interval of each u (Wilson's, from Var u = u(1−u)/N; it stays within 0–100%); "
         f"the DKW band {info_html('dkw')} "
         f"±{100 * exploration.dkw:.1f} points holds, with 95% "
         "confidence, for every row of one objective at once.</em></p>"),
        f"<h4>Runners-up</h4><ol>{runners}</ol>"])
    return str(problem.ids[i]), body


def tie_html(exploration: Exploration) -> str:
    """"Tied with X (and N others)" and the rule that chose the pick, or nothing."""
    tie = pick_tie(exploration.problem, exploration.scores, exploration.pick)
    if tie is None:
        return ""
    more = len(tie.others) - 1
    rest = f" and {more} other{'s' if more > 1 else ''}" if more else ""
    return (f'<p class="tie"><strong>Tied</strong> with {code_html(tie.others[0])}{rest} on '
            "the criterion (equal to 12 significant digits); the pick among them is decided by "
            f"{escape(tie.rule_words)}.</p>")


def compare_table(exploration: Exploration) -> html.Div:
    """Where each normalisation picks for the same weights and how many rows it reaches; a
    method that cannot run on the view says why (the service's words, from the core's
    refusal), in place of a pick."""
    if not exploration.baselines:
        return html.Div()
    problem = exploration.problem
    body = []
    for b in exploration.baselines:
        label = BASELINE_LABELS[b.method]
        gloss = PLAIN_NAMES.get(b.method, label).removeprefix(label).strip(" ()")
        method = html.Td([html.B(label), html.Br(), html.Span(gloss, className="help")])
        if b.position is None:
            body.append(html.Tr(className="cannot-run", children=[
                method, html.Td("cannot run here"), html.Td("-"), html.Td(b.message)]))
            continue
        reach = "-" if b.distinct_over_alpha is None else str(b.distinct_over_alpha)
        body.append(html.Tr([method, html.Td(html.Code(str(problem.ids[b.position]))),
                             html.Td(reach), html.Td(b.message)]))
    return html.Div(className="compare-panel", children=[
        html.H4("Compare normalisations (same weights)"),
        html.P("Each method turns the objectives into one score with the weights above and "
               "picks the best row; orange rings mark their picks in the figure.",
               className="help"),
        html.Table(className="compare-table", children=[
            html.Thead(html.Tr([html.Th("method"), html.Th("pick"),
                                html.Th("distinct picks as alpha runs over 201 values"),
                                html.Th("why not / note")])),
            html.Tbody(body)]),
    ])


def table_frame(exploration: Exploration, rows: slice = slice(None)):
    """The ranked rows passing the constraints as a frame, and its column specs (``id``,
    shown ``name``, ``type`` and an optional d3 ``format``).

    ``rows`` takes a slice of the ranking (e.g. one page) instead of all of it; ranks keep
    their place in the whole ranking."""

    problem = exploration.problem
    names = problem.preferences.objectives
    shown = {"specifier": ".4~g"}  # four significant digits on screen; the CSV keeps six decimals
    columns = [{"name": "rank", "id": "rank", "type": "numeric"},
               {"name": "id", "id": "id", "type": "text"},
               # non-dominated in the chosen objectives among the rows passing the constraints
               {"name": "on the front", "id": "front", "type": "flag"},
               {"name": "criterion", "id": "criterion", "type": "numeric", "format": shown}]
    # the focus objectives first, so the ones the pick was made for are on screen in a
    # table too wide for its panel (issue 33, F6); the ids stay obj<k> by objective index
    order = _focus_first(problem.preferences)
    columns += [{"name": names[k], "id": f"obj{k}", "type": "numeric", "format": shown}
                for k in order]
    columns += [{"name": f"top % {names[k]}", "id": f"u{k}", "type": "numeric"} for k in order]
    start, _, _ = rows.indices(len(exploration.ranking))
    ranking = exploration.ranking[rows]
    data = {"rank": range(start + 1, start + len(ranking) + 1),
            "id": [str(i) for i in problem.ids[ranking]],
            "front": exploration.front[ranking],
            "criterion": exploration.scores[ranking].round(6)}
    data.update({f"obj{k}": problem.raw[ranking, k].round(6) for k in range(len(names))})
    data.update({f"u{k}": (100 * problem.u[ranking, k]).round(2) for k in range(len(names))})
    return pd.DataFrame(data), columns


def _focus_first(preferences) -> list[int]:
    """Objective indices with the focus objectives first (in the focus's order), then the
    rest in their order; plain order when weights replace the focus.

    >>> from types import SimpleNamespace as NS
    >>> _focus_first(NS(objectives=("a", "b", "c"), focus=("c",), weights=None))
    [2, 0, 1]
    """
    names = list(preferences.objectives)
    focus = [] if preferences.weights is not None else [
        names.index(f) for f in preferences.focus or () if f in names]
    return focus + [k for k in range(len(names)) if k not in focus]


#: Characters of an id the ranked table's id column shows (its CSS width in explore_table.css
#: holds about this many of the 12 px code font).
ID_LABEL_CHARS = 21


def table_html(frame, columns: list[dict]) -> str:
    """One page of the ranked table as an HTML table (numbers to 4 significant digits).

    One HTML string is one component for the browser to redraw on a slider move: a
    DataTable re-renders about 30 ms slower per move, a Markdown table a few ms slower
    (``benchmarks/bench_explore_browser.py``). Ids and column names are escaped ``code``.
    """
    if frame.empty:
        return "<p><em>No row matches the search.</em></p>"
    # an objective's top % sits in its value's cell (grey), not in a column of its own: with
    # both, 7 objectives made the table 1,668 px wide in a 1,010 px panel and pushed the top %
    # columns off screen; the CSV keeps them apart
    tops = {c["id"][1:]: c["id"] for c in columns if c["id"].startswith("u")}
    beside = {c["id"]: tops[c["id"][3:]] for c in columns
              if c["id"].startswith("obj") and c["id"][3:] in tops}
    columns = [c for c in columns if c["id"] not in set(beside.values())]
    numeric = [c["type"] == "numeric" for c in columns]
    head = "".join((f'<th class="n" title="value, then its top %">{_header(c)}</th>'
                    if c["id"] in beside else f'<th class="n">{_header(c)}</th>')
                   if n else f"<th>{_header(c)}</th>" for c, n in zip(columns, numeric))
    cells = [[_cell(value, c) for value in frame[c["id"]].tolist()] for c in columns]
    note = ""
    for k, c in enumerate(columns):
        if c["type"] == "text":       # an id keeps its head and tail, and the part that
            # tells it from the other rows ("model · 8bit" and "model · 4bit" cut at the end
            # by CSS read the same), without what every id on the page shares (said once
            # under the table); the full name stays in the cell's title
            labels, note = apart_labels(frame[c["id"]].tolist(), limit=ID_LABEL_CHARS,
                                        noun="id on this page")
            cells[k] = [code_html(label) for label in labels]
    for k, c in enumerate(columns):
        if c["id"] in beside:
            cells[k] = [f'{v} <span class="top">{_top(u)}</span>'
                        for v, u in zip(cells[k], frame[beside[c["id"]]].tolist())]
    opens = ['<td class="n">' if n else "<td>" for n in numeric]
    texts = [c["type"] == "text" for c in columns]
    raw = [frame[c["id"]].tolist() if t else None for c, t in zip(columns, texts)]
    rows = []
    for r, row in enumerate(zip(*cells)):
        # an id: one line, ellipsised, the full name on hover (ui/common/table_ids)
        rows.append("<tr>" + "".join(id_cell_html(raw[k][r], v) if texts[k] else f"{o}{v}</td>"
                                     for k, (o, v) in enumerate(zip(opens, row))) + "</tr>")
    body = "".join(rows)
    caption = (f'<caption class="ids-note">{escape(left_out_sentence(note, "of the ids here"))}'
               "; hover an id for its full name.</caption>") if note else ""
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _top(value) -> str:
    """An objective's top % beside its value: ``12.5%``, or ``-`` when unknown."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{round(value, 1):g}%"           # 0.1%, as the figures' hovers


def _cell(value, column: dict) -> str:
    if column["type"] == "text":
        return code_html(value)
    if column["type"] == "flag":
        return "yes" if value else ""
    if "format" in column:
        return _fmt(value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return str(int(value)) if column["id"] == "rank" else f"{value:g}"   # rounded top %


def _header(column: dict) -> str:
    # an objective's name wraps only between its words (co2_|cost, never co2_co|st)
    name = column["name"]
    if column["id"].startswith("u"):                    # "top % <objective>"
        return f"top % <code>{breakable_html(name.removeprefix('top % '))}</code>"
    if column["id"].startswith("obj"):
        return f"<code>{breakable_html(name)}</code>"
    return escape(name)


def weight_shares_text(columns, values, chosen_lists) -> str:
    """The chosen objectives' weights as normalised percentages.

    Parameters
    ----------
    columns : list of str
        The objective of each weight box, in the boxes' order.
    values : list
        The boxes' values (None or text count as 0; negatives as 0).
    chosen_lists : list of list of str
        The ticked objectives, per objectives checklist. An unticked objective keeps its box
        but takes no part in the criterion, so it takes no share here.
    """
    chosen = {name for names in chosen_lists for name in (names or [])}
    shares = [(name, max(0.0, float(v)) if isinstance(v, (int, float)) else 0.0)
              for name, v in zip(columns, values) if name in chosen]
    total = sum(n for _, n in shares)
    if total <= 0:
        return "Give at least one chosen objective a positive weight."
    return "Normalised: " + ", ".join(f"{name} {100 * n / total:.0f}%" for name, n in shares)


