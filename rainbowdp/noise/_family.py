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

:func:`register` adds a family to :data:`FAMILIES`; the contract test of the test-suite runs
every registered family on its :meth:`Family.examples` and checks every mechanism against the
exact verifier. See ``docs/families.md`` for how to write a family.

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
import math
import numbers
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np

from .._sensitivity import Sensitivity, sensitivity
from .._validation import check_epsilon, check_int
from .._verify.kernels import CHUNK_ELEMENTS
from ..exceptions import ParameterError, ParameterTypeError
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism
from ._additive import (
    FORMS,
    Form,
    NoiseLaw,
    additive_rows,
    check_form,
    contiguous_outputs,
    integer_answers,
)

__all__ = [
    "FAMILIES",
    "MAX_DEFAULT_N",
    "PROFILE_CHECK_EPSILONS",
    "SAFETY_MARGIN",
    "AdditiveFamily",
    "Claim",
    "Family",
    "build_epsilon",
    "get_family",
    "mechanism_from_rows",
    "pure_delta",
    "register",
]

#: Relative safety margin of the pure-DP families (the designers' margin): see the module notes.
SAFETY_MARGIN = 2.0**-40
#: Largest n of a family's default graph (:meth:`Family.graph`): those graphs have n + 1 outputs,
#: so a mechanism on them holds (n + 1)^2 numbers (32 MB at n = 2000).
MAX_DEFAULT_N = 2000
#: The ε at which :meth:`AdditiveFamily.holds_on` compares truncated rows with a profile claim.
PROFILE_CHECK_EPSILONS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
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
    >>> c.pure, c.delta(1.0), c.delta(2.0)
    (True, 0.0, 0.0)
    >>> round(c.delta(0.0), 6)     # what every 1-DP mechanism meets at epsilon = 0
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

    def delta(self, epsilon: float) -> float:
        r"""The δ the claim gives at ``epsilon``: 0 at or above a pure claim's ε (below it, the
        bound :func:`pure_delta` that every ε-DP mechanism meets), or the stated profile."""
        e = check_epsilon(epsilon)
        if self.profile is not None:
            return float(self.profile(e))
        return pure_delta(self.epsilon, e)

    def __str__(self) -> str:
        if self.pure:
            return f"{self.epsilon:g}-DP ({self.source})"
        return f"(epsilon, delta(epsilon))-DP ({self.source})"


class Family(ABC):
    r"""Abstract base of the noise families: a frozen dataclass of validated parameters.

    Subclasses set :attr:`name` and :attr:`summary`, validate their fields in
    ``__post_init__``, implement the abstract methods and are added to :data:`FAMILIES` with
    :func:`register`.

    Attributes
    ----------
    name : str
        Registry key (a Python identifier).
    summary : str
        One line, shown by ``rainbowdp families``.
    """

    name: ClassVar[str]
    summary: ClassVar[str]

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

    def optimum(self, *args: Any, **kwargs: Any) -> Any:
        """A closed-form optimum of the family, where the literature gives one."""
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
        If its ``name`` is not an identifier, its ``summary`` is not one line of text, or
        another class is registered under that name.
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


def check_positive_epsilon(value: Any) -> float:
    """ε > 0, finite, with e^ε a finite float64."""
    e = check_epsilon(value, finite_exp=True)
    if e <= 0:
        raise ParameterError(f"`epsilon` must be > 0 for this family, got epsilon={value!r}.")
    return e


def check_sensitivity(value: Any) -> int | None:
    """An integer sensitivity Δ >= 1, or None (taken from the graph)."""
    if value is None:
        return None
    return check_int(value, "sensitivity", minimum=1, maximum=2**31)


def check_real_sensitivity(value: Any) -> float | None:
    """A real sensitivity Δ > 0, or None (taken from the graph)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ParameterTypeError(f"`sensitivity` must be a real number, got sensitivity={value!r}.")
    x = float(value)
    if not (math.isfinite(x) and x > 0):
        raise ParameterError(
            f"`sensitivity` must be a finite number > 0, got sensitivity={value!r}."
        )
    return x


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


# ------------------------------------------------------------------------------------ additive
class AdditiveFamily(Family):
    r"""Base of the additive-noise families: :math:`a(d) + \eta` in a finite ``form``.

    A subclass is a frozen dataclass with fields ``form`` and ``sensitivity`` and implements
    :meth:`law` (the noise law its rows are built from) and :meth:`nominal`. The mechanism is
    :func:`~rainbowdp.noise.additive_rows` on the graph's integer answers and consecutive integer
    outputs; the default graph is :func:`~rainbowdp.builders.count_path` (n).

    **Sensitivity.** ``sensitivity`` is the integer Δ the guarantee covers: the largest answer
    change between neighbours. ``None`` (the default) takes it from the graph:
    :meth:`for_graph` sets Δ to :func:`rainbowdp.sensitivity` of ``G`` (at least 1; for the
    ``"modular"`` form the cyclic distance modulo the number of outputs), and :meth:`mechanism`
    builds on that. A given Δ below the graph's is refused (ParameterError naming the value,
    the graph's sensitivity and an edge that attains it): the mechanism would silently be less
    private than stated. A given Δ above the graph's is allowed (conservative). The methods that
    take no graph (:meth:`law`, :meth:`nominal`, ...) read an unset Δ as 1: the family at unit
    sensitivity.

    :meth:`holds_on` (G) speaks of the family as built on G, ``for_graph(G)``, and of its
    ``for_graph(G).nominal()`` (the same claim for the pure families; the discrete Gaussian's
    profile depends on Δ). It follows from post-processing: clamping, folding and wrapping are
    functions of :math:`a + \eta`, so the nominal guarantee holds (True) on every graph whose
    sensitivity is at most Δ. It is False when a given Δ is below the graph's sensitivity
    (:meth:`mechanism` then refuses to build). Truncation is not a post-processing; for the
    truncated form:

    - a pure claim is False when the exact ε of the truncated rows, computed in log space from
      the law, exceeds the nominal ε by more than a relative :math:`10^{-9}` on some edge, True
      when the verifier proves the stored rows ε-DP at the nominal ε
      (:func:`~rainbowdp.epsilon_for_delta`), and None in the float gap between the two;
    - a profile claim (the discrete Gaussian) is False when the stored rows exceed the claimed
      δ(ε) by more than its tolerance at one of the ε of :data:`PROFILE_CHECK_EPSILONS`, and
      None otherwise: a profile holds at every ε, which finitely many ε cannot decide.
    """

    forms: ClassVar[tuple[str, ...]] = FORMS
    form: Form
    sensitivity: int | None

    @abstractmethod
    def law(self) -> NoiseLaw:
        """The noise law the rows are built from (at the build parameters; at sensitivity 1
        when :attr:`sensitivity` is unset)."""

    @property
    def unit(self) -> int:
        """The sensitivity the graph-free methods use: :attr:`sensitivity`, or 1 when unset."""
        return 1 if self.sensitivity is None else self.sensitivity

    def graph(self, n: int) -> RainbowGraph:
        """``count_path(n)``: counts 0..n, neighbours differ by one record, outputs 0..n."""
        from ..builders import count_path

        return count_path(check_default_n(n))

    def _inputs(self, G: RainbowGraph) -> tuple[np.ndarray, int, int, np.ndarray | None]:
        check_graph(G, "G")
        what = f"additive noise ({self.name})"
        answers = integer_answers_of(G, what)
        lo, q, perm = contiguous_outputs_of(G, what)
        return answers, lo, q, perm

    def graph_sensitivity(self, G: RainbowGraph) -> Sensitivity:
        """The sensitivity of ``G`` that this family's form sees: :func:`rainbowdp.sensitivity`,
        cyclic modulo the number of outputs for the ``"modular"`` form.

        Raises
        ------
        ParameterError
            If ``G`` has no integer true answers or its outputs are not consecutive integers.

        Examples
        --------
        >>> from rainbowdp.builders import circulant
        >>> from rainbowdp.noise import Geometric
        >>> G = circulant(5, [1])                      # answers 0..5, the edge 5 ~ 0 wraps
        >>> Geometric(1.0).graph_sensitivity(G).value
        5
        >>> Geometric(1.0, form="modular").graph_sensitivity(G).value
        1
        """
        _, _, q, _ = self._inputs(G)
        return self._sensitivity(G, q)

    def _sensitivity(self, G: RainbowGraph, q: int) -> Sensitivity:
        return sensitivity(G, modulus=q if self.form == "modular" else None)

    def for_graph(self, G: RainbowGraph) -> AdditiveFamily:
        """This family with its sensitivity set for ``G``.

        An unset sensitivity becomes the graph's (:meth:`graph_sensitivity`, at least 1); a
        given one is kept if it is at least the graph's.

        Raises
        ------
        ParameterError
            If the given sensitivity is below the graph's (the message names the value, the
            graph's sensitivity and an edge that attains it), or ``G`` has no integer answers or
            no consecutive integer outputs.

        Examples
        --------
        >>> import statistics
        >>> from rainbowdp.builders import from_records
        >>> from rainbowdp.noise import Geometric
        >>> G = from_records([0, 2, 4], size=3, query=statistics.median_low, outputs=range(5),
        ...                  relation="replace_one")
        >>> Geometric(1.0).for_graph(G).sensitivity
        4
        """
        _, _, q, _ = self._inputs(G)
        return self._for_graph(G, q)

    def _for_graph(self, G: RainbowGraph, q: int) -> AdditiveFamily:
        found = self._sensitivity(G, q)
        if self.sensitivity is None:
            return dataclasses.replace(self, sensitivity=max(1, int(found.value)))  # type: ignore[type-var]
        if self.sensitivity < found.value:
            raise too_small_sensitivity(self.sensitivity, found, self.name)
        return self

    def mechanism(self, G: RainbowGraph) -> Mechanism:
        r"""The rows :math:`a(d) + \eta` in :attr:`form` for every node of ``G``, at the
        sensitivity of :meth:`for_graph`.

        Raises
        ------
        ParameterError
            If ``G`` has no integer true answers, its outputs are not consecutive integers, or
            the given sensitivity is below the graph's.
        """
        answers, lo, q, perm = self._inputs(G)
        family = self._for_graph(G, q)
        outputs = np.arange(lo, lo + q) if perm is None else np.asarray(G.outputs)
        rows = additive_rows(answers, outputs.tolist(), family.law(), form=family.form)
        return mechanism_from_rows(G, rows)

    def holds_on(self, G: RainbowGraph) -> bool | None:
        """Whether ``for_graph(G).nominal()`` holds for :meth:`mechanism` on ``G`` (class notes).

        True or False on every graph with integer answers and consecutive integer outputs,
        except two truncated cases, which are None: a pure claim whose float ε of the truncated
        rows lies within a relative :math:`10^{-9}` of the nominal ε but is not proved below it,
        and a profile claim (the discrete Gaussian) that no checked ε shows to fail.

        Raises
        ------
        ParameterError
            If ``G`` has no integer true answers or its outputs are not consecutive integers.
        """
        answers, lo, q, _ = self._inputs(G)
        edges = G.edges
        if edges.shape[0] == 0:  # no neighbours: every mechanism is private
            return True
        found = self._sensitivity(G, q)
        if self.sensitivity is not None and self.sensitivity < found.value:
            return False
        if self.form != "truncated":
            return True
        family = self._for_graph(G, q)
        claim = family.nominal()
        if not claim.pure:
            return family._profile_fails(G)
        if family._truncation_fails(answers, edges, lo, q, G.directed):
            return False
        from ..privacy import epsilon_for_delta

        return True if float(epsilon_for_delta(family.mechanism(G), 0.0)) <= claim.epsilon else None

    def _profile_fails(self, G: RainbowGraph) -> bool | None:
        """False when the stored rows exceed a profile claim at one of the checked ε, else None."""
        from ..privacy import privacy_profile

        claim = self.nominal()
        exact = privacy_profile(self.mechanism(G), list(PROFILE_CHECK_EPSILONS))
        stated = np.array([claim.delta(e) for e in PROFILE_CHECK_EPSILONS])
        return False if bool(np.any(exact > stated + claim.tolerance + 1e-9)) else None

    def _truncation_fails(
        self, answers: np.ndarray, edges: np.ndarray, lo: int, q: int, directed: bool
    ) -> bool:
        """Whether the truncated rows provably exceed a pure claim's ε on some edge."""
        claim = self.nominal()
        if not claim.pure:
            return False
        hi = lo + q - 1
        a, b = answers[edges[:, 0]], answers[edges[:, 1]]
        inside = (a >= lo) & (a <= hi) & (b >= lo) & (b <= hi) & (a != b)
        if not inside.any():
            return False
        law = self.law()
        v = np.arange(lo, hi + 1, dtype=np.int64)
        # one log row per distinct answer in the range, then the edges in bounded chunks
        a, b = a[inside], b[inside]
        ua, inv = np.unique(np.concatenate([a, b]), return_inverse=True)
        lw = law.log_pmf(v[None, :] - ua[:, None])
        m = lw.max(axis=1, keepdims=True)
        logs = lw - (m + np.log(np.exp(lw - m).sum(axis=1, keepdims=True)))
        ia, ib = inv[: a.size], inv[a.size :]
        worst = -np.inf
        chunk = max(1, CHUNK_ELEMENTS // q)
        for start in range(0, a.size, chunk):
            d = logs[ia[start : start + chunk]] - logs[ib[start : start + chunk]]
            worst = max(worst, float(np.max(d if directed else np.abs(d))))
        return worst > claim.epsilon + 1e-9 * max(1.0, claim.epsilon)


def check_additive(
    form: Any, sensitivity: Any, forms: tuple[str, ...] = FORMS
) -> tuple[str, int | None]:
    """Validate the common fields of an additive family."""
    return check_form(form, forms), check_sensitivity(sensitivity)
