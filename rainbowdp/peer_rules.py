r"""What other libraries promise, checked: their published parameter rules and the exact guarantees.

Other differential-privacy libraries turn a requested guarantee into a noise parameter, or a
noise parameter into a stated guarantee, by documented rules. This module re-implements those
rules from their published formulas (it imports none of those libraries, except Google's
``dp_accounting``, an optional dependency, whose accountants are called as they are) and computes
the exact guarantee of the mechanism each rule produces with rainbowdp's verifier:

- **diffprivlib** ``GaussianDiscrete``: σ for (ε, δ) by bisection on the δ(σ) of Canonne, Kamath
  and Steinke (2020), Theorem 7, returning the midpoint of the last bracket
  (:func:`diffprivlib_gaussian_discrete_sigma`); ``Geometric``: the discrete Laplace law with
  scale Δ/ε; ``Exponential`` with a 0/1 utility of sensitivity 1, used as k-ary randomized
  response (:func:`diffprivlib_exponential_rr`).
- **OpenDP**: the discrete Gaussian stated as ρ-zCDP with ρ = Δ²/(2σ²), converted to (ε, δ) by
  the conversion of Canonne, Kamath and Steinke (2020), Corollary 13 (:func:`cdp_delta`,
  :func:`cdp_epsilon`, :func:`opendp_discrete_gaussian_epsilon`); the discrete Laplace law with
  scale s stated (Δ/s)-DP.
- **dp_accounting**: its privacy-loss-distribution and Rényi accountants
  (:func:`dp_accounting_discrete_gaussian_epsilon`,
  :func:`dp_accounting_discrete_laplace_epsilon`).

The exact side works on the textbook mechanisms with an infinite output set
(:func:`discrete_gaussian_dp_delta`, :func:`discrete_gaussian_epsilon`,
:func:`discrete_laplace_epsilon`, :func:`certify_discrete_gaussian`). How the infinite set is
made finite without error, and how every reported number errs only in the safe direction, is
explained in the Notes of :func:`discrete_gaussian_dp_delta` and in ``docs/peers.md``;
:func:`peer_table` gathers every comparison and :func:`format_peer_table` prints it.

Examples
--------
>>> sigma = diffprivlib_gaussian_discrete_sigma(2.0, 1e-3)
>>> b = discrete_gaussian_dp_delta(sigma, 2.0)
>>> b.lower > 1e-3                # the stated (2, 1e-3) does not hold: proved
True
>>> certify_discrete_gaussian(sigma, 2.0, 1e-3)
'not private'
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ._format import format_down, format_up
from ._peer_exact import (
    MAX_SIGMA,
    DeltaBounds,
    cdp_delta,
    cdp_epsilon,
    certify_discrete_gaussian,
    check_real,
    check_sensitivity,
    discrete_gaussian_delta,
    discrete_gaussian_dp_delta,
    discrete_gaussian_epsilon,
    exp_neg,
    outward,
)
from .exceptions import ParameterError, ParameterTypeError
from .mechanism import Mechanism
from .noise import DiscreteGaussian, RandomizedResponse
from .privacy import epsilon_for_delta

__all__ = [
    "DeltaBounds",
    "PeerRow",
    "cdp_delta",
    "cdp_epsilon",
    "certify_discrete_gaussian",
    "diffprivlib_exponential_rr",
    "diffprivlib_gaussian_discrete_sigma",
    "discrete_gaussian_delta",
    "discrete_gaussian_dp_delta",
    "discrete_gaussian_epsilon",
    "discrete_laplace_epsilon",
    "dp_accounting_discrete_gaussian_epsilon",
    "dp_accounting_discrete_laplace_epsilon",
    "format_peer_table",
    "opendp_discrete_gaussian_epsilon",
    "peer_table",
]


# ----------------------------------------------------------------------- the discrete Laplace
def discrete_laplace_epsilon(parameter: float, delta: float, *, sensitivity: int = 1) -> float:
    r"""A proved upper bound on the exact ε(δ) of the discrete Laplace mechanism on ℤ.

    The law is :math:`f(k) \propto e^{-a|k|}` (a = ``parameter``; the two-sided geometric law
    with α = e^{-a}).

    Parameters
    ----------
    parameter : float
        a in (0, 50].
    delta : float
        δ in [0, 1).
    sensitivity : int, default 1
        Δ in [1, 100].

    Returns
    -------
    float
        ε̂ with the mechanism (ε̂, δ)-DP in exact arithmetic (aΔ, rounded up, at δ = 0).

    Notes
    -----
    For the shift d the privacy loss :math:`a(|y - d| - |y|)` is ad for y <= 0, −ad for y >= d and
    decreasing in between, so clamping to {−1, …, d + 1} merges only outputs of one loss and keeps
    every hockey-stick divergence exactly. The atoms are enclosed in rationals
    (:func:`rainbowdp.exp_bounds`: :math:`f(k) = \alpha^{|k|}(1-\alpha)/(1+\alpha)`, the tails
    :math:`\alpha^{m}/(1+\alpha)`), rounded outward (P up, Q down) and solved by
    :func:`rainbowdp.epsilon_for_delta`.

    Examples
    --------
    >>> e = discrete_laplace_epsilon(0.5, 0.0)
    >>> 0.5 <= e < 0.5 + 1e-12
    True
    """
    a = check_real(parameter, "parameter", 0.0, 50.0, open_lo=True)
    dl = check_real(delta, "delta", 0.0, 1.0)
    if dl >= 1.0:
        raise ParameterError(f"`delta` must be below 1, got delta={delta!r}.")
    sens = check_sensitivity(sensitivity)
    fa = Fraction(a)
    al_lo, al_hi = exp_neg(fa)

    def atom(k: int, lo: int, hi: int) -> tuple[Fraction, Fraction]:
        """Bounds on P[clamp(Y, lo, hi) = k] for lo < 0 < hi: alpha^|k|/(1 + alpha) at the
        ends (a whole tail), alpha^|k| (1 - alpha)/(1 + alpha) inside."""
        e_lo, e_hi = exp_neg(fa * abs(k))
        if k in (lo, hi):
            return e_lo / (1 + al_hi), e_hi / (1 + al_lo)
        return e_lo * (1 - al_hi) / (1 + al_hi), e_hi * (1 - al_lo) / (1 + al_lo)

    best = 0.0
    for d in range(1, sens + 1):
        lo, hi = -1, d + 1
        p = [atom(y, lo, hi) for y in range(lo, hi + 1)]
        q = [atom(y - d, lo - d, hi - d) for y in range(lo, hi + 1)]
        pair = outward([x[1] for x in p], [x[0] for x in q], up=True)
        best = max(best, float(epsilon_for_delta((pair[0], pair[1]), dl, one_way=True)))
    return best


# ------------------------------------------------------------------- zCDP -> (ε, δ) (OpenDP)
def opendp_discrete_gaussian_epsilon(sigma: float, delta: float, *, sensitivity: int = 1) -> float:
    """ε(δ) OpenDP states for its discrete Gaussian of scale σ: ρ = Δ²/(2σ²), then
    :func:`cdp_epsilon`.

    Parameters
    ----------
    sigma : float
        σ in (0, 1000].
    delta : float
        δ in (0, 1).
    sensitivity : int, default 1

    Returns
    -------
    float

    Examples
    --------
    >>> round(opendp_discrete_gaussian_epsilon(2.0, 1e-3), 6)
    1.546096
    """
    s = check_real(sigma, "sigma", 0.0, MAX_SIGMA, open_lo=True)
    dl = check_real(delta, "delta", 0.0, 1.0, open_lo=True)
    sens = check_sensitivity(sensitivity)
    return cdp_epsilon(sens * sens / (2.0 * s * s), dl)


# ----------------------------------------------------------------------------- diffprivlib
def diffprivlib_gaussian_discrete_sigma(
    epsilon: float, delta: float, *, sensitivity: int = 1
) -> float:
    r"""σ that diffprivlib's ``GaussianDiscrete`` chooses for (ε, δ): its rule, re-implemented.

    The objective is δ(σ) − δ with δ(σ) the hockey-stick divergence of Canonne, Kamath and
    Steinke (2020), Theorem 7 (:meth:`rainbowdp.noise.DiscreteGaussian.dp_delta`). A bracket
    [σ₀, σ₁] of consecutive powers of two is grown from σ₀ = 1 (doubling when the objective at
    1 is positive, halving otherwise) until the objective changes sign; it is then bisected
    until :math:`|\sigma_0 - \sigma_1| \le 10^{-12} + 10^{-6} |\sigma_1|`, and the **midpoint**
    of the last bracket is returned.
    That midpoint lies on either side of the root: where it lies below it, δ(σ) exceeds δ.

    Parameters
    ----------
    epsilon : float
        ε in (0, 100].
    delta : float
        δ in (0, 1).
    sensitivity : int, default 1

    Returns
    -------
    float

    Examples
    --------
    >>> diffprivlib_gaussian_discrete_sigma(2.0, 1e-3)
    1.4644103050231934
    """
    e = check_real(epsilon, "epsilon", 0.0, 100.0, open_lo=True)
    dl = check_real(delta, "delta", 0.0, 1.0, open_lo=True)
    if dl >= 1.0:
        raise ParameterError(f"`delta` must be below 1, got delta={delta!r}.")
    sens = check_sensitivity(sensitivity)

    def objective(s: float) -> float:
        return DiscreteGaussian(sigma=s, sensitivity=sens).dp_delta(e) - dl

    a, fa = 1.0, objective(1.0)
    step = 2.0 if fa > 0 else 0.5
    b, fb = a * step, objective(a * step)
    while fa * fb > 0:
        a, fa = b, fb
        b = b * step
        fb = objective(b)
    while abs(a - b) > 1e-12 + 1e-6 * abs(b):
        m = (a + b) / 2
        fm = objective(m)
        if fm * fa <= 0:
            b, fb = m, fm
        if fm * fb <= 0:
            a, fa = m, fm
    return (a + b) / 2


def diffprivlib_exponential_rr(epsilon: float, k: int) -> Mechanism:
    r"""k-ary randomized response made by diffprivlib's ``Exponential`` rule.

    diffprivlib's exponential mechanism (non-monotonic utility) outputs v with probability
    proportional to :math:`\exp(\epsilon\, u(v) / (2\Delta_u))` and states ε-DP. With the 0/1
    utility u(v) = [v = the true answer], whose sensitivity is Δ_u = 1, the true answer has
    probability :math:`e^{\epsilon/2}/(e^{\epsilon/2} + k - 1)`: k-ary randomized response at
    ε/2. The mechanism is built on the complete graph on the answers 0..k−1
    (:meth:`rainbowdp.noise.RandomizedResponse.graph`).

    Parameters
    ----------
    epsilon : float
        The stated ε, in (0, 700].
    k : int
        Number of answers, in [2, 2001].

    Returns
    -------
    Mechanism

    Examples
    --------
    >>> M = diffprivlib_exponential_rr(1.0, 3)
    >>> 0.5 <= epsilon_for_delta(M, 0.0) < 0.5 + 1e-12      # stated 1
    True
    """
    e = check_real(epsilon, "epsilon", 0.0, 700.0, open_lo=True)
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise ParameterTypeError(f"`k` must be an integer, got k={k!r}.")
    if not 2 <= int(k) <= 2001:
        raise ParameterError(f"`k` must be in [2, 2001], got k={k!r}.")
    k = int(k)
    G = RandomizedResponse(epsilon=0.0).graph(k - 1)
    x = math.exp(-e / 2.0)  # weights 1 (true answer) and e^(-eps/2) (the others)
    rows = np.full((k, k), x / (1.0 + (k - 1) * x))
    np.fill_diagonal(rows, 1.0 / (1.0 + (k - 1) * x))
    return Mechanism(G, rows)


# --------------------------------------------------------------------------- dp_accounting
def _dp_accounting() -> Any:
    try:
        import dp_accounting
    except ImportError as exc:  # pragma: no cover - the test extra installs it
        raise ImportError(
            'this needs the optional dependency dp_accounting: pip install "rainbowdp[accounting]"'
        ) from exc
    return dp_accounting


def dp_accounting_discrete_gaussian_epsilon(
    sigma: float, delta: float, *, sensitivity: int = 1
) -> dict[str, float]:
    """ε(δ) that dp_accounting states for the discrete Gaussian of scale σ.

    Returns
    -------
    dict
        ``"pld"``: its privacy loss distribution
        (``from_discrete_gaussian_mechanism(sigma, sensitivity=Δ)``, pessimistic estimate,
        default discretisation) and ``get_epsilon_for_delta``; ``"rdp"``: its Rényi accountant
        on a Gaussian event of noise multiplier σ/Δ (the discrete Gaussian meets the same Rényi
        bounds, Canonne, Kamath, Steinke 2020).

    Examples
    --------
    >>> d = dp_accounting_discrete_gaussian_epsilon(2.0, 1e-6)
    >>> d["pld"] < d["rdp"]
    True
    """
    s = check_real(sigma, "sigma", 0.0, MAX_SIGMA, open_lo=True)
    dl = check_real(delta, "delta", 0.0, 1.0, open_lo=True)
    sens = check_sensitivity(sensitivity)
    dpa = _dp_accounting()
    pld = dpa.pld.privacy_loss_distribution.from_discrete_gaussian_mechanism(s, sensitivity=sens)
    acc = dpa.rdp.RdpAccountant()
    acc.compose(dpa.GaussianDpEvent(s / sens))
    return {"pld": float(pld.get_epsilon_for_delta(dl)), "rdp": float(acc.get_epsilon(dl))}


def dp_accounting_discrete_laplace_epsilon(
    parameter: float, delta: float, *, sensitivity: int = 1
) -> float:
    """ε(δ) that dp_accounting's privacy loss distribution states for the discrete Laplace law.

    ``from_discrete_laplace_mechanism(parameter, sensitivity=Δ)`` (pessimistic estimate,
    default discretisation), then ``get_epsilon_for_delta``.

    Examples
    --------
    >>> dp_accounting_discrete_laplace_epsilon(0.5, 0.0) >= 0.5
    True
    """
    a = check_real(parameter, "parameter", 0.0, 50.0, open_lo=True)
    dl = check_real(delta, "delta", 0.0, 1.0)
    sens = check_sensitivity(sensitivity)
    dpa = _dp_accounting()
    pld = dpa.pld.privacy_loss_distribution.from_discrete_laplace_mechanism(a, sensitivity=sens)
    return float(pld.get_epsilon_for_delta(dl))


# ------------------------------------------------------------------------------ the table
@dataclass(frozen=True)
class PeerRow:
    """One stated guarantee beside the exact one.

    Attributes
    ----------
    library, mechanism, setting : str
        Who states it, for what, with which parameters.
    measure : str
        ``"delta"`` (δ at the stated ε) or ``"epsilon"`` (ε at the stated δ).
    at : float
        The other parameter: the ε of a ``"delta"`` row, the δ of an ``"epsilon"`` row.
    stated : float
        What the library states.
    exact_lower, exact_upper : float
        Proved bounds on the exact value (``exact_lower`` is 0 for ``"epsilon"`` rows, where
        only the proved upper bound is computed).
    """

    library: str
    mechanism: str
    setting: str
    measure: str
    at: float
    stated: float
    exact_lower: float
    exact_upper: float

    @property
    def verdict(self) -> str:
        """``"unsound"``: proved, the exact value exceeds the stated one; ``"tight"``: the
        stated value is within 1e-9 (relative) of the proved bound, on either side (the proved
        bound can exceed a tight claim by its round-off, about 1e-13); ``"conservative"``:
        proved sound, the stated value above the exact one; otherwise ``"undecided"``."""
        if self.exact_lower > self.stated:
            return "unsound"
        if abs(self.stated - self.exact_upper) <= 1e-9 * self.stated:
            return "tight"
        if self.exact_upper <= self.stated:
            return "conservative"
        return "undecided"

    @property
    def excess(self) -> float:
        """(stated − exact)/exact for ε, (exact − stated)/stated for δ: the margin (ε) or the
        shortfall (δ), from the side of the bounds that never overstates it."""
        if self.measure == "epsilon":
            return (self.stated - self.exact_upper) / self.exact_upper
        return (self.exact_lower - self.stated) / self.stated


#: The (ε, δ) requests of the diffprivlib rows of :func:`peer_table`.
DIFFPRIVLIB_CASES = ((2.0, 1e-3), (0.1, 1e-3), (3.0, 1e-9), (1.0, 1e-6), (0.5, 1e-9))
#: The (σ, δ) grid of the OpenDP discrete Gaussian rows.
OPENDP_GRID = tuple((s, d) for s in (0.5, 1.0, 2.0, 5.0, 10.0, 20.0) for d in (1e-3, 1e-6, 1e-9))


def _dg_epsilon_row(library: str, sigma: float, delta: float, stated: float) -> PeerRow:
    exact = discrete_gaussian_epsilon(sigma, delta)
    setting = f"σ = {sigma:g}, Δ = 1"
    return PeerRow(library, "discrete Gaussian", setting, "epsilon", delta, stated, 0.0, exact)


def peer_table(*, accounting: bool = True) -> list[PeerRow]:
    """Every comparison of ``docs/peers.md``: stated guarantee beside the exact one.

    Parameters
    ----------
    accounting : bool, default True
        Include the dp_accounting rows (needs the optional dependency).

    Returns
    -------
    list of PeerRow

    Examples
    --------
    >>> rows = peer_table(accounting=False)
    >>> sorted({r.verdict for r in rows if r.library == "diffprivlib"})
    ['conservative', 'tight', 'unsound']
    """
    rows: list[PeerRow] = []
    for e, d in DIFFPRIVLIB_CASES:
        s = diffprivlib_gaussian_discrete_sigma(e, d)
        b = discrete_gaussian_dp_delta(s, e)
        setting = f"(ε, δ) = ({e:g}, {d:g}) → σ = {s!r}"
        rows.append(
            PeerRow("diffprivlib", "GaussianDiscrete", setting, "delta", e, d, b.lower, b.upper)
        )
    rows.append(
        PeerRow(
            "diffprivlib", "Geometric", "ε = 1, Δ = 1", "epsilon", 0.0, 1.0, 0.0,
            discrete_laplace_epsilon(1.0, 0.0),
        )
    )  # fmt: skip
    for k in (2, 4):
        M = diffprivlib_exponential_rr(1.0, k)
        rows.append(
            PeerRow(
                "diffprivlib", "Exponential, 0/1 utility (k-ary RR)", f"ε = 1, k = {k}",
                "epsilon", 0.0, 1.0, 0.0, float(epsilon_for_delta(M, 0.0)),
            )
        )  # fmt: skip
    for s, d in OPENDP_GRID:
        rows.append(_dg_epsilon_row("OpenDP", s, d, opendp_discrete_gaussian_epsilon(s, d)))
    rows.append(
        PeerRow(
            "OpenDP", "discrete Laplace", "scale 2, Δ = 1", "epsilon", 0.0, 0.5, 0.0,
            discrete_laplace_epsilon(0.5, 0.0),
        )
    )  # fmt: skip
    if accounting:
        for s in (1.0, 2.0, 5.0):
            st = dp_accounting_discrete_gaussian_epsilon(s, 1e-6)
            rows.append(_dg_epsilon_row("dp_accounting (PLD)", s, 1e-6, st["pld"]))
            rows.append(_dg_epsilon_row("dp_accounting (RDP)", s, 1e-6, st["rdp"]))
        for d in (0.0, 1e-6):
            rows.append(
                PeerRow(
                    "dp_accounting (PLD)", "discrete Laplace", "a = 0.5, Δ = 1", "epsilon", d,
                    dp_accounting_discrete_laplace_epsilon(0.5, d), 0.0,
                    discrete_laplace_epsilon(0.5, d),
                )
            )  # fmt: skip
    return rows


def format_peer_table(rows: list[PeerRow]) -> str:
    """The rows as a Markdown table; every exact number rounded outward (lower bounds down,
    upper bounds up, :func:`rainbowdp.format_up`): δ to 9 significant digits, ε to 12.

    Examples
    --------
    >>> row = PeerRow("lib", "m", "s", "epsilon", 0.0, 1.0, 0.0, 0.5)
    >>> print(format_peer_table([row]).splitlines()[-1])
    | lib | m | s | ε at δ = 0 | 1 | ≤ 0.5 | conservative (stated ≥ exact + 100 %) |
    """
    out = [
        "| library | mechanism | setting | measure | stated | exact | verdict |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        if r.measure == "delta":
            measure = f"δ at ε = {r.at:g}"
            exact = f"[{format_down(r.exact_lower, 9)}, {format_up(r.exact_upper, 9)}]"
        else:
            measure = f"ε at δ = {r.at:g}"
            exact = f"≤ {format_up(r.exact_upper, 12)}"
        verdict = r.verdict
        if verdict == "unsound":
            verdict += f" (exact δ ≥ stated × (1 + {format_down(r.excess, 3)}))"
        elif verdict == "conservative" and r.measure == "epsilon":
            verdict += f" (stated ≥ exact + {format_down(100 * r.excess, 4)} %)"
        out.append(
            f"| {r.library} | {r.mechanism} | {r.setting} | {measure} | {r.stated:.12g} "
            f"| {exact} | {verdict} |"
        )
    return "\n".join(out)
