r"""Exceptions raised by rainbowdp.

Every error the library raises on purpose derives from :class:`RainbowDPError`, so a caller can
catch the whole family at once. Errors about bad *values* also derive from :class:`ValueError`,
so code written against the standard library's conventions keeps working.

The hierarchy::

    RainbowDPError
    ├── ParameterError           (also ValueError)   an argument with a bad value
    ├── ParameterTypeError       (also TypeError)    an argument of the wrong type
    ├── InvalidGraphError        (also ValueError)   malformed rainbow graph
    ├── InvalidMechanismError    (also ValueError)   malformed mechanism
    ├── InvalidBoundaryError     (also ValueError)   boundary condition that is not (ε, δ)-valid
    ├── InvalidMorphismError     (also ValueError)   a map that is not a graph morphism
    ├── GraphFileError           (also ValueError)   unreadable or malformed graph file
    ├── NoOptimalMechanismError                      no dominance-optimal mechanism exists
    ├── NotPrivateError                              a designed mechanism failed re-verification
    ├── InfeasibleDesignError                        the design problem has no feasible point
    └── SolverError                                  the solver failed
        ├── SolverNotAvailableError                  the requested solver is not installed
        └── SolverTimeLimitError                     stopped by the time limit with no incumbent

Warnings::

    PermutedBoundaryWarning  (a UserWarning)  a boundary given without ``order`` that looks
                                               written in rainbow order
    NotExactWarning          (a UserWarning)  a privacy number is a proved upper bound, not the
                                               exact value (exact work over budget)
"""

from __future__ import annotations

__all__ = [
    "GraphFileError",
    "InfeasibleDesignError",
    "InvalidBoundaryError",
    "InvalidGraphError",
    "InvalidMechanismError",
    "InvalidMorphismError",
    "NoOptimalMechanismError",
    "NotExactWarning",
    "NotPrivateError",
    "ParameterError",
    "ParameterTypeError",
    "PermutedBoundaryWarning",
    "RainbowDPError",
    "SolverError",
    "SolverNotAvailableError",
    "SolverTimeLimitError",
]


class RainbowDPError(Exception):
    """Base class of every error raised on purpose by rainbowdp."""


class ParameterError(RainbowDPError, ValueError):
    """An argument has a bad value; the message names the parameter and echoes the value."""


class ParameterTypeError(RainbowDPError, TypeError):
    """An argument has the wrong type; the message names the parameter and echoes the value."""


class InvalidGraphError(RainbowDPError, ValueError):
    """The graph is not a valid rainbow graph (Gu et al., Definitions 1 and 5)."""


class InvalidMechanismError(RainbowDPError, ValueError):
    """The probabilities do not form a mechanism on the given graph."""


class InvalidBoundaryError(RainbowDPError, ValueError):
    """A boundary condition is not valid in the sense of Gu et al., Theorem 2."""


class InvalidMorphismError(RainbowDPError, ValueError):
    """A map between graphs is not a morphism (Gu et al., Definition 4)."""


class GraphFileError(RainbowDPError, ValueError):
    """A graph file cannot be read, or one of its fields is malformed."""


class NoOptimalMechanismError(RainbowDPError):
    """No mechanism dominates every valid mechanism (Gu et al., Example 1)."""


class NotPrivateError(RainbowDPError):
    """A mechanism that was meant to be private failed the exact verifier."""


class InfeasibleDesignError(RainbowDPError):
    """The design problem has no feasible mechanism (e.g. contradictory fixed rows)."""


class SolverError(RainbowDPError):
    """The optimisation solver failed or returned an unusable status."""


class SolverNotAvailableError(SolverError):
    """The requested solver is not installed or not licensed on this machine."""


class SolverTimeLimitError(SolverError):
    """The solver stopped at its time limit with no feasible point to return.

    A MILP stopped with a feasible incumbent is not an error: the designers return it with
    status ``"time_limit"`` (:class:`rainbowdp.design.DesignResult`); an LP stopped early has no
    incumbent and raises.
    """


class PermutedBoundaryWarning(UserWarning):
    """A boundary condition given without an ``order`` looks written in the other order.

    Emitted by :func:`rainbowdp.optimal_mechanism` when two rainbows get the same row but
    different vectors in their own preference orders, and that row read in rainbow order would
    dominate both (``docs/conventions.md`` states the rule). Pass ``order="outputs"`` or
    ``order="rainbow"`` to say which order the rows follow.
    """


class NotExactWarning(UserWarning):
    """A reported privacy number is a proved upper bound rather than the exact value.

    Emitted by :func:`rainbowdp.epsilon_for_delta` when more near-tied ordered edges remain
    than its exact-work budget allows (pairs that are equal up to a permutation of the outputs
    count once): the ε returned still makes the mechanism (ε, δ)-DP, proved, but may exceed
    the exact smallest ε by more than the documented :math:`10^{-10}` relative. Turn it into an
    error with ``warnings.simplefilter("error", NotExactWarning)``.
    """
