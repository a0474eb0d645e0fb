"""Hand-off to dp_accounting, worst pairs, and the plain-data reports (rainbowdp.interop).

Bound used for the dp_accounting exports. With ``pessimistic_estimate=True`` every privacy loss
ln(P_a(v)/P_b(v)) is rounded *up* to a multiple of the discretisation interval D, i.e. moved up
by less than D. The hockey-stick divergence is an expectation of (1 - e^(eps - L))_+, which is
non-decreasing in the loss L, and (1 - e^(eps - (L + D)))_+ = (1 - e^((eps - D) - L))_+; so for
one release

    exact delta(eps) <= dp_accounting delta(eps) <= exact delta(eps - D),

and for k releases the k losses add, each rounded up by less than D:

    exact delta_k(eps) <= dp_accounting delta_k(eps) <= exact delta_k(eps - k D) + t,

where t = 1e-15 is the tail mass ``self_compose`` may move to the infinite loss (pessimistic).
"exact" is rainbowdp's sound upper bound (privacy_profile), which is the smallest float at least
the exact value, so the left inequality is checked against it directly.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import subprocess
import sys

import numpy as np
import pytest

from rainbowdp import interop
from rainbowdp._verify.certify import certify
from rainbowdp.builders import count_path, from_records
from rainbowdp.exceptions import ParameterError, ParameterTypeError
from rainbowdp.graph import RainbowGraph
from rainbowdp.mechanism import Mechanism
from rainbowdp.noise import RandomizedResponse, geometric, randomized_response
from rainbowdp.privacy import epsilon_for_delta, hockey_stick, privacy_profile, verify

D = interop.DEFAULT_DISCRETIZATION
#: Documented overshoot of epsilon_for_delta: at most about 1e-10 max(1, eps).
EPS_OVERSHOOT = 1e-10
#: Tail mass that self_compose may add to the infinite loss (dp_accounting's default).
TAIL = 1e-15


def _random_mechanism(seed: int, *, directed: bool = False, zeros: bool = False) -> Mechanism:
    rng = np.random.default_rng(seed)
    n, q = 7, 4
    edges = [(i, (i + 1) % n) for i in range(n)] + [(0, 3), (2, 5)]
    if directed:
        edges += [(3, 2), (5, 4)]
    G = RainbowGraph.from_edges(
        edges,
        outputs=list("wxyz"),
        rainbow_table=[list(range(q))],
        rainbow_ids=[0] * n,
        directed=directed,
    )
    p = rng.dirichlet(np.ones(q), size=n)
    if zeros:
        p[2, 1] = 0.0
        p[2] /= p[2].sum()
    return Mechanism(G, p)


def _product(M: Mechanism) -> Mechanism:
    """Two independent releases of M as one mechanism on the same graph (q^2 outputs)."""
    G, P = M.graph, M.probabilities
    q = G.n_outputs
    G2 = RainbowGraph.from_edges(
        G.edges,
        outputs=list(itertools.product(range(q), repeat=2)),
        rainbow_table=[list(range(q * q))],
        rainbow_ids=[0] * G.n_nodes,
        nodes=G.nodes,
        directed=G.directed,
    )
    return Mechanism(G2, np.einsum("ni,nj->nij", P, P).reshape(G.n_nodes, q * q))


def _profile(M: Mechanism, eps: float) -> float:
    return float(privacy_profile(M, [eps])[0])


# ---------------------------------------------------------------------------- optional import
def test_importing_interop_does_not_import_dp_accounting():
    code = "import sys, rainbowdp, rainbowdp.interop; print('dp_accounting' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_missing_dp_accounting_raises_import_error_with_pip_command(monkeypatch):
    for name in [m for m in sys.modules if m.split(".")[0] == "dp_accounting"]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "dp_accounting", None)
    M = randomized_response(count_path(1), epsilon=1.0)
    P = interop.pair(M, 0, 1)  # no dp_accounting needed
    with pytest.raises(ImportError, match=r'pip install "rainbowdp\[accounting\]"'):
        interop.to_dp_accounting(P)
    with pytest.raises(ImportError, match="dp_accounting"):
        interop.compose(M, 2, epsilon=1.0)


# ---------------------------------------------------------------------------- pairs
def test_pair_fields_and_directions():
    M = _random_mechanism(1, directed=True)
    G = M.graph
    P = interop.pair(M, 0, 1)  # arc 0 -> 1 only
    assert (P.a, P.b, P.one_way, P.neighbours) == (0, 1, True, True)
    assert P.p_a.tolist() == M.row(0).tolist() and P.p_b.tolist() == M.row(1).tolist()
    assert P.outputs == G.outputs and P.order.tolist() == G.order[[0, 1]].tolist()
    both = interop.pair(M, 2, 3)  # arcs 2 -> 3 and 3 -> 2
    assert not both.one_way and both.neighbours
    far = interop.pair(M, 0, 2)
    assert not far.one_way and not far.neighbours
    with pytest.raises(ParameterError, match=r"pair\(mechanism, b, a\)"):
        interop.pair(M, 1, 0)
    with pytest.raises(ParameterError, match=r"`a` must be a node.*a=99"):
        interop.pair(M, 99, 0)
    with pytest.raises(ParameterError, match="distinct"):
        interop.pair(M, 4, 4)
    with pytest.raises(ParameterTypeError):
        interop.pair("M", 0, 1)


def test_pair_mechanism_keeps_the_constrained_directions():
    M = _random_mechanism(2, directed=True)
    one = interop.pair(M, 0, 1)
    assert one.mechanism.graph.directed
    assert one.dp_delta(0.2) == hockey_stick(one.p_a, one.p_b, 0.2)
    U = _random_mechanism(2)
    two = interop.pair(U, 1, 0)
    assert (two.a, two.b) == (1, 0) and not two.mechanism.graph.directed
    expect = max(hockey_stick(two.p_a, two.p_b, 0.2), hockey_stick(two.p_b, two.p_a, 0.2))
    assert two.dp_delta(0.2) == expect


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("epsilon", [0.0, 0.3, 1.0])
def test_worst_pair_at_epsilon_is_the_verifier_witness(directed, epsilon):
    M = _random_mechanism(3, directed=directed)
    rep = verify(M, epsilon=epsilon)
    P = interop.worst_pair(M, epsilon)
    assert (P.a, P.b) == rep.worst_edge
    assert P.dp_delta(epsilon) == rep.delta_required
    # the direction reported is the larger one: H(P_a || P_b) is the reported delta
    assert hockey_stick(P.p_a, P.p_b, epsilon) == rep.delta_required
    assert P.one_way == (directed and {P.a, P.b} not in ({2, 3}, {4, 5}))


@pytest.mark.parametrize("directed", [False, True])
@pytest.mark.parametrize("delta", [0.0, 0.05, 0.2])
def test_worst_pair_at_delta_needs_the_largest_epsilon(directed, delta):
    M = _random_mechanism(4, directed=directed)
    G = M.graph
    eps = float(epsilon_for_delta(M, delta))
    P = interop.worst_pair(M, delta=delta)
    assert abs(P.epsilon(delta) - eps) <= EPS_OVERSHOOT * max(1.0, eps)
    # brute force over every constrained direction, each solved by the library
    orders = G.edges.tolist() if directed else G.edges.tolist() + G.edges[:, ::-1].tolist()
    per = {}
    for u, v in orders:
        one = interop.Pair(
            a=u,
            b=v,
            p_a=M.row(u),
            p_b=M.row(v),
            outputs=G.outputs,
            order=G.order[[u, v]],
            one_way=True,
        )
        per[(u, v)] = one.epsilon(delta)
    assert per[(P.a, P.b)] == max(per.values())
    assert P.mechanism.graph.directed == (directed and P.one_way)


def test_worst_pair_at_delta_with_zero_and_infinite_epsilon():
    M = _random_mechanism(5, zeros=True)  # node 2 puts no mass on output 'x'
    P = interop.worst_pair(M, delta=0.0)
    assert math.isinf(epsilon_for_delta(M, 0.0)) and math.isinf(P.epsilon(0.0))
    # the neighbour of node 2 with the most mass where node 2 has none
    assert P.b == 2 and P.a in (1, 3, 5)
    assert P.p_a[1] == max(M.row(n)[1] for n in (1, 3, 5))
    P1 = interop.worst_pair(M, delta=1.0)  # every pair needs epsilon = 0
    assert (P1.a, P1.b) == verify(M, epsilon=0.0).worst_edge


def test_worst_pair_rejects_bad_arguments():
    M = _random_mechanism(6)
    with pytest.raises(ParameterError, match="exactly one"):
        interop.worst_pair(M)
    with pytest.raises(ParameterError, match="exactly one"):
        interop.worst_pair(M, 1.0, 0.1)
    with pytest.raises(ParameterError, match="delta=2"):
        interop.worst_pair(M, delta=2)
    lone = RainbowGraph.from_edges([], outputs=[0, 1], rainbow_table=[[0, 1]], rainbow_ids=[0])
    with pytest.raises(ParameterError, match="at least one edge"):
        interop.worst_pair(Mechanism(lone, [[0.5, 0.5]]), 1.0)


# ---------------------------------------------------------------------------- dp_accounting
@pytest.fixture
def pld():
    return pytest.importorskip("dp_accounting.pld.privacy_loss_distribution")


EPSILONS = [0.05, 0.3, 0.5, 1.0, math.log(3) - 1e-3, 1.2]


def test_randomized_response_export_round_trips(pld):
    M = randomized_response(count_path(1), epsilon=math.log(3))
    (p, r) = M.row(0)  # the true output's mass and the other's
    assert M.row(1).tolist() == [r, p]
    for eps in EPSILONS:
        exact = _profile(M, eps)
        # the closed form of binary randomized response, on the stored probabilities
        assert exact == pytest.approx(max(0.0, p - math.exp(eps) * r), abs=1e-15)
        got = float(interop.to_dp_accounting(M, epsilon=eps).get_delta_for_epsilon(eps))
        assert exact <= got <= _profile(M, eps - D)
    for delta in [0.0, 0.01, 0.1]:
        exact = float(epsilon_for_delta(M, delta))
        got = float(interop.to_dp_accounting(M, delta=delta).get_epsilon_for_delta(delta))
        assert exact - EPS_OVERSHOOT * max(1.0, exact) <= got <= exact + D


def test_k_ary_randomized_response_and_a_coarser_interval(pld):
    R = RandomizedResponse(epsilon=1.0)
    M = R.mechanism(R.graph(3))  # complete graph, 4 outputs
    for width in [D, 0.01]:
        for eps in [0.2, 0.7]:
            exact = _profile(M, eps)
            x = interop.to_dp_accounting(M, epsilon=eps, value_discretization_interval=width)
            assert isinstance(x, pld.PrivacyLossDistribution)
            assert exact <= float(x.get_delta_for_epsilon(eps)) <= _profile(M, eps - width)


def test_geometric_on_a_count_path(pld):
    M = geometric(count_path(8), epsilon=1.0, form="truncated")
    for eps in [0.3, 0.9]:
        P = interop.worst_pair(M, eps)
        exact = _profile(M, eps)
        assert exact > 0 and P.dp_delta(eps) == exact
        got = float(interop.to_dp_accounting(P).get_delta_for_epsilon(eps))
        assert exact <= got <= _profile(M, eps - D)
        one = interop.compose(M, 1, eps)  # every distinct pair, not only the worst
        assert one.solved_for == "delta" and one.releases == 1
        assert exact <= one.delta <= _profile(M, eps - D)


def test_one_way_export_counts_only_the_arc():
    pytest.importorskip("dp_accounting")
    G = RainbowGraph.from_edges(
        [[0, 1]],
        outputs=["u", "v", "w"],
        rainbow_table=[[0, 1, 2]],
        rainbow_ids=[0, 0],
        directed=True,
    )
    M = Mechanism(G, [[0.5, 0.5, 0.0], [0.25, 0.25, 0.5]])
    eps = 0.5
    forward = hockey_stick(M.row(0), M.row(1), eps)  # 0.5 - e^0.5 / 4, about 0.088
    backward = hockey_stick(M.row(1), M.row(0), eps)  # 0.5: mass where P_0 vanishes
    assert forward < backward
    arc = interop.pair(M, 0, 1)
    got = float(interop.to_dp_accounting(arc).get_delta_for_epsilon(eps))
    assert forward <= got <= hockey_stick(M.row(0), M.row(1), eps - D)
    two_way = interop.Pair(
        a=0, b=1, p_a=M.row(0), p_b=M.row(1), outputs=G.outputs, order=G.order, one_way=False
    )
    both = float(interop.to_dp_accounting(two_way).get_delta_for_epsilon(eps))
    below = [hockey_stick(x, y, eps - D) for x, y in [(M.row(0), M.row(1)), (M.row(1), M.row(0))]]
    assert backward <= both <= max(below)


@pytest.mark.parametrize(
    "M",
    [
        randomized_response(count_path(1), epsilon=math.log(3)),
        geometric(count_path(3), epsilon=0.7, form="truncated"),
    ],
    ids=["rr", "geometric"],
)
def test_composition_against_the_exact_product(pld, M):
    eps = 0.6
    one, two = interop.compose(M, 1, eps), interop.compose(M, 2, epsilon=eps)
    assert _profile(M, eps) <= one.delta <= _profile(M, eps - D)
    M2 = _product(M)  # two releases as one mechanism: its exact profile
    assert _profile(M2, eps) <= two.delta <= _profile(M2, eps - 2 * D) + TAIL
    assert two.delta >= one.delta
    assert two.n_pairs == one.n_pairs and two.accountant.startswith("dp_accounting")
    # epsilon at delta: k = 1 is within D of the proved epsilon, and grows with k
    e1, e2 = interop.compose(M, 1, delta=1e-3), interop.compose(M, 2, delta=1e-3)
    exact = float(epsilon_for_delta(M, 1e-3))
    assert e1.solved_for == "epsilon" and e1.delta == 1e-3
    assert exact - EPS_OVERSHOOT * max(1.0, exact) <= e1.epsilon <= exact + D
    assert e2.epsilon >= e1.epsilon
    assert "dp_accounting" in str(two) and "pessimistic" in str(two)
    d = two.to_dict()
    assert json.loads(json.dumps(d)) == d and d["delta"] == two.delta


def test_compose_counts_distinct_pairs_and_checks_arguments():
    pytest.importorskip("dp_accounting")
    R = RandomizedResponse(epsilon=1.0)
    M = R.mechanism(R.graph(3))  # 6 edges, all with the same multiset of probability pairs
    c = interop.compose(M, 3, epsilon=1.0)
    assert c.n_pairs == 1 and c.releases == 3
    P = interop.worst_pair(M, 1.0)
    assert interop.compose(P, 3, epsilon=1.0).delta == c.delta
    G = geometric(count_path(6), epsilon=1.0)
    with pytest.raises(ParameterError, match="max_pairs=2"):
        interop.compose(G, 2, epsilon=1.0, max_pairs=2)
    with pytest.raises(ParameterError, match="k=0"):
        interop.compose(M, 0, epsilon=1.0)
    with pytest.raises(ParameterTypeError, match=r"k=1\.5"):
        interop.compose(M, 1.5, epsilon=1.0)
    with pytest.raises(ParameterError, match="exactly one"):
        interop.compose(M, 2)
    with pytest.raises(ParameterError, match="value_discretization_interval=0"):
        interop.to_dp_accounting(P, value_discretization_interval=0)
    with pytest.raises(ParameterError, match="with a Pair give neither"):
        interop.to_dp_accounting(P, epsilon=1.0)
    with pytest.raises(ParameterTypeError, match="Mechanism or a Pair"):
        interop.to_dp_accounting([0.5, 0.5])


# ---------------------------------------------------------------------------- plain reports
def _round_trip(d: dict) -> None:
    assert json.loads(json.dumps(d)) == d
    strict = interop.nonfinite_to_null(d)
    json.dumps(strict, allow_nan=False)


def test_verification_report_to_dict():
    G = from_records([0, 1], size=2, query=sum, outputs=[0, 1, 2], relation="add_only")
    M = randomized_response(G, epsilon=1.0)
    rep = verify(M, epsilon=0.5, delta=0.01)
    d = rep.to_dict()
    _round_trip(d)
    assert d["worst_edge"] == [list(x) for x in rep.worst_edge]  # tuple nodes become lists
    assert d["delta_required"] == rep.delta_required and d["is_private"] is rep.is_private
    assert d["witness"] == list(rep.witness) and d["n_edges"] == G.n_edges
    assert "edge_deltas" not in d
    full = rep.to_dict(edge_deltas=True)
    assert full["edge_deltas"] == rep.edge_deltas.tolist()
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame([d])
    assert frame.shape == (1, len(d)) and frame.loc[0, "delta_required"] == rep.delta_required


def test_verify_cli_json_agrees_with_to_dict(tmp_path, capsys):
    from rainbowdp.cli import main
    from rainbowdp.io import save_graph

    M = _random_mechanism(8)
    path = save_graph(M.graph, tmp_path / "g.json", mechanism=M)
    assert main(["verify", str(path), "--epsilon", "0.4", "--delta", "0.05", "--json"]) in (0, 1)
    cli = json.loads(capsys.readouterr().out)
    ours = interop.nonfinite_to_null(verify(M, epsilon=0.4, delta=0.05).to_dict())
    shared = set(cli) & set(ours)
    assert shared == set(ours)  # every to_dict field is in the CLI output, under the same name
    assert {k: cli[k] for k in shared} == ours


def test_certificate_to_dict_rounds_outwards():
    from fractions import Fraction

    M = _random_mechanism(9)
    for eps in [0.3, 800.0]:
        cert = certify(M, epsilon=eps, delta=0.05)
        d = cert.to_dict()
        _round_trip(d)
        assert d["verdict"] == cert.verdict.value and d["worst_edge"] == list(cert.worst_edge)
        assert Fraction(d["delta_lower"]) <= cert.delta_lower
        assert Fraction(d["delta_upper"]) >= cert.delta_upper
        assert d["delta_upper"] - d["delta_lower"] <= 1e-12
        assert Fraction(d["exp_lower"]) <= cert.exp_lower
        assert math.isinf(d["exp_upper"]) or Fraction(d["exp_upper"]) >= cert.exp_upper
        assert Fraction(d["threshold"]) >= cert.threshold
        assert Fraction(d["float_error"]) >= cert.float_error
        if eps < 700:
            assert d["exp_lower"] <= math.exp(eps) <= d["exp_upper"]
    assert math.isinf(d["exp_upper"])  # eps = 800: e^eps beyond the float range
    with pytest.raises(ValueError, match="JSON compliant"):
        json.dumps(d, allow_nan=False)


def test_design_result_to_dict():
    from rainbowdp.design import lp

    r = lp(count_path(2), epsilon=1.0, delta=0.01)
    d = r.to_dict()
    _round_trip(d)
    assert d["method"] == "lp" and d["objective"] == r.objective
    assert d["achieved_delta"] == r.achieved_delta <= 0.01 and d["n_nodes"] == 3
    full = r.to_dict(mechanism=True)
    assert full["probabilities"] == r.mechanism.probabilities.tolist()
    assert full["nodes"] == [0, 1, 2] and full["outputs"] == [0, 1, 2]
    _round_trip(full)


def test_plain_values():
    from fractions import Fraction

    from rainbowdp._verify.certify import Verdict

    assert interop.plain(Verdict.PRIVATE) == "private"
    assert interop.plain(np.bool_(True)) is True and interop.plain(np.str_("a")) == "a"
    assert interop.plain(Fraction(1, 3)) == "1/3"
    assert interop.plain({(1, 2): np.arange(2)}) == {"[1, 2]": [0, 1]}
    assert interop.nonfinite_to_null((float("nan"), {"a": -math.inf}, 1)) == [None, {"a": None}, 1]


def test_plain_refuses_keys_that_collide():
    with pytest.raises(ParameterError, match=r"keys that both become the string '1': '1'"):
        interop.plain({1: "a", "1": "b"})
    with pytest.raises(ParameterError, match=r"string '\[0, 1\]': \(0, 1\)"):
        interop.plain({"x": {"[0, 1]": 1, (0, 1): 2}})  # nested, a tuple against its text
    assert interop.plain({1: "a", "2": "b"}) == {"1": "a", "2": "b"}


@pytest.mark.parametrize("solved_for", ["delta", "epsilon"])
def test_composition_text_rounds_the_solved_number_up(solved_for):
    solved = 0.0643217123  # to nearest, 6 digits: 0.0643217 -- below the computed number
    eps, delta = (0.5, solved) if solved_for == "delta" else (solved, 1e-5)
    c = interop.Composition(2, eps, delta, solved_for, (0, 1), 1, 1e-4, "dp_accounting 0")
    text = str(c)
    shown = re.search(r"\((\S+), (\S+)\)-DP", text).groups()
    assert float(shown[solved_for == "delta"]) >= solved and "0.0643218" in shown
    given = shown[solved_for == "epsilon"]
    assert given == ("0.5" if solved_for == "delta" else "1e-05")  # the given one as given


def test_pair_built_by_hand_is_validated():
    P = interop.Pair("d", "e", np.array([0.5, 0.5]), [1.0, 0.0])
    assert P.outputs == (0, 1) and P.order.tolist() == [[0, 1], [0, 1]]
    assert not P.p_a.flags.writeable and P.dp_delta(0.0) == 0.5
    with pytest.raises(ParameterError, match="`p_b` must have 2 entries"):
        interop.Pair(0, 1, [0.5, 0.5], [1.0, 0.0, 0.0])
    with pytest.raises(ParameterError, match="`p_a` must sum to 1"):
        interop.Pair(0, 1, [0.5, 0.6], [0.5, 0.5])
    with pytest.raises(ParameterError, match="distinct"):
        interop.Pair(0, 0, [0.5, 0.5], [0.5, 0.5])
    with pytest.raises(ParameterError, match="`outputs` must have 2 entries"):
        interop.Pair(0, 1, [0.5, 0.5], [0.5, 0.5], outputs=["x"])
    with pytest.raises(ParameterError, match="`order` must be two permutations"):
        interop.Pair(0, 1, [0.5, 0.5], [0.5, 0.5], order=[[0, 0], [0, 1]])
    with pytest.raises(ParameterTypeError, match="`one_way` must be a bool"):
        interop.Pair(0, 1, [0.5, 0.5], [0.5, 0.5], one_way="yes")
