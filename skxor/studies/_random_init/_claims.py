"""The claims the random init study tests: K1, K2 and K4 of Köver et al. (ICML 2026, arXiv 2606.08768)."""

import math

from .._claims import Claim, count, listed, rate_verdict
from .._networks import distinct_networks, eps_agreement

_PAPER, _SOURCE = "Köver et al.", "ICML 2026, arXiv 2606.08768"


def _random_pool(table):
    nets = table[table["function"] == "transformer"] if "function" in table else table.iloc[:0]
    if nets.empty:
        return nets
    return nets[nets["layer_norm_eps"] == nets["layer_norm_eps"].min()]


def _claim_zero_strings(table):
    pool = _random_pool(table)
    if pool.empty:
        return dict(value="no random networks", verdict="not tested", ours="-")
    constant = pool["constant"].astype(bool)
    nonconstant = pool[~constant]
    k = int(nonconstant["has_zero"].astype(bool).sum())
    text, (_, low, high) = count(k, len(nonconstant), "non-constant networks")
    const_text, _ = count(int(constant.sum()), len(pool), "networks")
    return dict(
        ours=f"recognizer, eps = {pool['layer_norm_eps'].min():g}, N = {listed(pool['n_bits'])}, "
        f"inits {listed(pool['init'])}, {pool['seed'].nunique()} seeds per setting",
        value=f"a zero-sensitivity string in {text}; {const_text} are constant (every string "
        "has sensitivity 0)",
        units=f"{distinct_networks(pool)} distinct networks",
        verdict=rate_verdict(low, high),
    )


def _claim_random_functions(table):
    control = table[table["function"] == "random function"] if "function" in table \
        else table.iloc[:0]
    if control.empty:
        return dict(value="no random-function control", verdict="not tested", ours="-")
    wins, total = int(control["with_zero"].sum()), int(control["n_functions"].sum())
    text, (rate, low, high) = count(wins, total, "functions")
    limit = 1 - math.exp(-1)
    if low <= limit <= high:
        verdict = "reproduced"
    elif abs(rate - limit) < 0.05:
        verdict = "reproduced in part"
    else:
        verdict = "not reproduced"
    return dict(
        ours=f"uniformly random functions, N = {listed(control['n_bits'])}, exhaustive",
        value=f"with a zero-sensitivity string: {text} (the limit 1 - 1/e = {limit:.3f})",
        units=f"{total} functions", verdict=verdict,
    )


def _claim_eps(table):
    agreement = eps_agreement(table)
    if agreement is None:
        return dict(value="no paired eps = 0 and eps > 0 networks", verdict="not tested",
                    ours="-")
    text, (_, low, high) = count(int(agreement["same"]), int(agreement["pairs"]), "networks")
    return dict(
        ours=f"the same networks at eps = 0 and eps = {agreement['eps']:g} (a paired design)",
        value=f"identical functions in {text}; largest layer-norm 1/std seen "
        f"{agreement['inv_std_max']:.3g} against 1/sqrt(eps) = "
        f"{1 / math.sqrt(agreement['eps']):.3g}",
        units=f"{int(agreement['pairs'])} networks", verdict=rate_verdict(low, high),
    )


CLAIMS = (
    Claim(id="K1", paper=_PAPER, source=_SOURCE,
          name="zero-sensitivity strings at random initialisation",
          paper_setting="random transformer recognizers (eos read-out), uniform, Gaussian "
          "and Xavier initialisations",
          statement="randomly initialised transformers compute functions with "
          "zero-sensitivity strings", rule=_claim_zero_strings),
    Claim(id="K2", paper=_PAPER, source=_SOURCE, name="the random-function control",
          paper_setting="uniformly random Boolean functions",
          statement="a uniformly random function has a zero-sensitivity string with "
          "probability about 1 - 1/e", rule=_claim_random_functions),
    Claim(id="K4", paper=_PAPER, source=_SOURCE, name="layer-norm eps = 0",
          paper_setting="layer norm without stabiliser (eps = 0) as well as with eps > 0",
          statement="the analysis holds with eps = 0: the stabiliser does not change what "
          "random networks compute", rule=_claim_eps),
)
