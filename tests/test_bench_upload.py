"""``bench_every_control.py --upload``: the file is saved as the upload page saves it."""

import tempfile
from pathlib import Path

from benchmarks._app import app_env
from benchmarks.bench_every_control import TABLES, _datasets, save_uploads
from copa_dash.config import Settings
from copa_dash.data.io import read_table_report
from copa_dash.data.proposal import propose
from copa_dash.services.store import open_store

FAIRNESS = Path(__file__).parent / "data" / "messy" / "fairness_adult_sex.csv"


def test_an_upload_is_saved_with_the_proposed_roles_and_joins_the_datasets():
    state = Path(tempfile.mkdtemp(prefix="copa-bench-test-"))
    env = app_env(1, state)
    saved = save_uploads([FAIRNESS], env, Path(__file__).parents[1])
    assert list(saved) == ["fairness_adult_sex"]
    table = open_store(Settings.from_env(env)).load(saved["fairness_adult_sex"])
    read = read_table_report(FAIRNESS)          # the proposal, made again here
    proposed = propose(read.frame, units=read.units, labels=read.labels).directed_roles()
    assert table.objective_names == proposed.objective_names
    assert len(table.frame) == 186
    assert _datasets(None, saved) == [*TABLES, saved["fairness_adult_sex"]]
    assert _datasets("fairness_adult_sex", saved) == [saved["fairness_adult_sex"]]
    assert _datasets("amlb-2022", saved) == ["amlb-2022"]
