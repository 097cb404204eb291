"""The reader's note on row names is said once on the Upload page (newcomer's pass, session
18: the llm-perf export's long "'Model_name_for_merge' repeats ..." sentence stood both in
"What we read" and under the Id picker)."""

from __future__ import annotations

from pathlib import Path

from copa_dash.config import Settings
from copa_dash.services.uploads import stage_upload
from copa_dash.ui.features.upload.proposal_form import proposal_controls
from copa_dash.ui.features.upload.read_panel import what_we_read
from tests.ui.dash_tree import text

LLM_PERF = Path(__file__).parents[1] / "data" / "messy" / "llm_perf_lb.csv"


def test_the_row_names_note_is_said_once(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    staged = stage_upload(settings, LLM_PERF.name, LLM_PERF.read_bytes())
    page = text(what_we_read(staged)) + text(proposal_controls(staged))
    sentence = "'Model_name_for_merge' repeats"
    assert sentence in page
    assert page.count(sentence) == 1
    # every other note of the reader is still in "What we read"
    shown = text(what_we_read(staged))
    assert all(note in shown for note in staged.notes if sentence not in note)
