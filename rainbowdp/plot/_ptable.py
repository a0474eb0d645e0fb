r"""An agency's perturbation table next to rainbowdp's design for the same D and variance cap:
the exact δ(ε) of both, in one figure (:func:`plot_ptable_comparison`).

Every δ drawn is the exact one of :func:`rainbowdp.cellkey.audit` (the verifier's, rounded up)
on the key grid of the comparison; numbers in the legend are rounded up too, so no label
claims more privacy than the table has.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._format import format_up
from ..exceptions import ParameterTypeError
from ._inputs import check_grid
from ._mpl import require_matplotlib
from ._style import figure_and_axes, legend_outside, resolve_styles

__all__ = ["PTABLE_FLOOR", "PTABLE_POINTS", "plot_ptable_comparison"]

#: Points of the default ε grid (0 to twice the compared ε).
PTABLE_POINTS = 41
#: δ below this is drawn at it (the y axis is logarithmic).
PTABLE_FLOOR = 1e-12

_NEEDED = ("table", "design", "keysize", "grid", "epsilon", "D", "variance", "method")


def _curves(table: Any, grid: np.ndarray, keysize: int | None) -> tuple[np.ndarray, np.ndarray]:
    """δ(ε) on the counts >= D and over all counts (exact, rounded up)."""
    from ..cellkey import audit

    rep = audit(table, epsilons=grid.tolist(), keysize=keysize)
    every = np.asarray(rep.delta_at_epsilon, dtype=np.float64)
    ind = rep.delta_at_epsilon_independent
    return (every if ind is None else np.asarray(ind, dtype=np.float64)), every


def plot_ptable_comparison(
    comparison: Any,
    *,
    epsilons: Any = None,
    all_counts: bool = True,
    styles: Any = None,
    ax: Any = None,
    figsize: tuple[float, float] = (7.5, 4.0),
) -> Any:
    r"""The exact δ(ε) of an agency's ptable and of rainbowdp's table for the same D and
    variance cap (a comparison of ``rainbowdp.cellkey.compare_with_design``).

    Solid curves: δ on the neighbouring counts >= D (the data-independent rows of a table
    without blocking); dotted, with ``all_counts``: δ over every count. A vertical line marks
    the compared ε, a dot each table's δ there; the legend gives D, the variance and (ε, δ).

    Parameters
    ----------
    comparison : PtableComparison
        From ``compare_with_design`` (its ``table``, ``design.table``, ``keysize``,
        ``epsilon``, ``D``, ``variance`` and ``method`` are used).
    epsilons : array_like of float, optional
        The ε grid (finite, >= 0); default 41 points from 0 to twice the compared ε.
    all_counts : bool, default True
        Also draw δ over all counts.
    styles : sequence of dict, optional
        Two ``ax.plot`` styles (agency, design); default the palette's first two.
    ax : matplotlib Axes, optional
        Draw on it (else on a new Figure).
    figsize : (float, float)
        Size of a new Figure.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from rainbowdp.cellkey import Ptable
    >>> from rainbowdp.cellkey._compare_agency import compare_with_design
    >>> c = compare_with_design(Ptable.from_parameters(3, 1.0), epsilon=1.0)
    >>> fig = plot_ptable_comparison(c, epsilons=[0.0, 0.5, 1.0, 1.5])
    >>> len(fig.axes[0].lines) >= 4
    True
    """
    missing = [a for a in _NEEDED if not hasattr(comparison, a)]
    if missing:
        raise ParameterTypeError(
            f"`comparison` must be a PtableComparison (from compare_with_design), got "
            f"{type(comparison).__name__} without {missing}."
        )
    if not isinstance(all_counts, bool):
        raise ParameterTypeError(f"`all_counts` must be a bool, got all_counts={all_counts!r}.")
    eps = float(comparison.epsilon)
    grid = (
        np.linspace(0.0, 2.0 * eps, PTABLE_POINTS)
        if epsilons is None
        else np.unique(check_grid(epsilons, "epsilons"))
    )
    require_matplotlib()
    fig, ax = figure_and_axes(ax, figsize)
    st = resolve_styles(styles, 2)
    K = comparison.keysize
    design = comparison.design
    tables = (
        ("agency ptable", comparison.table, comparison.D, comparison.variance),
        (
            f"rainbowdp {comparison.method}",
            design.table,
            design.D,
            float(design.table.variance.max()),
        ),
    )
    for k, (name, T, D, V) in enumerate(tables):
        ind, every = _curves(T, grid, K)
        at, _ = _curves(T, np.array([eps]), K)
        style = {key: val for key, val in st[k].items() if key not in ("markevery",)}
        label = (
            f"{name}: D = {D}, variance {V:.4g}; "
            f"δ = {format_up(float(at[0]), 4)} at ε = {format_up(eps, 4)} (counts ≥ D)"
        )
        ax.plot(grid, np.maximum(ind, PTABLE_FLOOR), label=label, **{**style, "marker": None})
        if all_counts:
            ax.plot(
                grid,
                np.maximum(every, PTABLE_FLOOR),
                color=style.get("color"),
                linestyle=":",
                label=f"{name}: all counts",
            )
        ax.plot([eps], [max(float(at[0]), PTABLE_FLOOR)], "o", color=style.get("color"))
    ax.axvline(eps, color="0.5", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xlabel("ε")
    ax.set_ylabel("δ(ε) (exact)")
    ax.set_title(f"same D and variance cap ({comparison.grid})", fontsize=10)
    legend_outside(ax)
    return fig
