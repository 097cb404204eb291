"""The upload page never offers to average rows that are configurations of a system (issue 29,
item 3): the form's runs choice stays hidden, the note says why, and a request to average
anyway is refused naming the setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from copa_dash.config import Settings
from copa_dash.core.errors import InvalidInputError
from copa_dash.services.uploads import finalize_upload, stage_upload
from copa_dash.ui.features.upload.ids import UploadIds, UploadReadIds
from copa_dash.ui.features.upload.proposal_form import proposal_controls
from tests.ui.dash_tree import find

MESSY = Path(__file__).parents[1] / "data" / "messy"
CONFIGS = (b"model,batch_size,latency (ms),accuracy\n"
           b"a,1,3,0.7\na,8,9,0.7\nb,1,4,0.8\nb,8,12,0.8\n")


@pytest.fixture
def settings(tmp_path):
    return Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")


@pytest.mark.parametrize("name", ["batch.csv", "llm_perf_lb.csv"])
def test_configurations_are_never_offered_averaging(settings, name):
    data = CONFIGS if name == "batch.csv" else (MESSY / name).read_bytes()
    staged = stage_upload(settings, name, data)
    form = proposal_controls(staged)
    assert find(form, UploadReadIds.RUNS).value == "runs"  # one row per configuration
    choice = next(n for n in _nodes(form) if getattr(n, "className", None) == "runs-choice")
    assert choice.hidden is True
    assert "each row is a configuration of its system" in find(form, UploadIds.ID_NOTE).children


def test_averaging_configurations_is_refused_naming_the_setting(settings):
    staged = stage_upload(settings, "batch.csv", CONFIGS)
    with pytest.raises(InvalidInputError, match=r"configurations, not runs: 'batch_size' varies "
                                                r"within 'a' \('1', '8'\)"):
        finalize_upload(settings, staged.token, staged.filename, staged.proposal.roles(),
                        name=None, shared=False, average=True)


def _nodes(node):
    yield node
    children = getattr(node, "children", None)
    for child in children if isinstance(children, (list, tuple)) else [children]:
        if child is not None and not isinstance(child, (str, int, float)):
            yield from _nodes(child)
