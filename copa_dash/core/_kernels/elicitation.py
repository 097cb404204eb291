"""Compiled loops of the preference elicitation (``copa_dash.core.elicitation``).

Inputs are validated by the public module: ``u`` is (n, K) contiguous float64 in [0, 1]
without NaN, ``theta`` (M, K) rows on the simplex, ``p_index`` (M,) int64 indices into
``p_values`` (float64, each 1, 2, 4, 8 or inf, or any other value >= 1), answers are
three int64 arrays (model a, model b, outcome 0 = a, 1 = b, 2 = can't tell). Every random
number is drawn by the caller (numpy's Generator) and passed in, so these loops are
deterministic. Nothing here checks anything.

The answer model (Davidson 1970, Bradley-Terry with ties, plus a lapse rate): with
``d = (C(b) - C(a)) / tau`` and the tie parameter ``nu``,
``P(a) = 1 / (1 + e^-d + nu e^(-d/2))``, ``P(b) = 1 / (1 + e^d + nu e^(d/2))``,
``P(=) = nu / (e^(d/2) + e^(-d/2) + nu)``; then ``(1 - lapse) P + lapse / 3``. Given that the
answer is not "can't tell", ``P(a) = sigmoid(d)``: the issue's noisy-choice likelihood.
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import njit
from .criteria import pick_from_band

OUTCOME_A = 0
OUTCOME_B = 1
OUTCOME_TIE = 2


@njit(cache=True)
def particle_criterion(u, i, theta, m, p):
    """COPA criterion of model i under particle m's weights and exponent p.

    Integer p in {1, 2, 4, 8} use products instead of ``pow`` (a 10x saving on a
    10^4 x 400 matrix); the sum is rescaled by the largest term as in the criteria kernel.
    """
    k_count = u.shape[1]
    big = 0.0
    for k in range(k_count):
        x = theta[m, k] * u[i, k]
        big = max(big, x)
    if big == 0.0 or math.isinf(p):
        return big
    s = 0.0
    for k in range(k_count):
        x = theta[m, k] * u[i, k] / big
        if p == 1.0:
            s += x
        elif p == 2.0:
            s += x * x
        elif p == 4.0:
            x2 = x * x
            s += x2 * x2
        elif p == 8.0:
            x2 = x * x
            x4 = x2 * x2
            s += x4 * x4
        else:
            s += x ** p
    if p == 1.0:
        return big * s
    if p == 2.0:
        return big * math.sqrt(s)
    if p == 4.0:
        return big * math.sqrt(math.sqrt(s))
    if p == 8.0:
        return big * math.sqrt(math.sqrt(math.sqrt(s)))
    return big * s ** (1.0 / p)


@njit(cache=True)
def criterion_matrix(u, theta, p_index, p_values):
    """C[m, i]: the criterion of model i under particle m. O(M n K).

    Column by column over a transposed copy of u, so that the inner loop runs over the
    models with one p per particle (no branch inside, vectorised by LLVM). Without the
    rescaling of :func:`particle_criterion`: for p <= 8 the sum ``sum_k (w_k u_k)^p`` of
    values in [0, 1] underflows only for terms below 1e-38, which cannot change C.
    """
    n_particles, k_count = theta.shape
    n_models = u.shape[0]
    ut = np.ascontiguousarray(u.T)
    out = np.empty((n_particles, n_models), dtype=np.float64)
    acc = np.empty(n_models, dtype=np.float64)
    for m in range(n_particles):
        p = p_values[p_index[m]]
        if p == 1.0 or p == 2.0 or p == 4.0 or p == 8.0 or math.isinf(p):
            acc[:] = 0.0
            for k in range(k_count):
                wk = theta[m, k]
                row = ut[k]
                if math.isinf(p):
                    for i in range(n_models):
                        acc[i] = max(acc[i], wk * row[i])
                elif p == 1.0:
                    for i in range(n_models):
                        acc[i] += wk * row[i]
                elif p == 2.0:
                    for i in range(n_models):
                        x = wk * row[i]
                        acc[i] += x * x
                elif p == 4.0:
                    for i in range(n_models):
                        x = wk * row[i]
                        x2 = x * x
                        acc[i] += x2 * x2
                else:
                    for i in range(n_models):
                        x = wk * row[i]
                        x2 = x * x
                        x4 = x2 * x2
                        acc[i] += x4 * x4
            if p == 2.0:
                for i in range(n_models):
                    acc[i] = math.sqrt(acc[i])
            elif p == 4.0:
                for i in range(n_models):
                    acc[i] = math.sqrt(math.sqrt(acc[i]))
            elif p == 8.0:
                for i in range(n_models):
                    acc[i] = math.sqrt(math.sqrt(math.sqrt(acc[i])))
            out[m, :] = acc
        else:
            for i in range(n_models):
                out[m, i] = particle_criterion(u, i, theta, m, p)
    return out


@njit(cache=True)
def best_models(u, theta, c, tie_rtol):
    """Each particle's best model: smallest C, ties broken as ``copa_select`` does.

    The tie-breaks (C at p = 8, sum of u, order) are the criteria kernel's own
    ``pick_from_band``, so a particle's best model is the row ``copa_select`` picks.
    """
    n_particles, n_models = c.shape
    out = np.empty(n_particles, dtype=np.int64)
    band = np.empty(n_models, dtype=np.int64)
    for m in range(n_particles):
        low = np.inf
        for i in range(n_models):
            low = min(low, c[m, i])
        limit = low * (1.0 + tie_rtol)
        n_band = 0
        for i in range(n_models):
            if c[m, i] <= limit:
                band[n_band] = i
                n_band += 1
        out[m] = band[pick_from_band(u, theta[m], band, n_band)]
    return out


@njit(cache=True)
def half_exp_clipped(d):
    """``e^(d/2)`` with d clipped to +-700 (where the Davidson probabilities are 0 or 1)."""
    if d > 700.0:
        d = 700.0
    elif d < -700.0:
        d = -700.0
    return math.exp(0.5 * d)


@njit(cache=True)
def answer_probability(ca, cb, outcome, tau, nu, lapse):
    """P(outcome | C(a) = ca, C(b) = cb) under the Davidson model with a lapse rate.

    With ``s = e^(d/2)``: ``P(a) = s / (s + 1/s + nu)``, ``P(b) = (1/s) / (...)``,
    ``P(=) = nu / (...)``; one exponential (d is clipped to +-700, where P is 0 or 1 anyway).
    """
    s = half_exp_clipped((cb - ca) / tau)
    inv = 1.0 / s
    if outcome == OUTCOME_A:
        top = s
    elif outcome == OUTCOME_B:
        top = inv
    else:
        top = nu
    return (1.0 - lapse) * top / (s + inv + nu) + lapse / 3.0


@njit(cache=True)
def add_answer(log_mass, c, a, b, outcome, tau, nu, lapse):
    """log_mass + log P(outcome | particle), as a new array."""
    out = np.empty_like(log_mass)
    for m in range(log_mass.shape[0]):
        out[m] = log_mass[m] + math.log(
            answer_probability(c[m, a], c[m, b], outcome, tau, nu, lapse))
    return out


@njit(cache=True)
def pair_information(c, best, mass, pairs, n_models, tau, nu, lapse):
    """Mutual information (nats) between the answer to each pair and the best model.

    ``I(Y; H) = H(Y) - sum_h P(h) H(Y | h)`` with ``P(y, h) = sum_{m: best_m = h} mass_m
    P(y | theta_m)``. O(pairs x M).
    """
    n_pairs = pairs.shape[0]
    out = np.empty(n_pairs, dtype=np.float64)
    joint = np.zeros((n_models, 3), dtype=np.float64)
    for q in range(n_pairs):
        a = pairs[q, 0]
        b = pairs[q, 1]
        joint[:, :] = 0.0
        for m in range(mass.shape[0]):
            if mass[m] == 0.0:
                continue
            h = best[m]
            s = half_exp_clipped((c[m, b] - c[m, a]) / tau)
            inv = 1.0 / s
            scale = mass[m] * (1.0 - lapse) / (s + inv + nu)
            floor = mass[m] * lapse / 3.0
            joint[h, 0] += scale * s + floor
            joint[h, 1] += scale * inv + floor
            joint[h, 2] += scale * nu + floor
        total = np.zeros(3, dtype=np.float64)
        conditional = 0.0
        for h in range(n_models):
            ph = joint[h, 0] + joint[h, 1] + joint[h, 2]
            if ph <= 0.0:
                continue
            for y in range(3):
                total[y] += joint[h, y]
                if joint[h, y] > 0.0:
                    conditional -= joint[h, y] * math.log(joint[h, y] / ph)
        marginal = 0.0
        for y in range(3):
            if total[y] > 0.0:
                marginal -= total[y] * math.log(total[y])
        out[q] = marginal - conditional
    return out


@njit(cache=True)
def history_log_likelihood(u, theta, m, p, ans_a, ans_b, ans_outcome, tau, nu, lapse):
    """Sum over the answers so far of log P(answer | particle m's weights, p)."""
    total = 0.0
    for t in range(ans_a.shape[0]):
        ca = particle_criterion(u, ans_a[t], theta, m, p)
        cb = particle_criterion(u, ans_b[t], theta, m, p)
        total += math.log(answer_probability(ca, cb, ans_outcome[t], tau, nu, lapse))
    return total


@njit(cache=True)
def dirichlet_log_density(x, alpha):
    """log Dir(x; alpha) for x on the open simplex."""
    total = 0.0
    s = 0.0
    for k in range(x.shape[0]):
        total += (alpha[k] - 1.0) * math.log(x[k]) - math.lgamma(alpha[k])
        s += alpha[k]
    return total + math.lgamma(s)


@njit(cache=True)
def metropolis_move(u, theta, p_index, proposal_theta, proposal_p, log_uniform, p_values,
                    ans_a, ans_b, ans_outcome, tau, nu, lapse, kappa, prior_concentration):
    """One Metropolis-Hastings step per particle towards the posterior given the answers.

    The weights' proposal is ``Dirichlet(kappa * theta + 1)`` (drawn by the caller), with
    its Hastings correction; the p proposal is symmetric. Returns the new weights, the new
    p indices and how many particles moved.
    """
    n_particles, k_count = theta.shape
    new_theta = theta.copy()
    new_p = p_index.copy()
    alpha_forward = np.empty(k_count, dtype=np.float64)
    alpha_backward = np.empty(k_count, dtype=np.float64)
    moved = 0
    for m in range(n_particles):
        for k in range(k_count):
            alpha_forward[k] = kappa * theta[m, k] + 1.0
            alpha_backward[k] = kappa * proposal_theta[m, k] + 1.0
        log_ratio = (
            history_log_likelihood(u, proposal_theta, m, p_values[proposal_p[m]],
                                   ans_a, ans_b, ans_outcome, tau, nu, lapse)
            - history_log_likelihood(u, theta, m, p_values[p_index[m]],
                                     ans_a, ans_b, ans_outcome, tau, nu, lapse)
            + dirichlet_log_density(theta[m], alpha_backward)
            - dirichlet_log_density(proposal_theta[m], alpha_forward))
        if prior_concentration != 1.0:
            for k in range(k_count):
                log_ratio += (prior_concentration - 1.0) * (
                    math.log(proposal_theta[m, k]) - math.log(theta[m, k]))
        if log_uniform[m] < log_ratio:
            for k in range(k_count):
                new_theta[m, k] = proposal_theta[m, k]
            new_p[m] = proposal_p[m]
            moved += 1
    return new_theta, new_p, moved


@njit(cache=True)
def systematic_resample(mass, offset):
    """Particle indices by systematic resampling: the i-th pick is the particle whose
    cumulative mass first reaches ``(i + offset) / M`` (``offset`` uniform in [0, 1))."""
    n = mass.shape[0]
    out = np.empty(n, dtype=np.int64)
    j = 0
    cumulative = mass[0]
    for i in range(n):
        target = (i + offset) / n
        while cumulative < target and j < n - 1:
            j += 1
            cumulative += mass[j]
        out[i] = j
    return out
