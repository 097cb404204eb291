"""services/robustness.py reads a table's uncertainty pairs once per table: the explorer's
view callback asks for the memo key of the view's robustness on every tick, and the reader
(``propose``) goes through every column of the table (tens of ms on Open LLM)."""

from __future__ import annotations

import gc

import pandas as pd

from copa_dash.data import proposal
from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.services import robustness


def _table():
    frame = pd.DataFrame({"m": ["a", "b", "c"], "win_rate": [50.0, 40.0, 30.0],
                          "standard_error": [1.0, 1.2, 0.9], "cost": [3.0, 2.0, 1.0]})
    return build_eval_table(frame, Roles(id="m", objectives=(Objective("win_rate", "max"),
                                                            Objective("cost", "min"))))


def test_the_reader_runs_once_per_table_and_its_pairs_are_the_readers(monkeypatch):
    calls = []
    real = proposal.propose
    monkeypatch.setattr(proposal, "propose", lambda frame: (calls.append(1), real(frame))[1])
    table = _table()
    expected = {"win_rate": ("stderr", "standard_error")}
    assert robustness.paired_uncertainty(table, ["win_rate", "cost"]) == expected
    assert robustness.paired_uncertainty(table, ["win_rate", "cost"]) == expected
    assert robustness.paired_uncertainty(table, ["cost"]) == {}    # the view's objectives only
    assert len(calls) == 1
    assert real(table.frame).uncertainty == {"win_rate": ("standard_error", "standard_error")}
    other = _table()                   # another table (equal content): read again, not mixed up
    assert robustness.paired_uncertainty(other, ["win_rate"]) == expected
    assert len(calls) == 2


def test_the_kept_pairs_go_with_their_table():
    table = _table()
    robustness.paired_uncertainty(table, ["win_rate"])
    assert table in robustness._PAIRS
    before = len(robustness._PAIRS)
    del table
    gc.collect()
    assert len(robustness._PAIRS) == before - 1
