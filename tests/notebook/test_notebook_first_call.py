"""A notebook's first calls on an empty numba cache answer through the numpy twins, and the
answers are the compiled kernels' (picks, rankings, fronts and hypervolume identical; C within
the selection's tie tolerance, as tests/core/test_twins.py allows)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import copa_dash
from copa_dash.core import jit
from copa_dash.core.criteria import TIE_RTOL
from copa_dash.core.errors import InvalidInputError

REPO = Path(__file__).resolve().parents[2]


def first_calls() -> dict:
    """The calls a notebook makes first, and their answers: run in this process (kernels: the
    suite's conftest sets the foreground mode on its warm cache) and in a fresh process on an
    empty cache (twins), which prints them as one JSON line."""
    rng = np.random.default_rng(7)
    df = pd.DataFrame(rng.integers(0, 6, (80, 3)).astype(float),
                      columns=["acc", "co2", "latency"], index=[f"m{i}" for i in range(80)])
    df.iloc[[3, 17], 1] = np.nan
    objectives = {"acc": "max", "co2": "min", "latency": "min"}
    out = {}
    for p in (2.0, 2.5, 8.0):
        s = copa_dash.select(df, objectives, focus="co2", alpha=0.6, p=p)
        r = copa_dash.rank(df, objectives, focus="co2", alpha=0.6, p=p)
        out[f"select p={p}"] = [s.pick, s.score]
        out[f"rank p={p}"] = [list(r.table.index), list(r.table["criterion"])]
    out["front"] = copa_dash.front(df, objectives).ids
    out["hypervolume"] = float(copa_dash.hypervolume(df, objectives))
    sw = copa_dash.sweep(df, objectives, focus="co2", p=2, alphas=200)
    out["sweep"] = [list(map(str, sw.selected))]
    return out


# a fresh interpreter, as a notebook's first cell: the compile lock is reported taken, so
# that the test spawns no detached compile
TWINS = ("import json\n"
         "from copa_dash.services import kernel_handover\n"
         "kernel_handover._take_lock = lambda: False\n"
         "from tests.notebook.test_notebook_first_call import first_calls\n"
         "print(json.dumps(first_calls()))\n")


def _twins_answers(env: dict) -> tuple[dict, str]:
    done = subprocess.run([sys.executable, "-c", TWINS], capture_output=True, text=True,
                          check=False, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def test_first_calls_use_the_twins_and_equal_the_kernels(tmp_path):
    # kernels: this process (a third interpreter would cost ~3.5 CPU s), JSON's types as the
    # twins' answers come back
    kernels = json.loads(json.dumps(first_calls()))
    assert jit._STATE.mode == "foreground"
    # twins: the notebook's own mode on an empty cache
    env = {**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(tmp_path)}
    env.pop("COPA_JIT_MODE", None)
    cache = tmp_path / "numba"
    twins, stderr = _twins_answers({**env, "NUMBA_CACHE_DIR": str(cache)})
    assert "copa-dash: compiling" not in stderr
    assert not any(cache.rglob("*.nbi"))                       # nothing compiled in-process
    assert twins.keys() == kernels.keys()
    for key, expected in kernels.items():
        got = twins[key]
        if key.startswith("select"):
            assert got[0] == expected[0], key
            assert math.isclose(got[1], expected[1], rel_tol=TIE_RTOL, abs_tol=0.0), key
        elif key.startswith("rank"):
            assert got[0] == expected[0], key
            np.testing.assert_allclose(got[1], expected[1], rtol=TIE_RTOL, atol=0.0)
        else:
            assert got == expected, key


def test_the_notebook_module_chooses_deferred_unless_told(monkeypatch):
    from copa_dash import notebook_compile

    assert copa_dash.select  # the notebook module is loaded
    before = jit._STATE.mode
    try:
        monkeypatch.delenv("COPA_JIT_MODE", raising=False)
        notebook_compile.choose_mode()
        assert jit._STATE.mode == "deferred"
        monkeypatch.setenv("COPA_JIT_MODE", "foreground")
        notebook_compile.choose_mode()
        assert jit._STATE.mode == "foreground"
    finally:
        jit.configure(mode=before)


def test_each_pending_kernel_is_handed_over_once_even_after_an_error(monkeypatch):
    from copa_dash import notebook_compile

    started = []
    frame = pd.DataFrame({"acc": [0.9, 0.8], "co2": [1.0, 0.5]}, index=["a", "b"])
    monkeypatch.setattr(notebook_compile.jit, "pending", lambda: [("m", "k", ("sig",))])
    monkeypatch.setattr("copa_dash.services.kernel_handover.compile_pending_later",
                        lambda pending, say_busy: started.append(list(pending)) or True)
    monkeypatch.setattr(notebook_compile, "_HANDED_OVER", set())
    with pytest.raises(InvalidInputError):
        copa_dash.select(frame, {"acc": "max", "nope": "min"})
    copa_dash.select(frame, {"acc": "max", "co2": "min"})
    assert started == [[("m", "k", ("sig",))]]
