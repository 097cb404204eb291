"""The permutation test of a Pareto improvement in one plain sentence.

:func:`verdict` reads a :class:`~copa_dash.core.significance.ParetoImprovementTest` and says
which side's front is better in hypervolume at the significance level, or that the
difference is within seed noise, and what would make the test more telling. The level is
:data:`SIGNIFICANCE_LEVEL`, 5%: METHODS.md does not fix one, and 5% is the level the
app's power estimate counts rejections at and the level of the paper
(papers/pareto-improvement-significance.md). The test rejects when ``p <= alpha``, as the
power estimate does.
"""

from __future__ import annotations

import math

from ..core.errors import InvalidInputError
from ..core.significance import ParetoImprovementTest

__all__ = ["SIGNIFICANCE_LEVEL", "verdict"]

SIGNIFICANCE_LEVEL = 0.05


def _percent(alpha: float) -> str:
    return f"{alpha * 100:g}%"


def _p_text(p: float, alpha: float) -> str:
    """``p`` in 2 significant digits, more when 2 would put it on the other side of alpha
    (0.0502 must not read as 0.05 beside "not significant")."""
    for digits in (2, 3, 4, 6):
        text = f"{p:.{digits}g}"
        if (float(text) <= alpha) == (p <= alpha):
            return text
    return repr(p)


def _names(systems) -> str:
    return ", ".join(map(str, systems))


_BORDERLINE = (" p is too close to {alpha:g} to be sure with this many permutations: run more "
               "to settle it.")


def _borderline(test: ParetoImprovementTest, alpha: float) -> bool:
    """Is alpha within two Monte Carlo standard errors of p?"""
    p, b = test.p_value, test.n_permutations
    return abs(p - alpha) <= 2 * math.sqrt(p * (1 - p) / b)


def _advice(test: ParetoImprovementTest, alpha: float) -> str:
    """What would make a non-significant test more telling, from its own numbers."""
    n0, n1 = test.n_runs
    # the observed split (and, with equal sides, its mirror, whose Delta is -Delta) always
    # counts: the p-value estimates a share of splits that is at least this
    floor = (2 if n0 == n1 else 1) / test.n_partitions
    if floor > alpha:
        return (f" With {n0} and {n1} runs the sides split only {test.n_partitions:,} ways, "
                f"so p cannot go much below {floor:.2g} whatever the data: add seeds.")
    if 1 / (test.n_permutations + 1) > alpha:
        return (f" With {test.n_permutations:,} permutations p cannot fall below "
                f"{1 / (test.n_permutations + 1):.2g}: run more permutations.")
    if _borderline(test, alpha):
        return _BORDERLINE.format(alpha=alpha)
    return (" This does not show the fronts are equal: more seeds per side would detect "
            "a smaller difference.")


def verdict(test: ParetoImprovementTest, /, baseline, candidate, *,
            alpha: float = SIGNIFICANCE_LEVEL) -> str:
    """The test's result in words a non-statistician can act on.

    Parameters
    ----------
    test : ParetoImprovementTest
        The result of the permutation test.
    baseline, candidate : sequence of str
        The systems on each side, named in the sentence.
    alpha : float
        Significance level in (0, 1); the test is significant when ``p <= alpha``.

    Returns
    -------
    str
        One sentence, sometimes followed by a second with advice: which front is better
        in hypervolume when significant (the sign of Delta), otherwise that the difference
        is within seed noise, with p and the number of permutations. Equal hypervolumes
        (Delta = 0) say so. The advice names what limits the test: too few runs for p to
        reach alpha (``2 / C(n0 + n1, n1)`` with equal sides, else ``1 / C``), too few
        permutations (``1 / (B + 1) > alpha``), or p within two Monte Carlo standard
        errors ``sqrt(p (1 - p) / B)`` of alpha. A cancelled test says its verdict rests
        on the permutations done.

    Raises
    ------
    InvalidInputError
        If ``alpha`` is not in (0, 1).

    Examples
    --------
    >>> from copa_dash.core.significance import pareto_improvement_test
    >>> test = pareto_improvement_test([[3, 3], [3.2, 2.9], [1, 1], [1.1, 0.9]], "min",
    ...     run_index=[0, 1, 2, 3], run_side=[0, 0, 1, 1], n_permutations=999, rng=1)
    >>> print(verdict(test, ["A"], ["B"]))  # doctest: +NORMALIZE_WHITESPACE
    The difference is within seed noise (p = 0.34, 999 permutations): at the 5% level
    neither the candidate's front (B) nor the baseline's (A) is significantly better in
    hypervolume. With 2 and 2 runs the sides split only 6 ways, so p cannot go much below
    0.33 whatever the data: add seeds.
    """
    if not 0 < alpha < 1:
        raise InvalidInputError(f"the significance level must be in (0, 1), not {alpha!r}")
    b = test.n_permutations
    if b == 0:
        return "No verdict: the test was cancelled before any permutation ran."
    evidence = (f"p = {_p_text(test.p_value, alpha)}, {b:,} permutation"
                f"{'' if b == 1 else 's'}")
    level = _percent(alpha)
    if test.delta == 0:
        text = (f"Both fronts have exactly the same hypervolume, so neither is better "
                f"({evidence}).")
    elif test.p_value <= alpha:
        sides = [("candidate", candidate), ("baseline", baseline)]
        (better, better_systems), (worse, worse_systems) = (
            sides if test.delta > 0 else sides[::-1])
        text = (f"At the {level} level, the {better}'s front ({_names(better_systems)}) is "
                f"significantly better than the {worse}'s ({_names(worse_systems)}) in "
                f"hypervolume ({evidence}).")
        if test.delta < 0:
            text += " The candidate is worse, not an improvement."
        if _borderline(test, alpha):
            text += _BORDERLINE.format(alpha=alpha)
    else:
        text = (f"The difference is within seed noise ({evidence}): at the {level} level "
                f"neither the candidate's front ({_names(candidate)}) nor the baseline's "
                f"({_names(baseline)}) is significantly better in hypervolume."
                + _advice(test, alpha))
    if test.cancelled:
        text += " The test was cancelled early: this rests on the permutations done."
    return text
