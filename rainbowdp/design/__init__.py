r"""General designers of optimal mechanisms on any rainbow graph.

:func:`lp`
    maximise a linear utility subject to exact (ε, δ)-DP on every edge (a linear program);
:func:`milp`
    the same subject to (ε, δ)-probabilistic DP (Kadam et al., Definition 2), a mixed-integer
    linear program generalising Kadam et al.'s (13) from the circulant graph to any graph;
:func:`min_delta`
    the smallest δ at a given ε (every event, or single outputs as in Sadeghi et al.'s LP).

Every optimisation model solved here is a registered formulation
(:data:`FORMULATIONS`, :func:`get_formulation`; ``docs/design.md``, "Formulations"): these three,
Kadam et al.'s printed MILP (13) (:func:`kadam13_printed`), its min-δ variant (15)
(:func:`kadam15_min_delta`) and the LP with the leak set fixed (:func:`kadam13_fixed_leaks`), and
the count-query and perturbation-table designers of the families.

The three general designers take per-node linear side constraints (:class:`RowConstraint`, built by
:func:`answer_probability`, :func:`zero_bias`, :func:`loss_cap`, :func:`support`).

Each returns a :class:`DesignResult` whose mechanism has been re-checked by the exact verifier:
the proved optimum, or a MILP's incumbent when ``time_limit`` stopped the search (status
``"time_limit"``, with the solver's bound and gap). Models are built as numpy arrays and handed
to HiGHS directly (:mod:`highspy`), or as PuLP problems to CBC or any PuLP solver
(:mod:`rainbowdp.design.solvers`). Solvers never write on standard output; their log
(``msg=True``) and progress (``progress``) go to standard error
(:mod:`rainbowdp.design.console`).

The names are loaded on first use (PEP 562): importing the package loads neither PuLP nor a
solver, so the families that call the designers cost nothing until they design.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._constraints import RowConstraint, answer_probability, loss_cap, support, zero_bias
    from ._kadam import PRINTED_MARGIN, kadam13_fixed_leaks, kadam13_printed, kadam15_min_delta
    from ._lp import lp
    from ._milp import milp
    from ._min_delta import min_delta
    from ._model import SAFETY_MARGIN
    from ._problem import UTILITY_NAMES, utility_matrix
    from ._result import DesignResult
    from .formulations import FORMULATIONS, Formulation, get_formulation
    from .solvers import available_solvers, default_solver

__all__ = [
    "FORMULATIONS",
    "PRINTED_MARGIN",
    "SAFETY_MARGIN",
    "UTILITY_NAMES",
    "DesignResult",
    "Formulation",
    "RowConstraint",
    "answer_probability",
    "available_solvers",
    "default_solver",
    "get_formulation",
    "kadam13_fixed_leaks",
    "kadam13_printed",
    "kadam15_min_delta",
    "loss_cap",
    "lp",
    "milp",
    "min_delta",
    "support",
    "utility_matrix",
    "zero_bias",
]

#: The module of every public name (loaded on first use).
_HOME = {
    "RowConstraint": "_constraints",
    "answer_probability": "_constraints",
    "loss_cap": "_constraints",
    "support": "_constraints",
    "zero_bias": "_constraints",
    "PRINTED_MARGIN": "_kadam",
    "kadam13_fixed_leaks": "_kadam",
    "kadam13_printed": "_kadam",
    "kadam15_min_delta": "_kadam",
    "lp": "_lp",
    "milp": "_milp",
    "min_delta": "_min_delta",
    "SAFETY_MARGIN": "_model",
    "UTILITY_NAMES": "_problem",
    "utility_matrix": "_problem",
    "DesignResult": "_result",
    "FORMULATIONS": "formulations",
    "Formulation": "formulations",
    "get_formulation": "formulations",
    "available_solvers": "solvers",
    "default_solver": "solvers",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
