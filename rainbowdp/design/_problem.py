r"""The design problem's data: argument checks and the utility matrix.

Validation comes first: every argument of :func:`~rainbowdp.design.lp` and
:func:`~rainbowdp.design.milp` is checked here before a model is built. Nothing here is public
except :func:`utility_matrix` (re-exported by :mod:`rainbowdp.design`).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np

from .._validation import check_delta, check_epsilon, check_probability_vector, real_array
from ..exceptions import InfeasibleDesignError, ParameterError, ParameterTypeError
from ..graph import RainbowGraph, check_graph

__all__ = ["UTILITY_NAMES", "Problem", "check_problem", "utility_matrix"]

UTILITY_NAMES = ("accuracy", "rank", "absolute", "squared")


# ---------------------------------------------------------------------------------- utilities
def answers_loss(G: RainbowGraph, loss: Callable[[Any, Any], float], who: str) -> np.ndarray:
    """(N, q) array ``loss(v, a(d))``; ``who`` (e.g. "`utility`=...") opens the error messages."""
    if G.answers is None:
        raise ParameterError(
            f"{who} needs a graph with true answers (G.answers, as built "
            "by RainbowGraph.from_query, circulant or count_path); this graph has "
            "none."
        )
    outs = G.outputs
    try:
        L = np.array([[float(loss(o, a)) for o in outs] for a in G.answers], dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"{who}: the loss could not be evaluated: {exc}") from exc
    return L.reshape(G.n_nodes, G.n_outputs)


def numeric_answers(G: RainbowGraph, who: str) -> tuple[np.ndarray, np.ndarray]:
    """``(outputs, answers)`` as float arrays; ``who`` (e.g. "`utility`='absolute'") opens the
    error raised when the graph has no answers or they are not numbers."""
    if G.answers is None:
        raise ParameterError(
            f"{who} needs a graph with true answers (G.answers, as built "
            "by RainbowGraph.from_query, circulant or count_path); this graph has "
            "none."
        )

    def real(x: Any) -> bool:
        return isinstance(x, numbers.Real) and not isinstance(x, bool)

    if not (all(real(o) for o in G.outputs) and all(real(a) for a in G.answers)):
        raise ParameterError(f"{who} needs numeric outputs and answers, got outputs {G.outputs!r}.")
    return (np.asarray(G.outputs, dtype=np.float64), np.asarray(G.answers, dtype=np.float64))


def utility_matrix(G: RainbowGraph, utility: Any = "accuracy") -> np.ndarray:
    r"""The (N, q) utility matrix :math:`U[d, v]` for a ``utility`` specification.

    The design problems maximise :math:`\sum_d \sum_v U[d, v]\,\mathcal M(d)(v)`.

    Parameters
    ----------
    G : RainbowGraph
    utility : str, array_like, callable or ("loss", L)
        ``"accuracy"``
            1 on each node's most preferred output (``G.ranks == 0``), 0 elsewhere: the
            probability of answering with the top of the rainbow (1 − error rate, Kadam et al.
            Definition 3, on the circulant graph).
        ``"rank"``
            :math:`q - 1 - \text{rank}_d(v)`: linear in the rainbow position.
        ``"absolute"``, ``"squared"``
            :math:`-|v - a(d)|` and :math:`-(v - a(d))^2` for graphs with numeric outputs and
            true answers ``G.answers`` (Kadam et al. Definition 4 is the squared one).
        array_like of shape (N, q)
            U itself, rows in ``G.nodes`` order, columns in ``G.outputs`` order.
        callable ``loss(output, answer) -> float``
            :math:`U[d, v] = -\text{loss}(v, a(d))`; needs ``G.answers``.
        ``("loss", L)``
            L an (N, q) array of losses or a callable as above; :math:`U = -L`.

    Returns
    -------
    numpy.ndarray
        Finite float64 array of shape (N, q).

    Raises
    ------
    ValueError, TypeError
        On an unknown name, a wrong shape, non-finite values, or a loss that needs answers on a
        graph without them.

    Examples
    --------
    >>> from rainbowdp import builders
    >>> G = builders.count_path(2)
    >>> utility_matrix(G, "accuracy").tolist()
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    >>> utility_matrix(G, "rank")[1].tolist()
    [1.0, 2.0, 0.0]
    >>> utility_matrix(G, ("loss", lambda v, a: (v - a) ** 2))[0].tolist()
    [-0.0, -1.0, -4.0]
    """
    check_graph(G, "G")
    n, q = G.n_nodes, G.n_outputs
    if isinstance(utility, str):
        name = utility.lower()
        if name == "accuracy":
            return (G.ranks == 0).astype(np.float64)
        if name == "rank":
            return (q - 1 - G.ranks).astype(np.float64)
        if name in ("absolute", "squared"):
            v, a = numeric_answers(G, f"`utility`={utility!r}")
            diff = v[None, :] - a[:, None]
            return -(np.abs(diff) if name == "absolute" else diff * diff)
        raise ParameterError(
            f"`utility` must be one of {UTILITY_NAMES}, an (N, q) array, a loss "
            f"callable or ('loss', L), got utility={utility!r}."
        )
    if isinstance(utility, tuple) and len(utility) == 2 and isinstance(utility[0], str):
        if utility[0] != "loss":
            raise ParameterError(
                f"`utility` as a pair must be ('loss', L), got utility={utility!r}."
            )
        L = utility[1]
        if callable(L):
            return -answers_loss(G, L, f"`utility`={utility!r}")
        return -_as_matrix(L, n, q, "utility", utility)
    if callable(utility):
        return -answers_loss(G, utility, f"`utility`={utility!r}")
    return _as_matrix(utility, n, q, "utility", utility)


def _as_matrix(value: Any, n: int, q: int, name: str, shown: Any) -> np.ndarray:
    U = real_array(value, name)
    if U.shape != (n, q):
        raise ParameterError(
            f"`{name}` must have shape ({n}, {q}) (nodes, outputs), got shape "
            f"{U.shape} for {name}={shown!r}."
        )
    if not np.all(np.isfinite(U)):
        raise ParameterError(f"`{name}` must be finite, got {name}={shown!r}.")
    return U


# ---------------------------------------------------------------------------------- arguments
def node_key(G: RainbowGraph, node: Any, name: str) -> int:
    key = tuple(node) if isinstance(node, list) else node
    try:
        return G.node_index[key]
    except (KeyError, TypeError):
        raise ParameterError(f"`{name}` names node {node!r}, which is not in the graph.") from None


def check_fixed(G: RainbowGraph, fixed: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(mask (N,), values (N, q))`` for the ``fixed`` argument; values are 0 off the mask."""
    n, q = G.n_nodes, G.n_outputs
    mask = np.zeros(n, dtype=bool)
    values = np.zeros((n, q))
    if fixed is None:
        return mask, values
    if not isinstance(fixed, Mapping):
        raise ParameterTypeError(
            f"`fixed` must be a mapping node -> distribution, got fixed={fixed!r}."
        )
    for node, vec in fixed.items():
        i = node_key(G, node, "fixed")
        values[i] = check_probability_vector(vec, f"fixed[{node!r}]", size=q)
        mask[i] = True
    return mask, values


def check_bounds(
    G: RainbowGraph, bounds: Any, fixed_mask: np.ndarray, fixed_values: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(lower, upper)`` (N, q) arrays for the ``bounds`` argument (default [0, 1])."""
    n, q = G.n_nodes, G.n_outputs
    lower = np.zeros((n, q))
    upper = np.ones((n, q))
    if bounds is None:
        return lower, upper
    if not isinstance(bounds, Mapping):
        raise ParameterTypeError(
            f"`bounds` must be a mapping node -> (lower, upper), got bounds={bounds!r}."
        )
    for node, pair in bounds.items():
        i = node_key(G, node, "bounds")
        if not (isinstance(pair, tuple | list) and len(pair) == 2):
            raise ParameterError(
                f"`bounds[{node!r}]` must be a pair (lower, upper) of numbers or "
                f"length-{q} vectors, got {pair!r}."
            )
        lo_hi = []
        for side, val in zip(("lower", "upper"), pair, strict=True):
            default = 0.0 if side == "lower" else 1.0
            try:
                arr = np.broadcast_to(
                    np.asarray(default if val is None else val, dtype=np.float64), (q,)
                ).copy()
            except (TypeError, ValueError):
                raise ParameterError(
                    f"`bounds[{node!r}]` {side} must be a number or a length-{q} "
                    f"vector, got {val!r}."
                ) from None
            if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr > 1):
                raise ParameterError(f"`bounds[{node!r}]` {side} must lie in [0, 1], got {val!r}.")
            lo_hi.append(arr)
        lo, hi = lo_hi
        if np.any(lo > hi):
            raise ParameterError(f"`bounds[{node!r}]` must have lower <= upper, got {pair!r}.")
        if lo.sum() > 1 + 1e-12 or hi.sum() < 1 - 1e-12:
            raise InfeasibleDesignError(
                f"`bounds[{node!r}]`={pair!r} admit no distribution: sum(lower) = {lo.sum():g} and "
                f"sum(upper) = {hi.sum():g} must bracket 1."
            )
        if fixed_mask[i] and (
            np.any(fixed_values[i] < lo - 1e-12) or np.any(fixed_values[i] > hi + 1e-12)
        ):
            raise InfeasibleDesignError(
                f"`fixed[{node!r}]`={fixed_values[i].tolist()} violates "
                f"`bounds[{node!r}]`={pair!r}."
            )
        lower[i], upper[i] = lo, hi
    return lower, upper


def check_flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ParameterTypeError(f"`{name}` must be a bool, got {name}={value!r}.")
    return value


class Problem(NamedTuple):
    """The validated data of a design problem (see :func:`check_problem`)."""

    graph: RainbowGraph
    epsilon: float
    delta: float
    utility: np.ndarray  # (N, q)
    fixed_mask: np.ndarray  # (N,) bool
    fixed_values: np.ndarray  # (N, q), 0 off the mask
    lower: np.ndarray  # (N, q)
    upper: np.ndarray  # (N, q)


def check_problem(
    G: Any, epsilon: Any, delta: Any, utility: Any, fixed: Any, bounds: Any, msg: Any
) -> Problem:
    """Validate the arguments the LP and the MILP share, before any model is built."""
    g = check_graph(G, "G")
    eps = check_epsilon(epsilon, finite_exp=True)
    dlt = check_delta(delta)
    U = utility_matrix(g, utility)
    fixed_mask, fixed_values = check_fixed(g, fixed)
    lower, upper = check_bounds(g, bounds, fixed_mask, fixed_values)
    check_flag(msg, "msg")
    return Problem(g, eps, dlt, U, fixed_mask, fixed_values, lower, upper)
