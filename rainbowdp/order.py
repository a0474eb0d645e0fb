r"""Dominance ordering of distributions and mechanisms; order-reasonable utilities.

For distributions :math:`x, y` on an ordered output set (most preferred first), Gu et al. [1]_,
Definition 3, set

.. math::

    x \succeq y \iff x_1 + \dots + x_k \ge y_1 + \dots + y_k \quad (1 \le k \le q),

i.e. x puts at least as much mass as y on every set of top-k preferred outputs. A mechanism
:math:`\mathcal M` dominates :math:`\mathcal M'` if :math:`\vec{\mathcal M}(d) \succeq
\vec{\mathcal M}'(d)` for every dataset d, both vectors written in the rainbow order f(d).

A utility :math:`U[\mathcal M] = \sum_d \sum_v u_d(v)\,\mathbb P[\mathcal M(d) = v]` with every
:math:`u_d` non-increasing along the rainbow f(d) (Gu et al., Section 2) is *order reasonable*:
writing :math:`w_k = u_d(f(d)_k)` and :math:`S_k(x) = x_1 + \dots + x_k`, Abel summation gives

.. math::

    \sum_{k=1}^q w_k x_k = \sum_{k=1}^{q-1} (w_k - w_{k+1})\, S_k(x) + w_q\, S_q(x),

with :math:`w_k - w_{k+1} \ge 0` and :math:`S_q(x) = S_q(y) = 1` for distributions, so
:math:`\mathcal M \succeq \mathcal M' \Rightarrow U[\mathcal M] \ge U[\mathcal M']`.

References
----------
.. [1] Y. Gu, Z. Zhou, O. Günlü, R. G. L. D'Oliveira, P. Sadeghi, M. Médard, R. F. Schaefer,
   "Generalized rainbow differential privacy", Section 2 and Definition 3.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._validation import check_nonnegative_float, real_array
from .exceptions import InvalidMechanismError, ParameterError
from .graph import RainbowGraph, check_graph
from .mechanism import Mechanism, check_mechanism

__all__ = [
    "dominates",
    "expected_utility",
    "is_order_reasonable",
    "mechanism_dominates",
    "prefix_sums",
    "utility_from_ranks",
]


def _as_vectors(value: Any, name: str) -> np.ndarray:
    arr = real_array(value, name)
    if arr.ndim not in (1, 2) or arr.shape[-1] == 0:
        raise ParameterError(
            f"`{name}` must be a non-empty 1-D vector or 2-D array of row vectors, "
            f"got shape {arr.shape} for {name}={value!r}."
        )
    if not np.all(np.isfinite(arr)):
        raise ParameterError(f"`{name}` must be finite, got {name}={value!r}.")
    return arr


def prefix_sums(vectors: Any) -> np.ndarray:
    r"""Prefix sums :math:`S_k(x) = x_1 + \dots + x_k` along the last axis.

    Parameters
    ----------
    vectors : array_like, shape (q,) or (n, q)
        One vector or one vector per row, in preference order.

    Returns
    -------
    numpy.ndarray
        Same shape as ``vectors``.

    Raises
    ------
    TypeError
        If ``vectors`` is not numeric.
    ValueError
        If it is not 1-D or 2-D, is empty, or has a non-finite entry.

    Examples
    --------
    >>> prefix_sums([0.5, 0.25, 0.25]).tolist()
    [0.5, 0.75, 1.0]
    """
    return np.cumsum(_as_vectors(vectors, "vectors"), axis=-1)


def dominates(x: Any, y: Any, *, tol: float = 1e-12) -> bool | np.ndarray:
    r"""Whether :math:`x \succeq y` in the dominance ordering (Gu et al., Definition 3).

    Parameters
    ----------
    x, y : array_like, shape (q,) or (n, q)
        Vectors in preference order (most preferred first); 2-D arrays are compared row by row.
    tol : float, default 1e-12
        A prefix sum of x may fall short of y's by at most ``tol``.

    Returns
    -------
    bool or numpy.ndarray of bool
        A bool for 1-D input, one bool per row for 2-D input.

    Raises
    ------
    TypeError
        If an argument is not numeric.
    ValueError
        If the shapes differ, are not 1-D or 2-D, or an entry is not finite, or ``tol < 0``.

    Notes
    -----
    :math:`x \succeq y` iff :math:`S_k(x) \ge S_k(y) - \text{tol}` for every k. With
    ``tol = 0`` this is a partial order on vectors of equal total mass: reflexive, transitive,
    and antisymmetric (equal prefix sums give equal vectors).

    References
    ----------
    Gu et al., "Generalized rainbow differential privacy", Definition 3.

    Examples
    --------
    >>> dominates([0.6, 0.3, 0.1], [0.5, 0.3, 0.2])
    True
    >>> dominates([0.6, 0.1, 0.3], [0.5, 0.4, 0.1]), dominates([0.5, 0.4, 0.1], [0.6, 0.1, 0.3])
    (False, False)
    >>> dominates([[0.9, 0.1], [0.2, 0.8]], [0.5, 0.5] * np.ones((2, 1))).tolist()
    [True, False]
    """
    a = _as_vectors(x, "x")
    b = _as_vectors(y, "y")
    if a.shape != b.shape:
        raise ParameterError(f"`x` and `y` must have the same shape, got {a.shape} and {b.shape}.")
    t = check_nonnegative_float(tol, "tol")
    ok = np.all(np.cumsum(a, axis=-1) >= np.cumsum(b, axis=-1) - t, axis=-1)
    return bool(ok) if a.ndim == 1 else ok


def _same_structure(g1: RainbowGraph, g2: RainbowGraph) -> bool:
    if g1 is g2:
        return True
    return (
        g1.n_nodes == g2.n_nodes
        and g1.outputs == g2.outputs
        and g1.nodes == g2.nodes
        and np.array_equal(g1.edges, g2.edges)
        and np.array_equal(g1.order, g2.order)
    )


def mechanism_dominates(m1: Mechanism, m2: Mechanism, *, tol: float = 1e-12) -> bool:
    r"""Whether :math:`\mathcal M_1 \succeq \mathcal M_2` (Gu et al., Definition 3).

    True iff :math:`\vec{\mathcal M}_1(d) \succeq \vec{\mathcal M}_2(d)` for every node d, both
    written in d's own rainbow order.

    Parameters
    ----------
    m1, m2 : Mechanism
        Mechanisms on the same graph (the same object, or graphs with equal nodes, outputs,
        edges and rainbows).
    tol : float, default 1e-12
        Slack on each prefix sum, as in :func:`dominates`.

    Returns
    -------
    bool

    Raises
    ------
    TypeError
        If ``m1`` or ``m2`` is not a Mechanism.
    InvalidMechanismError
        (a ``ValueError``) if the two graphs differ.

    Examples
    --------
    >>> from rainbowdp import builders
    >>> G = builders.cycle([("a", "b"), ("a", "b"), ("b", "a")])
    >>> M1 = Mechanism.from_rainbow_order(G, [[0.8, 0.2]] * 3)
    >>> M2 = Mechanism.from_rainbow_order(G, [[0.7, 0.3], [0.8, 0.2], [0.6, 0.4]])
    >>> mechanism_dominates(M1, M2), mechanism_dominates(M2, M1)
    (True, False)
    """
    a = check_mechanism(m1, "m1")
    b = check_mechanism(m2, "m2")
    if not _same_structure(a.graph, b.graph):
        raise InvalidMechanismError(
            f"`m1` and `m2` must live on the same rainbow graph, got "
            f"{a.graph!r} and {b.graph!r} (nodes, outputs, edges or "
            "rainbows differ)."
        )
    return bool(np.all(dominates(a.in_rainbow_order(), b.in_rainbow_order(), tol=tol)))


def _check_weights(weights: Any, q: int, *, monotone: bool) -> np.ndarray:
    w = _as_vectors(weights, "weights")
    if w.ndim != 1 or w.shape[0] != q:
        raise ParameterError(
            f"`weights` must be a vector of {q} numbers (one per rank), got shape "
            f"{w.shape} for weights={weights!r}."
        )
    if monotone and np.any(np.diff(w) > 0):
        raise ParameterError(
            f"`weights` must be non-increasing (rank 0 = most preferred), got weights={weights!r}."
        )
    return w


def utility_from_ranks(G: RainbowGraph, weights: Any) -> np.ndarray:
    r"""Per-node utility :math:`u_d(v)` = ``weights[rank of v in f(d)]``.

    Parameters
    ----------
    G : RainbowGraph
        The rainbow graph.
    weights : array_like, shape (q,)
        Non-increasing utility by rank: ``weights[0]`` for the most preferred output.

    Returns
    -------
    numpy.ndarray, shape (N, q)
        ``u[i, j] = weights[G.ranks[i, j]]``, in ``G.outputs`` order; an order-reasonable
        utility (:func:`is_order_reasonable`).

    Raises
    ------
    TypeError
        If ``G`` is not a RainbowGraph or ``weights`` not numeric.
    ValueError
        If ``weights`` has the wrong length, a non-finite entry, or increases.

    References
    ----------
    Gu et al., "Generalized rainbow differential privacy", Section 2 (monotone :math:`u_d`).

    Examples
    --------
    >>> from rainbowdp import builders
    >>> G = builders.cycle([("a", "b", "c"), ("c", "b", "a"), ("a", "b", "c")])
    >>> utility_from_ranks(G, [1.0, 0.5, 0.0]).tolist()
    [[1.0, 0.5, 0.0], [0.0, 0.5, 1.0], [1.0, 0.5, 0.0]]
    """
    g = check_graph(G, "G")
    w = _check_weights(weights, g.n_outputs, monotone=True)
    return w[g.ranks]


def expected_utility(mechanism: Mechanism, utility: Any) -> float:
    r"""Expected utility :math:`\sum_d \sum_v u_d(v)\, \mathbb P[\mathcal M(d) = v]`.

    Parameters
    ----------
    mechanism : Mechanism
        The mechanism.
    utility : array_like, shape (N, q) or (q,)
        Either ``u[i, j]`` = utility at node i of output j (``graph.outputs`` order), or a
        vector of utilities by rank (entry k for each node's k-th preferred output).

    Returns
    -------
    float

    Raises
    ------
    TypeError
        If ``mechanism`` is not a Mechanism or ``utility`` not numeric.
    ValueError
        If ``utility`` has the wrong shape or a non-finite entry.

    Notes
    -----
    For an order-reasonable utility (:func:`is_order_reasonable`) this is monotone in the
    dominance order: :math:`\mathcal M \succeq \mathcal M' \Rightarrow U[\mathcal M] \ge
    U[\mathcal M']` (module notes).

    Examples
    --------
    >>> from rainbowdp import builders
    >>> G = builders.line(["yes", "no"], 1)
    >>> M = Mechanism(G, [[0.75, 0.25], [0.5, 0.5]])
    >>> expected_utility(M, [1.0, 0.0])
    1.25
    >>> expected_utility(M, [[1.0, 0.0], [0.0, 2.0]])
    1.75
    """
    m = check_mechanism(mechanism, "mechanism")
    g = m.graph
    u = _as_vectors(utility, "utility")
    if u.ndim == 1:
        if u.shape[0] != g.n_outputs:
            raise ParameterError(
                f"`utility` as a vector by rank must have {g.n_outputs} entries, got "
                f"{u.shape[0]}: utility={utility!r}."
            )
        u = u[g.ranks]
    elif u.shape != (g.n_nodes, g.n_outputs):
        raise ParameterError(
            f"`utility` must have shape ({g.n_nodes}, {g.n_outputs}) or "
            f"({g.n_outputs},), got shape {u.shape}."
        )
    return float(np.einsum("ij,ij->", u, m.probabilities))


def is_order_reasonable(utility: Any, G: RainbowGraph, *, tol: float = 0.0) -> bool:
    r"""Whether every node's utility is non-increasing along its rainbow.

    Such a utility makes :func:`expected_utility` order reasonable in the sense of Gu et al.,
    Definition 3.

    Parameters
    ----------
    utility : array_like, shape (N, q) or (q,)
        Utility in ``G.outputs`` order per node, or a vector by rank.
    G : RainbowGraph
        The rainbow graph.
    tol : float, default 0
        Allowed increase between consecutive ranks.

    Returns
    -------
    bool

    Raises
    ------
    TypeError
        If ``G`` is not a RainbowGraph or ``utility`` not numeric.
    ValueError
        If ``utility`` has the wrong shape or a non-finite entry, or ``tol < 0``.

    Examples
    --------
    >>> from rainbowdp import builders
    >>> G = builders.cycle([("a", "b"), ("a", "b"), ("b", "a")])
    >>> is_order_reasonable([[1, 0], [1, 0], [0, 1]], G)
    True
    >>> is_order_reasonable([[1, 0], [1, 0], [1, 0]], G)
    False
    """
    g = check_graph(G, "G")
    t = check_nonnegative_float(tol, "tol")
    u = _as_vectors(utility, "utility")
    if u.ndim == 1:
        if u.shape[0] != g.n_outputs:
            raise ParameterError(
                f"`utility` as a vector by rank must have {g.n_outputs} entries, got "
                f"{u.shape[0]}: utility={utility!r}."
            )
        by_rank = u[None, :]
    elif u.shape != (g.n_nodes, g.n_outputs):
        raise ParameterError(
            f"`utility` must have shape ({g.n_nodes}, {g.n_outputs}) or "
            f"({g.n_outputs},), got shape {u.shape}."
        )
    else:
        by_rank = np.take_along_axis(u, g.order, axis=1)
    return bool(np.all(np.diff(by_rank, axis=1) <= t))
