"""Cleaning of the AutoML Benchmark 2022 table and the Friedler et al. fairness benchmark.

``build_*`` functions take the raw folder and return :class:`datasets_manifest.BuiltDataset`
objects; :func:`flag_amlb_failures` and :func:`clean_fairness` work on in-memory frames.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from datasets_manifest import BuiltDataset, default_view, manifest_entry, objective

AMLB_OBJECTIVES = ("metric_error", "time_train_s", "time_infer_s")
# A run whose error exceeds this multiple of its dataset's median error is a failure.
AMLB_FAILURE_FACTOR = 1000.0
FAIRNESS_METADATA = {
    "DIbinary": "di", "CV": "cv", "TPR": "tpr", "TNR": "tnr",
    "BCR": "bcr", "MCC": "mcc",
}
FAIRNESS_FAMILIES = ("Feldman", "Kamishima", "Zafar", "Calders")


def flag_amlb_failures(frame: pd.DataFrame, *, factor: float = AMLB_FAILURE_FACTOR) -> pd.DataFrame:
    """Mark imputed failures of AMLB and blank their objectives.

    Rule: a (framework, dataset) result is a failure when its ``metric_error`` exceeds
    ``factor`` times the median ``metric_error`` of the frameworks on the same dataset.
    Failed rows get ``failed = True`` and missing error, training and inference time
    (the run produced no usable model); the reported error is kept in ``reported_error``.
    On the 2022 table the rule flags exactly two rows (GAMA on Allstate_Claims_Severity,
    error 8.6e12; mljarsupervised on Brazilian_houses, 6.2e14); the next worst ratio is 326.

    >>> f = pd.DataFrame({"dataset": ["a"] * 3, "metric_error": [1.0, 2.0, 5e6],
    ...                   "time_train_s": [1.0, 1.0, 1.0], "time_infer_s": [1.0, 1.0, 1.0]})
    >>> flag_amlb_failures(f)["failed"].tolist()
    [False, False, True]
    """
    out = frame.copy()
    median = out.groupby("dataset")["metric_error"].transform("median")
    failed = (out["metric_error"] > factor * median).to_numpy()
    out["reported_error"] = out["metric_error"].astype(float)
    out["failed"] = failed
    for col in AMLB_OBJECTIVES:
        out[col] = out[col].astype(float).where(~failed)
    return out


def clean_amlb(raw: pd.DataFrame) -> pd.DataFrame:
    """Short framework names, a ``framework | dataset`` id and the failure rule."""
    out = raw.loc[:, ["dataset", "framework", "problem_type", *AMLB_OBJECTIVES, "rank"]].copy()
    out["framework"] = (out["framework"].str.replace("_4h8c_gp3_2022_jmlr", "", regex=False)
                        .str.replace("_benchmark", "", regex=False))
    out = out.rename(columns={"rank": "reported_rank"})
    out = flag_amlb_failures(out)
    out.insert(0, "id", out["framework"] + " | " + out["dataset"])
    return out


def build_amlb(raw_dir: Path) -> list[BuiltDataset]:
    """The ``amlb-2022`` entry: 10 AutoML frameworks x 55 OpenML datasets."""
    raw = pd.read_csv(Path(raw_dir) / "amlb-2022-jmlr-4h8c" / "all_data.csv")
    frame = clean_amlb(raw)
    objectives = [
        objective("metric_error", "min", unit="1-AUC / log-loss / RMSE",
                  label="Error (1-AUC binary, log-loss multiclass, RMSE regression)"),
        objective("time_train_s", "min", unit="s", label="Training time"),
        objective("time_infer_s", "min", unit="s", label="Inference time"),
    ]
    entry = manifest_entry(
        name="amlb-2022",
        title="AutoML Benchmark 2022 (4h, 8 cores): 10 frameworks x 55 datasets",
        description="""One row per (AutoML framework, OpenML dataset) of the AMLB 2022 JMLR run with
        a 4-hour, 8-core budget, averaged over the folds. Objectives, all lower is better: the error
        (1-AUC for the 11 binary, log-loss for the 20 multiclass, RMSE for the 24 regression datasets,
        so errors are comparable only within a dataset), training time and inference time in seconds.
        The system is the framework, the task the dataset. Failed runs were imputed in the source with
        absurd errors; a run whose error exceeds 1000 times its dataset's median error is treated as a
        failure (flag failed, objectives missing, reported_error kept): this flags two rows. Compare
        frameworks within a dataset (the default view shows one) or per task in the partial-ranking
        views. Licence: Apache-2.0 (autogluon-dashboard); AMLB itself is MIT.""",
        source="https://github.com/autogluon/autogluon-dashboard (dev_data/all_data.csv, commit "
               "07acec862bfacee7bbfe55fab7f6565f2c9ef20d)",
        licence="Apache-2.0",
        id_column="id",
        objectives=objectives,
        roles={"system": "framework", "task": "dataset"},
        metadata=["problem_type", "failed", "reported_error", "reported_rank"],
        view=default_view(list(AMLB_OBJECTIVES), ["metric_error"],
                          filters={"dataset": ["Amazon_employee_access"]}),
    )
    return [BuiltDataset(frame, entry)]


def clean_fairness(raw: pd.DataFrame) -> pd.DataFrame:
    """One row per (algorithm, run) with accuracy, ``di_distance = |DI - 1|`` and metadata.

    DI is the ``DIbinary`` column (positive rate of the unprivileged group over that of
    the privileged group, binary sensitive attribute); 1 is parity.

    >>> f = pd.DataFrame({"algorithm": ["LR"], "params": [None], "run-id": [3],
    ...                   "accuracy": [0.8], "DIbinary": [0.7], "CV": [0.9],
    ...                   "TPR": [0.5], "TNR": [0.9], "BCR": [0.7], "MCC": [0.4]})
    >>> row = clean_fairness(f).iloc[0]
    >>> row["id"], round(float(row["di_distance"]), 3), row["family"]
    ('LR | run 3', 0.3, 'baseline')
    """
    out = pd.DataFrame({
        "algorithm": raw["algorithm"].astype(str),
        "run": raw["run-id"].astype(int),
        "accuracy": raw["accuracy"].astype(float),
        "di_distance": (raw["DIbinary"].astype(float) - 1.0).abs(),
    })
    for col, name in FAIRNESS_METADATA.items():
        out[name] = raw[col].astype(float)
    out["params"] = raw["params"].fillna("default").astype(str)
    out["family"] = out["algorithm"].map(_fairness_family)
    out["tuned_for"] = out["algorithm"].map(
        lambda a: "accuracy" if a.endswith("-accuracy") or a == "ZafarAccuracy"
        else "DI" if a.endswith("-DIavgall") or a == "ZafarFairness" else "none")
    out.insert(0, "id", out["algorithm"] + " | run " + out["run"].astype(str))
    return out


def _fairness_family(algorithm: str) -> str:
    return next((f for f in FAIRNESS_FAMILIES if algorithm.startswith(f)), "baseline")


def build_fairness(raw_dir: Path) -> list[BuiltDataset]:
    """The ``fairness-adult-sex`` and ``fairness-compas-race`` entries."""
    folder = Path(raw_dir) / "fairness-comparison"
    specs = [
        ("fairness-adult-sex", "adult_sex_numerical-binsensitive.csv",
         "UCI Adult income", "sex", "Calders has only 6 runs here."),
        ("fairness-compas-race", "propublica-recidivism_race_numerical-binsensitive.csv",
         "ProPublica COMPAS recidivism", "race", ""),
    ]
    built = []
    for name, filename, data_title, attribute, caveat in specs:
        frame = clean_fairness(pd.read_csv(folder / filename))
        objectives = [
            objective("accuracy", "max", unit="fraction", label="Accuracy"),
            objective("di_distance", "min", unit="|DI - 1|",
                      label="Distance of disparate impact from parity"),
        ]
        entry = manifest_entry(
            name=name,
            title=f"Fairness vs accuracy: {data_title}, sensitive attribute {attribute}",
            description=f"""Friedler et al. (FAT* 2019) comparison of fairness-enhancing
            interventions on {data_title} with the binary sensitive attribute {attribute}: one row
            per (algorithm, random train/test split), 19 algorithms (plain SVM, GaussianNB, LR,
            decision tree; Feldman pre-processing, Kamishima, Zafar and Calders in-processing, some
            tuned for accuracy or for DI) x 10 splits. {caveat} Objectives: accuracy (higher is
            better) and the distance of disparate impact from parity, |DI - 1| (lower is better; DI
            is the ratio of positive-outcome rates between the groups). The system is the algorithm,
            the seed is the split; the raw DI, the Calders-Verwer score CV, TPR,
            TNR, balanced accuracy BCR, MCC and hyper-parameters are metadata. Licence: Apache-2.0
            (fairness-comparison repository).""",
            source="https://github.com/algofairness/fairness-comparison (fairness/results/"
                   f"{filename}, commit 80b34d25bb9b0387691c6cb8651f0e40edd262c8)",
            licence="Apache-2.0",
            id_column="id",
            objectives=objectives,
            roles={"system": "algorithm", "seed": "run"},
            metadata=[*FAIRNESS_METADATA.values(), "params", "family", "tuned_for"],
            view=default_view(["accuracy", "di_distance"], ["di_distance"]),
        )
        built.append(BuiltDataset(frame, entry))
    return built

