"""The claims the parameter scaling study tests: H2 of Han & Ghoshdastidar (arXiv 2502.07553v2).

The transformer side is judged by a model comparison of the trainable
parameters needed against explicit reference curves over the measured d
(:func:`reference_fits`); the FFNN side is parameter counting (its trainable
count is ``w (d + 2) + 1`` whatever is learned), shown with its budget, not
judged.
"""

import json

import numpy as np
import pandas as pd

from .._claims import Claim, Part, judged, listed, shown

_PAPER, _SOURCE = "Han & Ghoshdastidar", "arXiv 2502.07553v2"

#: The reference curves f(d) of "parameters needed = c f(d)": polylogarithmic
#: ones (the claim) and small powers (its alternatives).
POLYLOG = {"log d": np.log, "log^2 d": lambda d: np.log(d) ** 2}
POWERS = {"d^0.25": lambda d: d ** 0.25, "d^0.5": lambda d: d ** 0.5, "d": lambda d: d}

#: AIC difference (Burnham & Anderson 2002: >= 2, substantial support) by which
#: the best curve of one family must beat the best of the other.
AIC_MARGIN = 2.0

_MODEL = "transformer_population_one_step"


def reference_fits(d, params):
    """Each reference curve fitted to the parameters needed: its AIC (one scale parameter).

    Least squares of ``log params - log f(d)`` on a constant (the log of the
    scale c), Gaussian errors: the AIC is ``n log(RSS / n) + 2`` for every curve,
    so differences are ``n log(RSS_a / RSS_b)``.

    Returns
    -------
    aic : dict of str to float

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.studies._parameter_scaling._claims import reference_fits
    >>> d = np.array([16, 64, 256, 1024, 4096])
    >>> aic = reference_fits(d, 3 * np.log(d) ** 2)
    >>> min(aic, key=aic.get)
    'log^2 d'
    """
    d, params = np.asarray(d, float), np.asarray(params, float)
    aic = {}
    for name, f in {**POLYLOG, **POWERS}.items():
        residual = np.log(params) - np.log(f(d))
        rss = max(float(np.sum((residual - residual.mean()) ** 2)), 1e-300)
        aic[name] = d.size * np.log(rss / d.size) + 2
    return aic


def _comparison_part(d, params):
    if d.size < 3:
        return Part(name="transformer", text=f"transformer: {d.size} values of d with a size "
                    "needed (a comparison needs 3)", verdict="not tested")
    aic = reference_fits(d, params)
    best_log = min(POLYLOG, key=aic.get)
    best_power = min(POWERS, key=aic.get)
    delta = aic[best_power] - aic[best_log]
    verdict = ("reproduced" if delta >= AIC_MARGIN
               else "not reproduced" if delta <= -AIC_MARGIN else "inconclusive")
    fits = ", ".join(f"{name} {aic[name] - min(aic.values()):.1f}" for name in aic)
    return Part(name="transformer", verdict=verdict, text=(
        f"transformer (one population step), trainable parameters needed "
        f"{', '.join(f'{v:g}' for v in params)} at d = {listed(pd.Series(d.astype(int)))}: "
        f"AIC above the best curve {fits}; best polylog ({best_log}) against best power "
        f"({best_power}): AIC difference {delta:+.1f}"))


def _ffnn_part(table):
    rows = table[table["model"] == "ffnn"].sort_values("d")
    if rows.empty:
        return []
    setting = json.loads(rows["setting"].iloc[0]) if "setting" in rows else {}
    budget = (f"{setting.get('ffnn_steps', '?')} steps of batch "
              f"{setting.get('ffnn_batch_size', '?')}, learning rate "
              f"{setting.get('ffnn_learning_rate', '?')}")
    widths = ", ".join(f"{int(s)}" if np.isfinite(s) else "none" for s in rows["size"])
    parts = [shown("FFNN", (
        f"trained FFNN (parameter counting, not a test: its trainable count is w (d + 2) + 1, "
        f"linear in d whatever is learned): widths needed {widths} at d = "
        f"{listed(rows['d'])} (budget: {budget}, widths {listed(pd.Series(setting.get('ffnn_width', [])))})"))]
    rf = table[table["model"] == "ffnn_random_features"].sort_values("d")
    if len(rf):
        reached = ", ".join(f"d = {int(r.d)}: {'width ' + str(int(r.size)) if r.reached else 'none'}"
                            for r in rf.itertuples())
        parts.append(shown("random features", (
            f"random-features FFNN, width needed {reached} (budget: widths up to "
            f"{max(setting.get('rf_width', [0]) or [0])}; a failure there is the budget's)")))
    return parts


def _claim_parameters(table):
    rows = table[(table["model"] == _MODEL) & table["reached"].astype(bool)].sort_values("d")
    if not (table["model"] == _MODEL).any() or not (table["model"] == "ffnn").any():
        return dict(value="the one-step transformer or the FFNN is missing",
                    verdict="not tested", ours="-")
    d, params = rows["d"].to_numpy(float), rows["params"].to_numpy(float)
    seeds = int(table["seeds"].min())
    return judged(
        [_comparison_part(d, params), *_ffnn_part(table)],
        ours=f"d = {listed(table['d'])}; needed = the smallest size at which >= 80% of its "
        f"{seeds} seeds reach 99% test accuracy; references {', '.join([*POLYLOG, *POWERS])} "
        "(parameters = c f(d), one scale each)",
        units=f"{seeds} seeds per size, {d.size} values of d for the transformer",
    )


def _synthetic(needed):
    """A parameter-scaling table whose transformer needs ``needed(d)`` trainable parameters."""
    d = np.array([16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192])
    rows = [dict(d=int(x), model=_MODEL, size=needed(x) / 2, params=float(needed(x)),
                 frozen=float(x * needed(x) / 2), reached=True, seeds=10) for x in d]
    rows += [dict(d=int(x), model="ffnn", size=4.0, params=4.0 * (x + 2) + 1, frozen=0.0,
                  reached=True, seeds=10) for x in d[:5]]
    return pd.DataFrame(rows)


def needs_log_d():
    """Needed parameters grow like 4 log d (the claim)."""
    return _synthetic(lambda d: np.round(4 * np.log(d)))


def needs_sqrt_d():
    """Needed parameters grow like sqrt(d) (a power, not a polylog)."""
    return _synthetic(lambda d: np.round(2 * np.sqrt(d)))


def needs_fourth_root_d():
    """Needed parameters grow like d^0.25."""
    return _synthetic(lambda d: np.round(8 * d ** 0.25))


CLAIMS = (
    Claim(id="H2", paper=_PAPER, source=_SOURCE, name="polylog vs Omega(d) parameters",
          paper_setting="m = O(polylog d) keys per head against two-layer feed-forward "
          "networks",
          statement="the transformer needs O(polylog d) trainable parameters, a feed-forward "
          "network Omega(d)",
          strength="asymptotic in d (an order of growth; the FFNN side is a lower bound by "
          "parameter counting)",
          regime="the measured d (16 to 8 192 for the transformer); sizes up to the grid's "
          "largest",
          rule_text="model comparison of the transformer's trainable parameters needed "
          f"against c f(d) for f in {', '.join([*POLYLOG, *POWERS])}: reproduced when the best "
          f"polylog curve beats the best power by an AIC difference >= {AIC_MARGIN:g}, not "
          "reproduced when a power beats it by as much; the FFNN side is shown as parameter "
          "counting",
          contradicted_by="parameters needed growing like d^0.25 or d^0.5 over the measured d",
          rule=_claim_parameters, holds=(needs_log_d,),
          counterfactuals=(needs_sqrt_d, needs_fourth_root_d)),
)
