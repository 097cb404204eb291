"""Real local backends for the sources' tests: an Optuna SQLite study, an MLflow SQLite
tracking database and lm-evaluation-harness result files, each made with the tool's own API
(or, for lm-eval, in the format its EvaluationTracker writes: results_<date>.json with
"results", "higher_is_better", "config" and "model_name")."""

from __future__ import annotations

import contextlib
import json
import logging
import warnings
from pathlib import Path


@contextlib.contextmanager
def _unsynced_sqlite():
    """SQLite connections opened by SQLAlchemy inside the block do not wait for the disk.

    SQLite syncs each commit to disk, and a new MLflow store is ~40 schema migrations and a
    commit per logged value. Measured (29 Nov 2026) for ``make_mlflow_store``: 24-36 s wall for
    2-3 CPU s while other processes wrote to the disk (load 14), 2.7-3.1 s at load 3; without
    the syncs 0.9-1.7 s at load 3. The backends hold the same rows, written through the tools'
    own APIs as before: only their durability after a power cut, which no test reads, is
    given up. The readers under test only read (a read never syncs).
    """
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    def no_sync(dbapi_connection, _record):
        dbapi_connection.execute("PRAGMA synchronous=OFF")

    event.listen(Engine, "connect", no_sync)
    try:
        yield
    finally:
        event.remove(Engine, "connect", no_sync)


# trial number -> (what the objective does); 3 is pruned, 5 fails, 8 is left running
PRUNED, FAILED, RUNNING = 3, 5, 8


def make_optuna_study(folder: Path, *, name: str = "mo", metric_names=("accuracy", "latency"),
                      n_trials: int = 8) -> str:
    """A two-objective study (accuracy max, latency min) with one pruned, one failed and one
    running trial; returns its storage URL."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)
    storage = f"sqlite:///{folder / (name + '.db')}"
    with _unsynced_sqlite():
        return _fill_optuna_study(optuna, storage, name, metric_names, n_trials)


def _fill_optuna_study(optuna, storage: str, name: str, metric_names, n_trials: int) -> str:
    study = optuna.create_study(study_name=name, storage=storage,
                                directions=["maximize", "minimize"])
    if metric_names:
        with warnings.catch_warnings():  # "experimental" since 3.2, the only way to name them
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            study.set_metric_names(list(metric_names))

    def objective(trial):
        lr = trial.suggest_float("lr", 1e-4, 1e-1, log=True)
        optimizer = trial.suggest_categorical("optimizer", ["adam", "sgd"])
        if trial.number == PRUNED:
            raise optuna.TrialPruned
        if trial.number == FAILED:
            raise RuntimeError("diverged")
        return 1.0 - lr * (2 if optimizer == "sgd" else 1), 10 * lr + trial.number

    study.optimize(objective, n_trials=n_trials, catch=(RuntimeError,))
    running = study.ask()  # a trial still running: never a row
    running.suggest_float("lr", 1e-4, 1e-1, log=True)
    return storage


# name, params, metrics, status; "b" twice (told apart), one running and one failed run
MLFLOW_RUNS = (
    ("a", {"lr": "0.1", "optimizer": "adam"}, {"accuracy": 0.90, "val_loss": 0.30, "widgets": 3},
     "FINISHED"),
    ("b", {"lr": "0.01", "optimizer": "sgd"}, {"accuracy": 0.80, "val_loss": 0.20, "widgets": 5},
     "FINISHED"),
    ("b", {"lr": "0.001", "optimizer": "sgd"}, {"accuracy": 0.70, "val_loss": 0.25, "widgets": 4},
     "FINISHED"),
    ("c", {"lr": "0.5", "optimizer": "adam"}, {"accuracy": 0.95, "val_loss": 0.10, "widgets": 1},
     "RUNNING"),
    ("d", {"lr": "0.2", "optimizer": "adam"}, {"accuracy": 0.99, "val_loss": 0.05, "widgets": 2},
     "FAILED"),
)


def make_mlflow_store(folder: Path, *, experiment: str = "sweep") -> str:
    """A SQLite tracking database with :data:`MLFLOW_RUNS` logged through MlflowClient;
    returns its tracking URI. A metric logged twice keeps its last value (``accuracy`` of
    run ``a`` is first logged as 0.5)."""
    from mlflow.tracking import MlflowClient

    logging.getLogger("mlflow").setLevel(logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    uri = f"sqlite:///{folder / 'mlflow.db'}"
    with _unsynced_sqlite():
        _log_mlflow_runs(MlflowClient(tracking_uri=uri), experiment)
    return uri


def _log_mlflow_runs(client, experiment: str) -> None:
    experiment_id = client.create_experiment(experiment)
    for i, (name, params, metrics, status) in enumerate(MLFLOW_RUNS):
        run = client.create_run(experiment_id, run_name=name, start_time=1_700_000_000_000 + i)
        for key, value in params.items():
            client.log_param(run.info.run_id, key, value)
        if i == 0:
            client.log_metric(run.info.run_id, "accuracy", 0.5, step=0)
        for key, value in metrics.items():
            client.log_metric(run.info.run_id, key, value, step=1)
        if status != "RUNNING":
            client.set_terminated(run.info.run_id, status)


def lm_eval_results(model: str, scores: dict, *, with_name: bool = True) -> dict:
    """One results file's content: ``scores`` maps task -> {metric: (value, stderr)}."""
    results, better = {}, {}
    for task, metrics in scores.items():
        entry = {"alias": task}
        for metric, (value, stderr) in metrics.items():
            key, _, filter_name = metric.partition(",")
            entry[f"{key},{filter_name or 'none'}"] = value
            entry[f"{key}_stderr,{filter_name or 'none'}"] = stderr
        results[task] = entry
        better[task] = {m.partition(",")[0]: m.partition(",")[0] not in ("word_perplexity",
                                                                            "bits_per_byte")
                        for m in metrics}
    data = {"results": results, "group_subtasks": {t: [] for t in scores},
            "configs": {t: {"task": t, "num_fewshot": 0} for t in scores},
            "versions": dict.fromkeys(scores, 1.0), "n-shot": dict.fromkeys(scores, 0),
            "higher_is_better": better,
            "n-samples": {t: {"original": 100, "effective": 100} for t in scores},
            "config": {"model": "hf", "model_args": f"pretrained={model},dtype=float32",
                       "batch_size": "auto", "bootstrap_iters": 100000},
            "git_hash": "e16afa2f", "date": 1737419939.49}
    if with_name:
        data.update(model_name=model, model_name_sanitized=model.replace("/", "__"))
    return data


LM_EVAL_MODELS = {
    "EleutherAI/pythia-160m": {
        "hellaswag": {"acc": (0.2872, 0.0045), "acc_norm": (0.3082, 0.0046)},
        "wikitext": {"word_perplexity": (33.41, "N/A")},
        "gsm8k": {"exact_match,strict-match": (0.011, 0.0029)},
    },
    "EleutherAI/pythia-410m": {
        "hellaswag": {"acc": (0.3370, 0.0047), "acc_norm": (0.4055, 0.0049)},
        "wikitext": {"word_perplexity": (20.19, "N/A")},
        "gsm8k": {"exact_match,strict-match": (0.014, 0.0032)},
    },
    "EleutherAI/pythia-1b": {
        "hellaswag": {"acc": (0.3774, 0.0048), "acc_norm": (0.4723, 0.0050)},
        "wikitext": {"word_perplexity": (16.45, "N/A")},
        "gsm8k": {"exact_match,strict-match": (0.023, 0.0041)},
    },
}


def make_lm_eval_folder(folder: Path) -> Path:
    """lm-eval's --output_path layout: one folder per model, results_<date>.json in it; the
    1b model was evaluated twice and the newer file's hellaswag acc (0.3774) replaces 0.30;
    the 410m file has no model_name (older lm-eval), so its name comes from model_args."""
    root = folder / "lm_eval_out"
    for i, (model, scores) in enumerate(LM_EVAL_MODELS.items()):
        sub = root / model.replace("/", "__")
        sub.mkdir(parents=True)
        data = lm_eval_results(model, scores, with_name=i != 1)
        (sub / f"results_2024-05-0{i + 2}T10-00-00.123456.json").write_text(
            json.dumps(data, indent=2), encoding="utf-8")
        (sub / "samples_hellaswag_2024-05-02T10-00-00.123456.jsonl").write_text("{}\n")
    old = lm_eval_results("EleutherAI/pythia-1b", {"hellaswag": {"acc": (0.30, 0.0048)}})
    (root / "EleutherAI__pythia-1b" / "results_2024-05-01T09-00-00.000001.json").write_text(
        json.dumps(old), encoding="utf-8")
    return root
