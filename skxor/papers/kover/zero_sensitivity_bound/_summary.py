"""The zero-sensitivity-bound study's summary: counts and shares against the bound, the verdict."""

import math

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

from skxor._utils._docstrings import fill_doc, study_examples
from .._networks import TRANSFORMER, eps_agreement
from skxor.studies.stats import flag_columns, format_count, rate_columns, wilson_interval


def bound_exponent(d_model, n_layers):
    """The exponent ``(D - 1) / (2 L) - 5`` of Köver et al.'s bound.

    Examples
    --------
    >>> from skxor.papers.kover.zero_sensitivity_bound import bound_exponent
    >>> bound_exponent(32, 1), bound_exponent(16, 2)
    (10.5, -1.25)
    """
    return (d_model - 1) / (2 * n_layers) - 5


def vacuous_reason(log10_bound, n_bits):
    """Why the bound says nothing at this N: ``"bound < 1"``, ``"bound > 2^N"`` or ``""``.

    Below 1 the bound names no growth; above 2^N no function on N bits has
    that many strings (the theorem is for large N).

    Examples
    --------
    >>> from skxor.papers.kover.zero_sensitivity_bound import bound_exponent, vacuous_reason
    >>> import math
    >>> [vacuous_reason(bound_exponent(32, 2) * math.log10(n), n) for n in (4, 10, 32)]
    ['bound > 2^N', '', '']
    >>> vacuous_reason(bound_exponent(8, 1) * math.log10(10), 10)
    'bound < 1'
    """
    if log10_bound < 0:
        return "bound < 1"
    if log10_bound > n_bits * math.log10(2.0) + 1e-12:
        return "bound > 2^N"
    return ""


_CONFIG = ["layer_norm_eps", "d_model", "n_layers", "n_bits"]


def screened_flags(df):
    """Which rows are the screen's networks (claim K5's ``screened`` cells), as booleans."""
    if "screened" not in df:
        return pd.Series(False, index=df.index)
    return df["screened"].astype(str).str.lower().isin(["true", "1", "1.0"])


def summarize_bound(df):
    """Per (eps, D, L, N): counts against the bound, shares with intervals.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`zero_sensitivity_bound`.

    Returns
    -------
    summary : pandas.DataFrame
        ``exponent`` and ``log10_bound`` (``exponent * log10 N``),
        ``vacuous`` (the bound below 1 or above 2^N) and ``vacuous_reason``
        (``"bound < 1"``, ``"bound > 2^N"`` or ``""``); ``networks``; ``log10_count`` (log10 of
        the mean zero-sensitivity fraction x 2^N, strings pooled over the
        networks) with ``log10_count_low``/``_high`` (Wilson interval of the
        pooled fraction; exact when exhaustive); ``nonconstant_median_log10_count``
        (median over the non-constant networks that had one; NaN if none);
        ``with_zero``, ``nonconstant_with_zero``, ``meets_bound`` and
        ``nonconstant_meets_bound`` (shares of networks with
        Clopper-Pearson ``_low``/``_high``; NaN over no network) and
        ``nonconstant_meets`` (the count behind the last) and
        ``constant`` (share with a Wilson interval); ``nonconstant``
        (count) and ``method``: ``"exhaustive"``, ``"sampled"`` or, for the
        screen's networks (one row of their own, ``screened``), ``"screened"``:
        those found non-constant counted over all strings, the others
        constant on the screen and not counted.

    Examples
    --------
    >>> from skxor.papers import summarize_bound, zero_sensitivity_bound
    >>> df = zero_sensitivity_bound(n_bits=[4, 8], d_model=[8], n_layers=[1],
    ...                             layer_norm_eps=[0.0], seeds=3)
    >>> summary = summarize_bound(df)
    >>> summary[["n_bits", "exponent", "vacuous", "networks", "nonconstant", "with_zero",
    ...          "meets_bound"]]
       n_bits  exponent  vacuous  networks  nonconstant  with_zero  meets_bound
    0       4      -1.5     True         3            1        1.0          1.0
    1       8      -1.5     True         3            0        1.0          1.0
    """
    df = flag_columns(df, ("constant", "has_zero"))
    df = df.assign(screened=screened_flags(df))
    rows = []
    log2 = math.log10(2.0)
    for key, g in df.groupby(_CONFIG + ["screened"], sort=True):
        eps, d_model, n_layers, n_bits, screened = key
        n_bits = int(n_bits)
        exponent = bound_exponent(int(d_model), int(n_layers))
        log10_bound = exponent * math.log10(n_bits)
        constant = g["constant"].astype(bool)
        has_zero = g["has_zero"].astype(bool)
        nonconst = g[~constant]
        zeros, strings = int(g["n_zero_found"].sum()), int(g["n_strings"].sum())
        each_exhaustive = (g["method"] == "exhaustive").to_numpy()
        exhaustive = each_exhaustive.all()
        low, high = (zeros / strings,) * 2 if exhaustive else wilson_interval(zeros, strings)
        # A network reaches the bound when its count (Wilson lower end if sampled) does.
        lower = pd.Series(np.where(each_exhaustive, g["log10_zero_count"].astype(float),
                                   g["log10_zero_count_low"].astype(float)), index=g.index)
        meets = lower.fillna(-np.inf) >= log10_bound - 1e-12
        nc_counts = nonconst["log10_zero_count"].dropna()
        n = len(g)
        row = dict(zip(_CONFIG, (eps, int(d_model), int(n_layers), n_bits)))
        reason = vacuous_reason(log10_bound, n_bits)
        row.update(
            exponent=exponent, log10_bound=log10_bound, vacuous=bool(reason),
            vacuous_reason=reason,
            method=("screened" if screened else "exhaustive" if exhaustive else "sampled"),
            screened=bool(screened),
            networks=n, nonconstant=len(nonconst),
            log10_count=math.log10(zeros / strings) + n_bits * log2 if zeros else np.nan,
            log10_count_low=math.log10(low) + n_bits * log2 if low > 0 else -np.inf,
            log10_count_high=math.log10(high) + n_bits * log2 if high > 0 else -np.inf,
            nonconstant_median_log10_count=float(nc_counts.median()) if len(nc_counts) else np.nan,
            **rate_columns(constant, "constant", rate=""),
        )
        row["nonconstant_meets"] = int(meets[~constant].sum())
        for name, flags in [("with_zero", has_zero),
                            ("nonconstant_with_zero", nonconst["has_zero"].astype(bool)),
                            ("meets_bound", meets),
                            ("nonconstant_meets_bound", meets[~constant])]:
            row.update(rate_columns(flags, name, rate="", interval="clopper-pearson"))
        rows.append(row)
    return pd.DataFrame(rows)


def bound_verdict(df, per_row=None):
    """The theorem's verdict: non-constant networks of the non-vacuous rows, at eps = 0.

    A constant network has all 2^N strings at sensitivity 0 and so reaches
    every bound of at most 2^N trivially; rows whose bound is below 1 or
    above 2^N (:func:`vacuous_reason`) test nothing. Counted at the smallest
    eps of the table (the theorem's eps = 0): eps is a paired factor, and
    each network counts once.

    Returns
    -------
    verdict : dict
        ``eps``, ``rows`` and ``tested`` (rows at that eps, and the
        non-vacuous ones), ``networks`` (non-constant networks in the tested
        rows), ``meets`` (those reaching the bound) and ``text`` (the
        sentence, which says when the data do not test the bound).

    Examples
    --------
    >>> from skxor.papers.kover.zero_sensitivity_bound import bound_verdict, zero_sensitivity_bound
    >>> df = zero_sensitivity_bound(n_bits=[4, 8], d_model=[8], n_layers=[1],
    ...                             layer_norm_eps=[0.0], seeds=3)
    >>> bound_verdict(df)["text"]
    'every row is vacuous, so these data do not test the bound.'
    """
    summary = summarize_bound(df) if per_row is None else per_row
    if not len(summary):
        return {"eps": float("nan"), "rows": 0, "tested": 0, "networks": 0, "meets": 0,
                "text": "the table holds no network, so it does not test the bound."}
    eps = float(summary["layer_norm_eps"].min())
    rows = summary[summary["layer_norm_eps"] == eps]
    tested = rows[~rows["vacuous"].astype(bool)]
    n_nc, k_meets = int(tested["nonconstant"].sum()), int(tested["nonconstant_meets"].sum())
    if not len(tested):
        text = "every row is vacuous, so these data do not test the bound."
    elif not n_nc:
        text = (f"the {len(tested)} non-vacuous rows hold no non-constant network (a "
                "constant one reaches every such bound trivially), so these data do not "
                "test the bound.")
    else:
        short = tested[(tested["nonconstant"] > 0)
                       & (tested["nonconstant_meets"] < tested["nonconstant"])]
        text = (
            f"over the {len(tested)} non-vacuous of {len(rows)} rows (1 <= bound <= 2^N), "
            f"counting only the {n_nc} non-constant networks (a constant one reaches every "
            f"such bound trivially), {format_count(k_meets, n_nc, 'networks', 'clopper-pearson')}"
            " have a count at or above the bound (its Wilson lower end when sampled)"
            + ("." if not len(short) else
               "; short of it: " + "; ".join(
                   f"D={int(r.d_model)}, L={int(r.n_layers)}, N={int(r.n_bits)}: "
                   f"{int(r.nonconstant_meets)}/{int(r.nonconstant)}"
                   for r in short.itertuples()) + ".")
        )
    return {"eps": eps, "rows": len(rows), "tested": len(tested), "networks": n_nc,
            "meets": k_meets, "text": text}


def drawn_summary(df, per_row=None):
    agreement = eps_agreement(df)
    identical = agreement is not None and agreement["same"] == agreement["pairs"]
    summary = summarize_bound(df) if per_row is None else per_row
    summary = summary[~summary["screened"]] if len(summary) else summary
    if identical:
        summary = summary[summary["layer_norm_eps"] == 0]
    return summary, agreement, identical


@fill_doc
def bound_summary(df):
    """The study's summary of one setting's rows: what its report, figures, headline and
    claim read.

    %(returns_study_summary)s
        ``rows`` and ``table`` (the rows, whose networks the texts count),
        ``networks`` (whether a random network is among them); when ``rows``
        > 0, ``seeds``, ``per_row`` (:func:`summarize_bound`) and ``verdict``
        (:func:`bound_verdict`); with networks, ``drawn``, ``agreement`` and
        ``identical`` (:func:`drawn_summary`).

    Examples
    --------
    >>> from skxor.papers import zero_sensitivity_bound
    >>> from skxor.papers.kover.zero_sensitivity_bound import bound_summary
    >>> summary = bound_summary(zero_sensitivity_bound(n_bits=[8], d_model=[8], n_layers=[1],
    ...                                                layer_norm_eps=[0.0], seeds=2))
    >>> summary.networks, summary.seeds, len(summary.per_row)
    (True, 2, 1)
    """
    networks = bool("function" in df and (df["function"] == TRANSFORMER).any())
    summary = Bunch(rows=len(df), table=df, networks=networks)
    if len(df):
        per_row = summarize_bound(df)
        summary.update(seeds=int(df.loc[~screened_flags(df), "seed"].nunique()),
                       per_row=per_row, verdict=bound_verdict(df, per_row))
    if networks:
        drawn, agreement, identical = drawn_summary(df, summary.get("per_row"))
        summary.update(drawn=drawn, agreement=agreement, identical=identical)
    return summary


#: The study's small run, which the doctests of its report, figures and bullet render.
DOC_EXAMPLES = study_examples(""">>> from skxor.papers.kover.zero_sensitivity_bound import STUDY
>>> df = STUDY.run(n_bits=[4, 8], d_model=[8], n_layers=[1],
...                layer_norm_eps=[0.0], seeds=3)""")
