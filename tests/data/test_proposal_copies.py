"""The "(2)", "(3)" a row name gets when a name and a config come back on several rows is
said in words where the rows' naming is explained (issue 33, newcomer finding: rows named
'framework · multiclass (7)' on the config path, the number never explained)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from copa_dash.data.io import build_eval_table
from copa_dash.data.proposal import prepare_frame, propose
from copa_dash.ui.features.upload.proposal_form import id_note


def _configurations(models: list[str]) -> pd.DataFrame:
    """Two batch sizes of each model (a configuration each), listed three times over."""
    n = len(models) * 2
    return pd.DataFrame({"model": [m for m in models for _ in (1, 2)],
                         "batch_size": [1, 2] * len(models),
                         "latency (ms)": np.arange(n, dtype=float),
                         "acc": np.linspace(0.1, 0.9, n)})


def _names(frame: pd.DataFrame):
    proposal = propose(frame)
    roles = proposal.roles()
    return proposal, build_eval_table(prepare_frame(frame, proposal, roles), roles).ids.tolist()


def test_a_repeated_name_and_config_is_explained_with_the_names_the_rows_get():
    frame = pd.concat([_configurations(["a", "b"])] * 3, ignore_index=True)
    proposal, names = _names(frame)
    assert proposal.configurations == ("batch_size",)
    note = id_note(proposal)           # the words under the Id picker on the Upload page
    said = re.search(r"(\d+) names are on more than one row \('(.+?)' on (\d+) rows", note)
    assert said, note
    label = said.group(2)
    # checked against the names the saved table really has
    assert int(said.group(1)) == sum(1 for n in set(names) if f"{n} (2)" in names)
    assert int(said.group(3)) == sum(1 for n in names if n == label or
                                     re.fullmatch(re.escape(label) + r" \(\d+\)", n))
    assert f"'{label} (2)', '{label} (3)', ..." in note and f"{label} (3)" in names
    assert "the number in brackets counts that name's rows in the order of the file" in note


def test_nothing_is_said_when_every_row_has_a_name_of_its_own():
    proposal, names = _names(_configurations(["a", "b", "c"]))
    assert proposal.configurations == ("batch_size",) and len(set(names)) == len(names)
    assert "(2)" not in id_note(proposal) and "in brackets" not in id_note(proposal)


def test_an_id_column_with_repeated_names_and_configs_says_it_too():
    frame = pd.DataFrame({"model": ["x", "y", "a", "a", "a", "z", "w", "v", "u", "t"],
                          "quantization": ["fp16"] * 2 + ["int8", "int8", "fp16"] + ["fp16"] * 5,
                          "acc": np.linspace(0.1, 0.9, 10),
                          "latency (ms)": np.arange(10, dtype=float)})
    proposal, names = _names(frame)
    assert proposal.id == "model" and proposal.configurations == ("quantization",)
    assert names[2:5] == ["a · int8", "a · int8 (2)", "a · fp16"]
    note = id_note(proposal)
    assert "1 name is on more than one row ('a · int8' on 2 rows" in note
    assert "called 'a · int8 (2)': the number in brackets counts" in note
