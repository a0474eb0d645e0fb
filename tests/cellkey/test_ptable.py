"""Tests of rainbowdp.cellkey._ptable: the ptable container, its mechanism, files and audit."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rainbowdp import epsilon_for_delta, privacy_profile
from rainbowdp.builders import count_path
from rainbowdp.cellkey import AuditReport, Ptable, audit, read_ptable, write_ptable
from rainbowdp.exceptions import ParameterError, ParameterTypeError
from rainbowdp.mechanism import Mechanism

# Sadeghi & Chien, Example 1: D = 25, gamma = 0.5/49 - 1/(10 * 2499), the pmf (2.29)
D1 = 25
GAMMA1 = 0.5 / (2 * 25 - 1) - 1 / (10 * (2500 - 1))


def gaussian(D: int, gamma: float) -> np.ndarray:
    """The truncated discrete Gaussian p(z) ∝ exp(-gamma z^2) on [-D, D], (2.28)."""
    z = np.arange(-D, D + 1)
    w = np.exp(-gamma * z * z)
    p = w / (2 * w[D + 1 :].sum() + 1)
    return (p + p[::-1]) / 2  # exactly symmetric


P1 = gaussian(D1, GAMMA1)


@pytest.fixture(scope="module")
def example1() -> Ptable:
    return Ptable.from_noise(P1, low=-D1, rows=60)


# ------------------------------------------------------------------------------------ paper
def test_example1_pmf() -> None:
    # Sadeghi & Chien, Example 1, (2.30); errata (11): the value printed for +-12 is p(+-11)
    assert P1[D1] == pytest.approx(0.056895481243871, rel=1e-12)
    assert P1[D1 + 1] == pytest.approx(0.056320120792644, rel=1e-12)
    assert P1[D1 + 11] == pytest.approx(0.016632589297126, rel=1e-12)
    assert P1[0] == pytest.approx(0.000099129808160, rel=1e-11)


def test_example1_delta_of_the_data_independent_part(example1: Ptable) -> None:
    r = audit(example1, epsilons=[0.5])
    # Example 1: delta ~ 9.91e-5 at epsilon = 0.5, the mass p(-D) = p(D)
    assert r.delta_at_epsilon_independent[0] == pytest.approx(9.91e-5, rel=1e-3)
    assert r.delta_at_epsilon_independent[0] >= P1[0]
    assert r.delta_at_epsilon_independent[0] == pytest.approx(P1[0], rel=1e-12)
    # near zero the anchored rows are far less private (row 0 is a point mass)
    assert r.delta_at_epsilon[0] > 0.2
    assert r.worst_edge_at_epsilon[0] == (0, 1)


def test_example2_thresholds_and_lookup(example1: Ptable) -> None:
    K = 2**32
    cq = example1.thresholds(K)
    row = 30  # a count >= D: the row is the pmf shifted by 30, noise -25 at j = 5
    # Example 2, (4.4): c^Q(-26) = 0, c^Q(-25) = 425760, c^Q(-24) = 1126343,
    # c^Q(-23) = 2255949, c^Q(25) = 2^32
    assert cq[row, 4] == 0
    assert cq[row, 5:8].tolist() == [425760, 1126343, 2255949]
    assert cq[row, row + 25] == K
    # Example 2: CellKey 2552 gives S = -25, CellKey 1200124 gives S = -23
    assert example1.noise([row, row], [2552, 1200124], keysize=K).tolist() == [-25, -23]
    # interval edges: [c^Q(j - 1), c^Q(j)) holds the key
    keys = np.array([0, 425759, 425760, 1126342, 1126343, K - 1], dtype=np.uint64)
    assert example1.noise(np.full(6, row), keys, keysize=K).tolist() == [
        -25,
        -25,
        -24,
        -24,
        -23,
        25,
    ]
    # Example 2 with KEYSIZE = 2^8: c^Q(-25) = c^Q(-24) = c^Q(-23) = 1
    assert example1.thresholds(2**8)[row, 5:8].tolist() == [1, 1, 1]


def test_example3_quantised_table(example1: Ptable) -> None:
    K = 2**32
    Q = example1.quantised(K)
    law = Q.noise_laws[40]
    # Example 3, (4.12): p^Q(-25) = 425760 / 2^32, p^Q(25) = (2^32 - 4294541537) / 2^32
    assert law[0] == 425760 / K
    assert law[-1] == (K - 4294541537) / K
    # Example 3: B^Q = -5.820766091346741e-9, V^Q = 49.002167175291106
    assert Q.bias[40] == pytest.approx(-5.820766091346741e-9, rel=1e-6)
    assert Q.variance[40] == pytest.approx(49.002167175291106, rel=1e-12)
    # Example 3: epsilon^Q = 0.498039387067656 (largest adjacent log-ratio, errata (14))
    eps_q = float(np.abs(np.diff(np.log(law))).max())
    assert eps_q == pytest.approx(0.498039387067656, rel=1e-12)
    r = audit(example1, epsilons=[0.5], deltas=[425760 / K], keysize=K)
    # Example 3: delta^Q = p^Q(-D) ~ 9.9129974842e-5, exact (a multiple of 2^-32)
    assert r.delta_at_epsilon_independent == (425760 / K,)
    assert r.keysize == K and r.lost_support == 0 and r.lost_rows == ()
    # at delta = delta^Q the exact epsilon is at most epsilon^Q (the tails are covered)
    assert r.epsilon_at_delta_independent[0] <= eps_q * (1 + 1e-9)
    eps_m1 = float(np.max(np.log(law[1:]) - np.log(law[:-1])))  # (4.8): forced by P vs shift
    assert r.epsilon_at_delta_independent[0] >= eps_m1 * (1 - 1e-12)


def test_keysize_2_to_8_loses_support(example1: Ptable) -> None:
    r = audit(example1, epsilon=0.5, keysize=2**8)
    # Example 2: with KEYSIZE = 2^8, -24 and -23 cannot be realised
    assert r.lost_support > 0
    assert D1 in r.lost_rows and 60 in r.lost_rows
    assert r.keysize == 2**8


# ------------------------------------------------------------------------------------ audit
def test_audit_equals_verifier_on_the_shifted_pair() -> None:
    D, gamma = 6, 0.17
    p = gaussian(D, gamma)
    T = Ptable.from_noise(p, low=-D, rows=20)
    eps = [0.0, 0.5, 1.0, 2.0]
    dlt = [0.0, 1e-3, 0.01, 0.2]
    r = audit(T, epsilons=eps, deltas=dlt)
    G = count_path(1, outputs=range(2 * D + 2))
    pair = Mechanism(G, [np.r_[p, 0.0], np.r_[0.0, p]])
    assert r.delta_at_epsilon_independent == tuple(privacy_profile(pair, eps).tolist())
    assert r.epsilon_at_delta_independent == tuple(epsilon_for_delta(pair, dlt).tolist())


@pytest.mark.parametrize("above", ["last", "loop"])
def test_audit_equals_verifier_on_the_whole_path(above: str) -> None:
    rng = np.random.default_rng(7)
    T0 = Ptable.from_noise(gaussian(4, 0.3), low=-4, rows=12)
    P = T0.probabilities.copy()
    P[9:] = P[9:] * 0.9 + 0.1 * np.roll(P[9:], 1, axis=1)  # rows 9..12 differ from each other
    P[9:] /= P[9:].sum(axis=1, keepdims=True)
    T = Ptable(P, above=above, loop_start=9 if above == "loop" else None)
    eps = rng.uniform(0, 2, size=3).tolist()
    dlt = [0.0, 0.05, 0.3]
    r = audit(T, epsilons=eps, deltas=dlt)
    M = T.mechanism(n_max=40)  # far beyond I + 1: the extra edges are translates
    assert r.delta_at_epsilon == tuple(privacy_profile(M, eps).tolist())
    assert r.epsilon_at_delta == tuple(epsilon_for_delta(M, dlt).tolist())
    M2 = T.mechanism()
    assert r.delta_at_epsilon == tuple(privacy_profile(M2, eps).tolist())


def test_audit_of_mechanism_and_path_and_report(tmp_path: Path) -> None:
    T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1, rows=3)
    r1 = audit(T, epsilon=1.0, deltas=[0.75])
    r2 = audit(T.mechanism(), epsilon=1.0, deltas=[0.75])
    write_ptable(T, tmp_path / "t.csv")
    r3 = audit(tmp_path / "t.csv", epsilon=1.0, deltas=[0.75])
    # hand computation: H_e(row 1 || row 0) = 1/4 + 1/2 + 1/4 - e * (1/4) ... only the
    # outputs 1 and 2 (where row 0 is zero) count: 0.75; the shifted pmf: 1/4
    assert r1.delta_at_epsilon == r2.delta_at_epsilon == r3.delta_at_epsilon == (0.75,)
    assert r1.delta_at_epsilon_independent == (0.25,)
    assert r1.epsilon_at_delta == (0.0,)
    assert r1.zeros_stay_zeros and not r1.negative_outputs
    assert r1.bias == (0.0, 0.0, 0.0, 0.0) and r1.max_variance == 0.5
    d = r1.to_dict()
    assert json.loads(json.dumps(d))["delta_at_epsilon"] == [0.75]
    assert "worst edge (0, 1)" in str(r1)
    assert isinstance(r1, AuditReport) and r1.lost_support is None


def test_audit_defaults_and_errors() -> None:
    T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1)
    r = audit(T)
    assert r.deltas == (0.0, 1e-6) and r.epsilons == (1.0,)
    assert r.epsilon_at_delta[0] == math.inf  # the point mass of count 0
    assert r.to_dict()["epsilon_at_delta"][0] == "inf"
    with pytest.raises(ParameterError, match="`epsilon` or `epsilons`"):
        audit(T, epsilon=1.0, epsilons=[1.0])
    with pytest.raises(ParameterError, match="delta"):
        audit(T, deltas=[1.5])
    with pytest.raises(ParameterTypeError, match="`table`"):
        audit(42)  # type: ignore[arg-type]
    small = Ptable([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # I = 1 = D: the edge (1, 2) only
    assert audit(small, epsilon=1.0).delta_at_epsilon_independent == (1.0,)
    tiny = Ptable([[0.5, 0.0, 0.5]])  # I = 0 < D = 2: no data-independent part
    assert audit(tiny, epsilon=1.0).delta_at_epsilon_independent is None


def test_audit_speed() -> None:
    T = Ptable.from_noise(P1, low=-D1, rows=999)  # D = 25, 1000 rows
    times = []
    for _ in range(3):
        t = time.perf_counter()
        audit(T, epsilons=[0.5, 1.0], deltas=[0.0, 1e-6, 1e-3])
        times.append(time.perf_counter() - t)
    assert min(times) <= 0.1


# ------------------------------------------------------------------------------------ anchored
@settings(max_examples=40, deadline=None, derandomize=True)
@given(D=st.integers(1, 12), gamma=st.floats(0.0, 2.0), extra=st.integers(0, 5))
def test_anchored_rows(D: int, gamma: float, extra: int) -> None:
    p = gaussian(D, gamma)
    T = Ptable.from_noise(p, low=-D, rows=D + extra)
    P = T.probabilities
    assert P.min() >= 0.0
    assert np.abs(P.sum(axis=1) - 1).max() <= 1e-12
    assert np.abs(T.bias).max() <= 1e-12 * D
    assert P[0, 0] == 1.0 and not P[0, 1:].any()  # zeros stay zeros
    i = np.arange(1, D + extra + 1)
    assert np.array_equal(P[i, i], np.full(i.size, p[D]))  # P(j = i | i) = p(0)
    for r in range(D, D + extra + 1):  # plain rows: the pmf shifted
        assert np.array_equal(P[r, r - D : r + D + 1], p)
    # the anchored mass of a pair +-v, v > i: v/(v+i) at 0 and i/(v+i) at i + v
    if D >= 2:
        assert P[1, 1 + D] == pytest.approx(2 * p[0] * 1 / (D + 1), rel=1e-12)


def test_from_noise_rules() -> None:
    with pytest.raises(ParameterError, match="symmetric"):
        Ptable.from_noise([0.2, 0.5, 0.3], low=-1)
    T = Ptable.from_noise([0.2, 0.5, 0.3], low=0)  # non-negative noise: no anchoring needed
    assert T.max_count == 2 and T.probabilities[0, :3].tolist() == [0.2, 0.5, 0.3]
    assert Ptable.from_noise([0.0, 0.25, 0.5, 0.25, 0.0], low=-2).D == 1  # zeros trimmed
    with pytest.raises(ParameterError, match="`rows` must be >= 2"):
        Ptable.from_noise(gaussian(2, 0.5), low=-2, rows=1)
    with pytest.raises(ParameterError, match="sum to 1"):
        Ptable.from_noise([0.5, 0.6], low=0)


# ------------------------------------------------------------------------------------ container
def test_validation_names_the_row() -> None:
    with pytest.raises(ParameterError, match="row i=1"):
        Ptable([[1.0, 0.0], [-0.1, 1.1]])
    with pytest.raises(ParameterError, match="row i=2"):
        Ptable([[1.0, 0.0], [0.5, 0.5], [0.5, 0.4]])
    with pytest.raises(ParameterError, match="row i=0"):
        Ptable([[math.nan, 1.0]])
    with pytest.raises(ParameterError, match="loop_start"):
        Ptable(np.eye(3), above="loop")
    with pytest.raises(ParameterError, match="loop_start"):
        Ptable(np.eye(3), loop_start=1)
    with pytest.raises(ParameterError, match="`above`"):
        Ptable(np.eye(3), above="wrap")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="row i=1"):
        Ptable([[1.0, 0.0], [0.5, 0.5]], key_map=[[0, 0], [0, 0]])


def test_properties() -> None:
    T = Ptable([[1.0, 0.0, 0.0, 0.0], [0.25, 0.5, 0.0, 0.25]])
    assert T.max_count == 1 and T.D == 2
    assert T.bias.tolist() == [0.0, 0.25]
    assert T.variance[1] == pytest.approx(0.25 * 1 + 0.25 * 4 - 0.0625)
    assert T.rows_noise.tolist() == [[0, 1, 2, 3], [-1, 0, 1, 2]]
    assert T.noise_laws.tolist() == [[0, 0, 1, 0, 0], [0, 0.25, 0.5, 0, 0.25]]
    assert Ptable([[1.0, 0.0, 0.0]]).probabilities.shape == (1, 1)  # trailing zeros dropped
    d = T.to_dict()
    assert d["D"] == 2 and d["probabilities"][1] == [0.25, 0.5, 0.0, 0.25]
    assert T == Ptable(T.probabilities) and T != Ptable(T.probabilities, keysize=8)


def test_noise_lookup_matches_quantised_probabilities() -> None:
    T = Ptable.from_noise(gaussian(5, 0.2), low=-5, rows=8)
    K = 2**10
    keys = np.arange(K, dtype=np.uint64)
    Q = T.quantised(K)
    for c in [0, 3, 8, 9, 50]:
        v = T.noise(np.full(K, c), keys, keysize=K)
        r = min(c, 8)
        share = np.bincount(v + r, minlength=Q.probabilities.shape[1]) / K
        assert np.array_equal(share[: Q.probabilities.shape[1]], Q.probabilities[r])
        assert np.array_equal(v, T.noise(c, keys, keysize=K))  # broadcast, deterministic
        assert (c + v).min() >= 0
    assert (T.noise(0, keys, keysize=K) == 0).all()  # zeros stay zeros


def test_noise_errors() -> None:
    T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1)
    with pytest.raises(ParameterError, match="`keysize` is required"):
        T.noise([1], [0])
    with pytest.raises(ParameterError, match="cell_keys"):
        T.noise([1], [256], keysize=256)
    with pytest.raises(ParameterError, match="cell_keys"):
        T.noise([1], np.array([2**63], dtype=np.uint64), keysize=256)
    with pytest.raises(ParameterError, match="cell_keys"):
        T.noise([1], [-1], keysize=256)
    with pytest.raises(ParameterTypeError, match="cell_keys"):
        T.noise([1], [0.5], keysize=256)
    with pytest.raises(ParameterError, match="counts"):
        T.noise([-1], [0], keysize=256)
    with pytest.raises(ParameterError, match="power of two"):
        T.noise([1], [0], keysize=100)


def test_loop_rows() -> None:
    P = np.zeros((8, 12))
    for i in range(8):  # row i: noise +1 with probability (i + 1)/10, else 0
        P[i, i] = 1 - (i + 1) / 10
        P[i, i + 1] = (i + 1) / 10
    T = Ptable(P, above="loop", loop_start=5)
    assert T.row_of([7, 8, 9, 10, 11, 100]).tolist() == [7, 5, 6, 7, 5, 7]  # 95 = 2 mod 3
    M = T.mechanism(n_max=11)
    # count 8 uses row 5 shifted by 3: 0.4 at 9
    assert M.probabilities[8, 8:10].tolist() == [0.4, 0.6]
    assert M.probabilities[11, 11:13].tolist() == [0.4, 0.6]
    keys = np.arange(16)
    assert np.array_equal(T.noise(8, keys, keysize=16), T.noise(5, keys, keysize=16))


# ------------------------------------------------------------------------------------ mechanism
def test_mechanism_matches_hand_built() -> None:
    T = Ptable.from_noise([0.25, 0.5, 0.25], low=-1, rows=2)
    M = T.mechanism()
    G = count_path(3, outputs=range(5))
    hand = Mechanism(
        G,
        [
            [1.0, 0.0, 0.0, 0.0, 0.0],
            [0.25, 0.5, 0.25, 0.0, 0.0],
            [0.0, 0.25, 0.5, 0.25, 0.0],
            [0.0, 0.0, 0.25, 0.5, 0.25],
        ],
    )
    assert np.array_equal(M.probabilities, hand.probabilities)
    assert np.array_equal(M.graph.edges, G.edges) and M.graph.outputs == G.outputs
    assert privacy_profile(M, [0.3]).tolist() == privacy_profile(hand, [0.3]).tolist()


def test_from_mechanism() -> None:
    T = Ptable.from_noise(gaussian(3, 0.4), low=-3, rows=5)
    M = T.mechanism()
    T2 = Ptable.from_mechanism(M)
    assert T2.max_count == 6
    assert np.array_equal(T2.mechanism(n_max=6).probabilities, M.probabilities)
    w = T.probabilities.shape[1]
    assert np.array_equal(T2.probabilities[:6, :w], T.probabilities)
    assert not T2.probabilities[:6, w:].any()
    G = count_path(2, outputs=range(3), start=1)  # answers 1..2, not 0..I
    with pytest.raises(ParameterError, match=r"answers 0\.\.I"):
        Ptable.from_mechanism(Mechanism(G, [[1, 0, 0], [0, 1, 0]]))
    with pytest.raises(ParameterTypeError, match="mechanism"):
        Ptable.from_mechanism(T)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------ files
def test_ptable_layout_round_trip_bit_for_bit(tmp_path: Path) -> None:
    T = Ptable.from_noise(gaussian(7, 0.123456789), low=-7, rows=10)
    path = write_ptable(T, tmp_path / "t.csv")
    back = read_ptable(path)
    assert np.array_equal(back.probabilities, T.probabilities) and back == T
    assert back.metadata == {"path": str(path), "layout": "ptable"}
    lines = path.read_text().splitlines()
    assert lines[0] == "i,j,p,v,p_int_lb,p_int_ub,type" and lines[1] == "0,0,1.0,0,0.0,1.0,all"
    # from a Mechanism, and with a keysize: exactly the quantised table
    write_ptable(T.mechanism(), tmp_path / "m.csv")
    assert np.array_equal(
        read_ptable(tmp_path / "m.csv").mechanism(n_max=11).probabilities,
        T.mechanism().probabilities,
    )
    write_ptable(T, tmp_path / "q.csv", keysize=2**16)
    q = read_ptable(tmp_path / "q.csv", keysize=2**16)
    assert np.array_equal(q.probabilities, T.quantised(2**16).probabilities)
    assert np.array_equal(q.thresholds(2**16), T.thresholds(2**16))
    keys = np.arange(0, 2**16, 7)
    assert np.array_equal(q.noise(5, keys), T.noise(5, keys, keysize=2**16))


def test_ptable_layout_keeps_the_keysize(tmp_path: Path) -> None:
    # the table's own key size: a last column `keysize`, read back (before: forgotten)
    T = Ptable.from_noise(gaussian(5, 0.3), low=-5, rows=7, keysize=2**16)
    path = write_ptable(T, tmp_path / "k.csv")
    lines = path.read_text().splitlines()
    assert lines[0] == "i,j,p,v,p_int_lb,p_int_ub,type,keysize"
    assert all(line.endswith(",all,65536") for line in lines[1:])
    back = read_ptable(path)
    assert back.keysize == 2**16 and back == T  # probabilities bit for bit and the key size
    keys = np.arange(0, 2**16, 5)
    assert np.array_equal(back.noise(6, keys), T.noise(6, keys))  # no keysize= needed
    # keysize= at writing: the quantised table and that key size
    q = read_ptable(write_ptable(T, tmp_path / "q.csv", keysize=2**8))
    assert q.keysize == 2**8 and q == T.quantised(2**8)
    # a designed table (KEYSIZE 2^32) round-trips whole
    from rainbowdp.cellkey import design_ptable

    d = design_ptable(1.0, 1e-3)
    assert read_ptable(write_ptable(d.table, tmp_path / "d.csv")) == d.table
    assert d.table.keysize == 2**32
    # the argument must agree with the file
    assert read_ptable(path, keysize=2**16).keysize == 2**16
    with pytest.raises(ParameterError, match=r"file's key size 65536.*keysize=256"):
        read_ptable(path, keysize=256)


@pytest.mark.parametrize(
    ("tail", "match"),
    [
        ((",16", ",32"), r"line 3: column `keysize` must hold one value, got 32 after 16"),
        ((",12", ",12"), r"line 2: column `keysize` must be a power of two, got 12"),
        ((",16", ",x"), r"line 3: column `keysize` must be an integer, got 'x'"),
        ((",16", ",-16"), r"line 3: column `keysize` must be >= 1"),
    ],
)
def test_ptable_layout_bad_keysize_column(tmp_path: Path, tail: tuple, match: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(
        "i,j,p,v,p_int_lb,p_int_ub,type,keysize\n"
        f"0,0,1.0,0,0.0,1.0,all{tail[0]}\n"
        f"1,0,0.5,-1,0.0,0.5,all{tail[1]}\n"
        f"1,1,0.5,0,0.5,1.0,all{tail[0]}\n"
    )
    with pytest.raises(ParameterError, match=match):
        read_ptable(path)


def test_ons_layout_round_trip(tmp_path: Path) -> None:
    T = Ptable.from_noise(gaussian(4, 0.3), low=-4, rows=6, keysize=256)
    path = write_ptable(T, tmp_path / "o.csv", layout="ons")
    back = read_ptable(path)
    assert back.keysize == 256 and back.above == "last" and back.key_map.shape == (7, 256)
    assert np.array_equal(back.probabilities, T.quantised(256).probabilities)
    keys = np.arange(256, dtype=np.uint64)
    for c in [0, 2, 6, 7, 30]:
        assert np.array_equal(back.noise(c, keys), T.noise(c, keys))
    again = write_ptable(back, tmp_path / "o2.csv", layout="ons")
    assert again.read_text() == path.read_text()
    assert read_ptable(again) == back
    with pytest.raises(ParameterError, match="`keysize` is required"):
        write_ptable(Ptable.from_noise([0.5, 0.5], low=0), tmp_path / "x.csv", layout="ons")
    with pytest.raises(ParameterError, match="no above-rule"):
        write_ptable(Ptable(np.eye(3), above="loop", loop_start=1), tmp_path / "x.csv")


def _ons_text(top: int, K: int, first: int = 1) -> str:
    rows = ["pcv,ckey,pvalue"]
    for pcv in range(first, top + 1):
        for k in range(K):
            v = -1 if (k == 0 and pcv % 3 == 0 and pcv) else (1 if k == K - 1 else 0)
            rows.append(f"{pcv},{k},{v}")
    return "\n".join(rows) + "\n"


def test_ons_loop_and_missing_pcv0(tmp_path: Path) -> None:
    path = tmp_path / "ons.csv"
    path.write_text(_ons_text(750, 4))
    T = read_ptable(path)
    assert T.above == "loop" and T.loop_start == 501 and T.keysize == 4
    assert T.probabilities[0, 0] == 1.0  # pcv 0 absent: count 0 publishes 0
    assert not T.probabilities[0, 1:].any() and not T.key_map[0].any()
    assert T.probabilities[3, 2:5].tolist() == [0.25, 0.5, 0.25]
    # pcv = ((c - 501) mod 250) + 501 above 750
    assert T.row_of([750, 751, 1000, 1001]).tolist() == [750, 501, 750, 501]
    keys = np.arange(4)
    assert np.array_equal(T.noise(751, keys), T.noise(501, keys))
    assert T.noise(751, keys).tolist() == [-1, 0, 0, 1]  # 501 = 3 * 167
    assert read_ptable(path, above="last").above == "last"
    small = tmp_path / "small.csv"
    small.write_text(_ons_text(5, 2, first=0))
    assert read_ptable(small).above == "last"


def _ptable_text(rows: list[str]) -> str:
    return "\n".join(["i,j,p,v,p_int_lb,p_int_ub,type", *rows]) + "\n"


GOOD = ["0,0,1.0,0,0.0,1.0,all", "1,0,0.5,-1,0.0,0.5,all", "1,2,0.5,1,0.5,1.0,all"]


@pytest.mark.parametrize(
    ("rows", "match"),
    [
        ([*GOOD[:2], "1,2,x,1,0.5,1.0,all"], r"line 4: column `p` must be a number"),
        ([*GOOD[:2], "1,2,-0.5,1,0.5,1.0,all"], r"line 4: negative probability"),
        ([*GOOD, "1,2,0.0,1,1.0,1.0,all"], r"line 5: duplicate \(i, j\) \(1, 2\), first on line 4"),
        (["0,0,1.0,0,0.0,1.0,all", "2,2,1.0,0,0.0,1.0,all"], r"row i=1 is missing"),
        ([*GOOD[:2], "1,2,0.4,1,0.5,0.9,all"], r"row i=1 \(lines 3-4\) sums to"),
        ([*GOOD[:2], "1,2,0.5,1,0.6,1.1,all"], r"line 4: row i=1: p_int_lb=0.6"),
        ([*GOOD[:2], "1,2,0.5,2,0.5,1.0,all"], r"line 4: v=2 is not j - i = 1"),
        ([*GOOD[:2], "1,2,0.5,1,0.5,1.0,even"], r"line 4: type 'even'"),
        ([*GOOD[:2], "1,2,0.5,1,0.5,1.0"], r"line 4: has 6 fields"),
        ([*GOOD[:2], "1,2.5,0.5,1,0.5,1.0,all"], r"line 4: column `j` must be an integer"),
        ([*GOOD[:2], "-1,2,0.5,3,0.5,1.0,all"], r"line 4: column `i` must be >= 0"),
    ],
)
def test_malformed_ptable_files(tmp_path: Path, rows: list[str], match: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(_ptable_text(rows))
    with pytest.raises(ParameterError, match=match):
        read_ptable(path)


def test_good_ptable_file_and_header_errors(tmp_path: Path) -> None:
    path = tmp_path / "good.csv"
    path.write_text(_ptable_text(GOOD))
    assert read_ptable(path).probabilities.tolist() == [[1.0, 0.0, 0.0], [0.5, 0.0, 0.5]]
    path.write_text('"i","j","p","v","p_int_lb","p_int_ub"\n0,0,1,0,0,1\n')
    with pytest.raises(ParameterError, match=r"misses the column\(s\) type"):
        read_ptable(path)
    path.write_text("a,b\n1,2\n")
    with pytest.raises(ParameterError, match="cannot tell the layout"):
        read_ptable(path)
    path.write_text("")
    with pytest.raises(ParameterError, match="empty"):
        read_ptable(path)
    with pytest.raises(ParameterError, match="`layout`"):
        read_ptable(path, layout="excel")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        (
            "pcv,ckey,pvalue\n1,0,0\n1,1,0\n2,0,0\n",
            r"pcv 2 \(lines 4-4\) has 1 ckeys, missing ckey 1",
        ),
        ("pcv,ckey,pvalue\n1,0,0\n1,1,0\n1,1,1\n", r"line 4: duplicate \(pcv, ckey\) \(1, 1\)"),
        ("pcv,ckey,pvalue\n1,0,0\n1,1,a\n", r"line 3: column `pvalue` must be an integer"),
        ("pcv,ckey,pvalue\n1,0,0\n1,1,0\n3,0,0\n3,1,0\n", r"pcv 2 is missing"),
        (
            "pcv,ckey,pvalue\n1,0,-2\n1,1,0\n",
            r"line 2: pcv 1 with pvalue -2 publishes the negative",
        ),
        ("pcv,ckey,pvalue\n1,0,0\n1,1,0\n1,2,0\n", r"K = 3, must be a power of two"),
        ("pcv,ckey,pvalue\n1,-1,0\n", r"line 2: column `ckey` must be >= 0"),
        ("pcv,ckey,pvalue\n5,0,0\n5,1,0\n", r"pcv must start at 0 or 1"),
    ],
)
def test_malformed_ons_files(tmp_path: Path, text: str, match: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(ParameterError, match=match):
        read_ptable(path)


def test_ons_keysize_mismatch(tmp_path: Path) -> None:
    path = tmp_path / "o.csv"
    path.write_text(_ons_text(3, 2))
    with pytest.raises(ParameterError, match="file's K = 2"):
        read_ptable(path, keysize=4)
