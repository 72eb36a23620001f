"""The claims the zero sensitivity bound study tests: K5 (Theorem 4.5) of Köver et al. (ICML 2026, arXiv 2606.08768)."""

import math

import numpy as np
import pandas as pd

from skxor.studies.claims import (Claim, judged, listed, not_tested, rate_part, shown,
                                  units_to_decide)

_PAPER, _SOURCE = "Köver et al.", "ICML 2026, arXiv 2606.08768"


def _claim_theorem(summary):
    table = summary.table
    if table.empty:
        return dict(value="no networks", verdict="not tested", ours="-")
    summary = summary.per_row
    eps = float(summary["layer_norm_eps"].min())
    rows = summary[(summary["layer_norm_eps"] == eps) & ~summary["vacuous"].astype(bool)
                   & (summary["nonconstant"] > 0)]
    exhaustive = rows[rows["method"] == "exhaustive"]
    sampled = rows[rows["method"] != "exhaustive"]
    parts = []
    if len(exhaustive):
        largest = int(exhaustive["n_bits"].max())
        for n, group in exhaustive.groupby("n_bits"):
            k, total = int(group["nonconstant_meets"].sum()), int(group["nonconstant"].sum())
            flags = np.r_[np.ones(k, bool), np.zeros(total - k, bool)]
            if n == largest:
                parts.append(rate_part(f"N = {n} (the largest N counted exhaustively)", flags,
                                       np.arange(total), "almost surely",
                                       unit="non-constant networks"))
            else:
                parts.append(shown(f"N = {n}", f"N = {n}: {k}/{total} non-constant networks "
                                   "reach the bound (shown: the theorem speaks of large N)"))
    if len(sampled):
        k, total = int(sampled["nonconstant_meets"].sum()), int(sampled["nonconstant"].sum())
        parts.append(not_tested(
            f"N = {listed(sampled['n_bits'])} (sampled)",
            f"exhaustive counts (two layers beyond N = 20, every network beyond the "
            f"exhaustive path's reach): there the count is the Wilson lower end of the "
            f"zero-sensitivity share times 2^N, which beats any N^c bound once one such "
            f"string is found, so the comparison restates K1 ({k}/{total} non-constant "
            "networks)"))
    if not parts:
        return dict(ours=f"eps = {eps:g}", value="no non-vacuous row with a non-constant "
                    "network", units="0 networks", verdict="not tested")
    return judged(
        parts,
        ours=f"eps = {eps:g}, N = {listed(table['n_bits'])}, D = {listed(table['d_model'])}, "
        f"L = {listed(table['n_layers'])}; rows where the bound lies between 1 and 2^N, "
        "non-constant networks (a constant one reaches every such bound)",
        units=f"{int(rows['nonconstant'].sum())} non-constant networks in "
        f"{len(rows)} non-vacuous (D, L, N) rows",
    )


def _synthetic(meets_share, networks=60, random_state=0):
    """Exhaustive D = 32, L = 1 networks at N = 12 and 14 (bound 10^(10.5 log10 N) is too
    large; D = 16, L = 1: exponent 2.5) whose zero-sensitivity counts meet the bound with
    probability ``meets_share``."""
    rng = np.random.default_rng(random_state)
    rows = []
    for n in (12, 14):
        bound = math.log10(n) * ((16 - 1) / 2 - 5)
        for seed in range(networks):
            log10_count = bound + (0.5 if rng.random() < meets_share else -0.5)
            rows.append(dict(function="transformer", n_bits=n, d_model=16, n_layers=1,
                             layer_norm_eps=0.0, seed=seed, method="exhaustive",
                             constant=False, has_zero=True, n_zero_found=10 ** log10_count,
                             log10_zero_count=log10_count, log10_zero_count_low=np.nan,
                             log10_zero_count_high=np.nan, n_strings=2 ** n,
                             zero_fraction=10 ** log10_count / 2 ** n,
                             weights_seed=f"{n}-{seed}"))
    return pd.DataFrame(rows)


def bound_met():
    """Every non-constant network reaches the bound."""
    return _synthetic(1.0)


def bound_violated():
    """30% of non-constant networks fall short of the bound at the largest N."""
    return _synthetic(0.7)


CLAIMS = (
    Claim(id="K5", min_units=units_to_decide("almost surely"),
          paper=_PAPER, source=_SOURCE, name="Theorem 4.5",
          paper_setting="random transformers of width D and depth L, large N, eps = 0",
          statement="a random transformer has at least N^((D-1)/(2L) - 5) zero-sensitivity "
          "strings",
          strength="almost surely, for large N (asymptotic in N)",
          regime="the largest N at which the bound is non-vacuous (between 1 and 2^N) and the "
          "strings are counted exhaustively; non-constant networks",
          rule_text="the share of non-constant networks reaching the bound at that N, judged "
          "'almost surely'; smaller N shown; sampled N not tested (the comparison restates K1)",
          contradicted_by="more than 1% of non-constant networks short of the bound at the "
          "largest exhaustive N (upper end below 0.99)",
          rule=_claim_theorem, holds=(bound_met,), counterfactuals=(bound_violated,)),
)
