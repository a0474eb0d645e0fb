r"""Mechanisms: one output distribution per node of a rainbow graph, and exact sampling.

A mechanism :math:`\mathcal M : \mathcal D \to \mathcal V` (Gu et al., Section 2) is stored as an
(N, q) float64 array whose row i is the distribution of :math:`\mathcal M(d_i)` over
``graph.outputs``. :meth:`Mechanism.in_rainbow_order` gives the vectors
:math:`\vec{\mathcal M}(d)_k = \mathbb P[\mathcal M(d) = f(d)_k]` of Definition 3.

Sampling is exact: a row is quantised to an integer CDF over :math:`2^k` and an output is drawn by
comparing a uniform k-bit integer with that CDF, so the distribution actually sampled is
:meth:`Mechanism.quantised` -- a mechanism that can itself be verified. Floating-point inversion
sampling would sample an unknown distribution instead (cf. Mironov, "On significance of the least
significant bits for differential privacy", CCS 2012).
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Literal

import numpy as np

from ._format import HTML_MAX_ROWS, html_table, short_repr
from ._validation import check_int, real_array
from .exceptions import InvalidMechanismError, ParameterError, ParameterTypeError
from .graph import RainbowGraph, check_graph

__all__ = [
    "MAX_ATOL",
    "MAX_SAMPLE_SIZE",
    "ORDERS",
    "ROW_ATOL",
    "Mechanism",
    "Order",
    "check_mechanism",
    "check_order",
]

#: The two orders in which a distribution attached to a node or a rainbow can be written
#: (``docs/conventions.md``): ``"outputs"``, entry j is the probability of ``graph.outputs[j]``;
#: ``"rainbow"``, entry k is the probability of the node's (or rainbow's) k-th preferred output.
ORDERS = ("outputs", "rainbow")
#: See :data:`ORDERS`.
Order = Literal["outputs", "rainbow"]

#: Output columns a notebook's view of a mechanism shows at most.
_HTML_COLUMNS = 10
#: Default tolerance on each row sum.
ROW_ATOL = 1e-9
#: Largest accepted ``atol``: a looser tolerance would accept rows that are not distributions.
MAX_ATOL = 1e-3
#: Largest ``size`` of one :meth:`Mechanism.sample` call (about 32 bytes of memory per draw, so
#: at most 512 MiB); draw larger samples in several calls.
MAX_SAMPLE_SIZE = 2**24

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _check_atol(atol: Any) -> float:
    if isinstance(atol, bool) or not isinstance(atol, numbers.Real):
        raise ParameterTypeError(f"`atol` must be a real number, got atol={atol!r}.")
    x = float(atol)
    if not (math.isfinite(x) and 0.0 <= x <= MAX_ATOL):
        raise ParameterError(
            f"`atol` must be a finite number in [0, {MAX_ATOL:g}], got atol={atol!r}."
        )
    return x


def check_order(value: Any, name: str = "order") -> Order:
    """``value`` if it is one of :data:`ORDERS`, else an error naming ``name``.

    The one check of an ``order`` argument (:class:`ParameterTypeError` for a non-string,
    :class:`ParameterError` for another string).

    Examples
    --------
    >>> check_order("rainbow")
    'rainbow'
    """
    if not isinstance(value, str):
        raise ParameterTypeError(
            f"`{name}` must be 'outputs' or 'rainbow', got {name}={value!r} "
            f"({type(value).__name__})."
        )
    if value not in ORDERS:
        raise ParameterError(f"`{name}` must be 'outputs' or 'rainbow', got {name}={value!r}.")
    return "outputs" if value == "outputs" else "rainbow"


def _at_node(G: RainbowGraph) -> Any:
    """Describe the row of a multi-index as its node, for error messages."""
    nodes = G.nodes

    def where(idx: tuple) -> str:
        if idx and 0 <= idx[0] < len(nodes):
            return f"for node {nodes[idx[0]]!r}"
        return "in the array"

    return where


def _for_node(node: Hashable) -> Callable[[tuple], str]:
    """Describe any entry of ``node``'s own vector as that node, for error messages."""

    def where(idx: tuple) -> str:
        return f"for node {node!r}"

    return where


class Mechanism:
    r"""One probability distribution over ``G.outputs`` for every node of ``G``.

    Parameters
    ----------
    G : RainbowGraph
        The graph the mechanism lives on.
    probabilities : array_like of shape (N, q), or mapping node -> vector
        Row i (or the vector of node d) is the output distribution at that node, in the order
        ``order`` names.
        Entries must be real numbers: strings (even ``"0.5"``), booleans, complex numbers and
        other objects are rejected rather than converted.
    order : {"outputs", "rainbow"}, default "outputs"
        ``"outputs"``: entry j is the probability of ``G.outputs[j]``. ``"rainbow"``: entry
        k is the probability of the node's k-th preferred output, the vectors
        :math:`\vec{\mathcal M}(d)` of Gu et al., Definition 3 (as
        :meth:`from_rainbow_order`). The mechanism always stores rows in ``G.outputs``
        order (``docs/conventions.md``).
    atol : float, default 1e-9
        Tolerance on each row sum, a finite number in ``[0, MAX_ATOL]`` (``MAX_ATOL = 1e-3``).
        Rows are stored as given (not renormalised): the verifier judges exactly the numbers
        the user supplied.

    Raises
    ------
    ParameterTypeError
        If ``G`` is not a :class:`RainbowGraph`, an entry is not a real number (the node is
        named), or ``atol`` is not a real number.
    ParameterError
        If ``atol`` is NaN, infinite, negative or larger than ``MAX_ATOL``, or ``order`` is
        another string.
    InvalidMechanismError
        On a wrong shape, a missing or unknown node, or a row with a negative, NaN or infinite
        entry or a sum other than 1 (the node is named).

    Examples
    --------
    >>> from rainbowdp import builders
    >>> G = builders.line(["yes", "no"], 2)
    >>> M = Mechanism(G, [[0.6, 0.4], [0.7, 0.3], [0.8, 0.2]])
    >>> M.row(2).tolist()
    [0.8, 0.2]

    The same rows for a node that prefers ``"no"``, written in its preference order:

    >>> H = builders.cycle([("yes", "no"), ("no", "yes"), ("no", "yes")])
    >>> Mechanism(H, [[0.6, 0.4]] * 3, order="rainbow").probabilities.tolist()
    [[0.6, 0.4], [0.4, 0.6], [0.4, 0.6]]
    """

    __slots__ = ("_graph", "_memos", "_p", "_smax")

    def __init__(
        self,
        G: RainbowGraph,
        probabilities: Any,
        *,
        order: Order = "outputs",
        atol: float = ROW_ATOL,
    ) -> None:
        check_graph(G, "G")
        order = check_order(order)
        tol = _check_atol(atol)
        n, q = G.n_nodes, G.n_outputs
        nodes = G.nodes
        if isinstance(probabilities, Mapping):
            unknown = [d for d in probabilities if d not in G.node_index]
            if unknown:
                raise InvalidMechanismError(
                    f"`probabilities` names node {unknown[0]!r}, which is not in the graph."
                )
            missing = [d for d in nodes if d not in probabilities]
            if missing:
                raise InvalidMechanismError(
                    f"`probabilities` has no distribution for node {missing[0]!r}."
                )
            arr = np.empty((n, q), dtype=np.float64)
            for i, d in enumerate(nodes):
                row = real_array(
                    probabilities[d], "probabilities", _for_node(d), error=InvalidMechanismError
                )
                if row.shape != (q,):
                    raise InvalidMechanismError(
                        f"the distribution of node {d!r} must have {q} "
                        f"entries, got {probabilities[d]!r}."
                    )
                arr[i] = row
        else:
            arr = real_array(
                probabilities, "probabilities", _at_node(G), error=InvalidMechanismError
            )
            if arr.shape != (n, q):
                raise InvalidMechanismError(
                    f"`probabilities` must have shape ({n}, {q}) "
                    f"(nodes, outputs), got shape {arr.shape}."
                )
        if order == "rainbow":  # entry k of row i is the probability of output order[i, k]
            arr = np.take_along_axis(arr, G.ranks, axis=1)
        bad = ~np.isfinite(arr).all(axis=1)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InvalidMechanismError(
                f"the distribution of node {G.nodes[i]!r} must be finite, got {arr[i].tolist()}."
            )
        neg = (arr < 0).any(axis=1)
        if neg.any():
            i = int(np.flatnonzero(neg)[0])
            raise InvalidMechanismError(
                f"the distribution of node {G.nodes[i]!r} must be "
                f"non-negative, got {arr[i].tolist()}."
            )
        sums = arr.sum(axis=1)
        off = np.abs(sums - 1.0) > tol
        if off.any():
            i = int(np.flatnonzero(off)[0])
            raise InvalidMechanismError(
                f"the distribution of node {G.nodes[i]!r} must sum "
                f"to 1 (within {tol:g}), got sum {sums[i]!r} for "
                f"{arr[i].tolist()}."
            )
        # row-major, as the kernels read it (converting an F-ordered input keeps its order)
        arr = np.ascontiguousarray(arr)
        arr.setflags(write=False)
        self._graph = G
        self._p = arr
        self._smax: float | None = float(sums.max()) if sums.size else None
        self._memos: dict[str, Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        """The graph and the rows only: the remembered row sum and irregular rows are derived
        and recomputed (a copy's array is writable until :meth:`__setstate__` locks it)."""
        return {"_graph": self._graph, "_p": self._p}

    def __setstate__(self, state: Any) -> None:
        """Restore from :meth:`__getstate__` (or an older state with the caches): the rows
        read-only again, the remembered values cleared, so a copy can never carry values that
        do not belong to its rows."""
        slots = state[1] if isinstance(state, tuple) else state
        p = np.ascontiguousarray(slots["_p"], dtype=np.float64)
        p.setflags(write=False)
        self._graph = slots["_graph"]
        self._p = p
        self._smax = None
        self._memos = {}

    @classmethod
    def _from_valid(cls, G: RainbowGraph, probabilities: np.ndarray) -> Mechanism:
        """Trusted constructor: ``probabilities`` are valid rows by construction.

        Used where rows are only gathered or permuted from a validated :class:`Mechanism` (a
        pullback), or built as distributions and checked by the caller (the noise families:
        finite, non-negative, row sums within 1e-12), so the public constructor's copy and
        checks would repeat work. Never use it on numbers a user passed in.
        """
        obj = cls.__new__(cls)
        p = np.ascontiguousarray(probabilities, dtype=np.float64)
        if p.shape != (G.n_nodes, G.n_outputs):
            raise InvalidMechanismError(
                f"`probabilities` must have shape ({G.n_nodes}, "
                f"{G.n_outputs}), got shape {p.shape}."
            )
        p.setflags(write=False)
        obj._graph = G
        obj._p = p
        obj._smax = None
        obj._memos = {}
        return obj

    @classmethod
    def from_rainbow_order(
        cls, G: RainbowGraph, vectors: Any, *, atol: float = ROW_ATOL
    ) -> Mechanism:
        r"""Build a mechanism from vectors given in each node's rainbow order.

        ``vectors[i, k]`` is :math:`\mathbb P[\mathcal M(d_i) = f(d_i)_k]`, the convention of
        Definition 3 and of Section 4 of Gu et al.; the same as
        ``Mechanism(G, vectors, order="rainbow")``, with errors naming ``vectors``.

        Examples
        --------
        >>> from rainbowdp import builders
        >>> G = builders.cycle([("a", "b"), ("a", "b"), ("b", "a")])
        >>> Mechanism.from_rainbow_order(G, [[0.9, 0.1]] * 3).row(2).tolist()
        [0.1, 0.9]
        """
        check_graph(G, "G")
        _check_atol(atol)
        v = real_array(vectors, "vectors", _at_node(G), error=InvalidMechanismError)
        if v.shape != (G.n_nodes, G.n_outputs):
            raise InvalidMechanismError(
                f"`vectors` must have shape ({G.n_nodes}, {G.n_outputs}), got shape {v.shape}."
            )
        return cls(G, v, order="rainbow", atol=atol)

    # ------------------------------------------------------------------ views
    @property
    def graph(self) -> RainbowGraph:
        """The rainbow graph."""
        return self._graph

    @property
    def probabilities(self) -> np.ndarray:
        """Read-only (N, q) array in ``graph.outputs`` order."""
        return self._p

    def _row_sum_max(self) -> float:
        """The largest row sum, ``float(probabilities.sum(axis=1).max())`` (remembered: the
        verifier's error bound depends on it)."""
        if self._smax is None:
            self._smax = float(self._p.sum(axis=1).max())
        return self._smax

    def _memo(self, name: str, compute: Callable[[np.ndarray], Any]) -> Any:
        """``compute(probabilities)``, remembered under ``name``: a value derived from the rows
        alone (the verifier keeps its irregular rows and row classes here), computed once."""
        if name not in self._memos:
            self._memos[name] = compute(self._p)
        return self._memos[name]

    def in_rainbow_order(self) -> np.ndarray:
        r"""(N, q) array :math:`\vec{\mathcal M}(d)_k = \mathbb P[\mathcal M(d) = f(d)_k]`."""
        return np.take_along_axis(self._p, self._graph.order, axis=1)

    def row(self, node: Hashable) -> np.ndarray:
        """The output distribution of ``node`` (a copy), in ``graph.outputs`` order."""
        return self._p[self._graph.index_of(node)].copy()

    def to_dict(self) -> dict:
        """``{node: list of probabilities}`` in ``graph.outputs`` order."""
        return dict(zip(self._graph.nodes, self._p.tolist(), strict=True))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mechanism):
            return NotImplemented
        return self._graph is other._graph and np.array_equal(self._p, other._p)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        n, q = self._p.shape
        return f"Mechanism({n} nodes x {q} outputs, graph={self._graph!r})"

    def _repr_html_(self) -> str:
        """A notebook's view: the probabilities of the first nodes over the first outputs."""
        g = self._graph
        n, q = self._p.shape
        cols = min(q, _HTML_COLUMNS)
        header = ["node", *(short_repr(o, 20) for o in g.outputs[:cols])]
        if q > cols:
            header.append(f"... ({q - cols} more)")
        rows = []
        for i, node in enumerate(g.nodes[:HTML_MAX_ROWS]):
            row = [short_repr(node, 30), *(f"{x:.6g}" for x in self._p[i, :cols].tolist())]
            if q > cols:
                row.append("...")
            rows.append(row)
        return html_table(f"Mechanism: {n} nodes x {q} outputs", header, rows, n_rows=n)

    # ------------------------------------------------------------------ exact sampling
    @staticmethod
    def _integer_cdf(p: np.ndarray, bits: int) -> np.ndarray:
        """Integer CDFs (last axis) over ``2**bits``; zero-probability outputs keep zero mass."""
        scale = float(2**bits)
        cdf = np.rint(np.cumsum(p, axis=-1) * scale).astype(np.int64)
        np.clip(cdf, 0, 2**bits, out=cdf)
        # Everything from the last output with positive probability on is the full mass, so
        # trailing zero-probability outputs are never sampled.
        q = p.shape[-1]
        last = q - 1 - np.argmax((p > 0)[..., ::-1], axis=-1)
        cdf[np.arange(q) >= np.expand_dims(last, -1)] = 2**bits
        return np.maximum.accumulate(cdf, axis=-1)

    def quantised(self, bits: int = 53) -> Mechanism:
        r"""The mechanism that :meth:`sample` actually samples with ``bits`` random bits.

        Every probability becomes an integer multiple of :math:`2^{-\text{bits}}` (exact in
        float64 for ``bits <= 53``). Verify it to know the privacy of what is released.

        Examples
        --------
        >>> from rainbowdp import builders
        >>> G = builders.line([0, 1, 2], 1)
        >>> M = Mechanism(G, [[0.5, 0.3, 0.2], [0.2, 0.3, 0.5]])
        >>> (M.quantised(4).probabilities * 16).tolist()
        [[8.0, 5.0, 3.0], [3.0, 5.0, 8.0]]
        """
        bits = check_int(bits, "bits", minimum=1, maximum=53)
        cdf = self._integer_cdf(self._p, bits)
        pmf = np.diff(cdf, axis=1, prepend=0).astype(np.float64) / float(2**bits)
        return Mechanism(self._graph, pmf)

    def sample(
        self,
        node: Hashable,
        size: int | None = None,
        *,
        rng: Literal["secure"] | np.random.Generator = "secure",
        bits: int = 53,
    ) -> Any:
        r"""Draw outputs of :math:`\mathcal M(d)` exactly from :meth:`quantised` ``(bits)``.

        A uniform ``bits``-bit integer U is compared with the integer CDF ``c``; the output is
        the first j with ``U < c[j]``. Only integer comparisons are made.

        Parameters
        ----------
        node : hashable
            The dataset d.
        size : int, optional
            Number of draws, ``0 <= size <= MAX_SAMPLE_SIZE`` (``2**24`` per call; the draws
            take about 32 bytes each while they are made, so one call stays under 512 MiB --
            call again for more); ``None`` returns a single output.
        rng : "secure" or numpy.random.Generator, default "secure"
            Source of randomness: ``"secure"`` reads the operating system's CSPRNG (as the
            :mod:`secrets` module does); a ``numpy.random.Generator`` gives reproducible draws
            for testing.
        bits : int, default 53
            Resolution k of the CDF, :math:`1 \le k \le 53`.

        Returns
        -------
        output or numpy.ndarray
            One output label (the element of ``graph.outputs`` itself), or an array of ``size``
            labels: of dtype int64 when every output is an integer in the int64 range, else of
            dtype object.

        Raises
        ------
        ParameterError
            If ``size`` is negative or larger than ``MAX_SAMPLE_SIZE``, ``bits`` is outside
            ``1..53`` or ``rng`` is a string other than ``"secure"``.
        ParameterTypeError
            If ``size`` or ``bits`` is not an integer or ``rng`` has the wrong type.
        InvalidGraphError
            If ``node`` is not a node of the graph.

        Examples
        --------
        >>> import numpy as np
        >>> from rainbowdp import builders
        >>> G = builders.line(["a", "b"], 1)
        >>> M = Mechanism(G, [[1.0, 0.0], [0.25, 0.75]])
        >>> M.sample(0, 3, rng=np.random.default_rng(0)).tolist()
        ['a', 'a', 'a']
        """
        i = self._graph.index_of(node)
        bits = check_int(bits, "bits", minimum=1, maximum=53)
        n = 1 if size is None else check_int(size, "size", minimum=0, maximum=MAX_SAMPLE_SIZE)
        if isinstance(rng, str):
            if rng != "secure":
                raise ParameterError(
                    f"`rng` must be 'secure' or a numpy Generator, got rng={rng!r}."
                )
            raw = np.frombuffer(os.urandom(8 * n), dtype=np.uint64)
            u = (raw >> np.uint64(64 - bits)).astype(np.int64)
        elif isinstance(rng, np.random.Generator):
            u = rng.integers(0, 2**bits, size=n, dtype=np.int64)
        else:
            raise ParameterTypeError(
                f"`rng` must be 'secure' or a numpy.random.Generator, got rng={rng!r}."
            )
        cdf = self._integer_cdf(self._p[i], bits)
        idx = np.searchsorted(cdf, u, side="right")
        outputs = self._graph.outputs
        if size is None:
            return outputs[int(idx[0])]
        labels = np.empty(len(outputs), dtype=object)
        for j, o in enumerate(outputs):  # element-wise: tuple outputs must stay single labels
            labels[j] = o
        if all(
            isinstance(o, int | np.integer)
            and not isinstance(o, bool)
            and _INT64_MIN <= int(o) <= _INT64_MAX
            for o in outputs
        ):
            labels = labels.astype(np.int64)
        return labels[idx]


def check_mechanism(value: Any, name: str = "mechanism") -> Mechanism:
    """``value`` if it is a :class:`Mechanism`, else :class:`ParameterTypeError` naming ``name``
    (the one mechanism-argument check of the package)."""
    if not isinstance(value, Mechanism):
        raise ParameterTypeError(
            f"`{name}` must be a Mechanism, got {name}={type(value).__name__}."
        )
    return value
