"""The warm-up steps reach the kernels the pages use (services/warmup.py): a kernel left out
is compiled in place by the first request that needs it (16 s for the hypervolume of many
objectives, which Systems shows on DecodingTrust)."""

from __future__ import annotations

from copa_dash.core import hypervolume as hv
from copa_dash.services import warmup


def test_the_many_objectives_step_runs_wfg_qhv_and_the_monte_carlo_count(monkeypatch):
    methods, counted = [], []
    exact_front, count = hv._exact_front, hv._kernels.count_dominated_samples

    def spy_exact(front, r):
        value, method = exact_front(front, r)
        methods.append(method)
        return value, method

    monkeypatch.setattr(hv, "_exact_front", spy_exact)
    monkeypatch.setattr(hv._kernels, "count_dominated_samples",
                        lambda *a: counted.append(a[0].shape[1]) or count(*a))
    steps = dict(warmup.WARM_UP_STEPS)
    steps["hypervolume kernels for many objectives"]()
    assert {"wfg", "qhv"} <= set(methods)
    assert counted == [8]


def test_every_step_has_a_label_and_the_explorer_goes_first():
    labels = [label for label, _ in warmup.WARM_UP_STEPS]
    assert len(set(labels)) == len(labels)
    assert labels[0] == "explorer kernels"
