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
(:func:`pdp_delta`); by Theorem 1 (PDP implies DP) it bounds the (ε, δ)-DP δ (:func:`dp_delta`).

Optimal PMFs are found by the designers of :mod:`rainbowdp.design` on the circulant, reduced to
one PMF by the tying map :math:`T[q, v] = (v - q) \bmod (n + 1)` (:func:`optimal_pmf`): the
MILP (13) exactly as printed (one indicator per η shared by every μ, ``formulation="printed"``,
the registered formulation ``"kadam13-printed"``, :func:`rainbowdp.design.kadam13_printed`) or
per ordered pair (Definition 2 taken literally, ``"definition"``, :func:`rainbowdp.design.milp`),
and the LP (14) for δ = 0; the min-δ variant (15) (:func:`min_delta_pmf`,
:func:`rainbowdp.design.kadam15_min_delta`). This module keeps the analysis: the leakage, the
distortion and the closed forms :func:`sd_pmf` (Lemma 3 and Theorem 2, SD) and :func:`bd_pmf`
(Lemma 4, BD; Theorem 3 rebuilt), with Corollaries 1–2 (private module ``_modulo_closed``).

References
----------
.. [1] N. Kadam, A. Scaglione, N. Ravi, S. Peisert, B. Lunghino, A. Shumavon, "Optimum noise
   mechanism for differentially private queries in discrete finite sets", Cybersecurity (2024).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import KW_ONLY, dataclass
from typing import Any, ClassVar, Literal, cast

import numpy as np

from .. import design
from .._deprecation import deprecated_alias
from .._validation import check_delta, check_epsilon, check_int, real_array
from ..exceptions import ParameterError, ParameterTypeError
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism
from ._family import Claim, Family, Parameter, epsilon_parameter, register
from ._modulo_closed import (
    MAX_BD_SETS,
    asymptotic_error_rate,
    bd_min_delta,
    bd_pmf,
    check_n,
    sd_min_delta,
    sd_pmf,
)

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
    "pdp_delta",
    "sd_min_delta",
    "sd_pmf",
    "tying",
]

Reading = Literal["symmetric", "paper"]
Formulation = Literal["printed", "definition", "kadam13-printed"]
READINGS = ("symmetric", "paper")
#: ``"kadam13-printed"`` (the registry's name, :mod:`rainbowdp.design.formulations`) is accepted
#: for ``"printed"``.
FORMULATIONS = ("printed", "definition", "kadam13-printed")
#: The old spellings of the losses, kept as aliases: "er", "mse", "abs".
LOSS_ALIASES = {"er": "error_rate", "mse": "squared", "abs": "absolute"}
#: Accepted loss names: "error_rate", "absolute", "squared" and their aliases.
LOSSES = ("error_rate", "absolute", "squared", *LOSS_ALIASES)


# ------------------------------------------------------------------------------------ checks
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


def _check_reading(reading: Any) -> Reading:
    if not isinstance(reading, str) or reading not in READINGS:
        raise ParameterError(f"`reading` must be one of {READINGS}, got reading={reading!r}.")
    return cast(Reading, reading)


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

    n = check_n(n)
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
    n = check_n(n)
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


def pdp_delta(
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
    >>> pdp_delta(f, epsilon=0.5, shifts=[1], reading="paper")   # 0.5 > e^0.5 * 0.25
    0.5
    """
    from ..privacy import pdp_delta as pdp_delta_of

    return pdp_delta_of(mechanism(pmf, shifts=shifts, reading=reading), check_epsilon(epsilon))


leakage = deprecated_alias(pdp_delta, "modulo.leakage", "modulo.pdp_delta")


def dp_delta(
    pmf: Any, *, epsilon: float, shifts: Iterable[int], reading: Reading = "symmetric"
) -> float:
    r"""The exact (ε, δ)-DP δ of ``pmf`` (hockey-stick divergence, rounded up).

    By Theorem 1 of Kadam et al. (PDP implies DP) it never exceeds :func:`pdp_delta`.

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
def loss_name(loss: str) -> str:
    """The name of a loss: ``"error_rate"``, ``"absolute"`` or ``"squared"`` (the old spellings
    ``"er"``, ``"abs"``, ``"mse"`` accepted). The one place a loss name is parsed.

    Examples
    --------
    >>> loss_name("mse"), loss_name("absolute")
    ('squared', 'absolute')
    """
    if not isinstance(loss, str) or loss not in LOSSES:
        raise ParameterError(
            f"`loss` must be one of {LOSSES} or an array of (n + 1)^d numbers, got loss={loss!r}."
        )
    return LOSS_ALIASES.get(loss, loss)


def distortion(n: int, loss: Any = "error_rate", d: int = 1) -> np.ndarray:
    r"""The distortion :math:`\rho_\eta` of a loss, for η = 0..n (flat, row-major, over [n]^d
    for a vector query; Kadam et al., eq. (9)).

    ``"error_rate"`` (alias ``"er"``): :math:`\rho_0 = 0`, :math:`\rho_\eta = 1` otherwise
    (Definition 3); ``"squared"`` (``"mse"``): :math:`\eta^2` (Definition 4;
    :math:`\sum_i \eta_i^2` for vectors); ``"absolute"`` (``"abs"``): η (:math:`\sum_i \eta_i`);
    or an array of (n + 1)^d finite numbers.

    Examples
    --------
    >>> distortion(3, "squared").tolist()
    [0.0, 1.0, 4.0, 9.0]
    """
    n = check_n(n)
    d = check_int(d, "d", minimum=1, maximum=8)
    eta = _values(n, d).astype(np.float64)
    if isinstance(loss, str):
        name = loss_name(loss)
        if name == "error_rate":
            return (eta.sum(axis=1) > 0).astype(np.float64)
        if name == "squared":
            return (eta * eta).sum(axis=1)
        return eta.sum(axis=1)
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
        The sound PDP leakage of ``pmf`` at ε under the reading (:func:`pdp_delta`).
    design : DesignResult
        The designer's result on the circulant (model size, solver, times):
        :func:`rainbowdp.design.kadam13_printed` (``"printed"``) or
        :func:`rainbowdp.design.milp` (``"definition"``).
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
    loss: Any = "error_rate",
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
    loss : {"error_rate", "absolute", "squared"} or array_like, default "error_rate"
        The distortion (:func:`distortion`).
    reading : {"symmetric", "paper"}, default "symmetric"
        The neighbour relation (module notes).
    formulation : {"printed", "definition"}, default "printed"
        ``"printed"``: (13) as printed, one indicator :math:`u(\eta)` and one :math:`y_\eta`
        shared by every μ (each mass either meets every ratio constraint or counts as leaking
        once); this reproduces Table 1. ``"definition"``: Definition 2 literally, one
        indicator vector and budget per μ (the maximum over μ of per-μ leakages); never worse.
        ``"kadam13-printed"``, the registered formulation's name, is accepted for
        ``"printed"``.
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
    n = check_n(n)
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
    G = graph(n, shifts=mus, reading=rd)
    T = tying(n, d)
    if formulation in ("printed", "kadam13-printed"):
        res = design.kadam13_printed(
            G,
            epsilon=eps,
            delta=dlt,
            tied=T,
            distortion=rho,
            margin=MARGIN,
            solver=solver,
            time_limit=time_limit,
        )
    else:
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
        leakage=pdp_delta(f.reshape((n + 1,) * d), epsilon=eps, shifts=mus, reading=rd),
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
        Its sound PDP leakage at ε under the reading (:func:`pdp_delta`): the δ achieved.
    objective : float
        Its expected distortion (at most the cap, up to the solver's tolerance of about 1e-9).
    design : DesignResult
        The result of :func:`rainbowdp.design.kadam15_min_delta`.
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
    loss: Any = "error_rate",
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
    n = check_n(n)
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
    res = design.kadam15_min_delta(
        graph(n, shifts=mus, reading=rd),
        epsilon=eps,
        tied=tying(n, d),
        distortion=rho,
        max_distortion=cap,
        margin=MARGIN,
        solver=solver,
        time_limit=time_limit,
    )
    f = np.array(res.mechanism.probabilities[0])
    shaped = f.reshape((n + 1,) * d)
    return MinDeltaResult(
        pmf=shaped,
        delta=pdp_delta(shaped, epsilon=eps, shifts=mus, reading=rd),
        objective=float(rho @ f),
        design=res,
    )


#: Margin of the printed MILP's non-leaking ratios, f(eta) <= e^eps f(eta + mu) - MARGIN: the
#: designer's (:data:`rainbowdp.design.PRINTED_MARGIN`), so that ties of the solver's float point
#: do not count as leaks.
MARGIN = design.PRINTED_MARGIN


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
    loss : {"error_rate", "absolute", "squared"}, default "error_rate"
        The old spellings "er", "abs", "mse" are accepted.

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

    parameters: ClassVar[tuple[Parameter, ...]] = (
        epsilon_parameter("the privacy parameter", finite_exp=True),
        Parameter(
            "delta",
            "real",
            "the delta of the (epsilon, delta)-PDP design",
            domain=(0.0, 1.0),
            default=0.0,
        ),
        Parameter(
            "shifts",
            "integers",
            "the shifts M of the neighbourhood (each >= 1)",
            domain=(1, math.inf),
            default=(1,),
        ),
        Parameter(
            "reading", "choice", "which pairs are neighbours", choices=READINGS, default="symmetric"
        ),
        Parameter(
            "formulation",
            "choice",
            "MILP (13) as printed or Definition 2 literally",
            choices=FORMULATIONS,
            default="printed",
        ),
        Parameter(
            "loss",
            "choice",
            "the distortion the PMF minimises",
            choices=LOSSES,
            default="error_rate",
        ),
    )

    epsilon: float
    delta: float = 0.0
    _: KW_ONLY
    shifts: tuple[int, ...] = (1,)
    reading: Reading = "symmetric"
    formulation: Formulation = "printed"
    loss: str = "error_rate"

    def graph(self, n: int) -> RainbowGraph:
        """The circulant of the reading on 0..n (shifts above n are dropped)."""
        n = check_n(n)
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
            cls(0.8, 0.1, shifts=(1, 3), loss="squared"),
        ):
            out.append((fam, fam.graph(8)))
        return out
