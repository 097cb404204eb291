"""The vocabulary as data (copa_dash/data/vocabulary.toml, extended by COPA_VOCABULARY), and
the columns that are never goals: checked word by word against what each community means."""

from __future__ import annotations

import pandas as pd
import pytest

from copa_dash.core.errors import InvalidInputError
from copa_dash.data.column_kinds import never_goal, uncertainty_of
from copa_dash.data.proposal import propose
from copa_dash.data.proposal_extras import units_from_siblings
from copa_dash.data.role_guess import direction_guess, guess_direction
from copa_dash.data.vocabulary import ENV_VARIABLE, PACKAGED, vocabulary


def test_the_packaged_vocabulary_is_consistent():
    v = vocabulary()
    assert not v.maximise & v.minimise                 # no word points both ways
    assert not (v.maximise | v.minimise) & (v.uncertainty | v.counts | v.settings)
    assert not v.best_at_one & v.best_at_zero
    assert {"classic_ml", "retrieval_ann", "systems", "llm_eval", "fairness"} <= {
        name for name, _ in v.communities}
    assert PACKAGED.name == "vocabulary.toml" and str(PACKAGED) in v.sources


@pytest.mark.parametrize("name, unit, expected", [
    ("recall@10", None, ("max", "sure")), ("ndcg@10", None, ("max", "sure")),
    ("qps", None, ("max", "sure")), ("index_size", None, ("min", "likely")),
    ("energy_per_token_joules", None, ("min", "sure")), ("Energy", "mJ", ("min", "sure")),
    ("J/query", None, ("min", "likely")), ("energy", "Wh/query", ("min", "sure")),
    ("pass@1", None, ("max", "sure")), ("perplexity", None, ("min", "sure")),
    ("KL divergence", None, ("min", "sure")), ("mean_kld", None, ("min", "sure")),
    ("length_controlled_winrate", None, ("max", "sure")), ("Elo rating", None, ("max", "sure")),
    ("avg_length", None, ("min", "likely")), ("p99 latency (ms)", None, ("min", "sure")),
    ("tokens/s", None, ("max", "likely")), ("text generation t/s @ 128", None, ("max", "likely")),
    ("accuracy/latency", None, (None, "unsure")), ("bits/weight", None, ("min", "likely")), ("Throughput (tokens/s)", None, ("max", "sure")),
    ("Accuracy ↓", None, ("min", "sure")), ("hubness", None, (None, "unsure")),
    ("J per token", None, ("min", "sure")), ("usd_per_query", None, ("min", "sure")),
    ("tokens_per_joule", None, ("max", "sure")), ("Energy (W·s/query)", None, ("min", "sure")),
    ("EM", None, ("max", "sure")), ("Index size (kB)", None, ("min", "likely")),
])
def test_directions_and_how_sure_by_community(name, unit, expected):
    direction, _, sure = direction_guess(name, unit)
    assert (direction, sure) == expected


def test_a_users_vocabulary_file_adds_words(tmp_path, monkeypatch):
    path = tmp_path / "mine.toml"
    path.write_text('[communities.graphs]\nmaximise = ["hubness"]\n'
                    '[never_goals]\ncounts = ["n_edges"]\n')
    assert guess_direction("hubness") is None
    monkeypatch.setenv(ENV_VARIABLE, str(path))
    assert guess_direction("hubness") == "max"
    assert guess_direction("recall") == "max"                  # the package's words stay
    assert never_goal(pd.Series([5, 9], name="n_edges"))[0] == "count"
    assert str(path) in vocabulary().sources
    monkeypatch.delenv(ENV_VARIABLE)
    assert guess_direction("hubness") is None


@pytest.mark.parametrize("text, match", [
    ('[communities.x]\nmaximise = "recall"\n', r"\[communities.x\] maximise must be a list of words"),
    ("[never_goals\n", "not valid TOML"),
])
def test_a_broken_vocabulary_file_is_refused_naming_the_file_and_key(tmp_path, monkeypatch,
                                                                     text, match):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    monkeypatch.setenv(ENV_VARIABLE, str(path))
    with pytest.raises(InvalidInputError, match=match):
        guess_direction("recall")
    monkeypatch.setenv(ENV_VARIABLE, str(tmp_path / "missing.toml"))
    with pytest.raises(InvalidInputError, match="no such file"):
        guess_direction("recall")


@pytest.mark.parametrize("values, name, kind", [
    ([0.1, 0.2, 0.3], "acc_std", "uncertainty"), ([0.1, 0.2, 0.3], "standard_error", "uncertainty"),
    ([1.0, 2.0, 3.0], "ci_low", "uncertainty"), ([1.0, 2.0, 3.0], "acc ± sd", "uncertainty"),
    ([805, 805, 800], "n_total", "count"), ([10, 20, 30], "num_samples", "count"),
    ([10, 100, 10], "k", "setting"), ([4, 8, 16], "nprobe", "setting"),
    ([0.1, 0.5, 0.9], "filter_ratio", "setting"), ([1, 2, 4], "shards", "setting"),
    ([0, 1, 1], "is_moe", "flag"), ([1, 0, 1, 0], "contaminated", "flag"),
    ([0, 1, 0, 1], "passed_audit", "flag"), ([0.0, 0.0, 0.0], "mean_latency", "constant"),
    ([1.7e9, 1.71e9, 1.72e9], "created_at", "timestamp"),
])
def test_columns_that_are_never_goals(values, name, kind):
    assert never_goal(pd.Series(values, name=name))[0] == kind


@pytest.mark.parametrize("values, name", [
    ([0.5, 0.7, 0.6], "recall"), ([0, 1, 1], "accuracy"), ([0.0, 1.0, 0.5], "pass@1"),
    ([100, 250, 80], "num_params"), ([3.0, 2.0, 1.0], "latency_ms"),
])
def test_goals_stay_goals(values, name):
    assert never_goal(pd.Series(values, name=name)) is None


@pytest.mark.parametrize("spread, metric", [
    ("acc_std", "acc"), ("win_rate_stderr", "win_rate"), ("lc_standard_error", "lc_winrate"),
    ("standard_error", "score"), ("f1 ± sd", "f1"),
])
def test_a_spread_is_paired_with_its_metric(spread, metric):
    columns = ["model", "score", spread, "acc", "win_rate", "lc_winrate", "f1"]
    if spread not in columns:
        columns.insert(2, spread)
    candidates = [c for c in columns if c not in ("model", spread)]
    assert uncertainty_of(spread, columns, candidates) == metric


def test_the_proposal_exposes_the_pairing_and_keeps_spreads_out_of_the_goals():
    frame = pd.DataFrame({"model": ["a", "b", "c"], "acc": [0.8, 0.7, 0.9],
                          "acc_std": [0.01, 0.02, 0.01], "elo": [1200, 1250, 1190],
                          "elo_ci_low": [1190, 1240, 1180], "elo_ci_high": [1210, 1260, 1200],
                          "n": [100, 100, 90]})
    p = propose(frame)
    assert [g.name for g in p.of_role("objective")] == ["acc", "elo"]
    assert p.uncertainty == {"acc": ("std", "acc_std"), "elo": ("ci_low", "elo_ci_low")}
    assert p.column("n").role == "metadata"


def test_units_from_a_sibling_column():
    frame = pd.DataFrame({"system": ["a", "b"], "Result": [10.0, 20.0],
                          "Result_Units": ["ms", "ms"], "energy": [1.0, 2.0],
                          "energy_unit": ["mJ/query", "mJ/query"]})
    assert units_from_siblings(frame) == {"Result": "ms", "energy": "mJ/query"}
    p = propose(frame)
    assert (p.column("Result").direction, p.column("Result").unit) == ("min", "ms")
    assert p.column("energy").unit == "mJ/query"


def test_a_wide_table_of_one_family_keeps_two_objectives():
    frame = pd.DataFrame({f"accuracy-g{k:02d}": [0.5 + k / 100, 0.6, 0.7] for k in range(20)})
    frame.insert(0, "model", ["a", "b", "c"])
    p = propose(frame)
    assert [g.name for g in p.of_role("objective")] == ["accuracy-g00", "accuracy-g01"]
    assert sum(g.more for g in p.columns) == 18 and list(p.families) == ["accuracy"]
