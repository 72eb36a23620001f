"""The claims the random init study tests: K1 of Köver et al. (ICML 2026, arXiv 2606.08768),
the library's random-function control (K2) and its numerical check of the layer-norm
stabiliser (K4)."""

import math

import numpy as np

from skxor.studies.claims import (CONFIDENCE, Claim, Part, holm, judged, listed, rate_part, shown,
                                  units_to_decide)
from .._networks import distinct_networks
from ._rules_reference import EXACT_MAX_BITS, MONTE_CARLO_FUNCTIONS, reference
from skxor.studies.stats import difference_interval, format_interval
from ._simulated import (control_at_the_limit, control_exact, eps_changes_a_third, eps_changes_nothing,
                     networks_lose_zero_strings, networks_with_zero_strings, simulate_eps,
                     simulate_random_functions, simulate_zero_strings)

_PAPER, _SOURCE = "Köver et al.", "ICML 2026, arXiv 2606.08768"
_LIBRARY = "the library (a control, not a statement of Köver et al.)"

#: K2: the measured share and the exact finite-N probability agree when the
#: 95% interval of their difference lies within +-MARGIN.
MARGIN = 0.05


def _control_part(n_bits, k, n):
    ref_k, ref_n, exact = reference(n_bits)
    interval = difference_interval(k, n, ref_k, ref_n, exact_reference=exact)
    low, high = interval(CONFIDENCE)
    if low > 0 or high < 0:
        verdict = "not reproduced"
    elif -MARGIN <= low and high <= MARGIN:
        verdict = "reproduced"
    else:
        verdict = "inconclusive"
    how = "exact" if exact else f"Monte Carlo, {ref_n} functions"
    return Part(
        name=f"N = {n_bits}", verdict=verdict,
        interval=interval, contradicts=lambda lo, hi: lo > 0 or hi < 0,
        text=f"N = {n_bits}: {k}/{n} = {k / n:.3f} against P = {ref_k / ref_n:.3f} ({how}); "
        f"difference {format_interval(k / n - ref_k / ref_n, low, high, 3)}")


def _random_pool(table):
    nets = table[table["function"] == "transformer"] if "function" in table else table.iloc[:0]
    if nets.empty:
        return nets
    return nets[nets["layer_norm_eps"] == nets["layer_norm_eps"].min()]


def _flag(series):
    return series.astype(str).str.lower().isin(["true", "1", "1.0"])


def _claim_zero_strings(summary):
    table = summary.table
    pool = _random_pool(table)
    if pool.empty:
        return dict(value="no random networks", verdict="not tested", ours="-")
    pool = pool.assign(constant=_flag(pool["constant"]), has_zero=_flag(pool["has_zero"]))
    nonconstant = pool[~pool["constant"]]
    parts = [rate_part(f"N = {n}", g["has_zero"], np.arange(len(g)), "with high probability",
                       unit="non-constant networks")
             for n, g in nonconstant.groupby("n_bits")]
    sampled = pool[pool["method"] != "exhaustive"] if "method" in pool else pool.iloc[:0]
    parts.append(shown("constant", (
        f"{int(pool['constant'].sum())}/{len(pool)} networks constant (every string has "
        "sensitivity 0; at the sampled lengths N = "
        f"{listed(sampled['n_bits']) if len(sampled) else '-'} 'constant' means no other "
        "value among the strings sampled)")))
    return judged(
        parts,
        ours=f"recognizer, eps = {pool['layer_norm_eps'].min():g}, N = {listed(pool['n_bits'])}, "
        f"inits {listed(pool['init'])}, {pool['seed'].nunique()} seeds per setting; strings "
        f"sampled at N = {listed(sampled['n_bits']) if len(sampled) else '-'} (a zero-sensitivity "
        "string found there is one), every string counted at the other N",
        units=f"{distinct_networks(pool)} distinct networks; per N the non-constant ones",
    )


def _within_margin(parts):
    """K2's parts after Holm's adjustment over the N: a part whose difference from 0 the
    adjustment does not confirm is reproduced where its 95% interval lies within
    +-MARGIN (an equivalence shown; unadjusted, one N in twenty would exclude 0 by
    chance, so 7 N could reach "reproduced" only 70% of the time)."""
    out = []
    for part, adjusted in zip(parts, holm(parts)):
        if part.verdict == "not reproduced" and adjusted.verdict != "not reproduced":
            low, high = part.interval(CONFIDENCE)
            if -MARGIN <= low and high <= MARGIN:
                part = Part(name=part.name, text=part.text, verdict="reproduced",
                            interval=part.interval, contradicts=part.contradicts)
        out.append(part)
    return out


def _claim_random_functions(summary):
    table = summary.table
    control = table[table["function"] == "random function"] if "function" in table \
        else table.iloc[:0]
    if control.empty:
        return dict(value="no random-function control", verdict="not tested", ours="-")
    parts = _within_margin([_control_part(int(r.n_bits), int(r.with_zero), int(r.n_functions))
                            for r in control.sort_values("n_bits").itertuples()])
    parts.append(shown("limit", f"large-N limit 1 - 1/e = {1 - math.exp(-1):.3f} (the "
                       "count of zero-sensitivity strings has mean 1 at every N)"))
    return judged(
        parts,
        ours=f"uniformly random functions, N = {listed(control['n_bits'])}, exhaustive; "
        f"reference exact for N <= {EXACT_MAX_BITS}, Monte Carlo above",
        units=f"{int(control['n_functions'].sum())} functions "
        f"({int(control['n_functions'].iloc[0])} per N)")


def _claim_eps(summary):
    agreement = summary.agreement
    if agreement is None:
        return dict(value="no paired eps = 0 and eps > 0 networks", verdict="not tested",
                    ours="-")
    same, pairs = int(agreement["same"]), int(agreement["pairs"])
    part = rate_part("identical functions", [True] * same + [False] * (pairs - same),
                     np.arange(pairs), "with high probability", unit="networks")
    return judged(
        [part,
         shown("scale", f"largest layer-norm 1/std seen {agreement['inv_std_max']:.3g} "
               f"against 1/sqrt(eps) = {1 / math.sqrt(agreement['eps']):.3g} (eps this "
               "small cannot change what these networks compute)"),
         shown("Köver et al.'s eps > 0 statement",
               "Köver et al.'s eps > 0 statement: not this check; claim K6 (the flip-effect "
               "study) tests it")],
        ours=f"the same networks at eps = 0 and eps = {agreement['eps']:g} (a paired design)",
        units=f"{pairs} networks")


CLAIMS = (
    Claim(id="K1", min_units=units_to_decide("with high probability"),
          paper=_PAPER, source=_SOURCE,
          name="zero-sensitivity strings at random initialisation",
          paper_setting="random transformer recognizers (eos read-out), uniform, Gaussian "
          "and Xavier initialisations",
          statement="randomly initialised transformers compute functions with "
          "zero-sensitivity strings",
          strength="with high probability over the initialisation",
          regime="every N of the grid; the non-constant networks (a constant one has only "
          "zero-sensitivity strings)",
          rule_text="per N, the share of non-constant networks with a zero-sensitivity "
          "string, judged 'with high probability'; Holm over the N",
          contradicted_by="at some N, the share's upper end below 0.9",
          rule=_claim_zero_strings, holds=(networks_with_zero_strings,),
          counterfactuals=(networks_lose_zero_strings,), simulate=simulate_zero_strings),
    Claim(id="K2", paper=_LIBRARY, source="this library's reference for K1", kind="control",
          name="the random-function control",
          paper_setting="uniformly random Boolean functions",
          statement="a uniformly random function on N bits has a zero-sensitivity string "
          "with the exact finite-N probability (0.557 at N = 4, tending to 1 - 1/e)",
          strength="an exact probability per N (a check of the counting)",
          regime="each N of the control",
          rule_text=f"per N, the 95% interval of the measured share minus the exact (or Monte "
          f"Carlo, {MONTE_CARLO_FUNCTIONS} functions) probability: not reproduced when it "
          f"excludes 0 after Holm's adjustment over the N; reproduced when it lies within "
          f"+-{MARGIN:g} and no adjusted difference from 0 is found; otherwise inconclusive",
          contradicted_by="a measured share that differs from the finite-N probability (for "
          "example the large-N limit at N = 4)",
          rule=_claim_random_functions, holds=(control_exact,),
          counterfactuals=(control_at_the_limit,), simulate=simulate_random_functions,
          units_parameter="n_random_functions"),
    Claim(id="K4", paper="the library (a numerical check)", source="this library",
          kind="numerical check",
          name="layer-norm eps = 1e-5 against eps = 0 (a numerical check)",
          paper_setting="layer norm without stabiliser (eps = 0) and with eps = 1e-5",
          statement="at these networks' scales, eps = 1e-5 leaves the computed function "
          "unchanged; Köver et al.'s eps > 0 statement (uniformly Lipschitz, non-constant "
          "functions unrecognisable as N grows) is not this check",
          strength="with high probability over the networks (a numerical check)",
          regime="the networks of the grid, paired at eps = 0 and eps = 1e-5",
          rule_text="the share of paired networks with identical functions, judged 'with "
          "high probability'",
          contradicted_by="eps = 1e-5 changing the function of more than 10% of networks",
          rule=_claim_eps, holds=(eps_changes_nothing,),
          counterfactuals=(eps_changes_a_third,), simulate=simulate_eps),
)
