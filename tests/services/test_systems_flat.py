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
