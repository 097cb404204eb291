"""The rule of Rankings' and Posets' labels (leave out what every name shares, say it once)
where Explore and Posets still showed full names (session 21 newcomer pass, issue 33): an
upload of AMLB's raw ``all_data.csv`` names its rows "framework · dataset", and every
framework ends in "_4h8c_gp3_2022_jmlr"; Explore's ranked table read "lightaut… · yprop_4_1"
and Posets' heatmap and "In all of them" list carried the tail on every name."""

from __future__ import annotations

import itertools
from html import unescape
from types import SimpleNamespace as NS

import numpy as np
import pandas as pd

from copa_dash.services.posets import AgreementView
from copa_dash.ui.common.short_labels import apart_labels
from copa_dash.ui.features.explore import panels
from copa_dash.ui.features.posets import figures
from copa_dash.ui.features.posets.layout import agreement_panel

TAIL = "_4h8c_gp3_2022_jmlr"
FRAMEWORKS = ["AutoGluon_benchmark", "GAMA_benchmark", "H2OAutoML", "TunedRandomForest",
              "lightautoml", "flaml"]
IDS = [f"{f}{TAIL} · {d}" for f, d in zip(FRAMEWORKS, ["yprop_4_1", "elevators", "topo_2_1",
                                                       "yprop_4_1", "elevators", "shuttle"])]


def test_ids_joined_from_parts_lose_the_tail_each_first_part_shares():
    labels, note = apart_labels(IDS, limit=21, noun="id")
    assert note == f"the first part of every id ends in '{TAIL}'"
    assert not any("jmlr" in label for label in labels)
    assert len(set(labels)) == len(labels)
    # room goes to the names' own parts: whole where they fit, head and tail otherwise
    assert labels[2] == "H2OAutoML · topo_2_1" and labels[5] == "flaml · shuttle"
    assert labels[3].startswith("TunedRan") and labels[3].endswith(" · yprop_4_1")
    # ids without a shared part, or not all of the same shape, keep the whole-name rule
    assert apart_labels(["a · b", "c"])[1] == ""
    assert apart_labels(["gpt-4-turbo-preview · temperature 0",
                         "claude-3-opus-20240229 · top_p 1"], limit=10)[1] == ""


def test_the_ranked_table_names_ids_without_the_shared_tail_and_says_it_once():
    frame = pd.DataFrame({"rank": range(1, 7), "id": IDS, "front": [True] * 6,
                          "criterion": np.linspace(0.1, 0.2, 6), "obj0": np.arange(6.0),
                          "u0": np.arange(6.0)})
    columns = [{"name": "rank", "id": "rank", "type": "numeric"},
               {"name": "id", "id": "id", "type": "text"},
               {"name": "on the front", "id": "front", "type": "flag"},
               {"name": "criterion", "id": "criterion", "type": "numeric", "format": "g"},
               {"name": "error", "id": "obj0", "type": "numeric", "format": "g"},
               {"name": "top % error", "id": "u0", "type": "numeric"}]
    html = unescape(panels.table_html(frame, columns))
    body = html.split("<tbody>")[1]
    # the full id stays in the cell's title; what is shown leaves the tail out
    shown = body.replace(TAIL + " · ", "")
    assert "jmlr" not in shown.split('title="')[0]
    assert "<code>flaml · shuttle</code>" in body and "<code>H2OAutoML · topo_2_1</code>" in body
    assert html.count(f"The first part of every id on this page ends in '{TAIL}'") == 1
    assert "<caption" in html
    # a page whose ids share nothing has no note
    frame["id"] = [f"model-{k}" for k in range(6)]
    assert "<caption" not in panels.table_html(frame, columns)


def _view(methods):
    n = len(methods)
    relations = np.zeros((3, n, n), dtype=bool)
    relations[:, 0, 1:] = True      # the first method above every other on every task
    return NS(methods=tuple(methods), tasks=("t1", "t2", "t3"), relations=relations)


def test_the_beats_heatmap_names_methods_without_their_shared_tail(monkeypatch):
    methods = [f + TAIL for f in FRAMEWORKS]
    monkeypatch.setattr(figures, "beats",
                        lambda view: view.relations.sum(axis=0).astype(int))
    figure = figures.beats_figure(_view(methods))
    heat = figure["data"][0]
    assert heat["x"] == heat["y"] and not any("jmlr" in label for label in heat["x"])
    assert "AutoGluon_benchmark" in heat["x"]
    assert f"ends in '{TAIL}'" in figure["layout"]["title"]["text"]
    assert all(TAIL in cell for row in heat["hovertext"] for cell in row if cell)
    short = figures.beats_figure(_view(["A", "B", "C"]))
    assert short["data"][0]["x"] == ["A", "B", "C"]
    assert "<br>" not in short["layout"]["title"]["text"]


def _texts(component) -> list[str]:
    out = []
    children = getattr(component, "children", None)
    if isinstance(children, str):
        out.append(children)
    for child in children if isinstance(children, list) else []:
        out.extend(_texts(child))
    return out


def test_the_agreement_list_leaves_the_shared_tail_out_and_says_it_once():
    methods = [f + TAIL for f in FRAMEWORKS]
    agreed = AgreementView(k=3, tasks=(("t1",),), depths=(0.5,), undecided=0,
                           above=((methods[0], methods[1]),),
                           incomparable=tuple(itertools.combinations(methods[1:], 2)))
    texts = _texts(agreement_panel(agreed, methods))
    said = [t for t in texts if TAIL in t]
    assert len(said) == 1 and said[0].startswith("The first part") is False
    assert said[0] == f"Every method ends in '{TAIL}', left out below."
    assert any(t == "AutoGluon_benchmark is above GAMA_benchmark" for t in texts)
    # without the methods (or when they share nothing) the names are as before
    assert any(TAIL in t for t in _texts(agreement_panel(agreed))) is True


def test_the_front_figure_names_a_long_pick_as_the_other_pages_label_it():
    """DecodingTrust's compressed models ("hf/compressed-llm/llama-2-13b-chat-magnitude-
    semistruct@0.5_4to8", 64 characters) made a label as wide as most of the plot."""
    from copa_dash.ui.common.short_labels import LABEL_CHARS
    from copa_dash.ui.features.explore.figures import pick_markers

    long_id = "hf/compressed-llm/llama-2-13b-chat-magnitude-semistruct@0.5_4to8"
    exploration = NS(problem=NS(ids=np.array([long_id, "GPT-4"])), pick=0, baselines=(),
                     sweep=None)
    label = pick_markers(exploration, np.array([1.0, 2.0]), np.array([1.0, 2.0]))[
        "annotations"][-1]["text"]
    shown = label.removeprefix("<b>COPA pick</b>: ")
    assert long_id not in label and len(shown) <= LABEL_CHARS + 1
    assert shown.startswith("hf/compressed") and shown.endswith("0.5_4to8")
    exploration.pick = 1
    assert pick_markers(exploration, np.array([1.0, 2.0]), np.array([1.0, 2.0]))[
        "annotations"][-1]["text"] == "<b>COPA pick</b>: GPT-4"
