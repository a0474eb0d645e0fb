r"""The privacy profile δ(ε) of one or more mechanisms, as a plot.

Every privacy number drawn or written comes from the verifier (:func:`rainbowdp.privacy_profile`,
:func:`rainbowdp.epsilon_for_delta`): exact upper bounds, rounded up. Numbers written as text are
rounded up too (:func:`rainbowdp.format_up`), so a label never claims more privacy than the
mechanism has, and a verdict never contradicts the numbers printed beside it
(:func:`verdict_text`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

import numpy as np

from .._format import format_up
from .._validation import check_delta, check_epsilon
from ..exceptions import ParameterError, ParameterTypeError
from ..mechanism import Mechanism
from ..privacy import epsilon_for_delta, privacy_profile
from ._inputs import check_grid, collect_mechanisms
from ._mpl import require_matplotlib
from ._style import figure_and_axes, legend_outside, resolve_styles

__all__ = [
    "DEFAULT_EPSILON_MAX",
    "DELTA_FLOOR",
    "GRID_MARGIN",
    "LABEL_DIGITS",
    "PROFILE_POINTS",
    "default_grid",
    "floor_epsilons",
    "plot_privacy_profile",
    "verdict_text",
    "zero_delta_epsilons",
]

#: Number of evenly spaced ε of the default grid of :func:`plot_privacy_profile`.
PROFILE_POINTS = 101
#: The default grid ends at this multiple of the largest ε from which δ(ε) is at most the δ
#: floor (or 0) ...
GRID_MARGIN = 1.25
#: ... or at this ε when no mechanism gets there at a finite ε.
DEFAULT_EPSILON_MAX = 5.0
#: Default δ floor of :func:`plot_privacy_profile`: the lowest δ worth drawing on a log axis.
DELTA_FLOOR = 1e-12
#: Significant digits of the ε and δ written in legends (rounded up).
LABEL_DIGITS = 4
#: Most significant digits a verdict spends on δ(ε) (a float survives a round trip through
#: text of up to 15 digits, so the upward rounding is exact).
_MAX_DIGITS = 15
#: Profiles on at most this many ε are drawn with a dot at each.
_DOTTED_POINTS = 30
#: Height (axes fraction) of the first bar marking δ = 0 on a log axis, and between bars.
_BAR_Y, _BAR_STEP = 0.012, 0.022


def zero_delta_epsilons(mechanisms: Sequence[Mechanism]) -> list[float]:
    """Per mechanism, the proved smallest ε with δ(ε) = 0 (``inf`` if there is none).

    This is :func:`rainbowdp.epsilon_for_delta` at δ = 0: the smallest ε of pure DP, rounded up.

    Parameters
    ----------
    mechanisms : sequence of Mechanism

    Returns
    -------
    list of float

    Examples
    --------
    >>> from rainbowdp import Mechanism, builders
    >>> M = Mechanism(builders.line(["yes", "no"], 1), [[0.75, 0.25], [0.25, 0.75]])
    >>> e0 = zero_delta_epsilons([M])[0]
    >>> bool(e0 >= math.log(3)), float(privacy_profile(M, [e0])[0])
    (True, 0.0)
    """
    return [float(epsilon_for_delta(m, 0.0)) for m in mechanisms]


def floor_epsilons(mechanisms: Sequence[Mechanism], delta_floor: float) -> list[float]:
    """Per mechanism, the proved smallest ε with δ(ε) <= ``delta_floor`` (``inf`` if none).

    This is :func:`rainbowdp.epsilon_for_delta` at δ = ``delta_floor``, rounded up: from there on
    the profile is below the floor (or 0), so a plot that stops there misses nothing above it.

    Examples
    --------
    >>> from rainbowdp import Mechanism, builders
    >>> M = Mechanism(builders.line(["yes", "no"], 1), [[0.75, 0.25], [0.25, 0.75]])
    >>> e = floor_epsilons([M], 1e-12)[0]
    >>> bool(e <= zero_delta_epsilons([M])[0]), bool(privacy_profile(M, [e])[0] <= 1e-12)
    (True, True)
    """
    return [float(epsilon_for_delta(m, delta_floor)) for m in mechanisms]


def default_grid(
    zero_from: Sequence[float],
    num: int = PROFILE_POINTS,
    *,
    floor_from: Sequence[float] | None = None,
) -> np.ndarray:
    """The default ε grid of a privacy profile.

    ``num`` evenly spaced ε from 0 to :data:`GRID_MARGIN` times the largest finite entry of
    ``floor_from`` (where each δ(ε) has fallen to the δ floor, :func:`floor_epsilons`) or, without
    it, of ``zero_from`` (1 if that is 0; :data:`DEFAULT_EPSILON_MAX` if none is finite),
    together with the finite entries of ``zero_from`` up to the end, sorted and without repeats.

    Parameters
    ----------
    zero_from : sequence of float
        The ε from which δ(ε) = 0, per mechanism (:func:`zero_delta_epsilons`).
    num : int, default :data:`PROFILE_POINTS`
        Number of evenly spaced values.
    floor_from : sequence of float, optional
        The ε from which δ(ε) is at most the δ floor, per mechanism (:func:`floor_epsilons`).

    Returns
    -------
    numpy.ndarray
        The sorted grid (at most ``num + len(zero_from)`` values).

    Examples
    --------
    >>> default_grid([0.8], 5).tolist()
    [0.0, 0.25, 0.5, 0.75, 0.8, 1.0]
    >>> default_grid([9.5], 3, floor_from=[2.0]).tolist()
    [0.0, 1.25, 2.5]
    >>> float(default_grid([math.inf], 3)[-1]) == DEFAULT_EPSILON_MAX
    True
    """
    ends = list(zero_from if floor_from is None else floor_from)
    finite = [e for e in ends if math.isfinite(e)]
    if not finite:
        top = DEFAULT_EPSILON_MAX
    else:
        top = GRID_MARGIN * max(finite) if max(finite) > 0 else 1.0
    zeros = [e for e in zero_from if math.isfinite(e) and e <= top]
    grid = np.concatenate([np.linspace(0.0, top, num), np.asarray(zeros, dtype=float)])
    return np.unique(grid)


def verdict_text(dp_delta: float, target_delta: float) -> str:
    r"""``"δ = x ≤ t, private"`` or ``"δ = x > t, NOT private"``: the verdict of a mechanism
    whose δ(ε) is ``dp_delta`` against a target δ ``target_delta``.

    Private iff ``dp_delta <= target_delta`` (compared exactly). The target is written exactly
    (shortest round-trip form, ``repr``), δ(ε) rounded *up*: to :data:`LABEL_DIGITS`
    significant digits, more if needed so that the printed comparison holds between the
    printed numbers (δ(ε) = 0.09999512 against 0.0999952 reads "0.0999952 ≤ 0.0999952", not
    "0.1 ≤ 0.0999952"). When no rounding up to at most 15 digits fits below the printed
    target (δ(ε) equal to the target, or a few units in the last place below it), the number is
    left out: "δ ≤ t, private".

    Parameters
    ----------
    dp_delta : float
        δ(ε) of the mechanism at the target ε (from :func:`rainbowdp.privacy_profile`).
    target_delta : float
        The δ asked for.

    Returns
    -------
    str

    Examples
    --------
    >>> verdict_text(0.09999512, 0.0999952)
    'δ = 0.0999952 ≤ 0.0999952, private'
    >>> verdict_text(0.1000001, 0.1)
    'δ = 0.1001 > 0.1, NOT private'
    >>> verdict_text(0.1, 0.1)
    'δ ≤ 0.1, private'
    """
    d, t = float(dp_delta), float(target_delta)
    shown_t = repr(t)
    if d > t:  # rounding d up keeps it above t, and repr(t) lies below the next float after t
        return f"δ = {format_up(d, LABEL_DIGITS)} > {shown_t}, NOT private"
    for digits in range(LABEL_DIGITS, _MAX_DIGITS + 1):
        shown_d = format_up(d, digits)
        if Decimal(shown_d) <= Decimal(shown_t):
            return f"δ = {shown_d} ≤ {shown_t}, private"
    return f"δ ≤ {shown_t}, private"


def plot_privacy_profile(
    mechanisms: Any,
    epsilons: Any = None,
    *,
    labels: Sequence[str] | None = None,
    target: tuple[float, float] | None = None,
    ax: Any = None,
    logy: bool = True,
    ymin: float | None = None,
    title: str | None = None,
    delta_floor: float = DELTA_FLOOR,
    styles: Sequence[Mapping[str, Any]] | None = None,
) -> Any:
    r"""The privacy profile :math:`\delta(\epsilon) = \max_{d \sim d'} H_{e^\epsilon}(\mathcal
    M(d) \| \mathcal M(d'))` of one or more mechanisms.

    Each curve is :func:`rainbowdp.privacy_profile` at the grid ``epsilons``: the smallest δ for
    which the mechanism is (ε, δ)-DP, exact and rounded up. The profile is convex and
    non-increasing; it reaches 0 at the smallest ε of pure DP, which the legend states ("δ = 0
    for ε ≥ ...", :func:`rainbowdp.epsilon_for_delta` at δ = 0, proved and rounded up; or
    "δ > 0 at every ε" when no finite ε gives pure DP).
    A log y axis cannot show δ = 0: there the curve stops at its last positive point, and the
    stretch where δ = 0 is a thick bar along the bottom edge of the axes (in the curve's colour,
    from a dotted vertical line at that ε). Each mechanism has one legend entry (its note on
    δ = 0 and, with a target, its verdict); curves are told apart by colour, line style and
    marker together (:func:`rainbowdp.plot.series_styles`), so curves that coincide stay
    visible.

    Parameters
    ----------
    mechanisms : Mechanism, pair, sequence or mapping
        A :class:`~rainbowdp.Mechanism`; a pair ``(p, q)`` of two distributions over the same
        outputs (drawn as the mechanism of two neighbouring nodes, so δ(ε) is
        :math:`\max(H_{e^\epsilon}(p\|q), H_{e^\epsilon}(q\|p))`); a sequence of those; or a
        mapping label -> Mechanism or pair.
    epsilons : array_like of float, optional
        The ε grid (finite, >= 0; drawn sorted). Default: :data:`PROFILE_POINTS` values from 0 to
        :data:`GRID_MARGIN` times the largest ε from which a mechanism's δ(ε) is at most
        ``delta_floor`` (:func:`floor_epsilons`, proved), with the ε where δ reaches 0 up to
        there; :data:`DEFAULT_EPSILON_MAX` when no mechanism reaches the floor.
    labels : sequence of str, optional
        Legend labels (not with a mapping, whose keys are the labels).
    target : (float, float), optional
        A requested (ε, δ), marked by a black star and written exactly in the legend; each
        mechanism gets a hollow marker at its δ(ε) and its legend entry the verdict: private
        iff δ(ε) <= δ (δ(ε) exact and rounded up, compared before printing; the printed
        numbers agree with the verdict, see :func:`verdict_text`).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on (default: a new Figure).
    logy : bool, default True
        Log scale on the δ axis.
    ymin : float, optional
        Lower limit of the δ axis (> 0 with ``logy``); parts of curves below it leave the
        axes at the bottom. Default: ``delta_floor`` on a log axis when a curve goes below it
        (matplotlib's autoscaling otherwise), 0 on a linear axis.
    title : str, optional
        Axes title (default: "privacy profile").
    delta_floor : float, default :data:`DELTA_FLOOR`
        The smallest δ of interest, in (0, 1): the default grid ends where every profile has
        fallen to it, and a log axis stops there.
    styles : sequence of dict, optional
        One dict of ``ax.plot`` keywords per mechanism (default
        :func:`rainbowdp.plot.series_styles`).

    Returns
    -------
    matplotlib.figure.Figure
        The profile of mechanism *i* is the Line2D of ``gid`` ``"privacy_profile"``, labelled
        ``labels[i]`` and the note on δ = 0 after a colon, whose data are exactly
        ``(ε, δ(ε))``; the bars have ``gid`` ``"zero_delta"``, the target ``"target"``, the
        markers of the verdicts ``"verdict_private"`` or ``"verdict_not_private"`` (their
        label, hidden from the legend, is ``"_<label> at the target: <verdict>"``).

    Raises
    ------
    ParameterError
        If ``epsilons`` is empty, not 1-D, negative or not finite, ``labels`` has the wrong
        length or is given with a mapping, ``target`` is not an (ε, δ) pair with ε >= 0 and
        δ in [0, 1], ``ymin`` is not a number > 0, ``delta_floor`` is not in (0, 1),
        ``styles`` is too short, or a pair is not two distributions of the same length.
    ParameterTypeError
        If ``mechanisms`` holds something other than Mechanisms or pairs, or ``styles`` is not
        a sequence of dicts.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from rainbowdp import Mechanism, builders
    >>> M = Mechanism(builders.line(["yes", "no"], 1), [[0.75, 0.25], [0.25, 0.75]])
    >>> fig = plot_privacy_profile(M, [0.0, 0.5, 1.0, 1.5], target=(1.0, 0.1))
    >>> line = [ln for ln in fig.axes[0].lines if ln.get_gid() == "privacy_profile"][0]
    >>> line.get_ydata().tolist() == privacy_profile(M, [0.0, 0.5, 1.0, 1.5]).tolist()
    True
    >>> fig.axes[0].get_yscale()
    'log'
    """
    require_matplotlib()
    from matplotlib.transforms import blended_transform_factory

    items = collect_mechanisms(mechanisms, labels)
    mechs = [m for _, m in items]
    floor = float(check_delta(delta_floor, "delta_floor"))
    if not 0.0 < floor < 1.0:
        raise ParameterError(f"`delta_floor` must be in (0, 1), got delta_floor={delta_floor!r}.")
    zero_from = zero_delta_epsilons(mechs)
    grid = (
        default_grid(zero_from, floor_from=floor_epsilons(mechs, floor))
        if epsilons is None
        else np.sort(check_grid(epsilons, "epsilons"))
    )
    if not isinstance(logy, bool | np.bool_):
        raise ParameterTypeError(f"`logy` must be True or False, got logy={logy!r}.")
    if ymin is not None:
        ymin = float(check_delta(ymin, "ymin"))
        if logy and ymin <= 0:
            raise ParameterError(f"`ymin` must be > 0 on a log axis, got ymin={ymin!r}.")
    tgt = _check_target(target)
    looks = resolve_styles(styles, len(items))
    profiles = [privacy_profile(m, grid) for m in mechs]
    verdicts = (
        [verdict_text(float(privacy_profile(m, [tgt[0]])[0]), tgt[1]) for m in mechs]
        if tgt is not None
        else [None] * len(items)
    )

    fig, ax = figure_and_axes(ax, (9.0, 4.4))
    colors = [look.get("color") for look in looks]
    bottom = blended_transform_factory(ax.transData, ax.transAxes)
    names = [label for label, _ in items]
    n_bars = _draw_profiles(ax, grid, names, profiles, zero_from, looks, verdicts, logy, bottom)
    if n_bars:  # a legend entry for the bars (text in the axes could cover a curve)
        ax.plot(
            [],
            [],
            color="0.45",
            lw=4,
            solid_capstyle="butt",
            label=r"bar at the bottom: $\delta = 0$",
        )
    if tgt is not None:
        _draw_target(ax, tgt, items, colors, verdicts, logy, bottom)
    _delta_axis(ax, profiles, tgt, logy, ymin, floor)
    ax.set_xlim(float(grid[0]), float(grid[-1]) if grid[-1] > grid[0] else float(grid[0]) + 1)
    if tgt is not None and tgt[0] > ax.get_xlim()[1]:
        ax.set_xlim(right=tgt[0] * 1.05)
    ax.set_xlabel(r"$\varepsilon$")
    ax.set_ylabel(r"$\delta(\varepsilon)$  (exact, rounded up)")
    ax.set_title("privacy profile" if title is None else title)
    ax.grid(True, which="major", alpha=0.3)
    legend_outside(ax)
    return fig


def _draw_profiles(
    ax: Any,
    grid: np.ndarray,
    labels: list[str],
    profiles: list[np.ndarray],
    zero_from: list[float],
    looks: list[dict[str, Any]],
    verdicts: Sequence[str | None],
    logy: bool,
    bottom: Any,
) -> int:
    """The curves of :func:`plot_privacy_profile` with their legend text and, on a log axis,
    the bars where δ = 0 (in ``bottom``'s blended coordinates); returns the number of bars."""
    n_bars = 0
    for label, d, e0, look, verdict in zip(
        labels, profiles, zero_from, looks, verdicts, strict=True
    ):
        if math.isfinite(e0):
            text = rf"{label}: $\delta = 0$ for $\varepsilon \geq$ {format_up(e0, LABEL_DIGITS)}"
        else:
            text = rf"{label}: $\delta > 0$ at every $\varepsilon$"
        if verdict is not None:
            text += "; at the target: " + _math_greek(verdict)
        style = {"lw": 1.6, **look}
        if grid.size <= _DOTTED_POINTS:
            style["markevery"] = None  # a marker at every ε computed
        (line,) = ax.plot(grid, d, label=text, gid="privacy_profile", **style)
        if logy and math.isfinite(e0) and bool(np.any(d == 0)):
            y = _BAR_Y + _BAR_STEP * n_bars
            ax.plot(
                [max(e0, float(grid[0])), float(grid[-1])],
                [y, y],
                transform=bottom,
                color=line.get_color(),
                lw=4,
                solid_capstyle="butt",
                gid="zero_delta",
            )
            ax.axvline(e0, color=line.get_color(), ls=":", lw=1.0)
            n_bars += 1
    return n_bars


def _delta_axis(
    ax: Any,
    profiles: list[np.ndarray],
    tgt: tuple[float, float] | None,
    logy: bool,
    ymin: float | None,
    floor: float,
) -> None:
    """The δ axis of :func:`plot_privacy_profile`: log or linear, and its lower limit."""
    if not logy:
        ax.set_ylim(bottom=0.0 if ymin is None else ymin)
        return
    positive = [d[d > 0] for d in profiles]
    if tgt is not None and tgt[1] > 0:
        positive.append(np.array([tgt[1]]))
    low = min((float(p.min()) for p in positive if p.size), default=None)
    if low is None:  # nothing to scale on: every δ drawn is 0
        ax.set_ylim(1e-3 if ymin is None else min(ymin, 0.5), 1.0)
    ax.set_yscale("log", nonpositive="mask")
    if low is not None:
        if ymin is not None:
            ax.set_ylim(bottom=ymin)
        elif low < floor:
            ax.set_ylim(bottom=floor)


def _math_greek(text: str) -> str:
    """Plain text with δ and ε written as mathtext."""
    return text.replace("δ", r"$\delta$").replace("ε", r"$\varepsilon$")


def _check_target(target: Any) -> tuple[float, float] | None:
    if target is None:
        return None
    if isinstance(target, str | bytes) or not isinstance(target, Sequence) or len(target) != 2:
        raise ParameterError(f"`target` must be a pair (epsilon, delta), got target={target!r}.")
    return check_epsilon(target[0], "target[0]"), check_delta(target[1], "target[1]")


def _draw_target(
    ax: Any,
    tgt: tuple[float, float],
    items: list[tuple[str, Mechanism]],
    colors: list,
    verdicts: list,
    logy: bool,
    bottom: Any,
) -> None:
    """The requested (ε, δ) and, per mechanism, a hollow marker at its δ(ε)."""
    eps, dlt = float(tgt[0]), float(tgt[1])
    on_floor = {"transform": bottom, "clip_on": False}
    where = on_floor if (logy and dlt == 0) else {}
    ax.plot(
        [eps],
        [_BAR_Y if where else dlt],
        "*",
        color="black",
        ms=14,
        zorder=5,
        label=rf"target $(\varepsilon, \delta)$ = ({eps!r}, {dlt!r})",
        gid="target",
        **where,
    )
    for (label, m), c, verdict in zip(items, colors, verdicts, strict=True):
        d = float(privacy_profile(m, [eps])[0])
        private = d <= dlt
        where = on_floor if (logy and d == 0) else {}
        ax.plot(
            [eps],
            [_BAR_Y if where else d],
            "o",
            mfc="white",
            mec=c,
            mew=1.8,
            ms=8,
            zorder=6,
            label=f"_{label} at the target: {verdict}",
            gid="verdict_private" if private else "verdict_not_private",
            **where,
        )
