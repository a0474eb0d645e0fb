"""rainbowdp.distributed (verification over chunked edge arrays) and rainbowdp.sweep.

The chunked path must give the in-memory numbers: the same ``delta_required`` bit for bit, the
same worst edge, witness, verdict and violation count, the same privacy profile and proved ε.
"""

from __future__ import annotations

import concurrent.futures as cf
import gc
import math
import operator
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rainbowdp as rdp
from rainbowdp import builders
from rainbowdp import distributed as D
from rainbowdp.design import lp
from rainbowdp.graph import RainbowGraph
from rainbowdp.sweep import DesignGrid, PointError, SweepError, design_sweep, sweep

da = pytest.importorskip("dask.array")


def test_importing_the_modules_does_not_import_dask():
    code = (
        "import sys, rainbowdp, rainbowdp.distributed, rainbowdp.sweep\n"
        "print(sorted(m for m in ('dask', 'distributed', 'zarr', 'tqdm') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _mechanism(
    rng: np.random.Generator, n: int, q: int, n_edges: int, directed: bool, levels: int = 4
) -> rdp.Mechanism:
    """A random mechanism on a random graph; coarse weights make ties and zeros common."""
    e = rng.integers(0, n, size=(3 * n_edges + 3, 2))
    e = e[e[:, 0] != e[:, 1]]
    if not directed:
        e = np.sort(e, axis=1)
    _, first = np.unique(e, axis=0, return_index=True)
    e = e[np.sort(first)][:n_edges]
    G = RainbowGraph.from_edges(
        e.reshape(-1, 2),
        outputs=list(range(q)),
        rainbow_table=[list(range(q))],
        rainbow_ids=[0] * n,
        directed=directed,
    )
    w = rng.integers(0, levels, size=(n, q)).astype(float)
    w[w.sum(axis=1) == 0, 0] = 1.0
    return rdp.Mechanism(G, w / w.sum(axis=1, keepdims=True))


def _assert_same_report(r: rdp.VerificationReport, d: D.DistributedReport) -> None:
    assert d.delta_required == r.delta_required  # bit for bit
    assert d.worst_edge == r.worst_edge
    assert d.witness == r.witness
    assert d.is_private == r.is_private
    assert d.n_violations == r.n_violations
    assert d.tolerance == r.tolerance
    assert d.n_edges == r.edge_deltas.shape[0]


# -- the in-memory numbers ---------------------------------------------------------------------


@settings(max_examples=12, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 30),
    q=st.integers(2, 9),
    n_edges=st.integers(1, 120),
    directed=st.booleans(),
    chunk=st.integers(1, 25),
    eps=st.sampled_from([0.0, 0.1, math.log(2), 1.5, 800.0]),
    dlt=st.sampled_from([0.0, 0.05]),
)
def test_chunked_numbers_are_the_in_memory_ones(seed, n, q, n_edges, directed, chunk, eps, dlt):
    M = _mechanism(np.random.default_rng(seed), n, q, n_edges, directed)
    P, E = M.probabilities, M.graph.edges
    kw = {"directed": directed, "chunk_size": chunk, "scheduler": "synchronous"}
    _assert_same_report(
        rdp.verify(M, epsilon=eps, delta=dlt),
        D.verify(P, E, epsilon=eps, delta=dlt, outputs=M.graph.outputs, **kw),
    )
    grid = [0.0, 0.2, eps]
    assert np.array_equal(D.privacy_profile(P, E, grid, **kw), rdp.privacy_profile(M, grid))
    assert D.epsilon_for_delta(P, E, dlt, **kw) == rdp.epsilon_for_delta(M, dlt)
    assert np.array_equal(
        D.epsilon_for_delta(P, E, [0.0, 0.1], **kw), rdp.epsilon_for_delta(M, [0.0, 0.1])
    )


def test_many_chunks_on_the_threaded_scheduler():
    M = _mechanism(np.random.default_rng(7), 400, 5, 3000, False)
    P, E = M.probabilities, M.graph.edges
    r = rdp.verify(M, epsilon=0.3, delta=0.01)
    d = D.verify(P, da.from_array(E, chunks=97), epsilon=0.3, delta=0.01, chunk_size=101)
    assert d.n_chunks == math.ceil(E.shape[0] / 101) > 8  # more than one level of merges
    assert not r.is_private and r.n_violations > 1
    _assert_same_report(r, d)


def _tied_path(n: int, tail: bool) -> rdp.Mechanism:
    """A path whose edges all join the rows A and B (every directed pair ties), and with
    ``tail`` one more edge C - D of a larger divergence at the end."""
    a, b = [0.6, 0.4], [0.4, 0.6]
    rows = [a if i % 2 == 0 else b for i in range(n)]
    if tail:
        rows += [[0.9, 0.1], [0.1, 0.9]]
    m = len(rows)
    e = np.stack([np.arange(m - 1), np.arange(1, m)], axis=1)
    if tail:
        e = np.delete(e, n - 1, axis=0)  # no edge between the path and C
    G = RainbowGraph.from_edges(e, outputs=[0, 1], rainbow_table=[[0, 1]], rainbow_ids=[0] * m)
    return rdp.Mechanism(G, rows)


@pytest.mark.parametrize("tail", [False, True])
def test_ties_beyond_the_exact_budget(tail):
    # 200,000 tied edges hold 400,000 directed pairs near the maximum, more than the exact work
    # budget: without the tail, verify reports its rigorous float bound, and so must the
    # chunked path (whose chunks each hold more than the budget too); with the tail, one edge
    # is the maximum and is recomputed exactly, although the chunks of tied edges overflow.
    M = _tied_path(200_001, tail)
    r = rdp.verify(M, epsilon=0.1)
    d = D.verify(M.probabilities, M.graph.edges, epsilon=0.1, chunk_size=1 << 17)
    assert d.n_chunks == 2
    _assert_same_report(r, d)
    exact = rdp.hockey_stick([0.9, 0.1], [0.1, 0.9], 0.1) if tail else None
    assert (d.delta_required == exact) if tail else (d.delta_required > 0.2 - 1.1 * 0.4 * 0.1)


# -- inputs ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def case():
    M = _mechanism(np.random.default_rng(3), 300, 3, 2000, True)
    return M, rdp.verify(M, epsilon=0.4, delta=0.02)


def _check(M, r, edges, **kw):
    d = D.verify(M.probabilities, edges, epsilon=0.4, delta=0.02, directed=True, **kw)
    _assert_same_report(r, d)
    return d


def test_npy_files_memmaps_and_lists_of_files(case, tmp_path):
    M, r = case
    E = M.graph.edges
    one = tmp_path / "edges.npy"
    np.save(one, E.astype(np.int32))
    assert _check(M, r, one, chunk_size=333).n_chunks == 7
    _check(M, r, str(one))
    _check(M, r, np.load(one, mmap_mode="r"), chunk_size=500)
    raw = np.memmap(tmp_path / "edges.bin", dtype=np.uint16, mode="w+", shape=E.shape)
    raw[:] = E
    raw.flush()
    _check(M, r, raw, chunk_size=450)
    del raw
    halves = [tmp_path / "a.npy", tmp_path / "b.npy"]
    np.save(halves[0], E[:700])
    np.save(halves[1], E[700:])
    _check(M, r, halves, chunk_size=256)
    gc.collect()


def test_numpy_dask_and_zarr_arrays(case, tmp_path):
    zarr = pytest.importorskip("zarr")
    M, r = case
    E = M.graph.edges
    _check(M, r, E.tolist())
    _check(M, r, da.from_array(E, chunks=(123, 1)))  # misaligned chunks are rechunked
    z = zarr.open_array(str(tmp_path / "e.zarr"), mode="w", shape=E.shape, chunks=(400, 2),
                        dtype="i8")  # fmt: skip
    z[:] = E
    _check(M, r, z, chunk_size=400)


def test_rows_reach_the_workers_aligned():
    # np.take copies a misaligned array whole on every call; P received over the network may
    # be misaligned, so it is realigned once, when unpickled
    import pickle

    from rainbowdp._dask_io import Rows as _Rows
    from rainbowdp._dask_io import aligned_rows as _aligned_rows

    raw = np.zeros(8 * 6 + 1, dtype=np.uint8)[1:].view(np.float64).reshape(3, 2)
    raw[:] = P3
    assert not raw.flags.aligned
    assert _aligned_rows(raw).p.flags.aligned and np.array_equal(_aligned_rows(raw).p, P3)
    back = pickle.loads(pickle.dumps(_Rows(raw), protocol=5))
    assert back.p.flags.aligned and back.p.flags.c_contiguous and np.array_equal(back.p, P3)


def test_no_edges():
    P = np.array([[0.5, 0.5], [0.9, 0.1]])
    none = np.zeros((0, 2), dtype=np.int64)
    d = D.verify(P, none, epsilon=0.0)
    assert d.is_private and d.delta_required == 0.0 and d.worst_edge is None
    assert D.privacy_profile(P, none, [0.0, 1.0]).tolist() == [0.0, 0.0]
    assert D.epsilon_for_delta(P, none, 0.0) == 0.0


def test_report_text_and_dict():
    P = np.array([[0.5, 0.5], [0.55, 0.45], [0.6, 0.4]])
    d = D.verify(P, np.array([[0, 1], [1, 2]]), epsilon=0.05, outputs=["yes", "no"])
    assert "NOT private" in str(d) and "'no'" in str(d) and "2 edges" in str(d)
    out = d.to_dict()
    assert out["witness"] == ["no"] and out["n_violations"] == d.n_violations
    assert set(out) >= set(rdp.verify(rdp.Mechanism(builders.line(["yes", "no"], 2), P),
                                      epsilon=0.05).to_dict())  # fmt: skip


# -- bad input ---------------------------------------------------------------------------------

P3 = np.array([[0.5, 0.5], [0.6, 0.4], [0.7, 0.3]])


@pytest.mark.parametrize(
    ("edges", "kwargs", "error", "match"),
    [
        (np.array([[0.0, 1.0]]), {}, rdp.ParameterTypeError, "integers"),
        (np.array([[0, 1, 2]]), {}, rdp.ParameterError, r"shape \(E, 2\)"),
        (np.array([[0, 1], [1, 3]]), {}, rdp.ParameterError, r"edges\[1\] = \[1, 3\]"),
        (np.array([[0, 1], [-1, 2]]), {"chunk_size": 1}, rdp.ParameterError, r"edges\[1\]"),
        ("no-such-file.npy", {}, rdp.ParameterError, "does not exist"),
        (np.array([[0, 1]]), {"chunk_size": 0}, rdp.ParameterError, "chunk_size"),
        (np.array([[0, 1]]), {"scheduler": "gpu"}, rdp.ParameterError, "scheduler"),
        (np.array([[0, 1]]), {"scheduler": 3}, rdp.ParameterTypeError, "scheduler"),
        (np.array([[0, 1]]), {"directed": "yes"}, rdp.ParameterTypeError, "directed"),
        (np.array([[0, 1]]), {"outputs": ["a"]}, rdp.ParameterError, "outputs"),
        (np.array([[0, 1]]), {"epsilon": -1.0}, rdp.ParameterError, "epsilon"),
        (np.array([[0, 1]]), {"delta": 2.0}, rdp.ParameterError, "delta"),
    ],
)
def test_bad_input_is_named(edges, kwargs, error, match):
    kw = {"epsilon": 0.1, **kwargs}
    with pytest.raises(error, match=match):
        D.verify(P3, edges, **kw)


def test_bad_probabilities_and_parameters():
    with pytest.raises(rdp.ParameterError, match="row 1"):
        D.verify([[0.5, 0.5], [0.5, 0.6]], np.array([[0, 1]]), epsilon=0.1)
    with pytest.raises(rdp.ParameterError, match=r"shape \(N, q\)"):
        D.privacy_profile([0.5, 0.5], np.array([[0, 1]]), [0.1])
    with pytest.raises(rdp.ParameterError, match="epsilons"):
        D.privacy_profile(P3, np.array([[0, 1]]), [-0.1])
    with pytest.raises(rdp.ParameterTypeError, match="delta"):
        D.epsilon_for_delta(P3, np.array([[0, 1]]), "0.1")
    with pytest.raises(rdp.ParameterError, match=r"edges\[0\]"):
        D.epsilon_for_delta(P3, np.array([[0, 9]]), 0.1)


# -- a real cluster ----------------------------------------------------------------------------


def test_local_cluster_gives_the_same_numbers(case, tmp_path):
    distributed = pytest.importorskip("distributed")
    M, r = case
    path = tmp_path / "edges.npy"
    np.save(path, M.graph.edges)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with (
            distributed.LocalCluster(
                n_workers=2,
                threads_per_worker=1,
                processes=False,
                dashboard_address=None,
                worker_dashboard_address=None,
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            d = D.verify(M.probabilities, path, epsilon=0.4, delta=0.02, directed=True,
                         chunk_size=300)  # fmt: skip
            assert d.n_chunks == 7
            _assert_same_report(r, d)
            grid = [0.0, 0.4, 1.0]
            prof = D.privacy_profile(M.probabilities, path, grid, directed=True, chunk_size=300)
            assert np.array_equal(prof, rdp.privacy_profile(M, grid))
            eps = D.epsilon_for_delta(M.probabilities, path, 0.02, directed=True, scheduler=client)
            assert eps == rdp.epsilon_for_delta(M, 0.02)
            assert sweep(operator.neg, range(5), executor=client, progress=False) == [
                0, -1, -2, -3, -4
            ]  # fmt: skip
            assert set(client.scheduler_info()["workers"]) and len(cluster.workers) == 2
    gc.collect()


# -- sweeps ------------------------------------------------------------------------------------


@pytest.mark.parametrize("executor", ["serial", "threads", "processes"])
def test_sweep_returns_the_loop_results_in_order(executor):
    points = [9.0, 0.25, 4.0, 1e6, 2.0]
    out = sweep(math.sqrt, points, executor=executor, max_workers=2, progress=False)
    assert out == [math.sqrt(x) for x in points]


def test_sweep_on_an_executor_of_yours_with_mapping_points_and_a_progress_bar(capsys):
    pytest.importorskip("tqdm")
    points = [{"x": 3, "y": 4}, {"x": 5, "y": 12}]
    with cf.ThreadPoolExecutor(2) as pool:
        assert sweep(len, [(3, 4)], executor=pool, progress=False) == [2]  # a tuple: one arg
    with cf.ThreadPoolExecutor(2) as pool:
        out = sweep(lambda x, y: math.hypot(x, y), points, executor=pool, progress=True)
        assert pool.submit(operator.neg, 1).result() == -1  # left open
    assert out == [5.0, 13.0]
    assert "2/2" in capsys.readouterr().err


def test_sweep_errors_name_the_point():
    with pytest.raises(SweepError, match=r"point 1 \(-1.0\) raised ValueError") as info:
        sweep(math.sqrt, [4.0, -1.0, 9.0], executor="serial", progress=False)
    assert info.value.index == 1 and isinstance(info.value.__cause__, ValueError)
    out = sweep(math.sqrt, [4.0, -1.0, 9.0], executor="processes", max_workers=2,
                progress=False, errors="return")  # fmt: skip
    assert out[0] == 2.0 and out[2] == 3.0
    assert isinstance(out[1], PointError) and out[1].index == 1 and out[1].point == -1.0
    assert isinstance(out[1].exception, ValueError) and "math domain error" in out[1].traceback


def test_sweep_bad_arguments():
    with pytest.raises(rdp.ParameterTypeError, match="picklable"):
        sweep(lambda x: x, [1], executor="processes", progress=False)
    with pytest.raises(rdp.ParameterError, match="executor"):
        sweep(abs, [1], executor="gpu")
    with pytest.raises(rdp.ParameterTypeError, match="executor"):
        sweep(abs, [1], executor=object())
    with pytest.raises(rdp.ParameterError, match="errors"):
        sweep(abs, [1], errors="ignore")
    with pytest.raises(rdp.ParameterTypeError, match="points"):
        sweep(abs, 3)
    with pytest.raises(rdp.ParameterTypeError, match="fn"):
        sweep(3, [1])
    with pytest.raises(rdp.ParameterError, match="max_workers"):
        sweep(abs, [1], max_workers=0)


def test_design_sweep_is_the_loop_of_designs():
    G = rdp.builders.count_path(4)
    eps, dls = [0.5, 1.0, 2.0], [0.0, 0.05]
    grid = design_sweep(G, eps, dls, executor="processes", max_workers=2, progress=False)
    assert isinstance(grid, DesignGrid) and grid.results.shape == (3, 2) and not grid.failures
    for i, e in enumerate(eps):
        for j, d in enumerate(dls):
            ref = lp(G, epsilon=e, delta=d)
            got = grid.results[i, j]
            assert got.objective == ref.objective == grid.objective[i, j]
            assert np.array_equal(got.mechanism.probabilities, ref.mechanism.probabilities)
            assert grid.achieved_delta[i, j] <= d
    recs = grid.to_records()
    assert [(r["epsilon"], r["delta"]) for r in recs] == [(e, d) for e in eps for d in dls]


def test_design_sweep_reports_failures_and_checks_its_axes():
    G = rdp.builders.count_path(2)
    fixed = {0: [1.0, 0.0, 0.0], 1: [0.0, 0.0, 1.0]}  # not private at any finite ε, δ < 1
    grid = design_sweep(G, [1.0], [0.0, 1.0], executor="threads", progress=False,
                        errors="return", fixed=fixed)  # fmt: skip
    assert isinstance(grid.results[0, 0], PointError) and len(grid.failures) == 1
    assert math.isnan(grid.objective[0, 0]) and not math.isnan(grid.objective[0, 1])
    assert "error" in grid.to_records()[0]
    with pytest.raises(rdp.ParameterError, match="epsilons"):
        design_sweep(G, [-1.0])
    with pytest.raises(rdp.ParameterError, match="deltas"):
        design_sweep(G, [1.0], [1.5])
    with pytest.raises(rdp.ParameterError, match="method"):
        design_sweep(G, [1.0], method="qp")
