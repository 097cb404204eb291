"""Finding F17: choosing 'exact' on amlb-2022 held a progress bar at 99/100 for ever, while
only a note far below said the exact depth could examine 1.13e+15 sets. The forecast says,
beside the choice and the bar, how many sets and how long, and the approximate bound."""

from __future__ import annotations

import numpy as np

from copa_dash.core.poset_relations import exact_depth_work
from copa_dash.services import posets
from copa_dash.services.catalog import open_dataset


def _auto(name, **kwargs):
    opened = open_dataset(name)
    method, task = posets.long_columns(opened.table)
    criteria = posets.default_criteria(opened.table, opened.default_view)
    data = posets.poset_table(opened.table.frame, method=method, task=task, criteria=criteria)
    return posets.compute_depth_view(data, exact=None, **kwargs)


def _distinct(view) -> int:
    """Distinct posets counted from the tasks' relations (numpy, not the depth's own list)."""
    flat = np.asarray(view.relations).reshape(len(view.relations), -1)
    return len(np.unique(flat, axis=0))


def test_amlb_exact_is_forecast_in_sets_and_years_with_the_approximate_bound():
    view = _auto("amlb-2022")
    assert not view.exact
    work = exact_depth_work(_distinct(view), len(view.methods))
    assert f"{work:.3g}" == "1.13e+15"              # the figure the page's note gave the tester
    text = posets.exact_forecast(view)
    years = work / posets.EXACT_SETS_PER_SECOND / (365.25 * 86400)
    assert "about 10^15 sets (1.13e+15)" in text
    assert f"up to about {years:,.0f} years" in text and "will likely not finish" in text
    assert f"±{view.error_bound:.3g}" in text


def test_no_forecast_when_exact_is_quick_or_done():
    assert posets.exact_forecast(_auto("dmop")) is None        # exact within the budget
    view = _auto("bbob", exact_budget=100_000, tolerance=0.02)  # 524,268 sets at most
    text = posets.exact_forecast(view, budget=100_000)
    assert "(5.24e+05)" in text and "up to about a second, which you can wait for" in text
    assert posets.exact_forecast(view, budget=10**6) is None


def test_the_exact_choice_itself_says_its_cost_before_it_is_clicked():
    """Newcomer's pass (session 18): "exact (can take long)" started at once a job the note
    under it said would run for decades. The choice's own words now carry the cost, computed
    here from the core's work bound; a quick exact keeps the plain words."""
    from copa_dash.ui.features.posets.layout import mode_options

    view = _auto("amlb-2022")
    years = exact_depth_work(_distinct(view), len(view.methods)) / posets.EXACT_SETS_PER_SECOND \
        / (365.25 * 86400)
    exact = next(o for o in mode_options(posets.exact_seconds(view)) if o["value"] == "exact")
    assert exact["label"] == f"exact: up to about {years:,.0f} years here, will likely not finish"
    quick = next(o for o in mode_options(posets.exact_seconds(_auto("dmop")))
                 if o["value"] == "exact")
    assert quick["label"] == "exact (can take long)"
