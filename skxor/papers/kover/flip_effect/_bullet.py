"""The flip-effect study's headline bullet (``skxor headline``), from its table."""

from skxor.studies.reporting import rough_text
from skxor.studies.stats import format_interval
from skxor._utils._docstrings import fill_doc_with
from ._summary import DOC_EXAMPLES


@fill_doc_with(DOC_EXAMPLES)
def headline_text(summary):
    """The study's bullet in ``skxor headline``: the slope of the change on N, per eps.

    Called as ``get_study("flip_effect").render("headline", table)``.

    %(examples)s
    >>> print(STUDY.render("headline", df))  # doctest: +ELLIPSIS
    **Köver et al.'s eps > 0 prediction** (rough: 3 seeds per (N, D, L); ...
    """
    head = "**Köver et al.'s eps > 0 prediction** ("
    if not summary.rows:
        return f"{head[:-2]}: the table holds no network to summarize."
    df, seeds, fits = summary.table, summary.seeds, summary.fits
    # Per (D, L): the largest eps, and the smallest beside it (the paired networks).
    largest, smallest = fits["layer_norm_eps"].max(), fits["layer_norm_eps"].min()
    parts = []
    for (d, layers), group in fits.groupby(["d_model", "n_layers"]):
        top = group[group["layer_norm_eps"] == largest].iloc[0]
        text = (f"D = {d}, L = {layers}: {format_interval(top.slope, top.low, top.high)} at "
                f"eps = {largest:g}")
        if smallest != largest:
            low = group[group["layer_norm_eps"] == smallest].iloc[0]
            text += f" ({format_interval(low.slope, low.low, low.high)} at eps = {smallest:g})"
        parts.append(text)
    text = (f"{head}{rough_text(seeds)}{seeds} seeds per "
            f"(N, D, L); N = {int(df['n_bits'].min())} to {int(df['n_bits'].max())}): the "
            "largest output change under one bit flip falls with N as N^slope, slope (95% t "
            "interval over the networks; O(1/N) is -1) " + "; ".join(parts) + ".")
    readings = summary.readings
    if len(readings) and not readings["binding"].any():
        # The claim's verdict, as the claims page states it (claim K6).
        worst = readings.loc[(readings["inv_std_max"] / readings["cap"]).idxmax()]
        text += (f" Claim K6 is not tested: eps binds in no network (the largest layer-norm "
                 f"1/sqrt(var + eps) seen is {worst.inv_std_max:.3g} at eps = "
                 f"{worst.layer_norm_eps:g}, below the {worst.cap:.3g} where eps reaches the "
                 "variance), so these networks compute nearly as at eps = 0.")
    return text
