r"""The registry of reproducible figures, tables and worked examples.

:data:`TARGETS` maps a name to a :class:`Target`: the function computing the figure or table, a
description, the paper, and its :class:`~rainbowdp.reproduce._checks.Check`\ s (a printed value
of :data:`~rainbowdp.reproduce._printed.PRINTED` paired with the function of
:data:`~rainbowdp.reproduce._checks.EXTRACTORS` reading the recomputed value off the result).

Besides the figures of ``rainbowdp reproduce NAME``, four worked examples are targets (tables,
no image): Gu et al., Example 1 (``gu-example1``), Sadeghi et al., Example 1
(``count-example1``) and Sadeghi & Chien, Examples 2 and 3 (``abs-example2``,
``abs-example3``); Sadeghi & Chien's Example 1 is ``abs-fig3``.
"""

from __future__ import annotations

import decimal
import functools
import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np

from . import abs as _abs
from . import kadam as _kadam
from . import rainbow as _rainbow
from . import sadeghi as _sadeghi
from ._checks import EXTRACTORS, Check, TableResult
from ._printed import PAPERS, PRINTED

__all__ = [
    "TARGETS",
    "TableResult",
    "Target",
    "abs_example2",
    "abs_example3",
    "count_example1",
    "gu_example1",
]


@dataclass(frozen=True)
class Target:
    r"""One reproducible figure, table or worked example.

    Attributes
    ----------
    name : str
        e.g. ``"fig3"``; also the file name of its image and data.
    description : str
        e.g. ``"Gu et al., Fig. 3"``.
    paper : str
        A key of :data:`~rainbowdp.reproduce._printed.PAPERS`.
    make : callable
        ``make()`` -> the result: a figure object with a ``figure`` attribute (a matplotlib
        Figure) or a :class:`TableResult`.
    checks : tuple of Check
        The printed values it reproduces (empty when the paper prints none).
    note : str
        Shown in the index when there is no check, e.g. why.
    """

    name: str
    description: str
    paper: str
    make: Callable[[], Any] = field(repr=False, compare=False)
    checks: tuple[Check, ...] = ()
    note: str = ""


# ----------------------------------------------------------------------------- worked examples
def gu_example1() -> TableResult:
    r"""Gu et al., Example 1: two valid mechanisms and no optimum (``docs/example1.md``).

    The cycle d1 ~ ... ~ d5 ~ d1, e^ε = 2, δ = 0, boundary rows M(d1) = (0.2, 0.1, 0.7),
    M(d4) = (0.4, 0.1, 0.5) and M(d5) = (0.3, 0.1, 0.6) (the example leaves M(d5) open,
    ``docs/errata.md`` item 4). M_3 is built from the operator T (Lemma 1) applied to the
    boundary rows, as the example argues; every verdict is :func:`rainbowdp.verify`'s.

    Examples
    --------
    >>> ex = gu_example1()
    >>> ex.values["M3"]["is_private"], ex.values["optimum_refused"]
    (False, True)
    """
    from ..exceptions import NoOptimalMechanismError
    from ..graph import RainbowGraph
    from ..mechanism import Mechanism
    from ..optimal import T, optimal_mechanism
    from ..privacy import verify

    G = RainbowGraph.cycle([(1, 2, 3)] * 4 + [(1, 3, 2)])
    eps = math.log(2.0)
    d1, d4, d5 = (0.2, 0.1, 0.7), (0.4, 0.1, 0.5), (0.3, 0.1, 0.6)

    def report(d2: Any, d3: Any) -> dict:
        r = verify(Mechanism(G, [d1, d2, d3, d4, d5]), epsilon=eps)
        return {
            "rows": [list(map(float, d2)), list(map(float, d3))],
            "is_private": bool(r.is_private),
            "delta_required": float(r.delta_required),
            "worst_edge": None if r.worst_edge is None else [int(v) for v in r.worst_edge],
            "witness": [int(v) for v in r.witness],
        }

    t1, t4 = T(d1, eps, 0.0), T(d4, eps, 0.0)
    try:
        optimal_mechanism(G, epsilon=eps, boundary={0: d1, 3: d4, 4: d5})
        refused, reason = False, ""
    except NoOptimalMechanismError as exc:
        refused, reason = True, str(exc)
    return TableResult(
        "Gu et al., Example 1",
        {
            "epsilon": eps,
            "boundary": {"d1": d1, "d4": d4, "d5": d5},
            "M1": report((0.4, 0.2, 0.4), (0.4, 0.2, 0.4)),
            "M2": report((0.4, 0.1, 0.5), (0.7, 0.05, 0.25)),
            "T(M(d1))": t1,
            "T(M(d4))": t4,
            "M3": report(t1, t4),
            "optimum_refused": refused,
            "refusal": reason,
        },
    )


def count_example1() -> TableResult:
    r"""Sadeghi et al., Example 1: the two-point laws (2) for N = 3, η = 1/2, D = 2
    (:func:`rainbowdp.noise.count.two_point`), each on z = -2..2.

    Examples
    --------
    >>> count_example1().values["p^(-1,2)(.|1)"]
    [0.0, 0.3333333333333333, 0.5, 0.0, 0.16666666666666666]
    """
    from ..noise.count import two_point

    laws = {(1, -1, 1), (1, -1, 2), (2, -2, 2), (2, -2, 1)}
    return TableResult(
        "Sadeghi et al., Example 1",
        {
            "N": 3,
            "eta": 0.5,
            "D": 2,
            "z": list(range(-2, 3)),
            **{
                f"p^({i1},{i2})(.|{n})": two_point(n, 2, i1, i2, eta=0.5).tolist()
                for n, i1, i2 in sorted(laws)
            },
        },
    )


def _example1_pmf() -> tuple[Any, np.ndarray]:
    from ..noise import tablebuilder as tb

    d = tb.design(_abs.ABS_EXAMPLE1["epsilon"], _abs.ABS_EXAMPLE1["delta"])
    return d, d.pmf


def abs_example2() -> TableResult:
    r"""Sadeghi & Chien, Example 2: the quantised CDF (4.2) of Example 1's PMF at KEYSIZE 2^32
    and 2^8, and two lookups (4.3) (:mod:`rainbowdp.cellkey`).

    Examples
    --------
    >>> abs_example2().values["cq_2^32"][:3].tolist()
    [425760, 1126343, 2255949]
    """
    from ..cellkey import lookup, post_sampling, quantised_cdf

    d, p = _example1_pmf()
    cq = quantised_cdf(p, 2**32)
    cq8 = quantised_cdf(p, 2**8)
    ps8 = post_sampling(cq8, 2**8)
    return TableResult(
        "Sadeghi & Chien, Example 2",
        {
            "D": d.D,
            "cdf": np.cumsum(p),
            "cq_2^32": cq,
            "lookup": {k: int(lookup(cq, k, low=-d.D)) for k in (2552, 1200124)},
            "cq_2^8": cq8,
            "full_support_2^8": bool(ps8.full_support),
            "lost_2^8": list(ps8.lost),
        },
    )


def abs_example3() -> TableResult:
    r"""Sadeghi & Chien, Example 3: the quantised PMF (4.5) at KEYSIZE 2^32 and its
    post-sampling measures (4.6)-(4.11) (:func:`rainbowdp.cellkey.post_sampling`).

    ``epsilon_q`` is the library's :math:`\epsilon^Q`, rounded up (relative 1e-12) so that it
    is never below the true value; ``epsilon_q_exact`` is the exact value, the logarithm of the
    largest ratio of adjacent key counts of the quantised CDF taken to 40 digits, rounded to
    the nearest float (the number to compare with the paper's 15 printed digits).

    Examples
    --------
    >>> int(abs_example3().values["cq"][-2])
    4294541537
    """
    from ..cellkey import post_sampling, quantised_cdf, quantised_pmf

    d, p = _example1_pmf()
    cq = quantised_cdf(p, 2**32)
    ps = post_sampling(cq, 2**32, epsilon=d.epsilon)
    counts = np.diff(np.concatenate([[0], np.asarray(cq, dtype=np.int64)])).tolist()
    ratio = max(
        Fraction(max(a, b), min(a, b)) for a, b in itertools.pairwise(int(c) for c in counts)
    )
    with decimal.localcontext() as ctx:
        ctx.prec = 40
        exact = (Decimal(ratio.numerator) / Decimal(ratio.denominator)).ln()
    return TableResult(
        "Sadeghi & Chien, Example 3",
        {
            "design_epsilon": d.epsilon,
            "design_delta": d.delta,
            "cq": cq,
            "pq": quantised_pmf(cq, 2**32),
            "bias": ps.bias,
            "variance": ps.variance,
            "epsilon_q": ps.epsilon,
            "epsilon_q_exact": float(exact),
            "epsilon_q_ratio": f"{ratio.numerator}/{ratio.denominator}",
            "delta_q": ps.delta,
            "full_support": bool(ps.full_support),
        },
    )


# -------------------------------------------------------------------------------- registry
_P = functools.partial
_K, _S, _A = _kadam, _sadeghi, _abs

#: (name, description, paper, make), in the order of the index.
_SPECS: tuple[tuple[str, str, str, Callable[[], Any]], ...] = (
    ("fig3", "Gu et al., Fig. 3", "gu", _rainbow.figure_3),
    ("fig4", "Gu et al., Fig. 4", "gu", _rainbow.figure_4),
    ("fig5", "Gu et al., Fig. 5", "gu", _rainbow.figure_5),
    ("gu-example1", "Gu et al., Example 1", "gu", gu_example1),
    ("table1", "Kadam et al., Table 1", "kadam", _K.kadam_table1),
    ("fig5a", "Kadam et al., Fig. 5a", "kadam", _P(_K.kadam_figure5, "a")),
    ("fig5b", "Kadam et al., Fig. 5b", "kadam", _P(_K.kadam_figure5, "b")),
    ("fig6", "Kadam et al., Fig. 6 (clamping)", "kadam", _K.kadam_figure6),
    ("fig7a", "Kadam et al., Fig. 7a", "kadam", _P(_K.kadam_figure7, "a")),
    ("fig7b", "Kadam et al., Fig. 7b", "kadam", _P(_K.kadam_figure7, "b")),
    ("fig8", "Kadam et al., Fig. 8", "kadam", _K.kadam_figure8),
    ("fig9a", "Kadam et al., Fig. 9a", "kadam", _P(_K.kadam_figure9, "a")),
    ("fig9b", "Kadam et al., Fig. 9b", "kadam", _P(_K.kadam_figure9, "b")),
    ("fig10a", "Kadam et al., Fig. 10a", "kadam", _P(_K.kadam_figure10, "a")),
    ("fig10b", "Kadam et al., Fig. 10b", "kadam", _P(_K.kadam_figure10, "b")),
    ("fig11a", "Kadam et al., Fig. 11a", "kadam", _P(_K.kadam_figure11, "a")),
    ("fig11b", "Kadam et al., Fig. 11b", "kadam", _P(_K.kadam_figure11, "b")),
    ("fig12a", "Kadam et al., Fig. 12a", "kadam", _P(_K.kadam_figure12, "a")),
    ("fig12b", "Kadam et al., Fig. 12b", "kadam", _P(_K.kadam_figure12, "b")),
    ("fig13a", "Kadam et al., Fig. 13a / eq. (59)", "kadam", _P(_K.kadam_figure13, "a")),
    ("fig13b", "Kadam et al., Fig. 13b", "kadam", _P(_K.kadam_figure13, "b")),
    ("fig14", "Kadam et al., Fig. 14 (synthetic data)", "kadam", _K.kadam_figure14),
    ("count-example1", "Sadeghi et al., Example 1", "sadeghi", count_example1),
    ("count-fig1", "Sadeghi et al., Fig. 1", "sadeghi", _S.sadeghi_figure1),
    ("count-fig2", "Sadeghi et al., Fig. 2", "sadeghi", _S.sadeghi_figure2),
    ("count-fig3a", "Sadeghi et al., Fig. 3 (ε = 1.1)", "sadeghi", _P(_S.sadeghi_figure3, "a")),
    ("count-fig3b", "Sadeghi et al., Fig. 3 (ε = 2.2)", "sadeghi", _P(_S.sadeghi_figure3, "b")),
    ("count-fig4", "Sadeghi et al., Fig. 4", "sadeghi", _S.sadeghi_figure4),
    ("abs-fig1", "Sadeghi & Chien, Fig. 1", "abs", _A.abs_figure1),
    ("abs-fig2", "Sadeghi & Chien, Fig. 2", "abs", _A.abs_figure2),
    ("abs-fig3", "Sadeghi & Chien, Fig. 3 / Example 1", "abs", _A.abs_figure3),
    ("abs-example2", "Sadeghi & Chien, Example 2", "abs", abs_example2),
    ("abs-example3", "Sadeghi & Chien, Example 3", "abs", abs_example3),
    ("abs-fig4", "Sadeghi & Chien, Fig. 4 (KEYSIZE)", "abs", _A.abs_figure4),
    ("abs-fig5", "Sadeghi & Chien, Fig. 5 (KEYSIZE)", "abs", _A.abs_figure5),
    ("abs-optimal", "optimal table vs max-entropy table", "abs", _A.abs_optimal_comparison),
)

_NO_NUMBERS = "the paper prints no number for it (its caption gives the parameters only)"
#: Notes of the targets, shown in the index.
_NOTES = {
    "fig11a": _NO_NUMBERS,
    "fig11b": _NO_NUMBERS,
    "fig12b": _NO_NUMBERS,
    "fig14": "the paper's smart-meter data is not public; seeded synthetic data is used",
    "fig5b": "the paper's 'discrete count mechanism' (its reference [10], Sadeghi et al.) is "
    "drawn as rainbowdp.noise.count's law (14) with the α* of Theorem 3, D = 3, taken modulo "
    "n + 1 = 8, at the largest η whose PDP leakage is at most δ = 0.5 (the caption gives "
    "neither D nor how it was calibrated); the discrete Gaussian is not in this panel, as in "
    "the caption",
    "fig7b": "the paper's 'discrete count mechanism' (its reference [10], Sadeghi et al.) is "
    "drawn as rainbowdp.noise.count's law (14) with η = 0.7 (error rate 0.3) and the α* of "
    "Theorem 3 at each ε, D = 3, taken modulo n + 1 = 8 (the caption gives no D); its PDP "
    "leakage coincides with the modular discrete Gaussian's on this grid",
    "count-fig3a": "substitution: the curves are the true δ* (the constraint Proposition 4 "
    "omits restored, erratum 16), not the paper's Theorem 3; they differ at η ≤ 0.1, where "
    "the figure marks the paper's (lower) values with x",
    "count-fig3b": "substitution: the curves are the true δ* (erratum 16), not the paper's "
    "Theorem 3; they differ at η = 0.025, where the figure marks the paper's (lower) value "
    "with x",
    "abs-fig3": "drawn at z = −25..25 (the paper's figure); the printed masses are read at "
    "z = 0, ±1, ±2, ±12, ±24, ±25",
    "abs-optimal": "beyond the paper: the table with the smallest exact δ under the paper's "
    "constraints (zero bias, variance cap, support [−D, D])",
}


def _build() -> Mapping[str, Target]:
    out: dict[str, Target] = {}
    for name, description, paper, make in _SPECS:
        printed, extractors = PRINTED.get(name, {}), EXTRACTORS.get(name, {})
        if set(printed) != set(extractors) or paper not in PAPERS or name in out:
            raise RuntimeError(  # pragma: no cover - a broken registry fails at import
                f"registry entry {name!r}: printed values without an extractor "
                f"{sorted(set(printed) - set(extractors))}, extractors without a printed value "
                f"{sorted(set(extractors) - set(printed))}"
            )
        checks = tuple(Check(k, printed[k], extractors[k]) for k in printed)
        out[name] = Target(name, description, paper, make, checks, _NOTES.get(name, ""))
    unknown = (set(PRINTED) | set(EXTRACTORS) | set(_NOTES)) - set(out)
    if unknown:  # pragma: no cover
        raise RuntimeError(f"printed values or notes of unknown targets {sorted(unknown)}")
    return MappingProxyType(out)


#: name -> :class:`Target`, every figure, table and example the library reproduces, in the
#: order of the index (paper by paper).
TARGETS: Mapping[str, Target] = _build()
