"""The Upload page's id picker names the rows the way the reader will for this table (newcomer's
pass, session 18, finding 20: it offered "row 1, row 2, ... or system and run" right after a
note saying the llm-perf export's rows are configurations of a system, not runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from copa_dash.config import Settings
from copa_dash.services.uploads import stage_upload
from copa_dash.ui.features.upload.ids import UploadIds as ID
from copa_dash.ui.features.upload.proposal_form import proposal_controls
from tests.ui.dash_tree import find

MESSY = Path(__file__).parents[1] / "data" / "messy"
FAIRNESS_RUNS = b"algorithm,seed,accuracy,di\n" + b"".join(
    f"a{k % 3},{k},0.{80 + k},0.{10 + k}\n".encode() for k in range(9))
PLAIN = b"model,accuracy,latency\nm1,0.8,3\nm2,0.7,2\nm3,0.9,5\n"


def _row_names_option(tmp_path, name: str, data: bytes):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    staged = stage_upload(settings, name, data)
    picker = find(proposal_controls(staged), ID.ID_COLUMN)
    (option,) = [o for o in picker.options if o["value"] == staged.proposal.row_ids]
    return staged.proposal, option["label"]


@pytest.mark.parametrize("name, data, expected", [
    ("llm_perf_lb.csv", (MESSY / "llm_perf_lb.csv").read_bytes(),
     "names made from the rows (system and configuration)"),
    ("runs.csv", FAIRNESS_RUNS, "names made from the rows (system and run)"),
    ("plain.csv", PLAIN, "names made from the rows (row 1, row 2, ...)"),
])
def test_the_row_names_choice_says_how_this_table_s_rows_are_named(tmp_path, name, data,
                                                                     expected):
    proposal, label = _row_names_option(tmp_path, name, data)
    assert label == expected
    # the same words as the reader's own account (copa-dash inspect, guessed_table)
    assert proposal.row_naming in label
