"""Validation -> test generalisation of a Pareto front: optimistic and pessimistic fronts.

The protocol of papers/mind-the-gap-optimistic-pessimistic-fronts.txt, Section 4: the
rows non-dominated on validation values (P~) are judged on their test values; the
optimistic front keeps the rows no other row of P~ beats on test, the pessimistic front
the rows that beat no other row of P~ on test, and the approximation gap is the
difference of their hypervolumes. See METHODS.md, "Validation -> test generalisation".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .dominance import nondominated_mask
from .errors import InvalidInputError
from .hypervolume import default_reference_point, hypervolume
from .validate import as_points, check_ref_point, orient, parse_directions

__all__ = [
    "GeneralizationResult",
    "MethodComparison",
    "Verdict",
    "compare_methods",
    "front_weakly_dominates",
    "validation_test_fronts",
]


@dataclass(frozen=True)
class GeneralizationResult:
    """Validation front, optimistic and pessimistic test fronts and their hypervolumes.

    Attributes
    ----------
    validation_mask : ndarray of bool, shape (N,)
        P~: rows non-dominated on validation values.
    optimistic_mask, pessimistic_mask : ndarray of bool, shape (N,)
        Rows of P~ on the optimistic / pessimistic test front (Eqs. 1-2).
    hv_val : float
        HV of P~'s validation values.
    hv_opt, hv_pess : float
        HV of the optimistic / pessimistic fronts' test values (same r).
    gap : float
        ``hv_opt - hv_pess`` (>= 0).
    ref : ndarray, shape (K,)
        Reference point in the objectives' own directions.
    val_points, test_points : ndarray, shape (N, K)
        Copies of the inputs (own directions).
    maximise : ndarray of bool, shape (K,)
        True for the maximised objectives.
    """

    validation_mask: np.ndarray
    optimistic_mask: np.ndarray
    pessimistic_mask: np.ndarray
    hv_val: float
    hv_opt: float
    hv_pess: float
    gap: float
    ref: np.ndarray
    val_points: np.ndarray
    test_points: np.ndarray
    maximise: np.ndarray


@dataclass(frozen=True)
class Verdict:
    """One comparison criterion: ``winner`` is "A", "B", "both" or None (undecided)."""

    criterion: str
    winner: str | None
    sentence: str


@dataclass(frozen=True)
class MethodComparison:
    """The three verdicts of Section 4: HV difference, front dominance, smaller gap."""

    hv_difference: Verdict
    dominance: Verdict
    gap: Verdict

    @property
    def verdicts(self) -> tuple[Verdict, Verdict, Verdict]:
        return (self.hv_difference, self.dominance, self.gap)


def validation_test_fronts(val_points, test_points, /, directions=None, *,
                           ref=None) -> GeneralizationResult:
    """Optimistic and pessimistic test fronts of the validation front, and the gap.

    Parameters
    ----------
    val_points, test_points : array_like, shape (N, K)
        Validation and test values of the same N rows (configurations), same columns.
    directions : None, "min", "max" or sequence of them
        Per-column direction; None minimises every column.
    ref : array_like, shape (K,), optional
        Reference point in the objectives' own directions. Default: the nadir plus 10%
        of the range of each objective over the validation AND test values of all N rows
        together (:func:`copa_dash.core.hypervolume.default_reference_point`), so one r
        serves the validation and both test hypervolumes.

    Returns
    -------
    GeneralizationResult

    Raises
    ------
    InvalidInputError
        Non-numeric, NaN or infinite values, shapes that differ, no row, bad
        ``directions`` or ``ref``.

    Notes
    -----
    Oriented to minimisation, with ``a <_test b`` meaning a dominates b on test values:
    ``P~ = ND_val(all rows)``; optimistic = ``{x in P~ : no x' in P~ with x' <_test x}``
    (Eq. 1); pessimistic = ``{x in P~ : no x' in P~ with x <_test x'}`` (Eq. 2). The
    pessimistic front is the non-dominated set of the negated test values of P~, so both
    come from :func:`copa_dash.core.dominance.nondominated_mask`. Rows equal on test
    never dominate each other. HV(optimistic) = HV(all of P~ on test) >= HV(pessimistic),
    so the gap is never negative. Cost: two or three front computations and three exact
    hypervolumes.

    Examples
    --------
    >>> val = [[0.1, 0.9], [0.5, 0.5], [0.9, 0.1], [0.8, 0.8]]
    >>> test = [[0.2, 0.8], [0.6, 0.9], [0.9, 0.2], [0.1, 0.1]]
    >>> res = validation_test_fronts(val, test, "min", ref=[1.0, 1.0])
    >>> res.validation_mask.tolist(), res.optimistic_mask.tolist()
    ([True, True, True, False], [True, False, True, False])
    >>> res.pessimistic_mask.tolist(), round(res.hv_opt, 4), round(res.hv_pess, 4)
    ([False, True, True, False], 0.22, 0.11)
    """
    val = as_points(val_points, name="val_points", min_rows=1)
    test = as_points(test_points, name="test_points", min_rows=1)
    if val.shape != test.shape:
        raise InvalidInputError(
            f"'val_points' and 'test_points' must have the same shape, but they have "
            f"{val.shape} and {test.shape}")
    maximise = parse_directions(directions, val.shape[1])
    if ref is None:
        ref_user = np.asarray(default_reference_point(
            np.vstack([val, test]), directions=list(np.where(maximise, "max", "min"))),
            dtype=np.float64)
    else:
        ref_user = check_ref_point(ref, val.shape[1])
    ref_min = orient(ref_user.reshape(1, -1), maximise)[0]
    val_min, test_min = orient(val, maximise), orient(test, maximise)

    front = np.flatnonzero(nondominated_mask(val_min))
    test_front = np.ascontiguousarray(test_min[front])
    optimistic = np.zeros(val.shape[0], dtype=bool)
    pessimistic = np.zeros(val.shape[0], dtype=bool)
    optimistic[front] = nondominated_mask(test_front)
    pessimistic[front] = nondominated_mask(-test_front)
    validation = np.zeros(val.shape[0], dtype=bool)
    validation[front] = True

    hv_val = float(hypervolume(np.ascontiguousarray(val_min[front]), ref_min))
    hv_opt = float(hypervolume(np.ascontiguousarray(test_min[optimistic]), ref_min))
    hv_pess = float(hypervolume(np.ascontiguousarray(test_min[pessimistic]), ref_min))
    return GeneralizationResult(
        validation_mask=validation, optimistic_mask=optimistic, pessimistic_mask=pessimistic,
        hv_val=hv_val, hv_opt=hv_opt, hv_pess=hv_pess, gap=hv_opt - hv_pess,
        ref=ref_user, val_points=val, test_points=test, maximise=maximise)


def front_weakly_dominates(a, b, /) -> np.ndarray:
    """For every row of ``b``: is it weakly dominated by some row of ``a``?

    Both arrays are (n, K) and oriented to minimisation; ``x`` weakly dominates ``y`` iff
    ``x <= y`` in every objective. O(|a| |b| K) time, in blocks of ``b``.

    Examples
    --------
    >>> front_weakly_dominates(np.array([[1.0, 1.0]]), np.array([[1.0, 2.0], [0.0, 3.0]]))
    array([ True, False])
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    out = np.zeros(b.shape[0], dtype=bool)
    block = max(1, 2_000_000 // max(1, a.shape[0] * max(1, a.shape[1])))
    for start in range(0, b.shape[0], block):
        chunk = b[start:start + block]
        out[start:start + block] = (a[:, None, :] <= chunk[None, :, :]).all(axis=2).any(axis=0)
    return out


def _check_comparable(a: GeneralizationResult, b: GeneralizationResult) -> None:
    for name, res in (("a", a), ("b", b)):
        if not isinstance(res, GeneralizationResult):
            raise InvalidInputError(
                f"'{name}' must be the result of validation_test_fronts, not {type(res).__name__}")
    if a.maximise.shape != b.maximise.shape or (a.maximise != b.maximise).any():
        raise InvalidInputError("'a' and 'b' must have the same objectives and directions")
    if not np.array_equal(a.ref, b.ref):
        raise InvalidInputError(
            f"'a' and 'b' must use the same reference point, but they use {a.ref.tolist()} "
            f"and {b.ref.tolist()}: pass the same 'ref' to validation_test_fronts")


def compare_methods(a, b, /, *, names=("A", "B")) -> MethodComparison:
    """Compare two methods by the three criteria of the paper's Section 4.

    Parameters
    ----------
    a, b : GeneralizationResult
        Results of :func:`validation_test_fronts` for methods A and B, with the same
        objectives, directions and reference point.
    names : tuple of two str
        How the sentences name A and B.

    Returns
    -------
    MethodComparison
        ``hv_difference``: A is better when HV_pess(A) > HV_opt(B) (B likewise; else
        undecided). ``dominance``: A's pessimistic front dominates B's optimistic front
        when every point of B's optimistic front is weakly dominated (<= in every
        objective, on test values) by some point of A's pessimistic front; "both" when
        it holds both ways (equal fronts). ``gap``: the smaller approximation gap is the
        more robust (equal gaps: None).

    Raises
    ------
    InvalidInputError
        If the results differ in objectives, directions or reference point.

    Notes
    -----
    HV dominance is necessary, not sufficient, for front dominance (paper Section 5.2).
    Cost O(|pess(A)| |opt(B)| K + |pess(B)| |opt(A)| K).

    Examples
    --------
    >>> a = validation_test_fronts([[0.1, 0.2]], [[0.1, 0.2]], ref=[1, 1])
    >>> b = validation_test_fronts([[0.3, 0.3]], [[0.3, 0.4]], ref=[1, 1])
    >>> compare_methods(a, b).hv_difference.winner
    'A'
    """
    _check_comparable(a, b)
    name_a, name_b = (str(n) for n in names)
    return MethodComparison(
        hv_difference=_hv_verdict(a, b, name_a, name_b),
        dominance=_dominance_verdict(a, b, name_a, name_b),
        gap=_gap_verdict(a, b, name_a, name_b))


def _hv_verdict(a, b, name_a, name_b) -> Verdict:
    if a.hv_pess > b.hv_opt:
        return Verdict("hv_difference", "A",
                       f"{name_a} is better: its pessimistic HV {a.hv_pess:.4f} exceeds "
                       f"{name_b}'s optimistic HV {b.hv_opt:.4f}.")
    if b.hv_pess > a.hv_opt:
        return Verdict("hv_difference", "B",
                       f"{name_b} is better: its pessimistic HV {b.hv_pess:.4f} exceeds "
                       f"{name_a}'s optimistic HV {a.hv_opt:.4f}.")
    return Verdict("hv_difference", None,
                   f"Undecided: the test HV ranges overlap ({name_a} "
                   f"[{a.hv_pess:.4f}, {a.hv_opt:.4f}], {name_b} "
                   f"[{b.hv_pess:.4f}, {b.hv_opt:.4f}]).")


def _covered(src: GeneralizationResult, dst: GeneralizationResult) -> tuple[int, int]:
    """How many of dst's optimistic points src's pessimistic front weakly dominates."""
    pess = orient(src.test_points[src.pessimistic_mask], src.maximise)
    opt = orient(dst.test_points[dst.optimistic_mask], dst.maximise)
    return int(front_weakly_dominates(pess, opt).sum()), opt.shape[0]


def _dominance_verdict(a, b, name_a, name_b) -> Verdict:
    a_cov, n_b = _covered(a, b)
    b_cov, n_a = _covered(b, a)
    a_wins, b_wins = a_cov == n_b, b_cov == n_a
    if a_wins and b_wins:
        return Verdict("dominance", "both",
                       f"Each pessimistic front weakly dominates the other's optimistic front "
                       f"({name_a}: {n_a} points, {name_b}: {n_b} points): the fronts coincide "
                       f"on test.")
    if a_wins:
        return Verdict("dominance", "A",
                       f"{name_a} dominates: every one of the {n_b} points of {name_b}'s "
                       f"optimistic front is weakly dominated by {name_a}'s pessimistic front.")
    if b_wins:
        return Verdict("dominance", "B",
                       f"{name_b} dominates: every one of the {n_a} points of {name_a}'s "
                       f"optimistic front is weakly dominated by {name_b}'s pessimistic front.")
    return Verdict("dominance", None,
                   f"Neither front dominates: {n_b - a_cov} of {n_b} points of {name_b}'s "
                   f"optimistic front escape {name_a}'s pessimistic front, and {n_a - b_cov} "
                   f"of {n_a} points of {name_a}'s optimistic front escape {name_b}'s.")


def _gap_verdict(a, b, name_a, name_b) -> Verdict:
    if a.gap < b.gap:
        return Verdict("gap", "A", f"{name_a} is more robust: its approximation gap "
                                   f"{a.gap:.4f} is smaller than {name_b}'s {b.gap:.4f}.")
    if b.gap < a.gap:
        return Verdict("gap", "B", f"{name_b} is more robust: its approximation gap "
                                   f"{b.gap:.4f} is smaller than {name_a}'s {a.gap:.4f}.")
    return Verdict("gap", None, f"Equally robust: both approximation gaps are {a.gap:.4f}.")
