"""The inputs of :mod:`rainbowdp.distributed`: the probability array checked once and shared
with the workers, edge arrays of every supported kind (Dask arrays, ``.npy`` files, NumPy arrays
and memmaps, zarr arrays) as one chunked Dask array of checked blocks, the scheduler, and the
map-and-tree-reduce over the chunks. Dask is imported only when called (:func:`require_dask`).
"""

from __future__ import annotations

import math
import os
import sys
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._validation import real_array
from ._verify.kernels import CHUNK_ELEMENTS
from .exceptions import ParameterError, ParameterTypeError
from .mechanism import ROW_ATOL

__all__ = [
    "DEFAULT_CHUNK_EDGES",
    "Rows",
    "active_client",
    "aligned_rows",
    "as_dask_edges",
    "check_bool",
    "check_outputs",
    "check_probabilities",
    "check_scheduler",
    "checked_block",
    "map_reduce",
    "require_dask",
    "shared",
]

#: Edges per task when the input does not say: about 64 MB of int64 pairs. Rounded down to a
#: multiple of the kernel's block (``CHUNK_ELEMENTS // q`` rows).
DEFAULT_CHUNK_EDGES = 1 << 22

#: Partial results merged per reduction task.
_FAN_IN = 8

_SCHEDULERS = ("threads", "synchronous", "sync", "single-threaded", "processes")


def require_dask() -> Any:
    """``dask`` (with ``dask.array``), or an ImportError saying how to install it."""
    try:
        import dask
        import dask.array
    except ImportError as exc:  # pragma: no cover - the test extra installs dask
        raise ImportError(
            f"rainbowdp.distributed needs Dask: pip install 'rainbowdp[distributed]' ({exc})."
        ) from exc
    return dask


# ---------------------------------------------------------------------- probabilities
def check_probabilities(value: Any) -> np.ndarray:
    """``value`` as a read-only C-contiguous float64 array (N, q) of distributions."""
    if isinstance(value, str | bytes):
        raise ParameterTypeError(
            f"`probabilities` must be an array (N, q) of numbers, got probabilities={value!r}."
        )
    p = real_array(value, "probabilities")
    if p.ndim != 2 or p.shape[0] == 0 or p.shape[1] == 0:
        raise ParameterError(
            f"`probabilities` must have shape (N, q) with N, q >= 1 (one row per node), got "
            f"shape {p.shape}."
        )
    p = np.ascontiguousarray(p, dtype=np.float64)
    # whole-array passes first (reductions over short rows are slow); rows only on failure
    bad = np.zeros(1, dtype=bool)
    if not (np.isfinite(p).all() and (p >= 0).all()):
        bad = ~np.isfinite(p).all(axis=1) | (p < 0).any(axis=1)
    if not bad.any():
        bad = np.abs(p @ np.ones(p.shape[1]) - 1.0) > ROW_ATOL
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ParameterError(
            f"`probabilities`: row {i} must be a distribution (finite, non-negative, sum 1 "
            f"within {ROW_ATOL:g}), got {p[i].tolist()}."
        )
    p.setflags(write=False)
    return p


def check_outputs(outputs: Any, q: int) -> tuple:
    if outputs is None:
        return tuple(range(q))
    if isinstance(outputs, str | bytes) or not isinstance(outputs, Sequence):
        raise ParameterTypeError(
            f"`outputs` must be a sequence of {q} labels, got outputs={outputs!r}."
        )
    if len(outputs) != q:
        raise ParameterError(
            f"`outputs` must have {q} labels (one per column of `probabilities`), got "
            f"{len(outputs)}: outputs={outputs!r}."
        )
    return tuple(outputs)


def check_bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise ParameterTypeError(f"`{name}` must be a bool, got {name}={value!r}.")
    return bool(value)


# ---------------------------------------------------------------------- edges as a dask array
def _block_rows(q: int) -> int:
    """Rows of one block of the float kernels: chunks cut at its multiples give the same floats
    as one in-memory call."""
    return max(1, CHUNK_ELEMENTS // q)


def _default_chunk(q: int) -> int:
    b = _block_rows(q)
    return max(b, DEFAULT_CHUNK_EDGES // b * b)


def _read_npy(path: str, start: int, stop: int) -> np.ndarray:
    """Rows ``start:stop`` of the ``.npy`` file ``path`` (memory-mapped, then copied)."""
    return np.array(np.load(path, mmap_mode="r")[start:stop])


def _read_raw(path: str, offset: int, dtype: str, n_cols: int, start: int, stop: int) -> np.ndarray:
    """Rows ``start:stop`` of a raw (E, n_cols) array stored at byte ``offset`` of ``path``."""
    item = np.dtype(dtype).itemsize * n_cols
    shape = (stop - start, n_cols)
    m = np.memmap(path, dtype=dtype, mode="r", offset=offset + start * item, shape=shape)
    return np.array(m)


def _spans(n: int, size: int) -> list[tuple[int, int]]:
    return [(s, min(n, s + size)) for s in range(0, n, size)] or [(0, 0)]


def _from_reader(
    read: Callable[..., np.ndarray], args: tuple, shape: tuple, dtype: Any, size: int
) -> Any:
    """A dask array (E, 2) whose blocks are read by the tasks (nothing large in the graph)."""
    dask = require_dask()
    import dask.array as da

    name = uuid.uuid4().hex[:12]
    blocks = [
        da.from_delayed(
            dask.delayed(read, pure=False)(*args, a, b, dask_key_name=f"rainbowdp-read-{name}-{i}"),
            shape=(b - a, shape[1]),
            dtype=dtype,
        )
        for i, (a, b) in enumerate(_spans(shape[0], size))
    ]
    return da.concatenate(blocks, axis=0)


def _is_path(value: Any) -> bool:
    return isinstance(value, str | os.PathLike)


def _npy_header(path: str) -> tuple[tuple, np.dtype]:
    if not os.path.isfile(path):
        raise ParameterError(f"`edges` names a file that does not exist: {path!r}.")
    try:
        m = np.load(path, mmap_mode="r")
    except (ValueError, OSError) as exc:
        raise ParameterError(
            f"`edges` must be a .npy file of shape (E, 2), got {path!r} ({exc})."
        ) from None
    if not isinstance(m, np.ndarray):  # pragma: no cover - np.load of a .npz archive
        raise ParameterError(f"`edges` must be a .npy file, got {path!r}.")
    return m.shape, m.dtype


def _check_layout(shape: tuple, dtype: Any, what: str) -> None:
    if len(shape) != 2 or shape[1] != 2:
        raise ParameterError(f"`edges` must have shape (E, 2), got shape {shape} ({what}).")
    kind = np.dtype(dtype).kind
    if kind not in "iu":
        raise ParameterTypeError(
            f"`edges` must hold integers (node indices), got dtype {np.dtype(dtype)} ({what})."
        )


def _whole_file_memmap(m: np.memmap) -> bool:
    """Whether ``m`` maps its file directly (not a view), so its tasks can reopen the file."""
    import mmap

    return isinstance(m.base, mmap.mmap) and m.flags.c_contiguous and m.filename is not None


def as_dask_edges(edges: Any, q: int, chunk_size: int | None) -> Any:
    """``edges`` as a dask array (E, 2) of integers, chunked along E only.

    Chunks: ``chunk_size`` edges if given; else a dask array keeps its chunks when they are
    multiples of the kernel's block (rounded up to one otherwise) and other inputs get
    :func:`_default_chunk`.
    """
    dask = require_dask()
    import dask.array as da

    size = chunk_size if chunk_size is not None else _default_chunk(q)
    if isinstance(edges, list | tuple) and edges and all(_is_path(x) for x in edges):
        parts = [as_dask_edges(x, q, chunk_size) for x in edges]
        return da.concatenate(parts, axis=0)
    if _is_path(edges):
        path = os.fspath(edges)
        shape, dtype = _npy_header(path)
        _check_layout(shape, dtype, f"file {path!r}")
        return _from_reader(_read_npy, (path,), shape, dtype, size)
    if isinstance(edges, np.memmap) and _whole_file_memmap(edges):
        _check_layout(edges.shape, edges.dtype, "memmap")
        args = (edges.filename, int(edges.offset), edges.dtype.str, 2)
        return _from_reader(_read_raw, args, edges.shape, edges.dtype, size)
    if dask.is_dask_collection(edges):
        if not isinstance(edges, da.Array):
            raise ParameterTypeError(
                f"`edges` must be a dask array (E, 2), got a {type(edges).__name__}."
            )
        _check_layout(edges.shape, edges.dtype, "dask array")
        if any(math.isnan(c) for c in edges.chunks[0]):
            raise ParameterError(
                "`edges` has unknown chunk sizes; call edges.compute_chunk_sizes() first."
            )
        arr = edges
    elif isinstance(edges, np.ndarray) or not hasattr(edges, "shape"):
        arr_np = np.asarray(edges)
        _check_layout(arr_np.shape, arr_np.dtype, "array")
        return da.from_array(arr_np, chunks=(size, 2))
    else:  # an array-like read lazily (zarr, ...): dask slices it per chunk
        _check_layout(tuple(edges.shape), edges.dtype, type(edges).__name__)
        return da.from_array(edges, chunks=(size, 2), lock=False, asarray=True)
    block = _block_rows(q)
    sizes = arr.chunks[0]
    if chunk_size is None:
        if all(c % block == 0 for c in sizes[:-1]) and arr.chunks[1] == (2,):
            return arr
        size = max(block, -(-max(sizes) // block) * block)
    return arr.rechunk({0: size, 1: 2})


def checked_block(block: np.ndarray, n_nodes: int, start: int) -> np.ndarray:
    """One chunk of edges as an ``intp`` array, after checking shape and range."""
    b = np.asarray(block)
    if b.ndim != 2 or b.shape[1] != 2:
        raise ParameterError(f"`edges` must have shape (E, 2), got a chunk of shape {b.shape}.")
    if b.dtype.kind not in "iu":
        raise ParameterTypeError(f"`edges` must hold integers, got dtype {b.dtype}.")
    if b.size and (int(b.min()) < 0 or int(b.max()) >= n_nodes):
        i = int(np.flatnonzero(((b < 0) | (b >= n_nodes)).any(axis=1))[0])
        raise ParameterError(
            f"`edges` must hold node indices in range({n_nodes}) (the rows of "
            f"`probabilities`), got edges[{start + i}] = {b[i].tolist()}."
        )
    return np.require(b, dtype=np.intp, requirements=["A"])  # aligned: see Rows


# ---------------------------------------------------------------------- running the graph
def active_client(scheduler: Any) -> Any:
    """The ``dask.distributed`` client to use, or None (a local dask scheduler)."""
    if scheduler is not None and not isinstance(scheduler, str):
        return scheduler
    if scheduler is None and "distributed" in sys.modules:
        from distributed import default_client

        try:
            return default_client()
        except ValueError:
            return None
    return None


def check_scheduler(scheduler: Any) -> Any:
    if scheduler is None or (isinstance(scheduler, str) and scheduler in _SCHEDULERS):
        return scheduler
    if isinstance(scheduler, str):
        raise ParameterError(
            f"`scheduler` must be None, one of {list(_SCHEDULERS)} or a dask.distributed "
            f"Client, got scheduler={scheduler!r}."
        )
    if not (hasattr(scheduler, "scatter") and hasattr(scheduler, "get")):
        raise ParameterTypeError(
            f"`scheduler` must be None, a scheduler name or a dask.distributed Client, got "
            f"scheduler={type(scheduler).__name__}."
        )
    return scheduler


class Rows:
    """P as sent to the workers: unpickled as an aligned C-contiguous array.

    An array received over the network may sit at any byte offset of its message, and
    ``np.take`` copies a misaligned array whole on every call (once per block of edges);
    unpickling through :func:`aligned_rows` copies it once, on arrival.
    """

    __slots__ = ("p",)

    def __init__(self, p: np.ndarray) -> None:
        self.p = p

    def __reduce__(self) -> tuple:
        return (aligned_rows, (self.p,))


def aligned_rows(p: np.ndarray) -> Rows:
    return Rows(np.require(p, dtype=np.float64, requirements=["A", "C"]))


def shared(p: np.ndarray, client: Any) -> Any:
    """P as one object of the task graph: scattered to every worker of a cluster once, or one
    key of the graph for a local scheduler."""
    dask = require_dask()
    rows = Rows(p)
    if client is not None:
        return client.scatter(rows, broadcast=True, hash=False)
    return dask.delayed(rows, name=f"rainbowdp-probabilities-{uuid.uuid4().hex[:12]}")


def map_reduce(
    edges: Any,
    p_shared: Any,
    block: tuple[Callable[..., Any], tuple],
    merge: tuple[Callable[..., Any], tuple],
    scheduler: Any,
) -> Any:
    """``block_fn(rows, chunk, start, *block_args)`` on every chunk (``rows`` a
    :class:`Rows`), the partial results merged by ``merge_fn(parts, *merge_args)`` in a tree
    (fan-in :data:`_FAN_IN`), on ``scheduler``."""
    dask = require_dask()
    (block_fn, block_args), (merge_fn, merge_args) = block, merge
    starts = np.concatenate([[0], np.cumsum(edges.chunks[0])[:-1]]).tolist()
    chunks = edges.to_delayed().ravel().tolist()
    block_task = dask.delayed(block_fn, pure=False)
    parts = [
        block_task(p_shared, c, int(s), *block_args) for c, s in zip(chunks, starts, strict=True)
    ]
    merge_task = dask.delayed(merge_fn, pure=False)
    while len(parts) > 1:
        parts = [
            merge_task(parts[i : i + _FAN_IN], *merge_args) for i in range(0, len(parts), _FAN_IN)
        ]
    (result,) = dask.compute(parts[0], scheduler=scheduler)
    return result
