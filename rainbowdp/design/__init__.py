r"""General designers of optimal mechanisms on any rainbow graph.

:func:`lp`
    maximise a linear utility subject to exact (ε, δ)-DP on every edge (a linear program);
:func:`milp`
    the same subject to (ε, δ)-probabilistic DP (Kadam et al., Definition 2), a mixed-integer
    linear program generalising Kadam et al.'s (13) from the circulant graph to any graph.

Both return a :class:`DesignResult` whose mechanism has been re-checked by the exact verifier.
Models are built with PuLP and solved by HiGHS or CBC (:mod:`rainbowdp.design.solvers`).
"""

from ._lp import lp
from ._milp import milp
from ._problem import UTILITY_NAMES, utility_matrix
from ._result import DesignResult
from .solvers import available_solvers, default_solver

__all__ = [
    "UTILITY_NAMES",
    "DesignResult",
    "available_solvers",
    "default_solver",
    "lp",
    "milp",
    "utility_matrix",
]
