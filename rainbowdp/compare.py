r"""Comparing mechanisms on one rainbow graph: privacy at several (ε, δ) and utility, in a table.

:func:`compare` evaluates, for every mechanism, the proved smallest ε at each requested δ
(:func:`~rainbowdp.privacy.epsilon_for_delta`), the sound smallest δ at each requested ε
(:func:`~rainbowdp.privacy.privacy_profile`) and, optionally, the expected utility
(:func:`~rainbowdp.order.expected_utility`). Every privacy number in the table obeys the
library's soundness rule: ε and δ are never below their exact values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._validation import check_delta, check_epsilon, real_array
from .exceptions import ParameterError, ParameterTypeError
from .mechanism import Mechanism, check_mechanism
from .order import expected_utility
from .privacy import epsilon_for_delta, privacy_profile

__all__ = ["Comparison", "compare"]


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
        Expected utility :math:`\sum_d \sum_v u_d(v) P_d(v)` when a utility was given.
    """

    names: tuple[str, ...]
    deltas: np.ndarray = field(repr=False)
    epsilons: np.ndarray = field(repr=False)
    epsilon_at: np.ndarray = field(repr=False)
    delta_at: np.ndarray = field(repr=False)
    utility: np.ndarray | None = field(repr=False, default=None)

    def rows(self) -> list[dict[str, Any]]:
        """The table as one dictionary per mechanism (column name -> value)."""
        out = []
        for i, name in enumerate(self.names):
            row: dict[str, Any] = {"mechanism": name}
            for d, e in zip(self.deltas.tolist(), self.epsilon_at[i].tolist(), strict=True):
                row[f"epsilon(delta={d:g})"] = e
            for e, d in zip(self.epsilons.tolist(), self.delta_at[i].tolist(), strict=True):
                row[f"delta(epsilon={e:g})"] = d
            if self.utility is not None:
                row["utility"] = float(self.utility[i])
            out.append(row)
        return out

    def __str__(self) -> str:
        rows = self.rows()
        cols = list(rows[0])
        cells = [[_cell(r[c]) for c in cols] for r in rows]
        widths = [max(len(c), *(len(row[j]) for row in cells)) for j, c in enumerate(cols)]
        lines = ["  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True))]
        lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)) for row in cells]
        return "\n".join(lines)


def _cell(value: Any) -> str:
    return f"{value:.6g}" if isinstance(value, float) else str(value)


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
    >>> from rainbowdp.graph import RainbowGraph
    >>> G = RainbowGraph.line(["yes", "no"], 1)
    >>> table = compare(
    ...     {"coin": Mechanism(G, [[0.75, 0.25], [0.25, 0.75]]),
    ...      "fair": Mechanism(G, [[0.5, 0.5], [0.5, 0.5]])},
    ...     deltas=[0.0], epsilons=[0.0], utility=[[1.0, 0.0], [0.0, 1.0]])
    >>> table.epsilon_at[:, 0].round(6).tolist(), table.delta_at[:, 0].tolist()
    ([1.098612, 0.0], [0.5, 0.0])
    >>> table.utility.tolist()
    [1.5, 1.0]
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
    return Comparison(tuple(str(n) for n, _ in items), ds, es, eps_at, dlt_at, util)
