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
