"""The context bar in words (tester 18, finding 15): constraints read as sentences, not sets,
and a bundled table whose title begins with its name is not named twice."""

from __future__ import annotations

import pytest

from copa_dash.services.catalog import dataset_label
from copa_dash.ui.common.working_context import WorkingContext, context_notes


@pytest.mark.parametrize("values, words", [
    (("true",), "available_on_hub is true"),
    (("chat", "base"), "available_on_hub is chat or base"),
    (("a", "b", "c"), "available_on_hub is a, b or c"),
    (tuple("abcdefg"), "available_on_hub is one of a, b, c, d and 3 more")])
def test_a_set_constraint_reads_as_words(values, words):
    context = WorkingContext(sets=(("available_on_hub", values),))
    notes = context_notes("Posets", context, used=context,
                          why_no_constraints="it orders the methods on every task")
    assert notes[0] == f"Opened with your working context: constraints {words}."
    assert notes[1].startswith(f"Constraints ({words}) do not apply on Posets")
    assert not any("{" in n or " in " in n.split(":")[0] for n in notes)


@pytest.mark.parametrize("ref, label", [
    ("open-llm-leaderboard-v2", "Open LLM Leaderboard v2 (snapshot 2025-01-10)"),
    ("decodingtrust", "DecodingTrust LLM trustworthiness leaderboard"),
    ("amlb-2022", "AutoML Benchmark 2022 (4h, 8 cores): 10 frameworks x 55 datasets (amlb-2022)"),
    ("dmop", "Dynamic multi-objective EAs (Wu et al. 2023): 7 algorithms x 13 problems (dmop)")])
def test_a_bundled_table_is_named_once(ref, label):
    assert dataset_label(ref) == label
