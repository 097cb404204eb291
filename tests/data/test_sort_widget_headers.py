"""A web table's sort-button text copied with its header ('↑ [ sort ]', HEIM/HELM exports)
is left out of the column names, and 'What we read' says so (tester G10)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from copa_dash.data import io
from copa_dash.data.upload_checks import without_sort_widget

MESSY = Path(__file__).parents[1] / "data" / "messy"


def test_heim_columns_lose_the_sort_text_and_keep_their_arrow():
    read = io.read_table_report(MESSY / "heim_nsfw.tsv")
    raw = pd.read_csv(MESSY / "heim_nsfw.tsv", sep="\t")
    assert not any("sort" in c.lower() for c in read.frame.columns)
    assert read.frame.columns[1] == "Mean win rate ↑"
    assert list(read.frame.columns) == [c.replace(" [ sort ]", "") for c in raw.columns]
    (note,) = [n for n in read.notes if "[ sort ]" in n]
    assert "out of 21 column names" in note and "'Mean win rate ↑'" in note
    # the values are the file's, column by column
    assert (read.frame.iloc[:, 1].to_numpy() == raw.iloc[:, 1].to_numpy()).all()


def test_a_name_that_only_mentions_sort_is_kept_and_nothing_said():
    log_names = ["sort order", "quick[sort] time", "[ sort ] first"]
    assert without_sort_widget(log_names) == log_names


def test_two_columns_equal_once_stripped_are_told_apart():
    read = io.read_table_report(b"m,acc [ sort ],acc\na,1,2\nb,3,4\n", filename="t.csv")
    assert list(read.frame.columns) == ["m", "acc", "acc (2)"]
