"""A pick tied with other rows is said, with the rule that chose it: the tied set and the rule
are checked against a brute-force computation of METHODS.md's selection on constructed ties."""

import math
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from copa_dash.data.filters import RowFilter
from copa_dash.data.io import build_eval_table
from copa_dash.data.schema import Objective, Roles
from copa_dash.reports.facts import opened_table
from copa_dash.services import explorer, pick_tie, selection
from copa_dash.ui.features.explore import panels

RTOL = 1e-12      # the selection's tie tolerance (core/_kernels/criteria.py: TIE_RTOL)


def _opened(values, directions):
    frame = pd.DataFrame(values, columns=[f"o{k}" for k in range(len(directions))])
    frame.insert(0, "model", [f"m{i}" for i in range(len(values))])
    roles = Roles(id="model", objectives=tuple(Objective(f"o{k}", d)
                                                for k, d in enumerate(directions)))
    return opened_table(build_eval_table(frame, roles), name="ties")


def _brute(values, directions, weights, p):
    """METHODS.md written out: u by counting, C by its formula, the bands by the tolerance."""
    y = np.asarray(values, dtype=float) * np.where(np.array(directions) == "max", -1, 1)
    n, k = y.shape
    u = [[sum(y[j, c] < y[i, c] for j in range(n)) / n for c in range(k)] for i in range(n)]

    def crit(row, q):
        terms = [abs(w * x) for w, x in zip(weights, row)]
        return max(terms) if math.isinf(q) else sum(t ** q for t in terms) ** (1 / q)

    def band(rows, f):
        values = {i: f(i) for i in rows}
        low = min(values.values())
        return [i for i in rows if values[i] <= low * (1 + RTOL)]

    tied = band(range(n), lambda i: crit(u[i], p))
    if len(tied) == 1:
        return tied, tied[0], "none"
    left = band(tied, lambda i: crit(u[i], 8.0))
    if len(left) == 1:
        return tied, left[0], "p8"
    left = band(left, lambda i: sum(u[i]))
    return tied, left[0], "sum" if len(left) == 1 else "order"


CASES = [
    # rows 0, 1, 2 tie at p = inf; 0 and 2 at p = 8 too and in their sum of u: table order
    ([[2, 0], [2, 2], [0, 2], [3, 3]], ("min", "min"), math.inf, 0.5),
    # rows 0 and 1 tie at p = inf; p = 8 prefers 1 (table order would have taken 0)
    ([[1, 2], [0, 2], [3, 1], [2, 0], [1, 3]], ("min", "min"), math.inf, 0.5),
    # w = (0.75, 0.25): u (0, 0.75) and (0.25, 0) weigh the same at every p; the smaller sum
    # of u takes row 1 (table order would have taken 0)
    ([[0, 3], [1, 0], [2, 1], [3, 2]], ("min", "min"), math.inf, 0.75),
    # two identical rows at the top (p = 2): table order among equals
    ([[5, 1], [4, 2], [5, 1], [1, 5]], ("max", "min"), 2.0, 0.5),
    # no tie
    ([[0, 0], [1, 1], [2, 2]], ("min", "min"), math.inf, 0.5),
]


def _weights(k, alpha):
    """The focus (the first objective) gets alpha, the others share 1 - alpha."""
    return [alpha] + [(1 - alpha) / (k - 1)] * (k - 1)


def _text(html):
    parts = []
    parser = HTMLParser()
    parser.handle_data = parts.append
    parser.feed(html)
    return "".join(parts)


@pytest.mark.parametrize("values, directions, p, alpha", CASES + [
    (np.random.default_rng(seed).integers(0, 3, size=(12, 3)).tolist(), ("min", "max", "min"),
     p, 0.5) for seed in range(6) for p in (math.inf, 1.0)])
def test_the_tied_rows_and_the_rule_are_the_brute_force_ones(values, directions, p, alpha):
    opened = _opened(values, directions)
    names = tuple(f"o{k}" for k in range(len(directions)))
    prefs = selection.Preferences(objectives=names, directions=directions, focus=(names[0],),
                                  alpha=alpha, p=p)
    result = explorer.explore(opened, prefs, RowFilter())
    tied, chosen, rule = _brute(values, directions, _weights(len(names), alpha), p)
    assert result.pick == chosen
    tie = pick_tie.pick_tie(result.problem, result.scores, result.pick)
    if rule == "none":
        assert tie is None
        assert "Tied" not in _text(panels.pick_card_text(result)[1])
        return
    assert tie.rule == rule
    assert list(tie.positions) == [i for i in tied if i != chosen]
    assert tie.others == tuple(f"m{i}" for i in tied if i != chosen)
    card = _text(panels.pick_card_text(result)[1])
    more = len(tied) - 2
    said = f"Tied with {tie.others[0]}" + (f" and {more} other" if more else " on")
    assert said in card
    assert pick_tie.RULE_WORDS[rule] in card


def test_the_cases_cover_every_rule():
    rules = {_brute(v, d, _weights(len(d), alpha), p)[2] for v, d, p, alpha in CASES}
    assert rules == {"none", "p8", "sum", "order"}


def test_the_decision_report_says_the_tie_and_the_rule():
    from copa_dash.reports import DecisionView, decision_facts, decision_html

    values, directions, p, alpha = CASES[0]      # rows 0, 1, 2 tied; table order picks 0
    opened = _opened(values, directions)
    view = DecisionView("ties", objectives=(("o0", "min"), ("o1", "min")), focus=("o0",),
                        alpha=alpha, p=p)
    facts = decision_facts(opened, view)
    tied, chosen, rule = _brute(values, directions, _weights(2, alpha), p)
    assert facts.pick_id == f"m{chosen}" and facts.tie.rule == rule == "order"
    text = " ".join(_text(decision_html(facts)).split())
    assert f"Tied with m{tied[1]} and 1 other on the criterion" in text
    assert "The tied rows: m1, m2." in text.replace(" ,", ",").replace(" .", ".")
    assert " ".join(pick_tie.RULE_WORDS["order"].split()) in text
