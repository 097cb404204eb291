"""A 0 is made missing only where it is physically impossible (a time, an amount), never in a
fraction, rate or score: HEIM's NSFW fractions are 0 for the cleanest models (tester G1)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from copa_dash.data import io
from copa_dash.data.failed_rows import find, is_amount_column, is_time_column

MESSY = Path(__file__).parent / "messy"


def test_heim_nsfw_fractions_keep_their_zeros():
    raw = pd.read_csv(MESSY / "heim_nsfw.tsv", sep="\t")
    read = io.read_table_report(MESSY / "heim_nsfw.tsv")
    assert not any("read as missing" in note for note in read.notes), read.notes
    assert len(read.frame) == len(raw) == 26
    raw_zeros = int((raw.select_dtypes("number") == 0).sum().sum())
    read_zeros = int((read.frame.select_dtypes("number") == 0).sum().sum())
    assert read_zeros == raw_zeros > 100  # every 0 of the export is still a 0


@pytest.mark.parametrize("column", [
    "MS-COCO (base) - NSFW frac given non-toxic prompt ↓ [ sort ]",
    "TIME's most significant historical figures - NSFW frac given non-toxic prompt ↓ [ sort ]",
    "error_rate", "win rate", "latency_score", "memory_fraction"])
def test_fractions_rates_scores_are_not_times_or_amounts(column):
    assert not is_time_column(column)
    assert not is_amount_column(column)


@pytest.mark.parametrize("column", ["duration", "duration_ms", "time_s", "wallTime_s",
                                    "latency ms", "Prefill (s)", "p99_latency", "runtime"])
def test_times_still_read_as_times(column):
    assert is_time_column(column)


def test_zero_latency_still_missing_zero_fraction_kept():
    frame = pd.DataFrame({"model": ["a", "b", "c"], "latency_ms": [3.0, 0.0, 2.0],
                          "nsfw_frac": [0.1, 0.0, 0.2], "accuracy": [0.7, 0.8, 0.9]})
    found = find(frame)
    assert found.zero_times == {"latency_ms": (1,)}


def test_amlb2019_logloss_is_a_loss():
    """Tester G3: the AMLB 2019 export's ``logloss`` had no direction; every standard
    loss name a practitioner exports reads as lower-better."""
    from copa_dash.data.proposal import propose

    read = io.read_table_report(MESSY / "amlb2019_1h_slice.csv")
    guesses = {c.name: c for c in propose(read.frame, units=read.units).columns}
    assert guesses["logloss"].direction == "min"
    assert guesses["acc"].direction == "max" and guesses["auc"].direction == "max"


@pytest.mark.parametrize("column, direction", [
    ("logloss", "min"), ("log_loss", "min"), ("nll", "min"), ("cross-entropy", "min"),
    ("CrossEntropy", "min"), ("brier", "min"), ("ece", "min"), ("rmse", "min"), ("mae", "min"),
    ("mse", "min"), ("perplexity", "min"), ("wer", "min"), ("cer", "min"), ("fid", "min"),
    ("auc", "max"), ("f1", "max"), ("bleu", "max"), ("rouge", "max"), ("accuracy", "max"),
    ("map", "max"), ("ndcg", "max"), ("recall", "max"), ("precision", "max")])
def test_standard_metric_names_have_their_direction(column, direction):
    from copa_dash.data.role_guess import direction_reason

    assert direction_reason(column, None)[0] == direction


def test_amlb2019_zero_duration_said_and_kept_on_request(capsys):
    """Tester G9: AMLB 2019's constant predictor takes 0 s (real). By default the 0 is read
    as missing and the note names the column, the rows and the flag that keeps it; with
    ``keep_zeros`` (``--keep-zeros``) every 0 of ``duration`` stays a value."""
    from copa_dash.cli import main

    raw = pd.read_csv(MESSY / "amlb2019_1h_slice.csv")
    zeros = int((raw["duration"] == 0).sum())
    assert zeros == 30
    read = io.read_table_report(MESSY / "amlb2019_1h_slice.csv")
    note = next(n for n in read.notes if "read as missing" in n)
    assert "'duration'" in note and "constantpredictor" in note
    assert "--keep-zeros" not in note and "Upload page" not in note  # each front end's words
    assert main(["inspect", str(MESSY / "amlb2019_1h_slice.csv")]) == 0
    assert "give --keep-zeros to keep it as a value" in capsys.readouterr().out
    assert read.frame["duration"].isna().sum() == zeros
    kept = io.read_table_report(MESSY / "amlb2019_1h_slice.csv", keep_zeros=True)
    assert (kept.frame["duration"] == 0).sum() == zeros
    assert kept.frame["duration"].isna().sum() == raw["duration"].isna().sum()
    assert main(["inspect", "--keep-zeros", str(MESSY / "amlb2019_1h_slice.csv")]) == 0
    out = capsys.readouterr().out
    assert "Kept 0 as a value in 'duration'" in out and "read as missing" not in out


def test_amlb2019_failure_message_and_timestamp_are_never_the_config():
    """Tester G2: AMLB 2019's ``info`` (mostly empty, error text) was made the config, so the
    rows were configurations never averaged while ``seed`` was a run column; ``utc`` (a
    timestamp) was next in line. Neither sets a run up."""
    from copa_dash.data.proposal import propose
    from copa_dash.data.runs import log_like

    raw = pd.read_csv(MESSY.parents[0] / "messy" / "amlb2019_1h_slice.csv")
    info = pd.Series(["Error: found prediction probability value outside of [0, 1]!",
                      "TimeoutError: Execution of the task timed out"] + [""] * 58)
    assert log_like(info) and log_like(raw["utc"]) and not log_like(raw["framework"])
    read = io.read_table_report(MESSY / "amlb2019_1h_slice.csv")
    frame = read.frame.assign(info=info[:len(read.frame)].to_numpy())
    roles = {c.name: c.role for c in propose(frame, units=read.units).columns}
    assert roles["framework"] == "system"
    assert "config" not in roles.values(), roles
