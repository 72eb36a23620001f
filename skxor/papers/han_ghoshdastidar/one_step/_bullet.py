"""The one-step study's headline bullet (``skxor headline``), every number from its table."""

from skxor.nn import attention_names
from skxor.studies.reporting import values_text
from skxor.studies.stats import format_interval


def headline_text(summary):
    """The one-step study's bullet in ``skxor headline``: each attention at its best step length.

    Called as ``get_study("one_step").render("headline", table)``, on the
    table's :func:`~skxor.papers.han_ghoshdastidar.one_step.one_step_summary`.

    Returns
    -------
    text : str
        The bullet's body (Markdown): the setting, then per T each attention's
        success count and rate with its interval (seeds as the units) at its
        best step length.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.one_step import STUDY
    >>> print(STUDY.render("headline", pd.DataFrame({
    ...     "attention": ["softmax"] * 4, "n": 0, "d": 100, "m": 16, "n_steps": 1,
    ...     "step_length": 100.0, "seed": range(4), "success": [True, True, True, False],
    ...     "specialised": True, "loss_after_step": 0.0})))  # doctest: +NORMALIZE_WHITESPACE
    **Gradient steps, softmax vs linear vs erf, each at its best step length** (exact
    population steps, 4 seeds, d = 100, m = 16; T normalised steps, step lengths 100
    tried, each attention's best chosen on these runs; success = test accuracy >= 0.99,
    in runs = seeds x d x m; 95% intervals with the seeds as the independent units,
    beta-binomial profile likelihood, and where every run agrees at least Wilson's over
    the seeds, as on the claims page): T = 1: softmax (steps of 100) 3/4 = 0.75 [0.30, 0.95].
    """
    title = (f"**Gradient steps, {' vs '.join(attention_names())}, each at its best step "
             "length**")
    if summary.rows == 0:
        return f"{title}: the table holds no runs; nothing to summarize."
    data, kind, best = summary.population, summary.kind, summary.population_best
    order = {name: i for i, name in enumerate(attention_names())}
    parts = []
    for steps, group in best.groupby("n_steps", sort=True):
        group = group.sort_values("attention", key=lambda a: a.map(order).fillna(len(order)))
        each = [
            f"{r.attention} (steps of {r.step_length:g}) {r.successes}/{r.runs} = "
            f"{format_interval(r.success_rate, r.success_low, r.success_high)}"
            for r in group.itertuples()
        ]
        parts.append(f"T = {int(steps)}: " + ", ".join(each))
    lengths = values_text(float(v) for v in data["step_length"].dropna())
    seeds = data["seed"].nunique()
    return (
        f"{title} ({kind}, {seeds} seeds, d = {values_text(int(d) for d in data['d'])}, "
        f"m = {values_text(int(m) for m in data['m'])}; T normalised steps, step lengths "
        f"{lengths or 'not recorded'} tried, each attention's best chosen on these runs; "
        "success = test accuracy >= 0.99, in runs = seeds x d x m; 95% intervals with the "
        "seeds as the independent units, beta-binomial profile likelihood, and where every "
        "run agrees at least Wilson's over the seeds, as on the claims page): "
        + "; ".join(parts) + "."
    )
