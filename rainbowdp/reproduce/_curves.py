r"""The curves of a comparison or sweep figure (:class:`Panel`, :class:`CurveFigure`), their
drawing, and the checks of the figure functions' arguments, shared by the paper modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..exceptions import ParameterError
from ._style import finish, mathtext

__all__ = [
    "CurveFigure",
    "Panel",
    "check_deltas",
    "check_epsilons",
    "check_grid",
    "check_panel",
    "curve_figure",
]


@dataclass(frozen=True)
class Panel:
    r"""One panel of a :class:`CurveFigure`: curves (or bars) over a common x grid.

    Attributes
    ----------
    title, xlabel, ylabel : str
    x : numpy.ndarray
        The grid (ε, δ, μ̄ or η).
    series : dict
        label -> numpy.ndarray of the values at ``x`` (NaN where undefined, e.g. a competitor
        that cannot reach the required distortion).
    kind : {"line", "step", "bars"}
        How the panel is drawn.
    """

    title: str
    xlabel: str
    ylabel: str
    x: np.ndarray = field(repr=False)
    series: dict = field(repr=False)
    kind: str = "line"


@dataclass(frozen=True)
class CurveFigure:
    r"""Data of one comparison or sweep figure (Kadam et al., Figs. 5-8, 11, 12, 14; Sadeghi et
    al., Figs. 1-4; Sadeghi & Chien, Figs. 1-5).

    Attributes
    ----------
    name : str
        e.g. ``"Kadam et al., Fig. 6"``.
    parameters : dict
        The fixed parameters (n, ε or δ, the shifts, the reading, ...), with the choices made
        where the paper is silent.
    panels : tuple of Panel
        The computed curves, one Panel per drawn axes.
    findings : dict
        Numbers derived from the curves (calibrated competitor parameters, exact DP δ, ...).
    figure : matplotlib.figure.Figure
    """

    name: str
    parameters: dict
    panels: tuple
    findings: dict = field(repr=False)
    figure: Any = field(repr=False, compare=False)

    def series(self, label: str, panel: int = 0) -> np.ndarray:
        """The values of one series of one panel (KeyError naming the labels if absent)."""
        p = self.panels[panel]
        if label not in p.series:
            raise KeyError(f"no series {label!r} in panel {panel}; have {list(p.series)}")
        return p.series[label]

    def to_dict(self) -> dict:
        """Plain lists and numbers (NaN kept as float NaN), e.g. for JSON."""
        return {
            "name": self.name,
            "parameters": _plain(self.parameters),
            "panels": [
                {
                    "title": p.title,
                    "xlabel": p.xlabel,
                    "ylabel": p.ylabel,
                    "kind": p.kind,
                    "x": _plain(p.x),
                    "series": _plain(p.series),
                }
                for p in self.panels
            ],
            "findings": _plain(self.findings),
        }


def _plain(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_plain(v) for v in x]
    if isinstance(x, np.ndarray):
        return _plain(x.tolist())
    if isinstance(x, np.generic):
        return x.item()
    return x


# ------------------------------------------------------------------------------- validation
def check_panel(panel: Any, allowed: tuple[str, ...] = ("a", "b")) -> str:
    """``panel`` if it is one of ``allowed``, else ParameterError."""
    if not isinstance(panel, str) or panel not in allowed:
        raise ParameterError(f"`panel` must be one of {allowed}, got panel={panel!r}.")
    return panel


def check_grid(
    values: Any,
    name: str,
    *,
    low: float,
    high: float,
    low_open: bool = False,
    integer: bool = False,
) -> np.ndarray:
    """A non-empty, strictly increasing 1-D grid of finite numbers in [low, high] (or
    (low, high] with ``low_open``); integers if ``integer``."""
    from .._validation import real_array

    if isinstance(values, str | bytes):
        raise ParameterError(f"`{name}` must be a sequence of numbers, got {name}={values!r}.")
    if isinstance(values, range):
        values = list(values)
    arr = real_array(values, name)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    bracket = "(" if low_open else "["
    if (
        arr.ndim != 1
        or arr.size == 0
        or not np.all(np.isfinite(arr))
        or np.any(arr > high)
        or np.any(arr <= low if low_open else arr < low)
    ):
        raise ParameterError(
            f"`{name}` must be a non-empty 1-D sequence of numbers in {bracket}{low:g}, {high:g}], "
            f"got {name}={values!r}."
        )
    if integer and np.any(arr != np.round(arr)):
        raise ParameterError(f"`{name}` must hold integers, got {name}={values!r}.")
    if np.any(np.diff(arr) <= 0):
        raise ParameterError(f"`{name}` must be strictly increasing, got {name}={values!r}.")
    return arr


def check_epsilons(values: Any, name: str = "epsilons") -> np.ndarray:
    """An ε grid: :func:`check_grid` on (0, 30]."""
    return check_grid(values, name, low=0.0, high=30.0, low_open=True)


def check_deltas(values: Any, name: str = "deltas") -> np.ndarray:
    """A δ grid: :func:`check_grid` on [0, 1]."""
    return check_grid(values, name, low=0.0, high=1.0)


def curve_figure(
    name: str, parameters: dict, panels: list[Panel], findings: dict, *, suptitle: str
) -> CurveFigure:
    """A :class:`CurveFigure` drawing ``panels`` side by side: bars for a ``"bars"`` panel
    (:func:`rainbowdp.plot.plot_pmfs`), curves otherwise (:func:`rainbowdp.plot.plot_curves`,
    as steps for a ``"step"`` panel), under the title ``"{name}: {suptitle}"``."""
    from matplotlib.figure import Figure

    from ..plot import plot_curves, plot_pmfs

    k = len(panels)
    fig = Figure(figsize=(5.6 * k, 3.8), layout="constrained")
    axes = fig.subplots(1, k, squeeze=False)[0]
    for ax, p in zip(axes, panels, strict=True):
        if p.kind == "bars":
            labels = list(p.series)
            plot_pmfs(np.array([p.series[s] for s in labels]), labels=labels, ax=ax)
        else:
            plot_curves(p.x, p.series, ax=ax, step=p.kind == "step")
        ax.set_xlabel(p.xlabel)
        ax.set_ylabel(p.ylabel)
        ax.set_title(p.title, fontsize=8)
    fig.suptitle(mathtext(f"{name}: {suptitle}"), fontsize=9)
    finish(fig)
    return CurveFigure(name, parameters, tuple(panels), findings, fig)
