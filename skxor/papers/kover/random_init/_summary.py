"""The random-initialisation study's summaries: shares per setting and N, the paper's table."""

import math

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

from skxor._utils._docstrings import fill_doc, study_examples
from .._networks import TRANSFORMER, eps_agreement, log10_count, network_rows, share_text
from skxor.studies.stats import rate_columns, wilson_interval
from ._cells import RANDOM_FUNCTION, SETTING

#: Köver et al.'s four initialisation schemes, in the order they are shown.
PAPER_SCHEMES = ("uniform", "normal", "xavier_uniform", "xavier_normal")

#: 1 - 1/e: the limit of the share of random functions with a zero-sensitivity string.
POISSON_LIMIT = 1 - math.exp(-1)


def summarize_random_init(df):
    """Per setting and N: constant share, zero-sensitivity strings, diagnostics.

    Returns
    -------
    summary : pandas.DataFrame
        One row per setting (init, read-out, positions, D, L, eps) and N:
        ``networks``; ``constant`` (share of constant networks) with its
        Wilson interval ``constant_low``/``_high``; ``with_zero`` (share with
        at least one zero-sensitivity string found) with its Wilson
        interval; ``nonconstant`` (count), ``nonconstant_with_zero`` (share
        among them) with its interval; ``zero_fraction`` (mean over all
        networks) and ``nonconstant_zero_fraction`` (mean over the
        non-constant ones, NaN if none); ``log10_zero_count`` (log10 of the
        mean count ``zero_fraction * 2^N``) and
        ``nonconstant_log10_zero_count``; ``logit_offset`` (median
        ``|mean| / std`` of the logit) for constant and non-constant
        networks; ``ln_inv_std_max`` and ``beta_max`` (largest seen).
        Random functions get one row each (``init == "random function"``).
    """
    models = network_rows(df)
    rows = []
    for key, group in models.groupby(SETTING + ["n_bits"], sort=True):
        constant = group["constant"].astype(bool)
        has_zero = group["has_zero"].astype(bool)
        nonconst = group[~constant]
        n = len(group)
        n_bits = int(key[-1])
        zf = float(group["zero_fraction"].mean())
        nzf = float(nonconst["zero_fraction"].mean()) if len(nonconst) else np.nan
        row = dict(zip(SETTING + ["n_bits"], key))
        row.update(
            networks=n,
            method=group["method"].iloc[0],
            **rate_columns(constant, "constant", rate=""),
            **rate_columns(has_zero, "with_zero", rate=""),
            nonconstant=len(nonconst),
            **rate_columns(nonconst["has_zero"].astype(bool), "nonconstant_with_zero", rate=""),
            zero_fraction=zf,
            nonconstant_zero_fraction=nzf,
            log10_zero_count=log10_count(zf, n_bits),
            nonconstant_log10_zero_count=log10_count(nzf, n_bits),
            logit_offset_constant=group.loc[constant, "logit_offset"].median(),
            logit_offset_nonconstant=nonconst["logit_offset"].median(),
            ln_inv_std_max=group["ln_inv_std_max"].max(),
            beta_max=group["beta_max"].max(),
        )
        rows.append(row)
    summary = pd.DataFrame(rows)
    control = df[df["function"] == RANDOM_FUNCTION]
    if len(control):
        extra = []
        for _, c in control.iterrows():
            low, high = wilson_interval(int(c["with_zero"]), int(c["n_functions"]))
            extra.append(dict(
                init=RANDOM_FUNCTION, n_bits=int(c["n_bits"]), networks=int(c["n_functions"]),
                method="exhaustive", with_zero=c["with_zero"] / c["n_functions"],
                with_zero_low=low, with_zero_high=high,
                zero_fraction=c["zero_fraction"],
                log10_zero_count=log10_count(c["zero_fraction"], int(c["n_bits"])),
            ))
        summary = pd.concat([summary, pd.DataFrame(extra)], ignore_index=True)
    return summary


def drawn_networks(df):
    """The networks to draw: eps = 0 only when eps > 0 coincides on every pair."""
    models = network_rows(df)
    agreement = eps_agreement(df)
    if agreement is not None and agreement["same"] == agreement["pairs"]:
        return models[models["layer_norm_eps"] == 0], agreement
    return models, agreement


def _count_cell(row):
    if not np.isfinite(row.get("with_zero", np.nan)):
        return "-"
    count = row["zero_fraction"] * 2.0 ** row["n_bits"]
    return f"{share_text(row, 'with_zero')}; {count:.3g}"


def paper_setting_table(df):
    """Köver et al.'s setting: share with a zero-sensitivity string and mean count.

    One row per N, one column per scheme of the eos / sinusoidal networks
    (the smallest D, L and eps; ``"share [Wilson 95%]; mean count"``) and
    one for the random-function control.
    """
    summary = summarize_random_init(df)
    nets = summary[(summary["init"] != RANDOM_FUNCTION) & (summary["readout"] == "eos")
                   & (summary["positional"] == "sinusoidal")]
    if not len(nets):
        nets = summary[summary["init"] != RANDOM_FUNCTION]
    if not len(nets):
        return pd.DataFrame()
    nets = nets[(nets["d_model"] == nets["d_model"].min())
                & (nets["n_layers"] == nets["n_layers"].min())
                & (nets["layer_norm_eps"] == nets["layer_norm_eps"].min())]
    def column(part):
        return pd.Series([_count_cell(r) for _, r in part.iterrows()],
                         index=part["n_bits"].astype(int).tolist())

    table = {init: column(nets[nets["init"] == init])
             for init in sorted(nets["init"].unique(),
                                key=lambda i: (i not in PAPER_SCHEMES, str(i)))}
    control = summary[summary["init"] == RANDOM_FUNCTION]
    if len(control):
        table[RANDOM_FUNCTION] = column(control)
    out = pd.DataFrame(table)
    out.index.name = "N"
    if RANDOM_FUNCTION in out:  # beyond exhaustive N: the exact expectation, not a measurement
        out[RANDOM_FUNCTION] = out[RANDOM_FUNCTION].fillna("not enumerated; expected count 1")
    return out.fillna("-")


@fill_doc
def random_init_summary(df):
    """The study's summary of one setting's rows: what its report, figures, headline and
    claims read.

    %(returns_study_summary)s
        ``rows``, ``table`` (the rows: the texts and claims count networks
        and functions, the profiles figure draws each network), ``models``
        (the random networks' rows), ``agreement`` (eps > 0 against eps = 0
        on the same weights, or None) and ``identical`` (every pair the
        same); with networks, ``per_setting`` (:func:`summarize_random_init`),
        ``paper_table`` (:func:`paper_setting_table`), ``drawn_models`` and
        ``drawn`` (the networks drawn, :func:`drawn_networks`, and the
        summary of them and of the random functions); each part only where
        the table has the columns it reads (the claims' synthetic tables hold
        only what their rule reads).

    Examples
    --------
    >>> from skxor.papers import random_init_sensitivity
    >>> from skxor.papers.kover.random_init import random_init_summary
    >>> summary = random_init_summary(random_init_sensitivity(
    ...     n_bits=[4], init=["normal"], seeds=2, n_random_functions=10))
    >>> len(summary.models), summary.identical, len(summary.per_setting)
    (4, True, 3)
    """
    models = network_rows(df) if len(df) and "function" in df else df.iloc[:0]
    agreement = eps_agreement(df) if len(df) and "layer_norm_eps" in df else None
    summary = Bunch(rows=len(df), table=df, models=models, agreement=agreement,
                    identical=agreement is not None and agreement["same"] == agreement["pairs"])
    if len(models) and all(column in df for column in (*SETTING, "constant", "has_zero")):
        drawn, _ = drawn_networks(df)
        summary.update(per_setting=summarize_random_init(df), paper_table=paper_setting_table(df),
                       drawn_models=drawn, drawn=summarize_random_init(
                           pd.concat([drawn, df[df["function"] != TRANSFORMER]])))
    return summary


#: The study's small run, which the doctests of its report, figures and bullet render.
DOC_EXAMPLES = study_examples(""">>> from skxor.papers.kover.random_init import STUDY
>>> df = STUDY.run(n_bits=[4, 8], init=["normal"], seeds=2,
...                n_random_functions=20)""")
