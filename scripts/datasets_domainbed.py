"""DomainBed results (LaTeX) -> tidy tables: one per dataset, the averages, and a long table.

Layout decision (domains differ per dataset, so one wide table cannot hold them):
- ``domainbed-<dataset>`` (7 entries): rows = algorithm x model-selection method (42), the
  dataset's test domains are the objectives (accuracy %, max), their trial s.d. metadata.
- ``domainbed-averages``: rows = algorithm x selection, the 7 per-dataset averages are
  the objectives: ranks algorithms across datasets.
- ``domainbed``: long table (algorithm, dataset, selection) with dataset-level criteria
  (average accuracy, worst-domain accuracy, s.d. of the average) for per-task rankings.
Every table has ``selection`` as a metadata / filter column; ids are
``algorithm|dataset|selection`` (``algorithm|selection`` for the averages).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from datasets_latex import parse_cell, parse_latex_tables
from datasets_manifest import BuiltDataset, default_view, manifest_entry, objective

DEFAULT_SELECTION = "training-domain validation set"
# Test-domain codes of the LaTeX headers -> (column name, label).
DOMAINS = {
    "ColoredMNIST": {"+90%": ("plus_90", "+90% colour correlation"),
                     "+80%": ("plus_80", "+80% colour correlation"),
                     "-90%": ("minus_90", "-90% colour correlation")},
    "RotatedMNIST": {d: (f"deg_{d}", f"{d} degrees") for d in ("0", "15", "30", "45", "60", "75")},
    "VLCS": {"C": ("caltech101", "Caltech101"), "L": ("labelme", "LabelMe"),
             "S": ("sun09", "SUN09"), "V": ("voc2007", "VOC2007")},
    "PACS": {"A": ("art", "Art painting"), "C": ("cartoon", "Cartoon"),
             "P": ("photo", "Photo"), "S": ("sketch", "Sketch")},
    "OfficeHome": {"A": ("art", "Art"), "C": ("clipart", "Clipart"),
                   "P": ("product", "Product"), "R": ("real_world", "Real world")},
    "TerraIncognita": {d: (d.lower(), f"Camera location {d}")
                       for d in ("L100", "L38", "L43", "L46")},
    "DomainNet": {"clip": ("clipart", "Clipart"), "info": ("infograph", "Infograph"),
                  "paint": ("painting", "Painting"), "quick": ("quickdraw", "Quickdraw"),
                  "real": ("real", "Real"), "sketch": ("sketch", "Sketch")},
}
SOURCE = ("https://github.com/facebookresearch/DomainBed (domainbed/results/2020_10_06_7df6f06/"
          "results.tex, commit b93c22a1cfc3b2428398272c1a116c8de1f4139e)")
CAVEAT = """Selection is how the hyper-parameters and checkpoint were chosen: training-domain
    validation (the realistic default), leave-one-domain-out cross-validation, or test-domain
    validation (an oracle). Accuracies are means over 3 trials of a sweep of 2020-10-06. Licence: MIT."""


def domainbed_cells(text: str) -> pd.DataFrame:
    """Every cell of results.tex as a tidy row (selection, dataset, algorithm, column, mean, std).

    ``dataset`` is the subsubsection title (``Averages`` for the summary tables); ``column``
    is the header cell (a domain code, a dataset name, or ``Avg``).
    """
    records = []
    for table in parse_latex_tables(text):
        selection = table.section.removeprefix("Model selection:").strip()
        for row in table.rows:
            for column, cell in zip(table.header[1:], row[1:]):
                mean, std = parse_cell(cell)
                records.append((selection, table.subsection, row[0], column, mean, std))
    return pd.DataFrame(records, columns=["selection", "dataset", "algorithm", "column",
                                          "accuracy", "std"])


def dataset_table(cells: pd.DataFrame, dataset: str) -> tuple[pd.DataFrame, list[dict]]:
    """Wide per-dataset table: one objective per test domain, s.d. and average as metadata."""
    part = cells[cells["dataset"] == dataset]
    domains = DOMAINS[dataset]
    unknown = set(part["column"]) - set(domains) - {"Avg"}
    if unknown:
        raise ValueError(f"{dataset}: unexpected domain columns {sorted(unknown)}")
    absent = set(domains) - set(part["column"])
    if absent:
        raise ValueError(f"{dataset}: missing domain columns {sorted(absent)}")
    keys = ["algorithm", "selection"]
    wide = part.pivot(index=keys, columns="column", values="accuracy")
    std = part.pivot(index=keys, columns="column", values="std")
    out = pd.DataFrame(index=wide.index)
    for code, (name, _) in domains.items():
        out[name] = wide[code]
    out["average"] = wide["Avg"]
    for code, (name, _) in domains.items():
        out[f"{name}_std"] = std[code]
    out = out.reset_index()
    out.insert(0, "dataset", dataset)
    out.insert(0, "id", out["algorithm"] + "|" + dataset + "|" + out["selection"])
    objectives = [objective(name, "max", unit="accuracy (%)", label=label)
                  for name, label in domains.values()]
    return _ordered(out, cells), objectives


def averages_table(cells: pd.DataFrame) -> pd.DataFrame:
    """Algorithm x selection with the seven dataset averages (and their s.d.)."""
    part = cells[cells["dataset"] == "Averages"]
    keys = ["algorithm", "selection"]
    wide = part.pivot(index=keys, columns="column", values="accuracy")
    std = part.pivot(index=keys, columns="column", values="std")
    out = pd.DataFrame(index=wide.index)
    for dataset in DOMAINS:
        out[dataset] = wide[dataset]
    out["average"] = wide["Avg"]
    for dataset in DOMAINS:
        out[f"{dataset}_std"] = std[dataset]
    out = out.reset_index()
    out.insert(0, "id", out["algorithm"] + "|" + out["selection"])
    return _ordered(out, cells)


def long_table(cells: pd.DataFrame) -> pd.DataFrame:
    """(algorithm, dataset, selection) rows with average, worst-domain accuracy and s.d."""
    per_domain = cells[~cells["dataset"].eq("Averages") & ~cells["column"].eq("Avg")]
    keys = ["algorithm", "dataset", "selection"]
    worst = per_domain.groupby(keys)["accuracy"].min().rename("worst_domain_accuracy")
    n_domains = per_domain.groupby(keys)["accuracy"].size().rename("n_domains")
    avg = cells[cells["dataset"].eq("Averages") & ~cells["column"].eq("Avg")]
    avg = avg.rename(columns={"column": "ds"}).set_index(["algorithm", "ds", "selection"])
    avg.index.names = keys
    out = pd.concat([avg["accuracy"].rename("avg_accuracy"),
                     avg["std"].rename("avg_accuracy_std"), worst, n_domains], axis=1)
    out = out.reset_index()
    out.insert(0, "id", out["algorithm"] + "|" + out["dataset"] + "|" + out["selection"])
    order = {d: i for i, d in enumerate(DOMAINS)}
    out = out.sort_values(["dataset"], key=lambda s: s.map(order), kind="stable")
    return _ordered(out, cells)


def _ordered(frame: pd.DataFrame, cells: pd.DataFrame) -> pd.DataFrame:
    """Sort rows by selection then algorithm in the order of the LaTeX file."""
    sel = {s: i for i, s in enumerate(dict.fromkeys(cells["selection"]))}
    alg = {a: i for i, a in enumerate(dict.fromkeys(cells["algorithm"]))}
    rank = frame["selection"].map(sel) * 1000 + frame["algorithm"].map(alg)
    return frame.assign(_r=rank.to_numpy()).sort_values("_r", kind="stable") \
        .drop(columns="_r").reset_index(drop=True)


def check_averages(cells: pd.DataFrame) -> float:
    """Largest gap between a dataset table's Avg column and the Averages table (should be 0)."""
    own = cells[~cells["dataset"].eq("Averages") & cells["column"].eq("Avg")]
    own = own.set_index(["algorithm", "dataset", "selection"])["accuracy"]
    avg = cells[cells["dataset"].eq("Averages") & ~cells["column"].eq("Avg")]
    avg = avg.set_index(["algorithm", "column", "selection"])["accuracy"]
    avg.index.names = own.index.names
    return float(np.nanmax(np.abs(own - avg.reindex(own.index))))


def build_domainbed(raw_dir: Path) -> list[BuiltDataset]:
    """The ``domainbed``, ``domainbed-averages`` and seven ``domainbed-<dataset>`` entries."""
    text = (Path(raw_dir) / "domainbed" / "results.tex").read_text(encoding="utf-8")
    cells = domainbed_cells(text)
    if check_averages(cells) > 1e-9:
        raise ValueError("DomainBed: per-dataset Avg columns disagree with the Averages table")
    selection_filter = {"selection": [DEFAULT_SELECTION]}
    built = [_long_entry(cells, selection_filter), _averages_entry(cells, selection_filter)]
    for dataset, domains in DOMAINS.items():
        frame, objectives = dataset_table(cells, dataset)
        names = [o["name"] for o in objectives]
        hardest = frame[names].mean().idxmin()
        entry = manifest_entry(
            name=f"domainbed-{dataset.lower()}",
            title=f"DomainBed {dataset}: per-domain accuracy of 14 algorithms",
            description=f"""DomainBed (Gulrajani & Lopez-Paz, ICLR 2021) on {dataset}: one row per
            domain-generalisation algorithm (ERM, IRM, GroupDRO, Mixup, MLDG, CORAL, MMD, DANN, CDANN,
            MTL, SagNet, ARM, VREx, RSC) and model-selection method. Each objective is the test accuracy
            (%, higher is better) when that domain is held out: {', '.join(
                label for _, label in domains.values())}. The average over domains and the
            s.d. over trials of each domain are metadata; the default view focuses on the hardest
            domain (lowest mean accuracy). {CAVEAT}""",
            source=SOURCE, licence="MIT", id_column="id", objectives=objectives,
            roles={"system": "algorithm", "task": "dataset"},
            metadata=["selection", "average", *[f"{n}_std" for n in names]],
            view=default_view(names, [hardest], filters=selection_filter),
        )
        built.append(BuiltDataset(frame, entry))
    return built


def _long_entry(cells: pd.DataFrame, selection_filter: dict) -> BuiltDataset:
    objectives = [
        objective("avg_accuracy", "max", unit="accuracy (%)", label="Average over test domains"),
        objective("worst_domain_accuracy", "max", unit="accuracy (%)",
                  label="Worst test domain"),
        objective("avg_accuracy_std", "min", unit="accuracy (%)",
                  label="S.d. of the average over trials"),
    ]
    entry = manifest_entry(
        name="domainbed", title="DomainBed: 14 algorithms x 7 datasets x 3 model selections",
        description=f"""Long table of DomainBed (Gulrajani & Lopez-Paz, ICLR 2021): one row per
        (algorithm, dataset, model-selection method). Because each dataset has its own test domains,
        this table keeps dataset-level criteria: the accuracy averaged over the held-out domains and
        the accuracy on the worst domain (higher is better), and the s.d. of the average over 3 trials
        (lower is better, a stability criterion). The system is the algorithm and the task the dataset,
        for per-dataset partial rankings; the default view shows one dataset (PACS). Per-domain
        accuracies are in the domainbed-<dataset> tables, cross-dataset averages in
        domainbed-averages. {CAVEAT}""",
        source=SOURCE, licence="MIT", id_column="id", objectives=objectives,
        roles={"system": "algorithm", "task": "dataset"},
        metadata=["selection", "n_domains"],
        view=default_view(["avg_accuracy", "worst_domain_accuracy"], ["worst_domain_accuracy"],
                          filters={**selection_filter, "dataset": ["PACS"]}),
    )
    return BuiltDataset(long_table(cells), entry)


def _averages_entry(cells: pd.DataFrame, selection_filter: dict) -> BuiltDataset:
    datasets = list(DOMAINS)
    entry = manifest_entry(
        name="domainbed-averages",
        title="DomainBed averages: 14 algorithms ranked across 7 datasets",
        description=f"""DomainBed (Gulrajani & Lopez-Paz, ICLR 2021) summary: one row per algorithm
        and model-selection method, with one objective per dataset (ColoredMNIST, RotatedMNIST, VLCS,
        PACS, OfficeHome, TerraIncognita, DomainNet): the test accuracy averaged over that dataset's
        held-out domains (%, higher is better). The accuracy scales differ a lot between datasets
        (ColoredMNIST ~52%, RotatedMNIST ~98%), which is where COPA's rank normalisation helps. The
        overall average and the s.d. over trials are metadata. {CAVEAT}""",
        source=SOURCE, licence="MIT", id_column="id",
        objectives=[objective(d, "max", unit="accuracy (%)", label=d) for d in datasets],
        roles={"system": "algorithm"},
        metadata=["selection", "average", *[f"{d}_std" for d in datasets]],
        view=default_view(datasets, ["DomainNet"], filters=selection_filter),
    )
    return BuiltDataset(averages_table(cells), entry)
