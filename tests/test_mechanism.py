"""Mechanism construction, rainbow-order views, quantisation and exact sampling."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from scipy import stats

from rainbowdp import builders
from rainbowdp._verify.exact import irregular_rows
from rainbowdp.exceptions import (
    InvalidGraphError,
    InvalidMechanismError,
    ParameterError,
    ParameterTypeError,
)
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import MAX_ATOL, MAX_SAMPLE_SIZE, Mechanism
from rainbowdp.privacy import verify

from .strategies import mechanisms


@settings(max_examples=60, deadline=None)
@given(mechanisms(max_nodes=6, max_outputs=5))
def test_rainbow_order_round_trip(M):
    v = M.in_rainbow_order()
    back = Mechanism.from_rainbow_order(M.graph, v)
    assert np.array_equal(back.probabilities, M.probabilities)
    # v[i, k] is the probability of node i's k-th preferred output (Gu et al., Definition 3)
    for i, node in enumerate(M.graph.nodes):
        rb = M.graph.rainbow(node)
        assert v[i].tolist() == [M.probabilities[i, M.graph.output_index[o]] for o in rb]


@settings(max_examples=60, deadline=None)
@given(mechanisms(max_nodes=5, max_outputs=5))
def test_quantised_is_dyadic_and_keeps_zeros(M):
    for bits in (3, 20, 53):
        Q = M.quantised(bits).probabilities
        scaled = Q * 2.0**bits
        assert np.array_equal(scaled, np.round(scaled))
        assert np.all(Q.sum(axis=1) == 1.0)
        assert np.all(Q[M.probabilities == 0] == 0)  # zero mass is never created
        assert np.all(np.abs(Q - M.probabilities) <= 2.0**-bits + 1e-15)


def test_sampling_frequencies_match_quantised_distribution():
    # bits=4 makes the quantised distribution visibly different from the nominal one.
    G = builders.line([0, 1, 2], 1)
    M = Mechanism(G, [[0.3, 0.3, 0.4], [0.1, 0.2, 0.7]])
    Q = M.quantised(4).probabilities[0]
    assert Q.tolist() == [5 / 16, 5 / 16, 6 / 16]
    n = 200_000
    draws = M.sample(0, n, rng=np.random.default_rng(20261121), bits=4)
    counts = np.bincount(draws, minlength=3)
    # Chi-square goodness of fit; false-alarm rate 1e-3 under the quantised law.
    assert stats.chisquare(counts, n * Q).pvalue > 1e-3
    # ... and the test has power: the nominal (unquantised) law is rejected.
    assert stats.chisquare(counts, n * np.array([0.3, 0.3, 0.4])).pvalue < 1e-6


def test_secure_sampling_respects_support():
    G = builders.line(["a", "b", "c"], 1)
    M = Mechanism(G, [[0.5, 0.5, 0.0], [0.0, 0.0, 1.0]])
    draws = M.sample(0, 2000)
    assert set(draws.tolist()) == {"a", "b"}  # 'c' has probability 0 and is never drawn
    assert M.sample(1) == "c"


def test_quantised_mechanism_can_lose_privacy_and_is_verifiable():
    # Nominal ratio 1.9 < 2 but at 3 bits both rows round to 1/8 vs 2/8 ... still <= 2;
    # a coarser grid can break it, which the verifier of the quantised mechanism reports.
    G = builders.line([0, 1], 1)
    M = Mechanism(G, [[0.19, 0.81], [0.1, 0.9]])
    assert verify(M, epsilon=np.log(2)).is_private
    Q = M.quantised(3)
    assert Q.probabilities.tolist() == [[0.25, 0.75], [0.125, 0.875]]
    assert verify(Q, epsilon=np.log(2)).is_private  # ratio exactly 2
    assert not verify(M.quantised(2), epsilon=np.log(2)).is_private  # 1/4 vs 0


def test_mapping_construction_and_errors():
    G = builders.line(["y", "n"], 1)
    M = Mechanism(G, {0: [0.6, 0.4], 1: [0.5, 0.5]})
    assert M.to_dict() == {0: [0.6, 0.4], 1: [0.5, 0.5]}
    with pytest.raises(InvalidMechanismError, match="node 1"):
        Mechanism(G, {0: [0.6, 0.4]})
    with pytest.raises(InvalidMechanismError, match="node 7"):
        Mechanism(G, {0: [0.6, 0.4], 1: [0.5, 0.5], 7: [1, 0]})
    with pytest.raises(InvalidMechanismError, match=r"node 1 must sum to 1.*0\.9"):
        Mechanism(G, [[0.5, 0.5], [0.5, 0.4]])
    with pytest.raises(InvalidMechanismError, match=r"non-negative.*-0\.1"):
        Mechanism(G, [[1.1, -0.1], [0.5, 0.5]])
    with pytest.raises(InvalidMechanismError, match=r"finite.*nan"):
        Mechanism(G, [[np.nan, 0.5], [0.5, 0.5]])
    with pytest.raises(InvalidMechanismError, match=r"shape \(2, 2\).*\(2, 3\)"):
        Mechanism(G, np.full((2, 3), 1 / 3))
    with pytest.raises(TypeError, match="RainbowGraph"):
        Mechanism("graph", [[1.0, 0.0]])
    with pytest.raises(ValueError, match="bits=60"):
        M.quantised(60)
    with pytest.raises(ValueError, match="rng='fast'"):
        M.sample(0, rng="fast")
    with pytest.raises(TypeError, match="rng=42"):
        M.sample(0, rng=42)


def test_only_real_numbers_are_probabilities():
    from decimal import Decimal
    from fractions import Fraction

    G = builders.line(["y", "n"], 1)
    exact = [[0.75, 0.25], [0.5, 0.5]]
    for rows in (
        exact,
        np.array(exact, dtype=np.float32),
        [[Fraction(3, 4), Fraction(1, 4)], [Decimal("0.5"), 0.5]],
        {0: (0.75, 0.25), 1: np.array([0.5, 0.5])},
    ):
        assert Mechanism(G, rows).probabilities.tolist() == exact
    assert Mechanism(G, np.array([[1, 0], [0, 1]])).probabilities.tolist() == [[1, 0], [0, 1]]
    for rows in (
        [[1, 0], [True, False]],
        [[0.75, "0.25"], [0.5, 0.5]],
        np.array([[1, 0]] * 2, bool),
    ):
        with pytest.raises(ParameterTypeError, match="`probabilities` must hold real numbers"):
            Mechanism(G, rows)


def test_the_mechanism_owns_its_numbers():
    G = builders.line(["y", "n"], 1)
    rows = np.array([[0.75, 0.25], [0.5, 0.5]])
    M = Mechanism(G, rows)
    rows[0] = [0.0, 1.0]
    assert M.probabilities[0].tolist() == [0.75, 0.25]
    with pytest.raises(ValueError, match="read-only"):
        M.probabilities[0, 0] = 1.0


def test_atol_bounds():
    G = builders.line(["y", "n"], 1)
    loose = [[0.5, 0.5005], [0.5, 0.5]]  # sums to 1.0005
    with pytest.raises(InvalidMechanismError, match=r"within 1e-09"):
        Mechanism(G, loose)
    assert Mechanism(G, loose, atol=MAX_ATOL).probabilities[0, 1] == 0.5005
    assert Mechanism(G, [[1.0, 0.0], [0.5, 0.5]], atol=0).probabilities.sum() == 2.0
    for bad in (2 * MAX_ATOL, float("nan"), float("inf"), -1e-12):
        with pytest.raises(ParameterError, match="`atol`"):
            Mechanism(G, loose, atol=bad)
    with pytest.raises(ParameterError, match="atol=nan"):  # rows summing to 5 are not accepted
        Mechanism(G, [[2.5, 2.5], [0.5, 0.5]], atol=float("nan"))


def test_sample_labels_beyond_int64_and_tuple_outputs():
    rng = np.random.default_rng(7)
    big = [2**70, -(2**64), 5]
    G = builders.line(big, 1)
    M = Mechanism(G, [[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])
    draws = M.sample(0, 400, rng=rng)
    assert draws.dtype == object and set(draws.tolist()) == set(big)
    assert M.sample(1) == 2**70 and type(M.sample(1)) is int
    G64 = builders.line([2**63 - 1, -(2**63)], 1)
    draws = Mechanism(G64, [[0.5, 0.5], [0.5, 0.5]]).sample(0, 50, rng=rng)
    assert draws.dtype == np.int64 and set(draws.tolist()) == {2**63 - 1, -(2**63)}
    T = builders.line([(0, 1), (1, 0)], 1)
    draws = Mechanism(T, [[0.5, 0.5], [0.0, 1.0]]).sample(0, 50, rng=rng)
    assert draws.shape == (50,) and set(draws.tolist()) == {(0, 1), (1, 0)}
    assert Mechanism(T, [[0.5, 0.5], [0.0, 1.0]]).sample(1) == (1, 0)


def test_sample_size_is_checked_before_drawing(monkeypatch):
    G = builders.line(["a", "b"], 1)
    M = Mechanism(G, [[0.5, 0.5], [0.5, 0.5]])

    def no_draws(n):
        raise AssertionError(f"os.urandom({n}) called")

    monkeypatch.setattr("rainbowdp.mechanism.os.urandom", no_draws)
    for size in (2**61, MAX_SAMPLE_SIZE + 1):
        with pytest.raises(ParameterError, match=f"`size` must be <= {MAX_SAMPLE_SIZE}"):
            M.sample(0, size)
    assert M.sample(0, 0, rng=np.random.default_rng(0)).shape == (0,)


def test_copies_are_read_only_and_carry_no_remembered_values():
    """A deep copy or an unpickled mechanism has read-only rows and recomputes its derived
    values (largest row sum, rows with subnormal entries), so none can go stale."""
    import copy
    import pickle

    G = builders.line(["a", "b"], 2)
    M = Mechanism(G, np.asfortranarray([[0.5, 0.5], [0.4, 0.6], [0.3, 0.7]]))
    assert M.probabilities.flags.c_contiguous and not M.probabilities.flags.writeable
    M._row_sum_max()
    M._memo("irregular", irregular_rows)
    for c in (copy.deepcopy(M), pickle.loads(pickle.dumps(M)), copy.copy(M)):
        assert not c.probabilities.flags.writeable
        assert c._smax is None and c._memos == {}
        assert np.array_equal(c.probabilities, M.probabilities)
        assert c._row_sum_max() == M._row_sum_max()
        with pytest.raises(ValueError):
            c.probabilities[0, 0] = 0.9


# ------------------------------------------------------------------ objects that read well
def _records_mechanism():
    nodes = [(a, b) for a in range(3) for b in range(3)]
    edges = [[i, j] for i in range(9) for j in range(i + 1, 9) if i // 3 == j // 3]
    G = RainbowGraph.from_edges(
        edges,
        outputs=list(range(30)),
        rainbow_table=[list(range(30))],
        rainbow_ids=[0] * 9,
        nodes=nodes,
    )
    rng = np.random.default_rng(1)
    p = rng.random((9, 30)) + 0.5
    return Mechanism(G, p / p.sum(axis=1, keepdims=True))


def test_sampling_an_unknown_node_says_what_nodes_look_like():
    M = _records_mechanism()
    with pytest.raises(InvalidGraphError) as info:
        M.sample([0, 1], rng=np.random.default_rng(0))
    msg = str(info.value)
    assert "nodes of this graph are tuples such as (0, 0)" in msg and "got list [0, 1]" in msg
    assert "use the tuple (0, 1)" in msg
    assert 0 <= M.sample((0, 1), rng=np.random.default_rng(0)) < 30  # the tuple works


def test_mechanism_repr_and_html_are_summaries():
    M = _records_mechanism()
    text = repr(M)
    assert "\n" not in text and len(text) < 200 and "9 nodes x 30 outputs" in text, text
    page = M._repr_html_()
    assert page.startswith("<table>") and page.count("<tr>") == 1 + 9  # header, 9 nodes
    assert "20 more" in page  # the 30 outputs are cut to 10 columns
    first = f"{M.probabilities[0, 0]:.6g}"
    assert f"<td>(0, 0)</td><td>{first}</td>" in page


def test_verification_report_repr_html_and_per_edge_table():
    pd = pytest.importorskip("pandas")
    M = _records_mechanism()
    G = M.graph
    rep = verify(M, epsilon=0.1)
    text = repr(rep)
    assert "\n" not in text and len(text) < 300, text
    assert f"n_edges={G.n_edges}" in text and f"n_violations={rep.n_violations}" in text
    assert repr(rep.delta_required) in text  # the float itself, not a rounded one
    assert f"witness=<{len(rep.witness)} output(s)>" in text
    page = rep._repr_html_()
    assert "NOT private" in page and "rounded up" in page
    df = rep.to_pandas(G)
    assert isinstance(df, pd.DataFrame) and len(df) == G.n_edges
    assert df["delta"].tolist() == rep.edge_deltas.tolist()
    assert int(df["violates"].sum()) == rep.n_violations
    u, v = G.edges[3]
    assert (df.loc[3, "u"], df.loc[3, "v"]) == (G.nodes[u], G.nodes[v])
    assert list(rep.to_pandas().columns) == ["edge", "delta", "violates"]
    with pytest.raises(ParameterError, match=r"with 9 edges, got a graph with 2 edges"):
        rep.to_pandas(builders.line(["a", "b"], 2))


def test_printed_delta_is_rounded_up():
    from rainbowdp.privacy import VerificationReport

    # f"{x:.6g}" would print 0.0643217, below the computed delta; the report rounds up
    rep = VerificationReport(
        is_private=False,
        epsilon=0.1,
        delta=0.0,
        delta_required=0.064321712,
        worst_edge=None,
        witness=(),
        edge_deltas=np.array([0.064321712]),
        tolerance=0.0,
        n_violations=1,
    )
    assert "delta required at this epsilon = 0.0643218" in str(rep)
    assert "<td>0.0643218</td>" in rep._repr_html_()


def test_to_pandas_without_pandas_says_what_to_install(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("No module named 'pandas'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    rep = verify(_records_mechanism(), epsilon=0.1)
    with pytest.raises(ImportError, match=r"VerificationReport.to_pandas\(\) needs pandas.*tables"):
        rep.to_pandas()
