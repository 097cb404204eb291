"""Schema: roles and views round-trip through JSON, tables never hand out their data."""

import dataclasses
import json
import math

import numpy as np
import pandas as pd
import pytest

from copa_dash.core.errors import InvalidInputError
from copa_dash.data.schema import DefaultView, EvalTable, Objective, Roles


def _json_round_trip(d):
    return json.loads(json.dumps(d, allow_nan=False))


def _roles():
    return Roles(id="model",
                 objectives=(Objective("err", "min", unit="%", label="Error"),
                             Objective("acc", "max")),
                 system="method", seed="seed", task="task", split="split", config="cfg",
                 budget="evals", metadata=("date", "notes"))


def _table_frame():
    return pd.DataFrame({"model": ["a", "b", "c"], "err": [0.3, 0.1, np.nan],
                         "acc": [0.7, 0.9, 0.8], "note": ["x", "y", "z"]})


# ----------------------------------------------------------------------------- Objective
def test_objective_normalises_direction_aliases():
    assert Objective("a", "MAXIMISE").direction == "max"
    assert Objective("a", " lower ").direction == "min"


def test_objective_rejects_unknown_direction():
    with pytest.raises(InvalidInputError,
                       match=r"^direction of objective 'a' must be 'min' or 'max', but it is 'up'$"):
        Objective("a", "up")


def test_objective_rejects_empty_name():
    with pytest.raises(InvalidInputError, match="objective name must be a non-empty column name"):
        Objective("  ", "min")


def test_objective_round_trip_and_display():
    o = Objective("lat", "min", unit="ms", label="Latency")
    assert Objective.from_dict(_json_round_trip(o.to_dict())) == o
    assert o.display == "Latency [ms]"
    assert Objective("lat", "min").display == "lat"


# ----------------------------------------------------------------------------- Roles
def test_roles_round_trip_through_json():
    roles = _roles()
    assert Roles.from_dict(_json_round_trip(roles.to_dict())) == roles
    assert hash(Roles.from_dict(roles.to_dict())) == hash(roles)


def test_roles_from_manifest_shape_with_nested_roles():
    d = {"id": "model", "objectives": [{"name": "err", "direction": "min"}],
         "roles": {"system": "method", "seed": None}, "metadata": ["notes"]}
    roles = Roles.from_dict(d)
    assert (roles.system, roles.seed, roles.metadata) == ("method", None, ("notes",))


def test_roles_from_dict_rejects_unknown_keys():
    with pytest.raises(InvalidInputError, match=r"roles has unknown keys 'sytem'"):
        Roles.from_dict({"id": "m", "objectives": [{"name": "a", "direction": "min"}],
                         "sytem": "x"})


def test_roles_lists_are_stored_as_tuples_and_frozen():
    roles = Roles("m", [Objective("a", "min")], metadata=["x"])
    assert isinstance(roles.objectives, tuple) and roles.metadata == ("x",)
    with pytest.raises(dataclasses.FrozenInstanceError):
        roles.id = "other"


def test_roles_need_an_objective():
    with pytest.raises(InvalidInputError, match="^roles need at least one objective column$"):
        Roles("m", ())


def test_objective_listed_twice():
    with pytest.raises(InvalidInputError, match="^objective 'a' is listed twice$"):
        Roles("m", (Objective("a", "min"), Objective("a", "max")))


def test_id_column_also_an_objective():
    with pytest.raises(InvalidInputError,
                       match="^column 'm' cannot be both the id and an objective column"):
        Roles("m", (Objective("m", "min"),))


def test_single_role_also_an_objective():
    with pytest.raises(InvalidInputError,
                       match="^column 'a' cannot be both the objective and a system column"):
        Roles("m", (Objective("a", "min"),), system="a")


def test_metadata_yields_to_real_roles():
    roles = Roles("m", (Objective("a", "min"),), system="s", metadata=("x", "a", "s", "x", "m"))
    assert roles.metadata == ("x",)
    assert roles.columns == ("m", "a", "s", "x")
    assert roles.role_of("s") == "system" and roles.role_of("zzz") is None


# ----------------------------------------------------------------------------- DefaultView
def test_default_view_infinite_p_is_the_string_inf_in_json():
    view = DefaultView(("a", "b"), ("a",), alpha=0.25, p="inf",
                       filters={"task": ["x", "y"], "size": {"min": 1, "max": None}})
    d = view.to_dict()
    assert d["p"] == "inf"
    back = DefaultView.from_dict(_json_round_trip(d))
    assert back == view and math.isinf(back.p) and back.filters == view.filters


def test_default_view_finite_p_round_trips():
    view = DefaultView(("a",), p=2)
    assert view.to_dict()["p"] == 2.0 and DefaultView.from_dict(view.to_dict()).p == 2.0


def test_default_view_defaults_and_hash():
    view = DefaultView.from_dict({"objectives": ["a", "b"]})
    assert (view.focus, view.alpha, view.p, view.filters) == ((), 0.5, math.inf, {})
    assert hash(view) == hash(DefaultView(("a", "b")))


def test_default_view_copies_filters():
    filters = {"task": ["x"]}
    view = DefaultView(("a",), filters=filters)
    filters["task"].append("y")
    assert view.filters == {"task": ["x"]}
    view.to_dict()["filters"]["task"].append("z")
    assert view.filters == {"task": ["x"]}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"objectives": ()}, "'objectives' of the default view must not be empty"),
    ({"objectives": ("a",), "focus": ("b",)},
     "focus 'b' is not among the view's objectives (a)"),
    ({"objectives": ("a",), "alpha": 1.5}, "'alpha' must be in [0, 1], but it is 1.5"),
    ({"objectives": ("a",), "p": 0.5}, "'p' must be >= 1 (or 'inf'), but it is 0.5"),
    ({"objectives": ("a", "a")}, "'objectives' lists 'a' twice"),
    ({"objectives": ("a",), "filters": {"t": "x"}},
     "the filter on 't' must be a list of allowed values or {'min': x, 'max': y}, not 'x'"),
    ({"objectives": ("a",), "filters": {"t": {"low": 1}}},
     "the range filter on 't' has unknown keys 'low'; allowed keys: min, max"),
])
def test_default_view_rejects(kwargs, message):
    with pytest.raises(InvalidInputError) as info:
        DefaultView(**kwargs)
    assert str(info.value) == message


def test_default_view_check_against_roles():
    roles = Roles("m", (Objective("a", "min"),))
    DefaultView(("a",)).check_against(roles)
    with pytest.raises(InvalidInputError, match="names 'b', which is not an objective"):
        DefaultView(("a", "b")).check_against(roles)


# ----------------------------------------------------------------------------- EvalTable
def _table():
    roles = Roles("model", (Objective("err", "min"), Objective("acc", "max")),
                  metadata=("note",))
    return EvalTable(_table_frame(), roles)


def test_eval_table_properties():
    table = _table()
    assert table.ids.tolist() == ["a", "b", "c"] and table.ids.dtype.kind == "U"
    assert table.objective_names == ("err", "acc")
    assert table.directions == ("min", "max")
    assert len(table) == table.n_rows == 3
    assert table.missing_counts() == {"err": 1, "acc": 0}
    assert table.complete_mask().tolist() == [True, True, False]


def test_matrix_is_a_contiguous_float64_copy():
    table = _table()
    m = table.matrix()
    assert m.dtype == np.float64 and m.flags.c_contiguous and m.flags.writeable
    np.testing.assert_array_equal(m, [[0.3, 0.7], [0.1, 0.9], [np.nan, 0.8]])
    m[:] = 0
    assert table.matrix()[0, 0] == 0.3
    np.testing.assert_array_equal(table.matrix(["acc"]), [[0.7], [0.9], [0.8]])
    np.testing.assert_array_equal(table.matrix(("acc", "err"))[1], [0.9, 0.1])


def test_matrix_rejects_unknown_name():
    with pytest.raises(InvalidInputError, match="^'note' is not an objective; objectives: err, acc$"):
        _table().matrix(["note"])


def test_callers_cannot_mutate_the_table():
    original = _table_frame()
    table = EvalTable(original, _table().roles)
    frame = table.frame
    frame.loc[0, "err"] = 99.0
    frame["extra"] = 1
    original.loc[1, "acc"] = -1.0
    assert table.matrix()[0, 0] == 0.3 and table.matrix()[1, 1] == 0.9
    assert "extra" not in table.frame.columns
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.roles = None


def test_eval_table_does_not_copy_the_data():
    original = _table_frame()
    table = EvalTable(original, _table().roles)
    assert np.shares_memory(table.frame["err"].to_numpy(), original["err"].to_numpy())


@pytest.mark.parametrize(("frame", "message"), [
    (pd.DataFrame({"model": ["a", "b"], "err": [1.0, 2.0], "note": "x"}),
     "column 'acc' named in the roles is not in the table"),
    (pd.DataFrame({"model": ["a", "b"], "err": [1.0, 2.0]}),
     "columns 'acc', 'note' named in the roles are not in the table"),
    (pd.DataFrame({"model": ["a"], "err": [1.0], "acc": [1.0], "note": ["x"]}),
     "the table needs at least 2 rows, but it has 1"),
    (pd.DataFrame({"model": ["a", "b"], "err": ["1", "2"], "acc": [1.0, 2.0], "note": "x"}),
     ("objective 'err' must be a numeric column, but its dtype is str; build the table with "
     "build_eval_table")),
    (pd.DataFrame({"model": ["a", "a"], "err": [1.0, 2.0], "acc": [1.0, 2.0], "note": "x"}),
     ("id column 'model' must be present and unique in every row; build the table with "
     "build_eval_table to see which rows")),
])
def test_eval_table_checks_its_invariants(frame, message):
    with pytest.raises(InvalidInputError) as info:
        EvalTable(frame, _table().roles)
    assert str(info.value) == message
