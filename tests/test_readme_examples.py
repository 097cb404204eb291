"""The README's command-line and notebook examples run and print what the README shows; the
notebook example's numbers are also worked out by hand here (COPA's u and criterion from
their definitions in docs/methods.md)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(section: str) -> list[tuple[str, str]]:
    """The fenced blocks (language, text) of the README section titled ``section``."""
    body = README.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```(\w*)\n(.*?)```", body, re.DOTALL)


def test_readme_opens_with_the_two_commands_and_stays_short():
    assert README.splitlines()[3].startswith("make run ")
    assert README.splitlines()[4].startswith("make test ")
    assert len(README.splitlines()) < 250


def test_the_command_line_example_prints_what_the_readme_shows():
    (_, command), (_, shown) = _blocks("One command-line example")[:2]
    args = command.split()
    assert args[0] == "copa-dash"
    done = subprocess.run([sys.executable, "-m", "copa_dash.cli", *args[1:]], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    printed = [line.rstrip() for line in done.stdout.strip().splitlines()]
    assert printed == [line.rstrip() for line in shown.strip().splitlines()]


def test_the_notebook_example_returns_what_the_readme_shows_and_copa_by_hand_agrees():
    (_, code), (_, shown) = _blocks("One notebook example")[:2]
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102 (the README's own code)
    r, df = namespace["r"], namespace["df"]
    assert r.pick == "b"                                       # as the comment says
    assert re.search(r"r\.pick\s+# 'b'", code)
    front = namespace["copa_dash"].front(df, namespace["objectives"], id="model")
    assert front.ids == ["a", "b", "c"]
    assert re.search(r"\.ids\s+# \['a', 'b', 'c'\]", code)

    table = r.table[["rank", "criterion", "top%_accuracy", "top%_co2_kg"]]
    rows = [line.split() for line in shown.strip().splitlines()[2:]]
    assert [row[0] for row in rows] == list(table.index)
    assert np.allclose(np.array([[float(v) for v in row[1:]] for row in rows]),
                       table.to_numpy(dtype=float))

    # by hand: u = share of models strictly better; w = (0.5, 0.5); p = inf: C = max(w u)
    acc, co2 = df["accuracy"].to_numpy(), df["co2_kg"].to_numpy()
    u_acc = np.array([(acc > a).mean() for a in acc])
    u_co2 = np.array([(co2 < c).mean() for c in co2])
    criterion = np.maximum(0.5 * u_acc, 0.5 * u_co2)
    by_hand = dict(zip(df["model"], criterion, strict=True))
    assert np.allclose([by_hand[i] for i in table.index], table["criterion"])
    assert min(by_hand, key=by_hand.get) == "b"
