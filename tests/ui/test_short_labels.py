"""Short labels of the bump chart: short names unchanged, long names that share a head and
a tail told apart by the stretch where they differ, duplicates after shortening resolved,
unicode never cut inside a character, and the chart's labels distinct with full names in
the hover."""

from __future__ import annotations

import doctest
import unicodedata

import numpy as np
import pandas as pd
import pytest

from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import rankings
from copa_dash.ui.common import short_labels
from copa_dash.ui.common.short_labels import LABEL_CHARS, short_label, unique_short_labels
from copa_dash.ui.features.rankings import figures as figures_rankings

# DecodingTrust's ids: the pruning method sits in the middle of a shared head and tail
PRUNED = [f"hf/compressed-llm/llama-2-13b-chat-{m}-semistruct@0.5_4to8"
          for m in ("wanda", "magnitude", "sparsegpt")]


def _pieces(label: str) -> list[str]:
    """The kept parts of a label, in order (a trailing " (n)" removed)."""
    return [p for p in label.split(" (")[0].split("…") if p]


def _is_abridgement(label: str, name: str) -> bool:
    """Is every kept part of ``label`` in ``name``, in order and without overlap?"""
    at = 0
    for piece in _pieces(label):
        found = name.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def test_doctests():
    assert doctest.testmod(short_labels).failed == 0


def test_short_names_are_unchanged():
    names = ["GPT-4", "Claude 2", "", "x" * LABEL_CHARS, "a…b"]
    assert unique_short_labels(names) == names


def test_long_names_keep_head_and_tail_when_that_is_enough():
    names = ["meta-llama/Llama-2-70b-chat-hf | 4bit-awq-gemm-eager",
             "meta-llama/Llama-2-70b-chat-hf | 8bit-bnb-fa2"]
    labels = unique_short_labels(names)
    assert labels == [short_label(n) for n in names]
    assert labels[0] == "meta-llama/Llam…bit-awq-gemm-eager"
    assert all(len(label) == LABEL_CHARS for label in labels)


def test_names_sharing_head_and_tail_show_where_they_differ():
    assert len({short_label(n) for n in PRUNED}) == 1       # the old labels: all the same
    labels = unique_short_labels(["GPT-4", *PRUNED])
    assert labels == ["GPT-4", "hf/compr…wanda-semistruct…0.5_4to8",
                      "hf/compr…magnitude-semist…0.5_4to8", "hf/compr…sparsegpt-semist…0.5_4to8"]


def test_names_that_differ_in_two_places():
    names = [f"internlm/internlm{v}-20b | {b}bit-bnb-eager" for v in ("2", "") for b in "84"]
    labels = unique_short_labels(names)
    assert len(set(labels)) == 4 and all(len(label) <= LABEL_CHARS for label in labels)
    assert all(_is_abridgement(label, name) for label, name in zip(labels, names))
    # both differences in view: the model version and the precision
    assert labels == ["internlm…nlm2-20b | 8bit-…nb-eager", "internlm…nlm2-20b | 4bit-…nb-eager",
                      "internlm…internlm-20b | 8…nb-eager", "internlm…internlm-20b | 4…nb-eager"]


@pytest.mark.parametrize("repeats, expected", [
    (1, ["organisa…alpha-shared-one…of-names", "organisa…alpha-shared-two…of-names",
         "organisa…beta-shared-one-…of-names", "organisa…beta-shared-two-…of-names"]),
    # the two differences do not fit one stretch beside the head: the head gives way
    (2, ["…alpha-shared--shared-one…of-names", "…alpha-shared--shared-two…of-names",
         "…beta-shared--shared-one-…of-names", "…beta-shared--shared-two-…of-names"]),
    # too far apart even then: two stretches
    (5, ["organisa…alpha-s…one-a-lo…of-names", "organisa…alpha-s…two-a-lo…of-names",
         "organisa…beta-sh…one-a-lo…of-names", "organisa…beta-sh…two-a-lo…of-names"]),
])
def test_differences_near_and_far_apart(repeats, expected):
    names = [f"organisation-name/{a}{'-shared-' * repeats}{b}-a-long-shared-tail-of-names"
             for a in ("alpha", "beta") for b in ("one", "two")]
    labels = unique_short_labels(names)
    assert labels == expected
    assert all(_is_abridgement(label, name) for label, name in zip(labels, names))
    assert all(len(label) <= LABEL_CHARS for label in labels)


def test_a_short_name_that_equals_a_long_names_label_keeps_its_text():
    long = "a-very-long-model-name-that-is-cut-in-the-middle"
    assert unique_short_labels([short_label(long), long])[0] == short_label(long)
    labels = unique_short_labels([short_label(long), long])
    assert labels[1] != labels[0] and _is_abridgement(labels[1], long)


def test_equal_names_are_numbered_in_order():
    long = "z" * 50
    assert unique_short_labels(["GPT-4", "GPT-4", "GPT-4"]) == ["GPT-4", "GPT-4 (2)",
                                                                "GPT-4 (3)"]
    labels = unique_short_labels([long, long, "GPT-4 (2)", "GPT-4", "GPT-4"])
    assert labels[0] == short_label(long) and labels[1] == short_label(long) + " (2)"
    assert labels[2:] == ["GPT-4 (2)", "GPT-4", "GPT-4 (3)"]     # (2) is taken


def test_unicode_is_never_cut_inside_a_character():
    accent = "e\u0301"          # e + combining acute: one character on screen
    family = "\U0001f469\u200d\U0001f4bb"   # woman + zero-width joiner + laptop
    flag = "\U0001f1e9\U0001f1ea"           # two regional indicators: one flag
    names = [f"modèle-{accent * 12}-{v}-{family * 5}{flag * 4}-{accent * 10}"
             for v in ("alpha", "beta", "gamma")]
    names += [f"模型名称{'非常长的中文名称' * 4}{v}结尾部分" for v in "甲乙"]
    labels = unique_short_labels(names)
    assert len(set(labels)) == len(names)
    for label, name in zip(labels, names):
        assert _is_abridgement(label, name), label
        for piece in _pieces(label):
            assert unicodedata.category(piece[0]) not in {"Mn", "Mc", "Me"}, label
            assert piece[0] != "\u200d" and piece[-1] != "\u200d", label
            flags = len(piece) - len(piece.lstrip(flag[0] + flag[1]))
            assert flags % 2 == 0, label          # a piece never starts mid-flag
    assert "alpha" in labels[0] and "甲" in labels[3] and "乙" in labels[4]


@pytest.mark.parametrize("seed", range(6))
def test_random_names_with_long_shared_parts(seed):
    """Seeded names over a tiny alphabet around shared heads and tails: many collisions."""
    rng = np.random.default_rng(seed)
    heads = ["model-family-one/", "model-family-two/"]
    tails = ["-final-checkpoint-v1", "-final-checkpoint-v2"]
    names = [heads[rng.integers(2)] + "".join(rng.choice(list("ab-_"), rng.integers(0, 30)))
             + tails[rng.integers(2)] for _ in range(60)]
    names += ["GPT-4", "short"]
    labels = unique_short_labels(names)
    distinct = dict(zip(names, labels))
    assert len(set(distinct.values())) == len(distinct)                  # different names
    assert len(set(labels)) == len(labels)                               # even equal ones
    assert labels[-2:] == ["GPT-4", "short"]
    for label, name in zip(labels, names):
        assert _is_abridgement(label, name)
        assert len(label.split(" (")[0]) <= LABEL_CHARS + 2    # a cut may keep a mark or two
    assert unique_short_labels(names) == labels                          # deterministic


def test_the_bump_chart_labels_are_distinct_and_the_hover_has_the_full_name():
    names = [*PRUNED, "GPT-4", "hf/compressed-llm/llama-2-13b-chat-awq@4bit-semistruct@0.5_4to8"]
    frame = pd.DataFrame({"model": names, "f1": [1.0, 2.0, 3.0, 4.0, 5.0],
                          "f2": [5.0, 3.0, 4.0, 1.0, 2.0]})
    table = build_eval_table(frame, Roles("model", (Objective("f1", "min"),
                                                    Objective("f2", "min"))))
    view = rankings.rank_view(table, criteria=["obj:f1", "obj:f2", "copa:1"])
    rows = rankings.chart_rows(view, top=5, n_highlight=2, n_flattered=0)
    figure = figures_rankings.bump_figure(view, rows)
    # every line named once, at its right end (tests/ui/test_rankings_bump_room.py)
    right = [a["text"] for a in figure["layout"]["annotations"] if a["xanchor"] == "left"]
    assert len(right) == len(set(right)) == 5
    # the chart's labels (the path left out where the rest names no other entry)
    assert sorted(right) == sorted(figures_rankings.bump_labels(names))
    coloured = [t for t in figure["data"] if t["name"] != "other entries"]
    assert len(coloured) == 2 and len({t["name"] for t in coloured}) == 2
    for trace in coloured:
        full = trace["hovertext"][0].split("<b>")[1].split("</b>")[0]
        assert full in names and _is_abridgement(trace["name"], full)
