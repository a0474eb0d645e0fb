r"""The family contract: what a noise family is, its nominal guarantee, and the registry.

A *family* is a standard mechanism of the literature with its parameters -- the geometric
mechanism at a given ε, the discrete Gaussian at a given σ, ... -- written as a frozen dataclass
that subclasses :class:`Family`. It knows

- its canonical dataset graph (:meth:`Family.graph`),
- how to build its mechanism on any suitable rainbow graph (:meth:`Family.mechanism`),
- the guarantee the literature states for the textbook (infinite) mechanism
  (:meth:`Family.nominal`, a :class:`Claim`), and
- whether the library asserts that this guarantee holds for the finite mechanism it builds on a
  given graph (:meth:`Family.holds_on`: True, False when known to fail, None when not claimed).

**Parameters as data.** A family declares its parameters in :attr:`Family.parameters`, one
:class:`Parameter` (kind, domain, default, help text) per dataclass field, and
:func:`check_parameters` -- the one validator, run by ``Family.__post_init__`` -- checks and
normalises them all; the same declarations give a command line its options.

:func:`register` adds a family to :data:`FAMILIES` (checking its declarations against its
fields); the contract test of the test-suite runs every registered family on its
:meth:`Family.examples`, checks every mechanism against the exact verifier and every declared
parameter against values outside its domain. See ``docs/families.md`` for how to write a family.

**Safety margin.** The float64 rows of a mechanism carry round-off of about :math:`2^{-50}`
relative, so a mechanism whose likelihood ratios reach :math:`e^\epsilon` exactly (the clamped
geometric mechanism, randomized response) would be ε-DP only up to round-off, and the library's
proved ε -- an upper bound -- would exceed the nominal one. As the designers do
(``rainbowdp.design``), the pure-DP families therefore build their rows at
:math:`\epsilon_b = \epsilon - \min(\epsilon/2, 2^{-40}\max(1, \epsilon))` (:func:`build_epsilon`):
the stored rows are then ε-DP with room to spare, and differ from the rows at ε by about
:math:`10^{-12}` relative -- far below any difference in utility.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import numbers
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Literal, Protocol, runtime_checkable

import numpy as np

from .._deprecation import deprecated_alias
from .._sensitivity import Sensitivity
from .._validation import EPS_MAX_EXP, check_epsilon, check_int

# the relative safety margin of the pure-DP families is the designers' one (module notes)
from ..design import SAFETY_MARGIN
from ..exceptions import ParameterError, ParameterTypeError
from ..graph import RainbowGraph
from ..mechanism import Mechanism
from ._additive import contiguous_outputs, integer_answers

__all__ = [
    "FAMILIES",
    "MAX_DEFAULT_N",
    "REQUIRED",
    "SAFETY_MARGIN",
    "Claim",
    "Family",
    "Optimum",
    "Parameter",
    "ParameterKind",
    "build_epsilon",
    "check_parameters",
    "epsilon_parameter",
    "get_family",
    "mechanism_from_rows",
    "pure_delta",
    "register",
]

#: Largest n of a family's default graph (:meth:`Family.graph`): those graphs have n + 1 outputs,
#: so a mechanism on them holds (n + 1)^2 numbers (32 MB at n = 2000).
MAX_DEFAULT_N = 2000
#: Bound on the row sums of a family's rows (they are distributions by construction).
_ROW_SUM_TOL = 1e-12


def build_epsilon(epsilon: float) -> float:
    r"""The ε the pure-DP families build their rows at: :math:`\epsilon - \min(\epsilon/2,
    2^{-40}\max(1, \epsilon))`.

    Examples
    --------
    >>> build_epsilon(1.0) == 1.0 - 2.0**-40
    True
    >>> build_epsilon(0.0)
    0.0
    """
    return epsilon - min(epsilon / 2, SAFETY_MARGIN * max(1.0, epsilon))


def pure_delta(epsilon: float, at: float) -> float:
    r"""The smallest δ that every ε-DP mechanism meets at ``at``:
    :math:`\max\{0, (e^\epsilon - e^{at}) / (1 + e^\epsilon)\}`.

    For :math:`P \le e^\epsilon Q` and :math:`Q \le e^\epsilon P` pointwise, the event
    :math:`S = \{P > e^{at} Q\}` has :math:`P(S) \le e^\epsilon Q(S)` and
    :math:`1 - Q(S) \le e^\epsilon (1 - P(S))`; maximising :math:`P(S) - e^{at} Q(S)` under
    these two constraints gives the bound, attained by binary randomized response
    (Kairouz, Oh, Viswanath, "The composition theorem for differential privacy", 2015: the
    privacy region of ε-DP is that of randomized response).

    Examples
    --------
    >>> round(pure_delta(math.log(3), 0.0), 12)    # (3 - 1) / (1 + 3)
    0.5
    >>> pure_delta(1.0, 2.0)
    0.0
    """
    if at >= epsilon:
        return 0.0
    if epsilon > 700:  # (e^eps - e^at) / (1 + e^eps) without overflow
        return -math.expm1(at - epsilon) / (1.0 + math.exp(-epsilon))
    return (math.exp(epsilon) - math.exp(at)) / (1.0 + math.exp(epsilon))


# ------------------------------------------------------------------------------------ parameters
#: The kinds of a family parameter: a real number, an integer, a non-empty set of integers
#: (stored as a sorted tuple), one of a few strings, or a callable.
ParameterKind = Literal["real", "integer", "integers", "choice", "callable"]


class _Required(enum.Enum):
    REQUIRED = "REQUIRED"

    def __repr__(self) -> str:
        return "REQUIRED"


#: The ``default`` of a parameter that has none (the dataclass field is required).
REQUIRED: Any = _Required.REQUIRED
_PYTHON_TYPES: dict[str, type] = {"real": float, "integer": int, "integers": int, "choice": str}


def _bound(x: float) -> str:
    """A domain end as text: the shortest of ``:g`` and ``repr`` that reads back exactly."""
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == int(x) and abs(x) < 2**53:
        return str(int(x))
    text = f"{x:g}"
    return text if float(text) == x else repr(x)


@dataclass(frozen=True)
class Parameter:
    r"""The declaration of one parameter of a family: what :func:`check_parameters` checks and
    what a command line needs (type, default, help text).

    In the spirit of scipy.stats' ``_ShapeInfo(name, integrality, domain, inclusive)``: a family
    lists its parameters as data in the class variable :attr:`Family.parameters`, and one
    validator checks them all when the family is built.

    Attributes
    ----------
    name : str
        The dataclass field (and keyword argument) it declares.
    kind : {"real", "integer", "integers", "choice", "callable"}
        ``"real"``: a real number (not a bool), stored as a float; ``"integer"``: an integer
        (not a bool), stored as an int; ``"integers"``: a non-empty iterable of integers (not a
        string), stored as a sorted tuple without repeats; ``"choice"``: one of :attr:`choices`;
        ``"callable"``: a callable (not offered on the command line).
    doc : str
        One line: the help text of the command-line option.
    domain : (float, float), default (-inf, inf)
        Bounds of a real, an integer, or each integer of ``"integers"``. A real must be finite
        even where a bound is infinite.
    inclusive : (bool, bool), default (True, True)
        Whether each finite bound belongs to the domain.
    choices : tuple of str
        The values of a ``"choice"``.
    default : object, default :data:`REQUIRED`
        The dataclass field's default (:data:`REQUIRED`: none).
    optional : bool, default False
        Whether None is accepted (its meaning is stated in ``doc``, e.g. "taken from the graph").
    note : str, default ""
        Why the domain is what it is, appended to the error message (e.g. " (P2)").

    Examples
    --------
    >>> eta = Parameter("eta", "real", "probability of the true count", domain=(0.0, 1.0),
    ...                 inclusive=(False, False), note=" (P2)")
    >>> eta.check(0.5)
    0.5
    >>> eta.check(1.5)
    Traceback (most recent call last):
    ...
    rainbowdp.exceptions.ParameterError: `eta` must be in (0, 1) (P2), got eta=1.5.
    >>> eta.option, eta.argparse_kwargs()["type"], eta.required
    ('--eta', <class 'float'>, True)
    """

    name: str
    kind: ParameterKind
    doc: str
    domain: tuple[float, float] = (-math.inf, math.inf)
    inclusive: tuple[bool, bool] = (True, True)
    choices: tuple[str, ...] = ()
    default: Any = REQUIRED
    optional: bool = False
    note: str = ""

    @property
    def required(self) -> bool:
        """Whether the parameter has no default."""
        return self.default is REQUIRED

    @property
    def option(self) -> str:
        """The command-line option: ``--name`` (underscores as hyphens)."""
        return "--" + self.name.replace("_", "-")

    @property
    def on_command_line(self) -> bool:
        """Whether a command line can set it (every kind but ``"callable"``)."""
        return self.kind != "callable"

    def argparse_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :meth:`argparse.ArgumentParser.add_argument` for :attr:`option`:
        ``type``, ``help``, and ``choices``, ``nargs``, ``default`` or ``required`` as they
        apply. The value parsed is checked again by :meth:`check` when the family is built.

        Raises
        ------
        ParameterError
            For a ``"callable"`` parameter (:attr:`on_command_line` is False).
        """
        if not self.on_command_line:
            raise ParameterError(
                f"`{self.name}` (a callable) cannot be set on the command line, got "
                f"name={self.name!r}."
            )
        kw: dict[str, Any] = {"type": _PYTHON_TYPES[self.kind], "help": self.doc}
        if self.kind == "choice":
            kw["choices"] = self.choices
        if self.kind == "integers":
            kw["nargs"] = "+"
        if self.required:
            kw["required"] = True
        else:
            kw["default"] = list(self.default) if self.kind == "integers" else self.default
        return kw

    def domain_text(self) -> str:
        """The domain as the error messages state it, e.g. ``in (0, 1)`` or ``>= 1``."""
        lo, hi = self.domain
        if self.kind == "choice":
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.kind == "real" and (math.isinf(lo) or math.isinf(hi)):
            left = "[" if math.isinf(lo) or self.inclusive[0] else "("
            right = "]" if math.isfinite(hi) and self.inclusive[1] else ")"
            return f"a finite number in {left}{_bound(lo)}, {_bound(hi)}{right}"
        if math.isinf(hi):
            return f"{'>=' if self.inclusive[0] else '>'} {_bound(lo)}"
        if math.isinf(lo):
            return f"{'<=' if self.inclusive[1] else '<'} {_bound(hi)}"
        left = "[" if self.inclusive[0] else "("
        right = "]" if self.inclusive[1] else ")"
        return f"in {left}{_bound(lo)}, {_bound(hi)}{right}"

    def _inside(self, x: float) -> bool:
        lo, hi = self.domain
        above = lo <= x if self.inclusive[0] else lo < x
        below = x <= hi if self.inclusive[1] else x < hi
        return above and below

    def _out_of_domain(self, value: Any, shown: str | None = None) -> ParameterError:
        n = self.name
        got = f"{n}={value!r}" if shown is None else shown
        return ParameterError(f"`{n}` must be {self.domain_text()}{self.note}, got {got}.")

    def _integer(self, value: Any, whole: Any) -> int:
        n = self.name
        if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
            raise ParameterTypeError(f"`{n}` must be an integer, got {n}={whole!r}.")
        x = int(value)
        if not self._inside(x):
            raise self._out_of_domain(whole, None if whole is value else f"{value!r} in {n}")
        return x

    def check(self, value: Any) -> Any:
        """``value`` checked against the declaration and normalised (a float, an int, a sorted
        tuple of ints, the string or the callable); None where :attr:`optional`.

        Raises
        ------
        ParameterTypeError
            If ``value`` has the wrong type (the message names the parameter, echoes the value).
        ParameterError
            If it lies outside the domain or the choices.
        """
        n = self.name
        if value is None and self.optional:
            return None
        if self.kind == "real":
            if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
                raise ParameterTypeError(f"`{n}` must be a real number, got {n}={value!r}.")
            try:
                x = float(value)
            except OverflowError:
                raise self._out_of_domain(value) from None
            if not (math.isfinite(x) and self._inside(x)):
                raise self._out_of_domain(value)
            return x
        if self.kind == "integer":
            return self._integer(value, value)
        if self.kind == "integers":
            if isinstance(value, str | bytes) or not isinstance(value, Iterable):
                raise ParameterTypeError(
                    f"`{n}` must be an iterable of integers, got {n}={value!r}."
                )
            items = tuple(sorted({self._integer(v, value) for v in value}))
            if not items:
                raise ParameterError(f"`{n}` must not be empty, got {n}={value!r}.")
            return items
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise self._out_of_domain(value)
            return value
        if not callable(value):
            none = " or None" if self.optional else ""
            raise ParameterTypeError(f"`{n}` must be callable{none}, got {n}={value!r}.")
        return value


def check_parameters(family: Family) -> None:
    """Check every parameter :attr:`Family.parameters` declares on ``family`` and store its
    normalised value: the one validator of the families, run by ``Family.__post_init__``.

    Raises
    ------
    ParameterTypeError, ParameterError
        From :meth:`Parameter.check`, naming the first bad parameter and echoing its value.
    """
    for p in type(family).parameters:
        object.__setattr__(family, p.name, p.check(getattr(family, p.name)))


def _check_declarations(cls: type[Family]) -> None:
    """The declarations of ``cls`` against its dataclass fields: one per init field, with the
    field's default, itself valid."""
    declared = {p.name: p for p in cls.parameters}
    if len(declared) != len(cls.parameters):
        raise ParameterError(f"`parameters` of {cls.__qualname__} declare a name twice.")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
    if list(declared) != list(fields):
        raise ParameterError(
            f"`parameters` of {cls.__qualname__} must declare exactly its fields, in their "
            f"order {list(fields)}, got {list(declared)}."
        )
    for name, p in declared.items():
        default = fields[name].default
        default = REQUIRED if default is dataclasses.MISSING else default
        if p.default != default:
            raise ParameterError(
                f"`parameters` of {cls.__qualname__}: the default of {name!r} is "
                f"{default!r} in the dataclass, got {p.default!r}."
            )
        if not p.required:
            p.check(p.default)


def epsilon_parameter(doc: str, *, positive: bool = False, finite_exp: bool = False) -> Parameter:
    r"""The declaration of ε: a finite real number >= 0 (> 0 if ``positive``; at most
    :data:`~rainbowdp._validation.EPS_MAX_EXP` if ``finite_exp``, so that :math:`e^\epsilon` is
    a finite float64).

    Examples
    --------
    >>> epsilon_parameter("the privacy parameter").domain_text()
    'a finite number in [0, inf)'
    >>> epsilon_parameter("e", positive=True, finite_exp=True).check(0.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rainbowdp.exceptions.ParameterError: `epsilon` must be in (0, 709.78...] ..., got epsilon=0.0.
    """
    return Parameter(
        "epsilon",
        "real",
        doc,
        domain=(0.0, EPS_MAX_EXP if finite_exp else math.inf),
        inclusive=(not positive, True),
        note=" (e^epsilon a finite float64)" if finite_exp else "",
    )


#: What :meth:`Family.optimum` returns: a closed-form optimum and its noise law.
@runtime_checkable
class Optimum(Protocol):
    """A closed-form optimum of a family (:meth:`Family.optimum`): at least its noise PMF."""

    @property
    def pmf(self) -> np.ndarray:
        """The optimal noise law."""
        ...


@dataclass(frozen=True)
class Claim:
    r"""A privacy guarantee as the literature states it for the textbook mechanism.

    Attributes
    ----------
    epsilon : float
        The ε of a pure ε-DP claim; ``inf`` for a claim stated as a privacy profile δ(ε) only
        (the discrete Gaussian is not ε-DP for any finite ε).
    source : str
        Paper, theorem or equation the claim comes from.
    profile : callable, optional
        ε -> δ(ε), for a claim stated as a privacy profile; None for a pure claim.
    tolerance : float, default 0
        Absolute δ by which the family's stored float64 rows may exceed the claim where
        :meth:`Family.holds_on` is True: 0 for the pure families (their rows are built inside
        the claim by the safety margin); the round-off of the rows for a profile claim built
        without a margin (the discrete Gaussian: :math:`2^{-44}`).

    Examples
    --------
    >>> c = Claim(1.0, "a paper, Theorem 1")
    >>> c.pure, c.dp_delta(1.0), c.dp_delta(2.0)
    (True, 0.0, 0.0)
    >>> round(c.dp_delta(0.0), 6)     # what every 1-DP mechanism meets at epsilon = 0
    0.462117
    """

    epsilon: float
    source: str
    profile: Callable[[float], float] | None = field(default=None, compare=False, repr=False)
    tolerance: float = 0.0

    @property
    def pure(self) -> bool:
        """Whether this is a pure ε-DP claim."""
        return self.profile is None

    def dp_delta(self, epsilon: float) -> float:
        r"""The δ the claim gives at ``epsilon``: 0 at or above a pure claim's ε (below it, the
        bound :func:`pure_delta` that every ε-DP mechanism meets), or the stated profile."""
        e = check_epsilon(epsilon)
        if self.profile is not None:
            return float(self.profile(e))
        return pure_delta(self.epsilon, e)

    delta = deprecated_alias(dp_delta, "Claim.delta", "Claim.dp_delta")

    def __str__(self) -> str:
        if self.pure:
            return f"{self.epsilon:g}-DP ({self.source})"
        return f"(epsilon, delta(epsilon))-DP ({self.source})"


class Family(ABC):
    r"""Abstract base of the noise families: a frozen dataclass of validated parameters.

    Subclasses set :attr:`name` and :attr:`summary`, declare their fields in
    :attr:`parameters` (checked by :func:`check_parameters` in ``__post_init__``), implement
    the abstract methods and are added to :data:`FAMILIES` with :func:`register`.

    Attributes
    ----------
    name : str
        Registry key (a Python identifier).
    summary : str
        One line, shown by ``rainbowdp families``.
    parameters : tuple of Parameter
        One declaration per dataclass field, with the field's default: what the validator
        checks and what a command line offers.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    parameters: ClassVar[tuple[Parameter, ...]] = ()
    # every family is a dataclass: typed so for dataclasses.fields and dataclasses.replace
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def __post_init__(self) -> None:
        check_parameters(self)

    @abstractmethod
    def graph(self, n: int) -> RainbowGraph:
        """The family's canonical dataset graph of size n (n <= :data:`MAX_DEFAULT_N`)."""

    @abstractmethod
    def mechanism(self, G: RainbowGraph) -> Mechanism:
        """The family's mechanism on the rainbow graph ``G``."""

    @abstractmethod
    def nominal(self) -> Claim:
        """The guarantee the literature states for the textbook mechanism."""

    @abstractmethod
    def holds_on(self, G: RainbowGraph) -> bool | None:
        """True if the library asserts that :meth:`nominal` holds for :meth:`mechanism` on
        ``G`` (within the claim's :attr:`Claim.tolerance`); False if it is known to fail; None
        if it is not claimed."""

    def optimum(self) -> Optimum:
        """A closed-form optimum of the family at its parameters, where the literature gives
        one (an :class:`Optimum`: a subclass narrows the return type)."""
        raise NotImplementedError(f"the {self.name!r} family has no closed-form optimum")

    @classmethod
    @abstractmethod
    def examples(cls) -> list[tuple[Family, RainbowGraph]]:
        """A few small (family, graph) instances, run by the contract test."""


_REGISTRY: dict[str, type[Family]] = {}
#: Every registered family: a read-only mapping name -> Family class.
FAMILIES: MappingProxyType[str, type[Family]] = MappingProxyType(_REGISTRY)


def register(cls: type[Family]) -> type[Family]:
    """Class decorator: add a :class:`Family` subclass to :data:`FAMILIES` under ``cls.name``.

    Raises
    ------
    ParameterTypeError
        If ``cls`` is not a subclass of :class:`Family`.
    ParameterError
        If its ``name`` is not an identifier, its ``summary`` is not one line of text, another
        class is registered under that name, or its :attr:`~Family.parameters` (when declared)
        do not declare exactly its dataclass fields with their defaults.
    """
    if not (isinstance(cls, type) and issubclass(cls, Family)):
        raise ParameterTypeError(f"`cls` must be a subclass of Family, got cls={cls!r}.")
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name.isidentifier():
        raise ParameterError(f"`name` of a family must be an identifier, got name={name!r}.")
    summary = getattr(cls, "summary", None)
    if not isinstance(summary, str) or not summary or "\n" in summary:
        raise ParameterError(
            f"`summary` of a family must be one line of text, got summary={summary!r}."
        )
    if cls.parameters:
        _check_declarations(cls)
    other = _REGISTRY.get(name)
    if other is not None and other is not cls:
        raise ParameterError(
            f"`name` {name!r} is already registered by {other.__qualname__}, got name={name!r}."
        )
    _REGISTRY[name] = cls
    return cls


def get_family(name: str) -> type[Family]:
    """The registered family class called ``name``.

    Examples
    --------
    >>> get_family("geometric").__name__
    'Geometric'
    """
    if not isinstance(name, str) or name not in _REGISTRY:
        choices = ", ".join(repr(k) for k in sorted(_REGISTRY))
        raise ParameterError(f"`name` must be one of {choices}, got name={name!r}.")
    return _REGISTRY[name]


# ------------------------------------------------------------------------------------ helpers
def check_default_n(n: Any) -> int:
    """Validate the size of a default graph."""
    return check_int(n, "n", minimum=1, maximum=MAX_DEFAULT_N)


def mechanism_from_rows(G: RainbowGraph, rows: np.ndarray) -> Mechanism:
    """A Mechanism from rows that are distributions by construction.

    The rows of the families are exponentials of finite log-probabilities (non-negative,
    finite) normalised to sum to 1; the checks that matter -- every row sum within 1e-12 of 1
    and no negative entry, which also catch NaN and inf -- are made here in two passes, without
    the copy and the checks of the public constructor (which would cost more than the build on
    large graphs). Rows that fail go through the public constructor, which names the bad node.

    Parameters
    ----------
    G : RainbowGraph
        The graph of the mechanism.
    rows : numpy.ndarray
        ``(G.n_nodes, G.n_outputs)`` probabilities, row i the distribution of node i over
        ``G.outputs``.

    Returns
    -------
    Mechanism

    Raises
    ------
    InvalidMechanismError
        When a row is not a distribution (from the public constructor).

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> M = mechanism_from_rows(count_path(1), np.array([[0.75, 0.25], [0.25, 0.75]]))
    >>> M.probabilities.tolist()
    [[0.75, 0.25], [0.25, 0.75]]
    """
    rows = np.ascontiguousarray(rows, dtype=np.float64)
    sums = rows.sum(axis=1)
    if (
        rows.shape == (G.n_nodes, G.n_outputs)
        and bool(np.all(np.abs(sums - 1.0) <= _ROW_SUM_TOL))
        and bool(rows.min(initial=0.0) >= 0.0)
    ):
        return Mechanism._from_valid(G, rows)
    return Mechanism(G, rows)  # pragma: no cover - raises InvalidMechanismError for the node


def unit_steps(G: RainbowGraph, answers: np.ndarray) -> bool:
    """Whether every edge of ``G`` joins answers that differ by at most one (a count path)."""
    e = G.edges
    return not (e.shape[0] and int(np.abs(answers[e[:, 0]] - answers[e[:, 1]]).max()) > 1)


def too_small_sensitivity(
    given: float, found: Sensitivity, family: str, what: str = "the graph's sensitivity"
) -> ParameterError:
    """The error of a given sensitivity below the graph's (the mechanism would under-protect)."""
    return ParameterError(
        f"`sensitivity` must be at least {found.describe(what)}: at sensitivity={given!r} the "
        f"{family} mechanism would not meet its guarantee on that edge; omit `sensitivity` to "
        f"take the graph's, got sensitivity={given!r}."
    )


def integer_answers_of(G: RainbowGraph, what: str) -> np.ndarray:
    """The true answers of ``G`` as int64, or ParameterError naming the graph problem."""
    answers = G.answers
    if answers is None:
        raise ParameterError(
            f"`G` has no true answers (G.answers is None); {what} needs the integer true answer "
            "of every node: build the graph with count_path, circulant, from_records or "
            "RainbowGraph.from_query."
        )
    try:
        return integer_answers(answers, "G.answers")
    except ParameterError as exc:
        raise ParameterError(f"`G` is not suitable for {what}: {exc}") from None


def contiguous_outputs_of(G: RainbowGraph, what: str) -> tuple[int, int, np.ndarray | None]:
    """(lo, q, perm) of the outputs of ``G``, or ParameterError naming the graph problem."""
    try:
        return contiguous_outputs(G.outputs, "G.outputs")
    except ParameterError as exc:
        raise ParameterError(f"`G` is not suitable for {what}: {exc}") from None
