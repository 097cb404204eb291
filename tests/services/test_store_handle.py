"""An upload's store handle is built once per location and process, not per request, and the
record is read once when the dataset opens."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pandas as pd

from copa_dash.config import Settings
from copa_dash.services import catalog, store
from copa_dash.services.explorer import summary_coordinates
from copa_dash.services.inputs import Objective, Roles
from copa_dash.services.selection import Preferences, build_problem


def _settings(tmp_path) -> Settings:
    return Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")


def _upload(settings) -> str:
    frame = pd.DataFrame({"m": list("abcdef"), "acc": [.1, .5, .3, .9, .7, .2],
                          "cost": [3., 1, 2, 9, 4, 5], "co2": [1., 2, 3, 4, 5, 6]})
    roles = Roles("m", (Objective("acc", "max"), Objective("cost", "min"),
                        Objective("co2", "min")))
    return store.open_store(settings).save(frame, roles, shared=True).id


def test_requests_share_one_store_handle(tmp_path, monkeypatch):
    settings = _settings(tmp_path)
    dataset = _upload(settings)
    built = []
    real = store.DatasetStore.__init__

    def counted(self, *args, **kwargs):
        built.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(store.DatasetStore, "__init__", counted)
    reads = []
    real_read = store.DatasetStore._read_record
    monkeypatch.setattr(store.DatasetStore, "_read_record",
                        lambda self, ref: reads.append(ref) or real_read(self, ref))
    for _ in range(3):                                        # three slider moves
        opened = catalog.open_dataset(dataset, settings)
    assert built == [] and reads == [dataset] * 3             # one record read per open
    assert opened.table.n_rows == 6 and opened.title == "upload " + dataset[:8]
    assert store.open_store(settings) is store.open_store(settings)
    other = _settings(tmp_path / "other")
    assert store.open_store(other) is not store.open_store(settings)
    assert built == [1]


def test_a_removed_local_store_is_opened_anew(tmp_path):
    settings = _settings(tmp_path)
    first = store.open_store(settings)
    shutil.rmtree(first.root)
    again = store.open_store(settings)
    assert again is not first and (again.root / "records").is_dir()


def test_summary_coordinates_are_kept_per_u_focus_and_p():
    frame = pd.DataFrame({"m": list("abcdefgh"), "a": [1., 5, 3, 2, 8, 7, 4, 6],
                          "b": [2., 1, 4, 3, 6, 5, 8, 7], "c": [8., 7, 6, 5, 4, 3, 2, 1]})
    from copa_dash.data.schema import EvalTable

    table = EvalTable(frame, Roles("m", (Objective("a", "max"), Objective("b", "min"),
                                         Objective("c", "min"))))
    prefs = Preferences(objectives=("a", "b", "c"), directions=("max", "min", "min"),
                        focus=("a",), p=2.0)
    problem = build_problem(table, prefs)
    _, y = summary_coordinates(problem)
    assert summary_coordinates(problem)[1] is y                      # kept
    moved = replace(problem, preferences=replace(prefs, alpha=0.9))  # alpha moved, same u
    assert summary_coordinates(moved)[1] is y
    focused = replace(problem, preferences=replace(prefs, focus=("b",)))
    assert summary_coordinates(focused)[1] is not y                  # the focus changes y
    other_p = build_problem(table, Preferences(**{**prefs.__dict__, "p": 1.0}))
    assert summary_coordinates(other_p)[1] is not y                  # p changes y
    # against a fresh computation, for every one of them
    from copa_dash.services.explorer import _summary_coordinates
    for prob in (problem, moved, focused, other_p):
        fresh = _summary_coordinates(prob)
        kept = summary_coordinates(prob)
        assert (fresh[0] == kept[0]).all() and (fresh[1] == kept[1]).all()
