r"""The cell-key method: perturbation tables, quantised lookup sampling, record and cell keys,
perturbed frequency tables, and the exact (ε, δ)-DP audit of a perturbation table.

A perturbation table (:class:`Ptable`) is a mechanism on the count path: row i gives the law of
the published count of a cell whose true count is i. The cell-key method (Sadeghi & Chien,
§3–4) selects the noise of a cell by its *cell key*, computed from random keys attached to the
records, so the same cell always gets the same noise:

- record keys and cell keys (3.1)–(3.2): :func:`record_keys`, :func:`cell_keys`;
- the quantised lookup (4.1)–(4.3) and the post-sampling measures (4.5)–(4.11):
  :func:`quantised_cdf`, :func:`lookup`, :func:`post_sampling`, :func:`check_quantisation`;
- tables: :class:`Ptable`, :func:`read_ptable` / :func:`write_ptable` (the R ``ptable`` and the
  ONS layouts), :func:`audit` (exact ε, δ, bias and variance), :func:`design_ptable` and
  :func:`optimal_noise` (the smallest exact δ under an agency's constraints);
- perturbing microdata: :func:`frequency_table`, :func:`perturb` (integer keys, or the decimal
  keys and sampling weights of the R package ``cellKey``: ``method="cellkey"``, ``weights=``),
  :func:`utility`, and ``cellKey``'s own measures :func:`ck_cnt_measures`.

Every result object shows itself briefly: a one-line ``repr`` (kind, parameters, sizes, the key
ε and δ rounded up; no arrays), a ``str`` of a few lines, ``_repr_html_`` for notebooks, and
``to_pandas()`` where a table is natural (pandas is the optional extra ``tables``).

See ``docs/cellkey.md`` for a tutorial from microdata to a perturbed, audited table.

References
----------
.. [1] P. Sadeghi, C.-H. Chien, "On the connection between the ABS perturbation methodology and
   differential privacy" (2023), Sections 3–4.
"""

from ._audit import AuditReport, audit
from ._ck_measures import CkCntMeasures, ck_cnt_measures
from ._decimal_keys import decimal_thresholds
from ._design import METHODS, PtableDesign, design_ptable
from ._keys import big_prime, cell_key_components, cell_keys, record_keys, record_keys_from_int
from ._optimal import OptimalNoise, OptimalTable, optimal_noise, optimal_table
from ._perturb import FrequencyTable, frequency_table, perturb
from ._ptable import ABOVE_RULES, LAYOUTS, Ptable
from ._ptable_io import read_ptable, write_ptable
from ._quantise import (
    KEYSIZES,
    KeysizeWarning,
    PostSampling,
    QuantisationError,
    check_keysize,
    check_quantisation,
    lookup,
    post_sampling,
    quantised_cdf,
    quantised_pmf,
)
from ._utility import Utility, utility, utility_measures

__all__ = [
    "ABOVE_RULES",
    "KEYSIZES",
    "LAYOUTS",
    "METHODS",
    "AuditReport",
    "CkCntMeasures",
    "FrequencyTable",
    "KeysizeWarning",
    "OptimalNoise",
    "OptimalTable",
    "PostSampling",
    "Ptable",
    "PtableDesign",
    "QuantisationError",
    "Utility",
    "audit",
    "big_prime",
    "cell_key_components",
    "cell_keys",
    "check_keysize",
    "check_quantisation",
    "ck_cnt_measures",
    "decimal_thresholds",
    "design_ptable",
    "frequency_table",
    "lookup",
    "optimal_noise",
    "optimal_table",
    "perturb",
    "post_sampling",
    "quantised_cdf",
    "quantised_pmf",
    "read_ptable",
    "record_keys",
    "record_keys_from_int",
    "utility",
    "utility_measures",
    "write_ptable",
]
