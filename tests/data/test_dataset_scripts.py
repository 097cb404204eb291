"""Tests of the dataset cleaning scripts (scripts/datasets_*.py) on small inline snippets.

The raw folder is never read here: every parser gets a few lines written in the test.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))

import build_datasets
import datasets_domainbed as domainbed
from datasets_latex import parse_cell, parse_latex_tables
from datasets_llm import clean_arena_price, clean_open_llm, parse_decodingtrust, unique_ids
from datasets_manifest import BuiltDataset, default_view, finish_entry, manifest_entry, objective
from datasets_ml_benchmarks import clean_amlb, clean_fairness, flag_amlb_failures
from datasets_model_benchmarks import clean_llm_perf, helm_columns, parse_mteb, read_helm_family
from datasets_optimizers import clean_bbob, clean_deepobs, clean_dmop, read_semicolon_csv
from make_synthetic_front import front_y2, synthetic_front

PM = r"$\pm$"


# --- LaTeX (DomainBed) ---------------------------------------------------------------

def _tex_table(dataset, header, rows):
    head = " & ".join(rf"\textbf{{{h}}}" for h in ["Algorithm", *header]) + r" \\"
    body = "\n".join(" & ".join(r) + r" \\" for r in rows)
    return (f"\\subsubsection{{{dataset}}}\n\\begin{{center}}\n"
            f"\\adjustbox{{max width=\\textwidth}}{{%\n\\begin{{tabular}}{{lcc}}\n\\toprule\n"
            f"{head}\n\\midrule\n{body}\n\\bottomrule\n\\end{{tabular}}}}\n\\end{{center}}\n")


TEX = (r"\section{Full DomainBed results}" "\n% Total records: 3\n"
       r"\subsection{Model selection: training-domain validation set}" "\n"
       + _tex_table("ColoredMNIST", [r"+90\%", r"+80\%", r"-90\%", "Avg"],
                    [["ERM", f"71.7 {PM} 0.1", f"41.0 {PM} 0.2", f"10.0 {PM} 0.1", "40.9"],
                     ["IRM", f"72.5 {PM} 0.1", f"52.3 {PM} 0.2", "X", "41.4"]])
       + _tex_table("Averages", ["ColoredMNIST", "Avg"],
                    [["ERM", f"40.9 {PM} 0.3", "40.9"], ["IRM", f"41.4 {PM} 0.2", "41.4"]])
       + r"\subsection{Model selection: test-domain validation set (oracle)}" "\n"
       + _tex_table("ColoredMNIST", [r"+90\%", r"+80\%", r"-90\%", "Avg"],
                    [["ERM", f"73.0 {PM} 0.2", f"46.5 {PM} 0.3", f"20.0 {PM} 1.0", "46.5"],
                     ["IRM", f"74.0 {PM} 0.3", f"42.5 {PM} 0.3", f"11.0 {PM} 0.5", "42.5"]])
       + _tex_table("Averages", ["ColoredMNIST", "Avg"],
                    [["ERM", f"46.5 {PM} 0.1", "46.5"], ["IRM", f"42.5 {PM} 0.4", "42.5"]]))


@pytest.mark.parametrize("cell, expected", [
    (f"71.7 {PM} 0.1", (71.7, 0.1)), ("51.5", (51.5, math.nan)), (f"9.8 {PM} 0.1  ", (9.8, 0.1)),
    ("X", (math.nan, math.nan)), (r"\textbf{66.6}", (66.6, math.nan)), (r"-3.5 \pm 2", (-3.5, 2.0)),
])
def test_parse_cell_reads_mean_and_std(cell, expected):
    got = parse_cell(cell)
    assert np.allclose(got, expected, equal_nan=True)


@pytest.mark.parametrize("cell", ["abc", f"1 {PM} 2 {PM} 3", "1.0 +- 0.2"])
def test_parse_cell_rejects_garbage(cell):
    with pytest.raises(ValueError, match="cannot read"):
        parse_cell(cell)


def test_parse_latex_tables_tracks_sections_and_escapes():
    tables = parse_latex_tables(TEX)
    assert [(t.section, t.subsection) for t in tables] == [
        ("Model selection: training-domain validation set", "ColoredMNIST"),
        ("Model selection: training-domain validation set", "Averages"),
        ("Model selection: test-domain validation set (oracle)", "ColoredMNIST"),
        ("Model selection: test-domain validation set (oracle)", "Averages")]
    assert tables[0].header == ("Algorithm", "+90%", "+80%", "-90%", "Avg")
    assert tables[0].rows[1] == ("IRM", f"72.5 {PM} 0.1", f"52.3 {PM} 0.2", "X", "41.4")


def test_parse_latex_tables_rejects_ragged_rows_and_open_blocks():
    ragged = "\\begin{tabular}{lc}\nA & B \\\\\n\\midrule\nx & 1 & 2 \\\\\n\\end{tabular}"
    with pytest.raises(ValueError, match="3 cells, the header has 2"):
        parse_latex_tables(ragged)
    with pytest.raises(ValueError, match="not closed"):
        parse_latex_tables("\\begin{tabular}{lc}\nA & B \\\\\n")


def test_domainbed_tables_from_latex():
    cells = domainbed.domainbed_cells(TEX)
    assert len(cells) == 2 * (2 * 4 + 2 * 2)
    assert domainbed.check_averages(cells) == 0.0
    wide, objectives = domainbed.dataset_table(cells, "ColoredMNIST")
    assert [o["name"] for o in objectives] == ["plus_90", "plus_80", "minus_90"]
    assert {o["direction"] for o in objectives} == {"max"} and len(wide) == 4
    row = wide.set_index("id").loc["IRM|ColoredMNIST|training-domain validation set"]
    assert row["plus_90"] == 72.5 and math.isnan(row["minus_90"]) and row["plus_90_std"] == 0.1
    assert row["selection"] == "training-domain validation set" and row["average"] == 41.4
    long = domainbed.long_table(cells).set_index("id")
    erm = long.loc["ERM|ColoredMNIST|test-domain validation set (oracle)"]
    assert (erm["avg_accuracy"], erm["avg_accuracy_std"], erm["worst_domain_accuracy"]) == \
        (46.5, 0.1, 20.0)
    assert erm["n_domains"] == 3
    irm = long.loc["IRM|ColoredMNIST|training-domain validation set"]
    assert irm["worst_domain_accuracy"] == 52.3            # the missing X cell is skipped


def test_domainbed_rejects_unknown_domains_and_bad_averages():
    cells = domainbed.domainbed_cells(TEX.replace(r"+90\%", r"+70\%"))
    with pytest.raises(ValueError, match="unexpected domain columns"):
        domainbed.dataset_table(cells, "ColoredMNIST")
    cells = domainbed.domainbed_cells(TEX)
    with pytest.raises(ValueError, match="missing domain columns"):
        domainbed.dataset_table(cells[cells["column"] != "+80%"], "ColoredMNIST")
    shifted = domainbed.domainbed_cells(TEX.replace(f"40.9 {PM} 0.3", f"41.9 {PM} 0.3"))
    assert domainbed.check_averages(shifted) == pytest.approx(1.0)


# --- DecodingTrust, Open LLM, Arena --------------------------------------------------

DECODINGTRUST = """Claude,92.11,100,57.98,85.77,72.97,85.35,85.17,96.81,84.52
hf/compressed-llm/llama-2-13b-chat-awq@4bit_128g,80,90,50,60,70,80,90,100,50
"""


def test_decodingtrust_headerless_line_and_recomputed_average():
    frame = parse_decodingtrust(DECODINGTRUST)
    assert list(frame.columns[:10]) == ["model", "non_toxicity", "non_stereotype",
                                        "adv_glue_pp", "ood", "adv_demo", "privacy",
                                        "ethics", "fairness", "reported_average"]
    assert frame.loc[0, "model"] == "Claude"            # the first line is data, not a header
    assert frame.loc[0, "average"] == pytest.approx(84.52, abs=0.01)
    assert frame.loc[1, "average"] == pytest.approx(77.5)
    assert frame.loc[1, "reported_average"] == 50.0      # kept, but not trusted
    assert frame.loc[1, "compression_method"] == "awq"
    assert frame.loc[1, "compression_setting"] == "4bit_128g"
    assert frame.loc[1, "base_model"] == "llama-2-13b-chat-awq"
    assert frame["compressed"].tolist() == [False, True]


def test_decodingtrust_rejects_short_rows():
    with pytest.raises(ValueError, match="10 complete columns"):
        parse_decodingtrust("Claude,92.11,100,57.98\n")


def test_unique_ids_add_qualifiers_only_where_needed():
    frame = pd.DataFrame({"name": ["a", "b", "a", "c", "c"],
                          "precision": ["bf16", "fp16", "fp16", "bf16", "bf16"],
                          "sha": ["1", "2", "3", "4", "5"]})
    ids = unique_ids(frame, "name", ["precision", "sha"])
    assert ids.tolist() == ["a (bf16)", "b", "a (fp16)", "c (bf16, 4)", "c (bf16, 5)"]
    shuffled = unique_ids(frame.iloc[::-1].reset_index(drop=True), "name", ["precision", "sha"])
    assert sorted(shuffled) == sorted(ids)
    with pytest.raises(ValueError, match="still duplicated"):
        unique_ids(frame.assign(sha="1"), "name", ["precision", "sha"])


def _open_llm_raw(**overrides):
    row = {"model_name": "m", "model_precision": "bfloat16", "model_sha": "abc",
           "model_type": "chatmodels", "model_architecture": "?", "metadata_hub_license": None,
           "model_weight_type": "Original", "features_is_not_available_on_hub": True,
           "features_is_merged": False, "features_is_moe": False, "features_is_flagged": False,
           "features_is_official_provider": False, "model_has_chat_template": True,
           "model_average_score": 10.0, "metadata_hub_hearts": 3,
           "metadata_submission_date": "2024-08-05", "metadata_co2_cost": 0.6,
           "metadata_params_billions": 7.0}
    for key in ("ifeval", "bbh", "math", "gpqa", "musr", "mmlu_pro"):
        row[f"evaluations_{key}_normalized_score"] = 1.0
    row.update(overrides)
    return row


def test_open_llm_fixes_inverted_hub_flag_and_sentinel_sizes():
    raw = pd.DataFrame([_open_llm_raw(), _open_llm_raw(
        model_name="n", features_is_not_available_on_hub=False, metadata_params_billions=-1.0),
        _open_llm_raw(model_name="n", model_precision="float16", metadata_params_billions=0.0)])
    out = clean_open_llm(raw)
    # TRUE in 'is_not_available_on_hub' means the model IS on the hub (see PROVENANCE)
    assert out["available_on_hub"].tolist() == [True, False, True]
    assert out["model"].tolist() == ["m", "n (bfloat16)", "n (float16)"]
    assert out["params_b"].isna().tolist() == [False, True, True]
    assert out.loc[0, "type"] == "chat model" and out.loc[0, "architecture"] == "unknown"
    assert out.loc[0, "licence"] == "unknown"


def test_arena_price_keeps_unpriced_rows_and_flags_placeholders():
    raw = pd.DataFrame({"model": ["a", "b", "c"], "overall": [1300, 1200, 1100],
                        "hard": [1, 2, 3], "coding": [4, 5, 6], "cpmi": [4.001, None, 0.15],
                        "launch": ["2025-01", None, "2024-05"], "end": [None, "2024-12", None],
                        "source": [None, None, "https://x"]})
    out = clean_arena_price(raw)
    assert len(out) == 3 and math.isnan(out.loc[1, "price"])
    assert out["price_listed"].tolist() == [True, False, True]
    assert out["price_placeholder"].tolist() == [True, False, False]
    assert out["retired"].tolist() == [False, True, False]


# --- HELM, MTEB, LLM-Perf ------------------------------------------------------------

def test_helm_family_directions_missing_and_descriptive_columns():
    tsv = ("Model\tMean win rate\tXSUM - SummaC\tXSUM - Density\tBoolQ - EM (Robustness)\t"
           "Empty - ECE\n"
           "A (1B)\t0.5\t0.3\t2.0\t-\t-\nB\t-\t0.2\t3.0\t0.1\t-\n\n")
    frame = read_helm_family(tsv)
    assert frame["model"].tolist() == ["A (1B)", "B"]
    out, objectives, descriptive = helm_columns("summarization", frame)
    assert [(o["name"], o["direction"]) for o in objectives] == [
        ("summarization_win_rate", "max"), ("summarization_xsum_summac", "max"),
        ("summarization_boolq_em_robustness", "max")]
    assert descriptive == ["summarization_xsum_density"]
    assert "summarization_empty_ece" not in out.columns          # all missing: dropped
    assert math.isnan(out.loc[1, "summarization_win_rate"])
    _, tox, _ = helm_columns("toxicity", frame)
    assert {o["direction"] for o in tox[1:]} == {"min"} and tox[0]["direction"] == "max"
    rob, _, _ = helm_columns("robustness", frame)
    assert "robustness_boolq_em" in rob.columns                 # '(Robustness)' suffix dropped


def test_mteb_missing_markers():
    tsv = ("Rank\tModel\t-\tModel Size (GB)\tEmbedding Dimensions\tMax Tokens\t"
           "Average (56 datasets)\tClassification Average (12 datasets)\t"
           "Clustering Average (11 datasets)\tPair Classification Average (3 datasets)\t"
           "Reranking Average (4 datasets)\tRetrieval Average (15 datasets)\t"
           "STS Average (10 datasets)\tSummarization Average (1 dataset)\n"
           "1\tA\t-\t14.22\t4096\t32768\t67.5\t78\t51\t88\t60\t59\t85\t31\n"
           "2\tB\t-\t-\t-\tN/A\t40\t50\t20\t70\t40\t10\t60\t29\n")
    out = parse_mteb(tsv)
    assert out.loc[0, "model_size_gb"] == 14.22 and math.isnan(out.loc[1, "model_size_gb"])
    assert out["max_tokens"].isna().tolist() == [False, True]
    assert out.loc[1, "sts"] == 60.0


def _perf_raw(rows):
    return pd.DataFrame(rows, columns=["Model_name_for_merge", "Model_link", "Experiment 🧪",
                                       "Prefill (s)", "Decode (tokens/s)", "Memory (MB)",
                                       "Energy (tokens/kWh)", "Open LLM Score (%)"])


def test_llm_perf_collapses_duplicate_runs_and_parses_experiments():
    raw = _perf_raw([["m", "u", "4bit-gptq-exllama-v2-fa2", 0.3, 3.0, 6000.0, 4e4, "62.55*"],
                     ["m", "u", "bfloat16-eager", 0.1, 25.0, 16000.0, 3e5, "62.55 "],
                     ["m", "u", "4bit-gptq-exllama-v2-fa2", 0.3, 3.0, 6000.0, 4e4, "62.35*"]])
    out = clean_llm_perf(raw)
    assert out["id"].tolist() == ["m | 4bit-gptq-exllama-v2-fa2", "m | bfloat16-eager"]
    assert out["open_llm_score"].tolist() == [62.55, 62.55]     # first row of a duplicate
    assert out["score_marked"].tolist() == [True, False]
    assert out["quantisation"].tolist() == ["4bit-gptq-exllama-v2", "bfloat16"]
    assert out["attention"].tolist() == ["fa2", "eager"]
    assert out["weight_bits"].tolist() == [4, 16]
    bad = raw.copy()
    bad.iloc[2, 3] = 0.5
    with pytest.raises(ValueError, match="different measurements"):
        clean_llm_perf(bad)


# --- AMLB and fairness ---------------------------------------------------------------

def test_amlb_failure_rule():
    raw = pd.DataFrame({
        "dataset": ["d"] * 4 + ["e"] * 2,
        "framework": [f"F{i}_benchmark_4h8c_gp3_2022_jmlr" for i in range(4)] + ["F0", "F1"],
        "problem_type": ["regression"] * 4 + ["binary"] * 2,
        "time_train_s": [10.0, 20.0, 30.0, 40.0, 1.0, 2.0],
        "metric_error": [100.0, 120.0, 999.0 * 110.0, 8.6e12, 0.1, 0.2],
        "time_infer_s": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], "rank": [1.0, 2.0, 3.0, 4.0, 1.0, 2.0]})
    out = clean_amlb(raw)
    # median of d is (120 + 109890) / 2 = 55005; only 8.6e12 > 1000 x median
    assert out["failed"].tolist() == [False, False, False, True, False, False]
    failed = out[out["failed"]].iloc[0]
    assert failed[["metric_error", "time_train_s", "time_infer_s"]].isna().all()
    assert failed["reported_error"] == 8.6e12 and failed["id"] == "F3 | d"
    kept = out[~out["failed"]]
    assert kept[["metric_error", "time_train_s", "time_infer_s"]].notna().all().all()
    assert flag_amlb_failures(raw.head(3), factor=1.5)["failed"].tolist() == [False, False, True]


def test_fairness_di_distance_and_roles():
    raw = pd.DataFrame({"algorithm": ["Feldman-SVM-DIavgall", "ZafarAccuracy", "SVM"],
                        "params": ["lambda=1.0", None, None], "run-id": [0, 1, 0],
                        "accuracy": [0.8, 0.7, 0.9], "DIbinary": [1.25, 0.6, 1.0],
                        "CV": [0.9, 0.8, 1.0], "TPR": [0.5] * 3, "TNR": [0.9] * 3,
                        "BCR": [0.7] * 3, "MCC": [0.4] * 3})
    out = clean_fairness(raw)
    assert out["di_distance"].tolist() == pytest.approx([0.25, 0.4, 0.0])
    assert out["family"].tolist() == ["Feldman", "Zafar", "baseline"]
    assert out["tuned_for"].tolist() == ["DI", "accuracy", "none"]
    assert out["params"].tolist() == ["lambda=1.0", "default", "default"]
    assert out["id"].is_unique


# --- optimizer benchmarks ------------------------------------------------------------

DEEPOBS = "Test Problem;Optimizer;Performance;Speed\nP1;SGD;87,4;51,1\nP1;Adam;87,11;39,9\n" \
          "P3;SGD;0,9227;40,6\nP3;Adam;0,9234;40,1\n;;;\n;;;\n"
DEEPOBS_PAPER = "\ufeffTest Problem;Optimizer;Performance;Speed\nP1;SGD;87,4;51,1\n" \
                "P1;Adam;87,11;39,9\nP3;SGD;2;40,6\nP3;Adam;1;40,1\n;;;\n"


def test_deepobs_splits_loss_and_accuracy():
    original, paper = read_semicolon_csv(DEEPOBS), read_semicolon_csv(DEEPOBS_PAPER)
    assert len(original) == 4 and original["Performance"].dtype == float
    out = clean_deepobs(original, paper).set_index("id")
    assert out.loc["SGD|P1", "test_loss"] == 87.4 and math.isnan(out.loc["SGD|P1", "test_accuracy"])
    assert out.loc["SGD|P3", "test_accuracy"] == 0.9227 and math.isnan(out.loc["SGD|P3", "test_loss"])
    assert out["loss_rank"].to_dict() == {"SGD|P1": 2.0, "Adam|P1": 1.0, "SGD|P3": 2.0,
                                          "Adam|P3": 1.0}
    assert out.loc["Adam|P3", "speed"] == 40.1 and out.loc["SGD|P3", "problem_name"] == "fmnist_2c2d"


def test_deepobs_rejects_accuracy_above_one():
    broken = read_semicolon_csv(DEEPOBS.replace("0,9227", "92,27"))
    with pytest.raises(ValueError, match="accuracy above 1"):
        clean_deepobs(broken, read_semicolon_csv(DEEPOBS_PAPER))


def test_dmop_join_and_consistency_check():
    two = pd.DataFrame({"": ["1", "2"], "Test Problem": ["FDA1", "dMOP2"],
                        "Optimizer": ["DVC", "DVC"], "MIGD": ["0.0525", "0.01"],
                        "MHVD": ["0.0965", "0.02"]})
    stages = pd.DataFrame({"": ["1", "2"], "Test Problem": ["FDA1", "dMOP2"],
                           "Optimizer": ["DVC", "DVC"], "MIGD_total": ["0.0525", "0.01"],
                           "MIGD_1st_stage": ["0.2", "0.1"], "MIGD_2nd_stage": ["0.01", "0.02"],
                           "MIGD_3rd_stage": ["0.03", "0.04"]})
    out = clean_dmop(two, stages)
    assert out["id"].tolist() == ["DVC|FDA1", "DVC|dMOP2"]
    assert out["problem_family"].tolist() == ["FDA", "dMOP"]
    assert out["migd_stage3"].tolist() == [0.03, 0.04] and out["mhvd"].dtype == float
    with pytest.raises(ValueError, match="MIGD differs"):
        clean_dmop(two, stages.assign(MIGD_total=["0.9", "0.01"]))


def test_bbob_unreached_target_becomes_missing_ert():
    ert = pd.DataFrame({"DIM": [2, 2], "funcId": [24, 1], "ID": ["BFGS", "BFGS"],
                        "ERT": [np.inf, 8.4], "runs": [0, 26], "ps": [0.0, 0.8667]})
    fv = pd.DataFrame({"DIM": [2, 2], "funcId": [1, 24], "ID": ["BFGS", "BFGS"],
                       "runtime": [4361, 4361], "runs": [30, 30], "mean": [2.2, 5.0],
                       "median": [1e-12, 4.0]})
    out = clean_bbob(ert, fv).set_index("id")
    assert out.index.tolist() == ["BFGS|f01", "BFGS|f24"]
    assert math.isnan(out.loc["BFGS|f24", "ert"]) and out.loc["BFGS|f24", "success_rate"] == 0
    assert not out.loc["BFGS|f24", "target_reached"] and out.loc["BFGS|f01", "ert"] == 8.4
    assert out.loc["BFGS|f24", "fv_mean"] == 5.0 and out.loc["BFGS|f01", "fv_median"] == 1e-12
    assert out.loc["BFGS|f24", "function_name"] == "Lunacek bi-Rastrigin"
    assert out.loc["BFGS|f01", "function_group"] == "separable"


# --- synthetic front -----------------------------------------------------------------

def test_synthetic_front_follows_eq_18():
    front = synthetic_front()
    assert len(front) == 240 and front["id"].is_unique
    assert front["y1"].between(0.02, 0.2).all() and front["y1"].is_monotonic_increasing
    y1 = front["y1"].to_numpy()
    assert np.allclose(front["y2"], 0.25 * np.cos(39 * y1 ** 0.85) - np.log(y1) - 0.46)
    assert front.equals(synthetic_front())                     # fixed seed
    assert not front.equals(synthetic_front(seed=1))
    # dominated points (some earlier, smaller y1 has a smaller y2) sit in the flat region only
    y2 = front["y2"].to_numpy()
    dominated = np.r_[False, y2[1:] > np.minimum.accumulate(y2)[:-1]]
    assert 0 < dominated.sum() < 40
    assert y1[dominated].min() > 0.08 and y1[dominated].max() < 0.1


def test_front_y2_rises_only_in_the_flat_region():
    grid = np.linspace(0.02, 0.2, 20001)
    rising = grid[1:][np.diff(front_y2(grid)) > 0]
    flat = rising[rising < 0.15]
    assert flat.min() == pytest.approx(0.083, abs=0.001)   # the paper's [0.083, 0.091]
    assert flat.max() == pytest.approx(0.091, abs=0.001)
    assert rising[rising >= 0.15].min() > 0.199             # and a sliver at the upper end


# --- manifest assembly and writing ---------------------------------------------------

def _entry(**overrides):
    kwargs = {"name": "t", "title": "T", "description": "d  e", "source": "s",
              "licence": "MIT", "id_column": "id",
              "objectives": [objective("a", "min"), objective("b", "max")],
              "metadata": ["m"], "view": default_view(["a", "b"], ["a"])}
    kwargs.update(overrides)
    return manifest_entry(**kwargs)


def test_finish_entry_orders_columns_and_counts_rows():
    frame = pd.DataFrame({"m": ["x", "y"], "b": [1.0, 2.0], "id": ["r1", "r2"], "a": [3, 4],
                          "junk": [0, 0]})
    built = finish_entry(BuiltDataset(frame, _entry()))
    assert list(built.frame.columns) == ["id", "a", "b", "m"]
    assert built.entry["n_rows"] == 2 and built.entry["description"] == "d e"
    assert built.entry["roles"] == dict.fromkeys(["system", "seed", "task", "split", "config",
                                                  "budget"])


@pytest.mark.parametrize("frame, entry, message", [
    (pd.DataFrame({"id": ["r", "r"], "a": [1.0, 2.0], "b": [1.0, 2.0], "m": [1, 2]}),
     _entry(), "unique"),
    (pd.DataFrame({"id": ["r", "s"], "a": [1.0, np.inf], "b": [1.0, 2.0], "m": [1, 2]}),
     _entry(), "infinite"),
    (pd.DataFrame({"id": ["r", "s"], "a": ["x", "y"], "b": [1.0, 2.0], "m": [1, 2]}),
     _entry(), "not numeric"),
    (pd.DataFrame({"id": ["r", "s"], "a": [1.0, 2.0], "b": [1.0, 2.0]}), _entry(), "not in"),
    (pd.DataFrame({"id": ["r", "s"], "a": [1.0, 2.0], "b": [1.0, 2.0], "m": [1, 2]}),
     _entry(view=default_view(["a"], ["b"])), "focus"),
    (pd.DataFrame({"id": ["r", "s"], "a": [1.0, 2.0], "b": [1.0, 2.0], "m": [1, 2]}),
     _entry(view=default_view(["a"], [], filters={"zz": [1]})), "unknown column"),
])
def test_finish_entry_rejects_broken_tables(frame, entry, message):
    with pytest.raises(ValueError, match=message):
        finish_entry(BuiltDataset(frame, entry))


def test_write_all_writes_tables_and_manifest(tmp_path):
    frame = pd.DataFrame({"id": ["r1", "r2"], "a": [1.0, np.nan], "b": [1.0, 2.0],
                          "m": [True, False]})
    built = [finish_entry(BuiltDataset(frame, _entry()))]
    entries = build_datasets.write_all(built, tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert [e["name"] for e in manifest["datasets"]] == ["t", "breast-cancer-val-test"]
    assert manifest["datasets"] == entries
    assert manifest["datasets"][1]["n_rows"] is None          # its file is not there
    back = pd.read_csv(tmp_path / "t.csv")
    assert back["m"].tolist() == [True, False] and math.isnan(back.loc[1, "a"])
    # once the generated file exists, its rows and metadata columns are picked up
    pd.DataFrame({"id": ["x"], "model": ["sgd_linear"], "budget": [50], "seed": [0],
                  "val_precision": [1.0], "val_recall": [1.0], "test_precision": [1.0],
                  "test_recall": [1.0], "config_index": [0]}).to_csv(
        tmp_path / "breast-cancer-val-test.csv", index=False)
    entry = build_datasets.write_all(built, tmp_path)[1]
    assert entry["n_rows"] == 1 and entry["metadata"] == ["config_index"]
    assert entry["paired_metrics"] == ["precision", "recall"]
    assert entry["roles"]["budget"] == "budget" and entry["roles"]["system"] == "model"
