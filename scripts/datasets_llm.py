"""Cleaning of the LLM leaderboards: Open LLM Leaderboard v2, DecodingTrust, Chatbot Arena + price.

Each ``build_*`` function takes the raw folder (``/work/shared/datasets-raw`` or a copy) and
returns :class:`datasets_manifest.BuiltDataset` objects. The ``parse_*`` / ``*_ids`` helpers
work on small in-memory inputs so that tests can check them on inline snippets.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
from datasets_manifest import BuiltDataset, default_view, manifest_entry, objective

OPEN_LLM_DIR = "open-llm-leaderboard-v2-api-2025-01-10"
OPEN_LLM_BENCHMARKS = {
    "ifeval": "IFEval", "bbh": "BBH", "math": "MATH Lvl 5",
    "gpqa": "GPQA", "musr": "MuSR", "mmlu_pro": "MMLU-PRO",
}
MODEL_TYPES = {
    "chatmodels": "chat model",
    "fine-tunedondomain-specificdatasets": "fine-tuned on domain-specific data",
    "basemergesandmoerges": "base merge / moerge",
    "pretrained": "pretrained",
    "continuouslypretrained": "continuously pretrained",
    "multimodal": "multimodal",
}
DECODINGTRUST_COLUMNS = (
    "model", "non_toxicity", "non_stereotype", "adv_glue_pp", "ood", "adv_demo",
    "privacy", "ethics", "fairness", "reported_average",
)
DECODINGTRUST_LABELS = {
    "non_toxicity": "Non-toxicity", "non_stereotype": "Non-stereotype",
    "adv_glue_pp": "AdvGLUE++ (adversarial robustness)", "ood": "OoD robustness",
    "adv_demo": "Robustness to adversarial demonstrations", "privacy": "Privacy",
    "ethics": "Machine ethics", "fairness": "Fairness",
}
COMPRESSION_METHODS = ("sparsegpt", "magnitude", "wanda", "gptq", "awq")


def unique_ids(frame: pd.DataFrame, base: str, qualifiers: list[str]) -> pd.Series:
    """Ids from column ``base``; duplicated names get `` (q1, q2, ...)`` appended.

    Qualifier columns are added one at a time, only to the rows whose id is still
    duplicated, until every id is unique. The result does not depend on row order.

    Raises
    ------
    ValueError
        If the qualifiers do not make the ids unique.
    """
    ids = frame[base].astype(str)
    parts = [[] for _ in range(len(frame))]
    for qualifier in qualifiers:
        dup = ids.duplicated(keep=False).to_numpy()
        if not dup.any():
            break
        for i in np.flatnonzero(dup):
            parts[i].append(str(frame[qualifier].iloc[i]))
        ids = pd.Series([f"{b} ({', '.join(p)})" if p else b
                         for b, p in zip(frame[base].astype(str), parts)], index=frame.index)
    if ids.duplicated().any():
        raise ValueError(f"ids still duplicated: {ids[ids.duplicated()].head(3).tolist()}")
    return ids


def clean_open_llm(raw: pd.DataFrame) -> pd.DataFrame:
    """Select, rename and fix the columns of the Open LLM Leaderboard v2 API dump.

    ``features_is_not_available_on_hub`` is inverted in the source (TRUE for the models
    that are on the hub), so ``available_on_hub`` takes its value unchanged. Parameter
    counts <= 0 (sentinels -1 and 0) become missing.
    """
    out = pd.DataFrame({"model": unique_ids(raw, "model_name", ["model_precision", "model_sha"])})
    for key in OPEN_LLM_BENCHMARKS:
        out[key] = raw[f"evaluations_{key}_normalized_score"].astype(float)
    out["co2_cost"] = raw["metadata_co2_cost"].astype(float)
    params = raw["metadata_params_billions"].astype(float)
    out["params_b"] = params.where(params > 0)
    out["model_name"] = raw["model_name"]
    out["type"] = raw["model_type"].map(MODEL_TYPES).fillna(raw["model_type"])
    out["architecture"] = raw["model_architecture"].replace("?", np.nan).fillna("unknown")
    out["licence"] = raw["metadata_hub_license"].fillna("unknown")
    out["precision"] = raw["model_precision"]
    out["weight_type"] = raw["model_weight_type"]
    out["available_on_hub"] = raw["features_is_not_available_on_hub"].astype(bool)
    out["merged"] = raw["features_is_merged"].astype(bool)
    out["moe"] = raw["features_is_moe"].astype(bool)
    out["flagged"] = raw["features_is_flagged"].astype(bool)
    out["official_provider"] = raw["features_is_official_provider"].astype(bool)
    out["chat_template"] = raw["model_has_chat_template"].astype(bool)
    out["average_score"] = raw["model_average_score"].astype(float)
    out["hub_hearts"] = raw["metadata_hub_hearts"]
    out["submission_date"] = raw["metadata_submission_date"]
    return out


def build_open_llm(raw_dir: Path) -> list[BuiltDataset]:
    """The ``open-llm-leaderboard-v2`` entry (2,921 models, snapshot of 2025-01-10)."""
    raw = pd.read_csv(Path(raw_dir) / OPEN_LLM_DIR / "huggingface_v2.csv")
    frame = clean_open_llm(raw)
    scores = [objective(k, "max", unit="normalised score (0-100)", label=label)
              for k, label in OPEN_LLM_BENCHMARKS.items()]
    objectives = scores + [
        objective("co2_cost", "min", unit="kg CO2", label="CO2 cost"),
        objective("params_b", "min", unit="billion parameters", label="#Params"),
    ]
    entry = manifest_entry(
        name="open-llm-leaderboard-v2",
        title="Open LLM Leaderboard v2 (snapshot 2025-01-10)",
        description="""One row per evaluated LLM (model, precision) of the Hugging Face Open LLM
        Leaderboard v2 as of 10 January 2025, the daily snapshot closest to the state the COPA paper
        used. Objectives: the six normalised benchmark scores (IFEval, BBH, MATH Lvl 5, GPQA, MuSR,
        MMLU-PRO; 0-100, higher is better), the CO2 cost of the evaluation run in kg (lower is better)
        and the parameter count in billions (lower is better; unknown sizes, written -1 or 0 in the
        source, are missing). The source's 'is_not_available_on_hub' flag is inverted; it is fixed here
        as available_on_hub (2,142 models are on the hub; the paper used 2,148). The default view
        reproduces the paper's CO2-vs-performance example: p = inf, focus on CO2 cost, models on the
        hub only. The leaderboard's own average of the six scores is kept as a column to filter on
        (average_score), not as an objective: weighed beside the six it would count each twice.
        Ids are model names; a name evaluated in two precisions gets the precision appended.
        Licence: the CSV collection is MPL-2.0; scores are the public leaderboard's.""",
        source="https://github.com/fboulnois/llm-leaderboard-csv (csv/huggingface_v2.csv, "
               "commit ef7316e351adfac3fef9c3652f328b50afa104b6)",
        licence="MPL-2.0 (collection); leaderboard data by Hugging Face",
        id_column="model",
        objectives=objectives,
        metadata=["model_name", "type", "architecture", "licence", "precision", "weight_type",
                  "available_on_hub", "merged", "moe", "flagged", "official_provider",
                  "chat_template", "average_score", "hub_hearts", "submission_date"],
        view=default_view([*OPEN_LLM_BENCHMARKS, "co2_cost"], ["co2_cost"],
                          filters={"available_on_hub": [True]}),
    )
    return [BuiltDataset(frame, entry)]


def parse_decodingtrust(text: str) -> pd.DataFrame:
    """Parse the header-less DecodingTrust CSV and recompute the average of the 8 scores.

    The 10 columns are (model, 8 perspective scores, reported average) - see the raw
    folder's PROVENANCE. ``average`` is the mean of the 8 scores; ``reported_average``
    keeps column 10, which disagrees for the compressed models.
    """
    frame = pd.read_csv(io.StringIO(text), header=None, names=list(DECODINGTRUST_COLUMNS))
    if frame.shape[1] != len(DECODINGTRUST_COLUMNS) or frame.iloc[:, 1:].isna().any().any():
        raise ValueError("DecodingTrust rows must have 10 complete columns")
    scores = list(DECODINGTRUST_LABELS)
    frame[scores + ["reported_average"]] = frame[scores + ["reported_average"]].astype(float)
    frame["average"] = frame[scores].mean(axis=1).round(4)
    hf = frame["model"].str.startswith("hf/")
    repo = frame["model"].str.extract(r"^hf/[^/]+/([^@]+)@(.+)$")
    frame["compressed"] = hf
    frame["compression_setting"] = repo[1].fillna("none")
    frame["compression_method"] = repo[0].map(_compression_method, na_action="ignore").fillna("none")
    frame["base_model"] = repo[0].fillna(frame["model"])
    return frame


def _compression_method(repo: str) -> str:
    lowered = repo.lower()
    return next((m for m in COMPRESSION_METHODS if m in lowered), "other")


def build_decodingtrust(raw_dir: Path) -> list[BuiltDataset]:
    """The ``decodingtrust`` entry (55 models x 8 trustworthiness perspectives)."""
    text = (Path(raw_dir) / "decodingtrust" / "decoding_trust.csv").read_text(encoding="utf-8")
    frame = parse_decodingtrust(text)
    objectives = [objective(k, "max", unit="score (0-100)", label=v)
                  for k, v in DECODINGTRUST_LABELS.items()]
    entry = manifest_entry(
        name="decodingtrust",
        title="DecodingTrust LLM trustworthiness leaderboard",
        description="""55 LLMs scored by the DecodingTrust / LLM-safety leaderboard on eight
        trustworthiness perspectives (non-toxicity, non-stereotype, adversarial robustness AdvGLUE++,
        out-of-distribution robustness, robustness to adversarial demonstrations, privacy, machine
        ethics, fairness), each 0-100, higher is more trustworthy. Rows are named chat models (GPT-4,
        Claude, Llama 2, ...) and 41 compressed variants of Llama-2-13b / Vicuna-13b (quantised with
        AWQ/GPTQ or pruned with SparseGPT/Wanda/magnitude; method and setting are metadata). The source
        file has no header; the column order was recovered by matching rows with a second, headed copy.
        'average' is recomputed as the mean of the eight scores because the file's own average is wrong
        for the compressed models (kept as reported_average). No licence is stated by the repository
        that holds the file.""",
        source="https://github.com/hlzhang109/causal-eval (data/decoding_trust.csv, commit "
               "6800b3967affffe0785c984a2c05fdece6939606); scores from the AI-Secure "
               "llm-trustworthy-leaderboard",
        licence="no licence stated",
        id_column="model",
        objectives=objectives,
        metadata=["average", "reported_average", "compressed", "compression_method",
                  "compression_setting", "base_model"],
        view=default_view(list(DECODINGTRUST_LABELS), ["fairness"]),
    )
    return [BuiltDataset(frame, entry)]


def clean_arena_price(raw: pd.DataFrame) -> pd.DataFrame:
    """Arena Elo + input price; rows without a price are kept with a missing price.

    Prices of the form ``k.001`` are placeholders of the source for free experimental
    models; they are kept but flagged ``price_placeholder``.
    """
    out = pd.DataFrame({"model": raw["model"]})
    for col in ("overall", "hard", "coding"):
        out[col] = raw[col].astype(float)
    price = raw["cpmi"].astype(float)
    out["price"] = price
    out["price_listed"] = price.notna()
    thousandths = np.round(price.to_numpy() * 1000) % 1000
    out["price_placeholder"] = np.isfinite(price.to_numpy()) & (thousandths == 1)
    out["launch"] = raw["launch"].fillna("unknown")
    out["retired"] = raw["end"].notna()
    out["price_source"] = raw["source"].fillna("")
    return out


def build_arena_price(raw_dir: Path) -> list[BuiltDataset]:
    """The ``chatbot-arena-price`` entry (187 models, 98 with a listed price)."""
    raw = pd.read_csv(Path(raw_dir) / "chatbot-arena-price-2025-01-30" / "elo.csv")
    frame = clean_arena_price(raw)
    objectives = [
        objective("overall", "max", unit="Elo", label="Arena Elo (overall)"),
        objective("hard", "max", unit="Elo", label="Arena Elo (hard prompts)"),
        objective("coding", "max", unit="Elo", label="Arena Elo (coding)"),
        objective("price", "min", unit="USD per million input tokens", label="Input price"),
    ]
    entry = manifest_entry(
        name="chatbot-arena-price",
        title="Chatbot Arena Elo vs API price (January 2025)",
        description="""187 chat models with their style-controlled Chatbot Arena (LMArena) Elo in three
        categories (overall, hard prompts, coding; higher is better) and the API price per million input
        tokens in USD (lower is better; output prices are not included). Only 98 models have a price:
        the others are kept with a missing price, so they take part in Elo-only views and are left out
        (and counted) whenever price is an objective. Five free experimental Gemini models carry
        placeholder prices such as 4.001; they are flagged price_placeholder and filtered out by the
        default view. Licence: MIT (llmpricing repository).""",
        source="https://github.com/sanand0/llmpricing (elo.csv, commit "
               "df2017a08c481b671e8771377db8ba6174cec656)",
        licence="MIT",
        id_column="model",
        objectives=objectives,
        metadata=["price_listed", "price_placeholder", "launch", "retired", "price_source"],
        view=default_view(["overall", "hard", "coding", "price"], ["price"],
                          filters={"price_placeholder": [False]}),
    )
    return [BuiltDataset(frame, entry)]
