"""The claim the flip-effect study tests: Köver et al.'s eps > 0 prediction (K6)."""

import numpy as np

from skxor.studies.claims import Claim, Part, judged, listed, shown
from skxor.studies.stats import format_count, format_interval
from ._summary import ONE_OVER_N, TAIL_N, change_slope, eps_fit, slope_rule_text
from ._simulated import (_flat_then_one_over_n, _growing, _not_shrinking, _shrinking_as_one_over_n,
                     _shrinking_as_one_over_sqrt_n, _shrinking_faster)

_PAPER, _SOURCE = "Köver et al.", "ICML 2026, arXiv 2606.08768"


def _slope_text(fit):
    return (f"slope {format_interval(fit['slope'], fit['low'], fit['high'])} over "
            f"{fit['networks']} networks")


def _slope_part(name, group, column="flip_change_max"):
    """A part judged on the slope of log(change) on log(N) over the networks where eps binds,
    at the largest N (:func:`~._summary.eps_fit`)."""
    fit = eps_fit(group, column)
    if fit["verdict"] == "not tested":
        why = ("the largest layer-norm 1/sqrt(var + eps) per network (ln_inv_std_max), to "
               "tell where eps binds" if not np.isfinite(fit["inv_std_max"]) else
               f"networks where eps binds: the largest layer-norm 1/sqrt(var + eps) seen is "
               f"{fit['inv_std_max']:.3g}, below {fit['cap']:.3g} = 1/sqrt(2 eps), where eps "
               "reaches the smallest variance, so these networks compute nearly as at eps = 0 "
               "and cannot test what eps > 0 adds")
        return Part(name=name, text=f"{name}: not tested (needs {why})", verdict="not tested")
    rows = fit["rows"]
    return Part(
        name=name, text=(f"{name}, eps binding in {fit['binding']}/{len(group)} networks, "
                         f"fitted at N = {listed(rows['n_bits'])}: {_slope_text(fit)}"),
        verdict=fit["verdict"],
        interval=lambda confidence: tuple(
            change_slope(rows["n_bits"], rows[column], confidence)[k] for k in ("low", "high")),
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
            every = change_slope(group["n_bits"], group["flip_change_max"])
            typical = change_slope(group["n_bits"], group["flip_change_median"])
            parts.append(shown(f"{name}, every network", (
                f"{name}, every network over every N (shown): largest change "
                f"{_slope_text(every)}; typical (median) change {_slope_text(typical)}")))
        else:
            fit = change_slope(group["n_bits"], group["flip_change_max"])
            parts.append(shown(name, f"{name} (no bound claimed; shown): {_slope_text(fit)}"))
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
              f"its largest value per network judged, over the networks where eps binds "
              f"(eps at least the smallest layer-norm variance met), at the {TAIL_N} largest N"),
        units=f"{n_networks} distinct networks, each its own weights; per (eps, D, L) the "
              "networks over N are the points of the fit",
    )


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
        rule_text="per (eps, D, L) with eps > 0, over the networks where eps binds (their "
                  "largest layer-norm 1/sqrt(var + eps) at or above 1/sqrt(2 eps): eps at "
                  "least the smallest variance met) at the "
                  f"{TAIL_N} largest N among them, the least-squares slope of log10 of each "
                  "network's largest change on log10 N (t interval, networks as units): "
                  f"{slope_rule_text()}; not tested where eps binds in no network (those "
                  "compute nearly as at eps = 0); Holm over the parts; eps = 0 and the fit "
                  "over every network and N shown",
        contradicted_by="the largest change under one flip shrinking more slowly than 1/N "
                        f"(or not at all) over the {TAIL_N} largest N, in networks where eps "
                        f"binds (a slope interval above {ONE_OVER_N:g})",
        counterfactuals=(_not_shrinking, _growing, _shrinking_as_one_over_sqrt_n),
        holds=(_shrinking_as_one_over_n, _flat_then_one_over_n, _shrinking_faster),
    ),
)
