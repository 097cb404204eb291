"""copa_tie names the row copa_select picks, on seeded integer data full of ties."""

import numpy as np
import pytest

from copa_dash.core.criteria import copa_select, copa_tie


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("p", [1.0, 2.0, np.inf])
def test_copa_tie_agrees_with_copa_select(seed, p):
    rng = np.random.default_rng(seed)
    u = rng.integers(0, 4, size=(15, 3)) / 4.0
    w = rng.dirichlet(np.ones(3)).round(2)
    eligible = rng.random(15) < 0.8
    eligible[0] = True
    tie = copa_tie(u, w, p=p, eligible=eligible)
    assert tie.selected == copa_select(u, w, p=p, eligible=eligible)
    assert tie.selected in tie.tied and eligible[tie.tied].all()
    assert (tie.rule == "none") == (tie.tied.size == 1)
