r"""Ready-made rainbow graphs: the dataset graphs of the source papers and of everyday DP.

As networkx keeps its generators apart from its graph classes, the graphs of the papers are
offered here, as functions, and documented here. Each function is the classmethod of the same
name of :class:`~rainbowdp.graph.RainbowGraph` (``RainbowGraph.line``, ``.cycle``,
``.circulant``, ``.count_path`` and ``.from_records``), which builds the graph on top of the
public constructors (:meth:`~rainbowdp.graph.RainbowGraph.from_edges` for array-built graphs,
:meth:`~rainbowdp.graph.RainbowGraph.from_query` for query graphs); the code lives with the
class so that :mod:`rainbowdp.graph` does not import this module.

========================  ======================================================================
builder                   graph
========================  ======================================================================
:func:`line`              the (c, n)-line of Gu et al., Definition 7
:func:`cycle`             a cycle with given rainbows (Gu et al., Example 1)
:func:`circulant`         the modulo-addition instance of Kadam et al. (q ~ q + μ mod n + 1)
:func:`count_path`        a count query: path over counts, rainbow by distance to the count
:func:`from_records`      all datasets over a small universe, add/remove-one or replace-one
========================  ======================================================================

References
----------
.. [1] Y. Gu et al., "Generalized rainbow differential privacy", Definitions 1, 5 and 7.
.. [2] N. Kadam et al., "Optimum noise mechanism for differentially private queries in discrete
   finite sets", Cybersecurity (2024), eq. (6).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from .graph import Loss, RainbowGraph

__all__ = ["circulant", "count_path", "cycle", "from_records", "line"]


def line(rainbow: Sequence[Hashable], n: int) -> RainbowGraph:
    r"""The :math:`(c, n)`-line of Definition 7: path 0–1–…–n, every node rainbow c.

    Node 0 is declared the boundary of the line.

    Examples
    --------
    >>> G = line(["x", "y"], 3)
    >>> G.n_nodes, G.boundary(["x", "y"])
    (4, [0])
    """
    return RainbowGraph.line(rainbow, n)


def cycle(
    rainbows: Sequence[Sequence[Hashable]], *, outputs: Sequence[Hashable] | None = None
) -> RainbowGraph:
    r"""A cycle 0–1–…–(m−1)–0 where node i has rainbow ``rainbows[i]``.

    Gu et al.'s Example 1 is ``cycle([(1, 2, 3)] * 4 + [(1, 3, 2)])``.

    Examples
    --------
    >>> G = cycle([(1, 2, 3)] * 4 + [(1, 3, 2)])
    >>> sorted(G.boundary((1, 2, 3))), sorted(G.interior((1, 2, 3)))
    ([0, 3], [1, 2])
    """
    return RainbowGraph.cycle(rainbows, outputs=outputs)


def circulant(
    n: int,
    distances: Iterable[int],
    *,
    distortion: Sequence[float] | None = None,
    directed: bool = False,
) -> RainbowGraph:
    r"""The modulo-addition instance of Kadam et al.: nodes and outputs :math:`0..n`.

    Nodes are query values q; :math:`q \sim q+\mu \pmod{n+1}` for every :math:`\mu` in
    ``distances`` (the set :math:`\mathcal M` of eq. (6)). The rainbow of q orders the outputs
    :math:`\tilde q` by the distortion :math:`\rho_\eta` of :math:`\eta = \tilde q - q
    \pmod{n+1}` (ties broken by η), so every row of a modulo-noise mechanism is the noise
    PMF shifted by q.

    Parameters
    ----------
    n : int
        Largest query value (the domain is :math:`[n] = \{0, …, n\}`).
    distances : iterable of int
        The neighbourhood shifts μ, each in ``1..n``.
    distortion : sequence of float, optional
        :math:`\rho_\eta` for η = 0..n (default η itself; :math:`\eta^2` gives the same order).
    directed : bool, default False
        ``False``: the symmetric neighbour relation (q and q ± μ are neighbours). ``True``: the
        arcs :math:`q \to q - \mu \pmod{n+1}` only, the ordered pairs (X, X') of Kadam et
        al. with :math:`\mu = \mathbb Q(X) - \mathbb Q(X')` (eq. (6)): an arc constrains
        :math:`P_q(\tilde v) = f(\eta)` against :math:`P_{q-\mu}(\tilde v) = f(\eta + \mu)`,
        the comparison of eq. (7) (a one-way relation, see :attr:`RainbowGraph.directed`).

    Examples
    --------
    >>> G = circulant(8, [1, 2, 3])
    >>> G.n_nodes, G.n_edges, G.rainbow(7)[:3]
    (9, 27, (7, 8, 0))
    >>> circulant(8, [1], directed=True).edges[:2].tolist()
    [[0, 8], [1, 0]]
    """
    return RainbowGraph.circulant(n, distances, distortion=distortion, directed=directed)


def count_path(n: int, *, outputs: Sequence[float] | None = None, start: int = 0) -> RainbowGraph:
    r"""The count-query instance: path start–…–n over counts (start = 0 by default).

    Adjacent counts are neighbours (add/remove one record). The rainbow of count m orders the
    outputs by :math:`|v - m|`, ties to the smaller output; the true answer of node m is m.

    Parameters
    ----------
    n : int
        Largest count (nodes 0..n).
    outputs : sequence of real, optional
        The output set (default 0..n). A short range such as ``range(32)`` keeps a path of
        millions of counts small: every count beyond the range has the rainbow of the nearest
        end.
    start : int, default 0
        Smallest count (Sadeghi et al.'s count queries start at 1 or at the noise bound D).

    Examples
    --------
    >>> count_path(4).rainbow(2)
    (2, 1, 3, 0, 4)
    >>> G = count_path(10**6, outputs=range(4))
    >>> G.n_nodes, G.n_outputs, G.rainbow(999_999)
    (1000001, 4, (3, 2, 1, 0))
    """
    return RainbowGraph.count_path(n, outputs=outputs, start=start)


def from_records(
    universe: Iterable[Hashable],
    *,
    size: int,
    query: Callable[[tuple], Any],
    outputs: Sequence[Hashable],
    relation: str = "add_remove",
    multiset: bool = True,
    loss: Loss | None = None,
) -> RainbowGraph:
    r"""Dataset graph of all datasets over a small universe of records.

    Datasets are sorted tuples of records. With ``relation="add_remove"`` every dataset of at
    most ``size`` records is a node and two datasets are neighbours when one is the other plus
    one record (unbounded DP). With ``relation="replace_one"`` every dataset of exactly ``size``
    records is a node and neighbours differ by replacing one record (bounded DP). With
    ``relation="add_only"`` the nodes are those of ``"add_remove"`` and every dataset has an arc
    to each dataset with one record more: a one-way neighbour relation (a directed graph, see
    :attr:`RainbowGraph.directed`).

    Parameters
    ----------
    universe : iterable of hashable
        The possible records.
    size : int
        Maximum (``add_remove``, ``add_only``) or exact (``replace_one``) dataset size.
    query : callable
        ``query(dataset_tuple) -> answer``; the rainbow follows
        :meth:`RainbowGraph.from_query`.
    outputs : sequence of hashable
        The output set.
    relation : {"add_remove", "replace_one", "add_only"}
        The neighbourhood.
    multiset : bool, default True
        Whether a record may occur more than once in a dataset.
    loss : callable, optional
        As in :meth:`RainbowGraph.from_query`.

    Examples
    --------
    >>> G = from_records([0, 1], size=2, query=sum, outputs=[0, 1, 2])
    >>> G.n_nodes, G.n_edges
    (6, 6)
    >>> from_records([0, 1], size=2, query=sum, outputs=[0, 1, 2], relation="add_only").directed
    True
    """
    return RainbowGraph.from_records(
        universe,
        size=size,
        query=query,
        outputs=outputs,
        relation=relation,
        multiset=multiset,
        loss=loss,
    )
