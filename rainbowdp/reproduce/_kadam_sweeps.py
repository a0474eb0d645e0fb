r"""Kadam et al., Figs. 11, 12 and 14: the optimal error rate swept over the neighbourhood
(μ̄), over δ, and the optimum for the shift sets observed on (synthetic) smart-meter data.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..exceptions import ParameterError
from ._curves import (
    CurveFigure,
    Panel,
    check_deltas,
    check_epsilons,
    check_grid,
    check_panel,
    curve_figure,
)

__all__ = ["kadam_figure11", "kadam_figure12", "kadam_figure14", "synthetic_ami"]


def _error_rate(n: int, epsilon: float, delta: float, shifts: list) -> float:
    from ..noise import modulo

    return modulo.optimal_pmf(
        n,
        epsilon=epsilon,
        delta=delta,
        shifts=shifts,
        loss="error_rate",
        reading="paper",
        formulation="printed",
    ).objective


def kadam_figure11(
    panel: str = "a",
    *,
    mu_bars: Any = range(1, 10),
    epsilons: Any = (0.5, 1.0, 1.5, 2.0),
    deltas: Any = (0.0, 0.1, 0.2, 0.3),
) -> CurveFigure:
    r"""Kadam et al., Fig. 11: the optimal error rate against μ̄ for the BD neighbourhood
    :math:`M = \{1, \dots, \bar\mu\}`, n = 9 (printed MILP (13), paper reading).

    Panel "a": δ = 0.2, one curve per ε in ``epsilons``; panel "b": ε = 2, one curve per δ in
    ``deltas`` (the caption fixes only δ, resp. ε; the other values are choices).

    Parameters
    ----------
    panel : {"a", "b"}, default "a"
    mu_bars : sequence of int, default 1..9
        Strictly increasing, each in 1..9.
    epsilons : sequence of float, default (0.5, 1, 1.5, 2)
        Panel "a" only; each in (0, 30].
    deltas : sequence of float, default (0, 0.1, 0.2, 0.3)
        Panel "b" only; each in [0, 1].

    Returns
    -------
    CurveFigure

    Raises
    ------
    ParameterError
        If an argument is invalid.

    Notes
    -----
    A larger μ̄ adds constraints to (13), so the error rate cannot decrease with μ̄; a larger ε
    or δ relaxes them, so it cannot increase with either.
    """
    panel = check_panel(panel)
    mus = check_grid(mu_bars, "mu_bars", low=1, high=9, integer=True).astype(int)
    eps = check_epsilons(epsilons)
    dls = check_deltas(deltas)
    n = 9
    series: dict = {}
    if panel == "a":
        for e in eps:
            series[f"eps = {e:g}"] = np.array(
                [_error_rate(n, float(e), 0.2, list(range(1, m + 1))) for m in mus]
            )
        fixed = {"delta": 0.2, "epsilons": eps.tolist()}
        sub = "delta = 0.2"
    else:
        for d in dls:
            series[f"delta = {d:g}"] = np.array(
                [_error_rate(n, 2.0, float(d), list(range(1, m + 1))) for m in mus]
            )
        fixed = {"epsilon": 2.0, "deltas": dls.tolist()}
        sub = "epsilon = 2"
    panels = [Panel(f"BD, n = {n}, {sub}", "mu_bar", "error rate", mus, series, "line")]
    parameters = {"n": n, **fixed, "reading": "paper", "formulation": "printed"}
    return curve_figure(
        f"Kadam et al., Fig. 11{panel}",
        parameters,
        panels,
        {},
        suptitle=f"error rate vs mu_bar, {sub}",
    )


def _sd_breakpoints(cycle: int, eps: float) -> list[tuple[float, float]]:
    r"""Theorem 2's flat regions :math:`[\underline\delta_k, e^\epsilon\underline\delta_k]`
    (19c) on a cycle of ``cycle`` values (m = cycle − 1), k = 0..m."""
    m = cycle - 1
    out = []
    for k in range(m + 1):
        low = math.exp(-(m - k) * eps) * -math.expm1(-eps) / -math.expm1(-(m - k + 1) * eps)
        out.append((low, min(1.0, math.exp(eps) * low)))
    return out


def kadam_figure12(
    panel: str = "a",
    *,
    deltas: Any = None,
    epsilons: Any = (0.5, 1.0, 1.5),
) -> CurveFigure:
    r"""Kadam et al., Fig. 12: the optimal error rate ρ against δ, n = 9: panel "a" SD
    :math:`\hat\mu = 3`, panel "b" BD :math:`\bar\mu = 3` (printed MILP (13), paper reading).

    The caption gives no ε; one curve per ε in ``epsilons``. ρ is piecewise linear in δ, flat
    on :math:`[\underline\delta_k, e^\epsilon\underline\delta_k]` and linear in between
    (Theorem 2, eq. (19c); Theorem 3 for BD). Panel "a" adds the closed form of Theorem 2
    (:func:`rainbowdp.noise.modulo.sd_pmf`) as ``"closed form, eps = ..."`` series and its
    breakpoints in ``findings["breakpoints"]``.

    Parameters
    ----------
    panel : {"a", "b"}, default "a"
    deltas : sequence of float, optional
        Default 0, 0.025, ..., 1; strictly increasing, each in [0, 1].
    epsilons : sequence of float, default (0.5, 1, 1.5)
        Each in (0, 30].

    Returns
    -------
    CurveFigure

    Raises
    ------
    ParameterError
        If an argument is invalid.
    """
    from ..noise import modulo

    panel = check_panel(panel)
    if deltas is None:
        deltas = np.round(np.linspace(0.0, 1.0, 41), 4)
    dls = check_deltas(deltas)
    eps = check_epsilons(epsilons)
    n = 9
    shifts = [3] if panel == "a" else [1, 2, 3]
    series: dict = {}
    findings: dict = {}
    for e in eps:
        series[f"eps = {e:g}"] = np.array([_error_rate(n, float(e), float(d), shifts) for d in dls])
    if panel == "a":
        for e in eps:
            series[f"closed form, eps = {e:g}"] = np.array(
                [1.0 - modulo.sd_pmf(n, epsilon=float(e), delta=float(d), mu=3)[0] for d in dls]
            )
        cycle = (n + 1) // math.gcd(n + 1, 3)
        findings["breakpoints"] = {f"eps = {e:g}": _sd_breakpoints(cycle, float(e)) for e in eps}
    kind = "SD mu_hat = 3" if panel == "a" else "BD mu_bar = 3"
    panels = [Panel(f"{kind}, n = {n}", "delta", "error rate", dls, series, "line")]
    parameters = {
        "n": n,
        "shifts": shifts,
        "epsilons": eps.tolist(),
        "reading": "paper",
        "formulation": "printed",
    }
    return curve_figure(
        f"Kadam et al., Fig. 12{panel}",
        parameters,
        panels,
        findings,
        suptitle=f"error rate vs delta, {kind}",
    )


def synthetic_ami(
    *, seed: int = 0, households: int = 1416, circuits: int = 12, days: int = 30
) -> list[np.ndarray]:
    r"""A seeded **synthetic** stand-in for the AMI smart-meter table of Kadam et al., Fig. 14.

    The paper's data (1416 houses on 12 distribution circuits in California) is not public.
    This draws ``households`` houses split at random over ``circuits`` circuits (at least one
    each), each with a log-normal base daily consumption (median 18 kWh, log-sd 0.3) times a
    circuit factor (log-sd 0.25), a seasonal factor (1 ± 0.25) and a daily log-normal factor
    (log-sd 0.15). The spreads were chosen so that, quantised to 11 levels, the shift set of
    :func:`kadam_figure14` has the size of the paper's; nothing else is fitted to the paper.

    Returns
    -------
    list of numpy.ndarray
        One dataset per (circuit, day): the daily consumptions (kWh) of the circuit's houses.

    Raises
    ------
    ParameterError
        If an argument is not a positive integer (``seed`` >= 0) or ``households`` <
        ``circuits``.

    Examples
    --------
    >>> data = synthetic_ami(households=30, circuits=3, days=2)
    >>> len(data), sum(len(x) for x in data[::2])
    (6, 30)
    """
    from .._validation import check_int

    seed = check_int(seed, "seed", minimum=0)
    circuits = check_int(circuits, "circuits", minimum=1, maximum=10_000)
    households = check_int(households, "households", minimum=circuits, maximum=10**6)
    days = check_int(days, "days", minimum=1, maximum=10_000)
    rng = np.random.default_rng(seed)
    sizes = rng.multinomial(households - circuits, np.full(circuits, 1.0 / circuits)) + 1
    factor = rng.lognormal(0.0, 0.25, size=circuits)
    season = 1.0 + 0.25 * np.sin(2 * np.pi * np.arange(days) / max(days, 2))
    data = []
    for c, size in enumerate(sizes.tolist()):
        base = rng.lognormal(math.log(18.0), 0.3, size=size) * factor[c]
        for d in range(days):
            data.append(base * season[d] * rng.lognormal(0.0, 0.15, size=size))
    return data


def _observed_shifts(data: list[np.ndarray], levels: int) -> tuple[list[int], np.ndarray]:
    r"""The quantised peak query on every dataset and the shift set M of its neighbours.

    Q(X) = the peak (largest) house consumption of the dataset, quantised uniformly to
    ``levels`` levels on [0, largest peak]; X' = X without one house. Only removing the
    peak house changes the peak (to the second largest), so M is the set of non-zero
    :math:`|Q(X) - Q(X')|` over datasets of at least two houses.
    """
    top = max(float(x.max()) for x in data)

    def level(v: float) -> int:
        return min(int(levels * v / top), levels - 1)

    queries = np.array([level(float(x.max())) for x in data])
    shifts = set()
    for x in data:
        if x.size >= 2:
            first, second = np.sort(x)[-2:][::-1]
            mu = abs(level(float(first)) - level(float(second)))
            if mu:
                shifts.add(mu)
    return sorted(shifts), queries


def kadam_figure14(
    *,
    levels: Any = (11, 17),
    epsilon: float = 1.0,
    delta: float = 0.0,
    seed: int = 0,
) -> CurveFigure:
    r"""Kadam et al., Fig. 14, on **synthetic** data: optimal PMFs for the shift set M observed
    on a smart-meter table quantised to 11 and 17 levels (n = 10, 16).

    The paper's AMI data (1416 houses, 12 circuits, California) is not public, so the same
    pipeline runs on :func:`synthetic_ami` (seeded): the query is the peak house consumption of
    a circuit on a day, quantised to L levels; neighbouring datasets differ by one house
    (removed); M is the set of observed :math:`|Q(X) - Q(X')| \ne 0` (the caption's
    :math:`\tilde\mu`); the optimal error-rate PMF is the printed MILP (13) for M, paper reading.
    The caption gives neither ε nor δ (defaults ε = 1, δ = 0 here). The paper observed
    M = {1, 2, 3, 4} (n = 10) and {1, 3, 5, 6} (n = 16) on its data; the synthetic M differ.

    Parameters
    ----------
    levels : sequence of int, default (11, 17)
        Quantisation levels (n = L − 1), each in 2..64, strictly increasing.
    epsilon : float, default 1.0
        ε > 0.
    delta : float, default 0.0
    seed : int, default 0
        Seed of :func:`synthetic_ami`.

    Returns
    -------
    CurveFigure
        One bar panel per level count; ``findings["shifts"]`` holds each M,
        ``findings["pmfs"]`` each optimal PMF.

    Raises
    ------
    ParameterError
        If an argument is invalid.

    Notes
    -----
    The caption's observation, :math:`f^\star(\eta)` larger on :math:`M \cup \{0\}` than
    elsewhere, follows at δ = 0 from the constraints :math:`f(0) \le e^\epsilon f(\mu)`: the
    optimum is :math:`f^\star(\eta) \propto e^{-\epsilon\,d(\eta)}` with d(η) the least number
    of steps in M from 0 to η modulo n + 1, so d = 1 exactly on M.
    """
    from .._validation import check_delta, check_epsilon
    from ..noise import modulo

    ls = check_grid(levels, "levels", low=2, high=64, integer=True).astype(int)
    eps = check_epsilon(epsilon, finite_exp=True)
    if eps <= 0 or eps > 30:
        raise ParameterError(f"`epsilon` must be in (0, 30], got epsilon={epsilon!r}.")
    dlt = check_delta(delta)
    data = synthetic_ami(seed=seed)
    panels = []
    found: dict = {"shifts": {}, "pmfs": {}, "queries": {}}
    for L in ls.tolist():
        n = L - 1
        shifts, queries = _observed_shifts(data, L)
        if not shifts:  # pragma: no cover - the default data always shows some shift
            raise ParameterError(f"no neighbouring datasets differ at levels={L}.")
        f = modulo.optimal_pmf(
            n,
            epsilon=eps,
            delta=dlt,
            shifts=shifts,
            loss="error_rate",
            reading="paper",
            formulation="printed",
        ).pmf
        found["shifts"][f"n = {n}"] = shifts
        found["pmfs"][f"n = {n}"] = f
        found["queries"][f"n = {n}"] = np.bincount(queries, minlength=L)
        panels.append(
            Panel(
                f"SYNTHETIC data, {L} levels (n = {n}), M = {shifts}",
                "noise eta",
                "f*(eta)",
                np.arange(n + 1),
                {f"optimal, M = {shifts}": f},
                "bars",
            )
        )
    parameters = {
        "levels": ls.tolist(),
        "epsilon": eps,
        "delta": dlt,
        "seed": seed,
        "data": "synthetic (rainbowdp.reproduce.synthetic_ami); the paper's AMI data is not public",
        "query": "peak house consumption per circuit and day, quantised",
        "reading": "paper",
        "formulation": "printed",
    }
    return curve_figure(
        "Kadam et al., Fig. 14 (synthetic data)",
        parameters,
        panels,
        found,
        suptitle=f"SYNTHETIC smart-meter data, eps = {eps:g}, delta = {dlt:g}",
    )
