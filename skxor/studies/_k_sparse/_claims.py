"""The claims the k sparse study tests: H6 of Han & Ghoshdastidar (arXiv 2502.07553v2)."""

from .._claims import Claim, listed, pooled_count, pooled_units, rate_verdict, worst
from ._summary import _steps, pooled_success

_PAPER, _SOURCE = "Han & Ghoshdastidar", "arXiv 2502.07553v2"


def _claim_k_sparse(table):
    steps = _steps(table) if "part" in table else table.iloc[:0]
    if steps.empty:
        return dict(value="no step runs", verdict="not tested", ours="-")
    pooled = pooled_success(steps)
    if (pooled["n"] == 0).any():
        pooled, steps = pooled[pooled["n"] == 0], steps[steps["n"] == 0]
    longest = pooled["n_steps"].max()
    rows = pooled[(pooled["n_steps"] == longest) & (pooled["k"] > 2)]
    parts, verdicts = [], []
    for r in rows.sort_values(["init", "k"]).itertuples():
        text, (_, low, high) = pooled_count(int(r.successes), r)
        parts.append(f"{r.init}, k = {r.k}: {text}")
        verdicts.append(rate_verdict(low, high))
    return dict(
        ours=f"k heads, {longest} normalised population steps, d = {listed(steps['d'])}, "
        f"m = {listed(steps['m'])}, {steps['seed'].nunique()} seeds",
        value="; ".join(parts) or "no k > 2 rows",
        units=(pooled_units(next(rows.itertuples()), " per k") if len(rows)
               else "no runs"),
        verdict=worst(verdicts),
    )


CLAIMS = (
    Claim(id="H6", paper=_PAPER, source=_SOURCE, name="k-sparse parity with k heads",
          paper_setting="k heads for a k-sparse parity (the extension beyond XOR)",
          statement="with k heads, gradient steps learn a parity of k hidden bits",
          rule=_claim_k_sparse),
)
