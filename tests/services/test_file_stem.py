"""Downloads are named by their dataset: by its short name when bundled, by its own name when
uploaded, never by the upload's 32-character id (newcomer's pass, session 18: every Explore CSV
was copa-ranking.csv)."""

from __future__ import annotations

from copa_dash.config import Settings
from copa_dash.services.catalog import file_stem, is_upload_id
from tests.heavy_tables import save_many_runs


def test_an_upload_is_named_by_its_name_and_a_bundled_table_by_its_short_name(tmp_path):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    ref = save_many_runs(settings)          # named "two systems, many runs"
    assert is_upload_id(ref)
    stem = file_stem("copa-ranking", ref, settings)
    assert stem == "copa-ranking-two-systems-many-runs" and ref not in stem
    assert file_stem("copa-report", "amlb-2022") == "copa-report-amlb-2022"
    # an upload gone (or a settings-less call) falls back to the plain name, never the id
    assert file_stem("copa-ranking", ref) == "copa-ranking"
