r"""General designers of optimal mechanisms on any rainbow graph.

:func:`lp`
    maximise a linear utility subject to exact (ε, δ)-DP on every edge (a linear program);
:func:`milp`
    the same subject to (ε, δ)-probabilistic DP (Kadam et al., Definition 2), a mixed-integer
    linear program generalising Kadam et al.'s (13) from the circulant graph to any graph;
:func:`min_delta`
    the smallest δ at a given ε (every event, or single outputs as in Sadeghi et al.'s LP).

All three take per-node linear side constraints (:class:`RowConstraint`, built by
:func:`answer_probability`, :func:`zero_bias`, :func:`loss_cap`, :func:`support`).

Each returns a :class:`DesignResult` whose mechanism has been re-checked by the exact verifier:
the proved optimum, or a MILP's incumbent when ``time_limit`` stopped the search (status
``"time_limit"``, with the solver's bound and gap). Models are built as numpy arrays and handed
to HiGHS directly (:mod:`highspy`), or as PuLP problems to CBC or any PuLP solver
(:mod:`rainbowdp.design.solvers`). Solvers never write on standard output; their log
(``msg=True``) and progress (``progress``) go to standard error
(:mod:`rainbowdp.design.console`).
"""

from ._constraints import RowConstraint, answer_probability, loss_cap, support, zero_bias
from ._lp import lp
from ._milp import milp
from ._min_delta import min_delta
from ._problem import UTILITY_NAMES, utility_matrix
from ._result import DesignResult
from .solvers import available_solvers, default_solver

__all__ = [
    "UTILITY_NAMES",
    "DesignResult",
    "RowConstraint",
    "answer_probability",
    "available_solvers",
    "default_solver",
    "loss_cap",
    "lp",
    "milp",
    "min_delta",
    "support",
    "utility_matrix",
    "zero_bias",
]
