"""The view the background work prepares for an upload (services/first_view.default_view)
is the view the Explore page derives from ``/explore?dataset=ID`` (with or without alpha):
otherwise the first open would find nothing prepared for it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from copa_dash.config import Settings
from copa_dash.services.catalog import open_dataset
from copa_dash.services.first_view import default_view
from copa_dash.services.inputs import Objective, Roles
from copa_dash.services.store import open_store
from copa_dash.ui.features.explore.state import with_defaults
from copa_dash.ui.features.explore.view_memo import state_of
from copa_dash.ui.features.explore.view_state import preferences_and_filter


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
