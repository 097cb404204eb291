"""The noise of 'How sure is this pick?' comes, by default, from the spread columns the reader
pairs with the view's objectives (issue 30 item 4 with issue 29 item 2): the page, the CLI and
the notebook then draw the same noise, and it equals giving the pairing by hand."""

from __future__ import annotations

from pathlib import Path

from copa_dash.data.guessed_table import guessed_table
from copa_dash.data.io import read_table_report
from copa_dash.services import robustness as service
from copa_dash.services.selection import Preferences

ALPACA = Path(__file__).resolve().parents[1] / "data" / "messy" / "llmeval_alpacaeval2.csv"


def _view():
    table = guessed_table(read_table_report(ALPACA)).table
    names = tuple(table.objective_names)
    return table, Preferences(names, tuple(table.directions))


def test_default_noise_is_the_readers_pairing_and_equals_it_given_by_hand():
    table, prefs = _view()
    pairing = service.paired_uncertainty(table, prefs.objectives)
    assert pairing["win_rate"] == ("stderr", "standard_error")
    assert pairing["length_controlled_winrate"] == ("stderr", "lc_standard_error")
    default = service.robustness(table, prefs, samples=2000)
    by_hand = service.robustness(table, prefs, samples=2000, uncertainty=pairing)
    assert default.membership is not None
    assert "standard_error" in default.membership["method"]
    assert default.membership == by_hand.membership


def test_a_table_with_runs_keeps_the_bootstrap():
    from copa_dash.services.catalog import open_dataset

    opened = open_dataset("fairness-adult-sex")
    table = opened.table
    prefs = Preferences(tuple(table.objective_names), tuple(table.directions))
    result = service.robustness(table, prefs, samples=500)
    assert result.membership is None or "bootstrap" in result.membership["method"]
