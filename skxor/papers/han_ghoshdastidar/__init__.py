"""Sparse XOR: Han & Ghoshdastidar (2025/2026, arXiv 2502.07553).

A one-layer, two-head transformer with frozen positional keys on the sphere
and two trainable query vectors learns ``y = -x_i x_j`` in one gradient step
with O(polylog d) trainable parameters, where feed-forward networks need
Omega(d); linear or erf attention do not do it; each head locks onto one of
the two hidden bits. Four studies measure it, each a package of its own:

* :mod:`~skxor.papers.han_ghoshdastidar.one_step` -- one step, softmax against
  linear and erf attention, head specialisation (claims H1, H3, H4);
* :mod:`~skxor.papers.han_ghoshdastidar.parameter_scaling` -- trainable
  parameters needed against d, transformer against FFNNs (H2);
* :mod:`~skxor.papers.han_ghoshdastidar.sample_complexity` -- samples needed
  against d, censored seeds kept (H5);
* :mod:`~skxor.papers.han_ghoshdastidar.k_sparse` -- k heads for a parity of
  k hidden bits (H6).
"""

from . import k_sparse, one_step, parameter_scaling, sample_complexity

#: The studies of this paper, in the order ``skxor list`` shows them.
STUDIES = (one_step.STUDY, sample_complexity.STUDY, parameter_scaling.STUDY, k_sparse.STUDY)
