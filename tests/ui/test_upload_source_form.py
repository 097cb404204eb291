"""The upload page's source form: offered kinds, placeholders per kind, absent without kinds."""

from __future__ import annotations

import importlib.util

from copa_dash.config import Settings
from copa_dash.services.source_uploads import KINDS, available_kinds
from copa_dash.ui.features.upload.source_form import placeholders, source_form


def test_a_kind_whose_extra_is_missing_is_not_offered(monkeypatch, tmp_path):
    settings = Settings(data_dir=tmp_path, cache_dir=tmp_path, read_sources=True)
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "mlflow" else real(name, *a))
    offered = [k.value for k in available_kinds(settings)]
    assert "mlflow" not in offered and "lm-eval" in offered   # lm-eval needs no extra


def test_placeholders_follow_the_kind_and_lm_eval_needs_no_name():
    location, name, off = placeholders(KINDS, "lm-eval")
    assert "results_*.json" in location and name == "" and off
    location, name, off = placeholders(KINDS, "mlflow")
    assert location.startswith("tracking URI") and name == "experiment name" and not off


def test_no_kinds_no_form():
    assert source_form(()) is None
    form = source_form(KINDS)
    assert form.children[1].options[0] == {"label": "Optuna study", "value": "optuna"}
