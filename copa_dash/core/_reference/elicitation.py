"""Reference twin of :mod:`copa_dash.core._kernels.elicitation`: the definitions, as plain loops.

Same functions, same arguments, same results (to rounding). The criterion is the textbook
formula of :mod:`copa_dash.core._reference.criteria`; the tie-breaks of a particle's best model
are the reference ``copa_select``; the information is computed from the joint table of
(answer, best model) written out as dictionaries.
"""

from __future__ import annotations

import math

import numpy as np

from .._kernels.criteria import TIEBREAK_P
from . import criteria as _criteria


def answer_probability(ca, cb, outcome, tau, nu, lapse) -> float:
    """Davidson's model with a lapse rate, from its three unnormalised strengths."""
    d = (cb - ca) / tau
    strength = {0: math.exp(d / 2) if d < 700 else math.inf,
                1: math.exp(-d / 2) if -d < 700 else math.inf}
    strength[2] = nu
    if math.isinf(strength[0]) or math.isinf(strength[1]):
        prob = 1.0 if math.isinf(strength[outcome]) else 0.0
    else:
        strength[2] = nu * math.sqrt(strength[0] * strength[1])
        prob = strength[outcome] / (strength[0] + strength[1] + strength[2])
    return (1.0 - lapse) * prob + lapse / 3.0


def criterion_matrix(u, theta, p_index, p_values) -> np.ndarray:
    """C[m, i] by the textbook formula."""
    return np.array([[_criteria.criterion(u[i], theta[m], float(p_values[p_index[m]]))
                      for i in range(len(u))] for m in range(len(theta))])


def best_models(u, theta, c, tie_rtol) -> np.ndarray:
    """Each particle's best model: the band of the smallest C, then of the smallest C at
    p = 8, then of the smallest sum of u, then the first (the rule of ``copa_select``)."""
    out = []
    for m in range(len(theta)):
        rows = list(range(len(u)))
        for key in (lambda i, m=m: c[m][i],
                    lambda i, m=m: _criteria.criterion(u[i], theta[m], TIEBREAK_P),
                    lambda i: sum(float(x) for x in u[i])):
            low = min(key(i) for i in rows)
            rows = [i for i in rows if key(i) <= low * (1.0 + tie_rtol)]
        out.append(rows[0])
    return np.array(out, dtype=np.int64)


def add_answer(log_mass, c, a, b, outcome, tau, nu, lapse) -> np.ndarray:
    """log_mass + log P(outcome | particle)."""
    return np.array([log_mass[m] + math.log(answer_probability(c[m][a], c[m][b], outcome,
                                                               tau, nu, lapse))
                     for m in range(len(log_mass))])


def pair_information(c, best, mass, pairs, n_models, tau, nu, lapse) -> np.ndarray:
    """I(answer; best model) for each pair, from the joint distribution."""
    out = []
    for a, b in pairs:
        joint = {}
        for m in range(len(mass)):
            for y in range(3):
                key = (int(best[m]), y)
                joint[key] = joint.get(key, 0.0) + mass[m] * answer_probability(
                    c[m][a], c[m][b], y, tau, nu, lapse)
        p_h, p_y = {}, {}
        for (h, y), value in joint.items():
            p_h[h] = p_h.get(h, 0.0) + value
            p_y[y] = p_y.get(y, 0.0) + value
        info = sum(v * math.log(v / (p_h[h] * p_y[y])) for (h, y), v in joint.items() if v > 0)
        out.append(info)
    return np.array(out)


def history_log_likelihood(u, w, p, ans_a, ans_b, ans_outcome, tau, nu, lapse) -> float:
    """Sum of log P(answer | w, p) over the answers."""
    return sum(math.log(answer_probability(_criteria.criterion(u[a], w, p),
                                           _criteria.criterion(u[b], w, p), o, tau, nu, lapse))
               for a, b, o in zip(ans_a, ans_b, ans_outcome))


def dirichlet_log_density(x, alpha) -> float:
    """log Dir(x; alpha)."""
    return (math.lgamma(sum(alpha)) - sum(math.lgamma(a) for a in alpha)
            + sum((a - 1.0) * math.log(v) for a, v in zip(alpha, x)))


def metropolis_move(u, theta, p_index, proposal_theta, proposal_p, log_uniform, p_values,
                    ans_a, ans_b, ans_outcome, tau, nu, lapse, kappa, prior_concentration):
    """One Metropolis-Hastings step per particle (same draws as the kernel)."""
    new_theta = np.array(theta, dtype=float)
    new_p = np.array(p_index, dtype=np.int64)
    moved = 0
    for m in range(len(theta)):
        old, new = list(theta[m]), list(proposal_theta[m])
        p_old, p_new = float(p_values[p_index[m]]), float(p_values[proposal_p[m]])
        log_ratio = (history_log_likelihood(u, new, p_new, ans_a, ans_b, ans_outcome, tau, nu, lapse)
                     - history_log_likelihood(u, old, p_old, ans_a, ans_b, ans_outcome, tau, nu,
                                              lapse)
                     + dirichlet_log_density(old, [kappa * x + 1.0 for x in new])
                     - dirichlet_log_density(new, [kappa * x + 1.0 for x in old])
                     + (prior_concentration - 1.0) * sum(math.log(x) - math.log(y)
                                                         for x, y in zip(new, old)))
        if log_uniform[m] < log_ratio:
            new_theta[m] = new
            new_p[m] = proposal_p[m]
            moved += 1
    return new_theta, new_p, moved


def systematic_resample(mass, offset) -> np.ndarray:
    """Index of the particle whose cumulative-mass interval holds ``(i + offset) / M``."""
    n = len(mass)
    edges = []
    running = 0.0
    for value in mass:
        running += value
        edges.append(running)
    out = []
    for i in range(n):
        target = (i + offset) / n
        j = next((j for j, edge in enumerate(edges) if edge >= target), n - 1)
        out.append(j)
    return np.array(out, dtype=np.int64)
