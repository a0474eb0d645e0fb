r"""The warm start of the probabilistic-DP MILP (:func:`rainbowdp.design.milp`): every column
of the model at an (ε, 0)-DP mechanism, offered to HiGHS when it is feasible."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._model import ArrayModel
from ._tying import Columns

__all__ = ["Rows", "warm_start"]


class Rows(NamedTuple):
    """The rows of a built MILP that :func:`warm_start` evaluates: per (R1)/(R4) row the
    columns (or constants) of :math:`P_a(v)`, :math:`P_b(v)`, its β, the reverse β (-1:
    none), whether the tie waiver applies and its y; per (R2) row :math:`P_a(v)`, y, β and its
    big-M."""

    cf: np.ndarray
    ff: np.ndarray
    cs: np.ndarray
    fs: np.ndarray
    beta: np.ndarray
    beta_rev: np.ndarray
    waive: np.ndarray
    y: np.ndarray
    c2: np.ndarray
    f2: np.ndarray
    own_y: np.ndarray
    own_beta: np.ndarray
    big2: np.ndarray


def warm_start(
    mb: ArrayModel, cols: Columns, P: np.ndarray, rows: Rows, x: float, m: float
) -> np.ndarray | None:
    r"""Every column of the MILP at the mechanism ``P`` (an (ε, 0)-DP one), or ``None`` if
    that point is not feasible for the model.

    Pure DP implies probabilistic DP, so the (ε, 0)-DP optimum is a mechanism of the MILP's
    feasible set, up to the margin m of (R1): an output is marked leaking
    (:math:`\beta_{ab}(v) = 1`) only where the model forbids :math:`\beta = 0` -- a ratio
    above :math:`e^\epsilon` (round-off), or within m of it where the margin applies (no tie
    waiver, or the reverse pair leaks; repeated until no mark changes). y is the least value
    (R2) and (R4) allow. Between free rows of an untied model all ties are waived, and the
    point is feasible with every β = 0; against fixed rows a tie may cost its mass in the
    budget. The point is checked against every row and bound (to 1e-9) before it is
    offered.
    """
    n = mb.n_cols
    tol = 1e-10
    z = np.zeros(n)
    free = cols.col >= 0
    z[cols.col[free]] = P[free]

    def val(c: np.ndarray, f: np.ndarray) -> np.ndarray:
        return np.where(c >= 0, z[np.maximum(c, 0)], f)

    e = val(rows.cf, rows.ff) - x * val(rows.cs, rows.fs)
    on = np.zeros(n, dtype=bool)
    while True:  # marks only grow: at most one pass per row
        rev_on = (rows.beta_rev >= 0) & on[np.maximum(rows.beta_rev, 0)]
        need = (e > tol) | ((e > tol - m) & ~(rows.waive & ~rev_on))
        new = np.zeros(n, dtype=bool)
        new[rows.beta[need]] = True
        if np.array_equal(new, on):
            break
        on = new
    z[rows.beta] = on[rows.beta]
    z[rows.own_beta] = on[rows.own_beta]
    y = np.zeros(n)
    np.maximum.at(y, rows.own_y, val(rows.c2, rows.f2) - rows.big2 * (1.0 - z[rows.own_beta]))
    np.maximum.at(y, rows.y, e)
    ys = np.concatenate([rows.own_y, rows.y])
    z[ys] = y[ys]
    lo, hi, _ = mb.columns()
    if np.any(z < lo - 1e-12) or np.any(z > hi + 1e-12) or np.any(mb.residuals(z) > 1e-9):
        return None
    return z
