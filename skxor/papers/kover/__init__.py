"""Sensitivity: Köver et al. (ICML 2026, arXiv 2606.08768).

Randomly initialised transformers almost surely compute functions with many
zero-sensitivity strings, so functions that have none (PARITY, sparse
parity, FIRST) are unlearnable as N grows; MAJORITY is conjectured
learnable; with a layer-norm stabiliser eps > 0 one flip's effect on the
output falls as O(1/N). Four studies measure it, each a package of its own:

* :mod:`~skxor.papers.kover.random_init` -- sensitivity profiles of random
  transformers against N (claims K1, K2, K4);
* :mod:`~skxor.papers.kover.training` -- transformers trained on MAJORITY,
  PARITY and FIRST, and their profiles (K3);
* :mod:`~skxor.papers.kover.zero_sensitivity_bound` -- the zero-sensitivity
  count against the paper's Theorem 4.5 lower bound (K5);
* :mod:`~skxor.papers.kover.flip_effect` -- one flip's effect against N at
  eps > 0 (K6).

The random networks they share are drawn by :mod:`skxor.papers.kover._networks`
and profiled by :mod:`skxor.papers.kover._profiling`.
"""

from . import flip_effect, random_init, training, zero_sensitivity_bound

#: The studies of this paper, in the order ``skxor list`` shows them.
STUDIES = (random_init.STUDY, training.STUDY, zero_sensitivity_bound.STUDY, flip_effect.STUDY)
