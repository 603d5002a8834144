"""The statistics of a round robin: a Bradley–Terry fit with Fisher intervals, and Spearman's rank correlation.

Conventions (what the returned numbers mean):
- θ_i = ln p_i, normalised so that the ratings **sum to 0** (p's geometric mean 1); θ_i − θ_j is the log-odds of i
  beating j: P(i beats j) = 1 / (1 + exp(θ_j − θ_i)).
- The covariance of θ is the pseudo-inverse of the Fisher information (the covariance under the sum-to-0
  constraint); a 95% interval is θ ± 1.96·se, and the chance of beating a baseline entrant b has the interval of
  θ_i − θ_b (variance C_ii + C_bb − 2·C_ib) carried through the logistic curve.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Z95 = 1.959963984540054


def bradley_terry(wins: np.ndarray, max_iter: int = 10_000, tol: float = 1e-12) -> tuple[np.ndarray, int]:
    """Bradley–Terry strengths by Hunter's MM algorithm: ``wins[i, j]`` = (possibly fractional) wins of i over j.

    Returns (θ = ln p with Σθ = 0, iterations). Each step p_i ← W_i / Σ_j n_ij / (p_i + p_j) raises the
    likelihood; it needs every weapon to have won and lost something (the virtual draws see to that).
    """
    games = wins + wins.T
    total = wins.sum(axis=1)
    if np.any(total <= 0) or np.any(games.sum(axis=1) - total <= 0):
        raise ValueError("every side needs at least one win and one loss for a Bradley–Terry fit")
    p = np.ones(len(wins))
    iteration = 0
    while iteration < max_iter:
        iteration += 1
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = total / denom
        new /= math.exp(float(np.mean(np.log(new))))
        step = float(np.max(np.abs(np.log(new) - np.log(p))))
        p = new
        if step < tol:
            break
    theta = np.log(p)
    return theta - theta.mean(), iteration


def fisher_cov(theta: np.ndarray, games: np.ndarray) -> np.ndarray:
    """The covariance of θ (under Σθ = 0): the pseudo-inverse of the Fisher information of the fit."""
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
    w = games * p * (1 - p)
    info = np.diag(w.sum(axis=1)) - w
    cov: np.ndarray = np.linalg.pinv(info)
    return cov


def fisher_se(theta: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Standard errors of θ (under Σθ = 0): the square roots of :func:`fisher_cov`'s diagonal."""
    se: np.ndarray = np.sqrt(np.clip(np.diag(fisher_cov(theta, games)), 0, None))
    return se


def logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def beats(theta: np.ndarray, cov: np.ndarray, i: int, b: int) -> tuple[float, float, float]:
    """P(entrant i beats entrant b) under the fit, with its 95% interval: the interval of θ_i − θ_b through the
    logistic curve (an entrant against itself: exactly ½)."""
    diff = float(theta[i] - theta[b])
    sd = math.sqrt(max(0.0, float(cov[i, i] + cov[b, b] - 2 * cov[i, b])))
    return logistic(diff), logistic(diff - Z95 * sd), logistic(diff + Z95 * sd)


def average_ranks(values: Sequence[float]) -> list[float]:
    """Ranks 1..n, ties sharing the average of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            ranks[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the average ranks (NaN if a side is constant)."""
    if len(x) != len(y):
        raise ValueError(f"spearman needs equal lengths, not {len(x)} and {len(y)}")
    rx, ry = average_ranks(x), average_ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return float("nan")
    return sxy / math.sqrt(sxx * syy)
