r"""Comparing mechanisms on one rainbow graph: privacy at several (ε, δ) and utility, in a table.

:func:`compare` evaluates, for every mechanism, the proved smallest ε at each requested δ
(:func:`~rainbowdp.privacy.epsilon_for_delta`), the sound smallest δ at each requested ε
(:func:`~rainbowdp.privacy.privacy_profile`) and, optionally, the expected utility
(:func:`~rainbowdp.order.expected_utility`), which is a **sum over the nodes** (datasets) of
each node's expected utility; the table also gives the mean per node (the sum divided by the
number of nodes), which does not grow with the graph. Every privacy number in the table obeys
the library's soundness rule: ε and δ are never below their exact values; the text and HTML
forms round ε and δ up and the utilities down (never shown better than computed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._format import dataframe, format_down, format_up, html_table
from ._validation import check_delta, check_epsilon, real_array
from .exceptions import ParameterError, ParameterTypeError
from .mechanism import Mechanism, check_mechanism
from .order import expected_utility
from .privacy import epsilon_for_delta, privacy_profile

__all__ = ["UTILITY_MEAN_COLUMN", "UTILITY_SUM_COLUMN", "Comparison", "compare"]

#: Column of the expected utility summed over the nodes (:attr:`Comparison.utility`).
UTILITY_SUM_COLUMN = "utility (sum over nodes)"
#: Column of the expected utility per node (:attr:`Comparison.utility_mean`).
UTILITY_MEAN_COLUMN = "utility (mean per node)"


@dataclass(frozen=True)
class Comparison:
    r"""Result of :func:`compare`: one row per mechanism.

    Attributes
    ----------
    names : tuple of str
        The mechanisms' names, in row order.
    deltas, epsilons : numpy.ndarray
        The δ values of the ε columns and the ε values of the δ columns.
    epsilon_at : numpy.ndarray, shape (mechanisms, deltas)
        Proved smallest ε at each δ (``inf`` where none exists).
    delta_at : numpy.ndarray, shape (mechanisms, epsilons)
        Smallest δ at each ε, never below the exact value.
    utility : numpy.ndarray of shape (mechanisms,) or None
        Expected utility :math:`\sum_d \sum_v u_d(v) P_d(v)`, a **sum over the nodes** d, when
        a utility was given (:func:`~rainbowdp.order.expected_utility`); see
        :attr:`utility_mean` for the mean per node.
    n_nodes : int
        Number of nodes of the graph (the divisor of :attr:`utility_mean`).

    Notes
    -----
    ``print(table)`` shows the table with ε and δ rounded up and utilities rounded down to 6
    significant digits; :meth:`rows` and :meth:`to_pandas` hold the float64 values. In a
    notebook the table is shown as HTML.
    """

    names: tuple[str, ...]
    deltas: np.ndarray = field(repr=False)
    epsilons: np.ndarray = field(repr=False)
    epsilon_at: np.ndarray = field(repr=False)
    delta_at: np.ndarray = field(repr=False)
    utility: np.ndarray | None = field(repr=False, default=None)
    n_nodes: int = 1

    @property
    def utility_mean(self) -> np.ndarray | None:
        """Expected utility per node: :attr:`utility` divided by :attr:`n_nodes` (``None``
        without a utility)."""
        return None if self.utility is None else self.utility / self.n_nodes

    def columns(self) -> list[str]:
        """The column names, in order: ``mechanism``, ``epsilon(delta=...)`` per δ,
        ``delta(epsilon=...)`` per ε, and with a utility :data:`UTILITY_SUM_COLUMN` and
        :data:`UTILITY_MEAN_COLUMN`."""
        cols = ["mechanism"]
        cols += [f"epsilon(delta={d:g})" for d in self.deltas.tolist()]
        cols += [f"delta(epsilon={e:g})" for e in self.epsilons.tolist()]
        if self.utility is not None:
            cols += [UTILITY_SUM_COLUMN, UTILITY_MEAN_COLUMN]
        return cols

    def rows(self) -> list[dict[str, Any]]:
        """The table as one dictionary per mechanism (column name -> value, see
        :meth:`columns`)."""
        cols = self.columns()
        out = []
        for i, name in enumerate(self.names):
            values: list[Any] = [name, *self.epsilon_at[i].tolist(), *self.delta_at[i].tolist()]
            if self.utility is not None:
                values += [float(self.utility[i]), float(self.utility[i]) / self.n_nodes]
            out.append(dict(zip(cols, values, strict=True)))
        return out

    def to_pandas(self) -> Any:
        """The table as a :class:`pandas.DataFrame`, one row per mechanism (the columns of
        :meth:`columns`, float64 values).

        Raises
        ------
        ImportError
            If pandas is not installed.
        """
        return dataframe(self.rows(), self.columns(), "Comparison.to_pandas()")

    def _cells(self) -> tuple[list[str], list[list[str]]]:
        """The column names and the cells as text, rounded the safe way."""
        cols = self.columns()
        n_priv = 1 + self.deltas.size + self.epsilons.size
        cells = []
        for row in self.rows():
            values = list(row.values())
            text = [str(values[0])]
            text += [format_up(v) for v in values[1:n_priv]]
            text += [format_down(v) for v in values[n_priv:]]
            cells.append(text)
        return cols, cells

    def __str__(self) -> str:
        cols, cells = self._cells()
        widths = [max(len(c), *(len(row[j]) for row in cells)) for j, c in enumerate(cols)]
        lines = ["  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True))]
        lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)) for row in cells]
        return "\n".join(line.rstrip() for line in lines)

    def __repr__(self) -> str:
        util = "" if self.utility is None else ", utility (sum over nodes)"
        return (
            f"Comparison({len(self.names)} mechanism(s) {_names(self.names)}: epsilon at "
            f"delta={self.deltas.tolist()}, delta at epsilon={self.epsilons.tolist()}{util})"
        )

    def _repr_html_(self) -> str:
        cols, cells = self._cells()
        return html_table(
            f"Comparison of {len(self.names)} mechanism(s) on {self.n_nodes} nodes",
            cols,
            cells,
            note="epsilon and delta rounded up, utilities rounded down (6 significant digits)",
        )


def _names(names: tuple[str, ...]) -> str:
    shown = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
    return f"({shown})"


def _values(value: Any, name: str, check: Any) -> np.ndarray:
    if isinstance(value, str | bytes):
        raise ParameterTypeError(f"`{name}` must be an array of numbers, got {name}={value!r}.")
    arr = np.atleast_1d(real_array(value, name))
    if arr.ndim != 1:
        raise ParameterError(f"`{name}` must be one-dimensional, got shape {arr.shape}.")
    return np.array([check(float(v), name) for v in arr])


def compare(
    mechanisms: Mapping[str, Mechanism] | Sequence[Mechanism],
    *,
    deltas: Any = (0.0,),
    epsilons: Any = (),
    utility: Any = None,
) -> Comparison:
    r"""Tabulate privacy and utility of several mechanisms on the same rainbow graph.

    Parameters
    ----------
    mechanisms : mapping name -> Mechanism, or sequence of Mechanism
        At least one; all on the same graph (the same :class:`RainbowGraph` object).
        A sequence is named ``M0, M1, ...``.
    deltas : array_like of float, default (0,)
        δ values at which the proved smallest ε is reported.
    epsilons : array_like of float, default ()
        ε values at which the smallest δ is reported.
    utility : array_like, optional
        As for :func:`~rainbowdp.order.expected_utility`: an (N, q) array or a vector by rank.
        The table reports the expected utility summed over the N nodes (column
        :data:`UTILITY_SUM_COLUMN`) and its mean per node (:data:`UTILITY_MEAN_COLUMN`).

    Returns
    -------
    Comparison

    Raises
    ------
    ParameterTypeError, ParameterError
        On an empty or malformed ``mechanisms``, mechanisms on different graphs, or bad
        ``deltas``, ``epsilons`` or ``utility`` (the value is named).

    Examples
    --------
    >>> import math
    >>> from rainbowdp import builders
    >>> G = builders.line(["yes", "no"], 1)
    >>> table = compare(
    ...     {"coin": Mechanism(G, [[0.75, 0.25], [0.25, 0.75]]),
    ...      "fair": Mechanism(G, [[0.5, 0.5], [0.5, 0.5]])},
    ...     deltas=[0.0], epsilons=[0.0], utility=[[1.0, 0.0], [0.0, 1.0]])
    >>> table.epsilon_at[:, 0].round(6).tolist(), table.delta_at[:, 0].tolist()
    ([1.098612, 0.0], [0.5, 0.0])
    >>> table.utility.tolist(), table.utility_mean.tolist()   # sum over the 2 nodes, mean
    ([1.5, 1.0], [0.75, 0.5])
    """
    if isinstance(mechanisms, Mapping):
        items = list(mechanisms.items())
    elif isinstance(mechanisms, Sequence) and not isinstance(mechanisms, str | bytes):
        items = [(f"M{i}", m) for i, m in enumerate(mechanisms)]
    else:
        raise ParameterTypeError(
            "`mechanisms` must be a mapping name -> Mechanism or a sequence of Mechanism, got "
            f"mechanisms={mechanisms!r}."
        )
    if not items:
        raise ParameterError("`mechanisms` must hold at least one mechanism, got none.")
    for name, m in items:
        check_mechanism(m, f"mechanisms[{name!r}]")
    graph = items[0][1].graph
    other = next((name for name, m in items if m.graph is not graph), None)
    if other is not None:
        raise ParameterError(
            f"`mechanisms` must all live on one graph; mechanisms[{other!r}] lives on another "
            f"graph than mechanisms[{items[0][0]!r}]."
        )
    ds = _values(deltas, "deltas", check_delta)
    es = _values(epsilons, "epsilons", lambda v, n: check_epsilon(v, n))
    eps_at = np.array([np.atleast_1d(epsilon_for_delta(m, ds)) for _, m in items]).reshape(
        len(items), ds.size
    )
    dlt_at = np.array([privacy_profile(m, es) if es.size else [] for _, m in items]).reshape(
        len(items), es.size
    )
    util = None if utility is None else np.array([expected_utility(m, utility) for _, m in items])
    return Comparison(
        tuple(str(n) for n, _ in items), ds, es, eps_at, dlt_at, util, n_nodes=graph.n_nodes
    )
