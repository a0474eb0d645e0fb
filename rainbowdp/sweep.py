r"""Many independent computations at once: parameter sweeps on processes, threads or a cluster.

A sweep evaluates one function at many points -- designs over a grid of (ε, δ), verifications
of many mechanisms, profiles at many parameters -- and each point is independent of the others,
so the points run in parallel on:

* a pool of worker processes (the default; :class:`concurrent.futures.ProcessPoolExecutor`,
  started with ``forkserver`` where available, so the function and the points must pickle);
* a pool of threads (``executor="threads"``; for functions that release the GIL or wait);
* the calling thread (``executor="serial"``; for debugging);
* any :class:`concurrent.futures.Executor` you made (it is used, not shut down);
* a ``dask.distributed.Client`` (its :meth:`get_executor`), local or on a cluster.

Results come back in the order of the points, whatever the order of completion. A progress
bar is shown with tqdm when it is installed (the ``tables`` extra). A point that raises is
reported with its index and value: :func:`sweep` raises :class:`SweepError` (the pending points
are cancelled), or, with ``errors="return"``, puts a :class:`PointError` in that point's place
and goes on.

:func:`design_sweep` is the sweep most users want first: :func:`rainbowdp.design.lp` (or
:func:`~rainbowdp.design.milp`) at every (ε, δ) of a grid, as a :class:`DesignGrid`.

Examples
--------
>>> import math
>>> sweep(math.sqrt, [1.0, 4.0, 9.0], executor="threads", progress=False)
[1.0, 2.0, 3.0]
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import multiprocessing
import pickle
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ._validation import check_delta, check_epsilon, check_int, real_array
from .exceptions import ParameterError, ParameterTypeError, RainbowDPError

__all__ = [
    "DesignGrid",
    "PointError",
    "SweepError",
    "design_sweep",
    "sweep",
]

_NAMES = ("processes", "threads", "serial")


@dataclass(frozen=True)
class PointError:
    """A point of a sweep that raised, in that point's place of the results
    (``errors="return"``).

    Attributes
    ----------
    index : int
        Position of the point in ``points``.
    point : object
        The point.
    exception : BaseException
        What it raised.
    traceback : str
        The formatted traceback (for a worker process, with the worker's own traceback).
    """

    index: int
    point: Any
    exception: BaseException
    traceback: str

    def __str__(self) -> str:
        return (
            f"point {self.index} ({_short(self.point)}) raised "
            f"{type(self.exception).__name__}: {self.exception}"
        )

    def __repr__(self) -> str:  # one line: the traceback is in .traceback
        return (
            f"PointError(index={self.index}, point={_short(self.point)}, "
            f"exception={type(self.exception).__name__}({_short(str(self.exception))}))"
        )


class SweepError(RainbowDPError):
    """A point of a sweep raised; ``index``, ``point`` and ``exception`` say which and what
    (the exception is also the ``__cause__``)."""

    def __init__(self, failure: PointError) -> None:
        super().__init__(str(failure))
        self.failure = failure
        self.index = failure.index
        self.point = failure.point
        self.exception = failure.exception

    def __reduce__(self) -> tuple:
        return (SweepError, (self.failure,))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _call(fn: Callable[..., Any], point: Any) -> Any:
    """``fn(**point)`` for a mapping, ``fn(point)`` otherwise."""
    if isinstance(point, Mapping):
        return fn(**point)
    return fn(point)


def _process_context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _is_dask_client(obj: Any) -> bool:
    return type(obj).__module__.startswith("distributed") and hasattr(obj, "get_executor")


def _executor(executor: Any, max_workers: int | None) -> tuple[cf.Executor | None, bool]:
    """The executor to use (None: the calling thread), and whether :func:`sweep` made it (and
    so shuts it down)."""
    if executor is None or executor == "processes":
        return cf.ProcessPoolExecutor(max_workers, mp_context=_process_context()), True
    if executor == "threads":
        return cf.ThreadPoolExecutor(max_workers), True
    if executor == "serial":
        return None, False
    if isinstance(executor, str):
        raise ParameterError(
            f"`executor` must be None, one of {list(_NAMES)}, a concurrent.futures.Executor or "
            f"a dask.distributed Client, got executor={executor!r}."
        )
    if isinstance(executor, cf.Executor):
        return executor, False
    if _is_dask_client(executor):
        return executor.get_executor(pure=False), False
    raise ParameterTypeError(
        f"`executor` must be None, a name, a concurrent.futures.Executor or a "
        f"dask.distributed Client, got executor={type(executor).__name__}."
    )


def _progress_bar(progress: bool, total: int) -> Any:
    if not progress or total == 0:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc="sweep", unit="point")


def _check_picklable(fn: Callable[..., Any]) -> None:
    try:
        pickle.dumps(fn)
    except Exception as exc:  # any pickling failure means the same thing
        raise ParameterTypeError(
            f"`fn` must be picklable to run on worker processes (a module-level function or a "
            f"functools.partial of one, not a lambda or a local function), got fn={fn!r} "
            f"({type(exc).__name__}: {exc}); or pass executor='threads'."
        ) from None


def sweep(
    fn: Callable[..., Any],
    points: Iterable[Any],
    *,
    executor: Literal["processes", "threads", "serial"] | cf.Executor | Any | None = None,
    max_workers: int | None = None,
    progress: bool = True,
    errors: Literal["raise", "return"] = "raise",
) -> list[Any]:
    """Evaluate ``fn`` at every point, in parallel, and return the results in input order.

    Parameters
    ----------
    fn : callable
        Called as ``fn(**point)`` for a mapping point and ``fn(point)`` otherwise. With
        processes (the default) it must pickle: a module-level function or a
        :func:`functools.partial` of one.
    points : iterable
        The points; read once, into a list.
    executor : None, str, concurrent.futures.Executor or dask.distributed.Client
        Where to run (see the module notes): ``"processes"`` (the default, also for None),
        ``"threads"`` or ``"serial"``; an executor or client you pass is used and left open.
        Worker processes are best run with one BLAS thread each (``OPENBLAS_NUM_THREADS=1``
        in their environment, as Dask's workers have), else their BLAS threads compete for the
        same cores.
    max_workers : int, optional
        Workers of a pool made here (default: the executor's default, for processes the
        number of CPUs).
    progress : bool, default True
        Show a tqdm progress bar (when tqdm is installed).
    errors : {"raise", "return"}, default "raise"
        ``"raise"``: on the first failure, cancel the points not yet started and raise
        :class:`SweepError` from it. ``"return"``: put a :class:`PointError` in the failed
        point's place and go on.

    Returns
    -------
    list
        ``[fn(point) for point in points]``, in that order.

    Raises
    ------
    SweepError
        A point raised (``errors="raise"``); it names the point's index and value.
    ParameterError, ParameterTypeError
        On a bad ``executor``, ``max_workers``, ``errors`` or ``progress``, or a ``fn`` that
        cannot go to worker processes.

    Examples
    --------
    >>> import math, operator
    >>> sweep(operator.neg, [1, 2, 3], executor="serial", progress=False)
    [-1, -2, -3]
    >>> sweep(divmod, [{"a": 7, "b": 2}], executor="serial", progress=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rainbowdp.sweep.SweepError: point 0 ({'a': 7, 'b': 2}) raised TypeError: ...
    >>> out = sweep(math.sqrt, [4.0, -1.0], executor="threads", progress=False, errors="return")
    >>> out[0], type(out[1]).__name__, out[1].index
    (2.0, 'PointError', 1)
    """
    if not callable(fn):
        raise ParameterTypeError(f"`fn` must be callable, got fn={fn!r}.")
    if errors not in ("raise", "return"):
        raise ParameterError(f'`errors` must be "raise" or "return", got errors={errors!r}.')
    if not isinstance(progress, bool):
        raise ParameterTypeError(f"`progress` must be a bool, got progress={progress!r}.")
    if max_workers is not None:
        max_workers = check_int(max_workers, "max_workers", minimum=1)
    if isinstance(points, str | bytes) or not isinstance(points, Iterable):
        raise ParameterTypeError(
            f"`points` must be an iterable of points, got points={_short(points)}."
        )
    pts = list(points)
    pool, owned = _executor(executor, max_workers)
    if isinstance(pool, cf.ProcessPoolExecutor):
        _check_picklable(fn)
    results: list[Any] = [None] * len(pts)
    bar = _progress_bar(progress, len(pts))

    def settle(i: int, value: Any, exc: BaseException | None) -> None:
        if exc is None:
            results[i] = value
        else:
            failure = PointError(i, pts[i], exc, "".join(traceback.format_exception(exc)))
            if errors == "raise":
                raise SweepError(failure) from exc
            results[i] = failure
        if bar is not None:
            bar.update(1)

    try:
        if pool is None:  # serial: in order, in this thread
            for i, pt in enumerate(pts):
                try:
                    value, exc = _call(fn, pt), None
                except Exception as err:  # reported per point
                    value, exc = None, err
                settle(i, value, exc)
            return results
        futures = {pool.submit(_call, fn, pt): i for i, pt in enumerate(pts)}
        try:
            for fut in cf.as_completed(futures):
                raised = fut.exception()
                settle(futures[fut], None if raised is not None else fut.result(), raised)
        except BaseException:
            for other in futures:
                other.cancel()
            raise
    finally:
        if bar is not None:
            bar.close()
        if owned and pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    return results


# ---------------------------------------------------------------------- design over a grid
def _design_point(
    method: str, G: Any, options: Mapping[str, Any], epsilon: float, delta: float
) -> Any:
    """One design of :func:`design_sweep` (module level, so that it pickles)."""
    from . import design

    return getattr(design, method)(G, epsilon=epsilon, delta=delta, **options)


def _check_grid(values: Any, name: str, check: Callable[[Any, str], float]) -> np.ndarray:
    if isinstance(values, str | bytes):
        raise ParameterTypeError(f"`{name}` must be an array of numbers, got {name}={values!r}.")
    arr = np.atleast_1d(real_array(values, name))
    if arr.ndim != 1 or arr.size == 0:
        raise ParameterError(
            f"`{name}` must be a non-empty 1-D array of numbers, got shape {arr.shape}."
        )
    return np.array([check(float(v), name) for v in arr])


@dataclass(frozen=True)
class DesignGrid:
    """Result of :func:`design_sweep`: one design per (ε, δ) of a grid.

    Attributes
    ----------
    epsilons, deltas : numpy.ndarray
        The grid's axes.
    results : numpy.ndarray of object, shape (len(epsilons), len(deltas))
        ``results[i, j]`` is the :class:`rainbowdp.design.DesignResult` at
        ``(epsilons[i], deltas[j])``, or a :class:`PointError` where the design failed
        (``errors="return"``).
    """

    epsilons: np.ndarray
    deltas: np.ndarray
    results: np.ndarray

    def _field(self, name: str) -> np.ndarray:
        out = np.full(self.results.shape, np.nan)
        for idx, r in np.ndenumerate(self.results):
            if not isinstance(r, PointError):
                out[idx] = getattr(r, name)
        return out

    @property
    def objective(self) -> np.ndarray:
        """Utility of each design (NaN where it failed), shape (len(epsilons), len(deltas))."""
        return self._field("objective")

    @property
    def achieved_delta(self) -> np.ndarray:
        """The verifier's δ of each design at its ε (NaN where it failed)."""
        return self._field("achieved_delta")

    @property
    def failures(self) -> list[PointError]:
        """The points that failed, in grid order."""
        return [r for r in self.results.flat if isinstance(r, PointError)]

    def __repr__(self) -> str:
        n_failed = len(self.failures)
        return (
            f"DesignGrid({self.epsilons.size} x {self.deltas.size} designs, "
            f"epsilons={_short(self.epsilons.tolist())}, deltas={_short(self.deltas.tolist())}, "
            f"{n_failed} failed)"
        )

    def _repr_html_(self) -> str:
        from ._format import format_down, format_up, html_table

        rows = []
        for (i, j), r in np.ndenumerate(self.results):
            e, d = float(self.epsilons[i]), float(self.deltas[j])
            if isinstance(r, PointError):
                rows.append([f"{e:g}", f"{d:g}", "failed", _short(str(r.exception)), ""])
            else:
                rows.append(
                    [
                        f"{e:g}",
                        f"{d:g}",
                        str(r.status),
                        format_down(float(r.objective)),
                        format_up(float(r.achieved_delta)),
                    ]
                )
        return html_table(
            f"DesignGrid: {self.epsilons.size} x {self.deltas.size} designs, "
            f"{len(self.failures)} failed",
            ["epsilon", "delta", "status", "objective (rounded down)", "achieved delta (up)"],
            rows,
        )

    def to_pandas(self) -> Any:
        """:meth:`to_records` as a :class:`pandas.DataFrame`: one row per grid point
        (row-major), the columns ``epsilon`` and ``delta`` first.

        Raises
        ------
        ImportError
            If pandas is not installed.

        Examples
        --------
        >>> from rainbowdp.builders import count_path
        >>> grid = design_sweep(count_path(2), [0.5, 1.0], executor="serial", progress=False)
        >>> df = grid.to_pandas()
        >>> df[["epsilon", "delta", "method"]].values.tolist()
        [[0.5, 0.0, 'lp'], [1.0, 0.0, 'lp']]
        """
        from ._format import dataframe

        records = self.to_records()
        columns = ["epsilon", "delta"]
        for rec in records:
            columns += [k for k in rec if k not in columns]
        return dataframe(records, columns, "DesignGrid.to_pandas()")

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per grid point (row-major): ``epsilon``, ``delta`` and the design's
        :meth:`~rainbowdp.design.DesignResult.to_dict`, or ``error`` (a string) where it
        failed; e.g. for ``pandas.DataFrame(grid.to_records())``."""
        out = []
        for (i, j), r in np.ndenumerate(self.results):
            rec: dict[str, Any]
            if isinstance(r, PointError):
                rec = {"error": f"{type(r.exception).__name__}: {r.exception}"}
            else:
                rec = r.to_dict()
            rec["epsilon"] = float(self.epsilons[i])
            rec["delta"] = float(self.deltas[j])
            out.append(rec)
        return out


def design_sweep(
    G: Any,
    epsilons: Sequence[float] | np.ndarray,
    deltas: Sequence[float] | np.ndarray = (0.0,),
    *,
    method: Literal["lp", "milp"] = "lp",
    executor: Literal["processes", "threads", "serial"] | cf.Executor | Any | None = None,
    max_workers: int | None = None,
    progress: bool = True,
    errors: Literal["raise", "return"] = "raise",
    **options: Any,
) -> DesignGrid:
    """Design an optimal mechanism at every (ε, δ) of a grid, in parallel.

    Each point is ``rainbowdp.design.lp(G, epsilon=e, delta=d, **options)`` (or
    :func:`~rainbowdp.design.milp`), run by :func:`sweep`; every design is certified private
    as the designer's own result is.

    Parameters
    ----------
    G : RainbowGraph
        The rainbow graph (pickled to each task for processes or a cluster).
    epsilons : array_like of float
        The ε axis (each >= 0).
    deltas : array_like of float, default (0.0,)
        The δ axis (each in [0, 1]).
    method : {"lp", "milp"}, default "lp"
        The designer.
    executor, max_workers, progress, errors
        As in :func:`sweep`.
    **options
        Further keyword arguments of the designer (``utility``, ``fixed``, ``tied``,
        ``solver``, ``constraints``, ...).

    Returns
    -------
    DesignGrid

    Raises
    ------
    ParameterError, ParameterTypeError
        On a bad axis, ``method`` or sweep argument (before any design runs).
    SweepError
        A design failed (``errors="raise"``); the designer's exception is its cause.

    Examples
    --------
    >>> from rainbowdp.builders import count_path
    >>> grid = design_sweep(count_path(3), [0.5, 1.0], [0.0, 0.1], executor="serial",
    ...                     progress=False)
    >>> grid.results.shape, bool((grid.achieved_delta <= grid.deltas).all())
    ((2, 2), True)
    >>> bool(grid.objective[1, 1] >= grid.objective[0, 0])   # weaker privacy, more utility
    True
    """
    if method not in ("lp", "milp"):
        raise ParameterError(f'`method` must be "lp" or "milp", got method={method!r}.')
    eps = _check_grid(epsilons, "epsilons", lambda v, n: check_epsilon(v, n, finite_exp=True))
    dls = _check_grid(deltas, "deltas", check_delta)
    fn = functools.partial(_design_point, method, G, dict(options))
    points = [{"epsilon": float(e), "delta": float(d)} for e in eps for d in dls]
    flat = sweep(
        fn,
        points,
        executor=executor,
        max_workers=max_workers,
        progress=progress,
        errors=errors,
    )
    results = np.empty(len(flat), dtype=object)
    results[:] = flat
    return DesignGrid(eps, dls, results.reshape(eps.size, dls.size))
