r"""The base of the additive-noise families: :class:`AdditiveFamily` and its shared parameters.

An additive family answers :math:`a(d) + \eta` with integer noise :math:`\eta` brought into the
graph's outputs in one of the four forms of :mod:`rainbowdp.noise` (:func:`additive_rows`); its
sensitivity Δ is read from the graph when it is not given.
"""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from typing import ClassVar

import numpy as np

from .._sensitivity import Sensitivity, sensitivity
from .._verify.kernels import CHUNK_ELEMENTS
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism
from ._additive import FORMS, Form, NoiseLaw, additive_rows
from ._family import (
    Family,
    Parameter,
    check_default_n,
    contiguous_outputs_of,
    integer_answers_of,
    mechanism_from_rows,
    too_small_sensitivity,
)

__all__ = ["FORM_PARAMETER", "PROFILE_CHECK_EPSILONS", "SENSITIVITY_PARAMETER", "AdditiveFamily"]

#: The ε at which :meth:`AdditiveFamily.holds_on` compares truncated rows with a profile claim.
PROFILE_CHECK_EPSILONS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)
#: ``form`` of the additive families (:data:`~rainbowdp.noise.FORMS`).
FORM_PARAMETER = Parameter(
    "form",
    "choice",
    "how the noisy answer is brought into the outputs",
    choices=FORMS,
    default="clamped",
)
#: ``sensitivity`` of the additive families: an integer Δ >= 1, or None (the graph's).
SENSITIVITY_PARAMETER = Parameter(
    "sensitivity",
    "integer",
    "largest answer change between neighbours (default: the graph's)",
    domain=(1, 2**31),
    default=None,
    optional=True,
)


# ------------------------------------------------------------------------------------ additive
class AdditiveFamily(Family):
    r"""Base of the additive-noise families: :math:`a(d) + \eta` in a finite ``form``.

    A subclass is a frozen dataclass with fields ``form`` and ``sensitivity`` (declared by
    :data:`FORM_PARAMETER` and :data:`SENSITIVITY_PARAMETER` among its
    :attr:`~Family.parameters`) and implements :meth:`law` (the noise law its rows are built
    from) and :meth:`nominal`. The mechanism is
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
            return dataclasses.replace(self, sensitivity=max(1, int(found.value)))
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
        stated = np.array([claim.dp_delta(e) for e in PROFILE_CHECK_EPSILONS])
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
