"""matplotlib, imported on first use: the one place the plot package checks that it is there.

matplotlib is a dependency of rainbowdp (``rainbowdp demo`` draws its result) imported lazily:
importing :mod:`rainbowdp` or :mod:`rainbowdp.plot` does not import it; every function of the
package that needs it calls :func:`require_matplotlib` before its first matplotlib import, so a
missing installation is reported once, with the command that installs it.
"""

from __future__ import annotations

from types import ModuleType

__all__ = ["INSTALL_HINT", "require_matplotlib"]

#: How to install the dependency of :mod:`rainbowdp.plot` where it is missing.
INSTALL_HINT = "pip install matplotlib"


def require_matplotlib() -> ModuleType:
    """The :mod:`matplotlib` package, or an ImportError saying how to install it.

    pyplot is not imported: figures are made as :class:`matplotlib.figure.Figure` objects, with
    no global state and any backend.

    Raises
    ------
    ImportError
        If matplotlib cannot be imported (an installation without rainbowdp's dependencies);
        the message says how to install it (``pip install matplotlib``).

    Examples
    --------
    >>> require_matplotlib().__name__
    'matplotlib'
    """
    try:
        import matplotlib
    except ImportError as exc:
        raise ImportError(f"rainbowdp.plot needs matplotlib: {INSTALL_HINT} ({exc}).") from exc
    return matplotlib
