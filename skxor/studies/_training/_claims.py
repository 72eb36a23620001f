"""The claims the training study tests: K3 of Köver et al. (ICML 2026, arXiv 2606.08768)."""

from .._claims import Claim, count, listed, rate_verdict, worst
from ._summary import learned_up_to, series_columns, with_model_setting

_PAPER, _SOURCE = "Köver et al.", "ICML 2026, arXiv 2606.08768"


def _claim_training(table):
    table = with_model_setting(table)
    reach = learned_up_to(table)
    series = series_columns(table)
    parts, verdicts = [], []
    claimed = {"PARITY": False, "MAJORITY": True}
    for _, r in reach.iterrows():
        label = r["function"] + " (" + ", ".join(str(r[c]) for c in series) + ")"
        text, (_, low, high) = count(int(r["learned"]), int(r["seeds"]), "seeds")
        parts.append(f"{label} at N = {int(r['largest_n_tried'])}: learned in {text}")
        if r["function"] in claimed:
            verdicts.append(rate_verdict(low, high, claimed=claimed[r["function"]]))
    return dict(
        ours=f"N = {listed(table['n_bits'])}, model settings {listed(table['model_setting'])}, "
        f"{table['seed'].nunique()} seeds; learned = accuracy >= 0.99",
        value="; ".join(parts),
        units=f"{table['seed'].nunique()} seeds per function, N and setting",
        verdict=worst(verdicts),
    )


CLAIMS = (
    Claim(id="K3", paper=_PAPER, source=_SOURCE,
          name="PARITY and FIRST hard, MAJORITY learnable",
          paper_setting="transformers trained by gradient descent as N grows",
          statement="functions without zero-sensitivity strings (PARITY; FIRST only "
          "asymptotically) are not learned at large N, MAJORITY is (verdict on PARITY and "
          "MAJORITY; FIRST is shown)", rule=_claim_training),
)
