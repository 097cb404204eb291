"""Issue 33 item 4 (tester 18, finding 4): an upload's first view puts a quality against a
cost, on the page and in the CLI alike. The raw LLM-Perf export opened on Decode (tokens/s)
against Memory (MB), focus Decode: a maximised throughput was the only "quality" besides
'Open LLM Score (%)' and came first. A rate (tokens/s, tokens/kWh) is the resource side of
the trade-off (services.default_view.is_rate), so the view leads with the score; ImageNet
and the fairness upload keep their trade-offs."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from scipy.stats import spearmanr

from copa_dash.cli import main
from copa_dash.config import Settings
from copa_dash.data.schema import Objective
from copa_dash.services import default_view
from tests.uploads_opened import uploaded_first_state

MESSY = Path(__file__).parents[1] / "data" / "messy"   # llm_perf_lb.csv: see its README row


def _page_view(settings, path: Path):
    """(x, y, focus) of the Explore page when an upload of ``path`` first opens."""
    opened, state = uploaded_first_state(settings, path)
    return (state.x, state.y, tuple(state.focus)), opened.table


def _cli_view(capsys, path: Path):
    assert main(["select", str(path), "--json"]) == 0
    view = json.loads(capsys.readouterr().out)["view"]
    return (view["x"], view["y"], tuple(view["focus"])), view["why"]


def test_llm_perf_opens_on_the_score_against_the_least_correlated_rate_or_cost(tmp_path,
                                                                              capsys):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    page, table = _page_view(settings, MESSY / "llm_perf_lb.csv")
    cli, why = _cli_view(capsys, MESSY / "llm_perf_lb.csv")
    assert page == cli
    x, y, focus = page
    assert x == "Open LLM Score (%)" and focus == (x,)
    resources = ["Prefill (s)", "Decode (tokens/s)", "Memory (MB)", "Energy (tokens/kWh)"]
    assert set(resources) < set(table.roles.objective_names)
    # the least correlated with the score, by scipy on the rows complete in all
    frame = table.frame[[x, *resources]].apply(pd.to_numeric, errors="coerce").dropna()
    rho = {n: abs(spearmanr(frame[x], frame[n])[0]) for n in resources}
    assert y == min(rho, key=rho.get)
    assert why.startswith("a quality against a")


@pytest.mark.parametrize("name, expected", [
    ("imagenet_eu.csv", ("Acc@1", "Params", ("Acc@1",))),
    ("fairness_adult_sex.csv", ("accuracy", "|1 - CV|", ("accuracy",)))])
def test_imagenet_and_fairness_keep_their_trade_off(tmp_path, capsys, name, expected):
    settings = Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache")
    page, _ = _page_view(settings, MESSY / name)
    cli, _ = _cli_view(capsys, MESSY / name)
    assert page == cli == expected


@pytest.mark.parametrize("name, direction, unit, rate", [
    ("Decode (tokens/s)", "max", "tokens/s", True),
    ("Energy (tokens/kWh)", "max", "tokens/kWh", True),
    ("requests per second", "max", None, True),
    ("Throughput", "max", None, True),
    ("Open LLM Score (%)", "max", "%", False), ("accuracy", "max", None, False),
    ("Prefill (s)", "min", "s", False), ("Decode latency (s/token)", "min", "s/token", False)])
def test_what_reads_as_a_rate(name, direction, unit, rate):
    assert default_view.is_rate(Objective(name, direction, unit)) is rate
