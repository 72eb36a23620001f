"""The claims of the two papers against the stored runs: one row per claim, with a verdict.

Each claim function reads the stored tables (see :mod:`skxor.studies._publish`)
and returns the paper's setting and ours, the claim in our words, the
measured value with its interval and independent units, and a verdict by the
rule stated on the claims page; :func:`claims_table` collects them.
"""

import math

import numpy as np
import pandas as pd

from .._utils._files import naming_the_table
from ..nn import attention_names, get_attention
from ._stats import clopper_pearson_interval, format_interval, wilson_interval

__all__ = ["CLAIMS", "claims_table", "rate_verdict"]

#: Pooled over d, runs of one seed share key prefixes (see POOLED_OVER_D_CAVEAT).
_SHARED_KEYS = ("runs of one seed at different d share key prefixes, so the interval "
                "takes the seeds as the independent units")

#: Threshold of the verdict rule for rates.
THRESHOLD = 0.5
VERDICTS = ("reproduced", "reproduced in part", "not reproduced", "not tested")


# -- rendering helpers ---------------------------------------------------------------


def _count_text(k, n, unit, low, high):
    """``"k/n unit = rate [low, high]"`` and the numbers behind it."""
    return f"{k}/{n} {unit} = {format_interval(k / n, low, high)}", (k / n, low, high)


def _count(k, n, unit, method="wilson"):
    if not n:
        return f"0 {unit}", (math.nan, math.nan, math.nan)
    low, high = (wilson_interval if method == "wilson" else clopper_pearson_interval)(k, n)
    return _count_text(k, n, unit, low, high)


def _pooled_count(k, row, low="success_low", high="success_high"):
    """A rate pooled over d and m, with the seed-clustered interval its table holds."""
    return _count_text(k, int(row.runs), "runs", float(getattr(row, low)),
                       float(getattr(row, high)))


def _pooled_units(row, each=""):
    return (f"{int(row.runs)} runs{each} over {int(row.seeds)} seeds (seeds x d x m; "
            f"{_SHARED_KEYS})")


def rate_verdict(low, high, claimed=True, threshold=THRESHOLD):
    """The verdict on a claimed success (or, ``claimed=False``, a claimed failure) rate.

    A claimed success is *reproduced* when the interval's lower end is at
    least ``threshold``, *not reproduced* when its upper end is below it,
    and *reproduced in part* when the interval straddles it; a claimed
    failure mirrors this. No data: *not tested*.

    Examples
    --------
    >>> from skxor.studies._claims import rate_verdict
    >>> rate_verdict(0.6, 0.9), rate_verdict(0.3, 0.7), rate_verdict(0.0, 0.06, claimed=False)
    ('reproduced', 'reproduced in part', 'reproduced')
    """
    if not (np.isfinite(low) and np.isfinite(high)):
        return "not tested"
    if not claimed:
        low, high = 1 - high, 1 - low
    if low >= threshold:
        return "reproduced"
    if high < threshold:
        return "not reproduced"
    return "reproduced in part"


def worst(verdicts):
    """The weakest of several verdicts (a claim holds only as far as each part holds)."""
    verdicts = [v for v in verdicts if v != "not tested"] or ["not tested"]
    order = ["not reproduced", "reproduced in part", "reproduced", "not tested"]
    if "not reproduced" in verdicts and "reproduced" in verdicts:
        return "reproduced in part"
    return min(verdicts, key=order.index)


def _values(series):
    values = sorted({v.item() if hasattr(v, "item") else v for v in series.dropna()})
    return ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in values)


def _preset(entry):
    record = entry["record"]
    if record is None:
        return "run record missing"
    preset = record["preset"]
    text = preset if record.get("matches_preset") else f"{preset} with overrides"
    if record.get("earlier_version"):
        text += f" (from an earlier version: {record['earlier_version']})"
    return text


# -- the claims ---------------------------------------------------------------------


def _one_step_best(table, n_steps=1):
    from ._one_step._summary import best_steps
    from ._one_step._summary import checked as _cells

    cells = _cells(table)
    if "step_length" not in cells:
        cells["step_length"] = float("nan")
    population = cells[cells["n"] == 0]
    data = population if len(population) else cells
    data = data[data["n_steps"] == n_steps]
    if data.empty:
        return data, data
    best = best_steps(data)
    return data, best[best["best"]]


def _one_step_setting(data):
    kind = "exact population steps" if (data["n"] == 0).all() else (
        f"steps on n = {_values(data['n'])} samples")
    return (f"{kind}, d = {_values(data['d'])}, m = {_values(data['m'])}, "
            f"{data['seed'].nunique()} seeds, step lengths {_values(data['step_length'])}")


def _softmax_claim(store, column, meaning, what, interval):
    """A claim on softmax after one step at its best step length: ``column`` counted."""
    data, best = _one_step_best(store["table"])
    row = best[best["attention"] == "softmax"]
    if row.empty:
        return dict(value="no softmax one-step rows", verdict="not tested", ours="-")
    r = row.iloc[0]
    text, (_, low, high) = _pooled_count(int(getattr(r, column)), r, *interval)
    return dict(
        ours=f"{_one_step_setting(data)}; {meaning}",
        value=f"softmax, one step of {r.step_length:g} (its best): {what} {text}",
        units=_pooled_units(r),
        verdict=rate_verdict(low, high),
    )


def _claim_one_step(store):
    return _softmax_claim(store, "successes", "success = test accuracy >= 0.99",
                          "success in", ("success_low", "success_high"))


def _claim_heads(store):
    return _softmax_claim(
        store, "specialised",
        "specialised = the heads' most-attended positions are the two hidden bits",
        "heads on the two hidden bits in", ("specialised_low", "specialised_high"))


def _claim_linear_erf(store):
    data, best = _one_step_best(store["table"])
    parts, verdicts, units = [], [], None
    # The unnormalised types: the paper's linear and erf (the registry's others too).
    for attention in [a for a in attention_names() if not get_attention(a).normalised]:
        row = best[best["attention"] == attention]
        if row.empty:
            continue
        r = row.iloc[0]
        text, (_, low, high) = _pooled_count(int(r.successes), r)
        parts.append(f"{attention} (best step {r.step_length:g}): {text}")
        verdicts.append(rate_verdict(low, high, claimed=False))
        units = r
    if not parts:
        return dict(value="no linear or erf rows", verdict="not tested", ours="-")
    return dict(
        ours=_one_step_setting(data) + "; this library's linear and erf definitions",
        value="; ".join(parts) + " succeed after one step",
        units=_pooled_units(units, " each"), verdict=worst(verdicts),
    )


def _claim_parameters(store):
    from ._parameter_scaling import parameter_slopes
    from ._stats import format_slope

    table = store["table"]
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
        ours=f"d = {_values(table['d'])}; needed = the smallest size at which >= 80% of its "
        f"{seeds} seeds reach 99% test accuracy",
        value=value, units=f"{seeds} seeds per size, {a['n_d']} values of d",
        verdict=verdict,
    )


def _claim_samples(store):
    from ._sample_complexity import fit_exponents, like_for_like

    table = like_for_like(store["table"])
    fits = fit_exponents(table)
    row = fits[fits["model"] == "transformer_one_step"]
    if row.empty or not np.isfinite(row.iloc[0]["exponent"]):
        return dict(value="no exponent for one step", verdict="not tested", ours="-")
    r = row.iloc[0]
    if r["high"] < 4:
        verdict = "reproduced"
    elif r["low"] > 4:
        verdict = "not reproduced"
    else:
        verdict = "reproduced in part"
    censored = int(r["left_censored"] + r["right_censored"])
    return dict(
        ours=f"one full-batch step on n samples, d = {_values(table['d'])}, n from "
        f"{int(table['n'].min())} to {int(table['n'].max())} on a grid; n* = samples from "
        f"which test accuracy stays >= {float(table['target'].iloc[0]):g}",
        value=f"exponent a of n* ~ d^a: {format_interval(r['exponent'], r['low'], r['high'])} "
        f"(maximum likelihood, {censored} censored curves); the proof's sufficient bound grows as d^4",
        units=f"{int(r['n_points'])} learning curves ({int(r['n_seeds'])} seeds x "
        f"{int(r['n_d'])} d)",
        verdict=verdict,
    )


def _claim_k_sparse(store):
    from ._k_sparse._summary import _steps, pooled_success

    table = store["table"]
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
        text, (_, low, high) = _pooled_count(int(r.successes), r)
        parts.append(f"{r.init}, k = {r.k}: {text}")
        verdicts.append(rate_verdict(low, high))
    return dict(
        ours=f"k heads, {longest} normalised population steps, d = {_values(steps['d'])}, "
        f"m = {_values(steps['m'])}, {steps['seed'].nunique()} seeds",
        value="; ".join(parts) or "no k > 2 rows",
        units=(_pooled_units(next(rows.itertuples()), " per k") if len(rows)
               else "no runs"),
        verdict=worst(verdicts),
    )


def _random_pool(table):
    nets = table[table["function"] == "transformer"] if "function" in table else table.iloc[:0]
    if nets.empty:
        return nets
    return nets[nets["layer_norm_eps"] == nets["layer_norm_eps"].min()]


def _claim_zero_strings(store):
    from ._networks import distinct_networks

    pool = _random_pool(store["table"])
    if pool.empty:
        return dict(value="no random networks", verdict="not tested", ours="-")
    constant = pool["constant"].astype(bool)
    nonconstant = pool[~constant]
    k = int(nonconstant["has_zero"].astype(bool).sum())
    text, (_, low, high) = _count(k, len(nonconstant), "non-constant networks")
    const_text, _ = _count(int(constant.sum()), len(pool), "networks")
    return dict(
        ours=f"recognizer, eps = {pool['layer_norm_eps'].min():g}, N = {_values(pool['n_bits'])}, "
        f"inits {_values(pool['init'])}, {pool['seed'].nunique()} seeds per setting",
        value=f"a zero-sensitivity string in {text}; {const_text} are constant (every string "
        "has sensitivity 0)",
        units=f"{distinct_networks(pool)} distinct networks",
        verdict=rate_verdict(low, high),
    )


def _claim_random_functions(store):
    table = store["table"]
    control = table[table["function"] == "random function"] if "function" in table \
        else table.iloc[:0]
    if control.empty:
        return dict(value="no random-function control", verdict="not tested", ours="-")
    wins, total = int(control["with_zero"].sum()), int(control["n_functions"].sum())
    text, (rate, low, high) = _count(wins, total, "functions")
    limit = 1 - math.exp(-1)
    if low <= limit <= high:
        verdict = "reproduced"
    elif abs(rate - limit) < 0.05:
        verdict = "reproduced in part"
    else:
        verdict = "not reproduced"
    return dict(
        ours=f"uniformly random functions, N = {_values(control['n_bits'])}, exhaustive",
        value=f"with a zero-sensitivity string: {text} (the limit 1 - 1/e = {limit:.3f})",
        units=f"{total} functions", verdict=verdict,
    )


def _claim_training(store):
    from ._training._summary import learned_up_to
    from ._training._summary import series_columns as _series_columns
    from ._training._summary import with_model_setting as _with_model_setting

    table = _with_model_setting(store["table"])
    reach = learned_up_to(table)
    series = _series_columns(table)
    parts, verdicts = [], []
    claimed = {"PARITY": False, "MAJORITY": True}
    for _, r in reach.iterrows():
        label = r["function"] + " (" + ", ".join(str(r[c]) for c in series) + ")"
        text, (_, low, high) = _count(int(r["learned"]), int(r["seeds"]), "seeds")
        parts.append(f"{label} at N = {int(r['largest_n_tried'])}: learned in {text}")
        if r["function"] in claimed:
            verdicts.append(rate_verdict(low, high, claimed=claimed[r["function"]]))
    return dict(
        ours=f"N = {_values(table['n_bits'])}, model settings {_values(table['model_setting'])}, "
        f"{table['seed'].nunique()} seeds; learned = accuracy >= 0.99",
        value="; ".join(parts),
        units=f"{table['seed'].nunique()} seeds per function, N and setting",
        verdict=worst(verdicts),
    )


def _claim_eps(store):
    from ._networks import eps_agreement

    agreement = eps_agreement(store["table"])
    if agreement is None:
        return dict(value="no paired eps = 0 and eps > 0 networks", verdict="not tested",
                    ours="-")
    text, (_, low, high) = _count(int(agreement["same"]), int(agreement["pairs"]), "networks")
    return dict(
        ours=f"the same networks at eps = 0 and eps = {agreement['eps']:g} (a paired design)",
        value=f"identical functions in {text}; largest layer-norm 1/std seen "
        f"{agreement['inv_std_max']:.3g} against 1/sqrt(eps) = "
        f"{1 / math.sqrt(agreement['eps']):.3g}",
        units=f"{int(agreement['pairs'])} networks", verdict=rate_verdict(low, high),
    )


def _claim_theorem(store):
    from ._zero_sensitivity_bound import bound_verdict

    table = store["table"]
    if table.empty:
        return dict(value="no networks", verdict="not tested", ours="-")
    v = bound_verdict(table)
    if not v["networks"]:
        return dict(ours=f"eps = {v['eps']:g}", value=v["text"], units="0 networks",
                    verdict="not tested")
    text, (_, low, high) = _count(int(v["meets"]), int(v["networks"]),
                                  "non-constant networks", "clopper-pearson")
    return dict(
        ours=f"eps = {v['eps']:g}, N = {_values(table['n_bits'])}, D = "
        f"{_values(table['d_model'])}, L = {_values(table['n_layers'])}",
        value=f"{v['tested']} of {v['rows']} (D, L, N) rows are not vacuous; there {text} reach "
        "the bound (Clopper-Pearson)",
        units=f"{int(v['networks'])} non-constant networks", verdict=rate_verdict(low, high),
    )


#: The claims of the two papers: (id, paper, study, short name, the paper's setting,
#: the claim in our words, the function measuring it).
CLAIMS = [
    ("H1", "Han & Ghoshdastidar", "one_step", "one-step learning of sparse XOR",
     "one-layer two-head softmax transformer, frozen keys on the sphere, trainable "
     "queries, one gradient step on the population or on n = Omega(d^4 polylog d) samples",
     "one gradient step from the antisymmetric start learns y = -x_i x_j with high "
     "probability", _claim_one_step),
    ("H2", "Han & Ghoshdastidar", "parameter_scaling", "polylog vs Omega(d) parameters",
     "m = O(polylog d) keys per head against two-layer feed-forward networks",
     "the transformer needs O(polylog d) trainable parameters, a feed-forward network "
     "Omega(d)", _claim_parameters),
    ("H3", "Han & Ghoshdastidar", "one_step", "linear and erf attention fail",
     "the same model with linear or erf attention",
     "replacing softmax by linear or erf attention, one step does not learn the task",
     _claim_linear_erf),
    ("H4", "Han & Ghoshdastidar", "one_step", "head specialisation",
     "the two heads after one step", "after the step each head attends to one of the two "
     "hidden bits", _claim_heads),
    ("H5", "Han & Ghoshdastidar", "sample_complexity", "the sample-size remark",
     "one step on n samples; the proof's sufficient n grows as d^4 polylog d",
     "the proof's sample bound is sufficient, not necessary: far fewer samples suffice in "
     "practice", _claim_samples),
    ("H6", "Han & Ghoshdastidar", "k_sparse", "k-sparse parity with k heads",
     "k heads for a k-sparse parity (the extension beyond XOR)",
     "with k heads, gradient steps learn a parity of k hidden bits", _claim_k_sparse),
    ("K1", "Köver et al.", "random_init_sensitivity", "zero-sensitivity strings at random "
     "initialisation", "random transformer recognizers (eos read-out), uniform, Gaussian "
     "and Xavier initialisations",
     "randomly initialised transformers compute functions with zero-sensitivity strings",
     _claim_zero_strings),
    ("K2", "Köver et al.", "random_init_sensitivity", "the random-function control",
     "uniformly random Boolean functions",
     "a uniformly random function has a zero-sensitivity string with probability "
     "about 1 - 1/e", _claim_random_functions),
    ("K3", "Köver et al.", "training_sensitivity", "PARITY and FIRST hard, MAJORITY learnable",
     "transformers trained by gradient descent as N grows",
     "functions without zero-sensitivity strings (PARITY; FIRST only asymptotically) are "
     "not learned at large N, MAJORITY is (verdict on PARITY and MAJORITY; FIRST is shown)",
     _claim_training),
    ("K4", "Köver et al.", "random_init_sensitivity", "layer-norm eps = 0",
     "layer norm without stabiliser (eps = 0) as well as with eps > 0",
     "the analysis holds with eps = 0: the stabiliser does not change what random networks "
     "compute", _claim_eps),
    ("K5", "Köver et al.", "zero_sensitivity_bound", "Theorem 4.5",
     "random transformers of width D and depth L, large N, eps = 0",
     "a random transformer has at least N^((D-1)/(2L) - 5) zero-sensitivity strings",
     _claim_theorem),
]


def claims_table(store):
    """One row per claim of the two papers, every number computed from ``store``.

    Parameters
    ----------
    store : dict
        :func:`load_store`'s result.

    Returns
    -------
    claims : pandas.DataFrame
        ``id``, ``paper``, ``claim``, ``paper_setting``, ``statement``,
        ``ours``, ``value``, ``units``, ``verdict``, ``study``, ``preset``.

    Examples
    --------
    >>> from skxor.studies._claims import claims_table
    >>> claims = claims_table({})
    >>> len(claims), set(claims["verdict"])
    (11, {'not tested'})
    """
    rows = []
    for cid, paper, study, name, setting, statement, measure in CLAIMS:
        row = dict(id=cid, paper=paper, claim=name, paper_setting=setting, statement=statement,
                   study=study, ours="-", value="no stored run", units="-",
                   verdict="not tested", preset="-")
        if study in store and store[study]["table"].empty:
            row.update(value="the stored table holds no rows", preset=_preset(store[study]))
        elif study in store:
            with naming_the_table(study, store[study]["path"]):
                row.update(measure(store[study]))
            row["preset"] = _preset(store[study])
        rows.append(row)
    return pd.DataFrame(rows)
