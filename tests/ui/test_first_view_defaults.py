"""The view the background work prepares for an upload (services/first_view.default_view)
is the view the Explore page derives from ``/explore?dataset=ID`` (with or without alpha):
otherwise the first open would find nothing prepared for it. And it is the one default view
(services/default_view.first_view): the page, ``copa-dash select`` and ``copa_dash.select``
pick the same model for the same file."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import copa_dash
from copa_dash.cli import main
from copa_dash.config import Settings
from copa_dash.services import selection
from copa_dash.services.catalog import open_dataset
from copa_dash.services.first_view import default_view
from copa_dash.services.inputs import Objective, Roles
from copa_dash.services.store import open_store
from copa_dash.ui.features.explore.state import ExploreState, with_defaults
from copa_dash.ui.features.explore.view_memo import state_of
from copa_dash.ui.features.explore.view_state import preferences_and_filter
from tests.uploads_opened import uploaded_first_state


@pytest.mark.parametrize("query", ["", "&alpha=1", "&alpha=0.3"])
def test_the_prepared_view_is_the_pages_default_view_of_an_upload(tmp_path, query):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"model": [f"m{i}" for i in range(50)], "family": ["a", "b"] * 25,
                          "cost": rng.random(50), "acc": rng.random(50), "co2": rng.random(50)})
    roles = Roles(id="model", objectives=(Objective("cost", "min"), Objective("acc", "max"),
                                          Objective("co2", "min")), metadata=("family",))
    dataset = open_store(settings).save(frame, roles, shared=True).id
    opened = open_dataset(dataset, settings)
    text = f"dataset={dataset}{query}"
    state = with_defaults(state_of(text), opened, tuple(k.split("=")[0] for k in text.split("&")))
    page_prefs, page_filter = preferences_and_filter(state, opened.table)
    prepared, prepared_filter = default_view(opened.table)
    # alpha changes neither u, the front nor the sweep: the prepared results serve any alpha
    assert replace(page_prefs, alpha=prepared.alpha) == prepared
    assert page_filter.key() == prepared_filter.key()


# --- one default view for an upload: the page, the CLI and the notebook pick the same model ---
MESSY = Path(__file__).parents[1] / "data" / "messy"


def _page_pick(settings, path: Path) -> tuple[str, ExploreState]:
    """The model the Explore page picks when an upload of ``path`` opens (no query)."""
    opened, state = uploaded_first_state(settings, path)
    prefs, row_filter = preferences_and_filter(state, opened.table)
    problem = selection.build_problem(opened.table, prefs, row_filter)
    return str(problem.ids[selection.select(problem)]), state


@pytest.mark.parametrize("name", ["imagenet_eu.csv", "shapes_imagenet_eu_percent.csv",
                                  "llm_perf_lb.csv"])
def test_the_page_the_cli_and_the_notebook_pick_the_same_model(tmp_path, capsys, name):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    page, state = _page_pick(settings, MESSY / name)
    assert main(["select", str(MESSY / name), "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert cli["id"] == page
    # the CLI says which view it used, and it is the one the page shows
    assert (cli["view"]["x"], cli["view"]["y"], cli["view"]["focus"]) == (
        state.x, state.y, list(state.focus))
    if name.startswith("imagenet"):  # the notebook, on the same table as a DataFrame
        frame = pd.read_csv(MESSY / "imagenet_raw.tsv", sep="\t")  # Params as '61.1M' text
        result = copa_dash.select(frame)
        assert result.pick == page and "the default view of an upload" in result.view


def test_an_upload_opens_on_a_quality_against_a_cost(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    _, state = _page_pick(settings, MESSY / "imagenet_eu.csv")
    # not Acc@1 against Acc@5 (two correlated accuracies): the quality against a cost
    assert (state.x, state.y, state.focus) == ("Acc@1", "Params", ("Acc@1",))
