"""The command line says when what it picks or ranks spans several tasks (tester G2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from copa_dash.cli import main

AMLB = str(Path(__file__).parents[1] / "data" / "messy" / "amlb2019_1h_slice.csv")
OBJ = ["--objective", "acc:max", "--objective", "duration:min"]
NOTE = "These rows come from 3 tasks (australian, credit-g, vehicle)"


@pytest.mark.parametrize("argv, words", [
    (["select", AMLB, *OBJ], "the pick compares a run on one task"),
    (["rank", AMLB, *OBJ], "the ranking compares runs on one task"),
    (["rank", AMLB, *OBJ, "--criteria", "copa:1,mean"], "a system's mean mixes its runs"),
    (["front", AMLB, *OBJ], "the front compares runs"),
    (["indicators", AMLB, *OBJ], "each system's front and indicators pool its runs"),
])
def test_amlb2019_slice_commands_say_the_rows_span_three_tasks(capsys, argv, words):
    assert main(argv) == 0
    err = capsys.readouterr().err
    line = next(line for line in err.splitlines() if NOTE in line)
    assert words in line and "'copa-dash depth'" in line
    assert ('--in "task=australian"' in line) == (argv[0] != "indicators")


def test_restricted_to_one_task_says_nothing(capsys):
    assert main(["select", AMLB, *OBJ, "--in", "task=credit-g"]) == 0
    assert "tasks (" not in capsys.readouterr().err


def test_bundled_amlb_default_view_is_one_task_and_not_nagged(capsys):
    """amlb-2022's default view filters one dataset: its ranking is within one task."""
    assert main(["rank", "--dataset", "amlb-2022", "--top", "2"]) == 0
    assert "tasks (" not in capsys.readouterr().err
    assert main(["rank", "--dataset", "amlb-2022", "--top", "2", "--all-rows"]) == 0
    assert "These rows come from 55 tasks" in capsys.readouterr().err


DEEPOBS = str(Path(__file__).parents[1] / "data" / "messy" / "deepobs_schneider.csv")
DIRECTIONS = ["--direction", "Performance:min", "--direction", "Speed:min"]


@pytest.mark.parametrize("command, words", [
    ("select", "the pick compares a run on one task"),
    ("indicators", "each system's front and indicators pool its runs"),
])
def test_deepobs_export_picks_and_means_across_problems_say_so(capsys, command, words):
    """G12: Performance is a loss on some problems and an accuracy on others."""
    assert main([command, DEEPOBS, *DIRECTIONS]) == 0
    err = capsys.readouterr().err
    assert ("These rows come from 8 tasks (P1, P2, P3, P4, P5 and 3 more): " + words) in err
    assert main([command, DEEPOBS, *DIRECTIONS, *(["--in", "Test Problem=P3"]
                                                  if command == "select" else [])]) == 0
    assert ("tasks (" in capsys.readouterr().err) == (command != "select")
