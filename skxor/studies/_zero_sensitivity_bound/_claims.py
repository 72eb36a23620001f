"""The claims the zero sensitivity bound study tests: K5 (Theorem 4.5) of Köver et al. (ICML 2026, arXiv 2606.08768)."""

from .._claims import Claim, count, listed, rate_verdict
from ._summary import bound_verdict

_PAPER, _SOURCE = "Köver et al.", "ICML 2026, arXiv 2606.08768"


def _claim_theorem(table):
    if table.empty:
        return dict(value="no networks", verdict="not tested", ours="-")
    v = bound_verdict(table)
    if not v["networks"]:
        return dict(ours=f"eps = {v['eps']:g}", value=v["text"], units="0 networks",
                    verdict="not tested")
    text, (_, low, high) = count(int(v["meets"]), int(v["networks"]),
                                  "non-constant networks", "clopper-pearson")
    return dict(
        ours=f"eps = {v['eps']:g}, N = {listed(table['n_bits'])}, D = "
        f"{listed(table['d_model'])}, L = {listed(table['n_layers'])}",
        value=f"{v['tested']} of {v['rows']} (D, L, N) rows are not vacuous; there {text} reach "
        "the bound (Clopper-Pearson)",
        units=f"{int(v['networks'])} non-constant networks", verdict=rate_verdict(low, high),
    )


CLAIMS = (
    Claim(id="K5", paper=_PAPER, source=_SOURCE, name="Theorem 4.5",
          paper_setting="random transformers of width D and depth L, large N, eps = 0",
          statement="a random transformer has at least N^((D-1)/(2L) - 5) zero-sensitivity "
          "strings", rule=_claim_theorem),
)
