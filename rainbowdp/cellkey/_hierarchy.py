r"""Hierarchies of a classifying variable: subtotals of a perturbed frequency table.

A frequency table with margins lists, for every variable, its categories and one "Total". With a
*hierarchy* a variable lists every node of a user-given tree instead -- for a region variable
e.g. the districts (the leaves, the categories of the data), the regions they belong to and the
total (the root) -- and the table crosses every node of every variable's tree with every node of
the others', as the R package ``cellKey`` (sdcTools) tabulates with ``ck_setup(dims = ...)``
(trees built with ``sdcHierarchies::hier_create`` / ``hier_add``).

A hierarchy is given either

* as a **nested dict** (a tree): ``{"North": ["N1", "N2"], "South": {"SE": ["S1"], "SW":
  ["S2", "S3"]}}`` -- a node maps to the list of its children (leaves), to a dict (a subtree),
  or to None (a leaf directly below it). The root is implicit (a single top key equal to the
  table's ``total`` label is accepted as the root itself); a plain list of categories is a
  hierarchy of one level below the root (and fixes the order of the categories);
* or as a **mapping child -> parent**: ``{"N1": "North", "N2": "North", "S1": "South"}``; a
  node whose parent is None or the ``total`` label, or that is nobody's child, hangs from the
  root.

The root of every hierarchy is the table's ``total`` label; every other label appears once.
Checks give a clear error for a cycle, a repeated label, an empty node, a label equal to
``total`` below the root, and a category of the data that is not a leaf of the hierarchy.

**Order.** The nodes of a variable are listed in post-order: each node after its children, in
the order the hierarchy gives them, the root last -- so a hierarchy of one level reproduces the
plain table with margins (categories, then "Total"). The leaves are listed in the hierarchy's
order, so each node's leaves are a contiguous run of them.

**Counts and keys.** A node's records are the records of its leaves, so its count, its weight
sum and the component sums of its cell key (3.1) are sums over its leaves (:func:`aggregate`,
exact integer sums), and its key is then made exactly as for any cell: the key of a subtotal is
the key of the union of its records, whatever query it appears in. A node with one child has
the same records as that child, hence the same count, key and noise (``cellKey`` calls such
codes "bogus" and copies the child's perturbation).

References
----------
.. [1] R package ``cellKey`` 1.0.2 (sdcTools), ``R/cellkey_pkg.R``: ``ck_setup(x, rkey, dims)``,
   ``hierarchy_info()`` (``code``, ``level`` with 1 the overall total, ``is_leaf``, ``parent``)
   and the duplicated ("bogus") codes.
.. [2] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Section 3, eq. (3.1) (additivity of the component sums).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError

__all__ = [
    "Hierarchy",
    "aggregate",
    "aggregate_mod",
    "flat_hierarchy",
    "parse_hierarchies",
    "parse_hierarchy",
]

_ROOT = object()  # the root while a hierarchy is parsed (labelled ``total`` afterwards)
_SHOW = 10  # labels shown in an error message


def _show(labels: Sequence[Any]) -> str:
    more = f" ... ({len(labels)} in all)" if len(labels) > _SHOW else ""
    return f"{list(labels)[:_SHOW]!r}{more}"


@dataclass(frozen=True, eq=False)
class Hierarchy:
    """The nodes of one variable's hierarchy, in post-order (children first, the root last).

    Attributes
    ----------
    variable : str
        The variable (column of the data) it classifies.
    labels : numpy.ndarray of object
        The label of every node; the root's is the table's ``total``.
    parent : numpy.ndarray of intp
        Each node's parent (index into ``labels``), -1 for the root.
    level : numpy.ndarray of int64
        Each node's level: 1 for the root (the overall total, as ``cellKey``'s
        ``hierarchy_info``), 2 for its children, and so on.
    leaves : numpy.ndarray of object
        The leaves (the categories), in the hierarchy's order.
    leaf_rows : numpy.ndarray of intp
        The node of each leaf.
    start, stop : numpy.ndarray of intp
        The leaves of node i are ``leaves[start[i]:stop[i]]``.
    """

    variable: str
    labels: np.ndarray
    parent: np.ndarray
    level: np.ndarray
    leaves: np.ndarray
    leaf_rows: np.ndarray
    start: np.ndarray
    stop: np.ndarray

    @property
    def n_nodes(self) -> int:
        return int(self.labels.shape[0])

    @property
    def is_leaf(self) -> np.ndarray:
        """(nodes,) bool: whether a node is a leaf (a category of the data)."""
        return _frozen(np.isin(np.arange(self.n_nodes), self.leaf_rows))

    @property
    def leaf_of_node(self) -> np.ndarray:
        """(nodes,) intp: each node's index into ``leaves``, -1 for a subtotal."""
        out = np.full(self.n_nodes, -1, dtype=np.intp)
        out[self.leaf_rows] = np.arange(self.leaf_rows.shape[0])
        return out

    def info(self) -> dict[str, np.ndarray]:
        """``cellKey``'s ``hierarchy_info()``: code, level, is_leaf and parent of every node.

        Examples
        --------
        >>> h = parse_hierarchies({"r": {"N": ["a", "b"], "S": ["c"]}}, ["r"], "Total")["r"]
        >>> {k: v.tolist() for k, v in h.info().items()}  # doctest: +NORMALIZE_WHITESPACE
        {'code': ['a', 'b', 'N', 'c', 'S', 'Total'], 'level': [3, 3, 2, 3, 2, 1],
         'is_leaf': [True, True, False, True, False, False],
         'parent': ['N', 'N', 'Total', 'S', 'Total', None]}
        """
        parent = np.empty(self.n_nodes, dtype=object)
        has = self.parent >= 0
        parent[has] = self.labels[self.parent[has]]
        parent[~has] = None
        return {
            "code": self.labels.copy(),
            "level": self.level.copy(),
            "is_leaf": self.is_leaf.copy(),
            "parent": parent,
        }

    def leaf_codes(self, categories: np.ndarray) -> np.ndarray:
        """The leaf index of each category of the data; an unknown category is refused.

        A category may also be a subtotal with a single leaf below it (a chain of one-child
        nodes, ``cellKey``'s "bogus" codes): its records are that leaf's. ``cellKey``'s own
        example codes ``sex`` as "male"/"female" with the leaves "m" below "male" and "f" below
        "female".

        Examples
        --------
        >>> h = parse_hierarchy({"male": ["m"], "female": ["f"]}, "sex", "Total")
        >>> h.leaf_codes(np.array(["female", "m"], dtype=object)).tolist()
        [1, 0]
        """
        one = (self.stop - self.start == 1) & (self.leaf_of_node < 0)
        index = {x: int(i) for x, i in zip(self.labels[one].tolist(), self.start[one], strict=True)}
        index.update((x, i) for i, x in enumerate(self.leaves.tolist()))
        cats = categories.tolist()
        codes = np.fromiter((index.get(x, -1) for x in cats), dtype=np.intp, count=len(cats))
        if codes.size and codes.min() < 0:
            bad = [x for x, c in zip(cats, codes.tolist(), strict=True) if c < 0]
            inner = set(self.labels[~self.is_leaf].tolist())
            sub = [x for x in bad if x in inner]
            if sub:
                raise ParameterError(
                    f"`data` column {self.variable!r} has records coded with the subtotal(s) "
                    f"{_show(sub)} of its hierarchy, which hold several leaves; code every "
                    "record with a leaf (a most detailed category)."
                )
            raise ParameterError(
                f"`data` column {self.variable!r} has the categories {_show(bad)}, which are "
                f"not leaves of its hierarchy (`hierarchies[{self.variable!r}]`, leaves "
                f"{_show(self.leaves.tolist())}); add them to the hierarchy."
            )
        return codes


def _frozen(arr: np.ndarray) -> np.ndarray:
    arr.setflags(write=False)
    return arr


def _label(x: Any, variable: str, total: str) -> Hashable:
    """A node label: hashable, not None, not the root's label ``total``."""
    where = f"`hierarchies[{variable!r}]`"
    if x is None or (isinstance(x, float) and x != x):
        raise ParameterError(f"{where} has a missing label ({x!r}); every node needs a label.")
    try:
        hash(x)
    except TypeError:
        raise ParameterTypeError(
            f"{where} has the label {x!r} of type {type(x).__name__}, which is not hashable; "
            "a label is a category (str, int, ...)."
        ) from None
    if isinstance(x, str) and x == total:
        raise ParameterError(
            f"{where} uses the label total={total!r} below the root; the root of every "
            "hierarchy is the total (pass another `total` if a category has this name)."
        )
    return x


def _is_children(value: Any) -> bool:
    return isinstance(value, Mapping) or (
        isinstance(value, list | tuple) and not isinstance(value, str)
    )


def _add(children: dict[Any, list[Any]], parent: Any, child: Any, variable: str) -> None:
    if child in children:
        raise ParameterError(
            f"`hierarchies[{variable!r}]` lists the label {child!r} twice; every node must "
            "appear once."
        )
    children[child] = []
    children[parent].append(child)


def _from_tree(spec: Any, variable: str, total: str) -> dict[Any, list[Any]]:
    """children of every node from a nested dict / list (root: ``_ROOT``)."""
    if isinstance(spec, Mapping) and len(spec) == 1:
        ((key, value),) = spec.items()
        if isinstance(key, str) and key == total and _is_children(value):
            spec = value  # the root written out
    children: dict[Any, list[Any]] = {_ROOT: []}
    stack: list[tuple[Any, Any]] = [(_ROOT, spec)]
    while stack:
        node, value = stack.pop()
        name = "the root" if node is _ROOT else f"the node {node!r}"
        if isinstance(value, Mapping):
            items = list(value.items())
        elif isinstance(value, list | tuple):
            items = [(x, None) for x in value]
            for x in value:
                if _is_children(x):
                    raise ParameterError(
                        f"`hierarchies[{variable!r}]`: the children of {name} are a list, "
                        f"which must hold labels, got {x!r}; write a subtree as a dict."
                    )
        else:
            raise ParameterTypeError(
                f"`hierarchies[{variable!r}]`: {name} must map to a list of its children, a "
                f"dict (a subtree) or None (a leaf), got {value!r}."
            )
        if not items:
            raise ParameterError(
                f"`hierarchies[{variable!r}]`: {name} has no children; a leaf maps to None or "
                "is listed by its parent."
            )
        for child, sub in items:
            _add(children, node, _label(child, variable, total), variable)
            if sub is not None:
                stack.append((child, sub))
    return children


def _from_parents(spec: Mapping[Any, Any], variable: str, total: str) -> dict[Any, list[Any]]:
    """children of every node from a mapping child -> parent (root: ``_ROOT``)."""
    parent_of: dict[Any, Any] = {}
    order: dict[Any, None] = {}
    for child, par in spec.items():
        c = _label(child, variable, total)
        if par is None or (isinstance(par, str) and par == total):
            p = _ROOT
        else:
            p = _label(par, variable, total)
        if c == p:
            raise ParameterError(
                f"`hierarchies[{variable!r}]` makes {c!r} its own parent (a cycle)."
            )
        parent_of[c] = p
        order.setdefault(c)
        if p is not _ROOT:
            order.setdefault(p)
    for node in order:  # top nodes (nobody's child) hang from the root
        parent_of.setdefault(node, _ROOT)
    state: dict[Any, int] = {}  # 1: on the current path, 2: reaches the root
    for node in order:
        path: list[Any] = []
        x = node
        while x is not _ROOT and state.get(x) != 2:
            if state.get(x) == 1:
                cycle = [*path[path.index(x) :], x]
                raise ParameterError(
                    f"`hierarchies[{variable!r}]` has a cycle: "
                    f"{' -> '.join(repr(y) for y in cycle)} (child -> parent)."
                )
            state[x] = 1
            path.append(x)
            x = parent_of[x]
        for y in path:
            state[y] = 2
    children: dict[Any, list[Any]] = {_ROOT: []}
    for node in order:
        children[node] = []
    for node in order:
        children[parent_of[node]].append(node)
    return children


def _build(children: dict[Any, list[Any]], variable: str, total: str) -> Hierarchy:
    """Post-order nodes, levels and leaf runs from the children of every node."""
    parent_of = {kid: par for par, kids in children.items() for kid in kids}
    nodes: list[Any] = []
    level: list[int] = []
    start: list[int] = []
    stop: list[int] = []
    leaves: list[Any] = []
    leaf_rows: list[int] = []
    # iterative post-order: (node, depth, its first leaf, children already pushed?)
    stack: list[tuple[Any, int, int, bool]] = [(_ROOT, 1, 0, False)]
    while stack:
        node, depth, first, expanded = stack.pop()
        kids = children[node]
        if kids and not expanded:
            stack.append((node, depth, len(leaves), True))
            stack.extend((kid, depth + 1, 0, False) for kid in reversed(kids))
            continue
        if not kids:
            leaf_rows.append(len(nodes))
            first = len(leaves)
            leaves.append(node)
        nodes.append(node)
        level.append(depth)
        start.append(first)
        stop.append(len(leaves))
    row_of = {x: r for r, x in enumerate(nodes)}
    parent = [-1 if x is _ROOT else row_of[parent_of[x]] for x in nodes]
    return Hierarchy(
        variable=variable,
        labels=_frozen(_objects([total if x is _ROOT else x for x in nodes])),
        parent=_frozen(np.asarray(parent, dtype=np.intp)),
        level=_frozen(np.asarray(level, dtype=np.int64)),
        leaves=_frozen(_objects(leaves)),
        leaf_rows=_frozen(np.asarray(leaf_rows, dtype=np.intp)),
        start=_frozen(np.asarray(start, dtype=np.intp)),
        stop=_frozen(np.asarray(stop, dtype=np.intp)),
    )


def _objects(values: list[Any]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def parse_hierarchy(spec: Any, variable: str, total: str) -> Hierarchy:
    """One variable's hierarchy from a nested dict, a list or a mapping child -> parent.

    Examples
    --------
    >>> h = parse_hierarchy({"a": "N", "b": "N", "c": "S"}, "r", "Total")
    >>> h.labels.tolist(), h.level.tolist(), h.leaves.tolist()
    (['a', 'b', 'N', 'c', 'S', 'Total'], [3, 3, 2, 3, 2, 1], ['a', 'b', 'c'])
    """
    if isinstance(spec, Mapping):
        if not spec:
            raise ParameterError(f"`hierarchies[{variable!r}]` is empty.")
        values = list(spec.values())
        if any(_is_children(v) for v in values):
            children = _from_tree(spec, variable, total)
        else:
            children = _from_parents(spec, variable, total)
    elif isinstance(spec, list | tuple) and not isinstance(spec, str):
        children = _from_tree(spec, variable, total)
    else:
        raise ParameterTypeError(
            f"`hierarchies[{variable!r}]` must be a nested dict (node -> children), a mapping "
            f"child -> parent or a list of categories, got {type(spec).__name__}: {spec!r}."
        )
    return _build(children, variable, total)


def flat_hierarchy(variable: str, categories: np.ndarray, total: str) -> Hierarchy:
    """The categories (leaves, in their order) and the total: the plain table with margins."""
    return _build(
        {_ROOT: list(categories.tolist()), **{x: [] for x in categories.tolist()}}, variable, total
    )


def parse_hierarchies(hierarchies: Any, by: Sequence[str], total: str) -> dict[str, Hierarchy]:
    """``hierarchies`` of :func:`~._perturb.frequency_table`: {variable: hierarchy}.

    Examples
    --------
    >>> hs = parse_hierarchies({"r": {"N": ["a", "b"]}}, ["r", "s"], "Total")
    >>> list(hs), hs["r"].labels.tolist()
    (['r'], ['a', 'b', 'N', 'Total'])
    """
    if not isinstance(hierarchies, Mapping):
        raise ParameterTypeError(
            "`hierarchies` must be a mapping {variable: hierarchy}, got "
            f"{type(hierarchies).__name__}: {hierarchies!r}."
        )
    out: dict[str, Hierarchy] = {}
    for name, spec in hierarchies.items():
        if name not in by:
            raise ParameterError(
                f"`hierarchies` names the variable {name!r}, which is not in by={list(by)!r}."
            )
        if spec is not None:
            out[name] = parse_hierarchy(spec, name, total)
    return out


# ------------------------------------------------------------------------------- aggregation
def aggregate(arr: np.ndarray, hierarchies: Sequence[Hierarchy]) -> np.ndarray:
    """Sum ``arr`` over the leaves of every node, along its first ``len(hierarchies)`` axes.

    The leaves of a node are a contiguous run (module notes), so node i along an axis is the sum
    of the slabs ``start[i]:stop[i]`` -- the product with the node-by-leaf indicator matrix,
    computed with ``numpy.add.reduceat``. Exact for integer and object arrays (unsigned
    integers wrap only if a true sum does not fit); floats are summed leaf by leaf.

    Examples
    --------
    >>> h = parse_hierarchy({"N": ["a", "b"], "S": ["c"]}, "r", "Total")
    >>> aggregate(np.array([1, 2, 4]), [h]).tolist()
    [1, 2, 3, 4, 4, 7]
    """
    for ax, h in enumerate(hierarchies):
        pad_shape = list(arr.shape)
        pad_shape[ax] = 1
        padded = np.concatenate([arr, np.zeros(pad_shape, dtype=arr.dtype)], axis=ax)
        idx = np.empty(2 * h.n_nodes, dtype=np.intp)
        idx[0::2] = h.start
        idx[1::2] = h.stop
        summed = np.add.reduceat(padded, idx, axis=ax)
        # an empty run (start == stop, only for a node without leaves) reads the zero pad
        arr = np.take(summed, np.arange(0, 2 * h.n_nodes, 2), axis=ax)
    return arr


_LIMB = 10**9


def aggregate_mod(arr: np.ndarray, hierarchies: Sequence[Hierarchy], scale: int) -> np.ndarray:
    """:func:`aggregate` of values in [0, scale) modulo ``scale`` (decimal cell keys), exact.

    int64 input (scale <= 10^18) is summed in two base-10^9 limbs in uint64 (no overflow for up
    to 10^9 cells per node); object input (Python ints) directly.

    Examples
    --------
    >>> h = parse_hierarchy(["a", "b"], "r", "Total")
    >>> aggregate_mod(np.array([6 * 10**17, 7 * 10**17]), [h], 10**18).tolist()
    [600000000000000000, 700000000000000000, 300000000000000000]
    """
    if arr.dtype == object:
        return aggregate(arr, hierarchies) % scale
    vals = arr.astype(np.uint64)
    if scale <= _LIMB:
        return (aggregate(vals, hierarchies) % np.uint64(scale)).astype(np.int64)
    lo = aggregate(vals % np.uint64(_LIMB), hierarchies) % np.uint64(scale)
    hi = aggregate(vals // np.uint64(_LIMB), hierarchies) % np.uint64(scale // _LIMB)
    return ((hi * np.uint64(_LIMB) + lo) % np.uint64(scale)).astype(np.int64)
