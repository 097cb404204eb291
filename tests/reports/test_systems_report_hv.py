"""The systems report under an HV budget: the Monte-Carlo HVs are named with their intervals
in the report's notes, and its reproduce command carries the same budget (or --exact-hv)."""

from __future__ import annotations

from copa_dash.config import Settings
from copa_dash.data.schema import Objective, Roles
from copa_dash.reports.systems_facts import systems_cli, systems_facts
from copa_dash.services.catalog import open_dataset
from copa_dash.services.store import DatasetStore
from tests.hv_budget import big_and_small_systems, big_fronts_cost_too_much


def _opened(tmp_path):
    frame = big_and_small_systems(9, "run", "r")
    roles = Roles("run", tuple(Objective(f"f{k}", "min") for k in range(5)), system="system")
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    ref = DatasetStore(settings.data_dir).save(frame, roles, name="five").id
    return open_dataset(ref, settings)


def test_report_names_the_estimated_hv_and_reproduces_the_budget(tmp_path, monkeypatch):
    big_fronts_cost_too_much(monkeypatch, above=20)
    facts = systems_facts(_opened(tmp_path), hv_budget_seconds=0.5)
    (note,) = [n for n in facts.notes if "Monte-Carlo" in n]
    big = next(r for r in facts.records if r["system"] == "big")
    low, high = big["hv_ci95"]
    assert note.startswith("HV of big is a Monte-Carlo estimate")
    assert f"Its 95% interval is: big [{low:.4g}, {high:.4g}]" in note
    assert systems_cli(facts, ["--dataset", "x"])[0][-2:] == ["--hv-budget", "0.5"]


def test_report_without_a_budget_is_exact_and_says_so_in_its_command(tmp_path):
    facts = systems_facts(_opened(tmp_path))
    assert not any("Monte-Carlo" in n for n in facts.notes)
    assert all(r["hv_exact"] for r in facts.records)
    assert systems_cli(facts, ["--dataset", "x"])[0][-1] == "--exact-hv"
