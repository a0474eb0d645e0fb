r"""Perturbing a frequency table from microdata with the cell key method (Sadeghi & Chien, §3–4).

A frequency table counts the records in every cell of the cross-classification of some
categorical variables (:func:`frequency_table`), optionally with every margin. Each cell's key is
computed from the record keys of its records (§3, :mod:`._keys`), and the cell's count and key
select its noise from a perturbation table (:class:`~._ptable.Ptable`, §4):

.. math::

    \hat n_{\text{cell}} = n_{\text{cell}} + \text{noise}\big(n_{\text{cell}},
    \mathrm{CellKey}_{\text{cell}}\big).

**Consistency.** A cell's key depends only on its set of records, so the same cell gets the same
key -- and the same noise -- in every query: the cell (a, b) of a table by [a, b] and of a table
by [a, b, c] summed over c, the margin a of a table by [a, b] and the cell a of a table by [a].
Margins are computed from the interior cells by the additivity of (3.1): the components of a
margin are the sums of its interior cells' (exact) component sums modulo bigN, which equal the
components computed from the union of its records; the XOR (3.2) is applied last.

**Small counts and zeros.** The published count is never negative: a ptable's rows put no mass
below 0 (checked again here). A cell with count 0 has no records, so its key is the key of an
empty sum, 0, and it is perturbed with the ptable's row 0. Key 0 selects the smallest noise of
that row with positive quantised mass, which is 0 whenever row 0 can publish 0 at all (its noise
is never negative). With the usual row 0, the point mass at 0 (e.g. :meth:`Ptable.from_noise`),
**zeros stay zeros**: a structural or sampling zero is published as 0. (All empty cells share key
0, so a row 0 that perturbed zeros would perturb them all alike.)

**Decimal keys and weights** (``method="cellkey"``, ``weights=``): the record keys, cell keys,
lookup and weighted counts of the R package ``cellKey`` (:mod:`._decimal_keys`,
:mod:`._weights`), for agencies whose microdata carry ``cellKey`` or Tau-Argus record keys.

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Sections 3–4.
.. [2] R package ``cellKey`` (sdcTools), ``R/cellkey_pkg.R``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError
from ._decimal_keys import DecimalKeys, decimal_cell_keys, decimal_noise
from ._display import html_table, require_pandas
from ._hierarchy import Hierarchy, aggregate, aggregate_mod, flat_hierarchy, parse_hierarchies
from ._keys import (
    METHODS,
    Method,
    check_method,
    component_sums,
    components_from_sums,
    key_modulus,
    keys_from_components,
)
from ._perturb_input import (
    RESERVED,
    check_by,
    check_data,
    check_total,
    column,
    factorize,
    length,
    resolve_decimal_keys,
    resolve_keys,
)
from ._quantise import check_keysize
from ._weights import perturbed_weighted, resolve_weights, weight_sums

__all__ = ["RESERVED", "TOTAL", "FrequencyTable", "frequency_table", "perturb"]

#: The label of a margin ("summed over this variable").
TOTAL = "Total"
#: The method of the R package ``cellKey``: decimal record keys, cell key = their sum mod 1.
CELLKEY = "cellkey"
#: Most cells of a table (margins included).
MAX_CELLS = 10**8
#: The column of the hierarchy level of variable ``v`` in a table with hierarchies.
LEVEL = "{}_level"


def _with_margins(arr: np.ndarray, k: int) -> np.ndarray:
    """Append to each of the first k axes the sum over that axis (the margin "Total").

    Done axis by axis, so the entries with several "Total" indices are sums over all of them.
    Exact for integer and object arrays.
    """
    for ax in range(k):
        arr = np.concatenate([arr, arr.sum(axis=ax, keepdims=True)], axis=ax)
    return arr


def _frozen(arr: np.ndarray) -> np.ndarray:
    arr.setflags(write=False)
    return arr


# ------------------------------------------------------------------------------------ table
@dataclass(frozen=True, eq=False)
class FrequencyTable:
    r"""A frequency table: every cell of a cross-classification, optionally with its margins.

    Rows enumerate the grid of each variable's categories (followed by :attr:`total` when the
    table has margins) in C order: for ``by = [a, b]`` the rows are (a1, b1), (a1, b2), ...,
    (a1, Total), (a2, b1), ..., (Total, Total). With hierarchies, each variable lists every
    node of its hierarchy instead, in post-order (each subtotal after its children, the total
    last; :mod:`._hierarchy`).

    Attributes
    ----------
    by : tuple of str
        The classifying variables.
    levels : tuple of numpy.ndarray
        The categories of each variable, sorted (a pandas categorical: its declared order); for
        a variable with a hierarchy, its leaves in the hierarchy's order (object array).
    columns : mapping of str to numpy.ndarray
        One read-only array per column: the category columns (labels; object arrays holding
        :attr:`total` in margin rows when the table has margins, and the subtotals' labels with
        hierarchies), with hierarchies ``<variable>_level`` (int64: 1 for the total, 2 for its
        children, ..., as ``cellKey``'s ``hierarchy_info``), ``count`` (int64) and, after
        :func:`perturb`, ``cell_key`` (uint64; float64 decimal keys for ``method="cellkey"``),
        ``noise`` and ``perturbed`` (int64), and with weights ``weighted`` and
        ``perturbed_weighted`` (float64).
    record_cell : numpy.ndarray of intp, shape (n,)
        The interior cell of each record: its index in the grid of categories (C order, no
        margins). :meth:`record_rows` maps records to the rows of any margin.
    margins : bool
        Whether the margins are in the table.
    total : str
        The label of a margin.
    hierarchies : tuple of Hierarchy or None
        With hierarchies: every variable's nodes (a variable without a hierarchy of its own has
        the flat one, its categories and the total); None for a plain table.

    Examples
    --------
    >>> t = frequency_table({"a": [1, 1, 2]}, ["a"])
    >>> t["a"].tolist(), t["count"].tolist()
    ([1, 2, 'Total'], [2, 1, 3])
    """

    by: tuple[str, ...]
    levels: tuple[np.ndarray, ...]
    columns: Mapping[str, np.ndarray]
    record_cell: np.ndarray = field(repr=False)
    margins: bool = True
    total: str = TOTAL
    hierarchies: tuple[Hierarchy, ...] | None = field(default=None, repr=False)

    @property
    def dims(self) -> tuple[int, ...]:
        """Number of categories of each variable."""
        return tuple(len(lv) for lv in self.levels)

    @property
    def shape(self) -> tuple[int, ...]:
        """The grid of rows: ``dims``, plus one per variable with margins (with hierarchies:
        the number of nodes of each variable's hierarchy)."""
        if self.hierarchies is not None:
            return tuple(h.n_nodes for h in self.hierarchies)
        return tuple(d + 1 for d in self.dims) if self.margins else self.dims

    @property
    def n_records(self) -> int:
        return int(self.record_cell.shape[0])

    def __len__(self) -> int:
        return math.prod(self.shape)

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    @property
    def codes(self) -> np.ndarray:
        """(rows, k) intp: each row's index into each variable's levels, -1 for a margin (a
        total or a subtotal)."""
        idx = np.indices(self.shape).reshape(len(self.by), -1).T.copy()
        if self.hierarchies is not None:
            for j, h in enumerate(self.hierarchies):
                idx[:, j] = h.leaf_of_node[idx[:, j]]
            return idx
        idx[idx == np.array(self.dims)] = -1
        return idx

    @property
    def is_margin(self) -> np.ndarray:
        """(rows,) bool: whether a row sums over at least one variable."""
        return np.asarray((self.codes < 0).any(axis=1))

    def record_rows(self, keep: Iterable[str]) -> np.ndarray:
        """The row of each record in the margin that keeps the variables ``keep``.

        ``keep = by`` gives the interior cells, ``keep = []`` the grand total. With these as
        ``cells`` (and ``n_cells=len(table)``), :func:`~._keys.cell_keys` computes the margin's
        keys directly from its records.

        Examples
        --------
        >>> t = frequency_table({"a": [0, 1, 1], "b": [0, 0, 1]}, ["a", "b"])
        >>> t.record_rows(["a"]).tolist(), t.record_rows([]).tolist()
        ([2, 5, 5], [8, 8, 8])
        """
        kept = set(keep) if not isinstance(keep, str) else {keep}
        unknown = kept - set(self.by)
        if unknown:
            raise ParameterError(
                f"`keep` must name variables of the table {self.by!r}, got {sorted(unknown)!r}."
            )
        if not self.margins and kept != set(self.by):
            raise ParameterError(
                "`keep` must name every variable of a table without margins, got "
                f"keep={sorted(kept)!r}."
            )
        codes = np.unravel_index(self.record_cell, self.dims)
        rows = np.zeros(self.n_records, dtype=np.intp)
        if self.hierarchies is not None:
            for name, h, c in zip(self.by, self.hierarchies, codes, strict=True):
                rows = rows * h.n_nodes + (h.leaf_rows[c] if name in kept else h.n_nodes - 1)
            return rows
        for name, d, c in zip(self.by, self.dims, codes, strict=True):
            size = d + 1 if self.margins else d
            rows = rows * size + (c if name in kept else d)
        return rows

    def hierarchy_info(self) -> dict[str, dict[str, np.ndarray]]:
        """Every variable's nodes, as ``cellKey``'s ``hierarchy_info()``.

        Returns
        -------
        dict
            {variable: {"code", "level", "is_leaf", "parent"}}: the nodes in the table's order,
            their level (1 for the total), whether they are leaves (categories of the data)
            and their parent's label (None for the total). A table without margins has no
            total: its categories are listed with level 1 and no parent.

        Examples
        --------
        >>> h = {"r": {"N": ["a", "b"], "S": ["c"]}}
        >>> info = frequency_table({"r": ["a", "c"]}, "r", hierarchies=h).hierarchy_info()["r"]
        >>> info["code"].tolist(), info["level"].tolist()
        (['a', 'b', 'N', 'c', 'S', 'Total'], [3, 3, 2, 3, 2, 1])
        >>> info["parent"].tolist()
        ['N', 'N', 'Total', 'S', 'Total', None]
        """
        if self.hierarchies is not None:
            return {name: h.info() for name, h in zip(self.by, self.hierarchies, strict=True)}
        out = {}
        for name, lv in zip(self.by, self.levels, strict=True):
            if self.margins:
                out[name] = flat_hierarchy(name, lv, self.total).info()
            else:
                parent = np.empty(len(lv), dtype=object)
                out[name] = {
                    "code": lv.astype(object),
                    "level": np.ones(len(lv), dtype=np.int64),
                    "is_leaf": np.ones(len(lv), dtype=bool),
                    "parent": parent,
                }
        return out

    def to_pandas(self) -> Any:
        """The table as a pandas DataFrame (pandas is imported here)."""
        pd = require_pandas("FrequencyTable")
        return pd.DataFrame({name: np.asarray(col) for name, col in self.columns.items()})

    # -------------------------------------------------------------------------------- display
    @property
    def is_perturbed(self) -> bool:
        """Whether the table has been perturbed (has the column ``perturbed``)."""
        return "perturbed" in self.columns

    def _summary(self) -> list[tuple[str, str]]:
        rows = [
            (
                "variables",
                " x ".join(f"{b} ({d})" for b, d in zip(self.by, self.dims, strict=True)),
            ),
            ("rows", f"{len(self)} rows" + self._included()),
            ("records", str(self.n_records)),
            ("columns", ", ".join(self.columns)),
        ]
        if self.is_perturbed:
            noise = np.asarray(self.columns["noise"])
            if noise.size:
                rows.append(("noise", f"{int(noise.min())}..{int(noise.max())}"))
        return rows

    def _included(self) -> str:
        if self.hierarchies is not None:
            return " (subtotals and margins included)"
        return " (margins included)" if self.margins else ""

    def __repr__(self) -> str:
        return (
            f"FrequencyTable(by={self.by!r}, dims={self.dims}, rows={len(self)}, "
            f"records={self.n_records}, margins={self.margins}, perturbed={self.is_perturbed})"
        )

    def __str__(self) -> str:
        s = dict(self._summary())
        lines = [
            f"{'perturbed ' if self.is_perturbed else ''}frequency table of {s['records']} records "
            f"by {s['variables']}: {s['rows']}",
            f"  columns: {s['columns']}",
        ]
        head = min(len(self), 5)
        for r in range(head):
            cells = ", ".join(f"{k}={np.asarray(v)[r]}" for k, v in self.columns.items())
            lines.append(f"  {cells}")
        if len(self) > head:
            lines.append(f"  ... ({len(self) - head} more rows; to_pandas() for all)")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return html_table("frequency table", self._summary())


def _check_hierarchies(
    hierarchies: Any, names: tuple[str, ...], margins: bool, total: str
) -> dict[str, Hierarchy] | None:
    """The parsed hierarchies, or None for a plain table (no hierarchy given)."""
    if hierarchies is None:
        return None
    hiers = parse_hierarchies(hierarchies, names, total)
    if not hiers:
        return None
    if not margins:
        raise ParameterError(
            "`hierarchies` lists subtotals, which are margins: pass margins=True, got "
            f"margins=False with hierarchies for {sorted(hiers)!r}."
        )
    for name in names:
        if LEVEL.format(name) in names:
            raise ParameterError(
                f"`by` may not hold both {name!r} and {LEVEL.format(name)!r} with hierarchies "
                f"(the table adds the column {LEVEL.format(name)!r})."
            )
    return hiers


def _leaves(
    names: tuple[str, ...],
    factored: list[tuple[np.ndarray, np.ndarray]],
    hiers: dict[str, Hierarchy],
    total: str,
) -> tuple[list[tuple[np.ndarray, np.ndarray]], tuple[Hierarchy, ...]]:
    """Each variable's levels and codes as leaves of its hierarchy (flat if it has none)."""
    out: list[tuple[np.ndarray, np.ndarray]] = []
    trees: list[Hierarchy] = []
    for name, (lv, codes) in zip(names, factored, strict=True):
        h = hiers.get(name)
        if h is None:
            trees.append(flat_hierarchy(name, lv, total))
            out.append((lv, codes))
        else:
            trees.append(h)
            out.append((h.leaves, h.leaf_codes(lv)[codes]))
    return out, tuple(trees)


def _label_columns(
    names: tuple[str, ...],
    levels: tuple[np.ndarray, ...],
    trees: tuple[Hierarchy, ...] | None,
    margins: bool,
    total: str,
) -> dict[str, np.ndarray]:
    """The category columns of every row (and the level columns with hierarchies)."""
    columns: dict[str, np.ndarray] = {}
    if trees is not None:
        index = np.indices(tuple(h.n_nodes for h in trees)).reshape(len(trees), -1)
        for name, h, idx in zip(names, trees, index, strict=True):
            columns[name] = _frozen(h.labels[idx])
        for name, h, idx in zip(names, trees, index, strict=True):
            columns[LEVEL.format(name)] = _frozen(h.level[idx])
        return columns
    dims = tuple(len(lv) for lv in levels)
    shape = tuple(d + 1 for d in dims) if margins else dims
    index = np.indices(shape).reshape(len(dims), -1)
    for name, lv, idx in zip(names, levels, index, strict=True):
        if margins:
            labels = np.empty(len(lv) + 1, dtype=object)
            labels[:-1] = lv.tolist()
            labels[-1] = total
        else:
            labels = lv
        columns[name] = _frozen(labels[idx])
    return columns


def _table(data: Any, by: Any, margins: Any, total: Any, hierarchies: Any = None) -> FrequencyTable:
    """Validate the arguments of :func:`frequency_table` and tabulate."""
    frame, data = check_data(data)
    names = check_by(by, data)
    if not isinstance(margins, bool | np.bool_):
        raise ParameterTypeError(f"`margins` must be a boolean, got margins={margins!r}.")
    total = check_total(total)
    hiers = _check_hierarchies(hierarchies, names, bool(margins), total)
    cols = [column(data, name, frame) for name in names]
    n = length(cols[0])
    for name, col in zip(names, cols, strict=True):
        if length(col) != n:
            raise ParameterError(
                f"`data` columns must have equal lengths, got {n} for {names[0]!r} and "
                f"{length(col)} for {name!r}."
            )
    factored = [factorize(col, name, frame) for name, col in zip(names, cols, strict=True)]
    trees = None
    if hiers is not None:
        factored, trees = _leaves(names, factored, hiers, total)
    levels = tuple(lv for lv, _ in factored)
    dims = tuple(len(lv) for lv in levels)
    if trees is not None:
        n_rows = math.prod(h.n_nodes for h in trees)
    else:
        n_rows = math.prod(d + 1 for d in dims) if margins else math.prod(dims)
    if n_rows > MAX_CELLS:
        raise ParameterError(
            f"`by` gives a table of {n_rows} cells (categories {dims}"
            f"{', hierarchies included' if trees else ''}), more than the {MAX_CELLS} allowed."
        )
    if margins:
        for name, lv in zip(names, levels, strict=True):
            if lv.dtype.kind in "OUS" and any(x == total for x in lv.tolist()):
                raise ParameterError(
                    f"`data` column {name!r} has a category equal to the margin label "
                    f"total={total!r}; pass another `total`."
                )
    cell = np.zeros(n, dtype=np.intp)
    for (_, codes), d in zip(factored, dims, strict=True):
        cell *= d
        cell += codes
    grid = np.bincount(cell, minlength=math.prod(dims)).astype(np.int64).reshape(dims)
    if trees is not None:
        count = aggregate(grid, trees).reshape(-1)
    else:
        count = _with_margins(grid, len(dims)).reshape(-1) if margins else grid.reshape(-1)
    columns = _label_columns(names, levels, trees, bool(margins), total)
    columns["count"] = _frozen(count)
    return FrequencyTable(
        by=names,
        levels=tuple(_frozen(lv) for lv in levels),
        columns=MappingProxyType(columns),
        record_cell=_frozen(cell),
        margins=bool(margins),
        total=total,
        hierarchies=trees,
    )


def frequency_table(
    data: Any,
    by: str | Sequence[str],
    *,
    margins: bool = True,
    total: str = TOTAL,
    hierarchies: Mapping[str, Any] | None = None,
) -> FrequencyTable:
    r"""Count the records in every cell of the cross-classification of ``by``.

    Parameters
    ----------
    data : pandas.DataFrame or mapping of str to 1-D array
        The microdata, one record per row. pandas is optional: a dict of numpy arrays works
        without it.
    by : str or sequence of str
        The classifying variables (columns of ``data``). Missing values are refused: recode
        them as a category.
    margins : bool, default True
        Also list every margin -- each subset of ``by`` with the other variables summed over,
        labelled ``total`` -- down to the grand total.
    total : str, default "Total"
        The label of a margin (the root of every hierarchy); no category may equal it.
    hierarchies : mapping of str to hierarchy, optional
        Subtotals: {variable: hierarchy}, the hierarchy a nested dict ``{"North": ["N1", "N2"],
        "South": {"SE": ["S1"], "SW": ["S2"]}}`` (node -> list of leaves, subtree, or None
        for a leaf), a mapping child -> parent ``{"N1": "North", "N2": "North", "S1":
        "South"}`` or a list of categories (:mod:`._hierarchy`). The root is ``total``. Each
        such variable lists every node of its hierarchy (post-order: a subtotal after its
        children, the total last), crossed with every node of the other variables (a variable
        without a hierarchy: its categories and the total), and the table gains a column
        ``<variable>_level`` per variable (1 for the total, 2 for its children, ...). Every
        category of the data must be a leaf; a leaf without records is a cell with count 0.
        Needs ``margins=True``.

    Returns
    -------
    FrequencyTable
        Every cell, including empty ones (count 0), with each record's cell (for pandas input
        too: :meth:`FrequencyTable.to_pandas` gives the DataFrame).

    Raises
    ------
    ParameterError, ParameterTypeError
        A missing column, columns of unequal lengths, missing values, a category equal to
        ``total``, more than 10^8 cells, or a bad hierarchy (a cycle, a repeated label, an
        empty node, a category of the data that is not one of its leaves).

    Notes
    -----
    Categories are the sorted distinct values of a column (counting sort for integers of a
    small range, ``numpy.unique`` otherwise; ``pandas.factorize`` for a DataFrame), or the
    declared categories of a pandas categorical. The table lists the full grid: a category
    pair never observed is a cell with count 0.

    References
    ----------
    Sadeghi & Chien, §3 (the tables whose cells get cell keys). R package ``cellKey`` 1.0.2,
    ``ck_setup(dims = ...)``: every node of every hierarchy crossed with every node of the
    others, the root labelled as given (``hier_create(root = "Total")``).

    Examples
    --------
    >>> t = frequency_table({"a": ["x", "y", "y"], "b": [0, 1, 1]}, ["a", "b"])
    >>> list(zip(t["a"], t["b"], t["count"].tolist()))       # doctest: +NORMALIZE_WHITESPACE
    [('x', 0, 1), ('x', 1, 0), ('x', 'Total', 1), ('y', 0, 0), ('y', 1, 2), ('y', 'Total', 2),
     ('Total', 0, 1), ('Total', 1, 2), ('Total', 'Total', 3)]

    A hierarchy of districts in regions:

    >>> data = {"district": ["N1", "N2", "N2", "S1"]}
    >>> h = {"district": {"North": ["N1", "N2"], "South": ["S1", "S2"]}}
    >>> t = frequency_table(data, "district", hierarchies=h)
    >>> list(zip(t["district"], t["district_level"].tolist(), t["count"].tolist()))
    ... # doctest: +NORMALIZE_WHITESPACE
    [('N1', 3, 1), ('N2', 3, 2), ('North', 2, 3), ('S1', 3, 1), ('S2', 3, 0), ('South', 2, 1),
     ('Total', 1, 4)]
    """
    return _table(data, by, margins, total, hierarchies)


# ------------------------------------------------------------------------------------ perturb
def _check_perturb_method(method: Any) -> Method:
    """``method`` for integer keys ("abs", "sum"); names "cellkey" too in the message."""
    if not isinstance(method, str) or method not in (*METHODS, CELLKEY):
        raise ParameterError(
            f"`method` must be one of {(*METHODS, CELLKEY)}, got method={method!r}."
        )
    return check_method(method)


def _keysize(ptable: Any, keysize: int | None) -> int:
    if keysize is None:
        keysize = getattr(ptable, "keysize", None)
        if keysize is None:
            raise ParameterError(
                "`keysize` is required: the ptable has no keysize of its own, got keysize=None."
            )
    return check_keysize(keysize)


def _integer_cell_keys(table: FrequencyTable, keys: np.ndarray, K: int, meth: Method) -> np.ndarray:
    """(3.1)–(3.2) for every row of ``table``, margins from the interior cells' exact sums."""
    n_interior = math.prod(table.dims)
    sums = component_sums(keys, table.record_cell, n_interior, K)
    sums = sums.reshape(*table.dims, keys.shape[1])
    if table.hierarchies is not None:
        sums = aggregate(sums, table.hierarchies)  # exact: the sums over each node's records
    elif table.margins:
        sums = _with_margins(sums, len(table.dims))
    comps = components_from_sums(sums.reshape(-1, keys.shape[1]), key_modulus(K, method=meth))
    return keys_from_components(comps)


def _weight_sums(table: FrequencyTable, w: np.ndarray) -> np.ndarray:
    """cellKey's ``wc`` of every row: the weight sum of its records."""
    if table.hierarchies is None:
        return weight_sums(table.record_cell, w, table.dims, margins=table.margins)
    wc = weight_sums(table.record_cell, w, table.dims, margins=False).reshape(table.dims)
    return np.ascontiguousarray(aggregate(wc, table.hierarchies).reshape(-1))


def _decimal_noise(
    table: FrequencyTable, keys: DecimalKeys, ptable: Any
) -> tuple[np.ndarray, np.ndarray]:
    """cellKey's cell keys (sum mod 1, exact) and lookup for every row of ``table``."""
    if not hasattr(ptable, "probabilities") or not hasattr(ptable, "row_of"):
        raise ParameterTypeError(
            "`ptable` must be a Ptable for method='cellkey' (its rows' intervals are looked "
            f"up), got ptable of type {type(ptable).__name__}."
        )
    # keys on another grid than the table's decimal one: refused by decimal_noise
    # (check_key_digits) unless both grids apply the same table
    n_interior = math.prod(table.dims)
    sums = decimal_cell_keys(keys, table.record_cell, n_interior).reshape(table.dims)
    if table.hierarchies is not None:
        sums = aggregate_mod(sums, table.hierarchies, keys.scale)
    elif table.margins:
        sums = _with_margins(sums.astype(object), len(table.dims))
    grid = sums.reshape(-1) % keys.scale
    if keys.digits <= 18:
        grid = grid.astype(np.int64)
    noise = decimal_noise(ptable, table["count"], grid, keys.digits)
    return DecimalKeys(grid, keys.digits).as_float(), noise


def perturb(
    data: Any,
    by: str | Sequence[str],
    ptable: Any,
    *,
    record_keys: Any = None,
    keysize: int | None = None,
    margins: bool = True,
    method: str = "abs",
    weights: Any = None,
    total: str = TOTAL,
    hierarchies: Mapping[str, Any] | None = None,
) -> Any:
    r"""Perturb the frequency table of ``data`` by ``by`` with the cell key method.

    Parameters
    ----------
    data : pandas.DataFrame or mapping of str to 1-D array
        The microdata (as in :func:`frequency_table`).
    by : str or sequence of str
        The classifying variables.
    ptable : Ptable
        The perturbation table (anything with ``noise(counts, cell_keys, *, keysize)``).
    record_keys : None, str, sequence of str or array_like of int
        The records' keys, drawn once (:func:`~._keys.record_keys`): a column of ``data``
        (None: the column ``"rkey"``), several columns (one per component), or an array of
        shape (n, m) or (n,). One key per record is split into its four bytes for
        ``method="abs"`` at KEYSIZE 2^8 (the ABS's byte-by-byte combination); larger KEYSIZEs
        need m components per record; ``method="sum"`` takes one key per record. With
        ``method="cellkey"``: one decimal key in [0, 1) per record (floats with at most 15
        digits, or strings with up to 20), as ``cellKey`` and Tau-Argus store them.
    keysize : int, optional
        K = KEYSIZE, the range of the record keys and cell keys; default the ptable's own.
        Not used with ``method="cellkey"`` (the keys' decimal digits set the grid).
    margins : bool, default True
        Perturb the margins too.
    method : {"abs", "sum", "cellkey"}, default "abs"
        How cell keys are made: integer keys (:func:`~._keys.cell_keys`), or the rule of the
        R package ``cellKey`` (:mod:`._decimal_keys`): cell key = the exact sum of the decimal
        record keys mod 1, the interval ``p_int_lb <= key < p_int_ub`` of the row, count 0
        untouched, counts above the table by the table's above-rule (``"last"`` as cellKey).
    weights : str or array_like of float, optional
        Sampling weights (a column of ``data`` or one per record; finite, >= 0). The output
        gains ``weighted`` (the cell's weight sum, cellKey's ``wc``) and
        ``perturbed_weighted`` = perturbed x weighted / count (cellKey's
        ``pwc = puwc * wc / uwc``; 0 for an empty cell), margins included.
    total : str, default "Total"
        The label of a margin.
    hierarchies : mapping of str to hierarchy, optional
        Subtotals over a hierarchy of each variable, as in :func:`frequency_table`. Every
        subtotal is perturbed as any cell: its key is made from its own records' keys (the
        sums (3.1) of its leaves' records), so it equals the key of a cell holding exactly
        these records and the same subtotal gets the same noise in every query; weighted
        counts and ``method="cellkey"`` likewise.

    Returns
    -------
    pandas.DataFrame or FrequencyTable
        A DataFrame for DataFrame input, else a :class:`FrequencyTable`; columns: the category
        columns, ``count`` (true), ``cell_key``, ``noise``, ``perturbed`` = count + noise
        (and the weighted columns with ``weights``). ``cell_key`` is uint64 for integer keys
        and float64 (the decimal key, as cellKey's ``ckey``) for ``method="cellkey"``.

    Raises
    ------
    ParameterError, ParameterTypeError
        Bad data (as :func:`frequency_table`), keys that are not integers in [0, K) or not one
        per record, no key size, or a ptable that would publish a negative count.

    Notes
    -----
    Deterministic given the record keys: no randomness is drawn here. For each cell
    :math:`\hat n = n + v` with :math:`v` the ptable's noise for the count n and the cell key
    (3.1)–(3.2), (4.3). The same cell gets the same key and noise in every query (module
    notes); a cell with count 0 has key 0 and, with the usual row 0, stays 0.

    References
    ----------
    Sadeghi & Chien, §3, eqs. (3.1)–(3.2); §4.1, (4.3). R package ``cellKey`` (sdcTools),
    ``R/cellkey_pkg.R``: the cell key ``%% 1``, ``lookup_freq`` and ``pwc``.

    Examples
    --------
    >>> from rainbowdp.cellkey._ptable import Ptable
    >>> T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1, keysize=2**8)
    >>> data = {"a": [0, 0, 1], "rkey": [[10, 0, 0, 0], [20, 0, 0, 0], [200, 0, 0, 0]]}
    >>> t = perturb(data, ["a"], T)
    >>> t["cell_key"].tolist(), t["noise"].tolist(), t["perturbed"].tolist()
    ([30, 200, 230], [-1, 1, 1], [1, 2, 4])

    Decimal keys and weights, as in ``cellKey``:

    >>> T = Ptable([[1.0, 0.0, 0.0, 0.0], [0.2, 0.6, 0.2, 0.0], [0.0, 0.2, 0.6, 0.2]])
    >>> data = {"a": [0, 0, 1], "rkey": [0.6, 0.7, 0.1], "w": [10.0, 30.0, 5.0]}
    >>> t = perturb(data, "a", T, method="cellkey", weights="w")
    >>> t["cell_key"].tolist(), t["noise"].tolist(), t["perturbed"].tolist()
    ([0.3, 0.1, 0.4], [0, -1, 0], [2, 0, 3])
    >>> t["weighted"].tolist(), t["perturbed_weighted"].tolist()
    ([40.0, 5.0, 45.0], [40.0, 0.0, 45.0])
    """
    frame, data = check_data(data)
    noise_of = getattr(ptable, "noise", None)
    if not callable(noise_of):
        raise ParameterTypeError(
            "`ptable` must be a Ptable (an object with a noise(counts, cell_keys, keysize=...) "
            f"method), got ptable of type {type(ptable).__name__}."
        )
    decimal = method == CELLKEY
    meth = None if decimal else _check_perturb_method(method)
    names = check_by(by, data)
    n = length(column(data, names[0], frame))
    w = None if weights is None else resolve_weights(weights, data, n)
    if decimal:
        if keysize is not None:
            raise ParameterError(
                "`keysize` is not used with method='cellkey': the record keys' own decimal "
                f"digits set the key grid, got keysize={keysize!r}."
            )
        dkeys = resolve_decimal_keys(record_keys, data, n)
        table = _table(data, by, margins, total, hierarchies)
        count = table["count"]
        cell_key, noise = _decimal_noise(table, dkeys, ptable)
    else:
        assert meth is not None
        K = _keysize(ptable, keysize)
        keys = resolve_keys(record_keys, data, n, K, meth)
        table = _table(data, by, margins, total, hierarchies)
        count = table["count"]
        cell_key = _integer_cell_keys(table, keys, K, meth)
        noise = np.asarray(noise_of(count, cell_key, keysize=K), dtype=np.int64)
    if noise.shape != count.shape:
        raise ParameterError(
            f"`ptable` returned noise of shape {noise.shape} for {count.shape} cells."
        )
    published = count + noise
    if published.size and published.min() < 0:
        i = int(np.argmin(published))
        raise ParameterError(
            f"`ptable` would publish a negative count: count {int(count[i])} with noise "
            f"{int(noise[i])} (cell key {cell_key[i]!r}); its rows must put no mass below 0."
        )
    columns = dict(table.columns)
    columns["cell_key"] = _frozen(cell_key)
    columns["noise"] = _frozen(noise)
    columns["perturbed"] = _frozen(published)
    if w is not None:
        wc = _weight_sums(table, w)
        columns["weighted"] = _frozen(wc)
        columns["perturbed_weighted"] = _frozen(perturbed_weighted(published, wc, count))
    out = FrequencyTable(
        by=table.by,
        levels=table.levels,
        columns=MappingProxyType(columns),
        record_cell=table.record_cell,
        margins=table.margins,
        total=table.total,
        hierarchies=table.hierarchies,
    )
    return out.to_pandas() if frame else out
