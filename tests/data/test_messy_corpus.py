"""The messy corpus (tests/data/messy/, README there): real exports read as people have them.

For each file: the rows read, the roles, directions and units proposed, and the notes said;
the same table in four formats (TSV, EU CSV, Markdown, Excel with a title row) reads to the
same numbers and the same COPA pick; JSON in both orientations reads the same.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from copa_dash.core.criteria import copa_select, weights_from_alpha
from copa_dash.core.ranks import cdf_transform
from copa_dash.data.io import build_eval_table, read_table_report
from copa_dash.data.proposal import prepare_frame, propose
from copa_dash.data.runs import average_runs

MESSY = Path(__file__).parent / "messy"


def _read(name):
    read = read_table_report(MESSY / name)
    return read, propose(read.frame, units=read.units, labels=read.labels)


def _guess(proposal, name):
    g = proposal.column(name)
    return g.role, g.direction, g.unit


# file: (rows, id, {column: (role, direction, unit)}, [substrings of notes])
EXPECTED = {
    "imagenet_eu.csv": (114, "Weight", {
        "Acc@1": ("objective", "max", None), "Params": ("objective", "min", "M"),
        "GFLOPS": ("objective", "min", None), "Recipe": ("metadata", None, None)}, [
        "byte-order mark", "separated by semicolons (';'), ',' as the decimal mark",
        "Skipped 1 line above the table: 'torchvision ImageNet weights, exported 2024-05-06'",
        ("Column 'Params' read as numbers: 114 cells with K/M/B suffixes read in millions "
         "(unit M)")]),
    "imagenet.md": (114, "Weight", {"Params": ("objective", "min", "M")}, [
        "Read as a Markdown table", "Skipped 1 line around the table: 'Table: ImageNet-1k"]),
    "imagenet_title.xlsx": (114, "Weight", {"Acc@5": ("objective", "max", None)}, [
        "header in sheet row 3", "Skipped 1 line above the table: 'torchvision ImageNet-1k"]),
    "llm_perf_lb.csv": (901, None, {
        "Model_name_for_merge": ("system", None, None), "Experiment 🧪": ("config", None, None),
        "Prefill (s)": ("objective", "min", "s"),
        "Decode (tokens/s)": ("objective", "max", "tokens/s"),
        "Memory (MB)": ("objective", "min", "MB"),
        "Energy (tokens/kWh)": ("objective", "max", "tokens/kWh"),
        "Open LLM Score (%)": ("objective", "max", "%")}, [
        ("Column 'Open LLM Score (%)' read as numbers: footnote marks (*†‡§) dropped in 666 "
         "cells"), ("'Model_name_for_merge' repeats (901 rows, 58 names) and 'Experiment 🧪' varies within a "
          "name"), "each row is a configuration of its system, not a run"]),
    "fairness_adult_sex.csv": (186, None, {
        "algorithm": ("system", None, None), "run-id": ("seed", None, None),
        "accuracy": ("objective", "max", None), "0-accuracy (2)": ("metadata", "max", None),
        "DIbinary": ("metadata", None, None), "|1 - DIbinary|": ("objective", "min", None),
        "|1 - CV|": ("objective", "min", None), "params": ("config", None, None)}, [
        ("The header repeats 42 names; the later copies were renamed: '0-accuracy' (columns 12 "
         "and 19) -> '0-accuracy (2)'"), "each row is a configuration of its system",
        "a short set of 12 is proposed",
        ("replaced by its distance from that value, minimised: '|1 - DIbinary|', "
         "'|1 - DIavgall|', '|1 - CV|'")]),
    "llm_safety_lb.csv": (29, "Model_name_for_merge", {
        "Average ⬆️": ("objective", "max", None), "Non-toxicity": ("objective", "max", None),
        "#Params (B)": ("objective", "min", "B"), "AdvGLUE++": ("objective", None, None),
        "Available on the hub": ("metadata", None, None)}, [
        ("'Model_name_for_merge' names the rows, but 5 names repeat "
         "('compressed-llm/llama-2-13b-awq' in rows 14, 15, 19;")]),
    "safety_units.csv": (29, "Model", {
        "Average": ("objective", "max", "%"), "Privacy": ("objective", "max", "%"),
        "Params": ("objective", "min", "B")}, [
        "Column 'Privacy' read as numbers: '%' removed from 29 cells (kept as the unit)",
        "Column 'Params' read as numbers: 26 cells with K/M/B suffixes read in billions"]),
    "domainbed_two_tables.tex": (14, "Algorithm", {"+90%": ("objective", None, None)}, [
        "Read as a LaTeX table", "The text holds 2 tables; the first one was read",
        "Column '+90%' read as numbers: the '± spread' dropped in 14 cells"]),
    "decodingtrust_no_header.csv": (55, "column 1", {"column 2": ("objective", None, None)}, [
        "The first line holds numbers, so the file has no header"]),
    "dmop_index_column.csv": (91, None, {
        "column 1": ("metadata", None, None), "Optimizer": ("system", None, None),
        "Test Problem": ("task", None, None), "MIGD": ("objective", "min", None),
        "MHVD": ("objective", "min", None)}, [
        "The header has no name for column 1 (counting from 1); called it 'column 1'."]),
    "arena_records.json": (40, "model", {
        "price ($/M tokens)": ("objective", "min", "$/M tokens"),
        "overall": ("objective", None, None)}, ["Read as JSON: one object per row."]),
    "arena_columns.json": (40, "model", {
        "price ($/M tokens)": ("objective", "min", "$/M tokens")}, [
        "Read as JSON: one list of values per column."]),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_messy_file_is_read_and_guessed_as_a_practitioner_would(name):
    rows, id_column, columns, notes = EXPECTED[name]
    read, proposal = _read(name)
    assert (proposal.rows, proposal.id) == (rows, id_column)
    for column, expected in columns.items():
        assert _guess(proposal, column) == expected, column
    said = read.notes + proposal.notes
    for text in notes:
        assert any(text in note for note in said), (text, said)
    assert len(said) == len(set(said))  # every adjustment once


def test_the_eu_export_has_the_numbers_of_the_raw_file():
    eu, _ = _read("imagenet_eu.csv")
    raw, _ = _read("imagenet_raw.tsv")
    assert eu.frame.equals(raw.frame)
    alexnet = eu.frame.iloc[0]
    assert (alexnet["Acc@1"], alexnet["Params"], alexnet["GFLOPS"]) == (56.522, 61.1, 0.71)
    assert np.isnan(eu.frame.loc[eu.frame["Weight"] == "VGG16_Weights.IMAGENET1K_FEATURES",
                                 "Acc@1"]).all()


def _pick(name):
    read, proposal = _read(name)
    roles = proposal.roles()
    table = build_eval_table(prepare_frame(read.frame, proposal, roles), roles)
    keep = ~np.isnan(table.matrix()).any(axis=1)
    u = cdf_transform(table.matrix()[keep], list(table.directions))
    pick = copa_select(u, weights_from_alpha(u.shape[1], [0], 0.5), p=np.inf)
    return table, table.ids[keep][pick]


def test_the_same_table_in_four_formats_gives_the_same_numbers_roles_and_pick():
    reference, pick = _pick("imagenet_raw.tsv")
    for name in ("imagenet_eu.csv", "imagenet.md", "imagenet_title.xlsx"):
        table, other = _pick(name)
        assert table.roles == reference.roles, name
        np.testing.assert_array_equal(table.matrix(), reference.matrix())
        assert other == pick, name
    assert reference.roles.objectives[2].display == "Params [M]"


def test_json_in_both_orientations_reads_the_same():
    records, p1 = _read("arena_records.json")
    columns, p2 = _read("arena_columns.json")
    assert records.frame.equals(columns.frame) and p1.columns == p2.columns


def test_configurations_with_runs_are_named_by_system_config_and_seed_never_averaged():
    # Feldman's and Zafar's algorithms are swept over a parameter ('lambda=0.3', ...): the
    # rows of one algorithm are configurations, each with its runs (issue 29, item 3)
    read, proposal = _read("fairness_adult_sex.csv")
    assert not proposal.runs and proposal.configurations == ("params",)
    roles = proposal.roles(skip_undecided=True)
    frame = prepare_frame(read.frame, proposal, roles)
    table = build_eval_table(frame, roles)
    assert table.ids[0] == "SVM · run-id 0" and len(set(table.ids)) == 186
    assert "ZafarAccuracy · gamma=0.5 · run-id 9" in set(table.ids)
    with pytest.raises(ValueError, match=r"the rows of 'algorithm' are configurations, not "
                                         r"runs: 'params' varies within 'Feldman-SVM-DIavgall'"):
        average_runs(frame, roles)


def test_runs_of_a_system_are_averaged():
    read, proposal = _read("fairness_adult_sex.csv")
    plain = read.frame[read.frame["params"].isna()].reset_index(drop=True)
    proposal = propose(plain, units=read.units, labels=read.labels)
    assert proposal.runs and not proposal.configurations
    roles = proposal.roles(skip_undecided=True)
    frame = prepare_frame(plain, proposal, roles)
    averaged, new_roles, note = average_runs(frame, roles)
    svm = plain.loc[plain["algorithm"] == "SVM", "accuracy"].mean()
    assert averaged.loc[averaged["algorithm"] == "SVM", "accuracy"].item() == pytest.approx(svm)
    assert new_roles.id == "algorithm" and len(averaged) == plain["algorithm"].nunique()
    assert note.startswith(f"Averaged the runs: {len(plain)} rows -> {len(averaged)} systems")
    build_eval_table(averaged, new_roles)


def test_a_few_repeated_names_keep_the_name_column_and_are_named_by_their_variant():
    # the repeated names are quantised variants (Precision AWQ-3bit, ...): configurations
    read, proposal = _read("llm_safety_lb.csv")
    assert proposal.id == "Model_name_for_merge" and proposal.configurations == ("Precision",)
    roles = proposal.roles(directions={n: "max" for n in proposal.undecided})
    table = build_eval_table(prepare_frame(read.frame, proposal, roles), roles)
    assert {"compressed-llm/llama-2-13b-chat-awq · AWQ-3bit",
            "compressed-llm/llama-2-13b-chat-awq · AWQ-4bit", "anthropic/claude-2.0"} <= \
        set(table.ids)
    assert "compressed-llm/llama-2-13b-chat-awq" not in set(table.ids)


def test_a_few_repeated_names_without_a_setting_are_renamed():
    frame = pd.DataFrame({"model": ["a", "b", "a", "c", "d"], "acc": [0.1, 0.2, 0.3, 0.4, 0.5],
                          "latency_ms": [1.0, 2, 3, 4, 5]})
    proposal = propose(frame)
    roles = proposal.roles()
    table = build_eval_table(prepare_frame(frame, proposal, roles), roles)
    assert table.ids.tolist() == ["a", "b", "a (2)", "c", "d"]


def test_an_undecided_direction_is_asked_not_guessed():
    _, proposal = _read("arena_records.json")
    assert proposal.undecided == ("overall", "coding")
    with pytest.raises(ValueError, match=r"^choose a direction \(min or max\) for 'overall', "
                                         "'coding'"):
        proposal.roles()
    roles = proposal.roles(directions={"overall": "max", "coding": "max"})
    assert [(o.name, o.direction) for o in roles.objectives] == [
        ("overall", "max"), ("coding", "max"), ("price ($/M tokens)", "min")]
