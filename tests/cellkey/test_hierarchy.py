"""Hierarchies of the classifying variables: subtotals perturbed from their own records' keys.

Oracles:

* R package ``cellKey`` 1.0.2 (sdcTools), ``R/cellkey_pkg.R``, ``ck_setup(x, rkey, dims)``: the
  table crosses every node of every hierarchy (``sdcHierarchies::hier_create`` /
  ``hier_add``) with every node of the others; ``hierarchy_info()`` gives ``code``, ``level``
  (1 = the overall total), ``is_leaf`` and ``parent``; duplicated ("bogus") codes -- a node with
  a single child -- "have identical perturbation values" to that child; its documented example
  (``@examples`` of ``ck_setup``) codes the data ``sex`` as "male"/"female" with the bogus
  leaves "m"/"f" below them.
* ``tests/testthat/test_countvars.R``, "dims-hash is ok": ``hier_create(root = "Total", nodes =
  c("male", "female"))`` has 3 codes and maximum level 2; with ``paste0("age_group", 1:6)`` 7
  codes and maximum level 2.
* The defining property (Sadeghi & Chien 2023, §3, eq. (3.1); ``cellKey``: the cell key is the
  sum of the cell's record keys ``%% 1``): a subtotal's key is the key of its set of records --
  checked against keys computed directly from the records, and by relabelling the records of a
  subtotal into one category of a flat table.
"""

from __future__ import annotations

import numpy as np
import pytest

from rainbowdp.cellkey import Ptable
from rainbowdp.cellkey import _perturb as perturb_module
from rainbowdp.cellkey._decimal_keys import DecimalKeys, decimal_cell_keys, decimal_keys
from rainbowdp.cellkey._hierarchy import parse_hierarchy
from rainbowdp.cellkey._keys import cell_keys, record_keys
from rainbowdp.cellkey._perturb import frequency_table, perturb
from rainbowdp.exceptions import ParameterError, ParameterTypeError

#: districts in regions, a region with one district (a "bogus" node NE), a 3-level tree
TREE = {"North": {"NW": ["N1", "N2"], "NE": ["N3"]}, "South": ["S1", "S2", "S3"]}
PARENTS = {"N1": "NW", "N2": "NW", "N3": "NE", "NW": "North", "NE": "North", "S1": "South",
           "S2": "South", "S3": "South"}  # fmt: skip
LEAVES = ["N1", "N2", "N3", "S1", "S2", "S3"]
#: the leaves below every node of TREE
BELOW = {
    "N1": ["N1"], "N2": ["N2"], "N3": ["N3"], "S1": ["S1"], "S2": ["S2"], "S3": ["S3"],
    "NW": ["N1", "N2"], "NE": ["N3"], "North": ["N1", "N2", "N3"], "South": ["S1", "S2", "S3"],
    "Total": LEAVES,
}  # fmt: skip


def _micro(n: int = 400, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {
        "d": rng.choice(LEAVES[:-1], n),  # S3 has no records: an empty leaf
        "s": rng.choice(["f", "m"], n),
        "w": rng.uniform(1.0, 80.0, n).round(2),
    }


def _ptable(K: int = 2**8) -> Ptable:
    return Ptable.from_noise([0.25, 0.5, 0.25], low=-1, keysize=K)


def _decimal_ptable() -> Ptable:
    p = [[1.0, 0, 0, 0, 0], [0.3, 0.4, 0.3, 0, 0], [0, 0.2, 0.3, 0.3, 0.2]]
    return Ptable(np.array(p))


def _rows(t: object) -> dict[tuple[str, str], int]:
    d, s = t["d"].tolist(), t["s"].tolist()  # type: ignore[index]
    return {(a, b): i for i, (a, b) in enumerate(zip(d, s, strict=True))}


# ------------------------------------------------------------------------------------ parsing
def test_tree_parents_and_root_written_out_give_the_same_hierarchy():
    a = parse_hierarchy(TREE, "d", "Total")
    b = parse_hierarchy(PARENTS, "d", "Total")
    c = parse_hierarchy({"Total": TREE}, "d", "Total")
    d = parse_hierarchy({**PARENTS, "North": "Total", "South": None}, "d", "Total")
    expected = ["N1", "N2", "NW", "N3", "NE", "North", "S1", "S2", "S3", "South", "Total"]
    for h in (a, b, c, d):
        assert h.labels.tolist() == expected
        assert h.level.tolist() == [4, 4, 3, 4, 3, 2, 3, 3, 3, 2, 1]
        assert h.leaves.tolist() == LEAVES
        assert h.labels[h.parent[:-1]].tolist() == [
            "NW", "NW", "North", "NE", "North", "Total", "South", "South", "South", "Total"
        ]  # fmt: skip
        assert h.parent[-1] == -1
        for i, lab in enumerate(h.labels.tolist()):
            assert h.leaves[h.start[i] : h.stop[i]].tolist() == BELOW[lab]


def test_cellkey_dims_sizes_and_levels():
    # cellKey 1.0.2, tests/testthat/test_countvars.R, "dims-hash is ok": nrow(dim_sex) == 3,
    # max(dim_sex$level) == 2; nrow(dim_age) == 7, max(dim_age$level) == 2.
    sex = parse_hierarchy(["male", "female"], "sex", "Total")
    age = parse_hierarchy([f"age_group{i}" for i in range(1, 7)], "age", "Total")
    assert (sex.n_nodes, int(sex.level.max())) == (3, 2)
    assert (age.n_nodes, int(age.level.max())) == (7, 2)


def test_hierarchy_info_as_cellkey():
    data = {"d": np.array(["N1", "S2"])}
    info = frequency_table(data, "d", hierarchies={"d": TREE}).hierarchy_info()["d"]
    assert info["code"].tolist()[-1] == "Total"
    assert info["parent"].tolist()[-1] is None
    assert info["is_leaf"].tolist() == [True, True, False, True, False, False] + [True] * 3 + [
        False,
        False,
    ]
    flat = frequency_table(data, "d").hierarchy_info()["d"]
    assert flat["code"].tolist() == ["N1", "S2", "Total"]
    assert flat["level"].tolist() == [2, 2, 1]


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        ({"a": "b", "b": "c", "c": "a"}, "cycle: 'a' -> 'b' -> 'c' -> 'a'"),
        ({"a": "a"}, "own parent"),
        ({"N": ["a", "b"], "S": ["b"]}, "the label 'b' twice"),
        ({"N": ["a"], "a": ["x"]}, "the label 'a' twice"),
        ({"N": []}, "the node 'N' has no children"),
        ({"N": ["Total"]}, "total='Total' below the root"),
        ({"a": "Total", "Total": "b"}, "total='Total' below the root"),
        ({"N": ["a", None]}, "missing label"),
        ({"N": ["a", ["b"]]}, "must hold labels"),
        ({}, "is empty"),
    ],
)
def test_bad_hierarchies(spec, match):
    with pytest.raises(ParameterError, match=match):
        parse_hierarchy(spec, "d", "Total")


def test_bad_hierarchy_types():
    with pytest.raises(ParameterTypeError, match=r"hierarchies\['d'\].*got str"):
        parse_hierarchy("N1", "d", "Total")
    with pytest.raises(ParameterTypeError, match="must map to a list of its children"):
        parse_hierarchy({"N": {"a": "x"}, "S": ["b"]}, "d", "Total")
    with pytest.raises(ParameterTypeError, match="not hashable"):
        parse_hierarchy({"N": ["b", {1}]}, "d", "Total")


def test_errors_against_the_data():
    data = _micro(50)
    with pytest.raises(ParameterError, match=r"categories \['N3'\].*not leaves"):
        frequency_table(data, ["d", "s"], hierarchies={"d": {"N": ["N1", "N2"], "S": LEAVES[3:]}})
    coded = {"d": np.array(["N1", "North"])}
    with pytest.raises(ParameterError, match=r"subtotal\(s\) \['North'\]"):
        frequency_table(coded, "d", hierarchies={"d": TREE})
    with pytest.raises(ParameterError, match="not in by"):
        frequency_table(data, ["d"], hierarchies={"s": ["f", "m"]})
    with pytest.raises(ParameterError, match="margins=True"):
        frequency_table(data, ["d"], margins=False, hierarchies={"d": TREE})
    with pytest.raises(ParameterTypeError, match="mapping"):
        frequency_table(data, ["d"], hierarchies=[TREE])
    both = {"d": data["d"], "d_level": data["s"]}
    with pytest.raises(ParameterError, match="d_level"):
        frequency_table(both, ["d", "d_level"], hierarchies={"d": TREE})


def test_max_cells_applies(monkeypatch):
    monkeypatch.setattr(perturb_module, "MAX_CELLS", 32)  # 11 nodes x 3 = 33 rows
    with pytest.raises(ParameterError, match=r"33 cells.*hierarchies included"):
        frequency_table(_micro(20), ["d", "s"], hierarchies={"d": TREE})


# ------------------------------------------------------------------------------------ tables
def test_counts_levels_and_order():
    data = _micro()
    t = frequency_table(data, ["d", "s"], hierarchies={"d": TREE})
    assert len(t) == 11 * 3 and t.shape == (11, 3) and t.dims == (6, 2)
    assert list(t.columns) == ["d", "s", "d_level", "s_level", "count"]
    rows = _rows(t)
    for (node, sex), i in rows.items():
        mask = np.isin(data["d"], BELOW[node]) & (True if sex == "Total" else data["s"] == sex)
        assert t["count"][i] == mask.sum()
    assert t["count"][rows["S3", "f"]] == 0  # a leaf without records is listed
    assert t["d_level"][rows["NW", "m"]] == 3 and t["s_level"][rows["NW", "m"]] == 2
    assert t["d_level"][rows["Total", "Total"]] == 1 and t["s_level"][rows["N1", "Total"]] == 1
    assert t.is_margin.tolist() == [c < 0 or d < 0 for c, d in t.codes.tolist()]
    assert not t.is_margin[rows["N1", "f"]] and t.is_margin[rows["North", "f"]]
    # records -> rows: the leaf kept, or the total
    assert (
        t.record_rows(["d", "s"]) == [rows[a, b] for a, b in zip(data["d"], data["s"], strict=True)]
    ).all()
    assert (t.record_rows(["d"]) == [rows[a, "Total"] for a in data["d"]]).all()
    assert (t.record_rows([]) == rows["Total", "Total"]).all()


def test_flat_hierarchy_is_the_plain_table_with_margins():
    data = _micro()
    keys = record_keys(400, keysize=2**8, seed=3)
    plain = perturb({**data, "rkey": keys}, ["d", "s"], _ptable(), weights="w")
    flat = perturb(
        {**data, "rkey": keys}, ["d", "s"], _ptable(), weights="w",
        hierarchies={"d": sorted(set(data["d"].tolist())), "s": ["f", "m"]},
    )  # fmt: skip
    for name in plain.columns:
        if name in ("weighted", "perturbed_weighted"):  # float sums, in another order
            np.testing.assert_allclose(plain[name], flat[name], rtol=1e-12)
        else:
            assert plain[name].tolist() == flat[name].tolist(), name
    assert plain.hierarchies is None and flat.hierarchies is not None
    assert perturb({**data, "rkey": keys}, "d", _ptable(), hierarchies={}).hierarchies is None


def test_categories_coded_at_a_one_child_subtotal():
    # cellKey 1.0.2, ck_setup's example: data sex "male"/"female", leaves "m" below "male" and
    # "f" below "female" (bogus codes). The records are the leaf's; the bogus pair has the
    # same count, key and noise.
    rng = np.random.default_rng(5)
    sex = rng.choice(["male", "female"], 200)
    keys = record_keys(200, keysize=2**8, seed=6)
    h = {"sex": {"male": ["m"], "female": ["f"]}}
    t = perturb({"sex": sex, "rkey": keys}, "sex", _ptable(), hierarchies=h)
    assert t["sex"].tolist() == ["m", "male", "f", "female", "Total"]
    assert t["sex_level"].tolist() == [3, 2, 3, 2, 1]
    for col in ("count", "cell_key", "noise", "perturbed"):
        v = t[col].tolist()
        assert v[0] == v[1] and v[2] == v[3], col
    assert t["count"].tolist()[:4:2] == [(sex == "male").sum(), (sex == "female").sum()]


# ------------------------------------------------------------------------------------ keys
def _brute_force_integer(data, keys, K, method, t):
    for (node, sex), i in _rows(t).items():
        mask = np.isin(data["d"], BELOW[node]) & (True if sex == "Total" else data["s"] == sex)
        sub = keys[mask]
        want = cell_keys(sub, np.zeros(len(sub), dtype=np.intp), keysize=K, n_cells=1,
                         method=method)[0]  # fmt: skip
        assert t["cell_key"][i] == want, (node, sex)
        np.testing.assert_allclose(t["weighted"][i], data["w"][mask].sum(), rtol=1e-12)


@pytest.mark.parametrize(
    ("K", "method", "m"),
    [(2**8, "abs", 4), (2**16, "abs", 4), (2**40, "abs", 4), (2**32, "sum", 1)],
)
def test_every_node_key_is_its_records_key(K, method, m):
    data = _micro(300, seed=K % 97)
    keys = record_keys(300, keysize=K, components=m, seed=1)
    if method == "sum":
        keys = keys[:, 0]
    T = _ptable(K)
    t = perturb({**data, "rkey": keys}, ["d", "s"], T, hierarchies={"d": TREE}, method=method,
                weights="w")  # fmt: skip
    _brute_force_integer(data, keys, K, method, t)
    assert (t["noise"] == T.noise(t["count"], t["cell_key"], keysize=K)).all()


@pytest.mark.parametrize("digits", [5, 8, 13, 18, 20])
def test_every_node_decimal_key_is_its_records_key(digits):
    data = _micro(300, seed=digits)
    rng = np.random.default_rng(digits)
    ints = [int(x) for x in rng.integers(0, 10**9, 300)]
    raw = [f"0.{(x * 10 ** max(digits - 9, 0) + x) % 10**digits:0{digits}d}" for x in ints]
    keys = decimal_keys(np.array(raw, dtype=object))
    assert keys.digits == digits
    t = perturb({**data, "rkey": np.array(raw, dtype=object)}, ["d", "s"], _decimal_ptable(),
                method="cellkey", hierarchies={"d": TREE})  # fmt: skip
    rows = _rows(t)
    for (node, sex), i in rows.items():
        mask = np.isin(data["d"], BELOW[node]) & (True if sex == "Total" else data["s"] == sex)
        sub = decimal_keys(np.array(raw, dtype=object)[mask])
        want = decimal_cell_keys(sub, np.zeros(int(mask.sum()), dtype=np.intp), 1)[0]
        grid = np.array([want], dtype=object if digits > 18 else np.int64)
        want_float = DecimalKeys(grid, digits).as_float()[0]  # the float as perturb gives it
        assert t["cell_key"][i] == want_float, (node, sex)


@pytest.mark.parametrize("method", ["abs", "sum", "cellkey"])
def test_relabelled_subtotal_is_the_same_cell(method):
    """The records of a subtotal relabelled into one category: same count, key, noise, weights.

    The subtotal North of TREE (3 leaves, 2 levels down) and NW, in a table by [d, s], against
    the plain table of the same records with the leaves below the node recoded as the node.
    """
    data = _micro(500, seed=11)
    if method == "cellkey":
        rkey = np.random.default_rng(2).integers(0, 10**8, 500) / 10**8
        T, kw = _decimal_ptable(), {}
    elif method == "sum":
        rkey, T = record_keys(500, keysize=2**16, components=1, seed=4)[:, 0], _ptable(2**16)
        kw = {"keysize": 2**16}
    else:
        rkey, T, kw = record_keys(500, keysize=2**8, seed=4), _ptable(), {}
    full = {**data, "rkey": rkey}
    t = perturb(full, ["d", "s"], T, method=method, weights="w", hierarchies={"d": TREE}, **kw)
    rows = _rows(t)
    for node in ("North", "NW", "Total"):
        label = node if node != "Total" else "all"  # a category may not be called "Total"
        recoded = np.where(np.isin(data["d"], BELOW[node]), label, data["d"]).astype(object)
        flat = perturb({**full, "d": recoded}, ["d", "s"], T, method=method, weights="w", **kw)
        frows = _rows(flat)
        for sex in ("f", "m", "Total"):
            i, j = rows[node, sex], frows[label, sex]
            for col in ("count", "cell_key", "noise", "perturbed"):
                assert t[col][i] == flat[col][j], (node, sex, col)
            np.testing.assert_allclose(t["weighted"][i], flat["weighted"][j], rtol=1e-12)
            np.testing.assert_allclose(
                t["perturbed_weighted"][i], flat["perturbed_weighted"][j], rtol=1e-12
            )


def test_same_subtotal_same_noise_across_queries():
    data = _micro(300, seed=8)
    keys = record_keys(300, keysize=2**8, seed=9)
    by_d = perturb({**data, "rkey": keys}, "d", _ptable(), hierarchies={"d": TREE})
    by_ds = perturb({**data, "rkey": keys}, ["d", "s"], _ptable(), hierarchies={"d": PARENTS})
    by_sd = perturb({**data, "rkey": keys}, ["s", "d"], _ptable(), hierarchies={"d": TREE})
    rows = _rows(by_ds)
    for i, node in enumerate(by_d["d"].tolist()):
        j = rows[node, "Total"]
        k = by_sd["d"].tolist().index(node) + 2 * 11  # the block s = Total comes last
        assert by_sd["s"][k] == "Total"
        for col in ("count", "cell_key", "noise"):
            assert by_d[col][i] == by_ds[col][j] == by_sd[col][k], (node, col)


def test_pandas_in_and_out():
    pd = pytest.importorskip("pandas")
    data = _micro(100, seed=3)
    keys = record_keys(100, keysize=2**8, seed=3)
    frame = pd.DataFrame({"d": data["d"], "s": data["s"]})
    frame["rkey"] = list(keys)
    out = perturb(frame, ["d", "s"], _ptable(), record_keys=keys, hierarchies={"d": TREE})
    ref = perturb({**data, "rkey": keys}, ["d", "s"], _ptable(), hierarchies={"d": TREE})
    assert list(out.columns) == list(ref.columns)
    assert out["d_level"].tolist() == ref["d_level"].tolist()
    assert out["perturbed"].tolist() == ref["perturbed"].tolist()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_trees_on_both_variables(seed):
    """Random child -> parent maps (depths up to ~5, one-child and record-less nodes) on two
    variables: every cell's count and key equal those of its records, found by brute force."""
    rng = np.random.default_rng(seed)

    def tree(prefix: str) -> tuple[dict[str, str | None], list[str]]:
        inner = [f"{prefix}I{i}" for i in range(int(rng.integers(1, 6)))]
        parents: dict[str, str | None] = {}
        for i, x in enumerate(inner):
            parents[x] = None if i == 0 or rng.random() < 0.2 else inner[rng.integers(0, i)]
        leaves = [f"{prefix}L{i}" for i in range(int(rng.integers(1, 8)))]
        for x in leaves:
            parents[x] = inner[rng.integers(0, len(inner))]
        return parents, leaves

    def below(parents: dict[str, str | None], node: str, leaf: str) -> bool:
        x: str | None = leaf
        while x is not None:
            if x == node:
                return True
            x = parents[x]
        return node == "Total"

    (pa, la), (pb, lb) = tree("a"), tree("b")
    n = 250
    data = {"a": rng.choice(la, n), "b": rng.choice(lb, n)}
    keys = record_keys(n, keysize=2**16, seed=seed)
    t = perturb({**data, "rkey": keys}, ["a", "b"], _ptable(2**16), hierarchies={"a": pa, "b": pb})
    assert len(t) == (len(pa) + 1) * (len(pb) + 1)
    for i, (x, y) in enumerate(zip(t["a"].tolist(), t["b"].tolist(), strict=True)):
        mask = np.array(
            [below(pa, x, u) and below(pb, y, v) for u, v in zip(data["a"], data["b"], strict=True)]
        )
        assert t["count"][i] == mask.sum(), (x, y)
        want = cell_keys(keys[mask], np.zeros(int(mask.sum()), dtype=np.intp), keysize=2**16,
                         n_cells=1)[0]  # fmt: skip
        assert t["cell_key"][i] == want, (x, y)


@pytest.mark.parametrize("digits", [9, 12, 18, 19])
def test_decimal_subtotals_of_many_large_keys_are_exact(digits):
    """Keys near 1 in 60 leaves under one subtotal: the sums of the leaves' keys exceed 2^64
    (at 18 digits), and the subtotal's key is still its records' sum mod 1, exactly."""
    rng = np.random.default_rng(digits)
    n = 240
    ints = [10**digits - 1 - int(x) for x in rng.integers(0, 10**6, n)]
    raw = np.array([f"0.{x:0{digits}d}" for x in ints], dtype=object)
    cats = np.array([f"c{i:02d}" for i in range(60)])[np.arange(n) % 60]
    h = {"c": {"A": [f"c{i:02d}" for i in range(50)], "B": [f"c{i:02d}" for i in range(50, 60)]}}
    t = perturb({"c": cats, "rkey": raw}, "c", _decimal_ptable(), method="cellkey", hierarchies=h)
    labels = t["c"].tolist()
    for node, mask in (("A", np.arange(n) % 60 < 50), ("Total", np.ones(n, dtype=bool))):
        want = sum(x for x, m in zip(ints, mask.tolist(), strict=True) if m) % 10**digits
        grid = np.array([want], dtype=object if digits > 18 else np.int64)
        assert t["cell_key"][labels.index(node)] == DecimalKeys(grid, digits).as_float()[0]


def test_integer_codes_and_pandas_categoricals():
    data = {"d": np.array([101, 102, 201, 101])}
    t = frequency_table(data, "d", hierarchies={"d": {1: [101, 102, 103], 2: [201]}})
    assert t["d"].tolist() == [101, 102, 103, 1, 201, 2, "Total"]
    assert t["count"].tolist() == [2, 1, 0, 3, 1, 1, 4]
    assert t.levels[0].tolist() == [101, 102, 103, 201]
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"d": pd.Categorical(["N1", "S1"], categories=["S1", "N1", "S2"])})
    t = frequency_table(frame, "d", hierarchies={"d": TREE})
    assert t["count"].tolist() == [1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 2]
