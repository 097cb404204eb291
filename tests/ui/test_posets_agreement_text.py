"""The "In all of them" list on Posets says each shared relation once, grouped by method, not
one bullet per pair (45 "X and Y are incomparable" bullets on amlb-2022; issue 33, F13)."""

from __future__ import annotations

import itertools
import re
from types import SimpleNamespace as NS

from copa_dash.ui.features.posets.layout import agreement_items, agreement_panel

METHODS = ["AutoGluon", "GAMA", "H2OAutoML", "RandomForest", "TPOT", "TunedRandomForest",
           "autosklearn", "flaml", "lightautoml", "mljarsupervised"]


def _pairs_said(items) -> tuple[set, set]:
    """The (above, incomparable) pairs the lines state, read back from their words."""
    above, apart = set(), set()
    for line in items:
        if m := re.fullmatch(r"All \d+ methods \((.*)\) are incomparable with each other .*", line):
            apart |= {frozenset(p) for p in itertools.combinations(m[1].split(", "), 2)}
        elif " is above " in line:
            a, rest = line.split(" is above ")
            above |= {(a, b) for b in rest.split(", ")}
        else:
            a, rest = line.split(" is incomparable with ")
            others = re.split(r", | and ", rest)
            new = {frozenset((a, b)) for b in others}
            assert not new & apart, f"a pair said twice: {line}"
            apart |= new
    return above, apart


def test_every_pair_incomparable_is_one_line():
    pairs = list(itertools.combinations(METHODS, 2))
    agreed = NS(above=[], incomparable=pairs)
    items = agreement_items(agreed)
    assert len(pairs) == 45 and len(items) == 1
    assert _pairs_said(items) == (set(), {frozenset(p) for p in pairs})


def test_mixed_relations_are_said_once_each_in_at_most_one_line_per_method():
    above = [("AutoGluon", "GAMA"), ("AutoGluon", "TPOT"), ("H2OAutoML", "GAMA")]
    apart = [p for p in itertools.combinations(METHODS, 2)
             if p not in above and (p[1], p[0]) not in above][:30]
    agreed = NS(above=above, incomparable=apart, k=3, tasks=[("a",)], depths=[0.5], undecided=2)
    items = agreement_items(agreed)
    assert len(items) <= 2 * len(METHODS) < len(above) + len(apart)
    said_above, said_apart = _pairs_said(items)
    assert said_above == set(above) and said_apart == {frozenset(p) for p in apart}
    assert "AutoGluon is above GAMA, TPOT" in str(agreement_panel(agreed))


def test_hasse_labels_of_neighbouring_nodes_leave_room_between_them():
    """amlb-2022's "most outlying" diagram: 5 methods on the top level, "lightautoml" next to
    "mljarsupervised", printed over each other at 1024 px (F13). Every pair of labels in the
    same row keeps a character between them at the room the diagram has there."""
    from copa_dash.services.posets import HasseLayout
    from copa_dash.ui.features.posets.figures import HASSE_LABEL_CHARS, hasse_labels
    top = ["AutoGluon", "RandomForest", "flaml", "lightautoml", "mljarsupervised"]
    layout = HasseLayout(methods=(*top, "TunedRandomForest", "TPOT", "H2OAutoML", "GAMA"),
                         level=(0, 0, 0, 0, 0, 1, 1, 1, 2),
                         x=(-2.0, -1.0, 0.0, 1.0, 2.0, -1.0, 0.0, 1.0, 0.0), edges=())
    labels, positions = hasse_labels(layout)
    per_unit = HASSE_LABEL_CHARS / (5 + 0.6)
    for level in (0, 1, 2):
        for row in ("top center", "bottom center"):
            nodes = sorted((layout.x[j], len(labels[j])) for j in range(len(labels))
                           if layout.level[j] == level and positions[j] == row)
            for (xa, la), (xb, lb) in itertools.pairwise(nodes):
                assert (la + lb) / 2 + 1 <= (xb - xa) * per_unit, (labels, positions)
    assert len(set(labels)) == len(labels)
