"""Tables whose permutation test takes long enough to watch and cancel (the browser and
scale-out tests of background jobs).

The bundled fairness table has 10 runs per system: 1,000,000 permutations (the most a page
may ask) take about a second compiled on an idle core, so a job can end before its progress
shows or a cancel lands. Here each side has ``n_runs`` runs, and each permutation recomputes
two fronts of that many points: the same count takes tens of seconds.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

OBJECTIVES = ("accuracy", "di_distance")


def two_systems_many_runs(n_runs: int = 300, seed: int = 1,
                          systems=("SVM", "Feldman-SVM")) -> pd.DataFrame:
    """``id, algorithm, run, accuracy, di_distance``: ``n_runs`` runs of each system, on a
    trade-off curve with noise (so every run's point matters to its side's front)."""
    rng = np.random.default_rng(seed)
    rows = []
    for shift, system in zip((0.0, 0.01), systems):
        t = rng.random(n_runs)
        accuracy = 0.7 + 0.2 * t + shift + rng.normal(0, 0.01, n_runs)
        distance = 0.1 + 0.5 * t ** 2 + rng.normal(0, 0.01, n_runs)
        rows += [(f"{system}|{k}", system, k, float(a), float(d))
                 for k, (a, d) in enumerate(zip(accuracy, distance))]
    return pd.DataFrame(rows, columns=["id", "algorithm", "run", *OBJECTIVES])


def save_many_runs(settings) -> str:
    """:func:`two_systems_many_runs` stored in the instance's dataset store; its id."""
    from copa_dash.data.schema import Objective, Roles
    from copa_dash.services.store import open_store

    roles = Roles(id="id", objectives=(Objective("accuracy", "max"),
                                       Objective("di_distance", "min")),
                  system="algorithm", seed="run")
    # through the instance's own store handle (the one its pages read through, kept per
    # process): a second DatasetStore on the same folder wrote a record that a handle opened
    # earlier in the process did not list ("no dataset has the id" on CI, session 14)
    return open_store(settings).save(two_systems_many_runs(), roles,
                                     name="two systems, many runs").id
