r"""rainbowdp: design and verify differentially private mechanisms on rainbow graphs.

Datasets are nodes of a graph, neighbouring datasets are joined by an edge, and every node
carries a *rainbow* -- its preference order over a finite output set. A mechanism is one output
distribution per node. rainbowdp verifies (ε, δ)-DP exactly, edge by edge, and designs optimal
mechanisms in closed form or by linear / mixed-integer programming.
"""

from . import exceptions
from .exceptions import (
    GraphFileError,
    InfeasibleDesignError,
    InvalidBoundaryError,
    InvalidGraphError,
    InvalidMechanismError,
    InvalidMorphismError,
    NoOptimalMechanismError,
    NotPrivateError,
    RainbowDPError,
    SolverError,
    SolverNotAvailableError,
    SolverTimeLimitError,
)
from .graph import RainbowGraph
from .mechanism import Mechanism
from .privacy import (
    VerificationReport,
    are_close,
    epsilon_for_delta,
    hockey_stick,
    pdp_delta,
    privacy_profile,
    verify,
)

__version__ = "0.1.0"

__all__ = [
    "GraphFileError",
    "InfeasibleDesignError",
    "InvalidBoundaryError",
    "InvalidGraphError",
    "InvalidMechanismError",
    "InvalidMorphismError",
    "Mechanism",
    "NoOptimalMechanismError",
    "NotPrivateError",
    "RainbowDPError",
    "RainbowGraph",
    "SolverError",
    "SolverNotAvailableError",
    "SolverTimeLimitError",
    "VerificationReport",
    "are_close",
    "epsilon_for_delta",
    "exceptions",
    "hockey_stick",
    "pdp_delta",
    "privacy_profile",
    "verify",
]
