"""Words session 23's newcomer stopped at on the pages (issue 33)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from copa_dash.data.schema import EvalTable, Objective, Roles
from copa_dash.services.systems import systems_view


def test_systems_names_the_objective_the_front_is_flat_in():
    """The Systems table's "undefined because" read "no spread in objective 5" on the BBOB
    upload: a 0-based column position the reader takes for the fifth objective."""
    frame = pd.DataFrame({
        "model": [f"m{i}" for i in range(6)], "system": list("aaabbb"),
        "error": [0.1, 0.2, 0.3, 0.15, 0.25, 0.35], "time": [3.0, 2, 1, 2.5, 1.5, 0.5],
        "memory": [4.0] * 6})
    objectives = (Objective("error", "min"), Objective("time", "min"),
                  Objective("memory", "min"))
    table = EvalTable(frame, Roles("model", objectives, system="system"))
    flat = [name for name in ("error", "time", "memory") if np.ptp(frame[name]) == 0]
    assert flat == ["memory"]                               # the premise, numpy alone
    reasons = [r["reasons"].get("os", "") for r in systems_view(table).records()]
    assert any("no spread in objective 'memory'" in r for r in reasons), reasons
    assert not any("objective 2" in r for r in reasons)


def test_a_first_view_of_minimised_runtimes_does_not_call_them_qualities():
    """BBOB's upload opened with "all objectives read as qualities" over PAR-1 and the
    runtime quantiles, all minimised: nothing read as a cost, which is what is meant."""
    from copa_dash.data.guessed_table import guessed_table
    from copa_dash.data.io import read_table_report
    from copa_dash.services.default_view import first_view

    table = guessed_table(read_table_report("tests/data/messy/bbob_ert_iohanalyzer.csv")).table
    assert set(table.directions) == {"min"}                  # every objective minimised
    reason = first_view(table).reason
    assert "qualities" not in reason, reason
    assert reason.startswith("no objective reads as a cost or a rate"), reason


def test_explore_offers_no_set_filter_that_keeps_every_row_or_one():
    """The Arena upload drew 29 set filters on Explore: 10 on columns with one value, one
    on `id`, naming every row; a warm visit took 1.3 s to draw (0.6-0.7 s now)."""
    from copa_dash.services.constraint_columns import constraint_columns

    frame = pd.read_csv("tests/data/messy/arena_merged_openllm.csv")
    text = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])
            or pd.api.types.is_bool_dtype(frame[c])]
    counts = {c: (frame[c].nunique(), int(frame[c].notna().sum())) for c in text}
    useless = {c for c, (k, n) in counts.items() if k < 2 or k == n}   # pandas alone
    assert {"evaluations_bbh_name", "id"} <= useless and len(useless) == 11
    sets = dict(constraint_columns(frame, [], text).sets)
    assert not useless & set(sets), useless & set(sets)
    assert {"model_precision", "organization", "license"} <= set(sets)
    # a filter the view already uses stays, whatever its column holds
    kept = constraint_columns(frame, [], text, sets=[("id", [frame["id"][0]])]).sets
    assert "id" in dict(kept)


def test_the_upload_preview_shows_numbers_as_a_reader_checks_them():
    """BBOB's preview showed ``562.066666666667``, ``7.0`` and ``nan``."""
    from copa_dash.data.io import read_table_report
    from copa_dash.ui.features.upload.layout import preview_table

    frame = read_table_report("tests/data/messy/bbob_ert_iohanalyzer.csv").frame
    assert repr(float(frame["mean"][1])) == "562.066666666667"          # the premise
    table = preview_table(frame).children[0]
    rows = table.data
    assert rows[1]["mean"] == "562.067" and rows[0]["mean"] == "7"
    assert rows[0]["ID"] == "FULLNEWUOA" and rows[0]["target"] == "0.0002"
    shown = {v for row in rows for v in row.values()}
    assert not any(str(v).endswith(".0") for v in shown)
    missing = pd.DataFrame({"model": ["a", None], "acc": [0.5, float("nan")]})
    assert preview_table(missing).children[0].data[1] == {"model": "", "acc": ""}
