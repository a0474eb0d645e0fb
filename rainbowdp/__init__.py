r"""rainbowdp: design and verify differentially private mechanisms on rainbow graphs.

Datasets are nodes of a graph, neighbouring datasets are joined by an edge, and every node
carries a *rainbow* -- its preference order over a finite output set. A mechanism is one output
distribution per node. rainbowdp verifies (ε, δ)-DP exactly, edge by edge, and designs optimal
mechanisms in closed form or by linear / mixed-integer programming.
"""

from . import builders, exceptions, noise, plot
from ._compare import Comparison, compare
from ._format import format_down, format_up
from ._sensitivity import Sensitivity, sensitivity
from ._verify.certify import Certificate, Verdict, certify, exp_bounds
from .exceptions import (
    GraphFileError,
    InfeasibleDesignError,
    InvalidBoundaryError,
    InvalidGraphError,
    InvalidMechanismError,
    InvalidMorphismError,
    NoOptimalMechanismError,
    NotExactWarning,
    NotPrivateError,
    ParameterError,
    ParameterTypeError,
    PermutedBoundaryWarning,
    RainbowDPError,
    SolverError,
    SolverNotAvailableError,
    SolverTimeLimitError,
)
from .graph import RainbowGraph
from .io import load_graph, save_graph
from .mechanism import Mechanism
from .morphism import Morphism, boundary_graph, distances_to_boundary
from .optimal import (
    TAU_INFINITY,
    T,
    homogeneous_boundary,
    line_mechanism,
    optimal_mechanism,
    prefix_sums_closed_form,
    switch_threshold,
    tau,
)
from .order import (
    dominates,
    expected_utility,
    is_order_reasonable,
    mechanism_dominates,
    prefix_sums,
    utility_from_ranks,
)
from .privacy import (
    VerificationReport,
    are_close,
    dp_delta,
    epsilon_for_delta,
    hockey_stick,
    pdp_delta,
    privacy_profile,
    verify,
)

__version__ = "0.1.0"

__all__ = [
    "TAU_INFINITY",
    "Certificate",
    "Comparison",
    "GraphFileError",
    "InfeasibleDesignError",
    "InvalidBoundaryError",
    "InvalidGraphError",
    "InvalidMechanismError",
    "InvalidMorphismError",
    "Mechanism",
    "Morphism",
    "NoOptimalMechanismError",
    "NotExactWarning",
    "NotPrivateError",
    "ParameterError",
    "ParameterTypeError",
    "PermutedBoundaryWarning",
    "RainbowDPError",
    "RainbowGraph",
    "Sensitivity",
    "SolverError",
    "SolverNotAvailableError",
    "SolverTimeLimitError",
    "T",
    "Verdict",
    "VerificationReport",
    "are_close",
    "boundary_graph",
    "builders",
    "cellkey",
    "certify",
    "compare",
    "design",
    "distances_to_boundary",
    "distributed",
    "dominates",
    "dp_delta",
    "epsilon_for_delta",
    "exceptions",
    "exp_bounds",
    "expected_utility",
    "format_down",
    "format_up",
    "hockey_stick",
    "homogeneous_boundary",
    "is_order_reasonable",
    "line_mechanism",
    "load_graph",
    "mechanism_dominates",
    "noise",
    "optimal_mechanism",
    "pdp_delta",
    "plot",
    "prefix_sums",
    "prefix_sums_closed_form",
    "privacy_profile",
    "save_graph",
    "sensitivity",
    "sweep",
    "switch_threshold",
    "tau",
    "utility_from_ranks",
    "verify",
]


def __getattr__(name: str):
    """Load :mod:`rainbowdp.design` (and with it PuLP and the solvers),
    :mod:`rainbowdp.cellkey`, :mod:`rainbowdp.distributed` and :mod:`rainbowdp.sweep` on first
    use.

    ``import rainbowdp`` stays light: verification needs neither PuLP nor matplotlib.
    """
    if name in ("design", "cellkey", "distributed", "sweep"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
