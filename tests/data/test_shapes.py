"""Shapes people export (issue 29, items 3, 4, 5): runs vs configurations, failed rows,
JSON keyed by name with nested scores, missing markers with a unit mark - on the real files
``tests/data/messy/shapes_*`` (provenance in the README there) and on small tables whose
answer is worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from copa_dash.core.criteria import copa_select
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.ranks import cdf_transform
from copa_dash.data import failed_rows
from copa_dash.data.io import build_eval_table, read_frame_report, read_table_report
from copa_dash.data.proposal import prepare_frame, propose
from copa_dash.data.read_log import ReadLog
from copa_dash.data.runs import average_runs, repeat_kind
from copa_dash.data.schema import Objective, Roles

MESSY = Path(__file__).parent / "messy"


def _read(name):
    read = read_table_report(MESSY / name)
    return read, propose(read.frame, units=read.units, labels=read.labels)


# ------------------------------------------------------------------ runs vs configurations
def test_mlperf_rows_of_one_system_are_configurations_not_runs():
    # MLPerf Inference v3.0, NeuralMagic: one system, 6 rows differing in framework and model
    read, proposal = _read("shapes_mlperf_v3_neuralmagic.csv")
    kind = repeat_kind(read.frame, "SystemName")
    assert kind.configurations
    assert {"Platform", "Model", "framework"} <= set(kind.settings)
    assert "Location" not in kind.settings  # a path to the run's logs sets nothing up
    assert read.frame["accelerator_model_name"].isna().all()  # 'N/A' cells are missing
    # the file has its own unique name per row (the results path): no runs guessed
    assert not proposal.runs


def test_llm_perf_quantisation_variants_are_configurations_and_never_averaged():
    read, proposal = _read("llm_perf_lb.csv")
    assert not proposal.runs and proposal.configurations == ("Experiment 🧪",)
    roles = proposal.roles(skip_undecided=True)
    assert (roles.system, roles.config) == ("Model_name_for_merge", "Experiment 🧪")
    frame = prepare_frame(read.frame, proposal, roles)
    table = build_eval_table(frame, roles)
    assert table.ids[0] == "internlm/internlm2-20b · 4bit-awq-gemm-eager"
    assert len(table) == 901  # every configuration kept, none averaged away
    with pytest.raises(InvalidInputError, match=r"configurations, not runs: 'Experiment 🧪' "
                                                r"varies within 'internlm/internlm2-20b'"):
        average_runs(frame, roles)


@pytest.mark.parametrize(("extra", "kind"), [
    ({}, "runs"),                                              # only the seed varies
    ({"batch_size": [1, 2, 1, 2]}, "configurations"),          # a setting varies
    ({"ef_search": [10, 40, 10, 40]}, "configurations"),
    ({"quantization": ["fp16", "int8", "fp16", "int8"]}, "configurations"),
    ({"timestamp": ["t1", "t2", "t3", "t4"]}, "runs"),         # when it ran sets nothing up
    ({"dataset": ["x", "y", "x", "y"]}, "runs"),               # a task, not a set-up
    ({"latency_ms": [1.0, 2.0, 3.0, 4.0]}, "runs"),            # a measurement
])
def test_repeat_kind_on_hand_made_tables(extra, kind):
    frame = pd.DataFrame({"model": ["a", "a", "b", "b"], "seed": [0, 1, 0, 1],
                          "acc": [0.1, 0.2, 0.3, 0.4], **extra})
    assert repeat_kind(frame, "model", runs_columns=("seed",)).kind == kind


def test_configurations_without_a_seed_are_named_system_and_config():
    frame = pd.DataFrame({"model": ["a", "a", "b", "b"], "batch_size": [1, 2, 1, 2],
                          "latency (ms)": [3.0, 5.0, 4.0, 6.0], "acc": [0.7, 0.7, 0.8, 0.8]})
    proposal = propose(frame)
    assert proposal.configurations == ("batch_size",) and not proposal.runs
    roles = proposal.roles()
    table = build_eval_table(prepare_frame(frame, proposal, roles), roles)
    assert table.ids.tolist() == ["a · 1", "a · 2", "b · 1", "b · 2"]
    assert "each row is a configuration of its system" in proposal.notes[0]


# ------------------------------------------------------------------ failed rows
def test_failed_and_placeholder_rows_are_left_out_and_named():
    frame = pd.DataFrame({
        "model": ["a", "b", "c", "d", "e"],
        "status": ["ok", "OOM", "ok", "timeout after 600 s", "ok"],
        "latency_ms": [12.0, 0.0, 15.0, 0.0, 0.0],
        "accuracy": [0.70, 0.0, 0.80, 0.0, 0.0],
        "memory_gb": [3.0, 0.0, 4.0, 0.0, 0.0]})
    log = ReadLog()
    out = failed_rows.apply(frame, log)
    assert out["model"].tolist() == ["a", "c"]
    assert log.notes == [
        ("Left out rows 2 ('b'), 4 ('d'): 'status' says they failed ('OOM', 'timeout after "
         "600 s'); a failed run's numbers are not measurements."),
        ("Left out row 5 ('e'): every metric is 0 or empty, a placeholder of a run that did not "
         "finish (0 would read as a perfect latency or cost).")]
    assert frame["model"].tolist() == ["a", "b", "c", "d", "e"]  # input unchanged


def test_a_zero_latency_is_missing_never_the_best():
    text = b"model,latency (ms),accuracy\na,0,0.7\nb,10,0.9\nc,20,0.95\n"
    read = read_table_report(text, filename="lat.csv")
    assert np.isnan(read.frame.loc[0, "latency (ms)"])
    assert any("0 in row 1 ('a') read as missing" in n for n in read.notes)
    # brute force: with a missing latency row a is left out, so b or c is picked, never a
    table = build_eval_table(read.frame, Roles("model", (Objective("latency (ms)", "min"),
                                                         Objective("accuracy", "max"))))
    complete = table.complete_mask()
    assert complete.tolist() == [False, True, True]


@pytest.mark.parametrize(("column", "cells", "failed"), [
    ("status", ["ok", "failed", "FAILED: CUDA error", "x"], [1, 2, 3]),
    ("success", [True, False, True, True], [1]),
    ("error", ["", "RuntimeError: out of memory", None, "none"], [1]),
    ("failed", ["no", "yes", "no", "no"], [1]),
    ("run_status", ["FINISHED", "FAILED", "KILLED", "FINISHED"], [1, 2]),
])
def test_status_columns_as_tools_write_them(column, cells, failed):
    frame = pd.DataFrame({"model": list("abcd"), column: cells,
                          "accuracy": [0.1, 0.2, 0.3, 0.4], "latency_s": [1.0, 2, 3, 4]})
    assert failed_rows.find(frame).rows.tolist() == failed


def test_a_table_without_status_or_placeholders_is_unchanged():
    frame = pd.DataFrame({"model": ["a", "b"], "acc": [0.0, 0.5], "loss": [1.0, 0.0]})
    log = ReadLog()
    assert failed_rows.apply(frame, log) is frame and log.notes == []


# ------------------------------------------------------------------ JSON keyed by name
def test_json_keyed_by_model_with_nested_scores_is_flattened():
    # Swallow LLM leaderboard (pre-trained models): {model: {..., "results": {"en_pre": {..}}}}
    read, proposal = _read("shapes_swallow_pre.json")
    source = json.loads((MESSY / "shapes_swallow_pre.json").read_text())
    assert len(read.frame) == len(source) == 50
    assert read.frame["key"].tolist() == list(source)
    assert proposal.id == "key"
    for key in ("Qwen/Qwen2.5-7B", "google/gemma-2-9b"):
        row = read.frame[read.frame["key"] == key].iloc[0]
        assert row["results.en_pre.MMLU"] == source[key]["results"]["en_pre"]["MMLU"]
        assert row["results.ja_pre.JMMLU"] == source[key]["results"]["ja_pre"]["JMMLU"]
        assert row["params"] == source[key]["params"]
    assert read.frame["results.en_pre.BBH"].dtype == np.float64
    assert read.notes[0].startswith("Read as JSON: one object per row keyed by its name (the "
                                    "column 'key'), nested objects flattened to dotted names")


def test_pandas_column_layout_is_still_read_as_columns():
    frame = pd.DataFrame({"model": ["a", "b"], "acc": [0.5, 0.7]})
    read = read_table_report(frame.to_json().encode(), filename="c.json")
    assert read.frame.equals(frame)


def test_records_with_nested_scores_are_flattened():
    text = json.dumps([{"model": "a", "score": {"task1": 0.5, "task2": 0.1}},
                       {"model": "b", "score": {"task1": 0.7, "task2": 0.2}}])
    frame = read_table_report(text.encode(), filename="r.json").frame
    assert list(frame.columns) == ["model", "score.task1", "score.task2"]
    assert frame["score.task2"].tolist() == [0.1, 0.2]


def test_a_list_inside_a_keyed_object_is_refused_naming_the_column():
    text = json.dumps({"a": {"scores": [1, 2]}, "b": {"scores": [3, 4]}})
    with pytest.raises(InvalidInputError, match=r"column 'scores', row 1: a cell holds a list"):
        read_table_report(text.encode(), filename="k.json")


# ------------------------------------------------------------------ missing markers
def test_eu_csv_with_a_nan_percent_cell_keeps_both_accuracies_numeric():
    read, proposal = _read("shapes_imagenet_eu_percent.csv")
    for column in ("Acc@1", "Acc@5"):
        assert read.frame[column].dtype == np.float64, column
        assert read.units[column] == "%"
        guess = proposal.column(column)
        assert (guess.role, guess.direction) == ("objective", "max")
    vgg = read.frame["Weight"] == "VGG16_Weights.IMAGENET1K_FEATURES"
    assert read.frame.loc[vgg, "Acc@1"].isna().all()
    # independent: the same pick as the raw TSV read by hand
    lines = (MESSY / "imagenet_raw.tsv").read_text().splitlines()[1:]
    names = np.array([line.split("\t")[0] for line in lines])
    y = np.array([[float(c.rstrip("M")) for c in line.split("\t")[1:5]] for line in lines])
    keep = ~np.isnan(y).any(axis=1)
    directions = ["max", "max", "min", "min"]
    expected = names[keep][copa_select(cdf_transform(y[keep], directions),
                                       np.full(4, 0.25), p=np.inf)]
    table = build_eval_table(read.frame, Roles("Weight", tuple(
        Objective(n, d) for n, d in zip(["Acc@1", "Acc@5", "Params", "GFLOPS"], directions))))
    rows = table.complete_mask()
    u = cdf_transform(table.matrix()[rows], directions)
    assert table.ids[rows][copa_select(u, np.full(4, 0.25), p=np.inf)] == expected


@pytest.mark.parametrize("marker", ["nan", "NaN", "N/A", "#N/A", "-", "—", "null", "nan %",
                                    "N/A %", "- ms", "n/a s"])
def test_missing_markers_in_a_numeric_column(marker):
    text = f"model,acc\na,0.5\nb,{marker}\nc,0.7\n".encode()
    frame = read_table_report(text, filename="m.csv").frame
    assert frame["acc"].dtype == np.float64 and np.isnan(frame.loc[1, "acc"])


def test_forcing_a_text_column_names_the_cells_the_note_names():
    read = read_table_report(b"model;acc\na;56,5 %\nb;soon\nc;61 %\n", filename="eu.csv")
    note = next(n for n in read.notes if n.startswith("Column 'acc'"))
    assert "row 2 ('soon')" in note
    with pytest.raises(InvalidInputError, match=r"objective 'acc' has 1 value that is not a "
                                                r"number: row 2: 'soon' "):
        build_eval_table(read.frame, Roles("model", (Objective("acc", "max"),)))


# ------------------------------------------------------------------ a DataFrame as a file
def test_a_dataframe_is_read_by_the_file_rules():
    frame = pd.DataFrame({"model": ["a", "b", "c"], "Params": ["61.1M", "1.2B", "900K"],
                          "acc": ["56,5 %", "nan %", "61 %"], "status": ["ok", "ok", "OOM"]})
    read = read_frame_report(frame)
    assert read.frame["Params"].tolist() == [61.1, 1200.0]
    assert read.units["Params"] == "M"
    assert read.frame["model"].tolist() == ["a", "b"]
    assert any("'status' says it failed ('OOM')" in n for n in read.notes)


def test_failure_words_in_a_number_column_leave_the_row_out_and_keep_the_column_numeric():
    # as GPU benchmark scripts write a run that ran out of memory: 'N,OOM,OOM,0'
    text = (b"size,cublas_ms,mine_ms,speedup\n256,0.01,0.02,0.5\n512,0.05,0.07,0.71\n"
            b"1024,0.3,0.4,0.75\n65536,OOM,OOM,0\n")
    read = read_table_report(text, filename="sgemm.csv")
    assert read.frame["size"].tolist() == [256, 512, 1024]
    assert read.frame["cublas_ms"].dtype == np.float64
    assert "Left out row 4: 'cublas_ms', 'mine_ms' say the run failed ('OOM') where a number " \
           "should be." in read.notes
