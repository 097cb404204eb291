"""A leaderboard's own position column (MTEB's ``Rank``) is proposed as what it is: the
source's ranking, left out as metadata, never an objective and never a setting (issue 33, F16).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from copa_dash.data.column_kinds import RANKING_REASON, is_source_ranking, never_goal
from copa_dash.data.guessed_table import guessed_table
from copa_dash.data.io import read_frame_report, read_table_report
from copa_dash.data.proposal import propose

MTEB = Path(__file__).parent / "messy" / "embed_mteb_2024.tsv"


def test_mteb_rank_is_the_sources_ranking_on_the_page_and_in_the_cli():
    read = read_table_report(MTEB)
    guess = {g.name: g for g in propose(read.frame, units=read.units,
                                        labels=read.labels).columns}["Rank"]
    assert (guess.role, guess.direction, guess.reason) == ("metadata", None, RANKING_REASON)
    assert "setting" not in guess.reason.replace("not a setting", "")
    table = guessed_table(read, directions=[("Embedding Dimensions", "min")]).table
    assert "Rank" not in table.objective_names
    assert table.roles.config != "Rank"


def test_a_shuffled_rank_is_never_taken_as_the_configuration():
    frame = pd.DataFrame({"model": list("abcdef"), "rank": [3, 1, 2, 6, 4, 5],
                          "accuracy": [0.7, 0.9, 0.8, 0.5, 0.65, 0.6]})
    guesses = {g.name: g for g in propose(frame).columns}
    assert guesses["rank"].role == "metadata"
    assert guesses["rank"].reason == RANKING_REASON
    assert guessed_table(read_frame_report(frame)).table.objective_names == ("accuracy",)


@pytest.mark.parametrize("name, values, expected", [
    ("Rank", [1, 2, 3, 4, 5], True),
    ("Arena Rank", [2, 1, 3, 3, 5], True),          # ties allowed
    ("#", [4, 1, 2, 3], True),
    ("position", [1.0, 2.0, 3.0, 4.0], True),
    ("lora_rank", [8, 16, 8, 64, 16], False),         # a setting: repeats, past n
    ("Rank", [1, 1, 1, 2, 2], False),                 # mostly equal: not a position
    ("Rank", [0.5, 1.5, 2.5], False),                 # not whole numbers
    ("score", [3, 1, 2, 4], False),                   # not a rank word
    ("Rank", [1, 2, 30], False),                      # past the number of rows
])
def test_what_counts_as_a_ranking(name, values, expected):
    series = pd.Series(values, name=name)
    assert is_source_ranking(series) is expected
    if expected:
        assert never_goal(series) == ("ranking", RANKING_REASON)
