r"""The formulations of the general designers and of Kadam et al.'s models, registered.

Each entry of :data:`~rainbowdp.design.formulations.FORMULATIONS` made here carries a small
example and an independent check: the general LP against the closed-form optimum of Gu et al.
(Theorems 2–3), the MILPs and Kadam's models against a brute force over leak sets (one LP per
choice of leaking outputs, :func:`brute_force_pdp`, :func:`brute_force_printed`), the min-δ LP
against the LP at the δ it found, the fixed-leak LP against the general LP on the tied graph.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import numpy as np

from .. import builders
from ..builders import circulant
from ..exceptions import InfeasibleDesignError
from ..graph import RainbowGraph
from ..optimal import optimal_mechanism
from ._kadam import kadam13_fixed_leaks, kadam13_printed, kadam15_min_delta, shift_tables
from ._lp import hockey_stick_rows, lp
from ._milp import PDP_FORMULATIONS, milp
from ._min_delta import min_delta
from ._model import all_pairs
from ._problem import utility_matrix
from ._result import DesignResult
from .formulations import Formulation, register

__all__ = ["brute_force_pdp", "brute_force_printed"]

#: How far a MILP's optimum may sit below the brute force's: its margin (1e-7) on the
#: non-leaking ratios costs O(1e-7) per probability.
MILP_TOL = 1e-5


# ---------------------------------------------------------------------------------- brute force
def _linprog(
    c: np.ndarray,
    rows: list[np.ndarray],
    rhs: list[float],
    eq: list[tuple[np.ndarray, float]],
    bounds: list[tuple[float, float]],
) -> float | None:
    """min c x s.t. rows x <= rhs, eq, bounds; None when infeasible."""
    from scipy.optimize import linprog

    res = linprog(
        c,
        A_ub=np.array(rows) if rows else None,
        b_ub=np.array(rhs) if rows else None,
        A_eq=np.array([e[0] for e in eq]),
        b_eq=np.array([e[1] for e in eq]),
        bounds=bounds,
        method="highs",
    )
    return float(res.fun) if res.status == 0 else None


def brute_force_pdp(
    G: RainbowGraph,
    *,
    epsilon: float,
    delta: float,
    utility: Any = "accuracy",
    per_node: bool = False,
) -> float:
    r"""The exact optimum of (ε, δ)-probabilistic DP (Definition 2) on a small graph, by one LP
    per choice of leak sets: per ordered pair (``"definition"``) or per node shared by its
    out-pairs (``per_node``, MILP (13) without (13g)). Outputs outside the leak set meet
    :math:`P_a(v) \le e^\epsilon P_b(v)`; the leak set's mass is at most δ. Exponential in
    the number of pairs (or nodes) times outputs: for checks on a few nodes only.
    """
    U = utility_matrix(G, utility)
    N, q = U.shape
    x = math.exp(epsilon)
    a, b = all_pairs(G)
    owners = np.unique(a) if per_node else np.arange(a.size)
    eq = [(np.kron(np.eye(N)[i], np.ones(q)), 1.0) for i in range(N)]
    best = -math.inf
    for sets in itertools.product(range(2**q), repeat=owners.size):
        leak_of = dict(zip(owners.tolist(), sets, strict=True))
        rows, rhs = [], []
        for k in range(a.size):
            mask = leak_of[int(a[k])] if per_node else leak_of[k]
            for v in range(q):
                if not mask >> v & 1:
                    r = np.zeros(N * q)
                    r[a[k] * q + v] += 1.0
                    r[b[k] * q + v] -= x
                    rows.append(r)
                    rhs.append(0.0)
        for owner, mask in leak_of.items():
            node = owner if per_node else int(a[owner])
            r = np.zeros(N * q)
            for v in range(q):
                if mask >> v & 1:
                    r[node * q + v] = 1.0
            rows.append(r)
            rhs.append(delta)
        val = _linprog(-U.ravel(), rows, rhs, eq, [(0.0, 1.0)] * (N * q))
        if val is not None:
            best = max(best, -val)
    return best


def brute_force_printed(
    G: RainbowGraph,
    *,
    epsilon: float,
    tied: np.ndarray,
    distortion: Iterable[float],
    delta: float | None = None,
    max_distortion: float | None = None,
) -> float:
    r"""The exact optimum of Kadam et al.'s printed MILP (13) (least distortion at δ) or of
    (15) (least leaked mass at ``max_distortion``), by one LP per leak set L of noise values:
    :math:`f(\eta) \le e^\epsilon f(\eta')` off L, (13g) :math:`f(\eta) \ge e^\epsilon
    f(\eta')` on L, for every shift table :math:`\eta \mapsto \eta'`."""
    rho = np.asarray(list(distortion), dtype=float)
    size = rho.size
    x = math.exp(epsilon)
    tables = shift_tables(G, np.asarray(tied))
    eq = [(np.ones(size), 1.0)]
    best = math.inf
    for L in range(2**size):
        leak = np.array([L >> e & 1 for e in range(size)], dtype=bool)
        rows, rhs = [], []
        for nxt in tables:
            for e in range(size):
                r = np.zeros(size)
                sign = -1.0 if leak[e] else 1.0
                r[e] += sign
                r[int(nxt[e])] -= sign * x
                rows.append(r)
                rhs.append(0.0)
        if max_distortion is None:
            rows.append(leak.astype(float))
            rhs.append(float(delta if delta is not None else 0.0))
            c = rho
        else:
            rows.append(rho)
            rhs.append(max_distortion)
            c = leak.astype(float)
        val = _linprog(c, rows, rhs, eq, [(0.0, 1.0)] * size)
        if val is not None:
            best = min(best, val)
    return best


# ---------------------------------------------------------------------------------- examples
def _three_nodes() -> RainbowGraph:
    """A path of three nodes, two outputs, the last node preferring the other output."""
    return RainbowGraph.from_edges(
        np.array([[0, 1], [1, 2]]),
        outputs=["a", "b"],
        rainbow_table=np.array([[0, 1], [1, 0]]),
        rainbow_ids=np.array([0, 0, 1]),
    )


def _circulant_example(n: int, shifts: list[int]) -> tuple[RainbowGraph, np.ndarray, np.ndarray]:
    """Kadam's circulant (paper reading), its additive-noise tying map, the error rate."""
    v = np.arange(n + 1)
    T = (v[None, :] - v[:, None]) % (n + 1)
    return circulant(n, shifts, directed=True), T, 1.0 * (v > 0)


def _lp_example() -> dict[str, Any]:
    G = builders.cycle([("a", "b")] * 4 + [("b", "a")])
    half = [0.5, 0.5]
    return {"G": G, "epsilon": math.log(2), "delta": 0.0, "fixed": {0: half, 3: half, 4: half}}


def _lp_check(result: DesignResult, **p: Any) -> bool:
    """Gu et al., Theorems 2–3: with the boundary nodes fixed, the LP's optimum is the optimal
    mechanism's (it dominates every valid mechanism)."""
    M = optimal_mechanism(
        p["G"], epsilon=p["epsilon"], delta=p["delta"], boundary=p["fixed"], order="outputs"
    )
    return bool(np.allclose(result.mechanism.probabilities, M.probabilities, atol=1e-9))


def _milp_example() -> dict[str, Any]:
    return {"G": _three_nodes(), "epsilon": 0.5, "delta": 0.1, "utility": "accuracy"}


def _milp_check(result: DesignResult, *, per_node: bool = False, **p: Any) -> bool:
    best = brute_force_pdp(
        p["G"], epsilon=p["epsilon"], delta=p["delta"], utility=p["utility"], per_node=per_node
    )
    return best - MILP_TOL <= result.objective <= best + 1e-9


def _min_delta_example() -> dict[str, Any]:
    G = builders.line(["yes", "no"], 2)
    return {"G": G, "epsilon": math.log(2), "fixed": {0: [0.1, 0.9], 2: [0.9, 0.1]}}


def _min_delta_check(result: DesignResult, **p: Any) -> bool:
    """The LP at the δ found is feasible, and infeasible a little below it."""
    d = result.objective
    lp(p["G"], epsilon=p["epsilon"], delta=min(1.0, d + 1e-9), fixed=p["fixed"])
    if d <= 1e-6:
        return True
    try:
        lp(p["G"], epsilon=p["epsilon"], delta=d * (1 - 1e-6), fixed=p["fixed"])
    except InfeasibleDesignError:
        return True
    return False


def _printed_example() -> dict[str, Any]:
    G, T, rho = _circulant_example(5, [1, 2])
    return {"G": G, "epsilon": 1.0, "delta": 0.1, "tied": T, "distortion": rho}


def _printed_check(result: DesignResult, **p: Any) -> bool:
    best = brute_force_printed(
        p["G"], epsilon=p["epsilon"], tied=p["tied"], distortion=p["distortion"], delta=p["delta"]
    )
    got = -result.objective / p["G"].n_nodes  # the expected distortion
    return best - 1e-9 <= got <= best + MILP_TOL


def _kadam15_example() -> dict[str, Any]:
    G, T, rho = _circulant_example(5, [1, 2])
    return {"G": G, "epsilon": 1.0, "tied": T, "distortion": rho, "max_distortion": 0.5}


def _kadam15_check(result: DesignResult, **p: Any) -> bool:
    best = brute_force_printed(
        p["G"],
        epsilon=p["epsilon"],
        tied=p["tied"],
        distortion=p["distortion"],
        max_distortion=p["max_distortion"],
    )
    return best - 1e-9 <= result.achieved_delta <= best + MILP_TOL


def _fixed_leaks_example() -> dict[str, Any]:
    G, T, rho = _circulant_example(8, [1, 2, 3])
    return {
        "G": G,
        "epsilon": 1.5,
        "delta": 0.0,
        "tied": T,
        "distortion": rho,
        "leaks": np.zeros(9, dtype=bool),
    }


def _fixed_leaks_check(result: DesignResult, **p: Any) -> bool:
    """With no leaking mass it is LP (14): the general LP at δ = 0 on the tied graph."""
    if np.any(p["leaks"]) or p["delta"] != 0:
        return True  # only the leak-free instance has this independent route
    T, rho = p["tied"], np.asarray(p["distortion"], dtype=float)
    ref = lp(p["G"], epsilon=p["epsilon"], delta=0.0, utility=-rho[T], tied=T)
    return abs(ref.objective - result.objective) <= 1e-7


# ---------------------------------------------------------------------------------- registry
_MILP_ADD_TO: dict[str, Callable[..., Any]] = {k: f.add_to for k, f in PDP_FORMULATIONS.items()}

register(
    Formulation(
        name="lp",
        kind="lp",
        reference="",
        summary="maximise a linear utility subject to exact (eps, delta)-DP on every edge",
        solve=lp,
        example=_lp_example,
        add_to=hockey_stick_rows,
        check=_lp_check,
    )
)
register(
    Formulation(
        name="milp",
        kind="milp",
        reference="",
        summary=(
            "maximise a linear utility subject to (eps, delta)-probabilistic DP (Kadam et al., "
            "Definition 2): indicators and a budget per ordered neighbour pair"
        ),
        solve=partial(milp, formulation="definition"),
        example=_milp_example,
        add_to=_MILP_ADD_TO["definition"],
        check=_milp_check,
        aliases=("definition",),
    )
)
register(
    Formulation(
        name="min-delta",
        kind="lp",
        reference="",
        summary="the smallest delta at epsilon over every event (or single outputs)",
        solve=min_delta,
        example=_min_delta_example,
        add_to=hockey_stick_rows,
        check=_min_delta_check,
        aliases=("min_delta",),
    )
)
register(
    Formulation(
        name="kadam13-per-node",
        kind="milp",
        reference="Kadam et al. (2024), MILP (13) without (13g), generalised to any graph",
        summary=(
            "maximise a linear utility subject to probabilistic DP with one indicator vector "
            "and budget per node, shared by its out-pairs"
        ),
        solve=partial(milp, formulation="kadam13-per-node"),
        example=_milp_example,
        add_to=_MILP_ADD_TO["kadam13-per-node"],
        check=partial(_milp_check, per_node=True),
        aliases=("kadam13",),
    )
)
register(
    Formulation(
        name="kadam13-printed",
        kind="milp",
        reference="Kadam et al. (2024), MILP (13a)-(13h) as printed",
        summary=(
            "least-distortion noise PMF with one leak indicator per noise value shared by every "
            "shift, (13g) included"
        ),
        solve=kadam13_printed,
        example=_printed_example,
        check=_printed_check,
        aliases=("printed",),
    )
)
register(
    Formulation(
        name="kadam15-min-delta",
        kind="milp",
        reference="Kadam et al. (2024), min-delta (15) over (13b)-(13h)",
        summary="least leaked mass of a noise PMF whose expected distortion is at most a cap",
        solve=kadam15_min_delta,
        example=_kadam15_example,
        check=_kadam15_check,
        aliases=("kadam15",),
    )
)
register(
    Formulation(
        name="kadam13-fixed-leaks",
        kind="lp",
        reference="Kadam et al. (2024), (13) with the leak set fixed; LP (14) with none",
        summary=(
            "least-distortion noise PMF whose leaking masses are a given set: the LP that "
            "polishes the printed MILP's point"
        ),
        solve=kadam13_fixed_leaks,
        example=_fixed_leaks_example,
        check=_fixed_leaks_check,
    )
)
