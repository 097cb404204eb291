"""Posets name tasks by their dataset's task names (issue 19): DeepOBS's P3 is shown as
"P3 · fmnist_2c2d" in the depth bars, the Hasse titles, the headline, the tied-task panel, the
agreement and the notes, never as P3 alone; the depths are those of the unnamed tasks."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from copa_dash.config import Settings
from copa_dash.services import posets
from copa_dash.services.catalog import open_dataset
from copa_dash.ui.features.posets import callbacks as page
from copa_dash.ui.features.posets.state import PosetsState

CSV = Path(__file__).resolve().parents[2] / "datasets" / "deepobs.csv"
BARE = re.compile(r"\bP[1-8]\b(?! · )")     # a task number not followed by its name


def _names() -> dict[str, str]:
    frame = pd.read_csv(CSV)  # the file itself, not the app's reader
    return {p: f"{p} · {n}" for p, n in
            frame[["problem", "problem_name"]].drop_duplicates().itertuples(index=False)}


def _texts(component) -> list[str]:
    """Every string in a Dash component tree (children, recursively)."""
    if component is None:
        return []
    if isinstance(component, str):
        return [component]
    if isinstance(component, (list, tuple)):
        return [t for c in component for t in _texts(c)]
    return _texts(getattr(component, "children", None))


@pytest.fixture
def settings(tmp_path):
    return Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")


def _drawn(settings, criteria: tuple[str, ...], ties: str = "drop"):
    state = PosetsState(dataset="deepobs", criteria=criteria, ties=ties)
    view = page._view(state, settings)
    return view, page._views(view, 3)


def test_every_task_the_page_names_carries_its_name(settings):
    names = _names()
    view, drawn = _drawn(settings, ("loss_rank", "speed"))
    assert set(view.tasks) <= set(names.values()) and len(view.tasks) >= 6
    depth = drawn["depth"]["data"][0]
    assert sorted(depth["y"]) == sorted(view.tasks)
    for figure in ("central", "outlying"):
        title = drawn[figure]["layout"]["title"]["text"]
        assert " · " in title and not BARE.search(title), title
    texts = _texts([drawn["headline"], drawn["tied"], drawn["agreement"], drawn["notes"]])
    assert any(" · " in t for t in texts)
    assert not [t for t in texts if BARE.search(t)]
    assert "fmnist_2c2d" in " ".join(_texts(drawn["headline"]) + depth["y"])


def test_tied_tasks_and_notes_are_named_too(settings):
    names = _names()
    view, drawn = _drawn(settings, ("speed",))     # every optimizer takes 1 epoch on P2, P5
    assert view.tied_tasks == (names["P2"], names["P5"])
    texts = _texts([drawn["tied"], drawn["notes"]])
    assert "P2 · mnist_vae" in " ".join(texts) and not [t for t in texts if BARE.search(t)]


def test_names_change_the_labels_not_the_depths(settings):
    table = open_dataset("deepobs").table
    criteria = (("loss_rank", "min"), ("speed", "min"))
    plain = posets.depth_view(table, criteria=criteria)
    named = posets.depth_view(table, criteria=criteria, task_names="problem_name")
    assert [_names()[t] for t in plain.tasks] == list(named.tasks)
    np.testing.assert_array_equal(plain.depths, named.depths)
    assert posets.task_labels(table.frame, "problem", None) == {}
    assert posets.task_labels(table.frame, "problem", "no_such_column") == {}
