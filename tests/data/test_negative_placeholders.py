"""A -1 written for "not measured" in a column of positive values is missing, not the best
size or the worst speed: the Open ASR Leaderboard (RTFx and Model size of the proprietary
models) and big-ann-benchmarks (``build`` of a loaded index) export it so."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from copa_dash.data.failed_rows import negative_placeholder
from copa_dash.data.io import read_table_report

MESSY = Path(__file__).parent / "messy"


def _read(name: str):
    return read_table_report((MESSY / name).read_bytes(), filename=name)


def test_the_asr_leaderboards_minus_one_is_missing_and_said():
    raw = pd.read_csv(MESSY / "asr_open_asr_en_shortform.csv")   # the independent count
    read = _read("asr_open_asr_en_shortform.csv")
    for column in ("RTFx", "Model size (B)"):
        was = raw[column] == -1
        assert was.sum() >= 10
        assert read.frame[column].isna().tolist() == was.tolist()
        np.testing.assert_array_equal(read.frame.loc[~was, column], raw.loc[~was, column])
        note = next(n for n in read.notes if n.startswith(f"Column {column!r}: -1 in rows"))
        assert "'zoom/scribe_v1'" in note and "placeholder for 'not measured'" in note
    # the WERs, all positive and without -1, are left as they are
    np.testing.assert_array_equal(read.frame["Avg. WER"], raw["Avg. WER"])


def test_big_ann_build_time_of_a_loaded_index_is_missing():
    raw = pd.read_csv(MESSY / "ann_bigann_ood.csv")
    read = _read("ann_bigann_ood.csv")
    assert read.frame["build"].isna().sum() == (raw["build"] == -1).sum() > 0
    assert (read.frame["build"].dropna() > 0).all()


def test_a_signed_column_or_a_single_minus_one_stays():
    assert negative_placeholder(pd.Series([0.2, -1.0, 0.5, -1.0, -0.3])) is None
    assert negative_placeholder(pd.Series([3.0, -1.0, 4.0, 5.0])) is None
    assert negative_placeholder(pd.Series([-1.0, -1.0, 2.0, 3.0])) == (-1.0, (0, 1))
    assert negative_placeholder(pd.Series([-999.0, 7.0, -999.0, 8.0])) == (-999.0, (0, 2))
    assert negative_placeholder(pd.Series(["a", "b"])) is None
