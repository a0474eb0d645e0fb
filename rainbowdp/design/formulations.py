r"""The registry of optimisation formulations: every model a designer of rainbowdp solves.

A :class:`Formulation` is a small object naming one optimisation model of a paper (or the
general one): its kind (LP or MILP), where it is printed, how it adds its variables and
constraints to a shared :class:`~rainbowdp.design._model.ArrayModel`, and the designer that
builds, solves and certifies it. Families (:mod:`rainbowdp.noise`) and the cell-key tables
(:mod:`rainbowdp.cellkey`) keep their papers' analysis and call these designers; none of them
builds a solver model itself.

Every formulation carries :meth:`Formulation.example`, a small instance on which the contract
test (``tests/design/test_formulations.py``) solves it and checks that the design certifies
private and agrees with an independent route.

Examples
--------
>>> from rainbowdp.design.formulations import FORMULATIONS
>>> all(f.kind in ("lp", "milp") for f in FORMULATIONS.values())
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..exceptions import ParameterError

__all__ = ["FORMULATIONS", "Formulation", "get_formulation", "register"]

Kind = Literal["lp", "milp"]


@dataclass(frozen=True)
class Formulation:
    """One optimisation model and the designer that solves it.

    Parameters
    ----------
    name : str
        The registry key (lower case, words joined by ``-``), e.g. ``"kadam13-printed"``.
    kind : {"lp", "milp"}
        A linear program or a mixed-integer linear program.
    reference : str
        Where the model is printed, e.g. ``"Kadam et al., eq. (13)"``; ``""`` for rainbowdp's
        own general models.
    summary : str
        One line: what is optimised subject to what.
    solve : callable
        The designer: builds the model, solves it and returns a certified result (a
        :class:`~rainbowdp.design.DesignResult`, or a family's result holding one).
    example : callable
        ``example() -> dict`` of keyword arguments of ``solve`` for a small instance (solved in
        a second by the contract test).
    add_to : callable or None
        ``add_to(model, **parameters)`` adds the formulation's variables and constraints to a
        shared model and returns its variable ids; ``None`` where the designer builds its
        model whole.
    check : callable or None
        ``check(result, **parameters) -> bool``: whether ``result = solve(**parameters)``
        agrees with an independent route (a closed form, a brute force over leak sets, another
        designer on the same instance); ``None`` where none is registered. The contract test
        runs it on :meth:`example`.
    aliases : tuple of str
        Other names :func:`get_formulation` accepts (old spellings).
    """

    name: str
    kind: Kind
    reference: str
    summary: str
    solve: Callable[..., Any] = field(repr=False)
    example: Callable[[], dict[str, Any]] = field(repr=False)
    add_to: Callable[..., Any] | None = field(default=None, repr=False)
    check: Callable[..., bool] | None = field(default=None, repr=False)
    aliases: tuple[str, ...] = ()


_REGISTRY: dict[str, Formulation] = {}
_ALIASES: dict[str, str] = {}

#: The modules that register formulations when imported; the registry imports them on first
#: use, so that importing :mod:`rainbowdp.design` loads no solver.
REGISTERING_MODULES = (
    "rainbowdp.design._registered",
    "rainbowdp.design._count_lp",
    "rainbowdp.design._tables",
)
_loaded = False


def _load() -> None:
    """Import the registering modules (once)."""
    global _loaded
    if _loaded:
        return
    _loaded = True  # first, so that a registering module reading the registry does not recurse
    try:
        for module in REGISTERING_MODULES:
            importlib.import_module(module)
    except BaseException:
        _loaded = False  # a failed import is retried (and reported) on the next use
        raise


class _Registry(Mapping[str, Formulation]):
    """A read-only view of the registered formulations by name, complete on first use."""

    def __getitem__(self, name: str) -> Formulation:
        _load()
        return _REGISTRY[name]

    def __iter__(self) -> Iterator[str]:
        _load()
        return iter(dict(_REGISTRY))

    def __len__(self) -> int:
        _load()
        return len(_REGISTRY)

    def __repr__(self) -> str:
        return f"FORMULATIONS({', '.join(self)})"


#: Every registered formulation by name (read-only).
FORMULATIONS: Mapping[str, Formulation] = _Registry()


def register(formulation: Formulation) -> Formulation:
    """Add ``formulation`` to :data:`FORMULATIONS` (its name must be new) and return it."""
    if not isinstance(formulation, Formulation):
        raise TypeError(f"`formulation` must be a Formulation, got {formulation!r}.")
    if formulation.kind not in ("lp", "milp"):
        raise ParameterError(f"`kind` must be 'lp' or 'milp', got {formulation.kind!r}.")
    for name in (formulation.name, *formulation.aliases):
        if name in _REGISTRY or name in _ALIASES:
            raise ParameterError(f"a formulation named {name!r} is already registered.")
    _REGISTRY[formulation.name] = formulation
    for alias in formulation.aliases:
        _ALIASES[alias] = formulation.name
    return formulation


def get_formulation(name: str) -> Formulation:
    """The registered formulation called ``name`` (or one of its aliases); a clear error
    naming the known ones.

    Examples
    --------
    >>> get_formulation("kadam13").name          # the old name of the per-node MILP
    'kadam13-per-node'
    """
    _load()
    try:
        return _REGISTRY[_ALIASES.get(name, name)]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_REGISTRY))
        raise ParameterError(f"unknown formulation {name!r}; known: {known}.") from None
