"""`make run` installs through the lock and is not silent while it installs (issue 33: 99 s of
nothing on a new machine)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_says_what_it_installs_and_how_long_before_pip_shows_its_progress():
    # -n prints the recipe without running it; the echo comes first, then pip without -q
    # under `make test` the outer make's MAKEFLAGS/MAKELEVEL would add "Entering/Leaving
    # directory" lines: run it as a user's shell would
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    recipe = subprocess.run(["make", "--no-print-directory", "-n", "run"], cwd=ROOT, env=env,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    install = next(i for i, line in enumerate(recipe) if "install_locked.py" in line)
    said = " ".join(recipe[:install])
    assert "installing copa-dash" in said and "about 1-2 minutes" in said
    # through the lock, and pip (where uv cannot install) shows its progress
    assert "-c constraints.txt" in recipe[install] and "--progress" in recipe[install]
    assert "copa_dash serve" in recipe[-1]
