r"""Perturbation of a numeric variable (magnitude table) by the rule of the R package ``cellKey``
(:func:`perturb_numeric`, :class:`NumericParams`, :func:`flex_params`, :func:`simple_params`).

Facts taken from ``cellKey`` 1.0.2 (sdcTools; ``R/ck_params_nums.R``, ``R/utils_numtabs.R``,
``R/cellkey_pkg.R``, ``.ck_perturb_nums`` and ``ck_setup``). For every cell of the table
(margins included) with weighted value :math:`c = \sum_r w_r x_r` (``ws``):

1. **Magnifier values** :math:`x_1, \dots` (``type``): ``"top_contr"`` the ``top_k`` largest
   weighted contributions :math:`w_r x_r` (records ordered by :math:`|x_r|` decreasing, then
   weight decreasing, then record order); ``"mean"`` the weighted mean
   :math:`c / \sum_r w_r`; ``"range"`` :math:`\max_r x_r - \min_r x_r` (unweighted);
   ``"sum"`` c.
2. **Cell key**: the sum of the record keys mod 1 -- of every record of the cell
   (``use_zero_rkeys = TRUE``) or of those with :math:`x_r \ne 0` (default). ``cellKey`` adds
   doubles (R's ``sum``: a long-double accumulator, rounded once) and then works on that
   double, so the keys here are the double :math:`\mathrm{fl}(\sum_r k_r) \bmod 1` (the exact
   sum of the double keys, rounded once: ``math.fsum``). The key of the j-th contribution is
   the cell key itself (``same_key = TRUE``, j = 1) or the previous key with its first decimal
   digit moved to the end of its text (R's ``as.character``: 15 significant digits;
   ``.scramble_ckeys``; ``same_key = FALSE`` scrambles the first key too).
3. **Perturbation magnitude** (``.perturb_cell_flex``): with the flex function
   :math:`m(x) = p_L\big(1 + \frac{p_S x - p_L f}{p_L f}\big(\frac{2f}{f + x}\big)^q\big)`
   (``.para_m``; :math:`f` = ``fp``), :math:`\Delta_j = x_j p_S` if :math:`|x_j| < f`, else
   :math:`x_j\, m(|x_j|)\, \epsilon_j`; :math:`\Delta_j = 1` and the table ``"small_cells"`` if
   :math:`|x_j|` is below the separation point :math:`z_s = \sqrt{m_1^2} / (\sqrt{E} p_S)`
   (:math:`m_1^2 = \sum v^2 p` of the small-cells table's last row, :math:`E = \sum
   \epsilon_j^2`; :math:`z_s = 0` without that table). If :math:`|c_{j-1}| < |\Delta_j|`
   (:math:`c_0 = c`, :math:`c_j` the value after j steps) then :math:`\Delta_j = c_{j-1}`
   (and small cells again if :math:`|c_{j-1}| / (p_S \epsilon_j) < z_s`; for j > 1 that step
   adds 0). The simple multiplier (``ck_simpleparams``) uses :math:`\Delta_j = x_j p
   \epsilon_j`.
4. **Lookup** (``.lookup_v_flex``): :math:`a = |c_{j-1} / \Delta_j|`, cut at the table's largest
   row D; the table is ``"all"``, or ``"even"``/``"odd"`` by the parity of the cell's number of
   records; if a is a row, v is the first line of that row with ``key < p_int_ub``, else the
   linear interpolation :math:`(1 - \lambda) v(a_0) + \lambda v(a_1)` between the rows around a
   with the same key. A cell key of 0 gives v = 0.
5. **Perturbation**: :math:`\hat x_j = \mathrm{sgn}(c_{j-1})\, |\Delta_j|\, \mathrm{sgn}(v)
   (\mu + |v|)`, with :math:`\mu = \mu_c` for a sensitive cell and 0 otherwise; a negative
   :math:`\hat x_j` is capped so as not to change the sign of :math:`c_{j-1}` (``max(x_hat,
   -xo)``); :math:`c_j = c_{j-1} + \hat x_j`. The published value is :math:`c + \sum_j \hat
   x_j` (``pws``); a cell with no records, key 0 or value 0 is published as it is.

**Privacy.** The ptable's rows are finite-output mechanisms and their exact (ε, δ) between two
rows is well posed (:func:`~._magnitude.row_privacy`). The published magnitude is not covered
by any (ε, δ) statement: it is :math:`c + \Delta v` where c moves by a record's weighted value
:math:`w_r x_r` between neighbouring datasets and :math:`\Delta` (the noise scale) is itself a
record's contribution. Without a bound on :math:`|w_r x_r|` the change of c is unbounded while
the noise is at most :math:`D(\mu + |\Delta|)`: two neighbouring datasets whose values differ
by more than twice the largest noise have disjoint outputs, so no finite ε holds at any δ < 1.
Even with a bound B, :math:`\Delta` depends on the data (the top contribution is the record
that changes), so the table's row privacy is not the privacy of the release.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from types import MappingProxyType
from typing import Any

import numpy as np

from ..exceptions import ParameterError, ParameterTypeError
from ._magnitude import MagnitudePtable
from ._perturb import TOTAL, FrequencyTable, frequency_table
from ._weights import record_numbers, resolve_weights

__all__ = [
    "FlexParams",
    "NumericParams",
    "SimpleParams",
    "flex_params",
    "perturb_numeric",
    "simple_params",
]

#: ``ck_params_nums``: ``top_k`` must be in 1..6.
MAX_TOP_K = 6
_TYPES = ("top_contr", "mean", "range", "sum")


def _number(x: Any, name: str) -> float:
    if isinstance(x, bool) or not isinstance(x, int | float | np.integer | np.floating):
        raise ParameterTypeError(f"`{name}` must be a number, got {name}={x!r}.")
    if not math.isfinite(float(x)):
        raise ParameterError(f"`{name}` must be finite, got {name}={x!r}.")
    return float(x)


def _epsilon(epsilon: Any) -> tuple[float, ...]:
    """``ck_flexparams``' checks: numbers in [0, 1], the first 1, non-increasing."""
    seq = (epsilon,) if isinstance(epsilon, int | float) else epsilon
    try:
        eps = tuple(_number(e, "epsilon") for e in seq)
    except TypeError:
        raise ParameterTypeError(f"`epsilon` must be numbers, got epsilon={epsilon!r}.") from None
    if not eps or eps[0] != 1.0 or any(not 0 <= e <= 1 for e in eps):
        raise ParameterError(
            f"`epsilon` must be numbers in [0, 1] with the first equal to 1 (cellKey's "
            f"ck_flexparams), got epsilon={epsilon!r}."
        )
    if any(b > a for a, b in pairwise(eps)):
        raise ParameterError(f"`epsilon` must be non-increasing, got epsilon={epsilon!r}.")
    return eps


@dataclass(frozen=True)
class FlexParams:
    """The flex function of ``cellKey::ck_flexparams`` (:func:`flex_params`)."""

    fp: float
    p_small: float
    p_large: float
    epsilon: tuple[float, ...]
    q: float

    def m(self, x: float) -> float:
        """The flex function at x >= 0 (``.para_m``), in R's order of operations.

        Examples
        --------
        >>> f = flex_params(1000, p=(0.2, 0.03), q=2)
        >>> f.m(1000.0), round(f.m(1e9), 6)
        (0.2, 0.03)
        """
        f1 = ((self.p_small * x) - (self.p_large * self.fp)) / (self.p_large * self.fp)
        f2 = ((2 * self.fp) / (self.fp + x)) ** self.q
        return self.p_large * (1 + (f1 * f2))


@dataclass(frozen=True)
class SimpleParams:
    """The simple multiplier of ``cellKey::ck_simpleparams`` (:func:`simple_params`)."""

    p: float
    epsilon: tuple[float, ...]


def flex_params(
    fp: float, p: Sequence[float] = (0.25, 0.05), epsilon: Any = 1.0, q: float = 3
) -> FlexParams:
    """``cellKey::ck_flexparams(fp, p, epsilon, q)``, with its checks.

    Parameters
    ----------
    fp : float
        The flex point (> 0).
    p : (float, float)
        The largest perturbation percentage for small and for large cells, in [0, 1],
        non-increasing.
    epsilon : float or sequence of float
        One weight per top contribution: in [0, 1], the first 1, non-increasing.
    q : float
        The exponent, >= 1.

    Examples
    --------
    >>> flex_params(1000, p=(0.2, 0.03), epsilon=[1, 0.5, 0.3], q=2).epsilon
    (1.0, 0.5, 0.3)
    """
    fp_ = _number(fp, "fp")
    if fp_ <= 0:
        raise ParameterError(f"`fp` must be positive, got fp={fp!r}.")
    if isinstance(p, str | bytes) or len(p) != 2:
        raise ParameterError(f"`p` must be two percentages, got p={p!r}.")
    ps, pl = (_number(x, "p") for x in p)
    if not (0 <= pl <= ps <= 1):
        raise ParameterError(f"`p` must be in [0, 1] and non-increasing, got p={p!r}.")
    q_ = _number(q, "q")
    if q_ < 1:
        raise ParameterError(f"`q` must be >= 1, got q={q!r}.")
    return FlexParams(fp_, ps, pl, _epsilon(epsilon), q_)


def simple_params(p: float, epsilon: Any = 1.0) -> SimpleParams:
    """``cellKey::ck_simpleparams(p, epsilon)``: 0 < p <= 1 and ``epsilon`` as
    :func:`flex_params`.

    Examples
    --------
    >>> simple_params(0.1)
    SimpleParams(p=0.1, epsilon=(1.0,))
    """
    p_ = _number(p, "p")
    if not 0 < p_ <= 1:
        raise ParameterError(f"`p` must be in (0, 1], got p={p!r}.")
    return SimpleParams(p_, _epsilon(epsilon))


@dataclass(frozen=True)
class NumericParams:
    """The parameters of ``cellKey::ck_params_nums`` (the ptable is passed apart).

    Attributes
    ----------
    mult : FlexParams or SimpleParams
        ``mult_params``.
    type : {"top_contr", "mean", "range", "sum"}
        The magnifier.
    top_k : int
        For ``"top_contr"``: 1..6 contributions (``len(mult.epsilon)`` must equal it); 1
        otherwise.
    mu_c : float
        Extra protection (>= 0) added to :math:`|v|` in sensitive cells.
    same_key : bool
        Look the first contribution up with the cell key itself (True) or a scrambled one.
    use_zero_rkeys : bool
        Cell keys from every record (True) or only records with a non-zero value (False).

    Examples
    --------
    >>> NumericParams(flex_params(1000, (0.2, 0.03), [1, 0.5, 0.3], 2), top_k=3).top_k
    3
    >>> NumericParams(simple_params(0.1), type="mean", top_k=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rainbowdp.exceptions.ParameterError: `top_k` is only for type='top_contr' ...
    """

    mult: FlexParams | SimpleParams
    type: str = "top_contr"
    top_k: int = 1
    mu_c: float = 0.0
    same_key: bool = True
    use_zero_rkeys: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.mult, FlexParams | SimpleParams):
            raise ParameterTypeError(
                "`mult` must come from flex_params() or simple_params(), got "
                f"{type(self.mult).__name__}."
            )
        if not isinstance(self.type, str) or self.type not in _TYPES:
            raise ParameterError(f"`type` must be one of {_TYPES}, got type={self.type!r}.")
        k = self.top_k
        if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= k <= MAX_TOP_K:
            raise ParameterError(f"`top_k` must be an integer in 1..{MAX_TOP_K}, got top_k={k!r}.")
        if self.type != "top_contr" and k != 1:
            raise ParameterError(
                "`top_k` is only for type='top_contr' (cellKey ignores it otherwise and uses 1), "
                f"got top_k={k!r}."
            )
        if len(self.mult.epsilon) != k:
            raise ParameterError(
                f"`mult` must have one epsilon per contribution (top_k={k}), got "
                f"epsilon={self.mult.epsilon!r}."
            )
        if isinstance(self.mult, SimpleParams) and k > 1:
            raise ParameterError(
                "the simple multiplier takes one contribution (cellKey's .perturb_cell_simple "
                f"tests `ck == 0` on one key), got top_k={k}."
            )
        mu = _number(self.mu_c, "mu_c")
        if mu < 0:
            raise ParameterError(f"`mu_c` must be >= 0, got mu_c={self.mu_c!r}.")
        object.__setattr__(self, "mu_c", mu)
        for name in ("same_key", "use_zero_rkeys"):
            if not isinstance(getattr(self, name), bool):
                raise ParameterTypeError(
                    f"`{name}` must be a boolean, got {name}={getattr(self, name)!r}."
                )

    @property
    def p_small(self) -> float:
        """The percentage of the separation point: ``p_small`` (flex) or ``p`` (simple)."""
        return self.mult.p_small if isinstance(self.mult, FlexParams) else self.mult.p


# --------------------------------------------------------------------------------- keys
def scramble_keys(ck: float, top_k: int, same_key: bool) -> list[float]:
    """``.scramble_ckeys``: the key of each of the top_k contributions, on R's text of ck.

    Examples
    --------
    >>> scramble_keys(0.12345678, 3, True)
    [0.12345678, 0.23456781, 0.34567812]
    >>> scramble_keys(0.12345678, 2, False)
    [0.23456781, 0.34567812]
    """
    if same_key and top_k == 1:
        return [ck]  # the double itself (``res[1] <- ck``)
    text = f"{ck:.15g}"  # R's as.character of a double: 15 significant digits
    beg, n = text[:2], len(text)
    res = [text]
    if not same_key:
        rest = text[3:n]
        res[0] = beg + (rest if rest else "0") + text[2:3]
    for _ in range(1, top_k):
        prev = res[-1]
        res.append(beg + prev[3:n] + prev[2:3])
    try:
        return [float(r) for r in res]
    except ValueError:
        raise ParameterError(
            f"the cell key {ck!r} cannot be scrambled (its text {text!r} is not 0.ddd...; "
            "cellKey gets NA there): use same_key=True and top_k=1."
        ) from None


def _rdiv(a: float, b: float) -> float:
    """a / b as R computes it: +-Inf for a nonzero a over 0, NaN for 0 / 0."""
    if b == 0:
        return (
            math.nan
            if a == 0 or math.isnan(a)
            else math.copysign(math.inf, a) * math.copysign(1.0, b)
        )
    return a / b


# --------------------------------------------------------------------------------- lookup
class _Lookup:
    """``.lookup_v_flex`` on a :class:`MagnitudePtable` (float keys, R's comparisons)."""

    def __init__(self, table: MagnitudePtable) -> None:
        self.rows: dict[str, np.ndarray] = {}
        self.lines: dict[tuple[str, float], tuple[np.ndarray, np.ndarray]] = {}
        for t in table.types:
            self.rows[t] = table.rows(t)
            for r in self.rows[t].tolist():
                k = np.flatnonzero((table.type == t) & (table.i == r))
                self.lines[(t, r)] = (table.ub[k], table.v[k])

    def _v(self, kind: str, row: float, key: float) -> float:
        ub, v = self.lines[(kind, row)]
        hit = np.flatnonzero(key < ub)
        if hit.size == 0:
            raise ParameterError(f"a cell key must be in [0, 1), got {key!r}.")
        return float(v[hit[0]])

    def __call__(self, kind: str, a: float, key: float) -> float:
        if key == 0:
            return 0.0
        poss = self.rows[kind]
        d = float(poss[-1])
        if math.isnan(a):
            raise ParameterError(
                "the lookup value a = |value / Delta| is 0/0 (a contribution cancelled the "
                "cell's value; cellKey stops with an error there)."
            )
        a = min(a, d)
        if (kind, a) in self.lines:
            return self._v(kind, a, key)
        a0 = float(poss[poss < a][-1])
        a1 = float(poss[poss > a][0])
        lam = (a - a0) / (a1 - a0)
        return (1 - lam) * self._v(kind, a0, key) + lam * self._v(kind, a1, key)


# --------------------------------------------------------------------------------- cells
@dataclass(frozen=True)
class _Setup:
    params: NumericParams
    lookup: _Lookup
    zs: float
    parity: bool


def _setup(table: MagnitudePtable, params: NumericParams) -> _Setup:
    types = set(table.types)
    parity = "even" in types
    if parity != ("odd" in types):
        raise ParameterError(
            f"`table` must have both types 'even' and 'odd' or neither (cellKey), got "
            f"{sorted(types)}."
        )
    if not parity and "all" not in types:
        raise ParameterError(f"`table` needs type 'all' or 'even'/'odd', got {sorted(types)}.")
    if parity and params.top_k > 1:
        raise ParameterError(
            "different ptables for even/odd cells need top_k = 1 (cellKey's ck_params_nums), "
            f"got top_k={params.top_k}."
        )
    zs = 0.0
    if "small_cells" in types:
        v, p = table.law("small_cells", table.max_i("small_cells"))
        m1sq = float(np.sum(v**2 * p))  # .compute_m1sq: sum((i - j)^2 * p)
        e = sum(x**2 for x in params.mult.epsilon)
        zs = math.sqrt(m1sq) / (math.sqrt(e) * params.p_small)
    return _Setup(params, _Lookup(table), zs, parity)


#: One contribution's step: (x_j, its key, the table type looked up, Delta_j, x_hat_j).
Step = tuple[float, float, str, float, float]


def _perturb_cell(
    s: _Setup, cv: float, x: list[float], keys: list[float], kind: str, sensitive: bool
) -> tuple[float, list[Step]]:
    """``.perturb_cell_flex`` / ``.perturb_cell_simple``: (sum of x_hat, the steps)."""
    if keys[0] == 0 or cv == 0:
        return 0.0, []
    prm = s.params
    flex = isinstance(prm.mult, FlexParams)
    eps = prm.mult.epsilon
    mu = prm.mu_c if sensitive else 0.0
    xo = cv
    sign_xo = 1.0 if xo >= 0 else -1.0
    hats: list[float] = []
    steps: list[Step] = []
    small_seen = False
    for j, xj in enumerate(x):
        look, zero = kind, False
        if abs(xj) < s.zs:
            x_delta, look, small_seen = 1.0, "small_cells", True
        elif isinstance(prm.mult, FlexParams):
            f = prm.mult
            x_delta = xj * f.p_small if abs(xj) < f.fp else xj * f.m(abs(xj)) * eps[j]
        else:
            x_delta = xj * prm.mult.p * eps[j]
        if abs(xo) < abs(x_delta):
            x_delta = xo
            if abs(_rdiv(xo, prm.p_small * eps[j])) < s.zs:
                x_delta, look, small_seen = 1.0, "small_cells", True
                zero = j > 0 if flex else small_seen
        if zero:
            hat = 0.0
        else:
            v = s.lookup(look, abs(_rdiv(xo, x_delta)), keys[j])
            sign_v = 1.0 if v >= 0 else -1.0
            hat = sign_xo * abs(x_delta) * (sign_v * (mu + abs(v)))
            if sign_v == -1:
                hat = min(hat, -xo) if sign_xo == -1 else max(hat, -xo)
        hats.append(hat)
        steps.append((xj, keys[j], look, x_delta, hat))
        xo = xo + hat
        sign_xo = 1.0 if xo >= 0 else -1.0
    return (math.fsum(hats) if len(hats) > 1 else hats[0]), steps


def _groups(table: FrequencyTable) -> list[np.ndarray]:
    """The row of each record in every margin (all subsets of ``by``; interior only without
    margins)."""
    if not table.margins:
        return [table.record_rows(table.by)]
    by = table.by
    return [table.record_rows(keep) for r in range(len(by) + 1) for keep in combinations(by, r)]


def _cell_inputs(
    table: FrequencyTable, x: np.ndarray, w: np.ndarray, rkey: np.ndarray, prm: NumericParams
) -> dict[str, Any]:
    """Per row: weighted value, number of records, cell key, magnifier values."""
    n_rows = len(table)
    cv = np.zeros(n_rows)
    wsum = np.zeros(n_rows)
    lo = np.full(n_rows, np.inf)
    hi = np.full(n_rows, -np.inf)
    ck = np.zeros(n_rows)
    tops: list[list[float]] = [[] for _ in range(n_rows)]
    wx = w * x
    keys = rkey if prm.use_zero_rkeys else np.where(x != 0, rkey, 0.0)
    idx = np.arange(x.size)
    for rows in _groups(table):
        order = np.lexsort((idx, -w, -np.abs(x), rows))
        srt = rows[order]
        starts = np.flatnonzero(np.r_[True, srt[1:] != srt[:-1]])
        ends = np.r_[starts[1:], srt.size]
        for a, b in zip(starts.tolist(), ends.tolist(), strict=True):
            r = int(srt[a])
            sel = order[a:b]
            cv[r] = math.fsum(wx[sel].tolist())
            wsum[r] = math.fsum(w[sel].tolist())
            lo[r], hi[r] = float(x[sel].min()), float(x[sel].max())
            ck[r] = math.fsum(keys[sel].tolist()) % 1.0
            tops[r] = wx[sel[: prm.top_k]].tolist()
    return {"cv": cv, "wsum": wsum, "lo": lo, "hi": hi, "ck": ck, "tops": tops}


def _magnifier(prm: NumericParams, inp: dict[str, Any], r: int) -> list[float]:
    if prm.type == "top_contr":
        return list(inp["tops"][r])
    if prm.type == "mean":
        return [_rdiv(float(inp["cv"][r]), float(inp["wsum"][r]))]
    if prm.type == "range":
        return [float(inp["hi"][r] - inp["lo"][r])]  # unweighted (cellKey's w_spread)
    return [float(inp["cv"][r])]


#: The columns of the contributions (``perturb_numeric(..., contributions=True)``).
_DETAIL = ("row", "j", "x", "cell_key", "lookup", "x_delta", "x_hat")


def _record_inputs(
    data: Any,
    ft: FrequencyTable,
    variable: Any,
    params: NumericParams,
    record_keys: Any,
    weights: Any,
) -> dict[str, Any]:
    """The records' value, weight and key, checked, and the cells' inputs from them."""
    if not isinstance(variable, str) or variable in ft.by:
        raise ParameterError(
            f"`variable` must name a numeric column other than `by`, got {variable!r}."
        )
    n = ft.n_records
    x = record_numbers(variable, data, n, "`variable`")
    w = np.ones(n) if weights is None else resolve_weights(weights, data, n)
    if (w < 0).any():
        raise ParameterError(f"`weights` must be >= 0, got {float(w.min())!r}.")
    rkey = record_numbers(record_keys, data, n, "`record_keys`")
    if ((rkey < 0) | (rkey >= 1)).any():
        k = int(np.flatnonzero((rkey < 0) | (rkey >= 1))[0])
        raise ParameterError(
            f"`record_keys` must be in [0, 1), got {float(rkey[k])!r} at record {k}."
        )
    return _cell_inputs(ft, x, w, rkey, params)


def perturb_numeric(
    data: Any,
    by: str | Sequence[str],
    variable: str,
    table: MagnitudePtable,
    params: NumericParams,
    *,
    record_keys: Any = "rkey",
    weights: Any = None,
    sensitive: Callable[[np.ndarray, np.ndarray], Any] | None = None,
    margins: bool = True,
    total: str = TOTAL,
    contributions: bool = False,
) -> Any:
    r"""Perturb the magnitude table of ``variable`` by ``by`` with ``cellKey``'s numeric rule.

    Parameters
    ----------
    data : pandas.DataFrame or mapping of str to 1-D array
        The microdata.
    by : str or sequence of str
        The classifying variables.
    variable : str
        The numeric variable (finite numbers; negative values allowed).
    table : MagnitudePtable
        Type ``"all"`` or ``"even"`` and ``"odd"``, optionally ``"small_cells"``
        (:meth:`MagnitudePtable.combine` builds it from ``ptable``'s separate tables).
    params : NumericParams
        ``ck_params_nums``' parameters (module notes).
    record_keys : str or array_like of float, default "rkey"
        One record key in [0, 1) per record (a column or an array), as ``cellKey``'s ``rkey``.
    weights : str or array_like of float, optional
        Sampling weights (``cellKey``'s ``w``); default 1.
    sensitive : callable, optional
        ``sensitive(count, value)`` -> bool per row: the cells that get the extra protection
        ``mu_c`` (``cellKey``'s ``supp_freq``/``supp_val`` etc. mark them); default none.
    margins : bool, default True
    total : str, default "Total"
    contributions : bool, default False
        Also return each perturbed contribution (``cellKey``'s ``mod_nums()``): a dict of
        arrays ``row`` (the cell's row), ``j`` (1..top_k), ``x`` (:math:`x_j`), ``cell_key``
        (the key looked up), ``lookup`` (the table type), ``x_delta`` (:math:`\Delta_j`),
        ``x_hat`` (:math:`\hat x_j`).

    Returns
    -------
    FrequencyTable or pandas.DataFrame
        Every cell with ``count`` (records), ``cell_key`` (the first contribution's key is
        derived from it), ``value`` (the weighted value, ``cellKey``'s ``ws``),
        ``perturbation`` (:math:`\sum_j \hat x_j`, ``pert``) and ``perturbed_value``
        (``pws``); with ``contributions``, the pair (table, contributions).

    Raises
    ------
    ParameterError, ParameterTypeError
        Bad data, keys, weights, parameters or a table that does not fit them.

    Notes
    -----
    Follows ``cellKey`` 1.0.2 (module notes), in its float arithmetic, so the published values
    agree with ``cellKey``'s to the last bits (test: ``cellKey``'s ``test_numvars.R`` data).
    Not supported: hierarchies other than one "Total" per variable, ``numtab(mean_before_sum =
    TRUE)``, the sensitivity rules themselves (give ``sensitive``). No privacy guarantee for the
    published values (module notes).

    Examples
    --------
    >>> T = MagnitudePtable.from_rows({"all": {0: ([0.0], [1.0]),
    ...                                        1: ([-1.0, 0.0, 1.0], [0.25, 0.5, 0.25])}})
    >>> data = {"g": ["a", "a", "b"], "x": [100.0, 50.0, 10.0], "rkey": [0.1, 0.3, 0.9]}
    >>> out = perturb_numeric(data, "g", "x", T, NumericParams(simple_params(0.1)))
    >>> out["value"].tolist(), out["cell_key"].tolist(), out["perturbed_value"].tolist()
    ([150.0, 10.0, 160.0], [0.4, 0.9, 0.30000000000000004], [150.0, 11.0, 160.0])
    """
    if not isinstance(table, MagnitudePtable):
        raise ParameterTypeError(
            f"`table` must be a MagnitudePtable, got {table.__class__.__name__}."
        )
    if not isinstance(params, NumericParams):
        raise ParameterTypeError(
            f"`params` must be NumericParams, got {params.__class__.__name__}."
        )
    if not isinstance(contributions, bool):
        raise ParameterTypeError(
            f"`contributions` must be a boolean, got contributions={contributions!r}."
        )
    setup = _setup(table, params)
    ft = frequency_table(data, by, margins=margins, total=total)
    inp = _record_inputs(data, ft, variable, params, record_keys, weights)
    count = ft["count"]
    prot = np.zeros(len(ft), dtype=bool)
    if sensitive is not None:
        prot = np.asarray(sensitive(count.copy(), inp["cv"].copy()), dtype=bool)
        if prot.shape != count.shape:
            raise ParameterError(
                f"`sensitive` must return one bool per cell ({count.size}), got {prot.shape}."
            )
    pert = np.zeros(len(ft))
    detail: dict[str, list[Any]] = {c: [] for c in _DETAIL}
    for r in range(len(ft)):
        if count[r] == 0:
            continue
        kind = ("even" if count[r] % 2 == 0 else "odd") if setup.parity else "all"
        keys = scramble_keys(float(inp["ck"][r]), params.top_k, params.same_key)
        pert[r], steps = _perturb_cell(
            setup, float(inp["cv"][r]), _magnifier(params, inp, r), keys, kind, bool(prot[r])
        )
        for j, step in enumerate(steps):
            for c, value in zip(_DETAIL, (r, j + 1, *step), strict=True):
                detail[c].append(value)
    columns = dict(ft.columns)
    for name, arr in (
        ("cell_key", inp["ck"]),
        ("value", inp["cv"]),
        ("perturbation", pert),
        ("perturbed_value", inp["cv"] + pert),
    ):
        arr.setflags(write=False)
        columns[name] = arr
    out = FrequencyTable(
        by=ft.by,
        levels=ft.levels,
        columns=MappingProxyType(columns),
        record_cell=ft.record_cell,
        margins=ft.margins,
        total=ft.total,
    )
    is_frame = hasattr(data, "columns") and hasattr(data, "iloc")
    result = out.to_pandas() if is_frame else out
    if not contributions:
        return result
    return result, {c: np.asarray(v) for c, v in detail.items()}
