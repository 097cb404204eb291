"""The names beside the Rankings bump chart's lines stay tell-apart-able (issue 33)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from copa_dash.ui.features.rankings.figures import BUMP_LABEL_CHARS, bump_labels

DATASETS = Path(__file__).resolve().parents[2] / "datasets"
NUMBERED = re.compile(r" \(\d+\)$")


def _decodingtrust_models() -> list[str]:
    frame = pd.read_csv(DATASETS / "decodingtrust.csv")
    return list(dict.fromkeys(frame["model"].astype(str)))


def test_decodingtrust_labels_differ_without_numbers():
    """Every model of DecodingTrust gets its own label, and none is told apart only by a
    " (2)" (before: 'hf/com…llam…8bit_128g' and 'hf/com…llam…8bit_128g (2)' for the chat
    and the base model)."""
    names = _decodingtrust_models()
    labels = bump_labels(names)
    assert len(set(labels)) == len(names)
    assert [label for label in labels if NUMBERED.search(label)] == []
    # about the chart's room (a cut may keep a character or two more, see short_labels)
    assert max(map(len, labels)) <= BUMP_LABEL_CHARS + 2


def test_the_chat_and_the_base_model_read_differently():
    labels = dict(zip(_decodingtrust_models(), bump_labels(_decodingtrust_models())))
    chat = labels["hf/compressed-llm/llama-2-13b-chat-awq@8bit_128g"]
    base = labels["hf/compressed-llm/llama-2-13b-awq@8bit_128g"]
    assert "chat" in chat and "chat" not in base
    assert "awq@8" in chat and "awq@8" in base


def test_the_path_stays_when_the_rest_is_shared():
    """Two organisations' copies of one model keep their paths (the tail alone would be the
    same label twice); a unique tail loses its path; short names are unchanged."""
    assert bump_labels(["org-a/GPT-4", "org-b/GPT-4", "x/Tulu-2-7b", "Claude"]) == [
        "org-a/GPT-4", "org-b/GPT-4", "Tulu-2-7b", "Claude"]


def test_a_name_ending_in_a_slash_keeps_its_text():
    assert bump_labels(["models/", "Claude"]) == ["models/", "Claude"]
