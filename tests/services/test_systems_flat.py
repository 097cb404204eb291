"""The Systems page says why its radar is flat with many objectives (issue 33, F2), on the
fairness Adult/sex upload as exported (12 proposed objectives)."""

from itertools import product
from pathlib import Path

import numpy as np

from copa_dash.data.io import read_table_report
from copa_dash.data.proposal import prepare_frame, propose
from copa_dash.data.schema import EvalTable
from copa_dash.services import systems
from copa_dash.services.catalog import open_dataset
from copa_dash.services.systems_flat import FLAT, flat_radar_note

FAIRNESS = Path(__file__).parents[1] / "data" / "messy" / "fairness_adult_sex.csv"


def _upload() -> EvalTable:
    """The table "Save and explore" stores with the proposal accepted."""
    read = read_table_report(FAIRNESS)
    proposal = propose(read.frame, units=read.units, labels=read.labels)
    roles = proposal.directed_roles()
    return EvalTable(prepare_frame(read.frame, proposal, roles), roles)


def _box_share(points: np.ndarray) -> float:
    """Share of [0, 1]^K that the minimised ``points`` dominate, counted on a grid (the
    independent source: no hypervolume code; exact for points on the grid's lines' cells
    up to the grid's resolution, an upper bound otherwise)."""
    k = points.shape[1]
    grid = np.array(list(product(*[np.linspace(0.05, 0.95, 4)] * k)))
    return float(np.mean([(points <= g).all(axis=1).any() for g in grid]))


def test_twelve_objectives_flatten_the_radar_and_the_page_says_why():
    table = _upload()
    assert len(table.objective_names) == 12
    view = systems.systems_view(table)
    assert view.indicators.hv.max() < FLAT and np.nanmax(view.indicators.os) < FLAT
    note = flat_radar_note(view, table)
    assert note is not None and "12 objectives" in note and "0.5^12 = 0.00024" in note
    assert "accuracy and |1 - " in note          # the first view's pair, named


def test_the_named_pair_gives_a_radar_that_tells_systems_apart():
    table = _upload()
    note = flat_radar_note(systems.systems_view(table), table)
    pair = note.split("e.g. ")[1].split(": HV")[0].split(" and ")
    view = systems.systems_view(table, objectives=pair)
    assert flat_radar_note(view, table) is None
    assert view.indicators.hv.max() >= FLAT and np.nanmax(view.indicators.os) >= FLAT
    assert np.ptp(view.indicators.hv) >= FLAT            # the systems differ in HV


def test_the_box_share_of_a_half_way_row_shrinks_like_the_note_says():
    # the note's arithmetic, counted: one row at 0.5 on every objective, K = 2 and 3
    for k in (2, 3):
        assert _box_share(np.full((1, k), 0.5)) == 0.5 ** k


def test_few_objectives_or_a_readable_radar_get_no_note():
    table = open_dataset("amlb-2022").table
    view = systems.systems_view(table)
    assert flat_radar_note(view, table) is None
    fair = _upload()
    three = systems.systems_view(fair, objectives=list(fair.objective_names[:3]))
    assert len(three.objectives) < 4 and flat_radar_note(three, fair) is None


def test_an_objective_constant_within_every_system_is_named_as_why_os_is_zero():
    """The llm-perf export's "Open LLM Score" is one number per model, whose quantisation
    configs are the rows: OS was 0 for all 58 systems with no word why (tester s14 G5). The
    note names the objective that pandas finds constant within every system, and the core's
    OS agrees: 0 with it, not 0 without it."""
    import pandas as pd

    from copa_dash.data.schema import Objective, Roles
    from copa_dash.services.systems_flat import constant_objective_note

    rng = np.random.default_rng(3)
    models = np.repeat([f"model-{i}" for i in range(6)], 4)
    score = np.repeat(rng.uniform(40, 80, 6).round(1), 4)          # one value per model
    frame = pd.DataFrame({"row": [f"{m} · cfg{i % 4}" for i, m in enumerate(models)],
                          "model": models, "score": score,
                          "tokens_s": rng.uniform(10, 100, 24), "memory": rng.uniform(4, 40, 24)})
    roles = Roles("row", (Objective("score", "max"), Objective("tokens_s", "max"),
                          Objective("memory", "min")), system="model")
    table = EvalTable(frame, roles)
    constant = [c for c in ("score", "tokens_s", "memory")
                if (frame.groupby("model")[c].nunique() == 1).all()]
    assert constant == ["score"]                      # the independent reading (pandas)
    view = systems.systems_view(table)
    assert np.nanmax(view.indicators.os) == 0
    note = constant_objective_note(view)
    zero = int(np.count_nonzero(view.indicators.os == 0))   # the others' OS is undefined
    assert zero >= 2
    assert note.startswith(f"OS is 0 for {zero} of 6 systems because 'score' takes one value")
    without = systems.systems_view(table, objectives=["tokens_s", "memory"])
    assert np.nanmax(without.indicators.os) > 0 and constant_objective_note(without) is None
