r"""The cell-key method: perturbation tables, quantised lookup sampling, record and cell keys,
perturbed frequency tables, and the exact (ε, δ)-DP audit of a perturbation table.

A perturbation table (:class:`Ptable`) is a mechanism on the count path: row i gives the law of
the published count of a cell whose true count is i. The cell-key method (Sadeghi & Chien,
§3–4) selects the noise of a cell by its *cell key*, computed from random keys attached to the
records, so the same cell always gets the same noise:

- record keys and cell keys (3.1)–(3.2): :func:`record_keys`, :func:`cell_keys`;
- the quantised lookup (4.1)–(4.3) and the post-sampling measures (4.5)–(4.11):
  :func:`quantised_cdf`, :func:`lookup`, :func:`post_sampling`, :func:`check_quantisation`;
- tables: :class:`Ptable`, :func:`read_ptable` / :func:`write_ptable` (the R ``ptable``
  layout, its Tau-Argus and SAS exports, modified tables and the ONS layout), :func:`audit`
  (exact ε, δ, bias and variance), :func:`design_ptable` and :func:`optimal_noise` (the
  smallest exact δ under an agency's constraints), :meth:`Ptable.from_parameters` (the table
  ``ptable`` builds from D, V, js, pstay, mono) and :func:`compare_with_design` (an agency's
  table next to the one designed for the same D and variance cap);
- perturbing microdata: :func:`frequency_table`, :func:`perturb` (integer keys, or the decimal
  keys and sampling weights of the R package ``cellKey``: ``method="cellkey"``, ``weights=``),
  :func:`utility`, and ``cellKey``'s own measures :func:`ck_cnt_measures`; subtotals over a
  hierarchy of each variable (``hierarchies=``);
- magnitude tables (``ptable::create_num_ptable``): :class:`MagnitudePtable`,
  :func:`read_magnitude_ptable` / :func:`write_magnitude_ptable`, ``cellKey``'s rule for
  numeric variables :func:`perturb_numeric` (:func:`flex_params`, :func:`simple_params`), and
  the exact (ε, δ) between two of its rows :func:`magnitude_row_privacy`.

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
from ._compare_agency import PtableComparison, compare_with_design
from ._decimal_keys import decimal_thresholds
from ._design import METHODS, PtableDesign, design_ptable
from ._keys import big_prime, cell_key_components, cell_keys, record_keys, record_keys_from_int
from ._layout_magnitude import read_magnitude_ptable, write_magnitude_ptable
from ._magnitude import MagnitudePtable
from ._magnitude import row_privacy as magnitude_row_privacy
from ._numeric import (
    FlexParams,
    NumericParams,
    SimpleParams,
    flex_params,
    perturb_numeric,
    simple_params,
)
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
    "FlexParams",
    "FrequencyTable",
    "KeysizeWarning",
    "MagnitudePtable",
    "NumericParams",
    "OptimalNoise",
    "OptimalTable",
    "PostSampling",
    "Ptable",
    "PtableComparison",
    "PtableDesign",
    "QuantisationError",
    "SimpleParams",
    "Utility",
    "audit",
    "big_prime",
    "cell_key_components",
    "cell_keys",
    "check_keysize",
    "check_quantisation",
    "ck_cnt_measures",
    "compare_with_design",
    "decimal_thresholds",
    "design_ptable",
    "flex_params",
    "frequency_table",
    "lookup",
    "magnitude_row_privacy",
    "optimal_noise",
    "optimal_table",
    "perturb",
    "perturb_numeric",
    "post_sampling",
    "quantised_cdf",
    "quantised_pmf",
    "read_magnitude_ptable",
    "read_ptable",
    "record_keys",
    "record_keys_from_int",
    "simple_params",
    "utility",
    "utility_measures",
    "write_magnitude_ptable",
    "write_ptable",
]
