"""The Datasets page's catalogue: every bundled dataset has its texts, its counts agree with
its CSV file (read here with pandas, not through the app's reader), uploads are marked, and
the search keeps exactly the entries holding every word."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from copa_dash.config import Settings
from copa_dash.data.bundled import ENV_VAR
from copa_dash.data.schema import Objective, Roles
from copa_dash.services.catalog import catalog, open_dataset, search_catalog, with_my_uploads
from copa_dash.services.store import open_store
from copa_dash.services.uploads import my_uploads

DATASETS = Path(__file__).resolve().parents[2] / "datasets"
MANIFEST = json.loads((DATASETS / "manifest.json").read_text(encoding="utf-8"))["datasets"]
TEXTS = json.loads((DATASETS / "catalog.json").read_text(encoding="utf-8"))["datasets"]
DATE = re.compile(r"^(\d{4}(-\d{2}(-\d{2})?)?|generated)$")


@pytest.fixture(autouse=True)
def _repo_datasets(monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)


@pytest.fixture(scope="module")
def entries():
    return {e.ref: e for e in catalog()}


def test_the_catalogue_texts_name_exactly_the_bundled_datasets():
    assert sorted(TEXTS) == sorted(e["name"] for e in MANIFEST)


@pytest.mark.parametrize("manifest", MANIFEST, ids=[e["name"] for e in MANIFEST])
def test_every_bundled_dataset_says_what_you_can_learn_and_counts_its_csv(manifest, entries):
    entry = entries[manifest["name"]]
    assert len(entry.learn.split()) >= 8 and entry.learn.endswith(".")
    assert entry.domain.strip() and entry.source.strip() and DATE.match(entry.date)
    frame = pd.read_csv(DATASETS / manifest["file"])
    assert entry.n_rows == len(frame)
    numeric = [c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c])]
    assert entry.n_objectives == len([o for o in manifest["objectives"] if o["name"] in numeric])
    assert entry.n_objectives == len(manifest["objectives"])     # none is missing from the file


def test_the_lines_are_each_their_own(entries):
    lines = [e.learn for e in entries.values()]
    assert len(set(lines)) == len(lines)


def test_task_names_name_each_task_once():
    for name, text in TEXTS.items():
        column = text.get("task_names")
        if not column:
            continue
        manifest = next(e for e in MANIFEST if e["name"] == name)
        frame = pd.read_csv(DATASETS / manifest["file"])
        pairs = frame[[manifest["roles"]["task"], column]].drop_duplicates()
        assert pairs.iloc[:, 0].is_unique and pairs.iloc[:, 1].is_unique, name
        assert open_dataset(name).task_names == column


def test_deepobs_task_names_are_the_papers_test_problems():
    # DeepOBS (Schneider, Balles & Hennig 2019), Table 1 order, as datasets/PROVENANCE.md says
    frame = pd.read_csv(DATASETS / "deepobs.csv")
    names = dict(frame[["problem", "problem_name"]].drop_duplicates().itertuples(index=False))
    assert names == {"P1": "quadratic_deep", "P2": "mnist_vae", "P3": "fmnist_2c2d",
                     "P4": "cifar10_3c3d", "P5": "fmnist_vae", "P6": "cifar100_allcnnc",
                     "P7": "svhn_wrn164", "P8": "tolstoi_char_rnn"}


def test_search_keeps_the_entries_holding_every_word(entries):
    rows = list(entries.values())
    found = [e.ref for e in search_catalog(rows, "  DomainBed  pacs ")]
    assert found == ["domainbed-pacs"]
    assert {e.ref for e in search_catalog(rows, "fairness")} >= {"fairness-adult-sex",
                                                                  "fairness-compas-race"}
    assert search_catalog(rows, "no-such-word-anywhere") == []
    assert len(search_catalog(rows, None)) == len(rows)


def test_own_uploads_come_first_marked_and_a_shared_own_upload_is_listed_once(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    frame = pd.DataFrame({"m": ["a", "b"], "acc": [0.9, 0.8], "cost": [2.0, 1.0]})
    roles = Roles(id="m", objectives=(Objective("acc", "max"), Objective("cost", "min")))
    store = open_store(settings)
    mine = store.save(frame, roles, name="my sweep", shared=True)
    other = store.save(frame.assign(acc=[0.5, 0.4]), roles, name="their sweep", shared=True)
    listed = with_my_uploads(catalog(settings), my_uploads(settings, {mine.id: mine.owner_token}))
    assert [(e.ref, e.origin) for e in listed[:1]] == [(mine.id, "your upload")]
    assert [e.ref for e in listed].count(mine.id) == 1
    theirs = next(e for e in listed if e.ref == other.id)
    assert theirs.origin == "shared upload" and theirs.n_rows == 2 and theirs.n_objectives == 2
    assert sum(e.origin == "bundled" for e in listed) == len(MANIFEST)
