"""The claims the random init study tests: K1 of Köver et al. (ICML 2026, arXiv 2606.08768),
the library's random-function control (K2) and its numerical check of the layer-norm
stabiliser (K4)."""

import functools
import math

import numpy as np
import pandas as pd

from skxor.studies.claims import (CONFIDENCE, Claim, Part, holm, judged, listed, rate_part,
                                  shown, units_to_decide)
from .._networks import distinct_networks
from skxor.sensitivity import random_function_zero_strings
from skxor.studies.stats import difference_interval, format_interval

_PAPER, _SOURCE = "Köver et al.", "ICML 2026, arXiv 2606.08768"
_LIBRARY = "the library (a control, not a statement of Köver et al.)"

#: K2: the measured share and the exact finite-N probability agree when the
#: 95% interval of their difference lies within +-MARGIN.
MARGIN = 0.05

#: Largest N whose functions are all enumerated for K2's reference (2^16 of them).
EXACT_MAX_BITS = 4

#: Monte Carlo budget of K2's reference above EXACT_MAX_BITS: 64-bit words of
#: truth tables per N, and at most MONTE_CARLO_FUNCTIONS functions.
MONTE_CARLO_WORDS, MONTE_CARLO_FUNCTIONS = 1 << 22, 1 << 17

#: K2's references for N = 5..16, kept: :func:`zero_string_probability` with
#: MONTE_CARLO_FUNCTIONS = 131 072 functions at every N (no word budget) and
#: random_state 0, as ``N: (functions with a zero-sensitivity string, functions)``
#: (about a minute to compute; a slow test recomputes them). Publishing reads
#: these instead of drawing 10^5 functions of 2^16 strings each time.
KEPT_REFERENCES = {
    5: (75000, 131072), 6: (76970, 131072), 7: (78555, 131072), 8: (79954, 131072),
    9: (80881, 131072), 10: (81953, 131072), 11: (82157, 131072), 12: (82553, 131072),
    13: (82659, 131072), 14: (82833, 131072), 15: (82850, 131072), 16: (82751, 131072),
}


@functools.lru_cache(maxsize=None)
def zero_string_probability(n_bits, random_state=0):
    """P(a uniformly random function on N bits has a zero-sensitivity string).

    :func:`skxor.sensitivity.random_function_zero_strings` at this claim's
    budgets: exact for N <= :data:`EXACT_MAX_BITS`, above a Monte Carlo over
    :data:`MONTE_CARLO_WORDS` 64-bit words of truth tables (at most
    :data:`MONTE_CARLO_FUNCTIONS` functions), cached.

    Examples
    --------
    >>> from skxor.papers.kover.random_init._rules import zero_string_probability
    >>> zero_string_probability(4)
    (36506, 65536, True)
    """
    return random_function_zero_strings(
        n_bits, exact_max_bits=EXACT_MAX_BITS, max_words=MONTE_CARLO_WORDS,
        max_functions=MONTE_CARLO_FUNCTIONS, random_state=random_state)


def reference(n_bits):
    """K2's reference at N bits: :func:`zero_string_probability`'s ``(wins, functions,
    exact)``, read from :data:`KEPT_REFERENCES` where it is kept.

    Examples
    --------
    >>> from skxor.papers.kover.random_init._rules import reference
    >>> reference(4), reference(16)
    ((36506, 65536, True), (82751, 131072, False))
    """
    if int(n_bits) in KEPT_REFERENCES:
        return (*KEPT_REFERENCES[int(n_bits)], False)
    return zero_string_probability(int(n_bits))


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
    table, agreement = summary.table, summary.agreement
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


# -- tables on which the claim holds, and on which it is wrong ------------------------


def _networks(share_with_zero, n_bits=(4, 8, 16), per_n=60, random_state=0):
    rng = np.random.default_rng(random_state)
    rows = [dict(function="transformer", n_bits=n, init="normal", layer_norm_eps=0.0,
                 seed=seed, method="exhaustive", constant=False,
                 has_zero=bool(rng.random() < share_with_zero(n)))
            for n in n_bits for seed in range(per_n)]
    return pd.DataFrame(rows)


def networks_with_zero_strings():
    """Every non-constant network has a zero-sensitivity string."""
    return _networks(lambda n: 1.0)


def networks_lose_zero_strings():
    """At N = 16 only half the networks have a zero-sensitivity string."""
    return _networks(lambda n: 0.5 if n == 16 else 1.0)


def _control(shares):
    return pd.DataFrame([dict(function="random function", n_bits=n, n_functions=4000,
                              with_zero=round(4000 * s)) for n, s in shares.items()])


def control_exact():
    """Random functions at the exact probability per N (0.557 at N = 4)."""
    return _control({n: zero_string_probability(n)[0] / zero_string_probability(n)[1]
                     for n in (4, 6, 8)})


def control_at_the_limit():
    """Random functions at the large-N limit 1 - 1/e at every N (wrong at N = 4)."""
    return _control({n: 1 - math.exp(-1) for n in (4, 6, 8)})


def _paired(same_share, pairs=400):
    rows = []
    for seed in range(pairs):
        for eps in (0.0, 1e-5):
            profile = "[1.0]" if eps == 0 or seed < same_share * pairs else "[0.5]"
            rows.append(dict(function="transformer", n_bits=8, d_model=16, n_layers=1,
                             n_heads=2, init="normal", readout="eos", positional="sinusoidal",
                             init_scale=1.0, seed=seed, layer_norm_eps=eps, profile=profile,
                             ln_inv_std_max=4.0, beta_max=1.0, beta_bound=2.0))
    return pd.DataFrame(rows)


def eps_changes_nothing():
    """eps = 1e-5 leaves every network's function unchanged."""
    return _paired(1.0)


def eps_changes_a_third():
    """eps = 1e-5 changes the function of a third of the networks."""
    return _paired(2 / 3)


# -- the claims' power: their tables simulated at a design ----------------------------

#: The stored full run's networks at eps = 0 per N (5 schemes, D in {16, 64}, L in
#: {1, 2}, 20 seeds: 400 per N): ``N: (non-constant, with a zero-sensitivity string
#: among them)`` (a test recomputes them from the stored table).
STORED_NETWORKS = 400
STORED_NONCONSTANT = {4: (66, 63), 6: (62, 62), 8: (71, 71), 10: (81, 81), 12: (66, 65),
                      14: (58, 58), 16: (73, 73), 24: (55, 55), 32: (60, 60), 64: (48, 48)}

#: K1's alternative: the share of non-constant networks with a zero-sensitivity string
#: at every N from ALTERNATIVE_FROM on.
ALTERNATIVE_SHARE, ALTERNATIVE_FROM = 0.7, 16

#: The stored full run's control: functions per N, at every N up to CONTROL_MAX
#: (tests/unit/test_kover_power.py reads them from the stored table).
STORED_FUNCTIONS, CONTROL_MAX = 10_000, 16

#: K2's alternative: the measured share off the reference by this much at every N.
ALTERNATIVE_SHIFT = 0.03


def _nonconstant_share(n_bits):
    if n_bits in STORED_NONCONSTANT:
        return STORED_NONCONSTANT[n_bits][0] / STORED_NETWORKS
    return (sum(nc for nc, _ in STORED_NONCONSTANT.values())
            / (STORED_NETWORKS * len(STORED_NONCONSTANT)))


def _with_zero_share(n_bits):
    nonconstant, with_zero = STORED_NONCONSTANT.get(n_bits, (1, 1))
    return with_zero / nonconstant


def simulate_zero_strings(design, truth, rng):
    """K1's table at ``design``: its networks at the smallest eps (the rule's pool).

    A network (a row of ``design`` with a ``d_model``) is non-constant with the
    stored run's share at its N (:data:`STORED_NONCONSTANT`, 12-20% per N; the
    pooled 16% at an N it does not hold); it is profiled over every string up to
    the design's ``exhaustive_max`` (16, the stored run's, when the design does
    not say) and from sampled strings beyond.

    * ``truth="holds"``: a non-constant network has a zero-sensitivity string with
      the stored run's share at its N (63/66 = 0.95 at N = 4, 65/66 at N = 12,
      every one at the other N).
    * ``truth="alternative"``: the paper is wrong at the longer strings: from N =
      :data:`ALTERNATIVE_FROM` = 16 on, only :data:`ALTERNATIVE_SHARE` = 70% of the
      non-constant networks have one (the stored shares below).
    """
    nets = design[design["d_model"].notna()] if "d_model" in design else design
    nets = nets[nets["layer_norm_eps"] == nets["layer_norm_eps"].min()]
    n_bits = nets["n_bits"].astype(int).to_numpy()
    exhaustive_max = (nets["exhaustive_max"].fillna(CONTROL_MAX).to_numpy()
                      if "exhaustive_max" in nets else CONTROL_MAX)
    nonconstant = rng.random(len(nets)) < np.array([_nonconstant_share(n) for n in n_bits])
    share = np.array([ALTERNATIVE_SHARE if truth == "alternative" and n >= ALTERNATIVE_FROM
                      else _with_zero_share(n) for n in n_bits])
    has_zero = ~nonconstant | (rng.random(len(nets)) < share)
    return pd.DataFrame(dict(
        function="transformer", n_bits=n_bits, layer_norm_eps=nets["layer_norm_eps"].to_numpy(),
        init=nets["init"].to_numpy(), seed=nets["seed"].to_numpy(),
        method=np.where(n_bits <= exhaustive_max, "exhaustive", "sampled"),
        constant=~nonconstant, has_zero=has_zero,
        weights_seed=[f"{i:#x}" for i in range(len(nets))]))


def _control_design(design):
    """The control's cells of ``design``: ``(N, functions)``. A planned design names them
    (``n_functions``); a stored run's design holds one row per N without network axes,
    the control's at every N up to CONTROL_MAX, of STORED_FUNCTIONS functions."""
    if "n_functions" in design:
        cells = design[design["n_functions"].notna()]
        return [(int(n), int(f)) for n, f in zip(cells["n_bits"], cells["n_functions"])]
    rows = design[design["d_model"].isna()] if "d_model" in design else design
    return [(int(n), STORED_FUNCTIONS) for n in sorted(rows["n_bits"].unique())
            if n <= CONTROL_MAX]


def simulate_random_functions(design, truth, rng):
    """K2's table at ``design``: the control's rows, one per N.

    At each N the truth is the reference probability P_N (:func:`reference`) drawn
    again from its own uncertainty (exact for N <= 4; a Monte Carlo over 131 072
    functions above, so P_N ~ Normal(its estimate, its standard error)); the
    measured count is Binomial(functions, share).

    * ``truth="holds"``: the share is P_N (the counting is right).
    * ``truth="alternative"``: the share is P_N + :data:`ALTERNATIVE_SHIFT` = 0.03 at
      every N (a counting error of 3 percentage points, within the +-0.05 a single
      share could pass as agreement).
    """
    rows = []
    for n_bits, functions in _control_design(design):
        ref_k, ref_n, exact = reference(n_bits)
        p = ref_k / ref_n
        if not exact:
            p = float(np.clip(rng.normal(p, math.sqrt(p * (1 - p) / ref_n)), 0, 1))
        if truth == "alternative":
            p = min(p + ALTERNATIVE_SHIFT, 1.0)
        rows.append(dict(function="random function", n_bits=n_bits, n_functions=functions,
                         with_zero=int(rng.binomial(functions, p))))
    return pd.DataFrame(rows)


#: K4: the stored full run's networks whose function is the same at eps = 0 and at
#: eps = 1e-5, of the pairs (a test recomputes them).
STORED_PAIRS = (3945, 4000)

#: K4's alternative: the share of networks whose function eps = 1e-5 leaves unchanged.
ALTERNATIVE_SAME = 0.85


def simulate_eps(design, truth, rng):
    """K4's table at ``design``: each network at its two eps (the pairs the rule reads).

    * ``truth="holds"``: eps = 1e-5 leaves a network's function unchanged with the
      stored run's share, 3945/4000 = 0.986.
    * ``truth="alternative"``: it changes the function of 15% of the networks
      (:data:`ALTERNATIVE_SAME` = 0.85; the claim's contradiction is more than 10%).
    """
    nets = design[design["d_model"].notna()] if "d_model" in design else design
    keys = [c for c in ("n_bits", "d_model", "n_layers", "init", "seed") if c in nets]
    pairs = nets[keys].drop_duplicates().reset_index(drop=True)
    eps = sorted(nets["layer_norm_eps"].unique())
    if len(eps) < 2:
        return nets.assign(function="transformer")
    same = STORED_PAIRS[0] / STORED_PAIRS[1] if truth == "holds" else ALTERNATIVE_SAME
    identical = rng.random(len(pairs)) < same
    zero = pairs.assign(layer_norm_eps=eps[0], profile="[1.0]")
    positive = pairs.assign(layer_norm_eps=eps[1], profile=np.where(identical, "[1.0]", "[0.5]"))
    return pd.concat([zero, positive], ignore_index=True).assign(
        function="transformer", ln_inv_std_max=4.0, beta_max=1.0, beta_bound=2.0)


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
