r"""The registry of reproducible figures, tables and worked examples.

:data:`TARGETS` maps a name to a :class:`Target`: the function computing the figure or table, a
description, the paper, and its :class:`~rainbowdp.reproduce._checks.Check`\ s (a printed value
of :data:`~rainbowdp.reproduce._printed.PRINTED` paired with the function of
:data:`~rainbowdp.reproduce._printed.EXTRACTORS` reading the recomputed value off the result).

It is assembled, not listed: each paper module declares its targets next to the functions
computing them (``TARGETS``, a tuple of :class:`~rainbowdp.reproduce._declare.TargetSpec`, and
``PAPER``), and each paper's printed-values module holds their printed values and checks, keyed
by target name. The order is the index's: paper by paper in the order of
:data:`~rainbowdp.reproduce._printed.PAPERS` (:mod:`~rainbowdp.reproduce.rainbow`,
:mod:`~rainbowdp.reproduce.kadam`, :mod:`~rainbowdp.reproduce.sadeghi`,
:mod:`~rainbowdp.reproduce.abs`), and within a paper in the order of its ``TARGETS``. Adding a
reproduction therefore touches its paper module (compute and declare), its paper's
printed-values module (printed values and checks, or a ``NO_NUMBERS`` entry) and
``docs/reproduce.md``; ``tests/test_reproduce_all.py`` checks that the three agree.

Besides the figures of ``rainbowdp reproduce NAME``, four worked examples are targets (tables,
no image, ``Target.figure`` False): Gu et al., Example 1 (``gu-example1``), Sadeghi et al.,
Example 1 (``count-example1``) and Sadeghi & Chien, Examples 2 and 3 (``abs-example2``,
``abs-example3``); Sadeghi & Chien's Example 1 is ``abs-fig3``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any

from . import abs as _abs
from . import kadam as _kadam
from . import rainbow as _rainbow
from . import sadeghi as _sadeghi
from ._checks import Check, TableResult
from ._declare import TargetSpec
from ._printed import EXTRACTORS, NO_NUMBERS, PAPERS, PRINTED

__all__ = ["PAPER_MODULES", "TARGETS", "TableResult", "Target"]

#: The paper modules whose ``TARGETS`` make up :data:`TARGETS`, in the order of the index.
PAPER_MODULES: tuple[ModuleType, ...] = (_rainbow, _kadam, _sadeghi, _abs)


@dataclass(frozen=True)
class Target:
    r"""One reproducible figure, table or worked example.

    Attributes
    ----------
    name : str
        e.g. ``"fig3"``; also the file name of its image and data.
    description : str
        e.g. ``"Gu et al., Fig. 3"``.
    paper : str
        A key of :data:`~rainbowdp.reproduce._printed.PAPERS`.
    make : callable
        ``make()`` -> the result: a figure object with a ``figure`` attribute (a matplotlib
        Figure) or a :class:`TableResult`.
    checks : tuple of Check
        The printed values it reproduces (empty when the paper prints none).
    note : str
        Shown in the index: what differs from the paper, or why there is no check.
    figure : bool
        Whether ``make()`` returns a figure (``rainbowdp reproduce NAME`` draws it alone);
        False for a worked example (a :class:`TableResult`, no image).
    """

    name: str
    description: str
    paper: str
    make: Callable[[], Any] = field(repr=False, compare=False)
    checks: tuple[Check, ...] = ()
    note: str = ""
    figure: bool = True


def _target(paper: str, spec: TargetSpec) -> Target:
    """The :class:`Target` of one declared spec, with its checks and note; a broken registry
    fails at import."""
    name = spec.name
    printed, extractors = PRINTED.get(name, {}), EXTRACTORS.get(name, {})
    if set(printed) != set(extractors):
        raise RuntimeError(  # pragma: no cover - a broken registry fails at import
            f"registry entry {name!r}: printed values without an extractor "
            f"{sorted(set(printed) - set(extractors))}, extractors without a printed value "
            f"{sorted(set(extractors) - set(printed))}"
        )
    if bool(printed) == (name in NO_NUMBERS) or (spec.note and name in NO_NUMBERS):
        raise RuntimeError(  # pragma: no cover
            f"registry entry {name!r}: needs printed values or a NO_NUMBERS reason (one of them), "
            "and a NO_NUMBERS reason is its only note"
        )
    checks = tuple(Check(k, printed[k], extractors[k]) for k in printed)
    note = spec.note or NO_NUMBERS.get(name, "")
    return Target(name, spec.description, paper, spec.make, checks, note, spec.figure)


def _build() -> Mapping[str, Target]:
    out: dict[str, Target] = {}
    for module in PAPER_MODULES:
        if module.PAPER not in PAPERS:  # pragma: no cover
            raise RuntimeError(f"{module.__name__}: unknown paper {module.PAPER!r}")
        for spec in module.TARGETS:
            if spec.name in out:  # pragma: no cover
                raise RuntimeError(f"target {spec.name!r} declared twice")
            out[spec.name] = _target(module.PAPER, spec)
    unknown = (set(PRINTED) | set(EXTRACTORS) | set(NO_NUMBERS)) - set(out)
    if unknown:  # pragma: no cover
        raise RuntimeError(f"printed values or notes of unknown targets {sorted(unknown)}")
    return MappingProxyType(out)


#: name -> :class:`Target`, every figure, table and example the library reproduces, in the
#: order of the index (paper by paper, see the module notes).
TARGETS: Mapping[str, Target] = _build()
