r"""Utility against privacy: families of mechanisms built at a grid of ε
(:func:`tradeoff_sweep`) and their trade-off curves (:func:`plot_tradeoff`).

Every privacy number comes from the verifier (:func:`rainbowdp.epsilon_for_delta`,
:func:`rainbowdp.privacy_profile`); those written as text are rounded up
(:func:`rainbowdp.format_up`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._format import format_up
from .._validation import check_delta
from ..exceptions import ParameterError, ParameterTypeError
from ..mechanism import Mechanism
from ..order import expected_utility
from ..privacy import epsilon_for_delta, privacy_profile
from ._inputs import check_grid
from ._style import figure_and_axes, legend_outside, resolve_styles

__all__ = ["TradeoffSweep", "plot_tradeoff", "tradeoff_sweep"]


@dataclass(frozen=True)
class TradeoffSweep:
    r"""Privacy and utility of families of mechanisms built at a grid of ε
    (:func:`tradeoff_sweep`).

    Attributes
    ----------
    epsilons : numpy.ndarray
        The ε passed to every builder.
    delta : float
        The δ at which :attr:`proved_epsilon` is computed.
    labels : tuple of str
        The families, in the order given.
    proved_epsilon : dict str -> numpy.ndarray
        :func:`rainbowdp.epsilon_for_delta` (M, δ) of each built mechanism: the smallest ε it
        satisfies at :attr:`delta`, proved and rounded up (``inf`` if there is none).
    delta_at_epsilon : dict str -> numpy.ndarray
        :func:`rainbowdp.privacy_profile` of each built mechanism at the ε it was built for.
    utility : dict str -> numpy.ndarray
        :func:`rainbowdp.expected_utility` of each built mechanism (divided by the number of
        nodes when :attr:`average`).
    utility_name : str
        What :attr:`utility` measures (for axis labels).
    average : bool
        Whether :attr:`utility` is a mean over the nodes rather than a sum.
    """

    epsilons: np.ndarray
    delta: float
    labels: tuple[str, ...]
    proved_epsilon: dict[str, np.ndarray]
    delta_at_epsilon: dict[str, np.ndarray]
    utility: dict[str, np.ndarray]
    utility_name: str
    average: bool

    def to_dict(self) -> dict:
        """Plain lists and numbers (``inf`` kept as a float)."""
        return {
            "epsilons": self.epsilons.tolist(),
            "delta": self.delta,
            "labels": list(self.labels),
            "proved_epsilon": {k: v.tolist() for k, v in self.proved_epsilon.items()},
            "delta_at_epsilon": {k: v.tolist() for k, v in self.delta_at_epsilon.items()},
            "utility": {k: v.tolist() for k, v in self.utility.items()},
            "utility_name": self.utility_name,
            "average": self.average,
        }


def _utility_of(m: Mechanism, utility: Any) -> float:
    """:func:`expected_utility` for a numeric spec, else via the designers' utility matrix."""
    if isinstance(utility, np.ndarray) or (
        isinstance(utility, list | tuple)
        and not (len(utility) == 2 and isinstance(utility[0], str))
    ):
        return expected_utility(m, utility)
    from ..design import utility_matrix

    return expected_utility(m, utility_matrix(m.graph, utility))


def tradeoff_sweep(
    builders: Mapping[str, Callable[[float], Mechanism]],
    epsilons: Any,
    *,
    delta: float = 0.0,
    utility: Any = "accuracy",
    average: bool = True,
) -> TradeoffSweep:
    r"""Build each family of mechanisms at every ε and measure its privacy and utility.

    Parameters
    ----------
    builders : mapping str -> callable
        ``builder(epsilon) -> Mechanism`` per family, e.g. ``lambda e: noise.geometric(G,
        epsilon=e)`` or ``lambda e: design.lp(G, epsilon=e).mechanism``.
    epsilons : array_like of float
        The ε to build at (finite, >= 0; 0 only if every builder accepts it).
    delta : float, default 0
        The δ of the proved ε.
    utility : str, array_like, callable or ("loss", L), default "accuracy"
        A (q,) vector by rank or an (N, q) array (:func:`rainbowdp.expected_utility`), or any
        specification of :func:`rainbowdp.design.utility_matrix`: ``"accuracy"`` (probability
        of the top of the rainbow), ``"rank"``, ``"absolute"``, ``"squared"`` (minus the error
        of numeric outputs), a loss ``loss(output, answer)`` or ``("loss", L)``.
    average : bool, default True
        Report the mean over the nodes (each dataset weighted equally) instead of the sum
        :func:`rainbowdp.expected_utility` computes.

    Returns
    -------
    TradeoffSweep

    Raises
    ------
    ParameterError
        If ``builders`` is empty or ``epsilons`` is empty, not 1-D, negative or not finite.
    ParameterTypeError
        If a builder is not callable or returns something other than a Mechanism (the family is
        named).

    Examples
    --------
    >>> from rainbowdp import noise
    >>> from rainbowdp.builders import count_path
    >>> G = count_path(6)
    >>> s = tradeoff_sweep({"geometric": lambda e: noise.geometric(G, epsilon=e)}, [0.5, 1.0])
    >>> bool(s.proved_epsilon["geometric"][1] <= 1.0), s.utility["geometric"].shape
    (True, (2,))
    """
    if not isinstance(builders, Mapping) or not builders:
        raise ParameterError(
            f"`builders` must be a non-empty mapping label -> callable(epsilon), got "
            f"builders={builders!r:.120}."
        )
    eps = check_grid(epsilons, "epsilons")
    dlt = check_delta(delta)
    if not isinstance(average, bool | np.bool_):
        raise ParameterTypeError(f"`average` must be True or False, got average={average!r}.")
    proved: dict[str, np.ndarray] = {}
    at_eps: dict[str, np.ndarray] = {}
    util: dict[str, np.ndarray] = {}
    for key, build in builders.items():
        label = str(key)
        if not callable(build):
            raise ParameterTypeError(
                f"`builders[{key!r}]` must be a callable epsilon -> Mechanism, got {build!r}."
            )
        pe, de, ue = [], [], []
        for e in eps.tolist():
            m = build(e)
            if not isinstance(m, Mechanism):
                raise ParameterTypeError(
                    f"`builders[{key!r}]` must return a Mechanism, got "
                    f"{type(m).__name__} at epsilon={e!r}."
                )
            pe.append(float(epsilon_for_delta(m, dlt)))
            de.append(float(privacy_profile(m, [e])[0]))
            u = _utility_of(m, utility)
            ue.append(u / m.graph.n_nodes if average else u)
        proved[label], at_eps[label], util[label] = np.array(pe), np.array(de), np.array(ue)
    name = utility if isinstance(utility, str) else "given utility"
    return TradeoffSweep(
        epsilons=eps,
        delta=dlt,
        labels=tuple(proved),
        proved_epsilon=proved,
        delta_at_epsilon=at_eps,
        utility=util,
        utility_name=str(name),
        average=bool(average),
    )


_AXES = {
    "epsilon": r"$\varepsilon$ the mechanism was built for",
    "proved_epsilon": r"proved $\varepsilon$ at $\delta$ = {delta} ($\varepsilon$ rounded up)",
    "delta_at_epsilon": r"$\delta(\varepsilon)$ at the $\varepsilon$ it was built for (rounded up)",
}


def plot_tradeoff(
    sweep: TradeoffSweep,
    *,
    x: str = "epsilon",
    y: str = "utility",
    ax: Any = None,
    logx: bool = False,
    title: str | None = None,
    styles: Sequence[Mapping[str, Any]] | None = None,
) -> Any:
    r"""Utility against privacy: one curve per family of a :func:`tradeoff_sweep`.

    Parameters
    ----------
    sweep : TradeoffSweep
    x : {"epsilon", "proved_epsilon"}, default "epsilon"
        The ε each mechanism was built for, or the ε it is proved to satisfy at
        ``sweep.delta`` (the honest privacy axis when a family over- or under-states its ε;
        infinite values are left out and counted in the legend).
    y : {"utility", "proved_epsilon", "delta_at_epsilon"}, default "utility"
        What to draw: the expected utility, the proved ε (with the diagonal "proved = built"
        when ``x="epsilon"``), or δ(ε) at the ε built for.
    ax : matplotlib.axes.Axes, optional
    logx : bool, default False
        Log scale on the x axis.
    title : str, optional
    styles : sequence of dict, optional
        One dict of ``ax.plot`` keywords per family (default
        :func:`rainbowdp.plot.series_styles`; a family whose label contains "optimal" is then
        drawn thick and black).

    Returns
    -------
    matplotlib.figure.Figure
        Family *i* is the Line2D of ``gid`` ``"tradeoff"`` and label ``sweep.labels[i]`` (with
        the count of points not drawn, if any). The legend sits outside the axes.

    Raises
    ------
    ParameterError
        If ``x`` or ``y`` is not one of the names above, or both are the same.
    ParameterTypeError
        If ``sweep`` is not a :class:`TradeoffSweep`.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rainbowdp import noise
    >>> from rainbowdp.builders import count_path
    >>> G = count_path(4)
    >>> s = tradeoff_sweep({"geometric": lambda e: noise.geometric(G, epsilon=e)}, [0.5, 1, 2])
    >>> fig = plot_tradeoff(s)
    >>> fig.axes[0].lines[0].get_ydata().tolist() == s.utility["geometric"].tolist()
    True
    """
    if not isinstance(sweep, TradeoffSweep):
        raise ParameterTypeError(
            f"`sweep` must be a TradeoffSweep (from tradeoff_sweep), got {type(sweep).__name__}."
        )
    if x not in ("epsilon", "proved_epsilon"):
        raise ParameterError(f"`x` must be 'epsilon' or 'proved_epsilon', got x={x!r}.")
    if y not in ("utility", "proved_epsilon", "delta_at_epsilon"):
        raise ParameterError(
            f"`y` must be 'utility', 'proved_epsilon' or 'delta_at_epsilon', got y={y!r}."
        )
    if x == y:
        raise ParameterError(f"`x` and `y` must differ, got x={x!r} and y={y!r}.")
    fig, ax = figure_and_axes(ax, (7.5, 4.2))
    given = styles is not None
    looks = resolve_styles(styles, len(sweep.labels))
    for label, look in zip(sweep.labels, looks, strict=True):
        xs = sweep.epsilons if x == "epsilon" else sweep.proved_epsilon[label]
        ys = getattr(sweep, y)[label]
        hidden = int(np.sum(~np.isfinite(xs) | ~np.isfinite(ys)))
        xs = np.where(np.isfinite(xs), xs, np.nan)
        ys = np.where(np.isfinite(ys), ys, np.nan)
        note = rf" ({hidden} point(s) with $\varepsilon = \infty$ not drawn)"
        text = label + (note if hidden else "")
        style: dict[str, Any] = {"lw": 1.4, **look}
        if len(xs) <= 30 and not given:
            style["markevery"] = None  # a marker at every ε built
        if "optimal" in label and not given:
            style.update(color="black", lw=2.4)
        ax.plot(xs, ys, label=text, gid="tradeoff", **style)
    if x == "epsilon" and y == "proved_epsilon":
        lo, hi = float(sweep.epsilons.min()), float(sweep.epsilons.max())
        ax.plot([lo, hi], [lo, hi], ls=(0, (1, 3)), color="grey", lw=0.9, label="proved = built")
    if logx:
        ax.set_xscale("log", nonpositive="mask")
    names = {
        **_AXES,
        "utility": f"expected utility ({sweep.utility_name}"
        + (", mean over nodes)" if sweep.average else ", sum over nodes)"),
    }
    delta = format_up(sweep.delta)  # a δ shown rounded up keeps "(ε, δ)-DP" true
    ax.set_xlabel(names[x].format(delta=delta))
    ax.set_ylabel(names[y].format(delta=delta))
    ax.set_title("utility-privacy trade-off" if title is None else title)
    ax.grid(True, alpha=0.3)
    legend_outside(ax)
    return fig
