"""Optimizer benchmarks in long format (method x task x criteria): DeepOBS, DMOP, BBOB.

Tables of the "Partial rankings of optimizers" article (hannahblo/Posets_Optimizers).
Rows are (method, task) pairs; the criteria are compared per task to build partial orders.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
from datasets_manifest import BuiltDataset, default_view, manifest_entry, objective

FOLDER = "optimizer-benchmarks-posets"
SOURCE = "https://github.com/hannahblo/Posets_Optimizers"
NO_LICENCE = "no licence stated"
# DeepOBS test problems (Schneider et al., ICLR 2019, Table 1), P1-P8 in this order.
DEEPOBS_PROBLEMS = {
    "P1": "quadratic_deep", "P2": "mnist_vae", "P3": "fmnist_2c2d", "P4": "cifar10_3c3d",
    "P5": "fmnist_vae", "P6": "cifar100_allcnnc", "P7": "svhn_wrn164", "P8": "tolstoi_char_rnn",
}
DEEPOBS_LOSS_PROBLEMS = ("P1", "P2", "P5")   # Performance = test loss; the others: accuracy
BBOB_FUNCTIONS = (
    "Sphere", "Ellipsoidal", "Rastrigin", "Buche-Rastrigin", "Linear slope",
    "Attractive sector", "Step ellipsoidal", "Rosenbrock", "Rosenbrock rotated",
    "Ellipsoidal (high conditioning)", "Discus", "Bent cigar", "Sharp ridge",
    "Different powers", "Rastrigin (rotated)", "Weierstrass", "Schaffers F7",
    "Schaffers F7 ill-conditioned", "Composite Griewank-Rosenbrock", "Schwefel",
    "Gallagher 101 peaks", "Gallagher 21 peaks", "Katsuura", "Lunacek bi-Rastrigin",
)
BBOB_GROUPS = ((5, "separable"), (9, "low or moderate conditioning"),
               (14, "high conditioning, unimodal"), (19, "multimodal, adequate structure"),
               (24, "multimodal, weak structure"))


def read_semicolon_csv(text: str) -> pd.DataFrame:
    """Read a ``;``-separated, decimal-comma CSV; drops a BOM and all-empty ``;;;`` rows.

    >>> read_semicolon_csv("\\ufeffa;b\\nP1;87,4\\n;\\n").to_dict("list")
    {'a': ['P1'], 'b': [87.4]}
    """
    frame = pd.read_csv(io.StringIO(text.lstrip("\ufeff")), sep=";", decimal=",")
    return frame.dropna(how="all").reset_index(drop=True)


def clean_deepobs(original: pd.DataFrame, paper: pd.DataFrame) -> pd.DataFrame:
    """Split DeepOBS 'Performance' into ``test_loss`` / ``test_accuracy`` and add ``loss_rank``.

    ``original`` holds the test loss for P1, P2, P5 and the test accuracy (0-1) for the other
    problems. ``paper`` (the file the article used) replaces those accuracies by the rank
    (1-3) of the test loss; ``loss_rank`` is that rank, and for P1, P2, P5 the rank of the
    loss itself, so every problem has one lower-is-better performance criterion.
    """
    keys = ["Test Problem", "Optimizer"]
    merged = original.merge(paper, on=keys, suffixes=("", "_paper"), validate="one_to_one")
    is_loss = merged["Test Problem"].isin(DEEPOBS_LOSS_PROBLEMS).to_numpy()
    accuracy = merged["Performance"].where(~is_loss)
    if (accuracy.dropna() > 1).any():
        raise ValueError("DeepOBS: an accuracy above 1; the loss/accuracy split is wrong")
    loss_rank = merged.groupby("Test Problem")["Performance"].rank(method="min")
    out = pd.DataFrame({
        "id": merged["Optimizer"] + "|" + merged["Test Problem"],
        "optimizer": merged["Optimizer"],
        "problem": merged["Test Problem"],
        "test_loss": merged["Performance"].where(is_loss),
        "test_accuracy": accuracy,
        "loss_rank": np.where(is_loss, loss_rank, merged["Performance_paper"]).astype(float),
        "speed": merged["Speed"].astype(float),
    })
    out["problem_name"] = out["problem"].map(DEEPOBS_PROBLEMS)
    out["performance_measure"] = np.where(is_loss, "test loss", "test accuracy")
    return out


def build_deepobs(raw_dir: Path) -> list[BuiltDataset]:
    """The ``deepobs`` entry: 3 optimizers x 8 test problems."""
    folder = Path(raw_dir) / FOLDER
    original = read_semicolon_csv((folder / "deepops_Schneideretal_data.csv")
                                  .read_text(encoding="utf-8"))
    paper = read_semicolon_csv((folder / "deepops_Schneideretal_data_test_loss.csv")
                               .read_text(encoding="utf-8"))
    frame = clean_deepobs(original, paper)
    entry = manifest_entry(
        name="deepobs",
        title="DeepOBS: SGD, Momentum and Adam on 8 deep-learning test problems",
        description="""DeepOBS baseline results (Schneider, Balles & Hennig, ICLR 2019) as used in the
        'partial rankings of optimizers' article: one row per (optimizer, test problem P1-P8). DeepOBS
        reports the final test loss for P1, P2 and P5 and the final test accuracy for the other five,
        so performance is split into test_loss (lower is better, missing where the problem reports
        accuracy) and test_accuracy (higher is better, missing where it reports loss). loss_rank
        (1-3, lower is better) is the article's criterion: the rank of the test loss among the three
        optimizers, read from the DeepOBS figures for the accuracy problems. speed is the number of
        epochs to reach a target (lower is better; 1 for all optimizers on P2 and P5). The system is
        the optimizer and the task the problem. No licence is stated in the source repository.""",
        source=f"{SOURCE} (deepops_Schneideretal_data.csv at commit "
               "c719ac3f3b9f493597460e1770885f09f141dea0; DeepOPS_Analysis/"
               "deepops_Schneideretal_data_test_loss.csv at 4aa577beaeb6a41cb7fc71a991cfa7af972ce006)",
        licence=NO_LICENCE, id_column="id",
        objectives=[objective("test_loss", "min", unit="loss", label="Final test loss"),
                    objective("test_accuracy", "max", unit="fraction", label="Final test accuracy"),
                    objective("loss_rank", "min", unit="rank (1-3)", label="Rank of test loss"),
                    objective("speed", "min", unit="epochs", label="Speed (epochs to target)")],
        roles={"system": "optimizer", "task": "problem"},
        metadata=["problem_name", "performance_measure"],
        view=default_view(["loss_rank", "speed"], ["speed"], filters={"problem": ["P3"]}),
    )
    return [BuiltDataset(frame, entry)]


def clean_dmop(two: pd.DataFrame, stages: pd.DataFrame) -> pd.DataFrame:
    """Join the MIGD/MHVD and the 3-stage MIGD tables of Wu et al. (2023)."""
    keys = ["Test Problem", "Optimizer"]
    merged = two.drop(columns=two.columns[0]).merge(
        stages.drop(columns=stages.columns[0]), on=keys, validate="one_to_one")
    if not np.allclose(merged["MIGD"].astype(float), merged["MIGD_total"].astype(float)):
        raise ValueError("DMOP: MIGD differs between the two files")
    out = pd.DataFrame({
        "id": merged["Optimizer"] + "|" + merged["Test Problem"],
        "algorithm": merged["Optimizer"],
        "problem": merged["Test Problem"],
        "migd": merged["MIGD"].astype(float),
        "migd_stage1": merged["MIGD_1st_stage"].astype(float),
        "migd_stage2": merged["MIGD_2nd_stage"].astype(float),
        "migd_stage3": merged["MIGD_3rd_stage"].astype(float),
        "mhvd": merged["MHVD"].astype(float),
    })
    out["problem_family"] = out["problem"].str.extract(r"^([A-Za-z]+)")[0]
    return out


def build_dmop(raw_dir: Path) -> list[BuiltDataset]:
    """The ``dmop`` entry: 7 dynamic multi-objective EAs x 13 test problems."""
    folder = Path(raw_dir) / FOLDER
    two = pd.read_csv(folder / "DMOP_Wuetal_data_no_std_err.csv")
    stages = pd.read_csv(folder / "3_stages_DMOP_Wuetal_data_no_std_err.csv")
    frame = clean_dmop(two, stages)
    stage_names = ["migd", "migd_stage1", "migd_stage2", "migd_stage3"]
    entry = manifest_entry(
        name="dmop",
        title="Dynamic multi-objective EAs (Wu et al. 2023): 7 algorithms x 13 problems",
        description="""Benchmark of seven dynamic multi-objective evolutionary algorithms (FPS, PPS,
        CKPS, SPPS, HPPCM, DSSP and the proposed DVC) on 13 test problems (FDA1-4, dMOP1-3, F5-F10)
        from Wu et al., Scientific Reports 13:15221 (2023), as used in the 'partial rankings of
        optimizers' article. Criteria, all lower is better: the mean inverted generational distance
        MIGD over the whole run and in each of its three stages (the article's four criteria) and the
        mean hypervolume difference MHVD. The system is the algorithm and the task the problem. No
        licence is stated in the source repository.""",
        source=f"{SOURCE} (Multi_Objective_Evolutionary_Algorithms_Analysis/3_stages_DMOP_Wuetal_"
               "data_no_std_err.csv at 4aa577beaeb6a41cb7fc71a991cfa7af972ce006; "
               "DMOP_Wuetal_data_no_std_err.csv at 93122dc7d9ec22118434cf121a2baa84c0fd1686)",
        licence=NO_LICENCE, id_column="id",
        objectives=[objective("migd", "min", label="MIGD (whole run)"),
                    objective("migd_stage1", "min", label="MIGD, stage 1"),
                    objective("migd_stage2", "min", label="MIGD, stage 2"),
                    objective("migd_stage3", "min", label="MIGD, stage 3"),
                    objective("mhvd", "min", label="MHVD")],
        roles={"system": "algorithm", "task": "problem"},
        metadata=["problem_family"],
        view=default_view(stage_names, ["migd"], filters={"problem": ["FDA1"]}),
    )
    return [BuiltDataset(frame, entry)]


def clean_bbob(ert: pd.DataFrame, fv: pd.DataFrame) -> pd.DataFrame:
    """Join the ERT and fixed-budget tables; an unreached target gives a missing ERT.

    The source writes ``ERT = Inf`` (runs = 0, success rate 0) when no run reached the
    target; infinities are not valid objective values, so ``ert`` is missing there and
    ``success_rate`` = 0 carries the failure.
    """
    keys = ["funcId", "ID"]
    at_budget = fv.loc[:, [*keys, "mean", "median"]].rename(
        columns={"mean": "mean_fv", "median": "median_fv"})
    merged = ert.loc[:, ["DIM", *keys, "ERT", "runs", "ps"]].merge(
        at_budget, on=keys, validate="one_to_one")
    ert_values = merged["ERT"].astype(float)
    func = merged["funcId"].astype(int)
    out = pd.DataFrame({
        "id": merged["ID"] + "|f" + func.map("{:02d}".format),
        "algorithm": merged["ID"],
        "function": "f" + func.map("{:02d}".format),
        "ert": ert_values.where(np.isfinite(ert_values)),
        "success_rate": merged["ps"].astype(float),
        "fv_mean": merged["mean_fv"].astype(float),
        "fv_median": merged["median_fv"].astype(float),
    })
    out["function_name"] = func.map(lambda f: BBOB_FUNCTIONS[f - 1])
    out["function_group"] = func.map(lambda f: next(g for top, g in BBOB_GROUPS if f <= top))
    out["successful_runs"] = merged["runs"].astype(int)
    out["target_reached"] = out["successful_runs"] > 0
    out["dimension"] = merged["DIM"].astype(int)
    return out.sort_values(["algorithm", "function"], kind="stable").reset_index(drop=True)


def build_bbob(raw_dir: Path) -> list[BuiltDataset]:
    """The ``bbob`` entry: 7 optimizers x 24 BBOB functions in dimension 2."""
    folder = Path(raw_dir) / FOLDER
    frame = clean_bbob(pd.read_csv(folder / "ERT_Table_Multi_18_11_23.csv"),
                       pd.read_csv(folder / "FV_Table_Multi_18_11_23.csv"))
    entry = manifest_entry(
        name="bbob",
        title="BBOB-2009 noiseless functions, dimension 2: 7 optimizers x 24 functions",
        description="""IOHanalyzer exports of BBOB results in dimension 2 for seven optimizers
        (FULLNEWUOA, BFGS, NELDERDOERR, G3PCX, PSO, CMA-ES-CSA, iAMALGAM) on the 24 noiseless
        functions, from the 'partial rankings of optimizers' repository. Criteria per (optimizer,
        function): the expected running time ERT to reach precision 2e-4 in function evaluations
        (lower is better), the success rate over 30 runs (higher is better), and the mean and median
        best function-value precision after a budget of 4,361 evaluations (lower is better). Where no
        run reached the target (8 rows) the source's ERT is infinite: here it is missing and the
        success rate is 0. The system is the optimizer and the task the function. No licence is
        stated in the source repository.""",
        source=f"{SOURCE} (ERT_Table_Multi_18_11_23.csv and FV_Table_Multi_18_11_23.csv at commit "
               "dc9b49ffab15e3367a290b0e9bb182de60da13ed)",
        licence=NO_LICENCE, id_column="id",
        objectives=[objective("ert", "min", unit="function evaluations",
                              label="ERT to precision 2e-4"),
                    objective("success_rate", "max", unit="fraction", label="Success rate"),
                    objective("fv_mean", "min", unit="precision", label="Mean precision at budget"),
                    objective("fv_median", "min", unit="precision",
                              label="Median precision at budget")],
        roles={"system": "algorithm", "task": "function"},
        metadata=["function_name", "function_group", "successful_runs", "target_reached",
                  "dimension"],
        view=default_view(["ert", "fv_median"], ["ert"], filters={"function": ["f08"]}),
    )
    return [BuiltDataset(frame, entry)]
