"""The claims the parameter scaling study tests: H2 of Han & Ghoshdastidar (arXiv 2502.07553v2)."""

import numpy as np

from .._claims import Claim, listed
from .._stats import format_slope
from ._summary import parameter_slopes

_PAPER, _SOURCE = "Han & Ghoshdastidar", "arXiv 2502.07553v2"


def _claim_parameters(table):
    slopes = parameter_slopes(table)
    ours_model, theirs = "transformer_population_one_step", "ffnn"
    if ours_model not in slopes or theirs not in slopes:
        return dict(value="the one-step transformer or the FFNN is missing", verdict="not tested",
                    ours="-")
    a, b = slopes[ours_model], slopes[theirs]
    value = (f"log-log slope of trainable parameters needed against d: transformer, one "
             f"population step {format_slope(a)}; trained FFNN {format_slope(b)}")
    if not (np.isfinite(a["slope"]) and np.isfinite(b["slope"])):
        verdict = "not tested"
    elif a["slope"] >= b["slope"]:
        verdict = "not reproduced"
    elif np.isfinite(a.get("high", np.nan)) and np.isfinite(b.get("low", np.nan)) \
            and a["high"] < b["low"]:
        verdict = "reproduced"
    else:
        verdict = "reproduced in part"
    seeds = int(table["seeds"].min())
    return dict(
        ours=f"d = {listed(table['d'])}; needed = the smallest size at which >= 80% of its "
        f"{seeds} seeds reach 99% test accuracy",
        value=value, units=f"{seeds} seeds per size, {a['n_d']} values of d",
        verdict=verdict,
    )


CLAIMS = (
    Claim(id="H2", paper=_PAPER, source=_SOURCE, name="polylog vs Omega(d) parameters",
          paper_setting="m = O(polylog d) keys per head against two-layer feed-forward "
          "networks",
          statement="the transformer needs O(polylog d) trainable parameters, a feed-forward "
          "network Omega(d)", rule=_claim_parameters),
)
