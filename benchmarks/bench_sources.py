"""Time the sources against each tool's own export, interleaved in one process.

Ours: ``read_optuna`` / ``read_mlflow`` (copa_dash.data.sources). Peers: what a user writes
today to get the same table - ``optuna.load_study(...).trials_dataframe()`` kept to the
completed trials, and ``mlflow.search_runs(...)`` kept to the finished runs. Both read the
same SQLite file made here (a study of ``--trials`` trials, 10% pruned; an experiment of
``--runs`` runs with 3 metrics and 3 params, 10% failed). The objective values of ours and the
peer's are compared before a ratio is printed.

Run: ``python benchmarks/bench_sources.py [--trials 2000] [--runs 300]``.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._harness import interleaved, load_line, markdown, ratio_cell
from copa_dash.data.sources.mlflow import read_mlflow
from copa_dash.data.sources.optuna import read_optuna


def make_study(folder: Path, n: int) -> str:
    import optuna
    from optuna.distributions import CategoricalDistribution, FloatDistribution
    from optuna.trial import TrialState, create_trial

    optuna.logging.set_verbosity(optuna.logging.ERROR)
    url = f"sqlite:///{folder / 'study.db'}"
    study = optuna.create_study(study_name="bench", storage=url,
                                directions=["maximize", "minimize"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        study.set_metric_names(["accuracy", "latency"])
    rng = np.random.default_rng(0)
    dists = {"lr": FloatDistribution(1e-5, 1.0, log=True),
             "optimizer": CategoricalDistribution(["adam", "sgd", "lion"])}
    trials = []
    for i in range(n):
        params = {"lr": float(10 ** rng.uniform(-5, 0)),
                  "optimizer": ["adam", "sgd", "lion"][i % 3]}
        pruned = i % 10 == 9
        trials.append(create_trial(params=params, distributions=dists,
                                   state=TrialState.PRUNED if pruned else TrialState.COMPLETE,
                                   values=None if pruned else [float(rng.random()),
                                                               float(rng.random() * 100)]))
    study.add_trials(trials)
    return url


def make_experiment(folder: Path, n: int) -> str:
    from mlflow.entities import Metric, Param
    from mlflow.tracking import MlflowClient

    logging.getLogger("alembic").setLevel(logging.WARNING)
    uri = f"sqlite:///{folder / 'mlflow.db'}"
    client = MlflowClient(tracking_uri=uri)
    experiment = client.create_experiment("bench")
    rng = np.random.default_rng(0)
    for i in range(n):
        run = client.create_run(experiment, run_name=f"run-{i}", start_time=1_700_000_000_000 + i)
        metrics = [Metric(k, float(rng.random()), 0, 0) for k in ("accuracy", "val_loss", "f1")]
        params = [Param(k, str(v)) for k, v in (("lr", rng.random()), ("depth", i % 7),
                                                 ("optimizer", "adam"))]
        client.log_batch(run.info.run_id, metrics=metrics, params=params)
        client.set_terminated(run.info.run_id, "FAILED" if i % 10 == 9 else "FINISHED")
    return uri


def optuna_peer(url: str):
    import optuna

    frame = optuna.load_study(study_name="bench", storage=url).trials_dataframe()
    return frame[frame["state"] == "COMPLETE"]


def mlflow_peer(uri: str):
    import mlflow

    mlflow.set_tracking_uri(uri)
    frame = mlflow.search_runs(experiment_names=["bench"],
                               order_by=["attributes.start_time ASC"])
    return frame[frame["status"] == "FINISHED"]


def same(ours, peer, pairs) -> str | None:
    for mine, theirs in pairs:
        if not np.array_equal(ours[mine].to_numpy(float), peer[theirs].to_numpy(float)):
            return f"{mine} differs from the peer's {theirs}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    print(load_line())
    folder = Path(tempfile.mkdtemp(prefix="copa-bench-sources-"))
    url, uri = make_study(folder, args.trials), make_experiment(folder, args.runs)
    rows = []
    cases = [
        (f"Optuna study, {args.trials:,} trials", "trials_dataframe()",
         lambda: read_optuna(url, "bench").frame, lambda: optuna_peer(url),
         [("accuracy", "values_accuracy"), ("latency", "values_latency")]),
        (f"MLflow experiment, {args.runs:,} runs", "mlflow.search_runs()",
         lambda: read_mlflow(uri, "bench").frame, lambda: mlflow_peer(uri),
         [("accuracy", "metrics.accuracy"), ("val_loss", "metrics.val_loss")]),
    ]
    for name, peer_name, ours, peer, pairs in cases:
        timings, results = interleaved({"ours": ours, peer_name: peer}, repeats=5)
        check = same(results["ours"], results[peer_name], pairs)
        rows.append([name, timings["ours"].cell(), timings[peer_name].cell(),
                     ratio_cell(timings, "ours", {peer_name: check})])
    print(markdown(["table", "ours: CPU ms (spread) / wall ms", "peer: CPU ms / wall ms",
                    "ours / peer (CPU)"], rows))
    print(load_line())


if __name__ == "__main__":
    main()
