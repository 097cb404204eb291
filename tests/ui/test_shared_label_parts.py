"""Short labels leave out the part every name shares and say it once (issue 33, newcomer
finding 8: AMLB 2022's ten frameworks all end in "_4h8c_gp3_2022_jmlr", and the Hasse
diagram's labels read "Au…_jmlr", "GA…_jmlr", ...)."""

from __future__ import annotations

import pandas as pd
import pytest

from copa_dash.services.posets import HasseLayout
from copa_dash.ui.common.short_labels import apart_labels, shared_ends
from copa_dash.ui.features.posets.figures import hasse_figure, hasse_labels
from copa_dash.ui.features.rankings.figures import bump_labels
from tests.ui.test_short_labels import PRUNED

AMLB = sorted(pd.read_csv("tests/data/messy/amlb2022_all_data.csv")["framework"].unique())
TAIL = "_4h8c_gp3_2022_jmlr"


def _one_level(names) -> HasseLayout:
    n = len(names)
    return HasseLayout(methods=tuple(names), level=(0,) * n,
                       x=tuple(float(k - (n - 1) / 2) for k in range(n)), edges=())


def test_the_shared_tail_of_the_amlb_frameworks_is_found_at_a_separator():
    assert len(AMLB) == 10 and all(name.endswith(TAIL) for name in AMLB)
    assert shared_ends(AMLB) == ("", TAIL)
    # a shared part that is not a whole word is not cut into: "alpha"/"alps" share "alp"
    assert shared_ends(["model_alpha", "model_alps"]) == ("model_", "")
    assert shared_ends(["same", "same"]) == ("", "")


@pytest.mark.parametrize("limit", [8, 12, 20, 34])
def test_labels_keep_what_tells_names_apart_and_the_note_says_the_rest(limit):
    labels, note = apart_labels(AMLB, limit=limit, noun="method")
    assert note == f"every method ends in '{TAIL}'"
    assert len(set(labels)) == len(labels)
    assert not any("jmlr" in label for label in labels)
    for name, label in zip(AMLB, labels):      # each label is a piece of its own name
        assert label.replace("…", "") and all(part in name for part in label.split("…"))
    assert labels[AMLB.index("TPOT" + TAIL)] == "TPOT"
    assert labels[AMLB.index("flaml" + TAIL)] == "flaml"


def test_names_that_fit_and_names_sharing_nothing_keep_their_labels():
    assert apart_labels(["GPT-4", "Claude 3"]) == (["GPT-4", "Claude 3"], "")
    labels, note = apart_labels(PRUNED, limit=20)
    assert note.startswith("every name starts with 'hf/compressed-llm/llama-2-13b-chat-'")
    assert len(set(labels)) == len(PRUNED)


def test_the_hasse_diagram_of_ten_amlb_methods_on_a_level_says_the_tail_once():
    labels, _ = hasse_labels(_one_level(AMLB))
    assert not any("jmlr" in label for label in labels), labels
    assert len(set(labels)) == len(labels)
    figure = hasse_figure(_one_level(AMLB), title="Most central: t", color="#000")
    notes = [a["text"] for a in figure["layout"]["annotations"]]
    assert notes == [(f"Every method's name ends in '{TAIL}'<br>left out of the labels; "
                      "hover a node for its full name.")]
    assert figure["data"][0]["hovertext"][0].startswith(f"<b>{AMLB[0]}</b>")


def test_levels_that_fit_leave_the_tail_out_too_once_one_level_does_not():
    """One label system per diagram: a level with room does not keep what the note says is
    left out of the labels."""
    names = (*AMLB, "x" + TAIL)
    layout = HasseLayout(methods=names, level=(0,) * 10 + (1,),
                         x=(*(float(k - 4.5) for k in range(10)), 0.0), edges=())
    labels, _ = hasse_labels(layout)
    assert labels[-1] == "x"
    assert not any("jmlr" in label for label in labels), labels


def test_a_diagram_whose_labels_fit_says_nothing():
    figure = hasse_figure(_one_level(["a" + TAIL, "b" + TAIL]), title="t", color="#000")
    assert figure["layout"]["annotations"] == []
    assert figure["data"][0]["text"] == ["a" + TAIL, "b" + TAIL]


def test_the_rankings_bump_labels_leave_out_the_shared_tail():
    labels = bump_labels(AMLB)
    assert not any("jmlr" in label for label in labels), labels
    assert labels[AMLB.index("TPOT" + TAIL)] == "TPOT"
