"""Every bundled dataset loads through the upload reader and matches its manifest entry."""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from copa_dash.core.errors import InvalidInputError
from copa_dash.data.bundled import ENV_VAR, DatasetInfo, datasets_dir, list_datasets, load_bundled

DATASETS = Path(__file__).resolve().parents[2] / "datasets"
MANIFEST = json.loads((DATASETS / "manifest.json").read_text(encoding="utf-8"))["datasets"]
ENTRIES = {e["name"]: e for e in MANIFEST}
GENERATED_ELSEWHERE = {"breast-cancer-val-test": "scripts/make_val_test_example.py"}
REQUIRED = ("open-llm-leaderboard-v2", "decodingtrust", "amlb-2022", "helm-classic",
            "mteb-2024", "chatbot-arena-price", "llm-perf", "fairness-adult-sex",
            "fairness-compas-race", "domainbed", "deepobs", "dmop", "bbob", "copa-synthetic",
            "breast-cancer-val-test")
KEYS = ("name", "title", "description", "source", "licence", "file", "id", "objectives",
        "roles", "metadata", "default_view", "paired_metrics", "n_rows")


@pytest.fixture(autouse=True)
def _repo_datasets(monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)


@functools.cache
def _load_repo_dataset(name):
    return load_bundled(name)


def _loadable(name):
    """Load ``name`` from the repository's datasets/ (once per test session)."""
    entry = ENTRIES[name]
    if name in GENERATED_ELSEWHERE and not (DATASETS / entry["file"]).exists():
        pytest.skip(f"{entry['file']} is not generated yet (run {GENERATED_ELSEWHERE[name]})")
    return _load_repo_dataset(name)


def test_manifest_has_the_required_names_and_keys():
    assert set(REQUIRED) <= set(ENTRIES)
    assert len(ENTRIES) == len(MANIFEST)
    for entry in MANIFEST:
        assert tuple(entry) == KEYS, entry["name"]
        for key in ("title", "description", "source", "licence"):
            assert isinstance(entry[key], str) and entry[key].strip(), (entry["name"], key)
        assert len(entry["description"]) > 200, entry["name"]
        if entry["licence"] == "no licence stated":
            assert "no licence is stated" in entry["description"].lower(), entry["name"]


def test_shipped_data_is_small():
    total = sum(p.stat().st_size for p in DATASETS.iterdir() if p.is_file())
    assert total < 5 * 2**20


@pytest.mark.parametrize("name", list(ENTRIES))
def test_every_entry_loads_and_matches_its_manifest(name):
    table, info = _loadable(name)
    entry = ENTRIES[name]
    assert isinstance(info, DatasetInfo) and info.name == name
    assert table.n_rows == entry["n_rows"] == info.n_rows
    assert table.objective_names == tuple(o["name"] for o in entry["objectives"])
    assert table.directions == tuple(o["direction"] for o in entry["objectives"])
    assert set(table.directions) <= {"min", "max"}
    assert len(set(table.ids)) == table.n_rows
    frame = table.frame
    for role, column in entry["roles"].items():
        assert column is None or column in frame.columns, role
        assert getattr(table.roles, role) == column
    assert set(entry["metadata"]) <= set(frame.columns)
    for column in table.objective_names:                  # no objective is entirely empty
        assert frame[column].notna().any(), column
    assert info.paired_metrics == tuple(entry["paired_metrics"])


@pytest.mark.parametrize("name", list(ENTRIES))
def test_default_view_names_real_columns(name):
    table, info = _loadable(name)
    view = info.default_view
    assert set(view.objectives) <= set(table.objective_names)
    assert set(view.focus) <= set(view.objectives) and view.focus
    assert 0.0 <= view.alpha <= 1.0 and view.p >= 1
    for column, rule in view.filters.items():
        assert column in table.frame.columns
        if isinstance(rule, list):
            present = {str(v).lower() for v in table.frame[column].dropna()}
            assert {str(v).lower() for v in rule} & present, (column, rule)


def _filter_mask(frame, filters):
    from copa_dash.data.filters import RowFilter
    sets = {c: r for c, r in filters.items() if isinstance(r, list)}
    ranges = {c: (r.get("min"), r.get("max")) for c, r in filters.items() if isinstance(r, dict)}
    return RowFilter(sets=sets, ranges=ranges).mask(frame)


def _reference_scores(u, weights, p):
    """COPA criterion by the definition: (sum |w u|^p)^(1/p), max for p = inf."""
    wu = np.abs(weights * u)
    return wu.max(axis=1) if math.isinf(p) else (wu ** p).sum(axis=1) ** (1.0 / p)


def _reference_u(points, directions):
    """u_ik = #{j : y'_jk < y'_ik} / N over the rows with a value (by the definition)."""
    oriented = np.where(np.array(directions) == "max", -points, points)
    u = np.full_like(points, np.nan)
    for k in range(points.shape[1]):
        column = oriented[:, k]
        has = ~np.isnan(column)
        present = np.sort(column[has])
        # searchsorted(side="left") = number of present values strictly below each value
        u[has, k] = np.searchsorted(present, column[has], side="left") / present.size
    return u


@pytest.mark.parametrize("name", list(ENTRIES))
def test_default_view_selects_a_row(name):
    table, info = _loadable(name)
    view = info.default_view
    names = list(view.objectives)
    points = table.matrix(names)
    directions = [table.objective(n).direction for n in names]
    eligible = _filter_mask(table.frame, view.filters) & ~np.isnan(points).any(axis=1)
    assert eligible.sum() >= 2, "the default view leaves fewer than 2 complete rows"
    focus = [names.index(f) for f in view.focus]
    weights = np.full(len(names), (1 - view.alpha) / max(len(names) - len(focus), 1))
    weights[focus] = view.alpha / len(focus)
    u = _reference_u(points, directions)
    scores = _reference_scores(u, weights, view.p)
    best = np.nanmin(np.where(eligible, scores, np.nan))
    try:
        from copa_dash.core.criteria import copa_select, weights_from_alpha
        from copa_dash.core.ranks import cdf_transform
    except ImportError:
        return                                  # the core is not there yet: reference only
    u_core = cdf_transform(points, directions)
    np.testing.assert_allclose(u_core, u, equal_nan=True)
    w_core = weights_from_alpha(len(names), focus, view.alpha)
    np.testing.assert_allclose(w_core, weights)
    filled = np.where(np.isnan(u_core), 1.0, u_core)   # excluded rows never count
    chosen = copa_select(filled, w_core, p=view.p, eligible=eligible)
    assert eligible[chosen]
    assert scores[chosen] == pytest.approx(best)


def test_unknown_name_lists_the_known_ones():
    with pytest.raises(InvalidInputError, match="unknown bundled dataset 'nope'.*copa-synthetic"
                       ) as refused:
        load_bundled("nope")
    assert "file of your own" not in str(refused.value)
    # a path given as a name (a newcomer's `--dataset results.csv`): where a file goes instead
    with pytest.raises(InvalidInputError, match=r"'runs/results.csv'.*A file of your own is read "
                       r"from its path, given without --dataset"):
        load_bundled("runs/results.csv")


def test_dataset_info_is_frozen():
    info = list_datasets()[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.name = "other"


def _write_folder(folder, *, with_file=True):
    entry = dict(ENTRIES["copa-synthetic"])
    entry["file"] = "front.csv"
    entry["n_rows"] = 3
    missing = dict(entry, name="absent", file="absent.csv")
    (folder / "manifest.json").write_text(json.dumps({"datasets": [entry, missing]}))
    if with_file:
        (folder / "front.csv").write_text("id,y1,y2\na,0.1,2\nb,0.2,1\nc,0.15,1.5\n")


def test_env_var_points_to_another_folder(tmp_path, monkeypatch):
    _write_folder(tmp_path)
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    assert datasets_dir() == tmp_path
    assert [d.name for d in list_datasets()] == ["copa-synthetic"]
    assert [d.name for d in list_datasets(include_missing=True)] == ["copa-synthetic", "absent"]
    table, info = load_bundled("copa-synthetic")
    assert table.ids.tolist() == ["a", "b", "c"] and info.path == tmp_path / "front.csv"
    with pytest.raises(InvalidInputError, match="absent.csv is missing"):
        load_bundled("absent")


def test_missing_or_broken_manifest_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "nowhere"))
    with pytest.raises(InvalidInputError, match="no bundled datasets.*COPA_DATASETS_DIR"):
        list_datasets()
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(InvalidInputError, match="not a valid manifest"):
        list_datasets()
    (tmp_path / "manifest.json").write_text(json.dumps({"datasets": [{"name": "x"}]}))
    with pytest.raises(InvalidInputError, match="'x' lacks title"):
        list_datasets()
