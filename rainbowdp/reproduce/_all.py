r"""Every figure, table and worked example the library reproduces, and a runner that regenerates
them all and writes an index comparing each printed number with the recomputed one.

:data:`TARGETS` is the registry: name -> :class:`Target` (the function computing the figure or
table, a description, the paper, and its :class:`Check`\ s -- a printed value of
:data:`rainbowdp.reproduce._printed.PRINTED` paired with a function reading the recomputed value
off the result). :func:`reproduce_all` runs the targets, writes ``NAME.png`` (and ``NAME.json``
where the result has ``to_dict``), ``index.md`` and ``index.html``, and returns a
:class:`ReproductionSummary`. Every recomputed value is read off the result of running the
library when the index is built; none is typed in.

Besides the figures of ``rainbowdp reproduce NAME``, four worked examples are targets (tables,
no image): Gu et al., Example 1 (``gu-example1``), Sadeghi et al., Example 1
(``count-example1``) and Sadeghi & Chien, Examples 2 and 3 (``abs-example2``,
``abs-example3``); Sadeghi & Chien's Example 1 is ``abs-fig3``.
"""

from __future__ import annotations

import functools
import html
import itertools
import json
import math
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError
from . import abs as _abs
from . import kadam as _kadam
from . import rainbow as _rainbow
from . import sadeghi as _sadeghi
from ._printed import PAPERS, PRINTED, Printed

__all__ = [
    "TARGETS",
    "Check",
    "CheckResult",
    "ReproductionSummary",
    "TableResult",
    "Target",
    "TargetResult",
    "abs_example2",
    "abs_example3",
    "count_example1",
    "gu_example1",
    "reproduce_all",
]

#: Accepted range of ``dpi`` (as ``rainbowdp reproduce --dpi``).
MIN_DPI, MAX_DPI = 10, 1200
#: The status of a check whose recomputed value agrees with the printed one.
AGREE = "yes"
#: The status of a check that disagrees (or whose extraction failed: ``"error"``).
DISAGREE = "no"
#: The status of a check that cannot be compared (e.g. the paper's private data).
NOT_COMPARABLE = "n/a"


# --------------------------------------------------------------------------------- data model
@dataclass(frozen=True)
class Check:
    r"""A printed value and how to read the recomputed one off a target's result.

    Attributes
    ----------
    key : str
        The key of the printed value in :data:`~rainbowdp.reproduce._printed.PRINTED`.
    printed : Printed
        The printed value, its citation, tolerance and erratum.
    extract : callable
        ``extract(result)`` -> the recomputed value; for ``printed.kind == "claim"`` a pair
        ``(shown, holds)``, for ``"info"`` the text shown.
    """

    key: str
    printed: Printed
    extract: Callable[[Any], Any] = field(repr=False, compare=False)


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


@dataclass(frozen=True)
class TableResult:
    r"""The result of a target that is a table or a worked example, not a figure.

    Attributes
    ----------
    name : str
        e.g. ``"Gu et al., Example 1"``.
    values : dict
        The recomputed numbers (plain Python and numpy values).
    figure : None
        Tables have no image.
    """

    name: str
    values: dict = field(repr=False)
    figure: None = None

    def to_dict(self) -> dict:
        """Plain lists and numbers, e.g. for JSON."""
        return {"name": self.name, "values": _plain(self.values)}


@dataclass(frozen=True)
class CheckResult:
    r"""One printed value beside the recomputed one.

    Attributes
    ----------
    label, citation, note : str
        From the :class:`Printed` entry.
    printed : str
        The value or statement as printed.
    recomputed : Any
        The recomputed value (for a claim: the text shown); None if extracting it failed.
    shown : str
        ``recomputed`` as text (the error message if extracting it failed).
    status : str
        ``"yes"`` (agrees within the printed precision, or the claim holds), ``"no"``,
        ``"erratum N"`` (the paper is wrong here: ``docs/errata.md`` item N), ``"n/a"`` (not
        comparable) or ``"error"`` (extracting the value failed).
    tolerance : float or None
        Half a unit of the printed last digit (0 for exact values; None for claims and bounds).
    kind : str
        How the values are compared (see :mod:`rainbowdp.reproduce._printed`).
    """

    label: str
    printed: str
    recomputed: Any
    shown: str
    status: str
    tolerance: float | None
    kind: str
    citation: str
    note: str

    @property
    def ok(self) -> bool:
        """The check agrees, is a documented erratum, or is not comparable."""
        return self.status not in (DISAGREE, "error")

    def to_dict(self) -> dict:
        """Plain values, e.g. for JSON."""
        return {
            "label": self.label,
            "printed": self.printed,
            "recomputed": _plain(self.recomputed),
            "shown": self.shown,
            "status": self.status,
            "tolerance": self.tolerance,
            "kind": self.kind,
            "citation": self.citation,
            "note": self.note,
        }


@dataclass(frozen=True)
class TargetResult:
    r"""What :func:`reproduce_all` did for one target.

    Attributes
    ----------
    name, description, paper : str
        From the :class:`Target`.
    image, data : str or None
        The file names written in the output directory (``NAME.png``, ``NAME.json``).
    seconds : float
        Wall time of computing, checking and writing the target.
    checks : tuple of CheckResult
    error : str or None
        ``"TypeName: message"`` if computing the target failed (then nothing was written).
    note : str
        The target's note.
    """

    name: str
    description: str
    paper: str
    image: str | None
    data: str | None
    seconds: float
    checks: tuple[CheckResult, ...]
    error: str | None = None
    note: str = ""

    @property
    def ok(self) -> bool:
        """No error and every check agrees, is a documented erratum or is not comparable."""
        return self.error is None and all(c.ok for c in self.checks)

    def to_dict(self) -> dict:
        """Plain values, e.g. for JSON."""
        return {
            "name": self.name,
            "description": self.description,
            "paper": self.paper,
            "image": self.image,
            "data": self.data,
            "seconds": self.seconds,
            "error": self.error,
            "ok": self.ok,
            "checks": [c.to_dict() for c in self.checks],
        }


@dataclass(frozen=True)
class ReproductionSummary:
    r"""The result of :func:`reproduce_all`.

    Attributes
    ----------
    directory : pathlib.Path
        Where the files were written.
    targets : tuple of TargetResult
        In the order of the run.
    seconds : float
        Wall time of the whole run (writing the index included).
    index_markdown, index_html : pathlib.Path
        The two index files.
    """

    directory: Path
    targets: tuple[TargetResult, ...]
    seconds: float
    index_markdown: Path
    index_html: Path

    @property
    def counts(self) -> dict[str, int]:
        """Number of checks that agree, are errata, disagree (or failed) and are not
        comparable, and the number of targets that failed."""
        statuses = [c.status for t in self.targets for c in t.checks]
        return {
            "checks": len(statuses),
            "agree": statuses.count(AGREE),
            "erratum": sum(s.startswith("erratum") for s in statuses),
            "disagree": sum(s in (DISAGREE, "error") for s in statuses),
            "not_comparable": statuses.count(NOT_COMPARABLE),
            "failed_targets": sum(t.error is not None for t in self.targets),
        }

    @property
    def ok(self) -> bool:
        """Every target ran and every check agrees, is a documented erratum or is not
        comparable."""
        return all(t.ok for t in self.targets)

    def to_dict(self) -> dict:
        """Plain values, e.g. for JSON."""
        return {
            "directory": str(self.directory),
            "seconds": self.seconds,
            "ok": self.ok,
            "counts": self.counts,
            "index": {"markdown": str(self.index_markdown), "html": str(self.index_html)},
            "targets": [t.to_dict() for t in self.targets],
        }


def _plain(x: Any) -> Any:
    """JSON types only; non-finite numbers become None."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple | set | frozenset):
        items = sorted(x, key=repr) if isinstance(x, set | frozenset) else x
        return [_plain(v) for v in items]
    if isinstance(x, np.ndarray):
        return _plain(x.tolist())
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if x is None or isinstance(x, bool | int | str):
        return x
    return str(x)


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

    Examples
    --------
    >>> int(abs_example3().values["cq"][-2])
    4294541537
    """
    from ..cellkey import post_sampling, quantised_cdf, quantised_pmf

    d, p = _example1_pmf()
    cq = quantised_cdf(p, 2**32)
    ps = post_sampling(cq, 2**32, epsilon=d.epsilon)
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
            "delta_q": ps.delta,
            "full_support": bool(ps.full_support),
        },
    )


# ------------------------------------------------------------------------------- extractors
def _claim(shown: str, holds: bool) -> tuple[str, bool]:
    return shown, bool(holds)


def _g(x: float, digits: int = 4) -> str:
    return format(float(x), f".{digits}g")


def _list(xs: Iterable[float], digits: int = 4) -> str:
    return ", ".join(_g(x, digits) for x in xs)


def _gu_checks(fig: int) -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {
        f"tau_{k + 1}": (lambda f, k=k: int(f.tau[k])) for k in range(5)
    }
    if fig == 3:

        def m(c: float) -> Callable[[Any], float]:
            return lambda f: c * math.exp(f.epsilon) / (1.0 + math.exp(f.epsilon))

        out |= {"m_1": m(0.001), "m_2": m(0.015), "m_3": m(0.25), "m_4": m(0.5)}
        out["m_5"] = lambda f: 1.0 - math.fsum(f.boundary[:4])
    return out


def _gu_example1_checks() -> dict[str, Callable[[Any], Any]]:
    def private(which: str) -> Callable[[Any], Any]:
        def get(t: TableResult) -> tuple[str, bool]:
            r = t.values[which]
            return _claim(
                f"verify: {'ε-DP' if r['is_private'] else 'not ε-DP'} "
                f"(δ required {_g(r['delta_required'])})",
                r["is_private"],
            )

        return get

    def not_private(t: TableResult) -> tuple[str, bool]:
        r = t.values["M3"]
        a, b = r["worst_edge"]
        return _claim(
            f"verify: not ε-DP; edge d{a + 1} ~ d{b + 1}, output {r['witness']}, "
            f"δ required {_g(r['delta_required'])}",
            not r["is_private"],
        )

    def refused(t: TableResult) -> tuple[str, bool]:
        ok = t.values["optimum_refused"]
        return _claim(
            "optimal_mechanism raises NoOptimalMechanismError" if ok else "an optimum was built",
            ok,
        )

    return {
        "M1_private": private("M1"),
        "M2_private": private("M2"),
        "M3_d2": lambda t: tuple(t.values["T(M(d1))"]),
        "M3_d3": lambda t: tuple(t.values["T(M(d4))"]),
        "M3_not_private": not_private,
        "no_optimum": refused,
    }


def _pmf_entry(delta: float, eta: int) -> Callable[[Any], float]:
    return lambda f: float(f.pmfs[list(f.deltas).index(delta)][eta])


def _ordered(order: list[int]) -> Callable[[Any], tuple[str, bool]]:
    def get(f: Any) -> tuple[str, bool]:
        bad = [
            d
            for d, p in zip(f.deltas, f.pmfs, strict=True)
            if any(p[i] < p[j] - 1e-12 for i, j in itertools.pairwise(order))
        ]
        shown = "holds at every δ drawn" if not bad else f"fails at δ = {_list(bad)}"
        return _claim(f"{shown} (δ = {_list(f.deltas)})", not bad)

    return get


def _fig9_checks(panel: str) -> dict[str, Callable[[Any], Any]]:
    if panel == "a":

        def positive(f: Any) -> tuple[str, bool]:
            low = float(f.pmfs[list(f.deltas).index(0.0)].min())
            return _claim(f"smallest mass at δ = 0: {_g(low)}", low > 0)

        def grows(f: Any) -> tuple[str, bool]:
            f0 = f.pmfs[:, 0]
            return _claim(
                f"f*(0) = {_list(f0)} at δ = {_list(f.deltas)}",
                bool(np.all(np.diff(f0) >= -1e-12) and f0[-1] > f0[0]),
            )

        return {
            "order": _ordered([0, 3, 6, 1, 4, 7, 2, 5]),
            "positive": positive,
            "f0_grows": grows,
        }

    def zeros(f: Any) -> tuple[str, bool]:
        top = float(f.pmfs[:, [1, 3, 5, 7]].max())
        return _claim(f"largest mass at odd η: {_g(top)}", top == 0.0)

    return {"zeros": zeros, "order": _ordered([0, 2, 4, 6])}


def _second_largest(f: Any) -> set[tuple[int, int]]:
    p = np.asarray(f.pmfs[0])
    flat = np.sort(p.ravel())[::-1]
    second = flat[flat < flat[0] - 1e-6][0]
    return {(int(i), int(j)) for i, j in zip(*np.nonzero(np.abs(p - second) <= 1e-6), strict=True)}


def _beats(panel: int = 0, *, positive_only: bool) -> Callable[[Any], tuple[str, bool]]:
    """The optimum's series below every competitor's at every grid point (only where the
    competitor's value is positive, if ``positive_only``)."""

    def get(f: Any) -> tuple[str, bool]:
        p = f.panels[panel]
        opt = np.asarray(p.series["optimal (MILP)"], dtype=float)
        failures, margin = [], math.inf
        for label, values in p.series.items():
            if label == "optimal (MILP)":
                continue
            v = np.asarray(values, dtype=float)
            mask = v > 1e-12 if positive_only else np.ones(v.shape, bool)
            gap = v[mask] - opt[mask]
            if gap.size:
                margin = min(margin, float(gap.min()))
            bad = mask & ~(v - opt > 1e-9)
            if bad.any():
                failures.append(f"{label} at ε = {_list(p.x[bad])} (both {_list(v[bad])})")
        if failures:
            return _claim("not below: " + "; ".join(failures), False)
        return _claim(f"below at every ε; smallest margin {_g(margin)}", True)

    return get


def _fig6_clamping(f: Any) -> tuple[str, bool]:
    pdp, dp = f.findings["pdp_increase_by_clamping"], f.findings["dp_excess_of_clamped"]
    star = f.findings["pure_dp_epsilon"]["discrete Gaussian"]
    shown = (
        "PDP δ raised by up to "
        + ", ".join(f"{_g(v)} ({k})" for k, v in pdp.items())
        + f", the discrete Gaussian's only below ε = {_g(star)}; (ε, δ)-DP δ raised by at most "
        + _g(max(dp.values()))
    )
    return _claim(shown, all(v > 1e-9 for v in pdp.values()))


def _fig8_checks() -> dict[str, Callable[[Any], Any]]:
    opt = "optimal (eps = 1, delta = 0)"

    def largest(f: Any) -> tuple[str, bool]:
        s = f.panels[0].series
        others = [float(v[0]) for k, v in s.items() if k != opt]
        return _claim(f"f*(0) = {_g(s[opt][0])} against {_list(others)}", s[opt][0] > max(others))

    def same(f: Any) -> tuple[str, bool]:
        mse = list(f.findings["mse"].values())
        return _claim(f"MSE {_list(mse)}", max(mse) <= 1.01 * min(mse))

    return {"largest_f0": largest, "same_mse": same}


def _fig12a(f: Any) -> tuple[str, bool]:
    s = f.panels[0].series
    gap = max(
        float(np.max(np.abs(np.asarray(s[k]) - np.asarray(s[f"closed form, {k}"]))))
        for k in s
        if not k.startswith("closed form")
    )
    return _claim(f"largest |MILP − Theorem 2| = {_g(gap, 2)}", gap <= 1e-5)


def _fig14_checks() -> dict[str, Callable[[Any], Any]]:
    def shifts(n: int) -> Callable[[Any], str]:
        return lambda f: "{" + ", ".join(map(str, f.findings["shifts"][f"n = {n}"])) + "}"

    def larger(f: Any) -> tuple[str, bool]:
        ratios = []
        for key, pmf in f.findings["pmfs"].items():
            inside = [0, *f.findings["shifts"][key]]
            outside = np.setdiff1d(np.arange(pmf.size), inside)
            ratios.append(float(pmf[inside].min() / pmf[outside].max()))
        return _claim(
            f"smallest mass on M ∪ {{0}} / largest elsewhere: {_list(ratios)}",
            min(ratios) > 1.0,
        )

    return {"M_10": shifts(10), "M_16": shifts(16), "larger_on_M": larger}


def _count_fig1_checks() -> dict[str, Callable[[Any], Any]]:
    def f_(*path: str) -> Callable[[Any], Any]:
        def get(f: Any) -> Any:
            v = f.findings
            for p in path:
                v = v[p]
            return v

        return get

    def same_variance(f: Any) -> tuple[str, bool]:
        g, ours = f.findings["gaussian_paper"]["variance"], f.findings["ours"]["variance"]
        return _claim(
            f"discrete Gaussian variance {_g(g)}; law (14) variance {_g(ours)}",
            abs(g - ours) <= 5e-5,
        )

    return {
        "E": f_("E"),
        "C": f_("C"),
        "C_2": f_("crossovers", "C_2"),
        "C_3": f_("crossovers", "C_3"),
        "delta_tilde": f_("delta_tilde"),
        "support": f_("support"),
        "pZ1": f_("ours", "p(1)"),
        "pZ2": f_("ours", "p(2)"),
        "ratio": f_("ours", "ratio"),
        "pG1": f_("gaussian_paper", "p(1)"),
        "pG2": f_("gaussian_paper", "p(2)"),
        "pG_ratio": f_("gaussian_paper", "ratio"),
        "pG_epsilon": f_("gaussian_paper", "epsilon_1_2"),
        "our_epsilon": f_("ours", "singleton_epsilon"),
        "same_variance": same_variance,
    }


def _count_fig2_claim(f: Any) -> tuple[str, bool]:
    c = f.findings["claim"]
    holds = bool(c["holds_on_grid_from_1.1"]) and c["bound_at_1.1"] <= c["delta"]
    return _claim(
        f"{_g(c['bound_at_1.1'], 3)} at ε = 1.1; at most {_g(c['delta'])} at every grid ε ≥ 1.1: "
        f"{c['holds_on_grid_from_1.1']}; from ε = {_g(c['threshold_epsilon'], 5)} exactly",
        holds,
    )


def _knee(f: Any) -> tuple[str, bool]:
    c = f.findings["claim"]
    knee = f.findings["knee_eta"][f"D = {c['D']}"]
    return _claim(f"knee at η = {_g(knee, 5)}", c["eta"] < knee <= c["eta"] + 0.01)


def _count_example1_checks() -> dict[str, Callable[[Any], Any]]:
    def at(law: str, z: int) -> Callable[[Any], float]:
        return lambda t: t.values[law][z + 2]

    laws = {
        "p11": "p^(-1,1)(.|1)",
        "p12": "p^(-1,2)(.|1)",
        "p22": "p^(-2,2)(.|2)",
        "p21": "p^(-2,1)(.|2)",
    }
    out: dict[str, Callable[[Any], Any]] = {}
    for key in PRINTED["count-example1"]:  # "p12_-1": the law p^(-1,2) at z = -1
        law, z = key.split("_")
        out[key] = at(laws[law], int(z))
    return out


def _abs_fig1_checks() -> dict[str, Callable[[Any], Any]]:
    def gamma(D: int, V: int) -> Callable[[Any], float]:
        return lambda f: f.findings["gamma"][f"D={D}, V={V}"]

    return {f"g_{D}_{V}": gamma(D, V) for D in (11, 15) for V in (4, 10)}


def _abs_fig2_checks() -> dict[str, Callable[[Any], Any]]:
    def gaps(f: Any) -> tuple[str, bool]:
        g = f.findings["largest_gap"]
        return _claim(
            "up to " + ", ".join(f"{_g(v, 3)} ({k})" for k, v in g.items()),
            max(g.values()) <= 1.1,
        )

    def d_helps(f: Any) -> tuple[str, bool]:
        s = f.panels[0].series
        a = np.asarray(s["D = 15: (2.27), gamma -> eps/(2D-1)"])
        b = np.asarray(s["D = 11: (2.27), gamma -> eps/(2D-1)"])
        return _claim(
            f"largest ratio D = 15 / D = 11: {_g(float(np.max(a / b)), 3)}", bool(np.all(a < b))
        )

    return {"gaps": gaps, "D_helps": d_helps}


def _abs_fig3_checks() -> dict[str, Callable[[Any], Any]]:
    def pmf(f: Any) -> np.ndarray:
        return np.asarray(next(iter(f.panels[0].series.values())))

    def at(z: int) -> Callable[[Any], float]:
        return lambda f: float(pmf(f)[f.findings["D"] + z])

    def symmetric(f: Any) -> tuple[str, bool]:
        p = pmf(f)
        gap = float(np.max(np.abs(p - p[::-1])))
        return _claim(f"largest |p(z) − p(−z)| = {_g(gap)}", gap == 0.0)

    out: dict[str, Callable[[Any], Any]] = {
        "D": lambda f: f.findings["D"],
        "delta": lambda f: f.findings["delta"],
        "V": lambda f: f.findings["variance"],
    }
    for z in (0, 1, 2, 12, 24, 25):
        out[f"p{z}"] = at(z)
    out["symmetric"] = symmetric
    return out


def _abs_example2_checks() -> dict[str, Callable[[Any], Any]]:
    def lost(t: TableResult) -> tuple[str, bool]:
        v = t.values
        return _claim(
            f"full support: {v['full_support_2^8']}; lost noise values {v['lost_2^8']}",
            not v["full_support_2^8"],
        )

    return {
        "cdf_-24": lambda t: t.values["cdf"][1],
        "cdf_-23": lambda t: t.values["cdf"][2],
        "cq_-25": lambda t: int(t.values["cq_2^32"][0]),
        "cq_-24": lambda t: int(t.values["cq_2^32"][1]),
        "cq_-23": lambda t: int(t.values["cq_2^32"][2]),
        "cq_25": lambda t: int(t.values["cq_2^32"][-1]),
        "key_2552": lambda t: t.values["lookup"][2552],
        "key_1200124": lambda t: t.values["lookup"][1200124],
        "cq8": lambda t: tuple(int(c) for c in t.values["cq_2^8"][:3]),
        "lost8": lost,
    }


def _abs_example3_checks() -> dict[str, Callable[[Any], Any]]:
    def below(t: TableResult) -> tuple[str, bool]:
        e, d = t.values["epsilon_q"], t.values["design_epsilon"]
        return _claim(f"ε^Q = {_g(e, 6)}, ε = {_g(d)}", 0.99 * d < e < d)

    def above(t: TableResult) -> tuple[str, bool]:
        q, d = t.values["delta_q"], t.values["design_delta"]
        return _claim(f"δ^Q/δ = {_g(q / d, 6)}", 1.0 < q / d < 1.01)

    return {
        "pq_-25": lambda t: t.values["pq"][0],
        "pq_-24": lambda t: t.values["pq"][1],
        "pq_-23": lambda t: t.values["pq"][2],
        "cq_24": lambda t: int(t.values["cq"][-2]),
        "pq_25": lambda t: t.values["pq"][-1],
        "bias": lambda t: t.values["bias"],
        "variance": lambda t: t.values["variance"],
        "epsilon": lambda t: t.values["epsilon_q"],
        "below": below,
        "delta": lambda t: t.values["delta_q"],
        "above": above,
    }


def _eq_series(f: Any, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The design ε grid and ε^Q at KEYSIZE 2^k (NaN where the support is lost)."""
    p = f.panels[0]
    return np.asarray(p.x), np.asarray(p.series[f"KEYSIZE = 2^{k}: eps^Q"], dtype=float)


def _abs_fig4_checks() -> dict[str, Callable[[Any], Any]]:
    def full_until(k: int) -> Callable[[Any], float]:
        def get(f: Any) -> float:
            x, eq = _eq_series(f, k)
            lost = np.isnan(eq)
            return float(x[np.argmax(lost) - 1]) if lost.any() and lost.argmax() > 0 else math.nan

        return get

    def full32(f: Any) -> tuple[str, bool]:
        x, eq = _eq_series(f, 32)
        n = int(np.sum(~np.isnan(eq)))
        return _claim(f"full support at {n} of {x.size} ε", n == x.size)

    def above(k: int) -> Callable[[Any], tuple[str, bool]]:
        def get(f: Any) -> tuple[str, bool]:
            x, eq = _eq_series(f, k)
            full = ~np.isnan(eq)
            up = eq[full] > x[full]
            return _claim(f"ε^Q > ε at {int(up.sum())} of {int(full.sum())} ε", bool(up.all()))

        return get

    def close32(f: Any) -> tuple[str, bool]:
        x, eq = _eq_series(f, 32)
        r = eq / x
        return _claim(
            f"ε^Q/ε in [{_g(r.min(), 6)}, {_g(r.max(), 6)}]",
            bool(np.all(r <= 1.0 + 1e-3) and np.all(r >= 0.98)),
        )

    def bias(k: int) -> Callable[[Any], float]:
        """B^Q of largest magnitude over the grid, signed (post-sampling of the design-guide
        law at each ε of the figure)."""

        def get(f: Any) -> float:
            from ..cellkey import post_sampling, quantised_cdf
            from ..noise import tablebuilder as tb

            D = int(f.parameters["D"])
            values = [
                post_sampling(
                    quantised_cdf(tb.pmf(tb.guide_gamma(float(e), D), D), 2**k), 2**k
                ).bias
                for e in f.panels[0].x
            ]
            return float(max(values, key=abs))

        return get

    def order(k: int, exponent: int) -> Callable[[Any], tuple[str, bool]]:
        def get(f: Any) -> tuple[str, bool]:
            v = f.findings[f"KEYSIZE=2^{k}"]["largest_abs_variance_error"]
            return _claim(_g(v, 3), round(math.log10(v)) == exponent)

        return get

    return {
        "full_8": full_until(8),
        "full_16": full_until(16),
        "full_32": full32,
        "above_8": above(8),
        "above_16": above(16),
        "close_32": close32,
        "bias_32": bias(32),
        "bias_16": bias(16),
        "bias_8": bias(8),
        "var_32": order(32, -9),
        "var_16": order(16, -4),
        "var_8": lambda f: f.findings["KEYSIZE=2^8"]["largest_abs_variance_error"],
    }


def _abs_fig5_checks() -> dict[str, Callable[[Any], Any]]:
    def ratio(f: Any, k: int) -> np.ndarray:
        p = f.panels[0]
        return np.asarray(p.series[f"KEYSIZE = 2^{k}: delta^Q"]) / np.asarray(p.x)

    def above8(f: Any) -> tuple[str, bool]:
        r = ratio(f, 8)
        return _claim(f"δ^Q/δ in [{_g(r.min())}, {_g(r.max())}]", bool(np.all(r > 1.0)))

    def same(k: int) -> Callable[[Any], tuple[str, bool]]:
        def get(f: Any) -> tuple[str, bool]:
            r = ratio(f, k)
            return _claim(f"largest δ^Q/δ = {_g(r.max(), 5)}", bool(np.all(np.abs(r - 1) <= 0.01)))

        return get

    return {"above_8": above8, "same_16": same(16), "same_32": same(32)}


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
    ("count-fig3a", "Sadeghi et al., Fig. 3 (eps = 1.1)", "sadeghi", _P(_S.sadeghi_figure3, "a")),
    ("count-fig3b", "Sadeghi et al., Fig. 3 (eps = 2.2)", "sadeghi", _P(_S.sadeghi_figure3, "b")),
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
    "abs-optimal": "beyond the paper: the table with the smallest exact δ under the paper's "
    "constraints (zero bias, variance cap, support [−D, D])",
}

#: name -> key of PRINTED[name] -> function reading the recomputed value off the result.
_EXTRACTORS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "fig3": _gu_checks(3),
    "fig4": _gu_checks(4),
    "fig5": _gu_checks(5),
    "gu-example1": _gu_example1_checks(),
    "table1": {
        f"{d:g}/{eta}": _pmf_entry(d, eta)
        for d, column in _K.KADAM_TABLE1.items()
        for eta in range(len(column))
    },
    "fig5a": {"best": _beats(positive_only=False)},
    "fig5b": {"best": _beats(positive_only=False)},
    "fig6": {
        "mse_gauss": lambda f: f.findings["mse"]["discrete Gaussian, unclamped"],
        "mse_geo": lambda f: f.findings["mse"]["geometric, unclamped"],
        "clamping": _fig6_clamping,
    },
    "fig7a": {"best": _beats(positive_only=True)},
    "fig7b": {"best": _beats(positive_only=True)},
    "fig8": _fig8_checks(),
    "fig9a": _fig9_checks("a"),
    "fig9b": _fig9_checks("b"),
    "fig10a": {"steps": lambda f: _K.step_lengths(f.pmfs[0])},
    "fig10b": {
        f"steps_{d}": (lambda f, i=i: _K.step_lengths(f.pmfs[i]))
        for i, d in enumerate(("0.1212", "0.1238", "0.1522"))
    },
    "fig12a": {"theorem2": _fig12a},
    "fig13a": {
        f"{i},{j}": (lambda f, i=i, j=j: float(f.pmfs[0][i, j])) for i in range(5) for j in range(5)
    },
    "fig13b": {"second": _second_largest},
    "fig14": _fig14_checks(),
    "count-example1": _count_example1_checks(),
    "count-fig1": _count_fig1_checks(),
    "count-fig2": {
        "claim": _count_fig2_claim,
        "range": lambda f: f.findings["range_probability"]["D = 8"],
    },
    "count-fig3a": {"bound": lambda f: f.findings["claim"]["bound"], "knee": _knee},
    "count-fig3b": {"bound": lambda f: f.findings["claim"]["bound"], "knee": _knee},
    "count-fig4": {"from": lambda f: f.findings["superior"]["bound"]["from"]},
    "abs-fig1": _abs_fig1_checks(),
    "abs-fig2": _abs_fig2_checks(),
    "abs-fig3": _abs_fig3_checks(),
    "abs-example2": _abs_example2_checks(),
    "abs-example3": _abs_example3_checks(),
    "abs-fig4": _abs_fig4_checks(),
    "abs-fig5": _abs_fig5_checks(),
}


def _build() -> Mapping[str, Target]:
    out: dict[str, Target] = {}
    for name, description, paper, make in _SPECS:
        printed, extractors = PRINTED.get(name, {}), _EXTRACTORS.get(name, {})
        if set(printed) != set(extractors) or paper not in PAPERS or name in out:
            raise RuntimeError(  # pragma: no cover - a broken registry fails at import
                f"registry entry {name!r}: printed values without an extractor "
                f"{sorted(set(printed) - set(extractors))}, extractors without a printed value "
                f"{sorted(set(extractors) - set(printed))}"
            )
        checks = tuple(Check(k, printed[k], extractors[k]) for k in printed)
        out[name] = Target(name, description, paper, make, checks, _NOTES.get(name, ""))
    unknown = (set(PRINTED) | set(_EXTRACTORS) | set(_NOTES)) - set(out)
    if unknown:  # pragma: no cover
        raise RuntimeError(f"printed values or notes of unknown targets {sorted(unknown)}")
    return MappingProxyType(out)


#: name -> :class:`Target`, every figure, table and example the library reproduces, in the
#: order of the index (paper by paper).
TARGETS: Mapping[str, Target] = _build()


# ---------------------------------------------------------------------------------- running
def _check_result(
    p: Printed, recomputed: Any, shown: str, status: str, note: str | None = None
) -> CheckResult:
    return CheckResult(
        label=p.label,
        printed=p.text,
        recomputed=recomputed,
        shown=shown,
        status=status,
        tolerance=p.tolerance,
        kind=p.kind,
        citation=p.citation,
        note=p.note if note is None else note,
    )


def _evaluate(check: Check, result: Any) -> CheckResult:
    """Compare one printed value with the value read off ``result``."""
    p = check.printed
    try:
        value = check.extract(result)
        if p.kind == "info":
            return _check_result(p, value, str(value), NOT_COMPARABLE)
        if p.kind == "claim":
            shown, agree = value
            recomputed: Any = shown
        else:
            agree, shown, recomputed = p.agrees(value), p.show(value), value
    except Exception as exc:  # a broken extractor is reported in the index, not raised
        return _check_result(p, None, f"{type(exc).__name__}: {exc}", "error")
    if not agree:
        return _check_result(
            p, recomputed, shown, DISAGREE if p.erratum is None else f"erratum {p.erratum}"
        )
    if p.erratum is not None:  # the errata say the paper is wrong here, yet it agrees
        note = f"agrees, although erratum {p.erratum} says it does not. {p.note}".strip()
        return _check_result(p, recomputed, shown, DISAGREE, note)
    return _check_result(p, recomputed, shown, AGREE)


def _run(target: Target, directory: Path, dpi: int) -> TargetResult:
    t0 = time.perf_counter()

    def finish(
        checks: tuple[CheckResult, ...],
        image: str | None,
        data: str | None,
        error: str | None = None,
    ) -> TargetResult:
        return TargetResult(
            name=target.name,
            description=target.description,
            paper=target.paper,
            image=image,
            data=data,
            seconds=time.perf_counter() - t0,
            checks=checks,
            error=error,
            note=target.note,
        )

    try:
        result = target.make()
    except Exception as exc:  # one failing target must not lose the index of the others
        failed = tuple(
            _check_result(c.printed, None, "not computed", "error") for c in target.checks
        )
        return finish(failed, None, None, f"{type(exc).__name__}: {exc}")
    checks = tuple(_evaluate(c, result) for c in target.checks)
    image = data = None
    figure = getattr(result, "figure", None)
    if figure is not None:
        image = f"{target.name}.png"
        figure.savefig(directory / image, dpi=dpi, bbox_inches="tight")
    if hasattr(result, "to_dict"):
        data = f"{target.name}.json"
        text = json.dumps(_plain(result.to_dict()), allow_nan=False, ensure_ascii=False)
        (directory / data).write_text(text + "\n", encoding="utf-8")
    return finish(checks, image, data)


class _Silent:
    def start(self, name: str) -> None:
        pass

    def done(self, result: TargetResult) -> None:
        pass

    def close(self) -> None:
        pass


def _tally(result: TargetResult) -> str:
    if result.error is not None:
        return f"FAILED: {result.error}"
    n = len(result.checks)
    if not n:
        return "no printed values"
    agree = sum(c.status == AGREE for c in result.checks)
    errata = sum(c.status.startswith("erratum") for c in result.checks)
    other = sum(c.status == NOT_COMPARABLE for c in result.checks)
    bad = sum(not c.ok for c in result.checks)
    text = f"{agree}/{n} agree"
    if errata:
        text += f", {errata} errata"
    if other:
        text += f", {other} not comparable"
    if bad:
        text += f", {bad} DISAGREE"
    return text


class _Lines(_Silent):
    """One line per target on ``stream`` (when tqdm is not installed)."""

    def __init__(self, total: int, stream: Any) -> None:
        self.total, self.stream, self.k = total, stream, 0

    def done(self, result: TargetResult) -> None:
        self.k += 1
        width = len(str(self.total))
        print(
            f"[{self.k:>{width}}/{self.total}] {result.name:<14} {result.seconds:6.2f} s  "
            f"{_tally(result)}",
            file=self.stream,
            flush=True,
        )


class _Bar(_Silent):
    """A tqdm progress bar on ``stream``."""

    def __init__(self, tqdm: Any, total: int, stream: Any) -> None:
        self.bar = tqdm(total=total, file=stream, unit="target", desc="reproduce")

    def start(self, name: str) -> None:
        self.bar.set_postfix_str(name)

    def done(self, result: TargetResult) -> None:
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()


def _progress(total: int, progress: bool | None, stream: Any) -> _Silent:
    if progress is None:
        try:
            progress = bool(stream.isatty())
        except (AttributeError, ValueError):  # no stream, or a closed one
            progress = False
    if not progress:
        return _Silent()
    try:
        from tqdm import tqdm
    except ImportError:
        return _Lines(total, stream)
    return _Bar(tqdm, total, stream)


def _check_directory(directory: Any) -> Path:
    if isinstance(directory, bytes) or not isinstance(directory, str | Path):
        raise ParameterTypeError(
            f"`directory` must be a path (str or pathlib.Path), got directory={directory!r}."
        )
    path = Path(directory)
    if str(directory) == "":
        raise ParameterError("`directory` must be a non-empty path, got directory=''.")
    if path.exists() and not path.is_dir():
        raise ParameterError(
            f"`directory` must be a directory, got directory={str(directory)!r}, an existing file."
        )
    return path


def _check_names(names: Any) -> tuple[str, ...]:
    if names is None:
        return tuple(TARGETS)
    if isinstance(names, str):
        names = [names]
    try:
        items = list(names)
    except TypeError:
        raise ParameterTypeError(
            f"`names` must be a sequence of target names, got names={names!r}."
        ) from None
    if not items:
        raise ParameterError("`names` must name at least one target, got names=[].")
    bad = [n for n in items if not isinstance(n, str) or n not in TARGETS]
    if bad:
        raise ParameterError(f"`names` holds unknown targets {bad}; known: {', '.join(TARGETS)}.")
    return tuple(dict.fromkeys(items))


def reproduce_all(
    directory: str | Path,
    *,
    names: Iterable[str] | None = None,
    progress: bool | None = None,
    dpi: int = 120,
) -> ReproductionSummary:
    r"""Regenerate every figure and table of the papers and index them.

    For each target of :data:`TARGETS` (or of ``names``): compute it, compare every printed
    value with the recomputed one, write ``NAME.png`` (figures) and ``NAME.json`` (data, where
    the result has ``to_dict``) into ``directory``; then write ``index.md`` and ``index.html``:
    one table per paper listing, for each target, its file and each printed value beside the
    recomputed one, the tolerance the printed digits imply, and whether they agree ("yes",
    "no", "erratum N" where ``docs/errata.md`` item N says the paper is wrong, "n/a" where the
    value cannot be compared).

    Parameters
    ----------
    directory : str or pathlib.Path
        Output directory, created if missing; an existing file is refused.
    names : iterable of str, optional
        The targets to run (default all, in the index order); duplicates are run once.
    progress : bool, optional
        Show progress on standard error: a tqdm bar when tqdm is installed (the optional
        extra ``tables``), else one line per target. Default: only when standard error is a
        terminal.
    dpi : int, default 120
        Resolution of the images, 10..1200.

    Returns
    -------
    ReproductionSummary
        Per target: the files written, the seconds it took, each check; ``.ok`` is True when
        every check agrees, is a documented erratum or is not comparable.

    Raises
    ------
    ParameterError
        If ``directory`` is an existing file, ``names`` names an unknown target, or ``dpi`` is
        out of range.
    ParameterTypeError
        If an argument has the wrong type.
    OSError
        If the directory or a file in it cannot be written.

    Notes
    -----
    A target that raises is recorded (``TargetResult.error``, its checks ``"error"``) and the
    run goes on; the summary is then not ``ok``. All targets take about 40 s on two cores.

    Examples
    --------
    >>> import tempfile
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     s = reproduce_all(tmp, names=["fig4"], progress=False, dpi=20)
    ...     t = s.targets[0]
    ...     print(t.image, [(c.label, c.printed, c.shown, c.status) for c in t.checks][:2])
    ...     print(s.ok, s.counts["agree"], (s.directory / "index.md").exists())
    fig4.png [('τ_1', '25', '25', 'yes'), ('τ_2', '20', '20', 'yes')]
    True 5 True
    """
    from .._validation import check_int

    out = _check_directory(directory)
    selected = _check_names(names)
    dpi = check_int(dpi, "dpi", minimum=MIN_DPI, maximum=MAX_DPI)
    if progress is not None and not isinstance(progress, bool):
        raise ParameterTypeError(f"`progress` must be True, False or None, got {progress!r}.")
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    bar = _progress(len(selected), progress, sys.stderr)
    results = []
    try:
        for name in selected:
            bar.start(name)
            results.append(_run(TARGETS[name], out, dpi))
            bar.done(results[-1])
    finally:
        bar.close()
    md, page = out / "index.md", out / "index.html"
    partial = ReproductionSummary(out, tuple(results), time.perf_counter() - t0, md, page)
    md.write_text(_index_markdown(partial), encoding="utf-8")
    page.write_text(_index_html(partial), encoding="utf-8")
    return ReproductionSummary(out, tuple(results), time.perf_counter() - t0, md, page)


# ------------------------------------------------------------------------------------ index
_LEGEND = (
    "*printed*: the value as the paper prints it (a bound is shown as ≤, a statement in "
    "words); *recomputed*: the value rainbowdp computes now, with three more significant "
    "digits than printed; *precision*: half a unit of the printed last digit (*exact* for "
    "integers and fractions). *agrees*: **yes** when the recomputed value rounds to the "
    "printed one (or the statement holds); **erratum N** when the paper is wrong there, "
    "explained in item N of `docs/errata.md`; **no** when they disagree; **n/a** when the two "
    "cannot be compared."
)


def _precision(c: CheckResult) -> str:
    if c.kind == "exact":
        return "exact"
    if c.kind == "digits":
        return "exact" if not c.tolerance else f"±{c.tolerance:.1g}"
    return {"at_most": "bound", "claim": "statement"}.get(c.kind, "—")


def _printed_text(c: CheckResult) -> str:
    return f"≤ {c.printed}" if c.kind == "at_most" else c.printed


def _header(s: ReproductionSummary) -> str:
    from .. import __version__

    n, k = s.counts, len(s.targets)
    return (
        f"`rainbowdp reproduce all` (rainbowdp {__version__}) regenerated {k} "
        f"target{'s' if k != 1 else ''} in {s.seconds:.1f} s. {n['checks']} printed values "
        f"compared: {n['agree']} agree, {n['erratum']} are errata of the papers, "
        f"{n['disagree']} disagree, "
        f"{n['not_comparable']} cannot be compared."
        + (f" {n['failed_targets']} targets FAILED." if n["failed_targets"] else "")
    )


def _by_paper(s: ReproductionSummary) -> list[tuple[str, list[TargetResult]]]:
    return [
        (key, [t for t in s.targets if t.paper == key])
        for key in PAPERS
        if any(t.paper == key for t in s.targets)
    ]


_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|"})


def _md(text: Any) -> str:
    return " ".join(str(text).split()).translate(_MD_SPECIAL)


def _md_files(t: TargetResult) -> str:
    files = [f"[{f}]({f})" for f in (t.image, t.data) if f]
    return ", ".join(files) if files else "—"


def _index_markdown(summary: ReproductionSummary) -> str:
    """The Markdown index of a run (see :func:`reproduce_all`)."""
    lines = ["# Reproduced figures and tables", "", _header(summary), "", _LEGEND, ""]
    columns = ("target", "files", "quantity", "printed", "recomputed", "precision", "agrees")
    for key, targets in _by_paper(summary):
        lines += [f"## {PAPERS[key]}", ""]
        lines += ["| " + " | ".join(columns) + " | source | note |", "|" + " --- |" * 9]
        for t in targets:
            first = [f"**{_md(t.name)}**: {_md(t.description)}", _md_files(t)]
            if t.error is not None:
                lines.append(
                    "| "
                    + " | ".join([*first, "—", "—", "—", "—", "**FAILED**", "", _md(t.error)])
                    + " |"
                )
            if not t.checks and t.error is None:
                lines.append(
                    "| " + " | ".join([*first, "—", "—", "—", "—", "—", "", _md(t.note)]) + " |"
                )
            for i, c in enumerate(t.checks):
                cells = first if i == 0 else ["", ""]
                status = f"**{c.status}**" if c.status != AGREE else c.status
                lines.append(
                    "| "
                    + " | ".join(
                        [
                            *cells,
                            _md(c.label),
                            _md(_printed_text(c)),
                            _md(c.shown),
                            _md(_precision(c)),
                            status,
                            _md(c.citation),
                            _md(c.note),
                        ]
                    )
                    + " |"
                )
        lines.append("")
    lines += ["## Time per target", "", "| target | seconds | result |", "| --- | ---: | --- |"]
    for t in summary.targets:
        lines.append(f"| {_md(t.name)} | {t.seconds:.2f} | {_md(_tally(t))} |")
    lines.append(f"| total | {sum(t.seconds for t in summary.targets):.2f} | |")
    return "\n".join(lines) + "\n"


_CSS = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin-bottom: 2em; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.5em; vertical-align: top; text-align: left; }
th { background: #eee; }
td.yes { background: #e6f4e6; } td.no, td.error, td.FAILED { background: #f8d7d7; }
td.erratum { background: #fff3cd; } td.na { background: #eef; }
img { max-width: 220px; display: block; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
"""


def _status_class(status: str) -> str:
    if status.startswith("erratum"):
        return "erratum"
    return {AGREE: "yes", NOT_COMPARABLE: "na"}.get(status, "no")


def _index_html(summary: ReproductionSummary) -> str:
    """The HTML index of a run: one self-contained page (inline style, images beside it)."""
    e = html.escape
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>Reproduced figures and tables</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>Reproduced figures and tables</h1>",
        f"<p>{e(_header(summary).replace('`', ''))}</p>",
        f"<p>{e(_LEGEND.replace('*', '').replace('`', ''))}</p>",
    ]
    head = (
        "target",
        "files",
        "quantity",
        "printed",
        "recomputed",
        "precision",
        "agrees",
        "source",
        "note",
    )
    for key, targets in _by_paper(summary):
        out.append(f"<h2>{e(PAPERS[key].replace('*', ''))}</h2>")
        out.append("<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>")
        for t in targets:
            rows = max(1, len(t.checks) + (t.error is not None))
            files = "".join(f'<a href="{e(f)}">{e(f)}</a><br>' for f in (t.image, t.data) if f)
            if t.image:
                files += f'<a href="{e(t.image)}"><img src="{e(t.image)}" alt="{e(t.name)}"></a>'
            first = (
                f'<td rowspan="{rows}"><b>{e(t.name)}</b><br>{e(t.description)}<br>'
                f"{t.seconds:.2f} s</td>"
                f'<td rowspan="{rows}">{files or "—"}</td>'
            )
            cells = []
            if t.error is not None:
                cells.append(
                    '<td colspan="4">—</td><td class="FAILED">FAILED</td>'
                    f"<td></td><td>{e(t.error)}</td>"
                )
            elif not t.checks:
                cells.append(f'<td colspan="5">—</td><td></td><td>{e(t.note)}</td>')
            for c in t.checks:
                num = ' class="num"' if c.kind in ("digits", "exact", "at_most") else ""
                cells.append(
                    f"<td>{e(c.label)}</td><td{num}>{e(_printed_text(c))}</td>"
                    f"<td{num}>{e(c.shown)}</td><td>{e(_precision(c))}</td>"
                    f'<td class="{_status_class(c.status)}">{e(c.status)}</td>'
                    f"<td>{e(c.citation)}</td><td>{e(c.note)}</td>"
                )
            for i, row in enumerate(cells):
                out.append("<tr>" + (first if i == 0 else "") + row + "</tr>")
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
