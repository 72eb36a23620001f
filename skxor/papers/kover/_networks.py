"""Random Boolean transformers as several studies draw, profile and count them.

The random-initialisation and zero-sensitivity-bound studies draw the same
networks (one cell computes both, so the two studies agree on a shared
configuration): a :class:`~skxor.nn.BooleanTransformer` whose weights come
from the whole cell key but eps (:func:`network_key`; eps is a paired factor,
the same network evaluated at each eps), profiled and diagnosed by
:func:`network_cell`. The helpers below read the rows of such networks
(``function == "transformer"``) back: how many distinct networks a table
holds, and whether eps = 0 and eps > 0 agree on the same weights.
"""

import functools
import math
from numbers import Integral

import torch

from skxor._utils._sklearn_compat import Interval
from skxor._utils._validation import check_device
from skxor.estimators import BooleanTransformerClassifier
from skxor.nn import BooleanTransformer
from .._common import key_seed, single_thread
from skxor.studies import floor_work
from skxor.studies import POSITIVE, SEEDS, Grid, estimator_parameters
from ._profiling import EXHAUSTIVE_CAP, STRING_BY_STRING_MAX, profile, profile_result
from skxor.studies.stats import flag_columns, format_interval

__all__ = [
    "NETWORK_PARAMETERS",
    "build_network",
    "distinct_networks",
    "eps_agreement",
    "log10_count",
    "network_cell",
    "network_cost",
    "network_key",
    "network_rows",
    "paired_eps_text",
    "profiled_text",
    "require_networks",
    "share_text",
]

#: The label of a random network's rows in a study table (its ``function`` column).
TRANSFORMER = "transformer"

# The transformer's parameters of one network (network_cell), passed to it
# unchanged; those in _GRID are sweep axes.
_NETWORK = ("d_model", "n_layers", "n_heads", "layer_norm_eps", "init", "readout",
            "positional", "init_scale")
_GRID = ("d_model", "n_layers", "layer_norm_eps", "init", "readout", "positional")

#: The parameters of a study of random networks and the values they accept.
NETWORK_PARAMETERS = {
    "n_bits": [Grid(POSITIVE)],
    **estimator_parameters(BooleanTransformerClassifier, _NETWORK, grid=_GRID),
    "exhaustive_max": [Interval(Integral, 0, EXHAUSTIVE_CAP, closed="both")],
    "n_samples": [POSITIVE],
    "n_blowup": [POSITIVE],
    "device": [str],
    **SEEDS,
}

# -- what a network's cell costs (the dry run's work figures) ----------------------------


@functools.lru_cache(maxsize=None)
def forward_work(n_bits, d_model, n_layers):
    """Work of one transformer forward pass over N tokens (projections and attention)."""
    return float(n_layers) * d_model * (n_bits + 1) * (d_model + n_bits + 1)


def _flip_work(n_bits, d_model, n_layers):
    """Work of re-evaluating a network after one bit flip: the first layer incrementally
    (linear in N), every later layer in full."""
    return d_model * (n_bits + 1) + (n_layers - 1) * forward_work(n_bits, d_model, 1)


def _one_position_work(d_model):
    """Work per string of the one-layer exhaustive path: the read-out token's attention
    sums (an addition of D + H numbers) and the rest of the layer at that one position
    (see :meth:`~skxor.nn.BooleanTransformer.exhaustive_scorer`), in the units of
    :func:`forward_work`."""
    return float(d_model) * (d_model + 2)


@functools.lru_cache(maxsize=None)
def profile_work(n_bits, d_model, n_layers, exhaustive_max, n_samples):
    """Work of a sensitivity profile: 2^N forward passes (exhaustive; one layer: the
    read-out position's work per string, from tables of its attention sums), or per
    sampled string one forward pass and N flips (as :func:`~._profiling.exhaustive`
    decides for the studies' softmax networks)."""
    if n_bits <= exhaustive_max and (n_bits <= STRING_BY_STRING_MAX or n_layers == 1):
        # The studies' networks are softmax: one layer takes the exhaustive path.
        per_string = (_one_position_work(d_model) if n_layers == 1
                      else forward_work(n_bits, d_model, n_layers))
        return 2.0 ** n_bits * per_string
    return float(n_samples) * (forward_work(n_bits, d_model, n_layers)
                               + n_bits * _flip_work(n_bits, d_model, n_layers))


def network_cost(cell):
    """The cost of a :func:`network_cell`: ``("network", work)``, its profile and diagnostics."""
    shape = (cell["n_bits"], cell["d_model"], cell["n_layers"])
    return "network", (profile_work(*shape, cell["exhaustive_max"], cell["n_samples"])
                       + cell["n_blowup"] * forward_work(*shape))


def log10_count(fraction, n_bits):
    """log10(fraction * 2^N), None where the fraction is 0 (or missing).

    Examples
    --------
    >>> from skxor.papers.kover._networks import log10_count
    >>> round(log10_count(0.25, 4), 6), log10_count(0.0, 4)  # 0.25 * 2^4 = 4 strings
    (0.60206, None)
    """
    if fraction is None or not fraction > 0:
        return None
    return float(math.log10(fraction) + n_bits * math.log10(2.0))


def network_key(n_bits, d_model, n_layers, n_heads, init, init_scale, readout, positional,
                seed):
    """What identifies one random network: its whole configuration and seed, not eps.

    eps is left out on purpose (a paired design): each network is evaluated
    at every eps of a study.

    Examples
    --------
    >>> from skxor.papers.kover._networks import network_key
    >>> sorted(network_key(4, 16, 1, 4, "normal", 1.0, "eos", "sinusoidal", 0))[:3]
    ['d_model', 'init', 'init_scale']
    """
    return dict(n_bits=n_bits, d_model=d_model, n_layers=n_layers, n_heads=n_heads, init=init,
                init_scale=init_scale, readout=readout, positional=positional, seed=seed)


def build_network(n_bits, d_model, n_layers, n_heads, layer_norm_eps, init, init_scale, seed,
                  random_state, readout="eos", positional="sinusoidal"):
    """The random network of one cell, on the CPU in eval mode.

    Its weights come from ``key_seed(random_state, **network_key(...))``:
    the whole cell key but eps (:func:`network_key`).

    Examples
    --------
    >>> from skxor.papers.kover._networks import build_network
    >>> a = build_network(4, 8, 1, 2, 0.0, "normal", 1.0, 0, 0)
    >>> b = build_network(6, 8, 1, 2, 0.0, "normal", 1.0, 0, 0)
    >>> c = build_network(4, 8, 1, 2, 1e-5, "normal", 1.0, 0, 0)
    >>> bool((a.unembed.weight == b.unembed.weight).all())  # another N: another network
    False
    >>> bool((a.unembed.weight == c.unembed.weight).all())  # eps is paired
    True
    """
    key = network_key(n_bits, d_model, n_layers, n_heads, init, init_scale, readout,
                      positional, seed)
    return BooleanTransformer(
        n_bits, d_model, n_layers, n_heads, layer_norm_eps=layer_norm_eps, init=init,
        init_scale=init_scale, readout=readout, positional=positional,
        seed=key_seed(random_state, 0, **key),
    ).eval()


def network_cell(
    n_bits, d_model, n_layers, n_heads, layer_norm_eps, init, init_scale, seed,
    random_state, exhaustive_max, n_samples, n_blowup, readout="eos",
    positional="sinusoidal", device="cpu",
):
    """Profile one randomly initialised transformer and diagnose its logit.

    The weights and the sampled strings come from seeds derived from the
    whole cell key (:func:`network_key`: N, D, L, heads, init, scale,
    read-out, positions and the seed index) except eps: every cell is its own
    network, and eps is a declared paired factor -- the same network is
    evaluated at each eps, so that the two can be compared on the same
    weights (:func:`eps_agreement`), and counts over networks pool one eps
    at a time. The weights are drawn on the CPU and then moved to ``device``.

    Returns
    -------
    result : dict
        The profile (:func:`~skxor.papers.kover._profiling.profile_result`), plus
        ``n_zero_found``, ``has_zero``, ``log10_zero_count`` (with
        ``_low``/``_high`` when sampled), ``weights_seed`` (the seed the
        weights were drawn from, as hexadecimal text: one value per distinct
        network),
        ``logit_mean``, ``logit_std``,
        ``logit_offset`` (``|mean| / std``), ``readout_bias``,
        ``sign_changes`` (whether T(x) takes both signs on the diagnostic
        strings), ``ln_inv_std_max``, ``ln_inv_std_median``, ``beta_max``,
        ``beta_bound`` and ``n_parameters``.
    """
    key = network_key(n_bits, d_model, n_layers, n_heads, init, init_scale, readout,
                      positional, seed)
    with single_thread():
        model = build_network(n_bits, d_model, n_layers, n_heads, layer_norm_eps, init,
                              init_scale, seed, random_state, readout, positional
                              ).to(check_device(device))
        weights_seed = model.seed
        g = torch.Generator().manual_seed(key_seed(random_state, 2, **key))
        spins = 1.0 - 2.0 * torch.randint(0, 2, (n_blowup, n_bits), generator=g).float()
        with floor_work("sensitivity profiles and diagnostic evaluations of the networks"):
            prof = profile(model, n_bits, exhaustive_max, n_samples,
                           key_seed(random_state, 1, bits=32, **key))
            with torch.no_grad():
                logits = model(spins).double().cpu()
            inv = torch.cat([v.flatten() for v in model.layer_norm_inverse_std(spins).values()])
            beta = model.layer_norm_beta(spins)
    finite = inv[torch.isfinite(inv)]
    result = profile_result(prof)
    n_zero = int(prof.n_zero)
    mean, std = float(logits.mean()), float(logits.std(unbiased=False))
    result.update(
        # Text: a 63-bit integer would lose digits as a float (a table's column
        # with gaps is float) or in a CSV.
        weights_seed=f"{weights_seed:#x}",
        n_zero_found=n_zero,
        has_zero=bool(n_zero > 0),
        log10_zero_count=log10_count(result["zero_fraction"], n_bits),
        log10_zero_count_low=log10_count(result["zero_fraction_low"], n_bits),
        log10_zero_count_high=log10_count(result["zero_fraction_high"], n_bits),
        logit_mean=mean,
        logit_std=std,
        logit_offset=finite_or_none(abs(mean) / std) if std > 0 else None,
        readout_bias=float(model.unembed.bias.detach().cpu()[0]),
        sign_changes=bool((logits > 0).any() and (logits <= 0).any()),
        ln_inv_std_max=finite_or_none(inv.max()),
        ln_inv_std_median=finite_or_none(finite.median()) if finite.numel() else None,
        beta_max=finite_or_none(beta.max()),
        beta_bound=finite_or_none(model.layer_norm_beta_bound),
        n_parameters=model.n_parameters,
    )
    return result


def network_rows(df):
    """The rows of random networks in a study table (``function == "transformer"``),
    their ``constant`` and ``has_zero`` flags checked (:func:`~skxor.studies.stats.flag_columns`)."""
    return flag_columns(df[df["function"] == TRANSFORMER], ("constant", "has_zero"))


def require_networks(df):
    """ValueError unless ``df`` holds at least one random network."""
    if "function" not in df or not (df["function"] == TRANSFORMER).any():
        raise ValueError(
            "the table holds no random network (no row with function == 'transformer'): "
            "nothing to draw; pass the table random_init_sensitivity or "
            "zero_sensitivity_bound returned.")


def distinct_networks(models):
    """The number of distinct random networks among ``models`` (the unit of every count).

    Each distinct weight draw counts once: the rows of one network at
    several eps (the paired design) count as one.

    Examples
    --------
    >>> from skxor.papers import random_init_sensitivity
    >>> from skxor.papers.kover._networks import distinct_networks
    >>> df = random_init_sensitivity(n_bits=[4, 6], init=["normal"], seeds=2,
    ...                              n_random_functions=0)
    >>> nets = df[df["function"] == "transformer"]
    >>> len(nets), distinct_networks(nets)  # 2 N x 2 eps x 2 seeds; eps paired
    (8, 4)
    """
    if "weights_seed" in models and models["weights_seed"].notna().all():
        return int(models["weights_seed"].nunique())
    keys = [k for k in ("n_bits", "d_model", "n_layers", "n_heads", "init", "init_scale",
                        "readout", "positional", "seed") if k in models]
    return int(models.groupby(keys, dropna=False).ngroups) if len(models) else 0


def eps_agreement(df):
    """eps = 0 against eps > 0 on the same weights.

    Returns
    -------
    agreement : dict or None
        ``same`` (pairs with identical profiles), ``pairs``, and for the
        eps > 0 networks ``eps`` (the smallest positive eps),
        ``inv_std_max`` (largest 1/std seen) and ``beta_max`` (largest beta
        seen); None without both eps = 0 and eps > 0.
    """
    models = network_rows(df)
    keys = ["n_bits", "d_model", "n_layers", "n_heads", "init", "readout", "positional",
            "init_scale", "seed"]
    keys = [k for k in keys if k in models]
    zero = models[models["layer_norm_eps"] == 0]
    positive = models[models["layer_norm_eps"] > 0]
    if not len(zero) or not len(positive):
        return None
    merged = zero.merge(positive, on=keys, suffixes=("_0", "_eps"))
    if not len(merged):
        return None
    eps = float(positive["layer_norm_eps"].min())
    at_eps = positive[positive["layer_norm_eps"] == eps]
    return {
        "same": int((merged["profile_0"] == merged["profile_eps"]).sum()),
        "pairs": len(merged),
        "eps": eps,
        "inv_std_max": float(models["ln_inv_std_max"].max()),
        "beta_max": float(at_eps["beta_max"].max()),
        "beta_bound": float(at_eps["beta_bound"].min()),
    }


def profiled_text(models, sampled_note=""):
    """How the networks of ``models`` were profiled, for a report's first paragraph.

    ``sampled_note`` follows the sampled lengths (when there are any).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.kover._networks import profiled_text
    >>> models = pd.DataFrame({"n_bits": [4, 8, 16, 32], "n_strings": [16, 256, 64, 64],
    ...                        "method": ["exhaustive"] * 2 + ["sampled"] * 2})
    >>> profiled_text(models)
    'all strings up to N = 8 and from 64 uniform strings with their neighbours at N = 16, 32'

    Where one-layer networks are counted exhaustively further than deeper
    ones (their exhaustive path), the limit of each depth is named:

    >>> models = pd.DataFrame({"n_bits": [16, 24, 16, 24], "n_layers": [1, 1, 2, 2],
    ...                        "n_strings": [2 ** 16, 2 ** 24, 2 ** 16, 300],
    ...                        "method": ["exhaustive"] * 3 + ["sampled"]})
    >>> profiled_text(models)
    'all strings up to N = 24 (L = 1), 16 (L = 2) and from 300 uniform strings with their neighbours at N = 24'
    """
    exhaustive = models.loc[models["method"] == "exhaustive"]
    sampled = models.loc[models["method"] == "sampled"]
    text = (f"all strings up to N = {int(exhaustive['n_bits'].max())}" if len(exhaustive)
            else "no N exhaustively")
    if "n_layers" in exhaustive:
        largest = exhaustive.groupby("n_layers")["n_bits"].max()
        if largest.nunique() > 1:
            text = "all strings up to N = " + ", ".join(
                f"{int(n)} (L = {int(layers)})" for layers, n in largest.items())
    if len(sampled):
        lengths = ", ".join(str(int(n)) for n in sorted(sampled["n_bits"].unique()))
        text += (f" and from {int(sampled['n_strings'].max())} uniform strings with their "
                 f"neighbours at N = {lengths}{sampled_note}")
    return text


def paired_eps_text(models):
    """The sentence on eps as a paired factor ("" with one eps): each network counts once.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.kover._networks import paired_eps_text
    >>> models = pd.DataFrame({"layer_norm_eps": [0.0, 1e-5], "weights_seed": ["0x1", "0x1"]})
    >>> paired_eps_text(models)  # doctest: +NORMALIZE_WHITESPACE
    ' Each network is evaluated at every eps (0, 1e-05; a paired design: 2 evaluations of
    1 networks), so every count over networks below is at one eps and counts each network
    once.'
    """
    epsilons = sorted(models["layer_norm_eps"].unique())
    if len(epsilons) < 2:
        return ""
    return (f" Each network is evaluated at every eps ({', '.join(f'{e:g}' for e in epsilons)}"
            f"; a paired design: {len(models)} evaluations of {distinct_networks(models)} "
            "networks), so every count over networks below is at one eps and counts each "
            "network once.")


def share_text(row, column, n_column="networks"):
    """``"k/n = share [low, high]"`` of a summary row's share ``column`` over ``n_column``.

    ``"- (none)"`` over no network.

    Examples
    --------
    >>> from skxor.papers.kover._networks import share_text
    >>> row = {"networks": 4, "constant": 0.75, "constant_low": 0.3, "constant_high": 0.95,
    ...        "nonconstant": 0}
    >>> share_text(row, "constant"), share_text(row, "constant", "nonconstant")
    ('3/4 = 0.75 [0.30, 0.95]', '- (none)')
    """
    n = int(row[n_column])
    if not n:
        return "- (none)"
    return (f"{int(round(row[column] * n))}/{n} = "
            f"{format_interval(row[column], row[f'{column}_low'], row[f'{column}_high'])}")


def finite_or_none(value):
    """JSON-friendly float: NaN and infinities become None."""
    value = float(value)
    return value if math.isfinite(value) else None
