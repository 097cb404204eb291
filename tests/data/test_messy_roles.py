"""Real exports from communities the first corpus did not cover (tests/data/messy/README.md):
approximate-nearest-neighbour benchmarks, LLM instruction-following and evaluator
leaderboards, code leaderboards, energy leaderboards. For each file: the role, direction
and confidence of the columns a practitioner of that community would check, the spreads
paired with their metric, and what no command may do (pick from a column nobody directed).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from copa_dash.core.errors import InvalidInputError
from copa_dash.data.io import read_table_report
from copa_dash.data.proposal import prepare_frame, propose

MESSY = Path(__file__).parent / "messy"


def _read(name):
    read = read_table_report(MESSY / name)
    return read, propose(read.frame, units=read.units, labels=read.labels)


# file: (rows, {column: (role, direction, confidence)}, {metric: spread column}, undecided)
EXPECTED = {
    "ann_bigann_ood.csv": (142, {
        "recall/ap": ("objective", "max", "sure"), "qps": ("objective", "max", "sure"),
        "build": ("objective", "min", "likely"), "indexsize": ("objective", "min", "likely"),
        "count": ("metadata", None, "likely"),         # k, the neighbours asked for
        "distcomps": ("metadata", None, "likely"),     # 0 in every row
        # 0 in every row: a time of 0 is made missing (data/failed_rows.py), never "perfect"
        "mean_latency": ("metadata", None, "sure"),
        "mean_ssd_ios": ("metadata", None, "likely"), "algorithm": ("system", None, "sure"),
        "parameters": ("config", None, "sure"), "dataset": ("task", None, "sure")}, {}, ()),
    "ann_bigann_filter.csv": (106, {
        "recall/ap": ("objective", "max", "sure"), "qps": ("objective", "max", "sure"),
        "mean_latency": ("metadata", None, "sure"), "count": ("metadata", None, "likely"),
        "parameters": ("id", None, "sure")}, {}, ()),
    "llmeval_alpacaeval2.csv": (223, {
        "win_rate": ("objective", "max", "sure"),
        "length_controlled_winrate": ("objective", "max", "sure"),
        "discrete_win_rate": ("objective", "max", "sure"),
        "avg_length": ("objective", "min", "likely"),
        "standard_error": ("metadata", None, "likely"),
        "lc_standard_error": ("metadata", None, "likely"),
        "n_wins": ("metadata", None, "likely"), "n_total": ("metadata", None, "likely"),
        "mode": ("metadata", None, "sure")},
        {"win_rate": "standard_error", "length_controlled_winrate": "lc_standard_error"}, ()),
    "llmeval_alpaca_evaluators.csv": (32, {
        "Human agreement": ("objective", "max", "sure"),
        "Price [$/1000 examples]": ("objective", "min", "sure"),
        "Time [seconds/1000 examples]": ("objective", "min", "sure"),
        "Spearman corr.": ("objective", "max", "sure"),
        "# parsed": ("metadata", None, "likely"),
        "Proba. prefer longer": ("objective", None, "unsure")}, {"Bias": "Variance"},
        ("Proba. prefer longer", "Proba. prefer lists", "Proba. prefer 1")),
    "code_evalperf.csv": (34, {
        "dps": ("objective", "max", "sure"), "dps_norm": ("objective", "max", "sure"),
        "pass@1": ("objective", "max", "sure"), "model_win_rate": ("objective", "max", "sure"),
        "model": ("id", None, "sure")}, {}, ()),
    "code_evalplus.csv": (125, {
        "pass@1.humaneval+": ("objective", "max", "sure"),
        "pass@1.mbpp": ("objective", "max", "sure"), "size": ("objective", "min", "likely"),
        "link": ("metadata", None, "sure"), "prompted": ("metadata", None, "sure")}, {}, ()),
    "energy_mlenergy_gpqa.csv": (187, {
        "energy_per_token_joules": ("objective", "min", "sure"),
        "energy_per_request_joules": ("objective", "min", "sure"),
        "output_throughput_tokens_per_sec": ("objective", "max", "sure"),
        "p99_itl_ms": ("objective", "min", "sure"),
        "avg_power_watts": ("objective", "min", "likely"),
        "avg_output_len": ("objective", "min", "likely"),
        # the batch limit: a setting; gpu_model, the first setting varying within a model,
        # is the config (data/runs.py), the other settings stay metadata
        "max_num_seqs": ("metadata", None, "likely"),
        "num_gpus": ("metadata", None, "likely"), "model_id": ("system", None, "sure")},
        {}, ()),
    "mlperf_inference_gigacomputing.csv": (12, {
        "Result": ("objective", "max", "likely"),       # Queries/s or Samples/s, by 'Units'
        "Accuracy": ("objective", "max", "sure"),
        "errors": ("metadata", None, "likely"), "compliance": ("metadata", None, "likely"),
        "host_processor_core_count": ("metadata", None, "likely"),
        "accelerators_per_node": ("metadata", None, "likely"),
        "Units": ("metadata", None, "sure")}, {}, ()),
    # 8 rows exported, 5 of them failed cases whose metrics are all 0: left out (issue 29.4)
    "ann_vectordbbench_elastic.csv": (3, {
        "recall": ("objective", "max", "sure"), "qps": ("objective", "max", "sure"),
        "serial_latency_p99": ("objective", "min", "sure"),
        # one value in the 3 rows left once the failed cases are out: orders nothing
        "load_duration": ("metadata", None, "likely"),
        "num_candidates": ("metadata", None, "likely"),   # a search setting, one value
        "efConstruction": ("metadata", None, "likely"),   # one value: orders nothing
        "max_load_count": ("metadata", None, "likely"), "case_id": ("id", None, "sure")},
        {}, ()),
    "quant_llamacpp_llama31_8b.md": (24, {
        "Quant Type": ("id", None, "sure"),
        "bits/weight": ("objective", "min", "likely"),
        "size (GiB)": ("objective", "min", "likely"),
        "prompt processing t/s @ 512": ("objective", "max", "likely"),
        "text generation t/s @ 128": ("objective", "max", "likely")}, {}, ()),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_community_file_is_guessed_as_its_practitioners_would(name):
    rows, columns, spreads, undecided = EXPECTED[name]
    _, proposal = _read(name)
    assert proposal.rows == rows
    for column, expected in columns.items():
        g = proposal.column(column)
        assert (g.role, g.direction, g.confidence) == expected, column
    assert {m: c for m, (_, c) in proposal.uncertainty.items()} == spreads
    assert proposal.undecided == undecided
    for g in proposal.columns:      # every guess is marked and says why, or is plain text
        assert g.confidence in ("sure", "likely", "unsure")
        assert g.direction is None or g.reason


def test_a_ragged_export_is_refused_naming_the_lines_and_the_fix():
    with pytest.raises(InvalidInputError) as error:
        read_table_report(MESSY / "ann_bigann_streaming.csv")
    text = str(error.value)
    assert "line 12 has 11 fields" in text and "the header has 12 fields" in text
    assert "Check for unquoted commas" in text


def test_the_bigann_pick_never_rests_on_a_placeholder_column():
    """ANN: the all-zero mean_latency must not make every row 'perfect'; the proposed
    objectives are the ones a practitioner ranks by (recall, qps, build, index size)."""
    _, proposal = _read("ann_bigann_ood.csv")
    roles = proposal.roles()
    assert [o.name for o in roles.objectives] == ["qps", "build", "indexsize", "recall/ap"]
    frame = pd.read_csv(MESSY / "ann_bigann_ood.csv")  # independent: pandas on the raw file
    assert (frame["mean_latency"] == 0).all() and (frame["distcomps"] == 0).all()


def test_alpacaeval_spreads_belong_to_their_metrics():
    """The spread columns are paired with the metric they measure: checked against the file
    (AlpacaEval's lc_standard_error is the spread of length_controlled_winrate: it is much
    smaller than standard_error, as the length-controlled estimate has less variance)."""
    _, proposal = _read("llmeval_alpacaeval2.csv")
    assert proposal.uncertainty["win_rate"] == ("standard_error", "standard_error")
    frame = pd.read_csv(MESSY / "llmeval_alpacaeval2.csv")
    assert np.nanmedian(frame["lc_standard_error"]) < np.nanmedian(frame["standard_error"])
    assert "Kept as uncertainty, not goals" in " ".join(proposal.notes)
    assert proposal.to_dict()["uncertainty"]["length_controlled_winrate"] == [
        "standard_error", "lc_standard_error"]


def test_undecided_evaluator_columns_block_roles_until_chosen():
    _, proposal = _read("llmeval_alpaca_evaluators.csv")
    with pytest.raises(InvalidInputError, match="Proba. prefer longer"):
        proposal.roles()
    roles = proposal.roles(directions={c: "min" for c in proposal.undecided})
    assert "Proba. prefer 1" in [o.name for o in roles.objectives]


def test_fairness_ratios_and_differences_become_distances_to_their_best_value():
    read, proposal = _read("fairness_adult_sex.csv")
    derived = proposal.column("|1 - DIbinary|")
    assert (derived.role, derived.direction, derived.source) == ("objective", "min", "DIbinary")
    assert proposal.column("DIbinary").role == "metadata"
    # CV and the diff: columns are stored as 1 - difference (PROVENANCE of fairness-comparison:
    # "1 = parity"); their values (CV 0.72-1.11) say so although their names read as differences
    cv = proposal.column("|1 - CV|")
    assert (cv.transform, cv.source, cv.direction) == ("abs_one_minus", "CV", "min")
    assert "sit around 1" in cv.reason and "|CV|" not in [g.name for g in proposal.columns]
    assert proposal.column("|1 - diff:1-accuracyto0-accuracy|").transform == "abs_one_minus"
    assert any("best at 1 (ratios, or differences stored as 1 - difference) or 0" in n
               for n in proposal.notes)
    roles = proposal.roles(skip_undecided=True)
    frame = prepare_frame(read.frame, proposal, roles)
    raw = pd.read_csv(MESSY / "fairness_adult_sex.csv")   # independent: pandas, by hand
    np.testing.assert_allclose(frame["|1 - DIbinary|"], np.abs(1 - raw["DIbinary"]))
    np.testing.assert_allclose(frame["|1 - CV|"], np.abs(1 - raw["CV"]))
    # the fairest models by CV are the ones nearest parity, not GaussianNB with the lowest CV
    assert frame.loc[raw["CV"].idxmin(), "|1 - CV|"] == pytest.approx(1 - raw["CV"].min())


def test_a_wide_fairness_export_proposes_a_short_set_and_families():
    _, proposal = _read("fairness_adult_sex.csv")
    objectives = proposal.of_role("objective")
    more = [g for g in proposal.columns if g.more]
    assert len(objectives) == 12 and len(more) > 100
    assert all(g.role == "metadata" for g in more)
    assert {"race", "sex"} <= set(proposal.families)
    assert "race-TPR" in proposal.families["race"]
    assert any("a short set of 12" in n and "more columns" in n for n in proposal.notes)


def test_mlperf_units_in_a_sibling_column_decide_the_direction_and_are_said():
    _, proposal = _read("mlperf_inference_gigacomputing.csv")
    assert "every unit in 'Units' (Queries/s, Samples/s)" in proposal.column("Result").reason
    assert any("'Result' holds different units row by row ('Units': Queries/s, Samples/s)" in n
               for n in proposal.notes)
    raw = pd.read_csv(MESSY / "mlperf_inference_gigacomputing.csv")   # independent: pandas
    assert set(raw["Units"]) == {"Queries/s", "Samples/s"}
    assert (raw["Scenario"] == "Offline").eq(raw["Units"] == "Samples/s").all()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_guesses_do_not_depend_on_row_order(name):
    """Invariance: shuffling the rows of a real export changes no role, direction,
    confidence, pairing or family (seeded permutations)."""
    read, proposal = _read(name)
    for seed in range(3):
        order = np.random.default_rng(seed).permutation(len(read.frame))
        shuffled = propose(read.frame.iloc[order].reset_index(drop=True), units=read.units,
                           labels=read.labels)
        assert [(g.name, g.role, g.direction, g.confidence, g.more) for g in shuffled.columns] \
            == [(g.name, g.role, g.direction, g.confidence, g.more) for g in proposal.columns]
        assert shuffled.uncertainty == proposal.uncertainty
        assert shuffled.families == proposal.families


def test_a_quantisation_table_from_a_readme():
    """llama.cpp's table: '± spread' cells keep the mean, the repeated Q4_K_S row is renamed,
    and 't/s' in the header reads as a rate (checked against the README's own numbers)."""
    read, proposal = _read("quant_llamacpp_llama31_8b.md")
    assert read.frame["text generation t/s @ 128"].iloc[0] == 79.73
    assert proposal.renamed == (17,)
    assert any("'Q4_K_S' in rows 17, 18" in n for n in proposal.notes)
