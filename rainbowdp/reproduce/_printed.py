r"""The numbers and statements the source papers print, keyed by target name, and how each
recomputed value is read off its target's result.

:data:`PRINTED` maps a target of :data:`rainbowdp.reproduce.TARGETS` to its printed values, in
the order of the index; :data:`EXTRACTORS` maps the same target and key to the function reading
the recomputed value off the target's result; :data:`NO_NUMBERS` gives, for a target whose paper
prints no number, why. They are assembled from one printed-values module per paper
(:mod:`~rainbowdp.reproduce._printed_gu`, :mod:`~rainbowdp.reproduce._printed_kadam`,
:mod:`~rainbowdp.reproduce._printed_sadeghi`, :mod:`~rainbowdp.reproduce._printed_abs`), in the
order of :data:`PAPERS`. How a printed value is compared with a recomputed one (kinds, tolerance,
errata and their corrections) is :class:`Printed`'s (:mod:`rainbowdp.reproduce._printed_value`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _printed_abs, _printed_gu, _printed_kadam, _printed_sadeghi
from ._printed_value import CORRECTIONS, KINDS, ROUNDINGS, Printed

__all__ = [
    "CORRECTIONS",
    "EXTRACTORS",
    "KINDS",
    "NO_NUMBERS",
    "PAPERS",
    "PRINTED",
    "ROUNDINGS",
    "Printed",
]

#: Paper key -> full reference, in the order of the index.
PAPERS = {
    "gu": "Gu, Zhou, Günlü, D'Oliveira, Sadeghi, Médard, Schaefer, *Generalized rainbow "
    "differential privacy*",
    "kadam": "Kadam, Scaglione, Ravi, Peisert, Lunghino, Shumavon, *Optimum noise mechanism for "
    "differentially private queries in discrete finite sets*",
    "sadeghi": "Sadeghi, Asoodeh, Calmon, *Differentially private mechanisms for count queries*",
    "abs": "Sadeghi, Chien, *On the connection between the ABS perturbation methodology and "
    "differential privacy*",
}

#: The printed-values module of each paper, in the order of :data:`PAPERS`.
_MODULES = (_printed_gu, _printed_kadam, _printed_sadeghi, _printed_abs)

#: Target name -> key -> :class:`Printed`, in the order of the index. Targets that print no
#: number (e.g. the sweeps of Kadam et al., Figs. 11-12) have no entry (see :data:`NO_NUMBERS`).
PRINTED: dict[str, dict[str, Printed]] = {k: v for m in _MODULES for k, v in m.PRINTED.items()}
#: Target name -> key of PRINTED[name] -> function reading the recomputed value off the result.
EXTRACTORS: dict[str, dict[str, Callable[[Any], Any]]] = {
    k: v for m in _MODULES for k, v in m.EXTRACTORS.items()
}
#: Target name -> why its paper prints no number for it (shown in the index).
NO_NUMBERS: dict[str, str] = {k: v for m in _MODULES for k, v in m.NO_NUMBERS.items()}
