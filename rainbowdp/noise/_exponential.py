r"""The exponential mechanism (McSherry, Talwar 2007) as a registered noise family.

:class:`Exponential` builds :math:`P_d(v) \propto \exp(-\epsilon\,\ell(v, a(d)) / (2\Delta))` on
any rainbow graph, with the loss's sensitivity Δ read from the graph when it is not given, and
draws from it by the Gumbel-max trick (:meth:`Exponential.sample_gumbel`); :func:`exponential`
returns its mechanism on a graph. Re-exported by :mod:`rainbowdp.noise.baselines`.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable, Hashable
from dataclasses import KW_ONLY, dataclass
from typing import Any, ClassVar

import numpy as np

from .._sensitivity import Sensitivity, abs_diff_up
from .._validation import check_int
from .._verify.kernels import CHUNK_ELEMENTS
from ..exceptions import ParameterError, ParameterTypeError
from ..graph import RainbowGraph, check_graph
from ..mechanism import Mechanism
from ._additive import FLOOR, StaircaseLaw, additive_rows, contiguous_outputs, integer_answers
from ._family import (
    Claim,
    Family,
    Parameter,
    build_epsilon,
    check_default_n,
    epsilon_parameter,
    mechanism_from_rows,
    register,
    too_small_sensitivity,
)

__all__ = ["Exponential", "exponential"]


def _path2() -> Any:
    import networkx as nx

    return nx.path_graph(2)


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool | np.bool_)


@register
@dataclass(frozen=True)
class Exponential(Family):
    r"""The exponential mechanism for a loss :math:`\ell(v, a)` of sensitivity Δ.

    .. math::

        P_d(v) = \frac{\exp(-\epsilon\,\ell(v, a(d)) / (2\Delta))}
        {\sum_{w} \exp(-\epsilon\,\ell(w, a(d)) / (2\Delta))}

    over the graph's outputs, where a(d) is the node's true answer (its most preferred output
    when the graph has no answers).

    Parameters
    ----------
    epsilon : float
        ε >= 0.
    loss : callable, optional
        ``loss(output, answer) -> float``. Default: :math:`|v - a|` when every output and
        answer is a real number, else 0 for the true answer and 1 otherwise.
    sensitivity : float, optional
        Δ > 0, a bound on :math:`|\ell(v, a(d)) - \ell(v, a(d'))|` over neighbours d ~ d'.
        Default: the loss's sensitivity on the graph (:meth:`loss_sensitivity`, 1 when it is 0);
        a given Δ below it is refused when the mechanism is built.

    Raises
    ------
    ParameterError
        If ε is negative or not finite, Δ is not a finite number > 0, or (when the mechanism is
        built) ``loss`` returns something other than a finite real number.
    ParameterTypeError
        If ε or Δ is not a real number or ``loss`` is not callable.

    Notes
    -----
    ε-DP: the numerator changes by a factor at most :math:`e^{\epsilon/2}` between neighbours,
    and so does the normaliser. :meth:`holds_on` is True when the loss's sensitivity on the
    graph's edges is at most Δ (always, for Δ taken from the graph), False when a given Δ is
    below it (then :meth:`mechanism` refuses to build). With the default loss on integer
    answers and consecutive integer outputs the mechanism is the truncated geometric law at rate
    ε/(2Δ), built by the shared routine :func:`~rainbowdp.noise.additive_rows`.

    :meth:`sample_gumbel` draws :math:`\arg\max_v (-\epsilon \ell(v, a)/(2\Delta) + G_v)` with
    i.i.d. standard Gumbel :math:`G_v` -- the Gumbel-max form of the same distribution.

    References
    ----------
    F. McSherry, K. Talwar, "Mechanism design via differential privacy", FOCS 2007 (the
    exponential mechanism and its privacy); C. Dwork, A. Roth, "The algorithmic foundations of
    differential privacy" (2014), Theorem 3.10; E. J. Gumbel, "Statistical theory of extreme
    values" (1954) for the Gumbel-max identity.

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> M = Exponential(epsilon=2 * math.log(2)).mechanism(count_path(2))
    >>> (M.probabilities[0] * 7).round(9).tolist()
    [4.0, 2.0, 1.0]
    """

    name: ClassVar[str] = "exponential"
    summary: ClassVar[str] = (
        "exponential mechanism exp(-epsilon loss/(2 sensitivity)), default loss |v - a| "
        "(McSherry, Talwar 2007)"
    )

    parameters: ClassVar[tuple[Parameter, ...]] = (
        epsilon_parameter("the privacy parameter"),
        Parameter(
            "loss",
            "callable",
            "loss(output, answer) -> float (default: |v - a| on numbers, else 0/1)",
            default=None,
            optional=True,
        ),
        Parameter(
            "sensitivity",
            "real",
            "bound on the loss's change between neighbours (default: the graph's)",
            domain=(0.0, math.inf),
            inclusive=(False, True),
            default=None,
            optional=True,
        ),
    )

    epsilon: float
    _: KW_ONLY
    loss: Callable[[Any, Any], float] | None = None
    sensitivity: float | None = None

    def graph(self, n: int) -> RainbowGraph:
        """``count_path(n)``."""
        from ..builders import count_path

        return count_path(check_default_n(n))

    # -- the loss table over the distinct answers
    def _answers(self, G: RainbowGraph) -> list:
        if G.answers is not None:
            return list(G.answers)
        return [G.outputs[j] for j in G.order[:, 0].tolist()]

    def _integer_fast_path(self, G: RainbowGraph, answers: list) -> bool:
        if self.loss is not None:
            return False
        try:
            integer_answers(answers)
            contiguous_outputs(G.outputs)
        except (ParameterError, ParameterTypeError):
            return False
        return True

    def _loss_table(self, G: RainbowGraph, answers: list) -> tuple[np.ndarray, np.ndarray]:
        """(U, q) losses for the distinct answers and each node's index into them."""
        outs = G.outputs
        keys: dict[Any, int] = {}
        index = np.empty(len(answers), dtype=np.intp)
        distinct: list = []
        for i, a in enumerate(answers):
            try:
                key = (type(a), a)
                j = keys.setdefault(key, len(distinct))
            except TypeError:  # unhashable answer: its own entry
                j = len(distinct)
            if j == len(distinct):
                distinct.append(a)
            index[i] = j
        if self.loss is None:
            if all(map(_is_number, outs)) and all(map(_is_number, distinct)):
                v = np.asarray(outs, dtype=np.float64)
                a = np.asarray(distinct, dtype=np.float64)
                table = np.abs(v[None, :] - a[:, None])
            else:
                table = np.array([[0.0 if o == a else 1.0 for o in outs] for a in distinct])
        else:
            table = np.empty((len(distinct), len(outs)))
            for u, a in enumerate(distinct):
                for j, o in enumerate(outs):
                    x = self.loss(o, a)
                    if not _is_number(x) or not math.isfinite(float(x)):
                        raise ParameterError(
                            f"`loss` must return finite real numbers, got {x!r} for "
                            f"output={o!r} and answer={a!r}."
                        )
                    table[u, j] = float(x)
        return table, index

    def _scores(self, table: np.ndarray) -> np.ndarray:
        return -build_epsilon(self.epsilon) * table / (2.0 * (self.sensitivity or 1.0))

    def loss_sensitivity(self, G: RainbowGraph) -> Sensitivity:
        r"""The loss's sensitivity on ``G``: :math:`\max_{(u,v) \in E} \max_w
        |\ell(w, a(u)) - \ell(w, a(v))|`, each difference rounded up.

        Returns a ``Sensitivity`` (value, an edge attaining it, its answers; as
        :func:`rainbowdp.sensitivity` does).

        Examples
        --------
        >>> from rainbowdp.builders import count_path
        >>> Exponential(1.0).loss_sensitivity(count_path(4)).value
        1.0
        """
        check_graph(G, "G")
        edges = G.edges
        answers = self._answers(G)
        if edges.shape[0] == 0:
            return Sensitivity(0.0, None, None)
        outs = G.outputs
        if self.loss is None and all(map(_is_number, outs)) and all(map(_is_number, answers)):
            # |w - a| - |w - b| is monotone in w: its largest size is at the smallest or the
            # largest output, so two columns of the loss table suffice
            v = np.asarray(outs, dtype=np.float64)
            a = np.asarray(answers, dtype=np.float64)
            ends = np.abs(np.array([v.min(), v.max()])[None, :] - a[:, None])
            diff = abs_diff_up(ends[edges[:, 0]], ends[edges[:, 1]]).max(axis=1)
            at = int(np.argmax(diff))
            worst = float(diff[at])
        else:
            table, index = self._loss_table(G, answers)
            worst, at = 0.0, 0
            chunk = max(1, CHUNK_ELEMENTS // table.shape[1])
            for start in range(0, edges.shape[0], chunk):
                e = edges[start : start + chunk]
                diff = abs_diff_up(table[index[e[:, 0]]], table[index[e[:, 1]]]).max(axis=1)
                k = int(np.argmax(diff))
                if float(diff[k]) > worst:
                    worst, at = float(diff[k]), start + k
        i, j = int(edges[at, 0]), int(edges[at, 1])
        nodes = G.nodes
        return Sensitivity(worst, (nodes[i], nodes[j]), (answers[i], answers[j]))

    def _too_small(self, found: Sensitivity) -> bool:
        # a relative 2^-45 below the float loss differences is covered by the build margin
        return self.sensitivity is not None and self.sensitivity < found.value * (1 - 2.0**-45)

    def for_graph(self, G: RainbowGraph) -> Exponential:
        """This family with its sensitivity set for ``G``: the loss's sensitivity
        (:meth:`loss_sensitivity`; 1 when it is 0) when unset, else the given one.

        Raises
        ------
        ParameterError
            If the given sensitivity is below the loss's sensitivity on ``G``.
        """
        found = self.loss_sensitivity(G)
        if self.sensitivity is None:
            return dataclasses.replace(self, sensitivity=float(found.value) or 1.0)
        if self._too_small(found):
            raise too_small_sensitivity(
                self.sensitivity, found, self.name, "the loss's sensitivity on the graph"
            )
        return self

    def mechanism(self, G: RainbowGraph) -> Mechanism:
        family = self.for_graph(G)
        return family._rows(G)

    def _rows(self, G: RainbowGraph) -> Mechanism:
        answers = self._answers(G)
        eps = build_epsilon(self.epsilon)
        if eps > 0 and self._integer_fast_path(G, answers):
            law = StaircaseLaw(eps / (2.0 * (self.sensitivity or 1.0)))
            rows = additive_rows(answers, list(G.outputs), law, form="truncated")
            return mechanism_from_rows(G, rows)
        table, index = self._loss_table(G, answers)
        lw = self._scores(table)
        lw -= lw.max(axis=1, keepdims=True)
        rows = np.exp(lw)
        rows /= rows.sum(axis=1, keepdims=True)
        # every entry is positive in the exact mechanism: one that would underflow is stored
        # as FLOOR, which keeps likelihood ratios within the exact ones (_additive.FLOOR)
        np.maximum(rows, FLOOR, out=rows)
        return mechanism_from_rows(G, rows[index])

    def sample_gumbel(
        self,
        G: RainbowGraph,
        node: Hashable,
        size: int | None = None,
        *,
        rng: np.random.Generator,
    ) -> Any:
        r"""Draw outputs at ``node`` by the Gumbel-max trick.

        Returns :math:`\arg\max_v\,(-\epsilon\,\ell(v, a(d))/(2\Delta) + G_v)` with i.i.d.
        standard Gumbel :math:`G_v`, whose law is the row of :meth:`mechanism`. It uses
        floating-point Gumbel noise, so it illustrates the identity rather than replacing the
        exact sampler :meth:`rainbowdp.Mechanism.sample`.

        Parameters
        ----------
        G : RainbowGraph
        node : hashable
            A node of ``G``.
        size : int, optional
            Number of draws (``None``: one output label).
        rng : numpy.random.Generator

        Examples
        --------
        >>> from rainbowdp.builders import count_path
        >>> rng = np.random.default_rng(0)
        >>> Exponential(epsilon=1.0).sample_gumbel(count_path(3), 1, 4, rng=rng).tolist()
        [3, 2, 3, 1]
        """
        check_graph(G, "G")
        i = G.index_of(node)
        n = 1 if size is None else check_int(size, "size", minimum=0, maximum=2**24)
        if not isinstance(rng, np.random.Generator):
            raise ParameterTypeError(f"`rng` must be a numpy.random.Generator, got rng={rng!r}.")
        family = self.for_graph(G)
        answers = self._answers(G)
        table, index = self._loss_table(G, [answers[i]])
        scores = family._scores(table)[index[0]]
        chunk = max(1, CHUNK_ELEMENTS // G.n_outputs)  # bounded memory whatever the size
        draws = np.concatenate(
            [
                np.argmax(scores[None, :] + rng.gumbel(size=(m, G.n_outputs)), axis=1)
                for m in [min(chunk, n - s) for s in range(0, n, chunk)] or [0]
            ]
        )
        outs = G.outputs
        if size is None:
            return outs[int(draws[0])]
        labels = np.empty(len(outs), dtype=object)
        for j, o in enumerate(outs):
            labels[j] = o
        picked = labels[draws]
        if all(isinstance(o, int | np.integer) and not isinstance(o, bool) for o in outs):
            return picked.astype(np.int64)
        return picked

    def nominal(self) -> Claim:
        return Claim(
            self.epsilon,
            "McSherry, Talwar (FOCS 2007); Dwork, Roth (2014), Theorem 3.10: the exponential "
            "mechanism with exp(-epsilon loss/(2 sensitivity)) is epsilon-DP",
        )

    def holds_on(self, G: RainbowGraph) -> bool | None:
        """True when the loss's sensitivity on ``G`` is at most Δ (always for Δ taken from the
        graph), False when a given Δ is below it."""
        check_graph(G, "G")
        if G.edges.shape[0] == 0 or self.sensitivity is None:
            return True
        answers = self._answers(G)
        numeric = all(map(_is_number, answers)) and all(map(_is_number, G.outputs))
        if self.loss is None and numeric:  # the loss is |v - a| (see _loss_table)
            edges = G.edges
            a = np.asarray(answers, dtype=np.float64)
            if float(np.max(abs_diff_up(a[edges[:, 0]], a[edges[:, 1]]))) <= self.sensitivity:
                return True  # | |v - a| - |v - b| | <= |a - b|
        return not self._too_small(self.loss_sensitivity(G))

    @classmethod
    def examples(cls) -> list[tuple[Family, RainbowGraph]]:
        from ..builders import count_path, cycle, from_records

        return [
            (cls(epsilon=1.0), count_path(6)),
            (cls(epsilon=0.5), count_path(9, outputs=range(2, 6))),
            (cls(epsilon=1.0), count_path(5, outputs=[0.0, 1.5, 4.0])),
            (cls(epsilon=1.2), cycle([("yes", "no", "maybe")] * 3 + [("no", "maybe", "yes")] * 2)),
            (
                cls(epsilon=0.8, sensitivity=2.0),
                from_records([0, 1, 2], size=2, query=sum, outputs=range(5)),
            ),
            (
                cls(epsilon=1.0, loss=lambda v, a: min(abs(v - a), 2)),
                count_path(6),
            ),
            (  # a non-numeric output: the 0/1 loss, its sensitivity 1 taken from the graph
                cls(epsilon=1.0),
                RainbowGraph.from_query(_path2(), [0, 0.25, "x"], answer={0: 0, 1: 0.25}),
            ),
            (  # sums of two records: the loss's sensitivity 2 taken from the graph
                cls(epsilon=0.8),
                from_records([0, 1, 2], size=2, query=sum, outputs=range(5)),
            ),
        ]


# its public home: where the documentation describes it and pickle finds it
Exponential.__module__ = "rainbowdp.noise.baselines"


def exponential(
    G: RainbowGraph,
    *,
    epsilon: float,
    loss: Callable[[Any, Any], float] | None = None,
    sensitivity: float | None = None,
) -> Mechanism:
    """The exponential mechanism on ``G`` (sensitivity: the loss's on ``G`` by default).

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> exponential(count_path(3), epsilon=1.0).probabilities.shape
    (4, 4)
    """
    return Exponential(epsilon=epsilon, loss=loss, sensitivity=sensitivity).mechanism(G)
