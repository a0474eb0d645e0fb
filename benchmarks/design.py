"""Benchmark of rainbowdp.design: the LP at scale, model building, and the MILP's speed-ups.

Run ``python benchmarks/design.py`` (``--quick`` for smaller instances, ``--parts`` to pick
sections). Every figure is measured in this run:

``lp``
    the LP at 1,000 nodes / 5,000 edges, q = 5, ε = 1, δ = 0.01 with HiGHS (arrays) and CBC,
    against the same LP built the textbook PuLP way (operator overloading);
``scaling``
    the same LP at 10², 10³, 10⁴ nodes (5 edges per node, q = 5) through both paths to HiGHS:
    the arrays straight into highspy (``solver="highs"``) and a PuLP problem handed to
    ``pulp.HiGHS`` with the same options. Per path: build time (``build_seconds``), solver
    time (HiGHS's ``run``, timed by wrapping ``highspy.Highs.run``), total (the ``lp`` call,
    certification included) and the share of the total spent outside the solver; min and
    median of ``--repeats`` runs (one run where a run exceeds ``--long`` seconds; printed);
``linprog``
    ``design.lp`` against a direct user of HiGHS: ``scipy.optimize.linprog`` with
    ``method="highs"`` and ``method="highs-ipm"`` on the SAME LP -- the matrix, right-hand
    sides, bounds and objective of the model ``design.lp`` builds (A_ub / A_eq as
    ``scipy.sparse`` arrays, as a numpy user would pass them) -- at 10², 10³, 10⁴ nodes (5 edges
    per node, q = 5, ε = 1; ``--quick``: 10² and 3·10²) for δ = 0.01 and δ = 0. The three are
    run in turn, ``--repeats`` times (one run each where a run exceeds ``--long`` seconds);
    every run has the time cap
    ``--cap`` (HiGHS's ``time_limit``) and a run stopped by it is printed as "> cap". The time
    of ``design.lp`` is everything its caller waits for (build, solve, repair, certification),
    split into build / solver / post-solve; min and median, and the ratio of the minima and of
    the medians to each linprog method (< 1: ``design.lp`` is faster);
``milp``
    the MILP (definition, q = 3, ε = 0.5, δ = 0.1, utility "rank") on 10-50 nodes with the
    old settings (unit big-M, no warm start, the previous HiGHS options) and the new ones,
    in the same run: time, status and, when the time limit stops it, the gap. With
    ``--milp-solvers ... gurobi`` the same models also go to Gurobi through PuLP
    (``pulp.GUROBI``, one thread like HiGHS, the new settings only: the warm start is passed to
    HiGHS alone). gurobipy is not a dependency; its pip package carries a size-limited
    license, which these models fit.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pulp

from rainbowdp import certify
from rainbowdp.design import lp, milp, solvers
from rainbowdp.exceptions import SolverTimeLimitError
from rainbowdp.graph import RainbowGraph
from rainbowdp.privacy import pdp_delta, verify

_milp = importlib.import_module("rainbowdp.design._milp")


def random_graph(n: int, m: int, q: int, seed: int) -> RainbowGraph:
    rng = np.random.default_rng(seed)
    keys: set[tuple[int, int]] = set()
    while len(keys) < m:
        u, v = (int(x) for x in rng.integers(0, n, 2))
        if u != v:
            keys.add((min(u, v), max(u, v)))
    perms = np.array(list(itertools.permutations(range(q))))
    ids = rng.integers(0, len(perms), n)
    return RainbowGraph.from_edges(
        np.array(sorted(keys)), outputs=list(range(q)), rainbow_table=perms, rainbow_ids=ids
    )


def naive_build(G: RainbowGraph, epsilon: float, delta: float) -> float:
    """Seconds to build the same LP with PuLP operator overloading (the baseline)."""
    t0 = time.perf_counter()
    x = math.exp(epsilon)
    n, q = G.n_nodes, G.n_outputs
    prob = pulp.LpProblem("naive", pulp.LpMaximize)
    P = [[prob.add_variable(f"p_{i}_{v}", 0, 1) for v in range(q)] for i in range(n)]
    U = (G.ranks == 0).astype(float)
    prob += pulp.lpSum(U[i, v] * P[i][v] for i in range(n) for v in range(q))
    for i in range(n):
        prob += pulp.lpSum(P[i]) == 1
    for a, b in G.edges.tolist():
        for u, w in ((a, b), (b, a)):
            ts = [prob.add_variable(f"t_{u}_{w}_{v}", 0) for v in range(q)]
            for v in range(q):
                prob += P[u][v] - x * P[w][v] - ts[v] <= 0
            prob += pulp.lpSum(ts) <= delta
    return time.perf_counter() - t0


def lp_table(args: argparse.Namespace) -> None:
    n, m, q = (100, 500, 5) if args.quick else (1000, 5000, 5)
    eps, dlt = 1.0, 0.01
    G = random_graph(n, m, q, seed=0)
    print(f"LP: {n} nodes, {m} edges, |V| = {q}, epsilon = {eps}, delta = {dlt}")
    print(f"{'run':<34}{'build s':>9}{'solve s':>10}{'total s':>10}  notes")
    base = naive_build(G, eps, dlt)
    print(f"{'baseline: PuLP operator build':<34}{base:>9.2f}{'':>10}{'':>10}")
    ref = None
    sizes: list[str] = []
    for solver in ("highs", "cbc"):
        t0 = time.perf_counter()
        try:
            r = lp(
                G,
                epsilon=eps,
                delta=dlt,
                solver=solver,
                time_limit=args.cbc_time_limit if solver == "cbc" else None,
            )
        except SolverTimeLimitError:
            total = time.perf_counter() - t0
            print(
                f"{'lp ' + solver:<34}{'':>9}{'':>10}{total:>10.2f}  time limit "
                f"{args.cbc_time_limit:g} s hit"
            )
            continue
        total = time.perf_counter() - t0
        ok = verify(r.mechanism, epsilon=eps, delta=dlt).is_private
        agree = "" if ref is None else f", |diff| vs highs {abs(r.objective - ref):.1e}"
        ref = r.objective if ref is None else ref
        print(
            f"{'lp ' + solver:<34}{r.build_seconds:>9.2f}{r.solve_seconds:>10.2f}"
            f"{total:>10.2f}  utility {r.objective:.6f}, verified {ok}, repair "
            f"{r.repair:.1e}, build/baseline {r.build_seconds / base:.2f}{agree}"
        )
        sizes.append(f"{solver} {r.n_variables:,} variables, {r.n_constraints:,} constraints")
    print(f"  model size (as built in this run): {'; '.join(sizes) or 'no model solved'}")


# ---------------------------------------------------------------------------------- scaling
RUN_SECONDS: list[float] = []


@contextmanager
def timing_highs_run() -> Iterator[None]:
    """Time every ``highspy.Highs.run`` (both paths call it once per solve)."""
    import highspy

    real = highspy.Highs.run

    def run(self: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return real(self)
        finally:
            RUN_SECONDS.append(time.perf_counter() - t0)
            if RUN_SECONDS[-1] > 60:  # a long solve: say so at once (the row comes at the end)
                print(f"  (a HiGHS run took {RUN_SECONDS[-1]:.0f} s)", file=sys.stderr, flush=True)

    highspy.Highs.run = run
    try:
        yield
    finally:
        highspy.Highs.run = real


def pulp_highs() -> pulp.HiGHS:
    """HiGHS through PuLP with exactly the options ``solver="highs"`` uses for an LP."""
    return pulp.HiGHS(msg=False, **solvers.HIGHS_OPTIONS, **solvers.HIGHS_LP_OPTIONS)


def one_lp(G: RainbowGraph, solver: Any) -> dict[str, float]:
    RUN_SECONDS.clear()
    t0 = time.perf_counter()
    r = lp(G, epsilon=1.0, delta=0.01, solver=solver)
    total = time.perf_counter() - t0
    run = sum(RUN_SECONDS)
    return {
        "build": r.build_seconds,
        "solver": run,
        "total": total,
        "outside": total - run,
        "share": (total - run) / total,
        "objective": r.objective,
        "private": float(certify(r.mechanism, epsilon=1.0, delta=0.01).verdict == "private"),
    }


def scaling(args: argparse.Namespace) -> None:
    sizes = [100, 1000] if args.quick else args.sizes
    q = 5
    print(
        f"\nScaling of the LP (q = {q}, 5 edges per node, epsilon = 1, delta = 0.01): the "
        "arrays into highspy vs a PuLP problem into HiGHS (same options); seconds, min / "
        f"median of {args.repeats} runs; 'outside' = total - HiGHS run"
    )
    head = f"{'nodes':>7} {'path':<8}{'runs':>5}"
    for c in ("build s", "solver s", "total s", "outside s", "outside %"):
        head += f"{c:>17}"
    print(head + "  notes")
    paths: dict[str, Callable[[], Any]] = {"arrays": lambda: "highs", "PuLP": pulp_highs}
    paths = {k: v for k, v in paths.items() if k in args.paths}
    with timing_highs_run():
        for n in sizes:
            G = random_graph(n, 5 * n, q, seed=0)
            objs = {}
            for name, make in paths.items():
                runs = [one_lp(G, make())]
                long = runs[0]["total"] > args.long
                while not long and len(runs) < args.repeats:
                    runs.append(one_lp(G, make()))
                line = f"{n:>7} {name:<8}{len(runs):>5}"
                for key in ("build", "solver", "total", "outside", "share"):
                    vals = [r[key] for r in runs]
                    lo, med = min(vals), statistics.median(vals)
                    if key == "share":
                        line += f"{100 * lo:>8.1f} /{100 * med:>6.1f}"
                    else:
                        line += f"{lo:>8.2f} /{med:>6.2f}"
                objs[name] = runs[0]["objective"]
                ok = all(r["private"] for r in runs)
                note = f"  certified {ok}"
                if long:
                    note += f"; one run (it took {runs[0]['total']:.0f} s > --long {args.long:g} s)"
                print(line + note, flush=True)
            if len(objs) == 2:
                diff = abs(objs["arrays"] - objs["PuLP"])
                print(f"{'':>7} |objective arrays - PuLP| = {diff:.1e}")


# ---------------------------------------------------------------------------------- linprog
class _Captured(Exception):
    """Raised by :func:`lp_model` once the model is built (nothing is solved)."""


def lp_model(G: RainbowGraph, delta: float) -> Any:
    """The model ``design.lp`` builds for ``G`` (ε = 1, ``delta``), as built, not solved."""
    highs = importlib.import_module("rainbowdp.design._highs")
    real = highs.HighsModel.solve
    box: list[Any] = []

    def capture(self: Any, solver: Any, time_limit: Any) -> Any:
        box.append(self)
        raise _Captured

    highs.HighsModel.solve = capture
    try:
        lp(G, epsilon=1.0, delta=delta, solver="highs")
    except _Captured:
        pass
    finally:
        highs.HighsModel.solve = real
    return box[0]


def linprog_args(model: Any) -> dict[str, Any]:
    """``scipy.optimize.linprog`` arguments of the same LP: minimise -cost, A_ub / A_eq (CSR),
    bounds as an (n, 2) array."""
    model_mod = importlib.import_module("rainbowdp.design._model")
    A = model.matrix().tocsr()
    _, _, _, rs = model.rows()
    rhs, sense = rs[0], rs[1]
    lb, ub, _ = model.columns()
    le, ge, eq = sense == model_mod.LE, sense == model_mod.GE, sense == model_mod.EQ
    A_ub = A[np.flatnonzero(le | ge)]
    sign = np.where(ge[le | ge], -1.0, 1.0)
    from scipy.sparse import diags_array

    return {
        "c": -model.cost,
        "A_ub": diags_array(sign) @ A_ub,
        "b_ub": sign * rhs[le | ge],
        "A_eq": A[np.flatnonzero(eq)] if eq.any() else None,
        "b_eq": rhs[eq] if eq.any() else None,
        "bounds": np.column_stack([lb, ub]),
    }


def run_linprog(args: dict[str, Any], method: str, cap: float) -> dict[str, Any]:
    from scipy.optimize import linprog

    t0 = time.perf_counter()
    res = linprog(**args, method=method, options={"time_limit": cap})
    total = time.perf_counter() - t0
    if res.status != 0:
        return {"total": math.inf, "objective": math.nan, "note": res.message}
    return {"total": total, "objective": -res.fun}


def run_design_lp(G: RainbowGraph, delta: float, cap: float) -> dict[str, Any]:
    t0 = time.perf_counter()
    try:
        r = lp(G, epsilon=1.0, delta=delta, solver="highs", time_limit=cap)
    except SolverTimeLimitError:
        return {"total": math.inf, "objective": math.nan}
    total = time.perf_counter() - t0
    ok = certify(r.mechanism, epsilon=1.0, delta=delta).verdict == "private"
    return {
        "total": total,
        "build": r.build_seconds,
        "solver": r.solve_seconds,
        "post": total - r.build_seconds - r.solve_seconds,
        "objective": r.objective,
        "private": ok,
        "repair": r.repair,
    }


def _one(v: float, cap: float, digits: int) -> str:
    return f"> {cap:g}" if math.isinf(v) else f"{v:.{digits}f}"


def _fmt(vals: list[float], cap: float, digits: int = 2) -> str:
    lo, med = min(vals), statistics.median(vals)
    return f"{_one(lo, cap, digits):>8} /{_one(med, cap, digits):>8}"


def _ratio(a: list[float], b: list[float]) -> str:
    def one(v: float) -> str:
        return "-" if not math.isfinite(v) or v == 0 else f"{v:.2f}"

    lo = min(a) / min(b) if math.isfinite(min(a)) else math.inf
    return f"{one(lo):>6} /{one(statistics.median(a) / statistics.median(b)):>5}"


def linprog_table(args: argparse.Namespace) -> None:
    sizes = [100, 300] if args.quick else args.sizes
    print(
        f"\ndesign.lp vs scipy.optimize.linprog on the same LP (q = 5, 5 edges per node, "
        f"epsilon = 1); seconds, min / median of {args.repeats} runs in turn (one where a run "
        f"exceeds --long {args.long:g} s), time cap {args.cap:g} s per run; ratio = design.lp / "
        "linprog (min / median)"
    )
    head = f"{'nodes':>6} {'delta':>5} {'runs':>4} {'design.lp':>18} {'build':>18}"
    head += f" {'solver':>18} {'post-solve':>18} {'linprog highs':>18} {'ratio':>13}"
    head += f" {'linprog ipm':>18} {'ratio':>13}  notes"
    print(head)
    warm = random_graph(20, 60, 5, seed=1)  # imports and first calls, outside the timings
    lp(warm, epsilon=1.0, delta=0.01)
    run_linprog(linprog_args(lp_model(warm, 0.01)), "highs-ipm", args.cap)
    for n in sizes:
        G = random_graph(n, 5 * n, 5, seed=0)
        for dlt in (0.01, 0.0):
            lpa = linprog_args(lp_model(G, dlt))
            runs: dict[str, list[dict[str, Any]]] = {"lp": [], "highs": [], "highs-ipm": []}
            while len(runs["lp"]) < args.repeats:
                runs["lp"].append(run_design_lp(G, dlt, args.cap))
                for meth in ("highs", "highs-ipm"):
                    if len(runs[meth]) and runs[meth][0]["total"] > args.long:
                        continue  # one run of a long method
                    runs[meth].append(run_linprog(lpa, meth, args.cap))
                if runs["lp"][0]["total"] > args.long:
                    break
            t = {k: [r["total"] for r in v] for k, v in runs.items()}
            line = f"{n:>6} {dlt:>5g} {len(t['lp']):>4} {_fmt(t['lp'], args.cap)}"
            done = [r for r in runs["lp"] if math.isfinite(r["total"])]
            for key in ("build", "solver", "post"):
                line += f" {_fmt([r[key] for r in done], args.cap, 3) if done else '-':>18}"
            for meth in ("highs", "highs-ipm"):
                line += f" {_fmt(t[meth], args.cap)} {_ratio(t['lp'], t[meth])}"
            objs = [r["objective"] for rs in runs.values() for r in rs]
            objs = [o for o in objs if math.isfinite(o)]
            note = ""
            if done:
                note = f"  certified {all(r['private'] for r in done)}"
                note += f", repair {max(r['repair'] for r in done):.1e}"
            if len(objs) > 1:
                note += f", objectives agree within {max(objs) - min(objs):.1e}"
            print(line + note, flush=True)


# ---------------------------------------------------------------------------------- MILP
@contextmanager
def milp_settings(new: bool) -> Iterator[None]:
    """The new settings (as shipped) or the old ones: unit big-M, no warm start, and the HiGHS
    MIP options before ``solvers.HIGHS_MIP_OPTIONS``."""
    saved = (_milp.TIGHT_BIG_M, _milp.WARM_START, dict(solvers.HIGHS_MIP_OPTIONS))
    if not new:
        _milp.TIGHT_BIG_M = _milp.WARM_START = False
        solvers.HIGHS_MIP_OPTIONS.clear()
    try:
        yield
    finally:
        _milp.TIGHT_BIG_M, _milp.WARM_START = saved[0], saved[1]
        solvers.HIGHS_MIP_OPTIONS.clear()
        solvers.HIGHS_MIP_OPTIONS.update(saved[2])


class _Gurobi(pulp.GUROBI):
    """``pulp.GUROBI`` that records the incumbent, bound and gap of each solve in ``found`` (PuLP
    reports only a status when the time limit stops it; ``milp`` may solve a shallow copy,
    which shares the list)."""

    found: list[tuple[float, float, float]]

    def actualSolve(self, lp: Any, callback: Any = None) -> Any:  # (PuLP's name)
        status = super().actualSolve(lp, callback)
        m = lp.solverModel
        self.found.append((m.ObjVal if m.SolCount else math.nan, m.ObjBound, m.MIPGap))
        return status


def milp_solver(name: str, time_limit: float) -> Any:
    """The solver argument of ``milp`` for ``--milp-solvers`` name ``name``."""
    if name == "gurobi":
        slv = _Gurobi(msg=False, timeLimit=time_limit, Threads=1)
        slv.found = []
        return slv
    return name


def milp_table(args: argparse.Namespace) -> None:
    print(
        f"\nMILP (definition), q = 3, epsilon = 0.5, delta = 0.1, utility 'rank', time limit "
        f"{args.milp_time_limit:g} s; LP(eps, 0) <= MILP <= LP(eps, delta); old = unit big-M, "
        "no warm start, previous HiGHS options; new = as shipped"
    )
    print(f"{'run':<40}{'total s':>9}  status")
    sizes = [10, 20] if args.quick else args.milp_sizes
    for nm in sizes:
        H = random_graph(nm, 3 * nm // 2, 3, seed=1)
        lo = lp(H, epsilon=0.5, utility="rank").objective
        hi = lp(H, epsilon=0.5, delta=0.1, utility="rank").objective
        for solver in args.milp_solvers:
            for new in (False, True) if solver != "gurobi" else (True,):
                label = f"milp {solver} {nm} nodes {3 * nm // 2} edges {'new' if new else 'old'}"
                t0 = time.perf_counter()
                slv = milp_solver(solver, args.milp_time_limit)
                with milp_settings(new):
                    try:
                        r = milp(
                            H,
                            epsilon=0.5,
                            delta=0.1,
                            utility="rank",
                            solver=slv,
                            time_limit=args.milp_time_limit,
                        )
                    except SolverTimeLimitError as exc:
                        detail = str(exc).split("(", 2)[-1].rsplit(";", 1)[0].rstrip(")")
                        if isinstance(slv, _Gurobi) and slv.found:
                            inc, bound, gap = slv.found[-1]
                            detail = (
                                f"incumbent {inc:.8f}, bound {bound:.8f}, relative gap {gap:.4f}"
                            )
                        print(
                            f"{label:<40}{time.perf_counter() - t0:>9.2f}  NOT optimal: "
                            f"{detail} (LPs {lo:.4f}, {hi:.4f})",
                            flush=True,
                        )
                        continue
                if r.status == "time_limit":
                    bound = "unknown" if r.best_bound is None else f"{r.best_bound:.8f}"
                    gap = "unknown" if r.gap is None else f"{r.gap:.4f}"
                    print(
                        f"{label:<40}{time.perf_counter() - t0:>9.2f}  NOT optimal: incumbent "
                        f"{r.objective:.8f}, bound {bound}, relative gap {gap} "
                        f"(LPs {lo:.4f}, {hi:.4f})",
                        flush=True,
                    )
                    continue
                print(
                    f"{label:<40}{time.perf_counter() - t0:>9.2f}  optimal {r.objective:.6f} in "
                    f"[{lo:.4f}, {hi:.4f}], pdp_delta {pdp_delta(r.mechanism, 0.5):.4f}, "
                    f"{r.n_integer_variables} binaries",
                    flush=True,
                )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--quick", action="store_true", help="smaller instances throughout")
    ap.add_argument(
        "--parts",
        nargs="+",
        choices=("lp", "scaling", "linprog", "milp"),
        default=["lp", "scaling", "linprog", "milp"],
    )
    ap.add_argument(
        "--cap", type=float, default=150.0, help="time cap of each linprog-part run (seconds)"
    )
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    ap.add_argument("--long", type=float, default=120.0, help="one run above this (seconds)")
    ap.add_argument(
        "--paths",
        nargs="+",
        choices=("arrays", "PuLP"),
        default=["arrays", "PuLP"],
        help="the scaling rows' paths (e.g. only 'arrays' at 10^4 nodes)",
    )
    ap.add_argument("--cbc-time-limit", type=float, default=300.0)
    ap.add_argument("--milp-time-limit", type=float, default=60.0)
    ap.add_argument("--milp-sizes", type=int, nargs="+", default=[10, 20, 30, 50])
    ap.add_argument(
        "--milp-solvers", nargs="+", default=["highs"], choices=("highs", "cbc", "gurobi")
    )
    args = ap.parse_args()
    if "lp" in args.parts:
        lp_table(args)
    if "scaling" in args.parts:
        scaling(args)
    if "linprog" in args.parts:
        linprog_table(args)
    if "milp" in args.parts:
        milp_table(args)


if __name__ == "__main__":
    main()
