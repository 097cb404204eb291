"""The Upload page keeps a 0 in a time or amount column when asked, as --keep-zeros does: the
box under "What we read", the page read again, and the saved dataset keeps the 0s."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from dash import no_update

from copa_dash.config import Settings
from copa_dash.services.catalog import open_dataset
from copa_dash.services.uploads import restage_upload, save_upload, stage_upload
from copa_dash.ui.features.upload import callbacks
from copa_dash.ui.features.upload.ids import UploadReadIds
from copa_dash.ui.features.upload.read_panel import what_we_read
from tests.ui.dash_tree import find

AMLB = Path(__file__).parents[1] / "data" / "messy" / "amlb2019_1h_slice.csv"


def _settings(tmp_path):
    return Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")


def _notes(staged):
    return [li.children for li in what_we_read(staged).children[2].children]


def _save(settings, staged, **kw):
    return save_upload(settings, staged.token, staged.filename, staged.proposed,
                       name="amlb", shared=False, **kw)


def test_the_zero_note_points_at_the_box_and_the_box_reads_the_file_again(tmp_path):
    settings = _settings(tmp_path)
    staged = stage_upload(settings, AMLB.name, AMLB.read_bytes())
    assert staged.zeros_missing == ("duration",) and not staged.keep_zeros
    assert staged.frame["duration"].isna().sum() == 30
    note = next(n for n in _notes(staged) if "'duration': 0 in" in n)
    assert "--keep-zeros" not in note and "cannot yet" not in note  # the box below says it
    box = find(what_we_read(staged), UploadReadIds.KEEP_ZEROS)
    assert box.value == [] and "'duration'" in box.options[0]["label"]

    kept = restage_upload(settings, staged.token, staged.filename, keep_zeros=True)
    assert kept.keep_zeros and kept.token == staged.token
    assert (kept.frame["duration"] == 0).sum() == 30 and kept.frame["duration"].notna().all()
    assert find(what_we_read(kept), UploadReadIds.KEEP_ZEROS).value == ["keep"]
    assert any("Kept 0 as a value in 'duration' (as asked)" in n for n in _notes(kept))
    # the page's store of the staged upload carries the choice to the save
    assert callbacks._shown(kept)[3] == {"token": kept.token, "filename": kept.filename,
                                         "keep_zeros": True}
    assert callbacks._shown(staged)[3]["keep_zeros"] is False
    # ticking the box reads the file again but leaves the role form as the user edited it
    again = callbacks._form_kept(callbacks._shown(kept))
    assert again[2] is no_update and again[3]["keep_zeros"] is True and again[1] is not None
    ticked = find(what_we_read(kept), UploadReadIds.KEEP_ZEROS)
    assert ticked.value == ["keep"] and "'duration'" in ticked.options[0]["label"]


def test_a_table_without_zero_times_has_no_box(tmp_path):
    staged = stage_upload(_settings(tmp_path), "m.csv", b"model,acc,latency_ms\na,0.9,3\nb,0.8,1\n")
    assert staged.zeros_missing == ()
    assert find(what_we_read(staged), UploadReadIds.KEEP_ZEROS) is None


def test_the_saved_dataset_keeps_the_zeros_only_when_asked(tmp_path):
    settings = _settings(tmp_path)
    staged = stage_upload(settings, AMLB.name, AMLB.read_bytes())
    kept = _save(settings, staged, keep_zeros=True)
    dropped = _save(settings, staged)
    kept_duration = open_dataset(kept.id, settings).table.frame["duration"].to_numpy(float)
    dropped_duration = open_dataset(dropped.id, settings).table.frame["duration"].to_numpy(float)
    assert np.sum(kept_duration == 0) == 30 and not np.isnan(kept_duration).any()
    assert np.isnan(dropped_duration).sum() == 30 and not np.any(dropped_duration == 0)
