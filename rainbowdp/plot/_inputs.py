r"""Argument checks shared by the privacy plots: mechanisms (or pairs of distributions) with
their labels, and grids of ε.

A pair ``(p, q)`` of distributions over the same outputs stands for the mechanism of two
neighbouring nodes (:func:`pair_mechanism`), so the verifier (:mod:`rainbowdp.privacy`) gives
its privacy numbers like any other mechanism's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._validation import real_array
from ..exceptions import ParameterError, ParameterTypeError
from ..mechanism import Mechanism

__all__ = [
    "as_mechanism",
    "check_grid",
    "check_labels",
    "collect_mechanisms",
    "is_pair",
    "pair_mechanism",
]


def pair_mechanism(p: Any, q: Any) -> Mechanism:
    """Two output distributions as a mechanism on two neighbouring nodes ``"P"`` ~ ``"Q"``
    (outputs 0..q-1, both rainbows in that order), so the verifier gives their numbers."""
    import networkx as nx

    from .._validation import check_probability_vector
    from ..graph import RainbowGraph

    a = check_probability_vector(p, "p")
    b = check_probability_vector(q, "q", size=a.shape[0])
    outputs = list(range(a.shape[0]))
    g = nx.Graph()
    g.add_edge("P", "Q")
    nx.set_node_attributes(g, {"P": outputs, "Q": outputs}, "rainbow")
    return Mechanism(RainbowGraph(g, outputs), {"P": a, "Q": b})


def is_pair(value: Any) -> bool:
    """Whether ``value`` is a pair ``(p, q)`` of distributions (a 2-tuple of non-Mechanisms)."""
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and not any(isinstance(v, Mechanism) for v in value)
    )


def as_mechanism(value: Any, name: str) -> Mechanism:
    """``value`` if it is a Mechanism, the :func:`pair_mechanism` of a pair, else an error
    naming ``name``."""
    if isinstance(value, Mechanism):
        return value
    if is_pair(value):
        return pair_mechanism(*value)
    raise ParameterTypeError(
        f"`{name}` must be a Mechanism or a pair (p, q) of distributions, got "
        f"{type(value).__name__}: {name}={value!r:.80}."
    )


def check_labels(labels: Any, k: int) -> list[str]:
    """``labels`` as ``k`` strings, else an error naming ``labels``."""
    if isinstance(labels, str) or not isinstance(labels, Sequence):
        raise ParameterTypeError(
            f"`labels` must be a sequence of {k} strings, got labels={labels!r}."
        )
    if len(labels) != k:
        raise ParameterError(f"`labels` must have {k} entries, got {len(labels)}: {labels!r}.")
    return [str(s) for s in labels]


def collect_mechanisms(mechanisms: Any, labels: Any) -> list[tuple[str, Mechanism]]:
    """``(label, Mechanism)`` for a Mechanism, a pair, a sequence or a mapping of them."""
    if isinstance(mechanisms, Mapping):
        if labels is not None:
            raise ParameterError(
                "`labels` must not be given with a mapping `mechanisms` (its keys are the "
                f"labels), got labels={labels!r}."
            )
        if not mechanisms:
            raise ParameterError("`mechanisms` must not be empty, got an empty mapping.")
        return [(str(k), as_mechanism(v, f"mechanisms[{k!r}]")) for k, v in mechanisms.items()]
    if isinstance(mechanisms, Mechanism) or is_pair(mechanisms):
        items = [as_mechanism(mechanisms, "mechanisms")]
        default = ["(P, Q)" if is_pair(mechanisms) else "mechanism"]
    elif isinstance(mechanisms, Sequence) and not isinstance(mechanisms, str | bytes):
        if len(mechanisms) == 0:
            raise ParameterError("`mechanisms` must not be empty, got an empty sequence.")
        items = [as_mechanism(m, f"mechanisms[{i}]") for i, m in enumerate(mechanisms)]
        default = [f"mechanism {i + 1}" for i in range(len(items))]
    else:
        raise ParameterTypeError(
            "`mechanisms` must be a Mechanism, a pair (p, q), a sequence or a mapping of them, "
            f"got {type(mechanisms).__name__}."
        )
    names = default if labels is None else check_labels(labels, len(items))
    return list(zip(names, items, strict=True))


def check_grid(values: Any, name: str) -> np.ndarray:
    """``values`` as a non-empty 1-D float array of finite numbers >= 0 (an ε grid), else an
    error naming ``name``."""
    if isinstance(values, str | bytes):
        raise ParameterTypeError(f"`{name}` must be an array of numbers, got {name}={values!r}.")
    arr = np.atleast_1d(real_array(values, name))
    if arr.ndim != 1 or arr.size == 0:
        raise ParameterError(f"`{name}` must be a non-empty 1-D array, got shape {arr.shape}.")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ParameterError(f"`{name}` must be finite and >= 0, got {name}={values!r:.200}.")
    return arr
