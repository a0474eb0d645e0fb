r"""Modulo-addition noise (Kadam et al.): the circulant instance, its leakage, optimal PMFs.

A query with values :math:`[n] = \{0, \dots, n\}` is answered with
:math:`\tilde q = (q + \eta) \bmod (n + 1)`, the noise :math:`\eta` drawn from one PMF f on
[n]. As a rainbow graph this is :func:`rainbowdp.builders.circulant`: node q's row is f shifted
by q, :math:`P_q(\tilde v) = f((\tilde v - q) \bmod (n+1))`.

Neighbours are given by a set M of shifts :math:`\mu = \mathbb Q(X) - \mathbb Q(X')` (Kadam et
al., eq. (6)): single distance (SD, :math:`M = \{\hat\mu\}`), bounded distance (BD,
:math:`M = \{1, \dots, \bar\mu\}`) or any M. Two readings of the relation are offered:

``"paper"``
    the ordered pairs (X, X') with :math:`\mathbb Q(X') = \mathbb Q(X) - \mu`, one way: a
    directed circulant with arcs :math:`q \to q - \mu`. Each arc compares :math:`f(\eta)` with
    :math:`f(\eta + \mu)`, exactly eq. (7); this is what Table 1 and Theorems 2–3 use.
``"symmetric"`` (default)
    q and q ± μ are neighbours, as (ε, δ)-DP on an undirected neighbourhood requires. The
    paper's optimal PMFs are *not* private under this reading (see ``docs/noise/modulo.md``).

The probabilistic-DP leakage (Definition 2, eqs. (3), (5)–(7)) of a PMF is the
:func:`~rainbowdp.privacy.pdp_delta` of its mechanism on the graph of the reading
(:func:`leakage`); by Theorem 1 (PDP implies DP) it bounds the (ε, δ)-DP δ (:func:`dp_delta`).

Optimal PMFs are found by the general designers on the circulant, reduced to one PMF by the
tying map :math:`T[q, v] = (v - q) \bmod (n + 1)` (:func:`optimal_pmf`): the MILP (13) exactly as
printed (one indicator per η shared by every μ, ``formulation="printed"``) or per ordered pair
(Definition 2 taken literally, ``"definition"``), and the LP (14) for δ = 0. Closed forms:
:func:`sd_pmf` (Lemma 3 and Theorem 2, SD) and :func:`bd_pmf` (Lemma 4, BD, δ = 0).

References
----------
.. [1] N. Kadam, A. Scaglione, N. Ravi, S. Peisert, B. Lunghino, A. Shumavon, "Optimum noise
   mechanism for differentially private queries in discrete finite sets", Cybersecurity (2024).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import KW_ONLY, dataclass
from typing import Any, ClassVar, Literal

import numpy as np

from .._validation import check_delta, check_epsilon, check_int, real_array
from ..exceptions import ParameterError, ParameterTypeError
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism
from ._family import SAFETY_MARGIN, Claim, Family, build_epsilon, register

__all__ = [
    "MAX_BD_SETS",
    "MinDeltaResult",
    "Modulo",
    "ModuloResult",
    "asymptotic_error_rate",
    "bd_min_delta",
    "bd_pmf",
    "distortion",
    "dp_delta",
    "graph",
    "leakage",
    "mechanism",
    "min_delta_pmf",
    "optimal_pmf",
    "sd_min_delta",
    "sd_pmf",
    "tying",
]

Reading = Literal["symmetric", "paper"]
Formulation = Literal["printed", "definition"]
READINGS = ("symmetric", "paper")
FORMULATIONS = ("printed", "definition")
LOSSES = ("er", "mse", "abs")


# ------------------------------------------------------------------------------------ checks
def _check_n(n: Any) -> int:
    return check_int(n, "n", minimum=1, maximum=10**6)


def _check_shifts(shifts: Any, n: int) -> list:
    """Validated shifts: sorted ints in 1..n (a scalar query), or sorted tuples of d ints (a
    vector query; each coordinate taken modulo n + 1, not all zero)."""
    if isinstance(shifts, str | bytes) or not isinstance(shifts, Iterable):
        raise ParameterTypeError(
            f"`shifts` must be an iterable of integers in 1..{n} or of integer tuples, got "
            f"shifts={shifts!r}."
        )
    items = list(shifts)
    if not items:
        raise ParameterError(f"`shifts` must contain at least one shift, got shifts={shifts!r}.")
    if all(not isinstance(mu, tuple | list) for mu in items):
        return sorted({check_int(mu, "shifts", minimum=1, maximum=n) for mu in items})
    dims = {len(mu) if isinstance(mu, tuple | list) else 0 for mu in items}
    if len(dims) != 1 or 0 in dims:
        raise ParameterError(
            f"`shifts` of a vector query must all be tuples of one length d, got shifts={shifts!r}."
        )
    out = set()
    for mu in items:
        t = tuple(check_int(c, "shifts", minimum=-n, maximum=n) % (n + 1) for c in mu)
        if not any(t):
            raise ParameterError(
                f"`shifts` must not contain the zero shift (modulo n + 1), got {tuple(mu)!r}."
            )
        out.add(t)
    return sorted(out)


def _dim(mus: list) -> int:
    return len(mus[0]) if isinstance(mus[0], tuple) else 1


def _values(n: int, d: int) -> np.ndarray:
    """(size, d) coordinates of the flat values 0 .. (n+1)^d - 1 (row-major)."""
    grids = np.indices((n + 1,) * d).reshape(d, -1)
    return grids.T


def _flat(coords: np.ndarray, n: int) -> np.ndarray:
    """Flat row-major index of coordinates modulo n + 1 (the last axis holds the d coordinates)."""
    c = np.mod(coords, n + 1)
    d = c.shape[-1]
    weights = (n + 1) ** np.arange(d - 1, -1, -1)
    return (c * weights).sum(axis=-1)


def _check_reading(reading: Any) -> str:
    if not isinstance(reading, str) or reading not in READINGS:
        raise ParameterError(f"`reading` must be one of {READINGS}, got reading={reading!r}.")
    return reading


def _positive_epsilon(value: Any) -> float:
    """ε > 0 with e^ε finite: the closed forms assume ε > 0 (at ε = 0 every mass is equal)."""
    eps = check_epsilon(value, finite_exp=True)
    if eps <= 0:
        raise ParameterError(f"`epsilon` must be > 0 for the closed forms, got epsilon={value!r}.")
    return eps


def _check_pmf(pmf: Any) -> np.ndarray:
    """A PMF on [n] (1-D) or on [n]^d (a d-dimensional array of equal sides)."""
    f = real_array(pmf, "pmf")
    if f.ndim < 1 or f.shape[0] < 2 or len(set(f.shape)) != 1:
        raise ParameterError(
            "`pmf` must be an array of n + 1 >= 2 probabilities per axis (shape (n + 1,) or "
            f"(n + 1,) * d), got shape {f.shape}."
        )
    if not np.all(np.isfinite(f)) or np.any(f < 0) or abs(float(f.sum()) - 1.0) > 1e-9:
        raise ParameterError(
            f"`pmf` must be non-negative and sum to 1 (within 1e-9), got pmf={pmf!r}."
        )
    return f.astype(np.float64)


# ------------------------------------------------------------------------------------ instance
def graph(n: int, *, shifts: Iterable[Any], reading: Reading = "symmetric") -> RainbowGraph:
    r"""The circulant rainbow graph of query values 0..n (or [n]^d) under the shifts M.

    ``reading="paper"``: arcs :math:`q \to q - \mu` (Kadam et al.'s ordered pairs, eq. (6));
    ``"symmetric"``: edges :math:`q \sim q \pm \mu`. See the module notes. For a vector query
    (shifts given as d-tuples) the nodes are the tuples of [n]^d, shifts act coordinate-wise
    modulo n + 1, outputs are the tuples too, and each node's rainbow lists the outputs in the
    row-major order of the noise :math:`\eta = \tilde v - q`.

    Examples
    --------
    >>> graph(8, shifts=[1, 2, 3]).n_edges, graph(8, shifts=[1, 2, 3], reading="paper").n_edges
    (27, 27)
    >>> G = graph(2, shifts=[(0, 1), (1, 0)], reading="paper")
    >>> G.n_nodes, G.n_edges, G.nodes[5]
    (9, 18, (1, 2))
    """
    from ..builders import circulant

    n = _check_n(n)
    mus = _check_shifts(shifts, n)
    directed = _check_reading(reading) == "paper"
    if _dim(mus) == 1:
        return circulant(n, mus, directed=directed)
    d = _dim(mus)
    coords = _values(n, d)
    size = coords.shape[0]
    q = np.arange(size)
    arcs = np.concatenate([np.column_stack([q, _flat(coords - np.asarray(mu), n)]) for mu in mus])
    edges = arcs if directed else np.unique(np.sort(arcs, axis=1), axis=0)
    order = _flat(coords[:, None, :] + coords[None, :, :], n)  # node q's k-th output: q + eta_k
    table, ids = np.unique(order, axis=0, return_inverse=True)
    labels = [tuple(int(c) for c in row) for row in coords]
    return RainbowGraph.from_edges(
        edges,
        outputs=labels,
        rainbow_table=table.astype(np.intp),
        rainbow_ids=ids.astype(np.intp).ravel(),
        nodes=labels,
        answers=labels,
        directed=directed,
    )


def tying(n: int, d: int = 1) -> np.ndarray:
    r"""The tying map of additive noise: :math:`T[q, v] = (v - q) \bmod (n + 1)` (flat,
    coordinate-wise for d > 1).

    Probabilities with equal entries are one variable of ``design.lp/milp(..., tied=T)``: every
    row is the PMF f shifted by q.

    Examples
    --------
    >>> tying(2).tolist()
    [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
    """
    n = _check_n(n)
    d = check_int(d, "d", minimum=1, maximum=8)
    coords = _values(n, d)
    return _flat(coords[None, :, :] - coords[:, None, :], n)


def mechanism(pmf: Any, *, shifts: Iterable[Any], reading: Reading = "symmetric") -> Mechanism:
    r"""The modulo-addition mechanism of ``pmf`` on its circulant graph (rows: f shifted by q).

    Examples
    --------
    >>> M = mechanism([0.5, 0.3, 0.2], shifts=[1])
    >>> M.probabilities.tolist()
    [[0.5, 0.3, 0.2], [0.2, 0.5, 0.3], [0.3, 0.2, 0.5]]
    """
    f = _check_pmf(pmf)
    n, d = f.shape[0] - 1, f.ndim
    G = graph(n, shifts=shifts, reading=reading)
    if _dim(_check_shifts(shifts, n)) != d:
        raise ParameterError(
            f"`shifts` must have the dimension of `pmf` ({d}), got shifts={shifts!r}."
        )
    return Mechanism(G, f.ravel()[tying(n, d)])


def leakage(
    pmf: Any, *, epsilon: float, shifts: Iterable[int], reading: Reading = "symmetric"
) -> float:
    r"""The probabilistic-DP leakage of ``pmf`` (Kadam et al., Definition 2, eqs. (5)–(7)).

    Under ``reading="paper"``:

    .. math::

        \delta^\epsilon = \max_{\mu \in M} \sum_{\eta=0}^{n} f(\eta)\,
        \mathbf 1[f(\eta) > e^\epsilon f((\eta + \mu) \bmod (n+1))];

    under ``"symmetric"`` the maximum also runs over −μ. Computed as
    :func:`~rainbowdp.privacy.pdp_delta` of :func:`mechanism`: every comparison decided
    soundly, never under-counted.

    Examples
    --------
    >>> f = [0.5, 0.25, 0.25]
    >>> leakage(f, epsilon=0.5, shifts=[1], reading="paper")   # 0.5 > e^0.5 * 0.25
    0.5
    """
    from ..privacy import pdp_delta

    return pdp_delta(mechanism(pmf, shifts=shifts, reading=reading), check_epsilon(epsilon))


def dp_delta(
    pmf: Any, *, epsilon: float, shifts: Iterable[int], reading: Reading = "symmetric"
) -> float:
    r"""The exact (ε, δ)-DP δ of ``pmf`` (hockey-stick divergence, rounded up).

    By Theorem 1 of Kadam et al. (PDP implies DP) it never exceeds :func:`leakage`.

    Examples
    --------
    >>> f = [0.5, 0.25, 0.25]
    >>> dp_delta(f, epsilon=0.5, shifts=[1], reading="paper") <= 0.5
    True
    """
    from ..privacy import privacy_profile

    M = mechanism(pmf, shifts=shifts, reading=reading)
    return float(privacy_profile(M, [check_epsilon(epsilon)])[0])


# ------------------------------------------------------------------------------------ distortion
def distortion(n: int, loss: Any = "er", d: int = 1) -> np.ndarray:
    r"""The distortion :math:`\rho_\eta` of a loss, for η = 0..n (flat, row-major, over [n]^d
    for a vector query; Kadam et al., eq. (9)).

    ``"er"``: error rate, :math:`\rho_0 = 0`, :math:`\rho_\eta = 1` otherwise (Definition 3);
    ``"mse"``: :math:`\eta^2` (Definition 4; :math:`\sum_i \eta_i^2` for vectors); ``"abs"``:
    η (:math:`\sum_i \eta_i`); or an array of (n + 1)^d finite numbers.

    Examples
    --------
    >>> distortion(3, "mse").tolist()
    [0.0, 1.0, 4.0, 9.0]
    """
    n = _check_n(n)
    d = check_int(d, "d", minimum=1, maximum=8)
    eta = _values(n, d).astype(np.float64)
    if isinstance(loss, str):
        if loss == "er":
            return (eta.sum(axis=1) > 0).astype(np.float64)
        if loss == "mse":
            return (eta * eta).sum(axis=1)
        if loss == "abs":
            return eta.sum(axis=1)
        raise ParameterError(
            f"`loss` must be one of {LOSSES} or an array of (n + 1)^d numbers, got loss={loss!r}."
        )
    rho = real_array(loss, "loss").ravel()
    if rho.shape != (eta.shape[0],) or not np.all(np.isfinite(rho)):
        raise ParameterError(
            f"`loss` must be {LOSSES} or {eta.shape[0]} finite numbers, got loss={loss!r}."
        )
    return rho.astype(np.float64)


# ------------------------------------------------------------------------------------ optimum
@dataclass(frozen=True)
class ModuloResult:
    r"""An optimal modulo-noise PMF (:func:`optimal_pmf`).

    Attributes
    ----------
    pmf : numpy.ndarray
        f(η), η = 0..n.
    objective : float
        The expected distortion :math:`\sum_\eta \rho_\eta f(\eta)` (eq. (9)).
    leakage : float
        The sound PDP leakage of ``pmf`` at ε under the reading (:func:`leakage`).
    design : DesignResult or PrintedResult
        ``"definition"``: the general designer's result on the circulant (model size, solver,
        times); ``"printed"``: the printed MILP's status, solver, time and size.
    """

    pmf: np.ndarray
    objective: float
    leakage: float
    design: Any

    def __repr__(self) -> str:
        return (
            f"ModuloResult(pmf of {self.pmf.size} values, objective={self.objective!r}, "
            f"leakage={self.leakage!r}, design={type(self.design).__name__})"
        )


def optimal_pmf(
    n: int,
    *,
    epsilon: float,
    delta: float,
    shifts: Iterable[Any],
    loss: Any = "er",
    reading: Reading = "symmetric",
    formulation: Formulation = "printed",
    solver: Any = None,
    time_limit: float | None = None,
) -> ModuloResult:
    r"""The modulo-addition PMF of least expected distortion under (ε, δ)-PDP.

    Solves Kadam et al.'s MILP (13) (δ > 0) or LP (14) (δ = 0) as the general designer's
    problem on the circulant graph of the reading, reduced to one PMF by :func:`tying`
    (n + 1 probabilities instead of :math:`(n+1)^2`).

    Parameters
    ----------
    n : int
        Largest query value.
    epsilon, delta : float
        ε >= 0 (e^ε a finite float), δ in [0, 1].
    shifts : iterable of int, or of d-tuples of int
        M: each μ in 1..n, or vectors of a d-dimensional query (coordinates modulo n + 1); the
        PMF is then joint over [n]^d, shape (n + 1,) * d.
    loss : {"er", "mse", "abs"} or array_like, default "er"
        The distortion (:func:`distortion`).
    reading : {"symmetric", "paper"}, default "symmetric"
        The neighbour relation (module notes).
    formulation : {"printed", "definition"}, default "printed"
        ``"printed"``: (13) as printed, one indicator :math:`u(\eta)` and one :math:`y_\eta`
        shared by every μ (each mass either meets every ratio constraint or counts as leaking
        once); this reproduces Table 1. ``"definition"``: Definition 2 literally, one
        indicator vector and budget per μ (the maximum over μ of per-μ leakages); never worse.
    solver, time_limit
        As for :func:`rainbowdp.design.milp`.

    Returns
    -------
    ModuloResult

    Notes
    -----
    The designers keep a margin of :math:`10^{-7}` on the non-leaking ratios and prove the
    result with the exact :func:`~rainbowdp.privacy.pdp_delta` (``result.leakage <= δ``), so
    objectives may differ from the exact optimum by about that margin.

    Examples
    --------
    >>> r = optimal_pmf(8, epsilon=1.5, delta=0.0, shifts=[1, 2, 3], reading="paper")
    >>> round(float(r.pmf[0]), 4)          # Kadam et al., Table 1, delta = 0
    0.5432
    """
    from .. import design

    n = _check_n(n)
    eps = check_epsilon(epsilon, finite_exp=True)
    dlt = check_delta(delta)
    mus = _check_shifts(shifts, n)
    rd = _check_reading(reading)
    if not isinstance(formulation, str) or formulation not in FORMULATIONS:
        raise ParameterError(
            f"`formulation` must be one of {FORMULATIONS}, got formulation={formulation!r}."
        )
    d = _dim(mus)
    rho = distortion(n, loss, d)
    if formulation == "printed":
        f, res = _printed_milp(n, eps, dlt, mus, rd, rho, solver, time_limit)
    else:
        G = graph(n, shifts=mus, reading=rd)
        T = tying(n, d)
        res = design.milp(
            G,
            epsilon=eps,
            delta=dlt,
            utility=-rho[T],  # the designers maximise: minus the distortion of each (q, v)
            tied=T,
            formulation="definition",
            solver=solver,
            time_limit=time_limit,
        )
        f = np.array(res.mechanism.probabilities[0])
    return ModuloResult(
        pmf=f.reshape((n + 1,) * d),
        objective=float(rho @ f),
        leakage=leakage(f.reshape((n + 1,) * d), epsilon=eps, shifts=mus, reading=rd),
        design=res,
    )


@dataclass(frozen=True)
class MinDeltaResult:
    r"""The least-leakage modulo PMF under a distortion cap (:func:`min_delta_pmf`).

    Attributes
    ----------
    pmf : numpy.ndarray
        f(η), shape (n + 1,) or (n + 1,) * d.
    delta : float
        Its sound PDP leakage at ε under the reading (:func:`leakage`): the δ achieved.
    objective : float
        Its expected distortion (at most the cap, up to the solver's tolerance of about 1e-9).
    design : PrintedResult
    """

    pmf: np.ndarray
    delta: float
    objective: float
    design: Any

    def __repr__(self) -> str:
        return (
            f"MinDeltaResult(pmf of shape {self.pmf.shape}, delta={self.delta!r}, "
            f"objective={self.objective!r}, design={type(self.design).__name__})"
        )


def min_delta_pmf(
    n: int,
    *,
    epsilon: float,
    max_distortion: float,
    shifts: Iterable[Any],
    loss: Any = "er",
    reading: Reading = "symmetric",
    solver: Any = None,
    time_limit: float | None = None,
) -> MinDeltaResult:
    r"""The modulo PMF of least PDP leakage whose expected distortion is at most a cap.

    Kadam et al.'s variant (15) of the printed MILP (13): minimise δ subject to
    :math:`\sum_\eta \rho_\eta f(\eta) \le \bar\rho` (15b) and (13b)–(13h). The δ reported is
    the sound leakage of the PMF found.

    Raises
    ------
    InfeasibleDesignError
        If no PMF has distortion at most ``max_distortion`` (e.g. a negative cap).

    Examples
    --------
    >>> r = min_delta_pmf(8, epsilon=1.5, max_distortion=1 - 0.5548, shifts=[1, 2, 3],
    ...                   reading="paper")
    >>> round(r.delta, 4)       # Table 1: f*(0) = 0.5548 needs delta = 0.1238
    0.1238
    """
    n = _check_n(n)
    eps = check_epsilon(epsilon, finite_exp=True)
    mus = _check_shifts(shifts, n)
    rd = _check_reading(reading)
    if isinstance(max_distortion, bool) or not isinstance(max_distortion, int | float):
        raise ParameterTypeError(
            f"`max_distortion` must be a real number, got max_distortion={max_distortion!r}."
        )
    cap = float(max_distortion)
    if not math.isfinite(cap):
        raise ParameterError(f"`max_distortion` must be finite, got max_distortion={cap!r}.")
    d = _dim(mus)
    rho = distortion(n, loss, d)
    f, res = _printed_milp(n, eps, 1.0, mus, rd, rho, solver, time_limit, rho_max=cap)
    shaped = f.reshape((n + 1,) * d)
    return MinDeltaResult(
        pmf=shaped,
        delta=leakage(shaped, epsilon=eps, shifts=mus, reading=rd),
        objective=float(rho @ f),
        design=res,
    )


#: Margin of the printed MILP's non-leaking ratios: f(eta) <= e^eps f(eta + mu) - MARGIN (as
#: the general designer's, so that ties of the solver's float point do not count as leaks).
MARGIN = 1e-7


def _polish(
    u: np.ndarray,
    nexts: list[np.ndarray],
    eps: float,
    rho: np.ndarray,
    budget: float | None,
    rho_max: float | None = None,
) -> np.ndarray | None:
    r"""Re-solve the printed MILP's LP with its leak set L = {η : u_η = 1} fixed, at the closed
    forms' margins instead of the MILP's :data:`MARGIN`.

    Non-leaking masses get :math:`f(\eta) \le e^{\epsilon_b} f(\eta + \mu)` (ε_b of
    :func:`~rainbowdp.noise.build_epsilon`, a relative margin of about 1e-12), leaking ones
    (13g) :math:`f(\eta) \ge e^\epsilon f(\eta + \mu)`, and
    :math:`\sum_{\eta \in L} f(\eta)` at most ``budget`` (or, with ``rho_max``, the distortion
    at most ``rho_max`` and the leaked mass minimised, (15)). The MILP's point is feasible for
    this LP, so its optimum is never worse; a simplex vertex meets its active constraints to
    round-off, well inside the margin. Returns None when the LP fails.
    """
    from scipy import sparse
    from scipy.optimize import linprog

    size = len(rho)
    leak = u > 0.5
    x_b, x = math.exp(build_epsilon(eps)), math.exp(eps)
    idx = np.arange(size)
    rows, cols, vals = [], [], []
    count = 0
    for nxt in nexts:
        keep = ~leak & (nxt != idx)
        m = int(keep.sum())  # f(e) - e^eps_b f(e + mu) <= 0
        r = np.arange(count, count + m)
        rows += [r, r]
        cols += [idx[keep], nxt[keep]]
        vals += [np.ones(m), np.full(m, -x_b)]
        count += m
        lk = leak & (nxt != idx)
        m = int(lk.sum())  # (13g): e^eps f(e + mu) - f(e) <= 0
        r = np.arange(count, count + m)
        rows += [r, r]
        cols += [nxt[lk], idx[lk]]
        vals += [np.full(m, x), -np.ones(m)]
        count += m
    b_ub = [np.zeros(count)]
    if rho_max is None:
        c = rho
        rows.append(np.full(int(leak.sum()), count))
        cols.append(idx[leak])
        vals.append(np.ones(int(leak.sum())))
        b_ub.append([budget])
    else:
        c = leak.astype(float)
        rows.append(np.full(size, count))
        cols.append(idx)
        vals.append(rho.astype(float))
        b_ub.append([rho_max])
    count += 1
    A = sparse.csr_array(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(count, size)
    )
    res = linprog(
        c,
        A_ub=A,
        b_ub=np.concatenate(b_ub),
        A_eq=np.ones((1, size)),
        b_eq=[1.0],
        bounds=(0, 1),
        method="highs-ds",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    if res.status != 0:
        return None
    f = np.maximum(res.x, 0.0)
    return f / f.sum()


def _printed_milp(
    n: int,
    eps: float,
    dlt: float,
    mus: list[int],
    reading: str,
    rho: np.ndarray,
    solver: Any,
    time_limit: float | None,
    rho_max: float | None = None,
) -> tuple[np.ndarray, PrintedResult]:
    r"""Kadam et al.'s MILP (13) exactly as printed, on one PMF (n + 1 values); with
    ``rho_max``, its min-δ variant (15): minimise :math:`\sum_\eta y_\eta` subject to the
    distortion :math:`\sum_\eta \rho_\eta f(\eta) \le \bar\rho` and (13b)–(13h).

    One indicator :math:`u_\eta` and one :math:`y_\eta` per η, shared by every μ: (13c)–(13e)
    make :math:`y_\eta = u_\eta f(\eta)`, (13f) forbids a non-leaking mass to exceed
    :math:`e^\epsilon f(\eta + \mu)` for any μ, and (13g) requires a leaking one to reach
    :math:`e^\epsilon f(\eta + \mu)` for *every* μ. Under the symmetric reading M is replaced by
    :math:`M \cup -M`. The non-leaking side keeps a margin of :data:`MARGIN`, the budget
    :math:`\delta - \min(\delta/2, 10^{-7})`; the solver's point is then checked with the sound
    :func:`leakage` and, if a tie still leaks, mixed with the uniform PMF (which moves every
    ratio towards 1) by the smallest weight that passes.
    """
    import pulp

    from .._verify.repair import find_mixing
    from ..design import solvers

    d = _dim(mus)
    coords = _values(n, d)
    size = coords.shape[0]
    if rho_max is None and dlt >= 1.0:
        # No leak can exceed the whole mass 1 <= delta, so the budget never binds: a point mass
        # on a least-distortion value (eta = 0 for the built-in losses) is the exact optimum.
        # The MILP would only find it up to its margin, after a long search on a degenerate
        # model (about 70 s at n = 35). No model is built (0 variables).
        pmf = np.zeros(size)
        pmf[int(np.argmin(rho))] = 1.0
        return pmf, PrintedResult("optimal", "closed form (delta >= 1)", 0.0, 0, 0.0)
    x = math.exp(min(eps, math.log(1e8)))
    vecs = [np.atleast_1d(np.asarray(mu)) for mu in mus]
    if reading == "symmetric":
        vecs += [-v for v in vecs]
    # nxt[k][e]: the flat index of eta + mu_k (mod n + 1, coordinate-wise); duplicates dropped
    tables = {tuple(_flat(coords + v, n).tolist()) for v in vecs}
    nexts = [np.array(t) for t in sorted(tables)]
    budget = dlt - min(dlt / 2, MARGIN)
    prob = pulp.LpProblem("kadam13_printed", pulp.LpMinimize)
    f = [prob.add_variable(f"f_{e}", 0, 1) for e in range(size)]
    y = [prob.add_variable(f"y_{e}", 0, 1) for e in range(size)]
    u = [prob.add_variable(f"u_{e}", cat=pulp.LpBinary) for e in range(size)]
    distortion_sum = pulp.lpSum(float(rho[e]) * f[e] for e in range(size))
    if rho_max is None:
        prob += distortion_sum
        prob += pulp.lpSum(y) <= budget, "13c_budget"
    else:  # (15): the leaked mass is the objective, the distortion a constraint (15b)
        prob += pulp.lpSum(y)
        prob += distortion_sum <= rho_max, "15b"
    prob += pulp.lpSum(f) == 1, "13b"
    for e in range(size):
        prob += y[e] - u[e] <= 0, f"13c_{e}"
        prob += u[e] + f[e] - y[e] <= 1, f"13d_{e}"
        prob += u[e] - f[e] + y[e] <= 1, f"13e_{e}"
        for k, nxt in enumerate(nexts):
            g = f[int(nxt[e])]
            prob += f[e] - x * g - (1 + MARGIN) * u[e] <= -MARGIN, f"13f_{e}_{k}"
            prob += x * g - f[e] + x * u[e] <= x, f"13g_{e}_{k}"
            # a valid cut (y = u f and a non-leaking mass meets the ratio): it makes the LP
            # relaxation at least as tight as the (eps, delta)-DP LP, which speeds the search
            prob += f[e] - x * g - y[e] <= 0, f"cut_{e}_{k}"
    slv = solvers.make_solver(solver, time_limit=time_limit)
    out = solvers.solve(prob, slv, time_limit=time_limit)
    pmf = np.array([max(v.varValue or 0.0, 0.0) for v in f])
    pmf /= pmf.sum()

    def ok(rows: np.ndarray) -> bool:
        pmf_d = rows[0].reshape((n + 1,) * d)
        return leakage(pmf_d, epsilon=eps, shifts=mus, reading=reading) <= dlt

    lam = 0.0
    # polish: the LP with the MILP's leak set fixed, at the closed forms' tiny margins
    uvals = np.array([v.varValue or 0.0 for v in u])
    eps_c = min(eps, math.log(1e8))
    polished = _polish(uvals, nexts, eps_c, rho, dlt - min(dlt / 2, SAFETY_MARGIN), rho_max=rho_max)
    used = False
    if polished is not None:
        if rho_max is None:
            used = ok(polished[None, :]) and rho @ polished <= rho @ pmf + 1e-12
        else:
            lk = leakage(polished.reshape((n + 1,) * d), epsilon=eps, shifts=mus, reading=reading)
            old = leakage(pmf.reshape((n + 1,) * d), epsilon=eps, shifts=mus, reading=reading)
            used = lk <= old and rho @ polished <= rho_max + 1e-12
        if used:
            pmf = polished
    if rho_max is not None:  # (15) reports the leakage of what it found; no repair needed
        return pmf, PrintedResult(out.status, out.solver, out.seconds, 3 * size, lam, used)
    if not ok(pmf[None, :]):
        found = find_mixing(pmf[None, :], np.array([True]), ok, 1e-12)
        if found is None:  # pragma: no cover - mixing with the uniform PMF always ends private
            raise ParameterError("the printed MILP's solution could not be made private.")
        lam, rows = found
        pmf = rows[0]
    return pmf, PrintedResult(out.status, out.solver, out.seconds, 3 * size, lam, used)


@dataclass(frozen=True)
class PrintedResult:
    """What :func:`optimal_pmf` reports of the printed MILP (13): solver status, time, size.

    ``status`` is ``"optimal"``, or ``"time_limit"`` when ``time_limit`` stopped the solver
    with a feasible incumbent: the PMF is then that incumbent (private as stated, possibly
    not optimal); with no incumbent the solve raises
    :class:`~rainbowdp.exceptions.SolverTimeLimitError`.
    """

    status: str
    solver: str
    solve_seconds: float
    n_variables: int
    repair_weight: float
    polished: bool = False


# ------------------------------------------------------------------------------------ closed forms
def _sd_sorted(m: int, eps: float, dlt: float) -> np.ndarray:
    r"""Sorted optimal masses :math:`f_{(0)} \ge \dots \ge f_{(m)}` of the SD problem on a cycle
    of m + 1 values (Lemma 3 for δ = 0, Theorem 2 for δ > 0; see :func:`sd_pmf`).

    Every power of :math:`e^\epsilon` is written with a non-positive exponent (the breakpoints
    and comparisons in log space), so no intermediate overflows for any finite ε, m and δ:
    :math:`\underline\delta_k e^{(m-k-h)\epsilon} = e^{-h\epsilon}(1 - e^{-\epsilon}) /
    (1 - e^{-(m-k+1)\epsilon})` and :math:`e^{(m-h)\epsilon}(e^\epsilon - 1)/(e^{k\epsilon} - 1)
    = e^{(m-h+1-k)\epsilon}(1 - e^{-\epsilon})/(1 - e^{-k\epsilon})`, where h > m − k.
    """
    h = np.arange(m + 1, dtype=np.float64)
    one = math.log(-math.expm1(-eps))  # log(1 - e^-eps)

    def log_low(k: int) -> float:  # log of the lower breakpoint of flat region k, (19c)
        return -(m - k) * eps + one - math.log(-math.expm1(-(m - k + 1) * eps))

    def flat(k: int) -> np.ndarray:  # (20): the chain of m - k + 1 masses ending at low(k)
        c = one - math.log(-math.expm1(-(m - k + 1) * eps))
        return np.where(h <= m - k, np.exp(c - h * eps), 0.0)

    if dlt >= 1.0:
        return flat(m)
    log_d = math.log(dlt) if dlt > 0 else -math.inf
    # region k: linear on (x low(k-1), low(k)], flat on [low(k), x low(k)]; flat 0 is [0, x low(0)]
    if log_d <= eps + log_low(0):
        return flat(0)
    for k in range(1, m + 1):
        lk = log_low(k)
        if log_d <= lk:  # linear region k, (21)
            head = np.exp(log_d + (m - k - h) * eps)  # at most low(k) e^{(m-k)eps} <= 1
            rest = -math.expm1(log_d - lk)  # 1 - delta / low(k)
            scale = one - math.log(-math.expm1(-k * eps))
            # exponents clipped at 0 where h <= m - k (entries not used there)
            tail = rest * np.exp(np.minimum(m - h + 1 - k, 0.0) * eps + scale)
            return np.where(h <= m - k, head, tail)
        if k == m or log_d <= eps + lk:  # flat region k
            return flat(k)
    return flat(m)  # pragma: no cover - the loop returns


def sd_pmf(n: int, *, epsilon: float, delta: float = 0.0, mu: int) -> np.ndarray:
    r"""The optimal error-rate PMF for the single-distance neighbourhood :math:`\{\hat\mu\}`.

    Paper reading (eq. (7), shift +μ̂). With :math:`N = (n+1)/\gcd(n+1, \hat\mu)` the values
    :math:`h\hat\mu \bmod (n+1)`, h = 0..N − 1, carry the sorted masses
    :math:`f_{(0)} \ge \dots \ge f_{(N-1)}` and every other value has mass 0 (Lemma 3,
    Case 2). On that cycle of N values (Remark 3 with n replaced by N − 1; erratum 9 in
    ``docs/errata.md``: the paper says N):

    * δ = 0 (Lemma 3): :math:`f_{(k)} = e^{-k\epsilon} f_{(0)}`,
      :math:`f_{(0)} = (1 - e^{-\epsilon})/(1 - e^{-N\epsilon})` ((17), (18));
    * δ > 0 (Theorem 2, rebuilt from its proof): with m = N − 1 and
      :math:`\underline\delta_k = e^{-(m-k)\epsilon}(1 - e^{-\epsilon})/(1 - e^{-(m-k+1)\epsilon})`
      (19c), in the flat region :math:`\underline\delta_k \le \delta \le e^\epsilon
      \underline\delta_k` the chain :math:`f_{(h)} = \underline\delta_k e^{(m-k-h)\epsilon}`,
      h <= m − k, and 0 beyond (20); in the linear region :math:`e^\epsilon
      \underline\delta_{k-1} < \delta \le \underline\delta_k`,
      :math:`f_{(h)} = \delta e^{(m-k-h)\epsilon}` for h <= m − k and
      :math:`f_{(h)} = (1 - \delta/\underline\delta_k)\, e^{(m-h)\epsilon}
      (e^\epsilon - 1)/(e^{k\epsilon} - 1)` for h > m − k (21). The smallest non-zero mass of
      the head is the one leaking mass.

    The masses are those of the optimum at :math:`\epsilon_b = \epsilon - \min(\epsilon/2,
    2^{-40}\max(1, \epsilon))` and :math:`\delta_b = \delta - \min(\delta/2, 2^{-40})`, a hair
    inside the request (:func:`~rainbowdp.noise.build_epsilon`): the closed form's equalities
    :math:`f_{(h)} = e^\epsilon f_{(h+1)}` would otherwise be float ties that the exact leakage
    counts as leaks. So the PMF passes :func:`leakage` at (ε, δ) in the paper reading.

    Examples
    --------
    >>> f = sd_pmf(8, epsilon=1.0, mu=3)       # gcd(9, 3) = 3: values 0, 3, 6 only
    >>> np.flatnonzero(f).tolist()
    [0, 3, 6]
    """
    n = _check_n(n)
    eps = _positive_epsilon(epsilon)
    dlt = check_delta(delta)
    mu = check_int(mu, "mu", minimum=1, maximum=n)
    size = n + 1
    cycle = size // math.gcd(size, mu)
    masses = _sd_sorted(cycle - 1, build_epsilon(eps), dlt - min(dlt / 2, SAFETY_MARGIN))
    f = np.zeros(size)
    f[(np.arange(cycle) * mu) % size] = masses
    return f


#: Largest number of shortening sets :func:`bd_pmf` searches for δ > 0 (Theorem 3): 2^(b-1),
#: b = n // μ̄. Under Theorem 3's hypothesis b + r < μ̄, b < sqrt(n + 1), so n up to about 480.
MAX_BD_SETS = 2**21


def _bd_shortenings(b: int, eps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Every shortening set :math:`S \subseteq \{2, \dots, b\}` as (bit mask, size |S|,
    weight :math:`W(S) = \sum_{i \in S} e^{-i\epsilon}`), built by doubling."""
    if b - 1 > int(math.log2(MAX_BD_SETS)):
        raise ParameterError(
            f"the Theorem 3 search needs 2^(b-1) = 2^{b - 1} shortening sets (b = n // mu_bar "
            f"= {b}); at most {MAX_BD_SETS} are searched. Use optimal_pmf."
        )
    mask = np.zeros(1, dtype=np.int64)
    size = np.zeros(1, dtype=np.int64)
    weight = np.zeros(1)
    for i in range(2, b + 1):
        mask = np.concatenate([mask, mask | (1 << i)])
        size = np.concatenate([size, size + 1])
        weight = np.concatenate([weight, weight + math.exp(-i * eps)])
    return mask, size, weight


def _bd_theorem3(n: int, mu_bar: int, eps: float, dlt: float) -> np.ndarray:
    r"""The optimal BD PMF for δ > 0 under b + r < μ̄ (:func:`bd_pmf`, Theorem 3 rebuilt)."""
    b, r = divmod(n, mu_bar)
    x = math.exp(eps)
    i = np.arange(1, b + 1)
    base = 1.0 + mu_bar * float(np.exp(-i * eps).sum()) + r * math.exp(-(b + 1) * eps)
    mask, size, weight = _bd_shortenings(b, eps)
    phi0 = 1.0 / (base - weight + size * math.exp(-(b + 1) * eps))  # (34), layout S
    with np.errstate(divide="ignore"):
        linear = np.where(weight > 0, dlt / (x * weight), np.inf)  # leak c(S) f(0) = delta
    value = np.minimum(phi0, linear)
    best = int(np.argmax(value))
    t = float(value[best])
    if dlt >= t:  # part (c): f(0) = delta leaks alone, the rest uniform ((40)-(41))
        return np.concatenate([[dlt], np.full(n, (1.0 - dlt) / n)])
    short = [k for k in range(2, b + 1) if int(mask[best]) >> k & 1]
    lengths = [mu_bar - (k in short) for k in range(1, b + 1)] + [r + len(short)]
    group = np.repeat(np.arange(1, b + 2), lengths)  # the step of each eta = 1..n
    chain = t * np.exp(-group * eps)
    # linear region: the chain holds t * D(S) < 1; raise the tail to a common level v <= t
    # (water-filling). A raised mass only faces raised masses, f(0) = t and step 1 (e^eps
    # times t e^-eps), so no new ratio is broken and no leaking mass grows.
    rest = 1.0 - t
    prefix = np.concatenate([[0.0], np.cumsum(chain)])
    k = np.arange(n)  # masses chain[:k] kept, chain[k:] raised to level[k]
    level = (rest - prefix[:-1]) / (n - k)
    # the first k whose level reaches chain[k] also stays below chain[k - 1]; none fits when the
    # chain already holds everything (a flat region, up to round-off)
    fits = np.flatnonzero(level >= chain)
    v = float(level[fits[0]]) if fits.size else 0.0
    return np.concatenate([[t], np.maximum(chain, min(v, t))])


def bd_pmf(n: int, *, epsilon: float, delta: float = 0.0, mu_bar: int) -> np.ndarray:
    r"""The optimal error-rate PMF for the bounded-distance neighbourhood :math:`\{1..\bar\mu\}`
    (Kadam et al., Lemma 4 for δ = 0 and Theorem 3, rebuilt, for δ > 0; paper reading).

    With :math:`n = b\bar\mu + r` ((26)), δ = 0 (Lemma 4): :math:`f(\eta) = \phi_0
    e^{-i\epsilon}` for :math:`(i-1)\bar\mu + 1 \le \eta \le \min(i\bar\mu, n)`, i = 1..b + 1
    ((28)), and :math:`\phi_0 = (1 + \bar\mu\sum_{i=1}^{b} e^{-i\epsilon} + r
    e^{-(b+1)\epsilon})^{-1}` ((29)): a staircase with steps of length μ̄ and a last step of r.

    δ > 0 (Theorem 3's hypothesis b + r < μ̄): the optimum is a staircase whose steps
    :math:`i \in S \subseteq \{2..b\}` are shortened to μ̄ − 1, the last step taking the :math:`|S|`
    masses; each shortened step makes the last mass of step i − 1 leak, so the layout S has

    .. math::

        \phi_0(S) = \Big(1 + \sum_{i=1}^{b} (\bar\mu - [i \in S]) e^{-i\epsilon}
        + (r + |S|) e^{-(b+1)\epsilon}\Big)^{-1}, \qquad
        c(S) = \sum_{i \in S} e^{-(i-1)\epsilon},

    (the normalisation (34) of the lengths (31)), leaks :math:`c(S)\phi_0(S)` in its flat
    region and reaches :math:`f(0) = \delta / c(S)` in its linear region, so

    .. math::

        f^\star(0) = \max\Big(\delta,\ \max_{S} \min\big(\phi_0(S), \delta / c(S)\big)\Big),

    the first term being part (c) ((40)–(41)). The paper's Theorem 3 walks only the layouts
    :math:`S_{h,j} = \{b-h+1..b\} \setminus \{b-h+j+1\}` and its breakpoints (37c) count the
    leak of :math:`S_{h,j}` as :math:`\xi_j` where it is :math:`\xi_h - e^{-j\epsilon}`: it misses
    better layouts and, for j < h − 1, prints PMFs that leak more than δ (``docs/errata.md``).
    The search is over the :math:`2^{b-1}` sets S (at most :data:`MAX_BD_SETS`). In a linear
    region the chain :math:`t e^{-i\epsilon}` (t = f(0)) holds less than 1; the rest is added
    by raising the tail of the staircase to a common level at most t, which breaks no ratio.
    Built at :math:`\epsilon_b, \delta_b` (see :func:`sd_pmf`), so it passes :func:`leakage` at
    (ε, δ) in the paper reading. μ̄ = 1 is the SD neighbourhood {1} (:func:`sd_pmf`).

    Raises
    ------
    ParameterError
        For δ > 0 when b + r >= μ̄ (outside Theorem 3; use :func:`optimal_pmf`), or when the
        search would exceed :data:`MAX_BD_SETS` sets.

    Examples
    --------
    >>> round(float(bd_pmf(8, epsilon=1.5, mu_bar=3)[0]), 4)    # Kadam et al., Table 1
    0.5432
    >>> round(float(bd_pmf(29, epsilon=1.0, delta=0.078, mu_bar=7)[0]), 6)
    0.205029
    """
    n = _check_n(n)
    eps = _positive_epsilon(epsilon)
    dlt = check_delta(delta)
    mu_bar = check_int(mu_bar, "mu_bar", minimum=1, maximum=n)
    if mu_bar == 1:
        return sd_pmf(n, epsilon=eps, delta=dlt, mu=1)
    eps_b = build_epsilon(eps)
    if dlt == 0.0:
        eta = np.arange(n + 1)
        step = np.where(eta == 0, 0, (eta - 1) // mu_bar + 1)  # i of (28)
        w = np.exp(-step * eps_b)
        return w / w.sum()
    b, r = divmod(n, mu_bar)
    if b + r >= mu_bar:
        raise ParameterError(
            f"Theorem 3 (delta > 0) needs b + r < mu_bar with n = b * mu_bar + r; got n={n}, "
            f"mu_bar={mu_bar} (b={b}, r={r}). Use optimal_pmf for this instance."
        )
    f = _bd_theorem3(n, mu_bar, eps_b, dlt - min(dlt / 2, SAFETY_MARGIN))
    return f / f.sum()


def _check_error_rate(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ParameterTypeError(f"`error_rate` must be a real number, got error_rate={value!r}.")
    rho = float(value)
    if not 0.0 <= rho <= 1.0:
        raise ParameterError(f"`error_rate` must be in [0, 1], got error_rate={value!r}.")
    return rho


def sd_min_delta(n: int, *, epsilon: float, error_rate: float, mu: int) -> float:
    r"""The least δ at which the SD optimum reaches an error rate (Kadam et al., Corollary 1).

    With m = N − 1, :math:`N = (n+1)/\gcd(n+1, \hat\mu)` (Remark 3, corrected) and the target
    :math:`\tau = 1 - \rho^\star`: 0 if Lemma 3's :math:`f^\star(0) = (1 - e^{-\epsilon})/(1 -
    e^{-N\epsilon})` reaches τ; otherwise, with k the first flat region whose
    :math:`f^\star(0) = (1 - e^{-\epsilon})/(1 - e^{-(m-k+1)\epsilon})` reaches τ,
    :math:`\delta = e^{-(m-k)\epsilon}\tau` (24): the linear region k holds
    :math:`f^\star(0) = \delta e^{(m-k)\epsilon}` (21). Read along ε for a fixed
    :math:`\rho^\star` this is the discontinuous curve of Corollary 1, its jumps at the
    :math:`\epsilon_k^{\rho^\star}` of (25).

    The value is the exact infimum: :func:`sd_pmf` at this δ reaches the error rate up to its
    :math:`2^{-40}` build margin.

    Examples
    --------
    >>> round(sd_min_delta(7, epsilon=0.75, error_rate=0.4, mu=3), 4)
    0.2834
    >>> sd_min_delta(7, epsilon=0.75, error_rate=0.48, mu=3)     # Lemma 3 already does
    0.0
    """
    n = _check_n(n)
    eps = _positive_epsilon(epsilon)
    tau = 1.0 - _check_error_rate(error_rate)
    mu = check_int(mu, "mu", minimum=1, maximum=n)
    m = (n + 1) // math.gcd(n + 1, mu) - 1
    for k in range(m + 1):
        if -math.expm1(-eps) / -math.expm1(-(m - k + 1) * eps) >= tau:
            return 0.0 if k == 0 else tau * math.exp(-(m - k) * eps)
    return tau  # pragma: no cover - k = m gives f(0) = 1 >= tau


def bd_min_delta(n: int, *, epsilon: float, error_rate: float, mu_bar: int) -> float:
    r"""The least δ at which the BD optimum reaches an error rate (Corollary 2, rebuilt).

    Under Theorem 3's hypothesis b + r < μ̄, with the layouts S of :func:`bd_pmf` and
    :math:`\tau = 1 - \rho^\star`: 0 if Lemma 4's :math:`\phi_0 \ge \tau`, otherwise
    :math:`\delta = \tau\,\min\big(1, \min\{c(S) : \phi_0(S) \ge \tau\}\big)` -- the layout S
    meets τ from :math:`\delta = c(S)\tau` on, and :math:`f(0) = \delta` (part (c)) from
    δ = τ. Corollary 2's (42) is the same along the paper's layouts :math:`S_{h,j}` with
    :math:`c = \xi_j e^{-(b-h)\epsilon}`, and inherits Theorem 3's errors. μ̄ = 1 is
    :func:`sd_min_delta` with μ = 1.

    Raises
    ------
    ParameterError
        When b + r >= μ̄ (see :func:`bd_pmf`).

    Examples
    --------
    >>> round(bd_min_delta(29, epsilon=1.0, error_rate=1 - 0.205, mu_bar=7), 4)
    0.0754
    """
    n = _check_n(n)
    eps = _positive_epsilon(epsilon)
    tau = 1.0 - _check_error_rate(error_rate)
    mu_bar = check_int(mu_bar, "mu_bar", minimum=1, maximum=n)
    if mu_bar == 1:
        return sd_min_delta(n, epsilon=eps, error_rate=1.0 - tau, mu=1)
    b, r = divmod(n, mu_bar)
    if b + r >= mu_bar:
        raise ParameterError(
            f"Corollary 2 needs b + r < mu_bar with n = b * mu_bar + r; got n={n}, "
            f"mu_bar={mu_bar} (b={b}, r={r}). Use min_delta_pmf for this instance."
        )
    i = np.arange(1, b + 1)
    base = 1.0 + mu_bar * float(np.exp(-i * eps).sum()) + r * math.exp(-(b + 1) * eps)
    _, size, weight = _bd_shortenings(b, eps)
    phi0 = 1.0 / (base - weight + size * math.exp(-(b + 1) * eps))
    if phi0[0] >= tau:  # S = {} is Lemma 4
        return 0.0
    ok = phi0 >= tau
    c = math.exp(eps) * float(weight[ok].min()) if ok.any() else 1.0
    return tau * min(1.0, c)


def asymptotic_error_rate(epsilon: float, *, mu_bar: int = 1) -> float:
    r"""The limit n → ∞ of the optimal error rate at δ = 0 (Kadam et al., (44)–(48)).

    .. math::

        \rho^\star_\infty(\epsilon) = \frac{\bar\mu e^{-\epsilon}}{\bar\mu e^{-\epsilon}
        + 1 - e^{-\epsilon}}

    (47), the limit of Lemma 4; μ̄ = 1 gives :math:`e^{-\epsilon}`, the limit of Lemma 3 for any
    SD shift along n with gcd(n + 1, μ̂) = 1. The paper caps both at 0.5 ((44), (48)); the cap
    does not follow from Lemmas 3–4: for ε < ln(1 + μ̄) the limit is above 0.5
    (``docs/errata.md``).

    Examples
    --------
    >>> round(asymptotic_error_rate(0.5), 4)      # above the printed cap of 0.5
    0.6065
    """
    eps = _positive_epsilon(epsilon)
    mu_bar = check_int(mu_bar, "mu_bar", minimum=1)
    a = mu_bar * math.exp(-eps)
    return a / (a - math.expm1(-eps))


# ------------------------------------------------------------------------------------ family
@register
@dataclass(frozen=True)
class Modulo(Family):
    r"""Optimal modulo-addition noise (Kadam et al.) as a family: one PMF on the circulant.

    The mechanism on a graph with true answers and outputs 0..n is
    :math:`P_q(\tilde v) = f^\star((\tilde v - q) \bmod (n+1))`, with :math:`f^\star` the
    :func:`optimal_pmf` for (ε, δ), the shifts, the reading, the formulation and the loss.

    Parameters
    ----------
    epsilon : float
        ε >= 0 (e^ε a finite float).
    delta : float, default 0
        δ in [0, 1].
    shifts : tuple of int, default (1,)
        M.
    reading : {"symmetric", "paper"}, default "symmetric"
    formulation : {"printed", "definition"}, default "printed"
    loss : {"er", "mse", "abs"}, default "er"

    Notes
    -----
    The nominal guarantee is (ε, δ)-PDP on the circulant of the reading (the constraint of the
    MILP (13), Definition 2), hence (ε, δ)-DP there (Theorem 1, PDP implies DP).
    :meth:`holds_on` is True exactly on that graph (the arcs or edges of
    :func:`graph` for n + 1 nodes); elsewhere the PMF was not designed for the neighbourhood and
    nothing is claimed (None).

    References
    ----------
    N. Kadam et al., "Optimum noise mechanism for differentially private queries in discrete
    finite sets", Cybersecurity (2024): Definition 2, MILP (13), LP (14), Theorem 1.

    Examples
    --------
    >>> fam = Modulo(1.5, shifts=(1, 2, 3), reading="paper")
    >>> round(float(fam.mechanism(fam.graph(8)).probabilities[0, 0]), 4)   # Table 1
    0.5432
    """

    name: ClassVar[str] = "modulo"
    summary: ClassVar[str] = (
        "optimal modulo-addition noise on the circulant, MILP (13) / LP (14) (Kadam et al. 2024)"
    )

    epsilon: float
    delta: float = 0.0
    _: KW_ONLY
    shifts: tuple[int, ...] = (1,)
    reading: Reading = "symmetric"
    formulation: Formulation = "printed"
    loss: str = "er"

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, finite_exp=True))
        object.__setattr__(self, "delta", check_delta(self.delta))
        if isinstance(self.shifts, str | bytes) or not isinstance(self.shifts, Iterable):
            raise ParameterTypeError(
                f"`shifts` must be an iterable of integers, got shifts={self.shifts!r}."
            )
        mus = tuple(sorted({check_int(mu, "shifts", minimum=1) for mu in self.shifts}))
        if not mus:
            raise ParameterError(f"`shifts` must not be empty, got shifts={self.shifts!r}.")
        object.__setattr__(self, "shifts", mus)
        _check_reading(self.reading)
        if not isinstance(self.formulation, str) or self.formulation not in FORMULATIONS:
            raise ParameterError(
                f"`formulation` must be one of {FORMULATIONS}, got "
                f"formulation={self.formulation!r}."
            )
        if not isinstance(self.loss, str) or self.loss not in LOSSES:
            raise ParameterError(f"`loss` must be one of {LOSSES}, got loss={self.loss!r}.")

    def graph(self, n: int) -> RainbowGraph:
        """The circulant of the reading on 0..n (shifts above n are dropped)."""
        n = _check_n(n)
        mus = [mu for mu in self.shifts if mu <= n] or [1]
        return graph(n, shifts=mus, reading=self.reading)

    def _n(self, G: RainbowGraph) -> int:
        check_graph(G, "G")
        n = G.n_nodes - 1
        if n < 1 or G.outputs != tuple(range(n + 1)) or G.answers != tuple(range(n + 1)):
            raise ParameterError(
                "`G` must have answers and outputs 0..n (a circulant of the modulo family), got "
                f"{G!r}."
            )
        return n

    def pmf(self, n: int) -> np.ndarray:
        """The optimal PMF on 0..n (:func:`optimal_pmf`)."""
        mus = [mu for mu in self.shifts if mu <= n] or [1]
        return optimal_pmf(
            n,
            epsilon=self.epsilon,
            delta=self.delta,
            shifts=mus,
            loss=self.loss,
            reading=self.reading,
            formulation=self.formulation,
        ).pmf

    def mechanism(self, G: RainbowGraph) -> Mechanism:
        n = self._n(G)
        return Mechanism(G, self.pmf(n)[tying(n)])

    def nominal(self) -> Claim:
        eps, dlt = self.epsilon, self.delta
        return Claim(
            math.inf,
            f"Kadam et al. (2024): ({eps:g}, {dlt:g})-PDP by MILP (13), hence "
            f"({eps:g}, {dlt:g})-DP (Theorem 1)",
            profile=lambda e: dlt if e >= eps else 1.0,
        )

    def holds_on(self, G: RainbowGraph) -> bool | None:
        n = self._n(G)
        own = self.graph(n)
        if G.directed != own.directed:
            return None
        mine = {tuple(e) for e in own.edges.tolist()}
        return True if {tuple(e) for e in G.edges.tolist()} == mine else None

    @classmethod
    def examples(cls) -> list[tuple[Family, RainbowGraph]]:
        out: list[tuple[Family, RainbowGraph]] = []
        for fam in (
            cls(1.5, 0.1212, shifts=(1, 2, 3), reading="paper"),
            cls(1.5, 0.1212, shifts=(1, 2, 3), reading="paper", formulation="definition"),
            cls(1.0, 0.0, shifts=(2,)),
            cls(0.8, 0.1, shifts=(1, 3), loss="mse"),
        ):
            out.append((fam, fam.graph(8)))
        return out
