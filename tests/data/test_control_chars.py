"""Control characters and terminal escapes are removed from names and text cells on read."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from copa_dash.data.io import read_table_report

ESC_NAME = "acc\x1b[2J\x1b[31m"
CELLS = ["gpt\x1b]8;;https://evil.example\x07-4", "lla\x01ma\x7f", "mistral\u202e\u2066x", "ok"]


def _csv() -> bytes:
    lines = [f"model,{ESC_NAME},note"]
    lines += [f"{cell},{i},plain{i}" for i, cell in enumerate(CELLS)]
    return ("\n".join(lines) + "\n").encode()


def _parquet() -> bytes:
    frame = pd.DataFrame({"model": CELLS, ESC_NAME: [0, 1, 2, 3],
                          "note": [f"plain{i}" for i in range(4)]})
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


@pytest.mark.parametrize(("data", "filename"), [(_csv(), "t.csv"), (_parquet(), "t.parquet")])
def test_escapes_and_controls_are_removed_and_said(data, filename):
    read = read_table_report(data, filename=filename)
    assert read.frame.columns.tolist() == ["model", "acc", "note"]
    assert read.frame["model"].tolist() == ["gpt-4", "llama", "mistralx", "ok"]
    text = read.frame.to_csv()
    assert not any(c in text for c in "\x1b\x07\x00\r\u202e\u2066")
    assert "removed control characters and terminal escapes from 1 column name" in read.notes
    assert "removed control characters and terminal escapes from 3 text cells" in read.notes


def test_a_clean_table_gets_no_note_and_keeps_tabs_and_newlines_in_cells():
    frame = pd.DataFrame({"model": ["a\tb", "c\nd"], "acc": [1, 2]})
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    read = read_table_report(buffer.getvalue(), filename="t.parquet")
    assert read.frame["model"].tolist() == ["a\tb", "c\nd"]
    assert not any("control characters" in note for note in read.notes)
