r"""The ONS cell-key layout (``pcv, ckey, pvalue``) as the ONS tool applies it.

The ONS tool (Office for National Statistics, ``cell-key-perturbation``, function
``create_perturbed_table``) applies a ptable file by these rules:

- the cell key is the sum of the cell's record keys modulo K, K = the largest ``ckey`` + 1;
- the row of a count c is ``pcv = c`` for c <= 750 and ``pcv = ((c - 1) mod 250) + 501`` above
  (rows 501..750 are reused: 751, 1001, 1251, ... use row 501);
- the noise is looked up by a left join on (``pcv``, ``ckey``), and a pair the file lacks gets
  ``pvalue = 0``: **no noise**. The tool has no "last row" rule.

So a file with fewer rows than 0..750 publishes every count above its last row unperturbed in
that tool. :func:`ons_key_map_for_file` therefore always gives rows 0..750: a table with the
``"last"`` rule and I < 750 has the rows I + 1..750 filled with copies of row I (what the last
rule gives those counts; the tool's loop over 501..750 then gives every larger count row I as
well). Those copies are written after the table's own rows, from pcv 750 down to I + 1
(:func:`padded_order`), so :func:`split_padding` reads the table back with its own I; the ONS
tool joins on (pcv, ckey) and does not see the order.
"""

from __future__ import annotations

import numpy as np

from ..exceptions import ParameterError
from ._ptable import Ptable
from ._ptable_ops import ONS_LAST_PCV, ONS_LOOP_START

__all__ = ["MAX_ONS_LINES", "ons_key_map_for_file", "ons_row", "padded_order", "split_padding"]

#: The most lines an ONS file may have (751 rows times K keys): K up to 2^15.
MAX_ONS_LINES = (ONS_LAST_PCV + 1) * 2**15
_PERIOD = ONS_LAST_PCV - ONS_LOOP_START + 1  # 250


def ons_row(counts: np.ndarray) -> np.ndarray:
    """The ONS tool's row (``pcv``) of each count: c up to 750, ((c - 1) mod 250) + 501 above.

    Examples
    --------
    >>> ons_row(np.array([0, 750, 751, 1000, 1001])).tolist()
    [0, 750, 501, 750, 501]
    """
    c = np.asarray(counts, dtype=np.int64)
    return np.where(c <= ONS_LAST_PCV, c, (c - 1) % _PERIOD + ONS_LOOP_START)


def _first_constant_row(km: np.ndarray) -> int:
    """The smallest r such that rows r..I of the key map are all equal to row I."""
    same = np.all(km == km[-1], axis=1)
    r = km.shape[0] - 1
    while r > 0 and same[r - 1]:
        r -= 1
    return r


def ons_key_map_for_file(T: Ptable, km: np.ndarray) -> tuple[np.ndarray, int]:
    """The (751, K) key map to write for a table with key map ``km``, and its own rows.

    Returns the key map of pcv 0..750 and n, the number of the table's own rows (the rest are
    copies of row n - 1). A ``"loop"`` table must be the ONS one (I = 750, s = 501); a
    ``"last"`` table needs its rows from 501 on equal to its last row, since the ONS tool
    gives rows 501..750 to the counts above 750 (a table with I > 750 whose rows are equal
    from some r <= 501 on is written as its equivalent with I = r).
    """
    top = km.shape[0] - 1
    if T.above == "loop":
        if (top, T.loop_start) != (ONS_LAST_PCV, ONS_LOOP_START):
            raise ParameterError(
                "the ONS tool loops over the rows 501..750 above 750; a 'loop' table must have "
                f"I = 750 and loop_start = 501, got I={top}, loop_start={T.loop_start!r}."
            )
        return km, top + 1
    r = _first_constant_row(km)
    if r > ONS_LOOP_START:
        raise ParameterError(
            "the ONS tool gives the counts above 750 the rows 501..750 (it has no last-row "
            f"rule); this 'last' table's rows differ from its last row up to row {r - 1} > "
            f"{ONS_LOOP_START}, so the ONS layout would perturb those counts otherwise."
        )
    n = top + 1 if top < ONS_LAST_PCV else r + 1
    own = km[:n]
    pad = np.broadcast_to(own[-1], (ONS_LAST_PCV + 1 - n, km.shape[1]))
    return np.concatenate([own, pad]), n


def padded_order(n_own: int) -> np.ndarray:
    """The order of the pcv blocks in the file: 0..n_own - 1, then 750 down to n_own.

    Examples
    --------
    >>> padded_order(3)[:5].tolist(), padded_order(3)[-2:].tolist()
    ([0, 1, 2, 750, 749], [4, 3])
    """
    return np.r_[np.arange(n_own), np.arange(ONS_LAST_PCV, n_own - 1, -1)].astype(np.int64)


def split_padding(pcv: np.ndarray, key_map: np.ndarray) -> int | None:
    """The table's own last row I if the file is padded as :func:`padded_order` writes it.

    ``pcv`` is the column in file order and ``key_map`` the (751, K) map read. The file is
    padded when its pcv blocks run first..I upwards by one and then 750 down to I + 1 (I <
    749), and every row above I equals row I; otherwise None (the file is read as it is).
    """
    if key_map.shape[0] != ONS_LAST_PCV + 1 or pcv.size < 2:
        return None
    starts = np.r_[True, pcv[1:] != pcv[:-1]]
    blocks = pcv[starts]
    step = np.diff(blocks)
    up = int(np.argmax(step != 1)) if (step != 1).any() else step.size
    top = int(blocks[up])
    tail = blocks[up + 1 :]
    if top >= ONS_LAST_PCV - 1 or tail.size != ONS_LAST_PCV - top:
        return None
    if not np.array_equal(tail, np.arange(ONS_LAST_PCV, top, -1)):
        return None
    if not np.all(key_map[top + 1 :] == key_map[top]):
        return None
    return top
