""""Help me choose" on the explorer: two model cards, the answer buttons, the progress line.

Layout only; :mod:`choose_callbacks` fills it. The ids live here rather than in ``ids.py``
so that this panel is one new file beside the page's own (several panels are added to the
page at once).
"""

from __future__ import annotations

import math

from dash import dcc, html

from copa_dash.ui.common.help import help_text
from copa_dash.ui.common.ids import PageIds

HELP = ("Pick the model you would rather use, looking at the values that differ most "
        "(listed first). 'top x%' means x% of all models are strictly better on that objective. "
        "Each answer narrows down which weights and p (how much a weak objective can be made up "
        "for by strong ones) fit your choices; 'can't tell' counts too. The questions are about "
        "the objectives and constraints chosen now.")


class ChooseIds(PageIds, prefix="choose"):
    """Ids of the "Help me choose" panel."""

    PANEL: str
    OPEN: str                           # shows or hides the panel's body
    BODY: str
    ANSWERS: str                        # store: the answers so far, e.g. "ab=a"
    CARDS: str
    PROGRESS: str
    THIS: str
    THAT: str
    TIE: str
    UNDO: str
    APPLY: str
    APPLIED: str


def panel(answers: str = "") -> html.Div:
    """The collapsible panel; open when the link carries answers.

    A button opens it (``html.Details`` does not tell Dash when it is toggled)."""
    return html.Div(id=ChooseIds.PANEL, className="choose-panel", children=[
        html.Button("Help me choose: answer a few \"this model or that one?\" questions",
                    id=ChooseIds.OPEN, className="choose-open shown" if answers else "choose-open"),
        dcc.Store(id=ChooseIds.ANSWERS, data=answers),
        html.Div(id=ChooseIds.BODY, style={"display": "block" if answers else "none"},
                 children=_body()),
    ])


def _body() -> list:
    return [
        help_text(HELP),
        html.Div(id=ChooseIds.PROGRESS, className="choose-progress"),
        html.Div(id=ChooseIds.CARDS, className="choose-cards"),
        html.Div(className="choose-buttons", children=[
            html.Button("this one (left)", id=ChooseIds.THIS, className="button"),
            html.Button("that one (right)", id=ChooseIds.THAT, className="button"),
            html.Button("can't tell", id=ChooseIds.TIE, className="button"),
            html.Button("undo", id=ChooseIds.UNDO, className="button"),
            html.Button("use these preferences", id=ChooseIds.APPLY, className="button primary",
                        title="set the weights and p below to the ones that fit your answers"),
        ]),
        html.Div(id=ChooseIds.APPLIED, className="help"),
    ]


def cards(rows: list[dict], id_a: str, id_b: str) -> list:
    """Two model cards side by side: per objective the raw value and top-x%, the objectives
    where the two differ most first, the better value of each row in bold."""
    return [_card("left", id_a, rows, "a", "b"), _card("right", id_b, rows, "b", "a")]


def _card(side: str, model_id: str, rows: list[dict], me: str, other: str) -> html.Div:
    lines = []
    for row in rows:
        better = row[f"top_{me}"] < row[f"top_{other}"]
        value = html.Strong if better else html.Span
        lines.append(html.Tr([
            html.Td(row["objective"]), html.Td(f"({row['direction']})", className="help"),
            html.Td(value(_number(row[me]))), html.Td(value(f"top {row[f'top_{me}']:.1f}%")),
        ]))
    return html.Div(className=f"choose-card choose-{side}", children=[
        html.Div(f"{side}:", className="help"),
        html.H4(model_id, className="choose-model"),
        html.Table(html.Tbody(lines)),
    ])


def progress_text(n_answers: int, probability: float, pick: str, credible: int, done: bool,
                  p: float) -> str:
    """``question 4 - 78% sure it is X`` and what is still open."""
    sure = f"{100 * probability:.0f}% sure it is {pick}"
    p_text = "inf" if math.isinf(p) else f"{p:g}"
    # counts read right at 1 ("one of 1 models" read as a bug to a newcomer, issue 33)
    best = ("no other model is the best with 90% probability" if credible == 1 else
            f"the best is one of {credible} models with 90% probability")
    tail = f" ({best}; most likely p = {p_text})"
    if done:
        answers = "answer" if n_answers == 1 else "answers"
        return f"Done after {n_answers} {answers}: {sure}{tail}."
    return f"question {n_answers + 1} - {sure}{tail}"


def _number(value: float) -> str:
    return "-" if value is None or not math.isfinite(value) else f"{value:.4g}"


def applied_text(prefs: dict) -> str:
    """What "use these preferences" set, in plain words."""
    p_text = format_p_text(prefs["p"])
    if prefs["use_alpha"]:
        what = f"focus {', '.join(prefs['focus'])} with alpha {prefs['alpha']:g}"
    else:
        what = "weights " + ", ".join(f"{name} {w:.2f}" for name, w in prefs["weights"].items())
    source = ("the average of the weights under which your likely best model wins"
              if prefs["how"] == "mean" else "the most probable weights under which it wins")
    return f"Set {what} and p = {p_text}: {source}. The pick above follows them."


def format_p_text(p: float) -> str:
    return "inf" if math.isinf(p) else f"{p:g}"
