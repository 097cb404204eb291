"""Write ``datasets/breast-cancer-val-test.csv``: validation and test precision/recall of
random-search configurations, following the protocol of "Mind the Gap" (Feurer et al.,
papers/mind-the-gap-optimistic-pessimistic-fronts.txt, Sections 5.1-5.2 and Appendix A).

Protocol (as in the paper, on scikit-learn's breast cancer data instead of German credit):

* One fixed, stratified 60/20/20 train/validation/test split (``SPLIT_SEED``).
* The positive class is the minority class, as in the paper (German credit: 30% "bad"
  credit; here: *malignant*, 212 of 569 samples, sklearn label 0). Precision and recall
  are those of the malignant class; precision of a model that predicts no positive is 0.
* Two models, each tuned by random search over the paper's Appendix A space:
  ``random_forest`` (criterion, bootstrap, max_features, min_samples_split,
  min_samples_leaf, weight of the positive class 2**e with e in [-7, 7]) and
  ``sgd_linear`` (SGDClassifier with log loss and the adaptive learning rate on
  quantile-transformed features with normal output; penalty, alpha, l1_ratio,
  fit_intercept, eta0, positive class weight 2**e).
* Budgets 50, 100, 200, 500: for each model and search seed there is ONE random-search
  stream of 500 configurations; the budget-b search is its first b configurations (as if
  the search had been stopped after b evaluations). The file holds one row per (model,
  seed, budget, configuration), so a configuration of the stream appears once for every
  budget that includes it, with identical values.

Choices the paper leaves open, decided here: ``max_features`` is drawn from
[1/30, 1] (0 is not a valid value in scikit-learn; 1/30 is one of the 30 features);
forests have ``N_TREES`` = 20 trees (to keep the script under two minutes on 2 cores);
the search seeds are ``SEEDS``; each model's ``random_state`` is derived from the search
seed and the configuration's position in the stream.

Columns: ``id``, ``model``, ``budget``, ``seed``, ``val_precision``, ``val_recall``,
``test_precision``, ``test_recall`` and, as metadata, ``config_index`` (position in the
random-search stream), ``pos_class_weight_exp`` (e: the positive class has weight 2**e),
``rf_max_features`` and ``rf_min_samples_leaf`` (forest only), ``sgd_penalty`` and
``sgd_alpha`` (linear model only). The other hyperparameters are reproducible from the
stream (``sample_config``) and not written, to keep the table small.

Run: ``python scripts/make_val_test_example.py`` (about a minute on 2 idle cores).
scikit-learn is needed only here; the pure helpers at the top import nothing but numpy.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from pathlib import Path

import numpy as np

BUDGETS = (50, 100, 200, 500)
SEEDS = (0, 1, 2)
SPLIT_SEED = 0
MODELS = ("random_forest", "sgd_linear")
MODEL_CODES = {"random_forest": "rf", "sgd_linear": "sgd"}
N_TREES = 20
N_FEATURES = 30
OUTPUT = Path(__file__).resolve().parents[1] / "datasets" / "breast-cancer-val-test.csv"
COLUMNS = ("id", "model", "budget", "seed", "val_precision", "val_recall",
           "test_precision", "test_recall", "config_index", "pos_class_weight_exp",
           "rf_max_features", "rf_min_samples_leaf", "sgd_penalty", "sgd_alpha")


# --------------------------------------------------------------------------- pure helpers

def stratified_split(labels, /, *, seed: int, fractions=(0.6, 0.2, 0.2)):
    """Return (train, val, test) row indices, each class split in the given fractions.

    Within each class the rows are shuffled with ``seed``; the first 60% go to train,
    the next 20% to validation, the rest to test. Indices are returned sorted.
    """
    labels = np.asarray(labels)
    if not math.isclose(sum(fractions), 1.0):
        raise ValueError("fractions must sum to 1")
    rng = np.random.default_rng(seed)
    parts = ([], [], [])
    for value in np.unique(labels):
        rows = rng.permutation(np.flatnonzero(labels == value))
        n_train = round(fractions[0] * rows.size)
        n_val = round(fractions[1] * rows.size)
        parts[0].append(rows[:n_train])
        parts[1].append(rows[n_train:n_train + n_val])
        parts[2].append(rows[n_train + n_val:])
    return tuple(np.sort(np.concatenate(p)) for p in parts)


def sample_config(model: str, rng: np.random.Generator) -> dict:
    """Draw one configuration of ``model`` from the paper's Appendix A search space."""
    if model == "random_forest":
        return {
            "criterion": str(rng.choice(["gini", "entropy"])),
            "bootstrap": bool(rng.integers(2)),
            "max_features": float(rng.uniform(1.0 / N_FEATURES, 1.0)),
            "min_samples_split": int(rng.integers(2, 21)),
            "min_samples_leaf": int(rng.integers(1, 21)),
            "pos_class_weight_exp": float(rng.uniform(-7.0, 7.0)),
        }
    if model == "sgd_linear":
        return {
            "penalty": str(rng.choice(["l2", "l1", "elasticnet"])),
            "alpha": float(10.0 ** rng.uniform(-6.0, -2.0)),
            "l1_ratio": float(rng.uniform(0.0, 1.0)),
            "fit_intercept": bool(rng.integers(2)),
            "eta0": float(10.0 ** rng.uniform(-7.0, -1.0)),
            "pos_class_weight_exp": float(rng.uniform(-7.0, 7.0)),
        }
    raise ValueError(f"unknown model {model!r}; expected one of {MODELS}")


def config_stream(model: str, seed: int, n_configs: int) -> list[dict]:
    """The first ``n_configs`` configurations of the random-search stream (model, seed)."""
    rng = np.random.default_rng([seed, MODELS.index(model)])
    return [sample_config(model, rng) for _ in range(n_configs)]


def precision_recall(y_true, y_pred, /) -> tuple[float, float]:
    """Precision and recall of the positive class (label 1); precision is 0 if none predicted."""
    y_true = np.asarray(y_true, dtype=bool)
    y_pred = np.asarray(y_pred, dtype=bool)
    true_pos = int(np.sum(y_true & y_pred))
    predicted = int(np.sum(y_pred))
    actual = int(np.sum(y_true))
    precision = true_pos / predicted if predicted else 0.0
    recall = true_pos / actual if actual else 0.0
    return precision, recall


def budget_rows(model: str, seed: int, evaluations: list[dict], budgets=BUDGETS) -> list[dict]:
    """Expand one stream's evaluations into table rows, the first b of them for budget b.

    ``evaluations[i]`` holds the configuration and scores of the i-th configuration.
    """
    if max(budgets) > len(evaluations):
        raise ValueError(f"the stream has {len(evaluations)} evaluations, budget {max(budgets)}")
    code = MODEL_CODES[model]
    rows = []
    for budget in budgets:
        for index, ev in enumerate(evaluations[:budget]):
            cfg = ev["config"]
            rows.append({
                "id": f"{code}-s{seed}-b{budget:03d}-c{index:03d}",
                "model": model, "budget": budget, "seed": seed,
                "val_precision": ev["val"][0], "val_recall": ev["val"][1],
                "test_precision": ev["test"][0], "test_recall": ev["test"][1],
                "config_index": index,
                "pos_class_weight_exp": round(cfg["pos_class_weight_exp"], 4),
                "rf_max_features": round(cfg["max_features"], 4) if "max_features" in cfg else "",
                "rf_min_samples_leaf": cfg.get("min_samples_leaf", ""),
                "sgd_penalty": cfg.get("penalty", ""),
                "sgd_alpha": f"{cfg['alpha']:.3e}" if "alpha" in cfg else "",
            })
    return rows


# ----------------------------------------------------------------------- sklearn part

def load_data():
    """Features, labels (1 = malignant, the minority/positive class) and the split."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.preprocessing import QuantileTransformer

    features, target = load_breast_cancer(return_X_y=True)
    labels = (target == 0).astype(int)  # sklearn: 0 = malignant (212), 1 = benign (357)
    train, val, test = stratified_split(labels, seed=SPLIT_SEED)
    quantile = QuantileTransformer(output_distribution="normal", n_quantiles=200,
                                   random_state=SPLIT_SEED).fit(features[train])
    return {"raw": features, "quantile": quantile.transform(features), "labels": labels,
            "train": train, "val": val, "test": test}


def build_model(model: str, cfg: dict, random_state: int):
    """The scikit-learn estimator of one configuration."""
    weight = {0: 1.0, 1: 2.0 ** cfg["pos_class_weight_exp"]}
    if model == "random_forest":
        from sklearn.ensemble import RandomForestClassifier
        return RandomForestClassifier(
            n_estimators=N_TREES, criterion=cfg["criterion"], bootstrap=cfg["bootstrap"],
            max_features=cfg["max_features"], min_samples_split=cfg["min_samples_split"],
            min_samples_leaf=cfg["min_samples_leaf"], class_weight=weight,
            random_state=random_state, n_jobs=1)
    from sklearn.linear_model import SGDClassifier
    return SGDClassifier(
        loss="log_loss", learning_rate="adaptive", penalty=cfg["penalty"], alpha=cfg["alpha"],
        l1_ratio=cfg["l1_ratio"], fit_intercept=cfg["fit_intercept"], eta0=cfg["eta0"],
        class_weight=weight, max_iter=1000, tol=1e-3, random_state=random_state)


def evaluate_stream(model: str, seed: int, data: dict, n_configs: int) -> list[dict]:
    """Train and score the first ``n_configs`` configurations of the stream (model, seed)."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    features = data["raw"] if model == "random_forest" else data["quantile"]
    labels = data["labels"]
    out = []
    for index, cfg in enumerate(config_stream(model, seed, n_configs)):
        estimator = build_model(model, cfg, random_state=seed * 100_000 + index)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            estimator.fit(features[data["train"]], labels[data["train"]])
        scores = {}
        for split in ("val", "test"):
            rows = data[split]
            scores[split] = precision_recall(labels[rows], estimator.predict(features[rows]))
        out.append({"config": cfg, **scores})
    return out


def _stream_job(args):
    model, seed, n_configs = args
    return model, seed, evaluate_stream(model, seed, load_data(), n_configs)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    jobs = [(model, seed, max(BUDGETS)) for model in MODELS for seed in SEEDS]
    if args.workers > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            results = list(pool.map(_stream_job, jobs))
    else:
        results = [_stream_job(job) for job in jobs]
    rows = []
    for model, seed, evaluations in results:
        rows.extend(budget_rows(model, seed, evaluations))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with open(args.output, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.6f}" if isinstance(v, float) and k.startswith(("val_", "test_"))
                                 else v) for k, v in row.items()})
    print(f"wrote {len(rows)} rows to {args.output} "
          f"({args.output.stat().st_size / 1e6:.2f} MB) in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
