r"""What a paper module declares: its reproducible targets (:class:`TargetSpec`) and the result
of a worked example (:class:`TableResult`).

Each paper module (:mod:`~rainbowdp.reproduce.rainbow`, :mod:`~rainbowdp.reproduce.kadam`,
:mod:`~rainbowdp.reproduce.sadeghi`, :mod:`~rainbowdp.reproduce.abs`) holds ``PAPER`` (a key of
:data:`~rainbowdp.reproduce._printed.PAPERS`) and ``TARGETS``, a tuple of :class:`TargetSpec`
in the order of the index, next to the functions computing them.
:data:`rainbowdp.reproduce.TARGETS` is assembled from these tuples
(:mod:`rainbowdp.reproduce._targets`), with the printed values and checks of
:mod:`rainbowdp.reproduce._printed`, keyed by the target's name.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["TableResult", "TargetSpec", "plain_json"]


@dataclass(frozen=True)
class TargetSpec:
    r"""One reproducible figure, table or worked example, as its paper module declares it.

    Attributes
    ----------
    name : str
        e.g. ``"fig3"``; also the file name of its image and data. Unique over all papers.
    description : str
        e.g. ``"Gu et al., Fig. 3"``.
    make : callable
        ``make()`` -> the result: a figure object with a ``figure`` attribute (a matplotlib
        Figure) or a :class:`TableResult`.
    note : str, default ""
        Shown in the index, e.g. what is drawn instead of the paper's curve. A target whose
        paper prints no number gives the reason in its printed-values module instead
        (``NO_NUMBERS``).
    figure : bool, default True
        Whether ``make()`` returns a figure (written as ``NAME.png``, and reachable alone as
        ``rainbowdp reproduce NAME``); False for a worked example (a :class:`TableResult`).
    """

    name: str
    description: str
    make: Callable[[], Any] = field(repr=False, compare=False)
    note: str = ""
    figure: bool = True


def plain_json(x: Any) -> Any:
    """JSON types only; non-finite numbers become None.

    Examples
    --------
    >>> plain_json({1: (np.float64(0.5), float("nan"), {2})})
    {'1': [0.5, None, [2]]}
    """
    if isinstance(x, dict):
        return {str(k): plain_json(v) for k, v in x.items()}
    if isinstance(x, list | tuple | set | frozenset):
        items = sorted(x, key=repr) if isinstance(x, set | frozenset) else x
        return [plain_json(v) for v in items]
    if isinstance(x, np.ndarray):
        return plain_json(x.tolist())
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if x is None or isinstance(x, bool | int | str):
        return x
    return str(x)


@dataclass(frozen=True)
class TableResult:
    r"""The result of a target that is a table or a worked example, not a figure.

    Attributes
    ----------
    name : str
        e.g. ``"Gu et al., Example 1"``.
    values : dict
        The recomputed numbers (plain Python and numpy values).
    figure : None
        Tables have no image.
    """

    name: str
    values: dict[str, Any] = field(repr=False)
    figure: None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain lists and numbers, e.g. for JSON."""
        return {"name": self.name, "values": plain_json(self.values)}
