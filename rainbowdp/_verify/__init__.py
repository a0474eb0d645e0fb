r"""The verification engine, private: every privacy number the library reports is computed here.

:mod:`rainbowdp.privacy` is its public face. The modules, bottom up:

* :mod:`~rainbowdp._verify.kernels`: float kernels (scaled :math:`e^\epsilon`, chunked gathers,
  hockey-stick divergences of every edge);
* :mod:`~rainbowdp._verify.fused` and :mod:`~rainbowdp._verify.numba_kernels`: the same passes
  compiled with numba where it is installed (extra ``fast``);
* :mod:`~rainbowdp._verify.exact`: rational bounds on :math:`e^\epsilon`, float filters with
  proved error bounds, exact integer divergences: the provers behind every reported number;
* :mod:`~rainbowdp._verify.groups`: classes of equal pairs of rows, decided once;
* :mod:`~rainbowdp._verify.rounding`: a float ε whose :math:`e^\epsilon` provably covers an
  exact ratio (the last step of every ε(δ));
* :mod:`~rainbowdp._verify.profile`: δ(ε) at many ε in one pass over the edges;
* :mod:`~rainbowdp._verify.epsilon` and :mod:`~rainbowdp._verify.delta`: ε(δ) and δ(ε) of a
  mechanism's edges;
* :mod:`~rainbowdp._verify.pair_delta`, :mod:`~rainbowdp._verify.pair_epsilon` and
  :mod:`~rainbowdp._verify.pairs`: the same numbers for pairs and batches of pairs;
* :mod:`~rainbowdp._verify.certify` (public as :func:`rainbowdp.certify`) and
  :mod:`~rainbowdp._verify.repair` (proved privacy and the certified repair of designs);
* :mod:`~rainbowdp._verify.report`: the text and plain-data forms of a report.

The layering is checked by import-linter (``pyproject.toml``): nothing here imports anything
above :mod:`rainbowdp.mechanism` and :mod:`rainbowdp.graph`.
"""
