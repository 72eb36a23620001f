"""The flip-effect study's summary: the change per N, its trend against N, constant networks."""

import math

import numpy as np
import pandas as pd

from sklearn.utils import Bunch

from skxor.studies.stats import loglog_slope_interval, rate_columns
from skxor._utils._docstrings import fill_doc, study_examples

#: The per-network columns a table must hold.
COLUMNS = ("n_bits", "d_model", "n_layers", "layer_norm_eps", "seed", "flip_change_max",
           "flip_change_median", "constant")

#: The slope of log(change) on log(N) that an O(1/N) decay has.
ONE_OVER_N = -1.0

#: The slope below which the change shrinks at all.
NO_SHRINKING = 0.0

#: The claim's fit reads the TAIL_N largest N only: the statement is asymptotic, so a
#: change flat at small N that falls as 1/N from some N on must not read as slower.
TAIL_N = 3


def _groups(df, by):
    return df.groupby(by, sort=True, dropna=False)


def summarize_flip_effect(df):
    """Per (eps, D, L, N): the change under one flip over the networks, and the constant share.

    Returns
    -------
    summary : pandas.DataFrame
        ``networks``; the median over the networks of each network's largest
        change (``max_median``, with its quartiles ``max_q25``,
        ``max_q75``) and of its typical change (``typical_median``,
        ``typical_q25``, ``typical_q75``: of each network's median change); the
        median output scale ``logit_std``; the share of networks constant on
        their sampled strings (``constant``, Wilson ``constant_low``,
        ``constant_high``).

    Examples
    --------
    >>> from skxor.papers.kover.flip_effect import flip_effect, summarize_flip_effect
    >>> df = flip_effect(n_bits=[8, 32], layer_norm_eps=[0.1], seeds=3, n_samples=4)
    >>> summarize_flip_effect(df)[["n_bits", "networks"]].values.tolist()
    [[8, 3], [32, 3]]
    """
    by = ["layer_norm_eps", "d_model", "n_layers", "n_bits"]
    rows = []
    for key, group in _groups(df, by):
        biggest, typical = group["flip_change_max"], group["flip_change_median"]
        rows.append({
            **dict(zip(by, key)), "networks": len(group),
            "max_median": float(biggest.median()), "max_q25": float(biggest.quantile(0.25)),
            "max_q75": float(biggest.quantile(0.75)),
            "typical_median": float(typical.median()),
            "typical_q25": float(typical.quantile(0.25)),
            "typical_q75": float(typical.quantile(0.75)),
            "logit_std": float(group["logit_std"].median()),
            **rate_columns(group["constant"], "constant", rate=""),
        })
    return pd.DataFrame(rows)


def change_slope(n_bits, change, confidence=0.95):
    """Least-squares slope of log10(change) on log10(N), networks as the units, with its
    t interval at ``confidence``.

    Returns
    -------
    fit : dict
        ``slope``, ``low``, ``high``, ``networks`` (points used: a change of 0
        has no logarithm and is left out, counted in ``zero``).

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.papers.kover.flip_effect import change_slope
    >>> n = np.repeat([8, 16, 32, 64], 5)
    >>> noise = np.exp(0.1 * np.random.default_rng(0).standard_normal(n.size))
    >>> fit = change_slope(n, 2.0 / n * noise)
    >>> round(fit["slope"], 1), fit["low"] < -1 < fit["high"], fit["networks"]
    (-1.0, True, 20)
    """
    fit = loglog_slope_interval(n_bits, change, confidence)
    return {"slope": fit["slope"], "low": fit["low"], "high": fit["high"],
            "networks": fit["n_points"], "zero": fit["n_dropped"]}


def flip_slopes(df, column="flip_change_max"):
    """Per (eps, D, L): the slope of log10 of ``column`` on log10 N over the networks.

    Examples
    --------
    >>> from skxor.papers.kover.flip_effect import flip_effect, flip_slopes
    >>> df = flip_effect(n_bits=[8, 16, 32], layer_norm_eps=[0.1], seeds=2, n_samples=4)
    >>> fits = flip_slopes(df)
    >>> list(fits.columns[:4]), len(fits)
    (['layer_norm_eps', 'd_model', 'n_layers', 'slope'], 1)
    """
    by = ["layer_norm_eps", "d_model", "n_layers"]
    rows = [{**dict(zip(by, key)), **change_slope(group["n_bits"], group[column])}
            for key, group in _groups(df, by)]
    return pd.DataFrame(rows, columns=[*by, "slope", "low", "high", "networks", "zero"])


def slope_verdict(low, high):
    """Köver et al.'s eps > 0 prediction on one slope interval of log(change) on log(N).

    O(1/N) is a slope of :data:`ONE_OVER_N` (-1) or steeper. ``"reproduced"``
    when the interval reaches -1 (lower end at or below it) and lies below
    :data:`NO_SHRINKING` (0: the change shrinks); ``"not reproduced"`` when it
    lies above -1 (a decay slower than 1/N over the N fitted, or none);
    otherwise ``"inconclusive"`` (an interval reaching both -1 and 0).
    :func:`slope_rule_text` states this rule in words from the same constants.

    Examples
    --------
    >>> from skxor.papers.kover.flip_effect import slope_verdict
    >>> slope_verdict(-1.2, -0.8), slope_verdict(-1.3, 0.3), slope_verdict(-0.6, -0.4)
    ('reproduced', 'inconclusive', 'not reproduced')
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        return "inconclusive"
    if low > ONE_OVER_N:
        return "not reproduced"
    if high < NO_SHRINKING:
        return "reproduced"
    return "inconclusive"


def slope_rule_text():
    """:func:`slope_verdict`'s rule in words, its thresholds read from the constants it uses.

    Examples
    --------
    >>> from skxor.papers.kover.flip_effect._summary import slope_rule_text
    >>> slope_rule_text()[:60]
    'reproduced when the interval lies below 0 and its lower end '
    """
    return (f"reproduced when the interval lies below {NO_SHRINKING:g} and its lower end "
            f"is at or below {ONE_OVER_N:g} (shrinking at a rate O(1/N) allows), not "
            f"reproduced when its lower end lies above {ONE_OVER_N:g} (a decay slower than "
            f"1/N over the N fitted, or none), inconclusive otherwise")


def binding_cap(eps):
    """The layer-norm ``1 / sqrt(var + eps)`` at which eps equals the variance: ``1 / sqrt(2 eps)``.

    A network's largest recorded ``1 / sqrt(var + eps)`` (``ln_inv_std_max``) at
    or above it met a variance at or below eps: there eps, not the variance,
    bounds how much the layer norm amplifies a change (eps *binds*). Where it
    stays below, eps changes the amplification by less than a factor
    ``sqrt(2)`` and the network computes nearly as it does at eps = 0.

    Examples
    --------
    >>> from skxor.papers.kover.flip_effect._summary import binding_cap
    >>> round(binding_cap(0.1), 3)
    2.236
    """
    return (2.0 * eps) ** -0.5


def tail_rows(group, n=TAIL_N):
    """The rows of ``group`` at its ``n`` largest ``n_bits`` (all rows where it has fewer).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.kover.flip_effect._summary import tail_rows
    >>> sorted(tail_rows(pd.DataFrame({"n_bits": [8, 16, 32, 64, 64]}))["n_bits"])
    [16, 32, 64, 64]
    """
    lengths = np.sort(group["n_bits"].unique())[-n:]
    return group[group["n_bits"].isin(lengths)]


def eps_fit(group, column="flip_change_max"):
    """The claim's reading of one (eps > 0, D, L) group of networks.

    Only networks where eps binds (:func:`binding_cap`) are fitted, and only at
    the :data:`TAIL_N` largest N among them; a group where eps binds in no
    network is not tested (its networks compute as at eps = 0, so they cannot
    test what eps > 0 adds), nor is a table without ``ln_inv_std_max``.

    Returns
    -------
    fit : dict
        ``verdict``, ``binding`` (networks where eps binds), ``inv_std_max``
        (the largest recorded ``1 / sqrt(var + eps)``, NaN without the
        column), ``cap`` (:func:`binding_cap`), ``rows`` (the rows fitted) and
        the :func:`change_slope` of those rows (``slope``, ``low``, ``high``,
        ``networks``, ``zero``).

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.kover.flip_effect._summary import eps_fit
    >>> group = pd.DataFrame({"layer_norm_eps": 0.1, "n_bits": [8, 16, 32, 64],
    ...                       "flip_change_max": [0.5, 0.5, 0.5, 0.5],
    ...                       "ln_inv_std_max": [2.0, 2.1, 2.0, 2.1]})
    >>> fit = eps_fit(group)
    >>> fit["verdict"], fit["binding"], round(fit["cap"], 2)
    ('not tested', 0, 2.24)
    """
    eps = float(group["layer_norm_eps"].iloc[0])
    inv = group["ln_inv_std_max"] if "ln_inv_std_max" in group else None
    binds = (inv >= binding_cap(eps)) if inv is not None else pd.Series(False, group.index)
    rows = tail_rows(group[binds])
    fit = dict(change_slope(rows["n_bits"], rows[column]), binding=int(binds.sum()),
               inv_std_max=float(inv.max()) if inv is not None else math.nan,
               cap=binding_cap(eps), rows=rows)
    fit["verdict"] = ("not tested" if not fit["binding"]
                      else slope_verdict(fit["low"], fit["high"]))
    return fit


def eps_readings(df):
    """Per (eps > 0, D, L): the claim's reading (:func:`eps_fit`) as one row each.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.kover.flip_effect._summary import eps_readings
    >>> df = pd.DataFrame({"layer_norm_eps": 0.1, "d_model": 16, "n_layers": 1,
    ...                    "n_bits": [8, 16, 32], "flip_change_max": 0.5,
    ...                    "ln_inv_std_max": 2.0})
    >>> eps_readings(df)[["verdict", "binding"]].values.tolist()
    [['not tested', 0]]
    """
    by = ["layer_norm_eps", "d_model", "n_layers"]
    rows = [{**dict(zip(by, key)), **{k: v for k, v in eps_fit(group).items() if k != "rows"}}
            for key, group in _groups(df[df["layer_norm_eps"] > 0], by)]
    return pd.DataFrame(rows, columns=[*by, "verdict", "binding", "inv_std_max", "cap",
                                       "slope", "low", "high", "networks", "zero"])


@fill_doc
def flip_effect_summary(df):
    """The flip-effect study's summary of one setting's rows: what its renderers and claim read.

    %(returns_study_summary)s
        ``rows`` (the table's number of rows) and ``table`` (the rows: the
        claim fits each network's points at its own confidence), and when
        ``rows`` > 0: ``seeds``, ``fits`` (:func:`flip_slopes`),
        ``per_n`` (:func:`summarize_flip_effect`) and ``readings``
        (:func:`eps_readings`, claim K6's reading per eps > 0).

    Examples
    --------
    >>> from skxor.papers.kover.flip_effect import flip_effect, flip_effect_summary
    >>> df = flip_effect(n_bits=[8, 16], layer_norm_eps=[0.1], seeds=2, n_samples=4)
    >>> summary = flip_effect_summary(df)
    >>> summary.seeds, len(summary.fits), len(summary.per_n)
    (2, 1, 2)
    """
    if not len(df):
        return Bunch(rows=0, table=df)
    return Bunch(rows=len(df), table=df, seeds=int(df["seed"].nunique()),
                 fits=flip_slopes(df), per_n=summarize_flip_effect(df),
                 readings=eps_readings(df))


#: The study's small run, which the doctests of its report, figures and bullet render.
DOC_EXAMPLES = study_examples(""">>> from skxor.papers.kover.flip_effect import STUDY
>>> df = STUDY.run(n_bits=[8, 16, 32], layer_norm_eps=[0.1], seeds=3, n_samples=4)""")
