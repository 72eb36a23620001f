"""The claims the zero sensitivity bound study tests: K5 (Theorem 4.5) of Köver et al. (ICML 2026, arXiv 2606.08768)."""

import numpy as np

from skxor.studies.claims import (Claim, judged, listed, not_tested, rate_part, shown,
                                  units_to_decide)
from ._simulated import bound_met, bound_violated, simulate_bound

_PAPER, _SOURCE = "Köver et al.", "ICML 2026, arXiv 2606.08768"


def _claim_theorem(summary):
    table = summary.table
    if table.empty:
        return dict(value="no networks", verdict="not tested", ours="-")
    summary = summary.per_row
    eps = float(summary["layer_norm_eps"].min())
    rows = summary[(summary["layer_norm_eps"] == eps) & ~summary["vacuous"].astype(bool)
                   & (summary["nonconstant"] > 0)]
    # The screen's rows count their non-constant networks over all strings too.
    exhaustive = rows[rows["method"].isin(["exhaustive", "screened"])]
    sampled = rows[rows["method"] == "sampled"]
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
          rule=_claim_theorem, holds=(bound_met,), counterfactuals=(bound_violated,),
          simulate=simulate_bound),
)
