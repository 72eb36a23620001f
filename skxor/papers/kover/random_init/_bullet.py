"""The random-initialisation study's headline bullet (``skxor headline``), from its table."""

from .._networks import TRANSFORMER, distinct_networks
from skxor.studies.reporting import ROUGH_BELOW_SEEDS
from skxor.studies.stats import format_count
from ._cells import RANDOM_FUNCTION


def headline_text(summary):
    """The study's bullet in ``skxor headline``: constant networks, zero-sensitivity strings.

    Called as ``get_study("random_init_sensitivity").render("headline", table)``.

    From the table of :func:`~skxor.papers.random_init_sensitivity`, one
    paragraph of Markdown: at the smallest eps (each network counted once), the
    constant networks and the non-constant ones with a zero-sensitivity string
    (Wilson 95%), beside the uniformly random functions.

    Examples
    --------
    >>> from skxor.papers.kover.random_init import STUDY
    >>> df = STUDY.run(n_bits=[4], init=["normal"], seeds=2,
    ...                n_random_functions=20)
    >>> print(STUDY.render("headline", df).split("): ", 1)[1])  # doctest: +NORMALIZE_WHITESPACE
    1/2 networks = 0.50 [0.09, 0.91] compute a constant function (every string has
    sensitivity 0); of the non-constant ones, 1/1 networks = 1.00 [0.21, 1.00] have a
    zero-sensitivity string (mean share of such strings 0.50); PARITY and FIRST have none.
    Uniformly random Boolean functions: 12/20 functions = 0.60 [0.39, 0.78] have one (the
    limit for large N is 1 - 1/e = 0.63).
    """
    df = summary.table
    nets = df[df["function"] == TRANSFORMER] if "function" in df else df.iloc[:0]
    control = df[df["function"] == RANDOM_FUNCTION] if "function" in df else df.iloc[:0]
    head = "**Random transformers** (Köver et al.'s recognizer setting"
    if not len(nets):
        return f"{head}): the table holds no random network to summarize."
    if nets["seed"].nunique() < ROUGH_BELOW_SEEDS:
        head = head.replace("(", "(rough: ", 1)
    # eps is a paired factor (the same networks at each eps): count each network once.
    eps = float(nets["layer_norm_eps"].min())
    pool = nets[nets["layer_norm_eps"] == eps]
    agreement = summary.agreement
    paired = ""
    if agreement is not None:
        paired = (f", each also evaluated at eps = {agreement['eps']:g}, identical functions "
                  f"in {agreement['same']}/{agreement['pairs']} networks")
    constant = pool["constant"].astype(bool)
    nonconstant = pool[~constant]
    n = distinct_networks(pool)
    text = (
        f"{head}, {n} distinct networks at eps = {eps:g}: {pool['seed'].nunique()} seeds "
        f"per setting, N = {', '.join(map(str, sorted(pool['n_bits'].unique())))}, each "
        f"cell with its own weights{paired}; 95% Wilson intervals): "
        f"{format_count(int(constant.sum()), len(pool), 'networks')} compute a constant "
        "function (every string has sensitivity 0)"
    )
    if len(nonconstant):
        text += (
            "; of the non-constant ones, "
            f"{format_count(int(nonconstant['has_zero'].astype(bool).sum()), len(nonconstant), 'networks')}"
            f" have a zero-sensitivity string (mean share of such strings "
            f"{nonconstant['zero_fraction'].mean():.2f})"
        )
    else:
        text += "; no network is non-constant"
    text += "; PARITY and FIRST have none."
    if len(control):
        wins, total = int(control["with_zero"].sum()), int(control["n_functions"].sum())
        text += (
            f" Uniformly random Boolean functions: {format_count(wins, total, 'functions')} "
            "have one (the limit for large N is 1 - 1/e = 0.63)."
        )
    return text
