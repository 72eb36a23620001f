"""The zero-sensitivity-bound study's headline bullet (``skxor headline``), from its table."""

from .._networks import distinct_networks
from skxor.studies.reporting import rough_text
from skxor.studies.stats import format_count


def headline_text(summary):
    """The study's bullet in ``skxor headline``: networks with a zero-sensitivity string, the bound.

    Called as ``get_study("zero_sensitivity_bound").render("headline", table)``.

    From the table of :func:`~skxor.papers.zero_sensitivity_bound`, one
    paragraph of Markdown: at the smallest eps (each network counted once), the
    networks with a zero-sensitivity string (Clopper-Pearson 95%), the constant
    ones (Wilson 95%) and the comparison with the bound.

    Examples
    --------
    >>> from skxor.papers.kover.zero_sensitivity_bound import STUDY
    >>> df = STUDY.run(n_bits=[4], d_model=[8], n_layers=[1],
    ...                layer_norm_eps=[0.0], seeds=3)
    >>> print(STUDY.render("headline", df))  # doctest: +NORMALIZE_WHITESPACE
    **Theorem 4.5 of Köver et al., compared with random networks** (rough: 3 seeds per (N,
    D, L), 3 distinct networks at eps = 0, each (N, D, L, seed) with its own weights;
    Clopper-Pearson 95% intervals): a zero-sensitivity string was found in 3/3 networks
    = 1.00 [0.29, 1.00], 1/1 networks = 1.00 [0.03, 1.00] of the non-constant ones; 2/3
    networks = 0.67 [0.21, 0.94] are constant (Wilson). Against the bound
    N^((D-1)/(2L) - 5): 0 of the 1 (D, L, N) rows are not vacuous (bound between 1 and
    2^N); every row is vacuous, so these data do not test the bound.
    """
    head = "**Theorem 4.5 of Köver et al., compared with random networks** ("
    if not summary.rows:
        return f"{head[:-2]}: the table holds no network to summarize."
    df, seeds = summary.table, summary.seeds
    head += f"{rough_text(seeds)}{seeds} seeds per (N, D, L)"
    # eps is a paired factor (the same networks at each eps): count each network once.
    eps = float(df["layer_norm_eps"].min())
    pool = df[df["layer_norm_eps"] == eps]
    constant = pool["constant"].astype(bool)
    nonconstant = pool[~constant]
    verdict = summary.verdict
    text = (
        f"{head}, {distinct_networks(pool)} distinct networks at eps = {eps:g}, each "
        "(N, D, L, seed) with its own weights; Clopper-Pearson 95% intervals): a "
        "zero-sensitivity string was found in "
        f"{format_count(int(pool['has_zero'].astype(bool).sum()), len(pool), 'networks', 'clopper-pearson')}"
    )
    if len(nonconstant):
        k = int(nonconstant["has_zero"].astype(bool).sum())
        text += (f", {format_count(k, len(nonconstant), 'networks', 'clopper-pearson')} "
                 "of the non-constant ones")
    text += (f"; {format_count(int(constant.sum()), len(pool), 'networks')} are constant "
             "(Wilson). Against the bound N^((D-1)/(2L) - 5): "
             f"{verdict['tested']} of the {verdict['rows']} (D, L, N) rows are not vacuous "
             "(bound between 1 and 2^N)")
    if verdict["networks"]:
        text += (", and there "
                 f"{format_count(verdict['meets'], verdict['networks'], 'non-constant networks', 'clopper-pearson')}"
                 " reach it.")
    else:
        text += "; " + verdict["text"]
    return text
