"""The Upload page's "average the runs" choice says when the runs are one per task (DeepOBS:
optimizer x test problem, tester G12): averaging them mixes tasks."""

from __future__ import annotations

from pathlib import Path

from copa_dash.config import Settings
from copa_dash.services.uploads import stage_upload
from copa_dash.ui.features.upload.ids import UploadReadIds
from copa_dash.ui.features.upload.proposal_form import proposal_controls
from tests.ui.dash_tree import find, walk

DEEPOBS = Path(__file__).parents[1] / "data" / "messy" / "deepobs_schneider.csv"


def _staged(tmp_path, name, data):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    return stage_upload(settings, name, data)


def test_deepobs_average_choice_names_the_tasks_it_mixes(tmp_path):
    staged = _staged(tmp_path, DEEPOBS.name, DEEPOBS.read_bytes())
    form = proposal_controls(staged)
    runs = find(form, UploadReadIds.RUNS)
    assert runs.value == "runs"
    assert runs.options[1] == {"label": "average the runs per model over the table's 8 tasks "
                                        "(P1, P2, P3, P4, P5 and 3 more)", "value": "average"}
    (note,) = [n for n in walk(form) if "task-note" in (getattr(n, "className", "") or "")]
    assert note.children[0] == ("These rows come from 8 tasks (P1, P2, P3, P4, P5 and 3 more): "
                                "averaging the runs per model mixes each model's results on "
                                "different tasks into one number.")
    said = next(n for n in staged.notes if "'Optimizer' repeats" in n)
    assert "averaging them would mix each system's results on different tasks" in said
    assert "or average the runs per model" not in said


def test_runs_of_seeds_keep_the_plain_choice(tmp_path):
    staged = _staged(tmp_path, "runs.csv", b"model,seed,err,latency (ms)\n"
                     b"a,0,0.1,3\na,1,0.2,4\nb,0,0.3,1\nb,1,0.2,2\n")
    form = proposal_controls(staged)
    assert find(form, UploadReadIds.RUNS).options[1]["label"] == \
        "average the runs per model (one row each)"
    assert not [n for n in walk(form) if "task-note" in (getattr(n, "className", "") or "")]
