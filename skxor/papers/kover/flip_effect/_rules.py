"""The claim the flip-effect study tests: Köver et al.'s eps > 0 prediction (K6)."""

import numpy as np
import pandas as pd

from skxor.studies.claims import Claim, Part, judged, listed, shown
from skxor.studies.stats import format_count, format_interval
from ._summary import ONE_OVER_N, change_slope, slope_verdict

_PAPER, _SOURCE = "Köver et al.", "ICML 2026, arXiv 2606.08768"


def _slope_text(fit):
    return (f"slope {format_interval(fit['slope'], fit['low'], fit['high'])} over "
            f"{fit['networks']} networks")


def _slope_part(name, group, column="flip_change_max"):
    """A part judged on the slope of log(change) on log(N) (:func:`slope_verdict`)."""
    fit = change_slope(group["n_bits"], group[column])
    return Part(
        name=name, text=f"{name}: {_slope_text(fit)}",
        verdict=slope_verdict(fit["low"], fit["high"]),
        interval=lambda confidence: tuple(
            change_slope(group["n_bits"], group[column], confidence)[k] for k in ("low", "high")),
        contradicts=lambda low, high: low > ONE_OVER_N,
    )


def _eps_prediction(summary):
    table = summary.table
    table = table[np.isfinite(table["flip_change_max"])]
    parts = []
    for (eps, d, layers), group in table.groupby(["layer_norm_eps", "d_model", "n_layers"]):
        name = f"eps = {eps:g}, D = {d}, L = {layers}"
        if eps > 0:
            parts.append(_slope_part(name, group))
            typical = change_slope(group["n_bits"], group["flip_change_median"])
            parts.append(shown(f"{name}, typical change",
                               f"{name}, typical (median) change: {_slope_text(typical)}"))
        else:
            fit = change_slope(group["n_bits"], group["flip_change_max"])
            parts.append(shown(name, f"{name} (no bound claimed; shown): {_slope_text(fit)}"))
    if "ln_inv_std_max" in table:
        bind = table[table["layer_norm_eps"] > 0].groupby("layer_norm_eps")["ln_inv_std_max"].max()
        if len(bind):
            parts.append(shown("where eps binds", "where eps binds: largest layer-norm "
                               "1/sqrt(var + eps) seen " + ", ".join(
                                   f"{v:.3g} at eps = {e:g} (cap 1/sqrt(eps) = {e ** -0.5:.3g})"
                                   for e, v in bind.items())))
    largest = table[table["n_bits"] == table["n_bits"].max()]
    for eps, group in largest.groupby("layer_norm_eps"):
        flags = group["constant"].astype(bool)
        name = (f"constant on the sampled strings at N = {int(group['n_bits'].iloc[0])}, "
                f"eps = {eps:g}")
        parts.append(shown(name, f"{name}: "
                           f"{format_count(int(flags.sum()), len(flags), 'networks')}"))
    n_networks = int(table.groupby(["n_bits", "d_model", "n_layers", "init", "seed"]).ngroups)
    return judged(
        parts,
        ours=(f"random recognizers (eos read-out, sinusoidal positions, init "
              f"{listed(table['init'])}), N = {listed(table['n_bits'])}, D = "
              f"{listed(table['d_model'])}, L = {listed(table['n_layers'])}, eps = "
              f"{listed(table['layer_norm_eps'])} (the same networks at each eps), "
              f"{listed(table['n_samples'])} strings per network and all N flips of each, "
              "evaluated exactly in float64; change = the size of T(x with one bit flipped) - T(x), "
              "its largest value per network judged"),
        units=f"{n_networks} distinct networks, each its own weights; per (eps, D, L) the "
              "networks over N are the points of the fit",
    )


# Synthetic tables for the rule's tests: 20 networks per (N, eps), changes C N^a.
def _synthetic(exponent):
    rng = np.random.default_rng(1)
    rows = []
    for eps in (0.0, 0.01):
        for n in (8, 16, 32, 64, 128, 256):
            for seed in range(20):
                change = 0.5 * n ** exponent * np.exp(0.3 * rng.standard_normal())
                rows.append(dict(n_bits=n, d_model=16, n_layers=1, init="uniform",
                                 layer_norm_eps=eps, seed=seed, n_samples=32,
                                 flip_change_max=change, flip_change_median=change / 10,
                                 constant=False, logit_std=1.0))
    return pd.DataFrame(rows)


def _shrinking_as_one_over_n():
    return _synthetic(ONE_OVER_N)


def _not_shrinking():
    return _synthetic(0.0)


def _growing():
    return _synthetic(0.3)


def _shrinking_as_one_over_sqrt_n():
    return _synthetic(-0.5)


def _shrinking_faster():
    return _synthetic(-2.0)


CLAIMS = (
    Claim(
        id="K6", paper=_PAPER, source=_SOURCE,
        name="the eps > 0 prediction",
        paper_setting="transformers with layer norm stabilised by eps > 0 (uniformly "
                      "Lipschitz: the cumulative blow-up is bounded independently of N)",
        statement="with eps > 0 the effect of flipping one bit on the output vanishes as "
                  "O(1/N), so non-constant functions become unrecognizable as N grows",
        rule=_eps_prediction,
        strength="asymptotic in N (an O(1/N) bound on the change)",
        regime="eps > 0, per (eps, D, L) over the measured N, read as if they were large "
               "(the paper's 'sufficiently large N' is not quantified: the O(1/N) constant "
               "grows with the range of the attention scores, so it may lie far beyond the "
               "measured N)",
        rule_text="per (eps, D, L) with eps > 0, the least-squares slope of log10 of each "
                  "network's largest change on log10 N (t interval, networks as units): "
                  "reproduced when the interval lies below 0 and reaches -1 (shrinking at "
                  "a rate O(1/N) allows), not reproduced when its lower end is at or above "
                  "0 (no shrinking over the measured N), inconclusive otherwise; Holm over "
                  "the parts; eps = 0 shown",
        contradicted_by="the largest change under one flip not shrinking with N at some eps > 0 "
                        "(a slope interval at or above 0)",
        counterfactuals=(_not_shrinking, _growing),
        holds=(_shrinking_as_one_over_n,),
    ),
)
