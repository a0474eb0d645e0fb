"""Old names kept for one release: each call warns and names the one name to use.

docs/conventions.md ("Names") lists every concept's one name and the old names below.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["deprecated_alias"]

F = TypeVar("F", bound=Callable[..., Any])


def deprecated_alias(function: F, old: str, new: str) -> F:
    """``function`` under its old name ``old``: every call first warns (DeprecationWarning,
    naming ``new``), then returns what ``function`` returns.

    Examples
    --------
    >>> import warnings
    >>> def dp_delta(x):
    ...     return x
    >>> delta = deprecated_alias(dp_delta, "delta", "dp_delta")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     value = delta(3)
    >>> value, str(caught[0].message)
    (3, '`delta` is deprecated: use `dp_delta` (docs/conventions.md, "Names").')
    """

    @functools.wraps(function)
    def alias(*args: Any, **kwargs: Any) -> Any:
        warnings.warn(
            f'`{old}` is deprecated: use `{new}` (docs/conventions.md, "Names").',
            DeprecationWarning,
            stacklevel=2,
        )
        return function(*args, **kwargs)

    alias.__name__ = old.rsplit(".", 1)[-1]
    alias.__qualname__ = old
    alias.__doc__ = f"Deprecated: the old name of :func:`{new}`, which it calls after a warning."
    return alias  # type: ignore[return-value]
