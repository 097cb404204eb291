"""Cleaning of HELM Classic, the MTEB 2024 leaderboard and the LLM-Perf leaderboard.

``build_*`` functions take the raw folder and return :class:`datasets_manifest.BuiltDataset`
objects; the ``helm_*`` / ``parse_*`` helpers work on in-memory frames for the tests.
"""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
from datasets_manifest import BuiltDataset, default_view, manifest_entry, objective, slug

HELM_FAMILIES = ("accuracy", "calibration", "robustness", "fairness", "bias", "toxicity",
                 "efficiency", "summarization")
HELM_MIN_FAMILIES = {"calibration", "bias", "toxicity", "efficiency"}
# Summarisation statistics that describe a summary but are not better in one direction.
HELM_DESCRIPTIVE = ("Coverage", "Density", "Compression")
MTEB_TASKS = {
    "classification": "Classification Average (12 datasets)",
    "clustering": "Clustering Average (11 datasets)",
    "pair_classification": "Pair Classification Average (3 datasets)",
    "reranking": "Reranking Average (4 datasets)",
    "retrieval": "Retrieval Average (15 datasets)",
    "sts": "STS Average (10 datasets)",
    "summarization": "Summarization Average (1 dataset)",
}
LLM_PERF_COLUMNS = ("model", "link", "experiment", "prefill_s", "decode_tokens_per_s",
                    "memory_mb", "energy_tokens_per_kwh", "open_llm_score_text")


def read_helm_family(text: str) -> pd.DataFrame:
    """Read one HELM family TSV: first column = model, ``-`` = missing, blank lines dropped."""
    frame = pd.read_csv(io.StringIO(text), sep="\t", na_values=["-"], keep_default_na=False,
                        skip_blank_lines=True)
    frame = frame.rename(columns={frame.columns[0]: "model"})
    return frame.dropna(subset=["model"])


def helm_columns(family: str, frame: pd.DataFrame) -> tuple[pd.DataFrame, list[dict], list[str]]:
    """Rename one family's columns to ``<family>_<slug>`` and give each a direction.

    Returns the renamed frame (model + value columns), the objectives and the names of
    descriptive (metadata) columns. Columns that are entirely missing are dropped.

    >>> f = read_helm_family("Model\\tMean win rate\\tMMLU - ECE (10-bin)\\tX - Y\\n"
    ...                      "a\\t0.5\\t0.1\\t-\\n")
    >>> out, objs, meta = helm_columns("calibration", f)
    >>> [(o["name"], o["direction"]) for o in objs]
    [('calibration_win_rate', 'max'), ('calibration_mmlu_ece_10_bin', 'min')]
    """
    renamed = {"model": frame["model"].astype(str)}
    objectives, descriptive = [], []
    title = family.capitalize()
    for col in frame.columns[1:]:
        values = pd.to_numeric(frame[col], errors="coerce")
        if values.isna().all():
            continue
        if col == "Mean win rate":
            name = f"{family}_win_rate"
            objectives.append(objective(name, "max", unit="win rate (0-1)",
                                        label=f"{title}: mean win rate"))
        else:
            short = col.replace(f"({title})", "").strip()
            name = f"{family}_{slug(short)}"
            if family == "summarization" and any(short.endswith(d) for d in HELM_DESCRIPTIVE):
                descriptive.append(name)
            else:
                direction = "min" if family in HELM_MIN_FAMILIES else "max"
                unit = "s" if family == "efficiency" else None
                objectives.append(objective(name, direction, unit=unit, label=f"{title}: {short}"))
        renamed[name] = values.to_numpy()
    return pd.DataFrame(renamed), objectives, descriptive


def build_helm(raw_dir: Path) -> list[BuiltDataset]:
    """The ``helm-classic`` entry: 67 models, the 8 HELM families joined on the model name."""
    folder = Path(raw_dir) / "helm-classic"
    joined, objectives, descriptive = None, [], []
    for family in HELM_FAMILIES:
        frame = read_helm_family((folder / f"{family}.tsv").read_text(encoding="utf-8"))
        part, objs, desc = helm_columns(family, frame)
        objectives += objs
        descriptive += desc
        if joined is None:
            joined = part
        else:
            if set(part["model"]) != set(joined["model"]):
                raise ValueError(f"HELM {family}: model names differ from accuracy.tsv")
            joined = joined.merge(part, on="model", how="inner", validate="one_to_one")
    joined = joined.sort_values("accuracy_win_rate", ascending=False, kind="stable")
    win_rates = [f"{f}_win_rate" for f in ("accuracy", "robustness", "fairness", "bias",
                                            "toxicity")]
    entry = manifest_entry(
        name="helm-classic",
        title="HELM Classic: 67 language models, 131 metrics in 8 families",
        description="""One row per model of Stanford CRFM's HELM Classic leaderboard; the eight
        per-family tables (accuracy, calibration, robustness, fairness, bias, toxicity, efficiency,
        summarisation) are joined on the model name. Every family has a 'mean win rate' (share of
        head-to-head scenario wins, higher is better) and one column per scenario and metric, with
        HELM's directions: accuracy, robustness, fairness and summarisation quality (SummaC,
        QAFactEval, BERTScore, human ratings) higher is better; calibration error (ECE), bias
        (stereotypes, representation), toxic fraction and inference time lower is better. Coverage,
        density and compression of summaries are descriptive (metadata). '-' in the source is
        missing; many values are missing (no timings for 41 API models, no calibration for 19), and
        columns that are missing for every model are dropped. The default view compares five win
        rates. Licence: MIT (benchbench repository); numbers are HELM's public results.""",
        source="https://github.com/socialfoundations/benchbench (benchbench/data/helm/*.tsv, "
               "commit 658cb6965ff3449df9f07d096743e6efe8dc129d); crfm.stanford.edu/helm/classic",
        licence="MIT (collection); HELM public results",
        id_column="model",
        objectives=objectives,
        metadata=descriptive,
        view=default_view(win_rates, ["accuracy_win_rate"]),
    )
    return [BuiltDataset(joined, entry)]


def parse_mteb(text: str) -> pd.DataFrame:
    """Read the MTEB leaderboard TSV; ``-`` and ``N/A`` are missing."""
    raw = pd.read_csv(io.StringIO(text), sep="\t", dtype=str, keep_default_na=False)
    number = lambda col: pd.to_numeric(raw[col].replace({"-": None, "N/A": None, "": None}))
    out = pd.DataFrame({"model": raw["Model"].astype(str)})
    for key, col in MTEB_TASKS.items():
        out[key] = number(col).astype(float)
    out["model_size_gb"] = number("Model Size (GB)").astype(float)
    out["average"] = number("Average (56 datasets)").astype(float)
    out["embedding_dimensions"] = number("Embedding Dimensions").astype("Int64")
    out["max_tokens"] = number("Max Tokens").astype("Int64")
    out["leaderboard_rank"] = number("Rank").astype(int)
    return out


def build_mteb(raw_dir: Path) -> list[BuiltDataset]:
    """The ``mteb-2024`` entry: 83 embedding models, 7 task averages and the model size."""
    text = (Path(raw_dir) / "mteb-2024" / "leaderboard.tsv").read_text(encoding="utf-8")
    frame = parse_mteb(text)
    objectives = [objective(k, "max", unit="score (0-100)", label=v)
                  for k, v in MTEB_TASKS.items()]
    objectives.append(objective("model_size_gb", "min", unit="GB", label="Model size"))
    entry = manifest_entry(
        name="mteb-2024",
        title="MTEB English leaderboard (early 2024) with model size",
        description="""83 text-embedding models of the Massive Text Embedding Benchmark (English, 56
        datasets) before April 2024. Objectives: the seven task-family averages (classification,
        clustering, pair classification, reranking, retrieval, STS, summarisation; higher is better)
        and the model size in GB (lower is better: memory and cost). The size is missing for 18 API
        models (OpenAI, Voyage, Cohere, ...), which drop out of any view that uses it. The overall
        average, embedding dimension and maximum tokens are metadata. Licence: MIT (benchbench
        repository); numbers are the MTEB leaderboard's.""",
        source="https://github.com/socialfoundations/benchbench (benchbench/data/mteb/"
               "leaderboard.tsv, commit 658cb6965ff3449df9f07d096743e6efe8dc129d)",
        licence="MIT (collection); MTEB leaderboard data",
        id_column="model",
        objectives=objectives,
        metadata=["average", "embedding_dimensions", "max_tokens", "leaderboard_rank"],
        view=default_view([*MTEB_TASKS, "model_size_gb"], ["model_size_gb"]),
    )
    return [BuiltDataset(frame, entry)]


def clean_llm_perf(raw: pd.DataFrame) -> pd.DataFrame:
    """One row per (model, experiment) of the LLM-Perf scrape.

    The 63 duplicated (model, experiment) pairs repeat identical measurements with two
    different Open LLM scores (a join artefact of the scraper): the first row in file
    order is kept. A trailing ``*`` on the score (the Space's marker that the score is
    borrowed) becomes the ``score_marked`` flag.
    """
    frame = raw.copy()
    frame.columns = list(LLM_PERF_COLUMNS)
    measures = ["prefill_s", "decode_tokens_per_s", "memory_mb", "energy_tokens_per_kwh"]
    first = frame.drop_duplicates(["model", "experiment"], keep="first")
    spread = frame.groupby(["model", "experiment"])[measures].nunique().to_numpy().max()
    if spread > 1:
        raise ValueError("duplicated (model, experiment) pairs with different measurements")
    out = first.loc[:, ["model", "experiment", *measures]].copy()
    score = first["open_llm_score_text"].astype(str).str.strip()
    out["open_llm_score"] = pd.to_numeric(score.str.rstrip("*"))
    out["score_marked"] = score.str.endswith("*").to_numpy()
    parts = out["experiment"].str.rsplit("-", n=1)
    out["attention"] = parts.str[1]
    out["quantisation"] = parts.str[0]
    bits = out["quantisation"].str.extract(r"^(\d+)bit")[0]
    width = out["quantisation"].map({"float32": "32", "float16": "16", "bfloat16": "16"})
    out["weight_bits"] = pd.to_numeric(bits.fillna(width))
    out.insert(0, "id", out["model"] + " | " + out["experiment"])
    return out.reset_index(drop=True)


def build_llm_perf(raw_dir: Path) -> list[BuiltDataset]:
    """The ``llm-perf`` entry: 838 (model, experiment) configurations of 58 models."""
    raw = pd.read_csv(Path(raw_dir) / "llm-perf-leaderboard-2024-05" / "llm_perf_lb.csv")
    frame = clean_llm_perf(raw)
    objectives = [
        objective("prefill_s", "min", unit="s", label="Prefill latency"),
        objective("decode_tokens_per_s", "max", unit="tokens/s", label="Decode throughput"),
        objective("memory_mb", "min", unit="MB", label="Peak memory"),
        objective("energy_tokens_per_kwh", "max", unit="tokens/kWh", label="Energy efficiency"),
        objective("open_llm_score", "max", unit="%", label="Open LLM Leaderboard v1 score"),
    ]
    entry = manifest_entry(
        name="llm-perf",
        title="LLM-Perf leaderboard (May 2024): latency, throughput, memory, energy",
        description="""Hugging Face / Optimum LLM-Perf leaderboard scrape of May 2024: one row per
        (model, experiment), where an experiment is a precision or quantisation scheme (float16,
        4bit-gptq-exllama-v2, 8bit-bnb, ...) plus an attention kernel (eager, sdpa, fa2). Objectives:
        prefill latency in s and peak memory in MB (lower is better), decode throughput in tokens/s
        and energy efficiency in tokens/kWh (higher is better), and the model's Open LLM Leaderboard
        v1 score (higher is better; scores marked '*' on the Space, most of them, are flagged
        score_marked and are probably borrowed from a related model). The system is the model, the
        config is the experiment. 63 duplicated (model, experiment) rows with identical measurements
        but two scores were collapsed to the first. The GPU of the scraped tab is not recorded. No
        licence is stated by the repository that holds the scrape.""",
        source="https://github.com/git-disl/GTLLMZoo (llm_perf_lb.csv, commit "
               "fd7ce11ddab66a828d81a85054aa8862bec78bc1); optimum-llm-perf-leaderboard.hf.space",
        licence="no licence stated",
        id_column="id",
        objectives=objectives,
        roles={"system": "model", "config": "experiment"},
        metadata=["quantisation", "attention", "weight_bits", "score_marked"],
        view=default_view([o["name"] for o in objectives], ["energy_tokens_per_kwh"]),
    )
    return [BuiltDataset(frame, entry)]

