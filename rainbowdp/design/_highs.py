r"""The designers' models handed to HiGHS as arrays (:mod:`highspy`), without PuLP.

:class:`HighsModel` is filled like :class:`~rainbowdp.design._model.ModelBuilder` -- numpy index
arrays per block of rows -- but never makes a Python object per row or column: the COO
triplets become one CSC matrix (repeated entries summed), passed to ``Highs.passModel``
with the column bounds, the row bounds, the integrality and the objective (sense *maximise*);
a starting point goes in by ``Highs.setSolution``; the solution comes back as one array.
Options, statuses and exceptions are those of :mod:`rainbowdp.design.solvers`, so a design
solved this way ends exactly as one solved through PuLP.

:mod:`highspy` is imported inside :meth:`HighsModel.solve`: the optional dependency is needed
only when HiGHS is the solver.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from . import solvers
from ._model import GE, LE, ArrayModel

__all__ = ["HighsModel"]


class HighsModel(ArrayModel):
    """A design model solved by :mod:`highspy` directly (``solver="highs"``).

    Examples
    --------
    >>> import numpy as np
    >>> from rainbowdp.design import solvers
    >>> from rainbowdp.design._model import LE
    >>> m = HighsModel("demo")
    >>> x = m.add_columns(("x", np.arange(2)), np.zeros(2), np.ones(2))
    >>> m.add_rows(("r",), x[None, :], np.array([[1.0, 2.0]]), LE, np.array([1.5]))
    >>> m.set_objective(x, np.array([1.0, 1.0]))
    >>> m.solve(solvers.make_solver("highs"), None).status
    'optimal'
    >>> m.values(x).tolist()
    [1.0, 0.25]
    """

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._x: np.ndarray | None = None

    def solve(self, solver: Any, time_limit: float | None) -> solvers.SolveOutcome:
        """Pass the arrays to HiGHS and run it; return a proved optimum, or a MILP's feasible
        incumbent at the time limit (status ``"time_limit"``, with HiGHS's best bound).

        HiGHS is silent on standard output; its log (``solver.msg``) and progress
        (``solver.progress``) go to standard error (:func:`rainbowdp.design.solvers.open_highs`).

        Raises
        ------
        InfeasibleDesignError, SolverTimeLimitError, SolverError
            As :func:`rainbowdp.design.solvers.solve` for HiGHS.
        """
        import highspy

        t0 = time.perf_counter()
        h, log = solvers.open_highs(solver, mip=self.n_integer > 0)
        lb, ub, integer = self.columns()
        r, c, v, rs = self.rows()
        rhs, sense = rs[0], rs[1]
        inf = highspy.kHighsInf
        row_lo = np.where(sense == LE, -inf, rhs)
        row_hi = np.where(sense == GE, inf, rhs)
        start, index, value = _csc(r, c, v, self.n_cols)
        cost = self.cost if self.cost.size == self.n_cols else np.zeros(self.n_cols)
        status = h.passModel(
            self.n_cols,
            self.n_rows,
            int(index.size),
            int(highspy.MatrixFormat.kColwise),
            int(highspy.ObjSense.kMaximize),
            0.0,
            cost,
            np.where(np.isinf(lb), -inf, lb),
            np.where(np.isinf(ub), inf, ub),
            row_lo,
            row_hi,
            start,
            index,
            value,
            integer.astype(np.int32),
        )
        if status == highspy.HighsStatus.kError:  # pragma: no cover - arrays built above
            raise solvers.SolverError(f"HiGHS rejected the model arrays ({status}).")
        if self.skip_crossover(solver, int(index.size)):
            for key, value in solvers.HIGHS_NO_CROSSOVER_OPTIONS.items():
                h.setOptionValue(key, value)
        if self.start is not None and self.n_integer:
            h.setSolution(self.n_cols, np.arange(self.n_cols, dtype=np.int32), self.start)
        try:
            h.run()
        finally:
            log.close()
        seconds = time.perf_counter() - t0
        text = str(h.modelStatusToString(h.getModelStatus()))
        out = solvers.highs_outcome(
            "HiGHS",
            text,
            seconds,
            time_limit,
            lambda: solvers.highs_gap(h, sign=1.0),
            (lambda: solvers.highs_incumbent_bound(h, sign=1.0)) if self.n_integer else None,
        )
        self._x = np.asarray(h.getSolution().col_value, dtype=np.float64)
        return out

    def skip_crossover(self, solver: Any, nonzeros: int) -> bool:
        """Whether to run HiGHS's interior-point method without crossover: an LP whose designer
        needs no vertex (:attr:`vertex` false), of at least
        :data:`~rainbowdp.design.solvers.NO_CROSSOVER_NONZEROS` nonzeros, solved by the
        interior-point method (:data:`~rainbowdp.design.solvers.HIGHS_LP_OPTIONS`).

        The interior point is then primal feasible to HiGHS's tolerance (residuals of the order
        of 1e-15 on the designers' LPs), and with the optimality tolerance of
        :data:`~rainbowdp.design.solvers.HIGHS_NO_CROSSOVER_OPTIONS` within about 1e-12
        (relative) of the optimum, the order of the safety margin; the designer repairs it by
        mixing and certifies it exactly like a vertex. Crossover is the last 5-10 % of the
        solve on the LPs of docs/scaling.md; the tighter tolerance costs one or two cheap
        interior-point iterations.
        """
        if self.vertex or self.n_integer or nonzeros < solvers.NO_CROSSOVER_NONZEROS:
            return False
        return bool(solvers.highs_options(solver).get("solver") == "ipm")

    def values(self, ids: np.ndarray) -> np.ndarray:
        if self._x is None or self._x.size != self.n_cols:
            return np.zeros(ids.size)
        return self._x[ids]


def _csc(
    rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, n_cols: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(start, index, value)`` of the column-wise matrix of COO triplets, entries of one
    (row, column) summed (as PuLP's expressions do) and zero sums dropped."""
    if rows.size == 0:
        return np.zeros(n_cols + 1, dtype=np.int32), np.zeros(0, np.int32), np.zeros(0)
    order = np.lexsort((rows, cols))
    r, c, v = rows[order], cols[order], vals[order]
    new = np.empty(r.size, dtype=bool)
    new[0] = True
    new[1:] = (r[1:] != r[:-1]) | (c[1:] != c[:-1])
    first = np.flatnonzero(new)
    v = np.add.reduceat(v, first)
    r, c = r[first], c[first]
    nz = v != 0
    r, c, v = r[nz], c[nz], v[nz]
    start = np.zeros(n_cols + 1, dtype=np.int64)
    np.cumsum(np.bincount(c, minlength=n_cols), out=start[1:])
    return start.astype(np.int32), r.astype(np.int32), v
