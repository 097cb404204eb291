"""The systems page on an uploaded 9-objective table: the system whose front is too big for
an exact HV within the instance's budget (0.5 s, the default) shows a Monte-Carlo estimate,
and the page says so in plain words right above the table, with the interval beside HV;
the small system's HV stays exact. No patching: the measured cost model decides."""

from __future__ import annotations

import pandas as pd
import pytest

from copa_dash.data.schema import Objective, Roles
from copa_dash.services.store import DatasetStore
from tests.e2e.app_under_test import open_page, screenshot
from tests.hv_budget import sphere

pytestmark = pytest.mark.browser
K = 9


def _table() -> pd.DataFrame:
    """400 runs of 'big-search' on the unit sphere (one front, about 7 s exact at 9-D by the
    cost model of the QHV-II kernel) and 12 of 'small-search' (well under a millisecond)."""
    y = sphere(412, K, 7)
    frame = pd.DataFrame(y.round(6), columns=[f"metric_{k}" for k in range(K)])
    frame.insert(0, "system", ["big-search"] * 400 + ["small-search"] * 12)
    frame.insert(0, "run", [f"run-{i}" for i in range(412)])
    return frame


def test_an_estimated_hv_is_said_above_the_table(dash_duo, app):
    settings = app.server.config["COPA_SETTINGS"]
    roles = Roles("run", tuple(Objective(f"metric_{k}", "min") for k in range(K)),
                  system="system")
    dataset_id = DatasetStore(settings.data_dir).save(_table(), roles, name="nine metrics").id
    open_page(dash_duo, app, f"/systems?dataset={dataset_id}")
    dash_duo.wait_for_contains_text("#systems-hv-note", "Monte-Carlo estimate", timeout=60)
    note = dash_duo.find_element("#systems-hv-note").text
    assert note.startswith("HV of big-search is a Monte-Carlo estimate")
    assert "small-search" not in note and "with 9 objectives" in note
    header = dash_duo.find_element("#systems-table").text
    assert "HV 95% interval" in header
    rows = {r.text.split()[0]: r.text for r in dash_duo.find_elements("#systems-table tr")[1:]}
    assert "exact" in rows["small-search"] and "[" in rows["big-search"]
    dash_duo.driver.execute_script(
        "document.getElementById('systems-hv-note').scrollIntoView({block: 'center'});")
    screenshot(dash_duo, "systems-hv-estimate")
    assert dash_duo.get_logs() == []
