r"""Which model a design is built in, for a given solver.

:func:`new_model` gives :class:`~rainbowdp.design._highs.HighsModel` (the arrays straight into
highspy) for ``solver="highs"`` and :class:`~rainbowdp.design._model.ModelBuilder` (a PuLP
problem) for every other solver. Both are :class:`~rainbowdp.design._model.ArrayModel`\ s, so the
designers fill them alike.
"""

from __future__ import annotations

from typing import Any

from . import solvers
from ._highs import HighsModel
from ._model import ArrayModel, ModelBuilder

__all__ = ["new_model"]


def new_model(name: str, solver: Any) -> ArrayModel:
    """The model for ``solver`` (as returned by :func:`rainbowdp.design.solvers.make_solver`):
    arrays straight into highspy for ``"highs"`` (:class:`~rainbowdp.design._highs.HighsModel`),
    a PuLP problem (:class:`~rainbowdp.design._model.ModelBuilder`) for every other solver, a
    ``pulp.HiGHS`` object passed by the caller included."""
    if isinstance(solver, solvers.HighsArrays):
        return HighsModel(name)
    return ModelBuilder(name)
