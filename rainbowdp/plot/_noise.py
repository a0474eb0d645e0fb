r"""The PMF and the CDF of integer noise laws (arrays of probabilities or
:mod:`rainbowdp.noise` laws and families)."""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._validation import check_int, real_array
from ..exceptions import ParameterError, ParameterTypeError
from ._inputs import check_labels
from ._style import figure_and_axes, legend_outside, resolve_styles

#: Hatches of the bars of the second, third, ... law (``kind="bar"``).
_HATCHES = (None, "//", "..", "xx", "\\\\", "oo")

__all__ = ["plot_noise_cdf", "plot_noise_pmf"]

#: Mass a noise law may have outside the range chosen for it when no support is given.
TAIL_MASS = 1e-6
#: Largest |k| searched for that range (beyond it, pass ``support``).
MAX_AUTO_SUPPORT = 2**20
#: Values between the supports of several laws are drawn (with probability 0) when the whole
#: range has fewer values than this.
MAX_FILLED_SUPPORT = 100_000


def _is_law(value: Any) -> bool:
    from ..noise import AdditiveFamily, NoiseLaw

    return isinstance(value, NoiseLaw | AdditiveFamily)


def _law_of(value: Any) -> Any:
    from ..noise import AdditiveFamily

    return value.law() if isinstance(value, AdditiveFamily) else value


def _check_support(support: Any, size: int | None) -> np.ndarray:
    """``support`` as a strictly increasing int64 array of ``size`` values (None: any size);
    an int is the first of ``size`` consecutive values, None means 0..size-1."""
    if support is None:
        return np.arange(size or 0, dtype=np.int64)
    if isinstance(support, numbers.Integral) and not isinstance(support, bool):
        if size is None:
            raise ParameterError(
                f"`support` must be an array of integers for a noise law, got support={support!r}."
            )
        start = check_int(support, "support")
        return np.arange(start, start + size, dtype=np.int64)
    arr = real_array(support, "support")
    if arr.ndim != 1 or arr.size == 0:
        raise ParameterError(f"`support` must be a non-empty 1-D array, got shape {arr.shape}.")
    if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)) or np.any(abs(arr) > 2**52):
        raise ParameterError(f"`support` must hold integers, got support={support!r:.200}.")
    if arr.size > 1 and np.any(np.diff(arr) <= 0):
        raise ParameterError(
            f"`support` must be strictly increasing, got support={support!r:.200}."
        )
    if size is not None and arr.size != size:
        raise ParameterError(
            f"`support` must have one value per probability ({size}), got {arr.size}."
        )
    return arr.astype(np.int64)


def _law_range(law: Any) -> np.ndarray:
    """An integer range holding all but :data:`TAIL_MASS` of a law's mass."""
    try:
        lo, hi = law.window()
        return np.arange(lo, hi + 1, dtype=np.int64)
    except NotImplementedError:
        pass
    r = 1
    while True:
        outside = float(law.cdf(np.array([-r - 1]))[0] + law.sf(np.array([r + 1]))[0])
        if outside <= TAIL_MASS / 2:
            break
        if r >= MAX_AUTO_SUPPORT:
            raise ParameterError(
                f"the noise law {law!r} has more than {TAIL_MASS:g} of its mass beyond "
                f"+-{MAX_AUTO_SUPPORT}; pass `support` to choose the range shown."
            )
        r *= 2
    k = np.arange(-r, r + 1, dtype=np.int64)
    keep = (law.cdf(k) > TAIL_MASS / 4) & (law.sf(k) > TAIL_MASS / 4)
    return k[keep] if np.any(keep) else k


def _laws(pmf: Any, support: Any, labels: Any) -> tuple[np.ndarray, list, list, list]:
    """The common support, and per law: its label, PMF and CDF on that support and the CDF
    just below it."""
    if isinstance(pmf, Mapping):
        if labels is not None:
            raise ParameterError(
                "`labels` must not be given with a mapping `pmf` (its keys are the labels), "
                f"got labels={labels!r}."
            )
        if not pmf:
            raise ParameterError("`pmf` must not be empty, got an empty mapping.")
        names, entries = [str(k) for k in pmf], list(pmf.values())
    elif _is_law(pmf):
        names, entries = [repr(pmf)], [pmf]
    elif isinstance(pmf, list | tuple) and pmf and any(_is_law(v) for v in pmf):
        names, entries = [repr(v) for v in pmf], list(pmf)
    else:
        if isinstance(pmf, str | bytes):
            raise ParameterTypeError(f"`pmf` must be an array of numbers, got pmf={pmf!r}.")
        arr = real_array(pmf, "pmf")
        if arr.ndim not in (1, 2) or arr.size == 0:
            raise ParameterError(
                f"`pmf` must be a non-empty array of shape (n,) or (k, n), got shape {arr.shape}."
            )
        rows = np.atleast_2d(arr)
        names = [f"law {i + 1}" for i in range(rows.shape[0])] if rows.shape[0] > 1 else ["pmf"]
        entries = list(rows)
    if labels is not None:
        names = check_labels(labels, len(entries))
    explicit = None if support is None or isinstance(support, numbers.Integral) else support
    pieces: list[tuple[Any, np.ndarray]] = []  # (law or None, values on own support)
    supports: list[np.ndarray] = []
    for name, entry in zip(names, entries, strict=True):
        if _is_law(entry):
            law = _law_of(entry)
            k = _check_support(explicit, None) if explicit is not None else _law_range(law)
            pieces.append((law, k))
            supports.append(k)
            continue
        if isinstance(entry, str | bytes):
            raise ParameterTypeError(f"`pmf` entry {name!r} must be numbers, got {entry!r}.")
        row = real_array(entry, f"pmf[{name!r}]")
        if row.ndim != 1 or row.size == 0:
            raise ParameterError(
                f"`pmf` entry {name!r} must be a non-empty 1-D array, got shape {row.shape}."
            )
        if not np.all(np.isfinite(row)) or np.any(row < 0) or row.sum() > 1 + 1e-9:
            raise ParameterError(
                f"`pmf` entry {name!r} must hold finite probabilities >= 0 summing to at most "
                f"1, got {row.tolist()!r:.200}."
            )
        k = _check_support(support, row.size)
        pieces.append((None, row))
        supports.append(k)
    grid = np.unique(np.concatenate(supports))
    if grid[-1] - grid[0] < MAX_FILLED_SUPPORT:  # values between supports have probability 0
        grid = np.arange(grid[0], grid[-1] + 1, dtype=np.int64)
    pmfs, cdfs, before = [], [], []
    for (law, values), k in zip(pieces, supports, strict=True):
        if law is None:
            p = np.zeros(grid.size)
            p[np.searchsorted(grid, k)] = values
            pmfs.append(p)
            cdfs.append(np.cumsum(p))
            before.append(0.0)
        else:
            pmfs.append(np.asarray(law.pmf(grid), dtype=float))
            cdfs.append(np.asarray(law.cdf(grid), dtype=float))
            before.append(float(law.cdf(grid[:1] - 1)[0]))
    return grid, names, pmfs, list(zip(cdfs, before, strict=True))


def plot_noise_pmf(
    pmf: Any,
    support: Any = None,
    *,
    labels: Sequence[str] | None = None,
    kind: str | None = None,
    logy: bool = False,
    ax: Any = None,
    styles: Sequence[Mapping[str, Any]] | None = None,
) -> Any:
    r"""The PMF :math:`f(k) = \Pr[\eta = k]` of one or more integer noise laws.

    Parameters
    ----------
    pmf : array_like, NoiseLaw, AdditiveFamily, sequence or mapping
        An array of probabilities of shape (n,) (one law) or (k, n) (k laws on one support);
        a :class:`rainbowdp.noise.NoiseLaw` (e.g. ``noise.TableLaw(p, offset=-2)``,
        ``noise.GeometricLaw(alpha)``); an additive family such as ``noise.Geometric(1.0)``
        (its :meth:`~rainbowdp.noise.AdditiveFamily.law`, at the family's build ε); a list of
        laws; or a mapping label -> any of these (arrays then share ``support``).
    support : int or array_like of int, optional
        The noise values of the array entries: an int is the value of entry 0 (default 0),
        an array gives one strictly increasing integer per entry. For laws, an array chooses
        the values shown; by default a law's finite window, or the smallest range
        :math:`[-2^j, 2^j]`, trimmed, outside which it has at most :data:`TAIL_MASS` of its
        mass. Several laws are drawn on the union of their supports, filled to a range of
        consecutive integers (values outside every support have probability 0) unless that
        range has :data:`MAX_FILLED_SUPPORT` values or more.
    labels : sequence of str, optional
        Legend labels (not with a mapping).
    kind : {"stem", "bar", "line"}, optional
        Stems (laws side by side), grouped bars, or lines with markers. Default: stems when
        there are at most 120 (law, value) pairs, else lines.
    logy : bool, default False
        Log scale on the probability axis (zero probabilities are not drawn).
    ax : matplotlib.axes.Axes, optional
    styles : sequence of dict, optional
        One dict of plot keywords per law (default :func:`rainbowdp.plot.series_styles`: its
        colour, line style and marker; for bars its colour and a hatch per law after the
        first, or the dict's ``hatch``).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ParameterError
        If an array has negative or non-finite entries or sums to more than 1, ``support`` is
        not strictly increasing integers of the right length, ``kind`` is unknown or
        ``labels`` has the wrong length.
    ParameterTypeError
        If ``pmf`` is neither numbers nor noise laws.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig = plot_noise_pmf([0.25, 0.5, 0.25], support=-1)
    >>> stems = fig.axes[0].containers[0]
    >>> stems.markerline.get_xdata().tolist(), stems.markerline.get_ydata().tolist()
    ([-1.0, 0.0, 1.0], [0.25, 0.5, 0.25])
    """
    grid, names, pmfs, _ = _laws(pmf, support, labels)
    n_laws = len(pmfs)
    if kind is None:
        kind = "stem" if n_laws * grid.size <= 120 else "line"
    if kind not in ("stem", "bar", "line"):
        raise ParameterError(f"`kind` must be 'stem', 'bar' or 'line', got kind={kind!r}.")
    if not isinstance(logy, bool | np.bool_):
        raise ParameterTypeError(f"`logy` must be True or False, got logy={logy!r}.")
    fig, ax = figure_and_axes(ax, (7.0, 3.8))
    looks = resolve_styles(styles, n_laws)
    colors = [look.get("color") for look in looks]
    width = 0.8 / n_laws
    x = grid.astype(float)
    floor = 0.0
    if logy:
        positive = np.concatenate([p[p > 0] for p in pmfs])
        floor = float(positive.min()) / 3 if positive.size else 1e-3
    for i, (name, p, c, look) in enumerate(zip(names, pmfs, colors, looks, strict=True)):
        shift = (i - (n_laws - 1) / 2) * width if kind != "line" else 0.0
        if kind == "stem":
            marker = look.get("marker", "o")
            st = ax.stem(x + shift, p, linefmt="-", markerfmt=marker, basefmt=" ", bottom=floor)
            st.set_label(name)
            for art in (st.markerline, st.stemlines):
                art.set_color(c)
            st.markerline.set_markersize(4)
            st.stemlines.set_linewidth(1.2)
            st.stemlines.set_linestyle(look.get("linestyle", "-"))
        elif kind == "bar":
            hatch = look.get("hatch", _HATCHES[i % len(_HATCHES)])
            ax.bar(
                x + shift,
                p,
                width=width,
                color=c,
                hatch=hatch,
                label=name,
                edgecolor="black",
                lw=0.3,
            )
        else:
            ax.plot(x, p, **{"lw": 1.2, **look, "markersize": 3.5}, label=name, gid="pmf")
    if logy:
        ax.set_yscale("log", nonpositive="mask")
        ax.set_ylim(bottom=floor)
    else:
        ax.set_ylim(bottom=0.0)
    if grid.size <= 25:
        ax.set_xticks(grid)
    ax.set_xlabel("noise value k")
    ax.set_ylabel(r"$\Pr[\eta = k]$")
    ax.set_title("noise PMF")
    ax.grid(True, axis="y", alpha=0.3)
    if n_laws > 1 or labels is not None or isinstance(pmf, Mapping):
        legend_outside(ax)
    return fig


def plot_noise_cdf(
    pmf: Any,
    support: Any = None,
    *,
    labels: Sequence[str] | None = None,
    ax: Any = None,
    styles: Sequence[Mapping[str, Any]] | None = None,
) -> Any:
    r"""The CDF :math:`F(k) = \Pr[\eta \le k]` of one or more integer noise laws, as steps.

    Arguments are those of :func:`plot_noise_pmf`. For an array the CDF is the cumulative sum
    of its entries (it ends at their sum, 1 for a full PMF); for a law it is the law's own
    :meth:`~rainbowdp.noise.NoiseLaw.cdf` (which also counts mass outside the values shown).
    Each curve starts one value before the support, at the CDF there, and ends one value after.

    Returns
    -------
    matplotlib.figure.Figure
        Curve *i* is the Line2D of ``gid`` ``"cdf"`` whose y data are
        ``[F(k_0 - 1), F(k_0), ..., F(k_last), F(k_last)]``.

    Raises
    ------
    ParameterError, ParameterTypeError
        As :func:`plot_noise_pmf`.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig = plot_noise_cdf([0.25, 0.5, 0.25], support=-1)
    >>> fig.axes[0].lines[0].get_ydata().tolist()
    [0.0, 0.25, 0.75, 1.0, 1.0]
    """
    grid, names, _, cdfs = _laws(pmf, support, labels)
    fig, ax = figure_and_axes(ax, (7.0, 3.8))
    looks = resolve_styles(styles, len(cdfs))
    x = np.concatenate([[grid[0] - 1], grid, [grid[-1] + 1]]).astype(float)
    for name, (cdf, before), look in zip(names, cdfs, looks, strict=True):
        y = np.concatenate([[before], cdf, cdf[-1:]])
        ax.step(x, y, where="post", **{"lw": 1.5, **look}, label=name, gid="cdf")
    ax.axhline(1.0, color="grey", ls=":", lw=0.8)
    ax.set_ylim(-0.02, 1.05)
    ax.set_xlim(x[0], x[-1])
    ax.set_xlabel("noise value k")
    ax.set_ylabel(r"$\Pr[\eta \leq k]$")
    ax.set_title("noise CDF")
    ax.grid(True, alpha=0.3)
    if len(cdfs) > 1 or labels is not None or isinstance(pmf, Mapping):
        legend_outside(ax)
    return fig
