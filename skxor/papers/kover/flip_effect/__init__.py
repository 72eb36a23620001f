"""Köver et al.'s eps > 0 prediction (2026, arXiv 2606.08768): one flip's effect against N.

With a layer-norm stabiliser eps > 0 a transformer is uniformly Lipschitz:
every layer norm amplifies a change by at most ``1 / sqrt(eps)``, whatever
the input length, so the cumulative blow-up is bounded independently of N,
and the effect of flipping one bit on the output vanishes as O(1/N) -- the
packing argument of Köver et al. then leaves only a bounded number of
recognizable functions, and non-constant functions become unrecognizable as
N grows. With eps = 0 the norm's denominator can approach 0 and no such
bound holds; that case is the paper's main subject (the random-
initialisation and zero-sensitivity-bound studies).

For each N, width D, depth L, scheme and seed one random
:class:`~skxor.nn.BooleanTransformer` is drawn -- the same network the
random-initialisation study draws for that key, in Köver et al.'s recognizer
setting (eos read-out, fixed sinusoidal positions) -- and evaluated at every
eps of the grid (eps is a paired factor: the same weights at each eps). For
``n_samples`` uniform strings the output change under each single flip is
computed exactly in float64
(:meth:`~skxor.nn.BooleanTransformer.flip_neighbours`). Recorded per network
and eps: the largest and the typical (median) change, the output's own scale,
how many flips change the label, whether the label is constant on the
strings and their flips, and the largest layer-norm ``1 / sqrt(var + eps)``.

The summary gives per (eps, D, L) the slope of log(change) on log(N) over
the networks (each its own weights: the independent units), with a t
interval; an O(1/N) decay has slope -1.
"""

from skxor.estimators import BooleanTransformerClassifier
from .._networks import NETWORK_PARAMETERS
from skxor.studies import estimator_parameters
from .._profiling import check_transformer
from skxor.studies import Study, role_hooks
from ..._removed import module_getattr
from ._cells import flip_effect_cell, flip_effect_cells, flip_effect_cost, flip_effect_table
from ._display import FlipChangeDisplay
from ._summary import (
    change_slope,
    flip_effect_summary,
    flip_slopes,
    slope_verdict,
    summarize_flip_effect,
)

#: Every parameter of the study and the values it accepts: those of the random
#: networks, less the profile's (no profile is computed here), with one read-out and
#: positional encoding per run.
PARAMETERS = {
    **{k: v for k, v in NETWORK_PARAMETERS.items() if k not in ("exhaustive_max", "n_blowup")},
    **estimator_parameters(BooleanTransformerClassifier, ("readout", "positional")),
}


PRESETS = {
    "quick": dict(
        n_bits=[8, 16, 32, 64],
        d_model=[16],
        n_layers=[1],
        n_heads=2,
        layer_norm_eps=[0.0, 1e-3, 1e-2, 1e-1],
        init=["uniform"],
        init_scale=1.0,
        readout="eos",
        positional="sinusoidal",
        seeds=4,
        n_samples=8,
        device="cpu",
        random_state=0,
    ),
    # Only the differences from quick. ``full`` is what the documents cite:
    # N from 8 to 256 (a 32-fold range), D in {16, 64}, L in {1, 2}, 20
    # networks per (N, D, L), each at four eps; minutes on 2 cores.
    "full": dict(
        n_bits=[8, 16, 32, 64, 128, 256],
        d_model=[16, 64],
        n_layers=[1, 2],
        seeds=20,
        n_samples=32,
    ),
    # Longer strings and Köver et al.'s four schemes: about an hour on 2 cores.
    "paper": dict(
        n_bits=[8, 16, 32, 64, 128, 256, 512, 1024],
        d_model=[16, 64],
        n_layers=[1, 2],
        init=["uniform", "normal", "xavier_uniform", "xavier_normal"],
        seeds=20,
        n_samples=32,
    ),
}


STUDY = Study(
    name="flip_effect",
    description=(
        "Köver et al.'s eps > 0 prediction: the output change under one bit flip of "
        "random transformers against N (to 256 in the full preset) at layer-norm eps "
        "0, 1e-3, 1e-2 and 1e-1, its slope on log N against O(1/N), and the share of "
        "networks constant on their sampled strings."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=flip_effect_cell,
    cells=flip_effect_cells,
    cost=flip_effect_cost,
    tabulate=flip_effect_table,
    summary=flip_effect_summary,
    **role_hooks(__name__),
    key=("n_bits", "d_model", "n_layers", "init", "layer_norm_eps", "seed", "n_heads",
         "init_scale", "readout", "positional", "n_samples", "random_state"),
    setting=("n_heads", "init_scale", "readout", "positional", "n_samples", "device",
             "random_state"),
    check=check_transformer,
)


flip_effect = STUDY.function(
    """One flip's effect on the output of random transformers against N, at layer-norm eps.

    Parameters
    ----------
    preset : {"quick", "full", "paper"}, default="quick"
        ``quick`` (rough, 4 seeds): N in {8, 16, 32, 64}, D = 16, L = 1, eps
        in {0, 1e-3, 1e-2, 1e-1}, 8 strings per network. ``full`` (what
        the documents cite; minutes on 2 cores): N from 8 to 256, D in {16,
        64}, L in {1, 2}, 20 seeds, 32 strings: 480 networks, each at four
        eps. ``paper``: N to 1024 and Köver et al.'s four schemes.
    %(study_options)s
    **overrides
        Replace preset entries: ``n_bits``, ``d_model``, ``n_layers``,
        ``layer_norm_eps``, ``init`` (lists); ``n_heads`` (must divide every
        D), ``init_scale``, ``readout``, ``positional``, ``seeds``,
        ``n_samples`` (strings per network; each gives N flips),
        ``device``, ``random_state``.

    Returns
    -------
    results : pandas.DataFrame
        One row per network and eps: the configuration, ``seed`` and the
        results of :func:`~skxor.papers.kover.flip_effect.flip_effect_cell`.

    Examples
    --------
    >>> from skxor.papers import flip_effect
    >>> df = flip_effect(n_bits=[8, 32], layer_norm_eps=[0.0, 0.1], seeds=2, n_samples=4)
    >>> len(df), int(df["flips"].min())
    (8, 32)
    """)


__all__ = [
    "FlipChangeDisplay",
    "PARAMETERS",
    "PRESETS",
    "STUDY",
    "change_slope",
    "flip_effect",
    "flip_effect_cell",
    "flip_effect_cells",
    "flip_effect_cost",
    "flip_effect_summary",
    "flip_slopes",
    "slope_verdict",
    "summarize_flip_effect",
]

#: plot_<study>, report_<study> and headline were removed: an import of one says
#: how the study is rendered now (get_study(name).render(hook, table)).
__getattr__ = module_getattr(__name__, ["flip_effect"])
