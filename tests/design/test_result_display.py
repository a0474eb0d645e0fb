"""How a DesignResult reads: a one-line repr, a few lines of str, a small HTML table; the key
numbers in each and never the mechanism's array."""

from __future__ import annotations

import math
from dataclasses import replace
from html.parser import HTMLParser

import numpy as np
import pytest

from rainbowdp import format_down, format_up
from rainbowdp.builders import count_path
from rainbowdp.design import lp, milp, min_delta


@pytest.fixture(scope="module")
def results():
    # 41 nodes and 41 outputs: the mechanism has 1681 probabilities, none of which may show
    G = count_path(40)
    return {
        "lp": lp(G, epsilon=1.0, delta=0.01, utility="absolute"),
        "milp": milp(count_path(4), epsilon=1.0, delta=0.05),
        "min_delta": min_delta(count_path(4), epsilon=1.0, events="singleton"),
    }


def _no_array(text: str, res) -> None:
    P = res.mechanism.probabilities
    assert "[" not in text and "array" not in text
    # no probability of the mechanism spelled out (a row's values at the precision numpy and
    # Python print them)
    for p in np.unique(P)[-5:]:
        if 0 < p < 1:
            assert repr(float(p)) not in text and f"{p:.8f}" not in text


def _shown(res, digits: int) -> str:
    """The objective as a display must show it: a delta (min_delta) rounded up, a utility
    rounded down, so the shown number never flatters the design."""
    text = (format_up if res.method == "min_delta" else format_down)(res.objective, digits)
    value = float(text)
    assert value >= res.objective if res.method == "min_delta" else value <= res.objective
    return text


@pytest.mark.parametrize("name", ["lp", "milp", "min_delta"])
def test_repr_is_one_short_line(results, name):
    res = results[name]
    r = repr(res)
    assert "\n" not in r and len(r) <= 160
    assert r.startswith("<DesignResult ") and r.endswith(">")
    g = res.mechanism.graph
    for key in (res.method, res.status, f"epsilon={res.epsilon:g}", f"delta={res.delta:g}"):
        assert key in r
    assert f"{g.n_nodes} nodes" in r and f"{g.n_outputs} outputs" in r
    assert _shown(res, 6) in r
    assert ("delta " if name == "min_delta" else "utility ") in r
    assert "gap" not in r  # optimal: no gap to show
    _no_array(r, res)


@pytest.mark.parametrize("name", ["lp", "milp", "min_delta"])
def test_str_is_a_few_lines(results, name):
    res = results[name]
    s = str(res)
    lines = s.splitlines()
    assert 3 <= len(lines) <= 8 and all(len(x) <= 100 for x in lines)
    for key in (res.method.upper(), res.status, res.solver, _shown(res, 10)):
        assert key in s
    assert f"{res.n_variables} variables" in s and f"{res.n_constraints} constraints" in s
    _no_array(s, res)


class _Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


@pytest.mark.parametrize("name", ["lp", "milp", "min_delta"])
def test_html_is_a_small_table(results, name):
    res = results[name]
    h = res._repr_html_()
    assert h.startswith("<table") and h.endswith("</table>") and len(h) <= 2000
    p = _Cells()
    p.feed(h)
    assert p.tags.count("table") == 1 and 6 <= p.tags.count("tr") <= 12
    text = " ".join(p.text)
    for key in ("status", res.status, "epsilon", _shown(res, 10), res.solver):
        assert key in text
    _no_array(h, res)


def test_time_limit_fields_are_shown(results):
    # an incumbent (as a MILP stopped by its time limit returns it): the gap and the bound show
    res = replace(results["milp"], status="time_limit", best_bound=2.5, gap=0.0123)
    r, s, h = repr(res), str(res), res._repr_html_()
    assert "time_limit" in r and "gap 1.23 %" in r and "\n" not in r  # 1.23 %, rounded up
    assert "bound 2.5" in s and "gap 1.23 %" in s
    assert "best bound" in h and "1.23 %" in h
    # no bound reported (CBC): said so, never a made-up number
    res = replace(res, best_bound=None, gap=None)
    assert "gap unknown" in repr(res) and "bound unknown" in str(res)
    # an infinite gap (objective 0 below a positive bound) prints as such
    res = replace(res, best_bound=1.0, gap=math.inf)
    assert "gap inf" in repr(res)


def test_html_escapes_text(results):
    res = replace(results["lp"], solver="<script>")
    assert "<script>" not in res._repr_html_()
