r"""The value object returned by the designers: :func:`rainbowdp.design.lp`,
:func:`~rainbowdp.design.milp` and :func:`~rainbowdp.design.min_delta`."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .._format import format_down, format_up
from ..mechanism import Mechanism

__all__ = ["DesignResult"]


@dataclass(frozen=True)
class DesignResult:
    r"""A designed mechanism, certified private, and how it was obtained.

    Attributes
    ----------
    mechanism : Mechanism
        The designed mechanism, proved private in exact arithmetic:
        :func:`rainbowdp.certify` at (ε, δ) answers ``"private"`` for both designers, and
        for :func:`~rainbowdp.design.milp` the sound :func:`rainbowdp.privacy.pdp_delta` is at
        most δ.
    objective : float
        Utility :math:`\sum_{d, v} U[d, v]\, \mathcal M(d)(v)` of ``mechanism`` (after repair);
        for :func:`~rainbowdp.design.min_delta`, the solver's optimal δ for its event set.
    status : str
        ``"optimal"``: the solver proved the model's optimum. ``"time_limit"``: a MILP stopped
        by ``time_limit`` with a feasible incumbent, which is returned -- certified private
        exactly as an optimum is -- with the solver's ``best_bound`` and the ``gap``. Every
        other outcome raises (:mod:`rainbowdp.design.solvers`).
    solver : str
        The solver used: ``"HiGHS"`` (as arrays, or a ``pulp.HiGHS`` object), otherwise the
        class name of the PuLP solver (``"COIN_CMD"``, ``"PULP_CBC_CMD"``, ...).
    build_seconds, solve_seconds : float
        Wall time to build the model (arrays, plus the PuLP problem for a PuLP solver) and to
        solve it (including the hand-over to the solver).
    n_variables, n_constraints : int
        Size of the model; ``n_integer_variables`` of them are binary.
    repair : float
        Utility lost by the repair step (0 when the solver's point passed as it was).
    repair_weight : float
        The mixing weight λ of the repair (0 when none was needed; see ``docs/design.md``).
    solver_objective : float
        Utility of the solver's point (clipped and renormalised), before repair.
    achieved_delta : float
        An upper bound (never below the exact value) on the δ of ``mechanism`` at ``epsilon``:
        hockey-stick δ (LP, min-δ) or probabilistic-DP leakage (MILP). At most ``delta``.
    method : str
        ``"lp"``, ``"milp"`` or ``"min_delta"``.
    formulation : str
        ``"exact"`` (LP), the name of a formulation of :data:`~rainbowdp.design.FORMULATIONS` (e.g.
        ``"definition"``, ``"kadam13-per-node"``, ``"kadam13-printed"``), ``"all"`` or
        ``"singleton"`` (the event set of min-δ).
    epsilon, delta : float
        The privacy parameters designed for; for min-δ, δ is ``achieved_delta``.
    n_integer_variables : int
    solved_epsilon, solved_delta : float
        The parameters the model was solved at: for the LP, (ε, δ) less the safety margin of
        :func:`rainbowdp.design._model.safety_margin`, so that the result is private in exact
        arithmetic with room to spare; for the MILP, ε and the budget δ - min(m, δ/2). ε is
        capped at :data:`~rainbowdp.design._model.EPS_MODEL_MAX` (e^ε = 1e8) in both: solvers
        cannot use larger coefficients, and the capped model is stricter.
    best_bound : float or None
        With status ``"time_limit"``: the solver's best bound on the utility of every mechanism
        the model admits (the MILP at its margin; no such mechanism has a larger utility, up
        to the solver's tolerances). ``None`` when optimal, or when the solver reports no
        bound (CBC through PuLP).
    gap : float or None
        With status ``"time_limit"``: the relative gap :math:`(b - o)/|o|` between
        ``best_bound`` b and ``objective`` o (at least 0; ``inf`` if o = 0 < b), an upper bound
        on how far ``mechanism`` may be from the model's optimum. ``None`` when there is no
        bound.

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> from rainbowdp.design import lp
    >>> r = lp(count_path(2), epsilon=1.0)
    >>> r  # doctest: +ELLIPSIS
    <DesignResult lp optimal: epsilon=1, delta=0, utility 1.92..., 3 nodes, 3 outputs>
    >>> print(r)  # doctest: +ELLIPSIS
    LP design (exact), optimal
      privacy:  epsilon=1, delta=0 (achieved delta 0)
      utility:  1.92... (repair lost 0)
      model:    ... variables (0 binary), ... constraints; 3 nodes, 3 outputs
      time:     build ... s, solve ... s (HiGHS)
    """

    mechanism: Mechanism
    objective: float
    status: str
    solver: str
    build_seconds: float
    solve_seconds: float
    n_variables: int
    n_constraints: int
    repair: float
    repair_weight: float
    solver_objective: float
    achieved_delta: float
    method: str
    formulation: str
    epsilon: float
    delta: float
    n_integer_variables: int = 0
    solved_epsilon: float | None = None
    solved_delta: float | None = None
    best_bound: float | None = None
    gap: float | None = None

    def _value_name(self) -> str:
        return "delta" if self.method == "min_delta" else "utility"

    def _gap_text(self) -> str:
        if self.gap is None:
            return "gap unknown" if self.status == "time_limit" else ""
        return f"gap {format_up(100 * self.gap, 4)} %" if math.isfinite(self.gap) else "gap inf"

    def _value_text(self, digits: int) -> str:
        """The objective as shown: a δ (min_delta) rounded up, a utility rounded down."""
        if self.method == "min_delta":
            return format_up(self.objective, digits)
        return format_down(self.objective, digits)

    def __repr__(self) -> str:
        """One line: method, status, (ε, δ), utility, nodes, outputs (and the gap of an
        incumbent); no arrays."""
        g = self.mechanism.graph
        gap = self._gap_text()
        return (
            f"<DesignResult {self.method} {self.status}: epsilon={self.epsilon:g}, "
            f"delta={self.delta:g}, {self._value_name()} {self._value_text(6)}"
            f"{', ' + gap if gap else ''}, {g.n_nodes} nodes, {g.n_outputs} outputs>"
        )

    def __str__(self) -> str:
        """A few lines: what was designed, its privacy, utility, model size and times."""
        g = self.mechanism.graph
        status = self.status
        if status == "time_limit":
            bound = "unknown" if self.best_bound is None else f"{self.best_bound:.10g}"
            status += f" (incumbent; bound {bound}, {self._gap_text()})"
        return "\n".join(
            [
                f"{self.method.upper()} design ({self.formulation}), {status}",
                f"  privacy:  epsilon={self.epsilon:g}, delta={self.delta:g} "
                f"(achieved delta {format_up(self.achieved_delta)})",
                f"  {self._value_name() + ':':<9} {self._value_text(10)} "
                f"(repair lost {self.repair:.3g})",
                f"  model:    {self.n_variables} variables ({self.n_integer_variables} binary), "
                f"{self.n_constraints} constraints; {g.n_nodes} nodes, {g.n_outputs} outputs",
                f"  time:     build {self.build_seconds:.3f} s, solve "
                f"{self.solve_seconds:.3f} s ({self.solver})",
            ]
        )

    def _repr_html_(self) -> str:
        """A small HTML table (Jupyter), the fields of :meth:`__str__`; no arrays."""
        from html import escape

        g = self.mechanism.graph
        rows = [
            ("method", f"{self.method} ({self.formulation})"),
            ("status", self.status),
            ("epsilon", f"{self.epsilon:g}"),
            ("delta", f"{self.delta:g} (achieved {format_up(self.achieved_delta)})"),
            (self._value_name(), self._value_text(10)),
        ]
        if self.status == "time_limit":
            rows.append(
                ("best bound", "unknown" if self.best_bound is None else f"{self.best_bound:.10g}")
            )
            rows.append(("gap", self._gap_text().removeprefix("gap ")))
        rows += [
            ("nodes, outputs", f"{g.n_nodes}, {g.n_outputs}"),
            ("model", f"{self.n_variables} variables, {self.n_constraints} constraints"),
            (
                "solver",
                f"{self.solver}: build {self.build_seconds:.3f} s, "
                f"solve {self.solve_seconds:.3f} s",
            ),
        ]
        body = "".join(
            f"<tr><th style='text-align:left'>{escape(k)}</th><td>{escape(v)}</td></tr>"
            for k, v in rows
        )
        return f"<table><caption>DesignResult</caption>{body}</table>"

    def to_dict(self, *, mechanism: bool = False) -> dict:
        """The result as plain Python (floats, ints, strings, lists), e.g. for JSON or pandas.

        Every attribute but ``mechanism``, under its own name (the names that
        ``rainbowdp design --json`` uses for ``method``, ``objective``, ``status``, ``solver``,
        ``build_seconds`` and ``solve_seconds``), plus ``n_nodes``, ``n_outputs`` and
        ``n_edges`` of the mechanism's graph. ``solved_epsilon`` / ``solved_delta``,
        ``best_bound`` and ``gap`` may be ``None`` (``gap`` may be ``inf``:
        :func:`rainbowdp.interop.nonfinite_to_null` makes it strict JSON).

        Parameters
        ----------
        mechanism : bool, default False
            Also include the mechanism: ``nodes`` and ``outputs`` (see
            :func:`rainbowdp.interop.plain`) and ``probabilities`` (one list per node, in
            ``outputs`` order).

        Examples
        --------
        >>> import pandas as pd
        >>> from rainbowdp.builders import count_path
        >>> from rainbowdp.design import lp
        >>> r = lp(count_path(2), epsilon=1.0)
        >>> row = pd.DataFrame([r.to_dict()])
        >>> row[["method", "n_nodes", "achieved_delta"]].values.tolist()
        [['lp', 3, 0.0]]
        """
        from .._format import plain

        out = {
            "method": self.method,
            "formulation": self.formulation,
            "epsilon": float(self.epsilon),
            "delta": float(self.delta),
            "objective": float(self.objective),
            "status": self.status,
            "solver": self.solver,
            "build_seconds": float(self.build_seconds),
            "solve_seconds": float(self.solve_seconds),
            "n_variables": int(self.n_variables),
            "n_constraints": int(self.n_constraints),
            "n_integer_variables": int(self.n_integer_variables),
            "repair": float(self.repair),
            "repair_weight": float(self.repair_weight),
            "solver_objective": float(self.solver_objective),
            "achieved_delta": float(self.achieved_delta),
            "solved_epsilon": None if self.solved_epsilon is None else float(self.solved_epsilon),
            "solved_delta": None if self.solved_delta is None else float(self.solved_delta),
            "best_bound": None if self.best_bound is None else float(self.best_bound),
            "gap": None if self.gap is None else float(self.gap),
            "n_nodes": self.mechanism.graph.n_nodes,
            "n_outputs": self.mechanism.graph.n_outputs,
            "n_edges": self.mechanism.graph.n_edges,
        }
        if mechanism:
            out["nodes"] = plain(self.mechanism.graph.nodes)
            out["outputs"] = plain(self.mechanism.graph.outputs)
            out["probabilities"] = self.mechanism.probabilities.tolist()
        return out
