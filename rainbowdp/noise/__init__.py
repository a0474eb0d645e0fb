r"""Noise families: the standard mechanisms of the literature on rainbow graphs.

A *family* (:class:`Family`) is a frozen dataclass of parameters, declared as data
(:class:`Parameter`) and checked by one validator (:func:`check_parameters`), that builds its
mechanism on any suitable graph, states the guarantee the literature gives for the textbook
mechanism (:class:`Claim`) and says whether that guarantee holds for the finite mechanism it
builds (:meth:`Family.holds_on`). Every family is registered in :data:`FAMILIES`.

Additive noise -- :math:`a(d) + \eta` for an integer answer -- is brought into a finite range
of outputs in one of four forms (``"truncated"``, ``"clamped"``, ``"folded"``, ``"modular"``)
by one shared routine, :func:`additive_rows`, from a :class:`NoiseLaw` given by vectorised
log-PMF and log-tail functions. A family that takes a sensitivity Δ reads it from the graph
when it is not given (:func:`rainbowdp.sensitivity`), and refuses a given Δ below the graph's.

>>> import rainbowdp.noise as noise
>>> from rainbowdp.builders import count_path
>>> M = noise.geometric(count_path(10), epsilon=1.0, form="clamped")
>>> noise.Geometric(epsilon=1.0).holds_on(M.graph)
True
>>> sorted(noise.FAMILIES)  # doctest: +NORMALIZE_WHITESPACE
['count', 'discrete_gaussian', 'exponential', 'geometric', 'modulo',
 'randomized_response', 'staircase', 'tablebuilder']

See ``docs/families.md`` for the maths, the references, how to add a family, and a table of
nominal against exact guarantees on finite instances.
"""

from . import count, modulo, tablebuilder
from ._additive import (
    FORMS,
    DiscreteGaussianLaw,
    Form,
    GeometricLaw,
    NoiseLaw,
    StaircaseLaw,
    TableLaw,
    additive_rows,
)
from ._additive_family import (
    FORM_PARAMETER,
    PROFILE_CHECK_EPSILONS,
    SENSITIVITY_PARAMETER,
    AdditiveFamily,
)
from ._family import (
    FAMILIES,
    REQUIRED,
    SAFETY_MARGIN,
    Claim,
    Family,
    Optimum,
    Parameter,
    build_epsilon,
    check_parameters,
    epsilon_parameter,
    get_family,
    mechanism_from_rows,
    register,
)
from .baselines import (
    DiscreteGaussian,
    Exponential,
    Geometric,
    GuaranteeRow,
    RandomizedResponse,
    Staircase,
    discrete_gaussian,
    exponential,
    format_guarantee_table,
    geometric,
    guarantee_table,
    randomized_response,
    staircase,
)

__all__ = [
    "FAMILIES",
    "FORMS",
    "FORM_PARAMETER",
    "PROFILE_CHECK_EPSILONS",
    "REQUIRED",
    "SAFETY_MARGIN",
    "SENSITIVITY_PARAMETER",
    "AdditiveFamily",
    "Claim",
    "DiscreteGaussian",
    "DiscreteGaussianLaw",
    "Exponential",
    "Family",
    "Form",
    "Geometric",
    "GeometricLaw",
    "GuaranteeRow",
    "NoiseLaw",
    "Optimum",
    "Parameter",
    "RandomizedResponse",
    "Staircase",
    "StaircaseLaw",
    "TableLaw",
    "additive_rows",
    "build_epsilon",
    "check_parameters",
    "count",
    "discrete_gaussian",
    "epsilon_parameter",
    "exponential",
    "format_guarantee_table",
    "geometric",
    "get_family",
    "guarantee_table",
    "mechanism_from_rows",
    "modulo",
    "randomized_response",
    "register",
    "staircase",
    "tablebuilder",
]
