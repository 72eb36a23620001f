"""The sample-complexity study's headline bullet (``skxor headline``), every number from its table."""

import numpy as np

from ._cells import MODELS
from ._section import _exponent_text, h5_sentence
from skxor.studies.stats import format_interval, rate_with_interval


def headline_text(summary):
    """The sample-complexity study's bullet in ``skxor headline``: the exponent of n* in d.

    Called as ``get_study("sample_complexity").render("headline", table)``, on the
    table's :func:`~skxor.papers.han_ghoshdastidar.sample_complexity.sample_complexity_summary`.

    Returns
    -------
    text : str
        The bullet's body (Markdown): the setting, then per model (the
        one-step transformer of claim H5 first) the share
        p_pop of curves whose population run succeeds (Wilson 95%; none for
        the FFNN), the exponent a of n* ~ d^a fitted on those curves with its
        95% interval, and the censored curves.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity import STUDY
    >>> STUDY.render("headline", pd.DataFrame())
    '**Sample complexity**: the table holds no learning curves; nothing to summarize.'
    """
    if not summary.rows:
        return "**Sample complexity**: the table holds no learning curves; nothing to summarize."
    df, fits, per_seed = summary.analysed, summary.fits, summary.per_seed
    rough, seeds = summary.rough, summary.seeds
    parts = []
    # The claim's model first: README keeps the bullet's first clauses only.
    order = {model: i for i, model in enumerate(MODELS)}
    for r in sorted(fits.to_dict("records"), key=lambda r: order.get(r["model"], len(order))):
        censored = r["left_censored"] + r["right_censored"]
        counts = (f"{r['n_points']} learning curves; {censored} censored: "
                  f"{r['left_censored']} at the grid floor, {r['right_censored']} above the grid")
        population = ""
        if r["seeds_used"] == "cured":
            flags = per_seed.loc[per_seed["model"] == r["model"], "population_success"].dropna()
            rate, low, high, n = rate_with_interval(flags == 1)
            population = (f"p_pop {int((flags == 1).sum())}/{n} = "
                          f"{format_interval(rate, low, high)}, on those ")
            counts += f"; {r['population_failures']} population failures left out"
        if np.isfinite(r["exponent"]):
            parts.append(f"{r['model']} {population}{_exponent_text(r)} ({counts})")
        else:
            parts.append(f"{r['model']}: no exponent, fewer than two d with a seed bracketed "
                         f"on both sides ({counts})")
    _, ratio = summary.grid
    resolution = f"grid steps up to x{ratio:.2f}" if np.isfinite(ratio) else "one grid size"
    return (
        f"**Sample complexity** ({'rough: ' if rough else ''}{seeds} seeds, d = "
        f"{', '.join(map(str, sorted(df['d'].unique())))}; n* = the samples from which test "
        f"accuracy stays >= {float(df['target'].iloc[0]):g}, bracketed by the grid "
        f"({resolution}); p_pop = curves whose training run succeeds on infinite data "
        "(exact population steps); exponent a of n* ~ d^a on those curves by maximum "
        "likelihood with censored seeds kept, profile-likelihood 95% interval; the proof's "
        "sufficient bound grows as d^4): exponent a: " + "; ".join(parts) + ". "
        + h5_sentence(fits)
    )
