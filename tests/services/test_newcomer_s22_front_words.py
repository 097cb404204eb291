"""Session 22's newcomer pass: each front end says what acts there when the first view leaves
an objective out (issue 33). The CLI and the notebook said "tick it", a word of the page; one
sentence (services.default_view) now takes the front end's verb: the page ticks, the CLI
passes ``--objective``, the notebook names it in ``objectives=``."""

from __future__ import annotations

import pandas as pd
import pytest

from copa_dash import notebook
from copa_dash.cli import main
from copa_dash.data.front_words import FRONT_ENDS
from copa_dash.services.default_view import first_view, include_words
from copa_dash.services.explorer import explore
from copa_dash.services.views.explore import ExploreView
from tests.services.test_default_view import MESSY, _upload
from tests.ui.test_newcomer_s21_average import AVERAGE, FILE, _opened

CLI_WORDS = f"pass --objective '{AVERAGE}:max' without its parts to rank by it"
NOTEBOOK_WORDS = f"pass objectives=['{AVERAGE}:max'] without its parts to rank by it"


def test_the_cli_says_the_flag_to_pass(capsys):
    assert main(["select", str(MESSY / FILE)]) == 0
    out = capsys.readouterr().out
    view_line = next(line for line in out.splitlines() if line.startswith("view: "))
    assert CLI_WORDS in view_line and "tick" not in view_line


def test_the_notebook_says_the_argument_to_give():
    said = notebook.select(pd.read_csv(MESSY / FILE)).view
    assert NOTEBOOK_WORDS in said and "tick" not in said


def test_the_page_still_says_tick():
    table = _upload(FILE)
    page = ExploreView.default_for(_opened(table))
    notes = explore(_opened(table), page.preferences(), page.row_filter()).notes
    assert any("tick it (and untick its parts) to rank by it" in n for n in notes), notes
    assert first_view(table).left_out_note("page") in notes


def test_a_column_missing_in_most_rows_is_brought_back_by_each_front_end():
    table = _upload("helm_classic_calibration.tsv")
    view = first_view(table)
    assert "tick them to include them" in view.left_out_note("page")
    cli = view.describe("cli")
    assert ("pass --objective 'HellaSwag - ECE (10-bin):DIR' --objective "
            "'OpenbookQA - ECE (10-bin):DIR' (DIR min or max) with every other objective "
            "you want to include them") in cli
    assert "objectives=['HellaSwag - ECE (10-bin):DIR'" in view.describe("notebook")


def test_an_unknown_front_end_is_refused():
    assert FRONT_ENDS == ("page", "cli", "notebook")
    with pytest.raises(ValueError, match="front 'web'"):
        include_words(["a"], "web")
