"""The one-step study's summaries: rates per cell, and each attention type's best step length.

:func:`one_step_summary` is the study's one computation per setting: the
report, figures, headline and claims format its parts.
"""

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

from skxor.nn import get_attention
from skxor.studies.reporting import values_text
from skxor.studies.claims import unit_interval
from skxor.studies.stats import flag_columns, rate_columns
from skxor._utils._docstrings import fill_doc, study_examples


_GROUP = ["attention", "d", "m", "n", "n_steps", "step_length"]


#: Columns every one-step table has (``n_steps`` and ``step_length`` may be
#: missing in tables written before they were swept).
_REQUIRED = ("attention", "d", "m", "n", "seed", "success", "specialised", "loss_after_step")


def checked(df):
    """``df`` with the columns of tables written before T and the step were swept."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df must be a pandas DataFrame (the table of one_step); "
                        f"got {type(df).__name__}.")
    missing = [c for c in _REQUIRED if c not in df]
    if missing:
        raise ValueError(f"df lacks the column(s) {missing}: a one_step table has "
                         f"{', '.join(_REQUIRED)}.")
    df = df.copy()
    if "n_steps" not in df:
        df["n_steps"] = 1
    df["n_steps"] = df["n_steps"].fillna(1).astype(int)
    df["n"] = df["n"].astype(int)
    return flag_columns(df, ("success", "specialised"))


@fill_doc
def summarize_one_step(df):
    """Per attention, d, m, n, T and step length: success and specialisation with Wilson 95% intervals.

    %(parameters_study_table)s

    Returns
    -------
    summary : pandas.DataFrame
        Columns ``attention, d, m, n, n_steps, step_length, success_rate,
        success_low, success_high, specialised_rate, specialised_low,
        specialised_high, median_loss, median_support_mass, seeds``.

    Examples
    --------
    >>> from skxor.papers import one_step, summarize_one_step
    >>> df = one_step(d=[100], m=[32], seeds=3, n_test=256, step_length=100.0, n_steps=1)
    >>> summary = summarize_one_step(df)
    >>> summary[["attention", "success_rate", "specialised_rate", "seeds"]].values.tolist()
    [['erf', 0.0, 0.0, 3], ['linear', 0.0, 1.0, 3], ['softmax', 1.0, 1.0, 3]]
    """
    rows = []
    for key, group in checked(df).groupby(_GROUP, sort=True):
        rows.append({
            **dict(zip(_GROUP, key)),
            **rate_columns(group["success"], "success"),
            **rate_columns(group["specialised"], "specialised"),
            "median_loss": float(group["loss_after_step"].median()),
            "median_support_mass": (float(group["support_mass_min"].median())
                                    if "support_mass_min" in group else float("nan")),
            "seeds": int(len(group)),
        })
    return pd.DataFrame(rows, columns=[*_GROUP, "success_rate", "success_low", "success_high",
                                       "specialised_rate", "specialised_low",
                                       "specialised_high", "median_loss",
                                       "median_support_mass", "seeds"])


@fill_doc
def best_steps(df):
    """Each attention type and T at every step length, pooled over d and m; the best marked.

    For each (attention, n, T), the best step length is the one with the
    most successes over all runs (seeds x d x m), ties broken by the lower
    median loss after the steps. It is chosen on the runs it is reported
    on, so each variant's rate at its best step is optimistic for that
    variant: the comparison gives linear and erf their best case.

    %(parameters_study_table)s

    Returns
    -------
    table : pandas.DataFrame
        One row per (attention, n, n_steps, step_length): ``successes``,
        ``runs``, ``seeds``, ``success_rate``, ``success_low``,
        ``success_high`` (95%, seeds as the independent units: see
        :func:`~skxor.studies.claims.unit_interval`, the claims page's),
        ``specialised`` (count) with ``specialised_low`` and
        ``specialised_high`` (its interval, likewise), ``median_loss``,
        ``median_max_weight`` and ``best`` (True at the best step length).

    Examples
    --------
    >>> from skxor.papers import one_step
    >>> from skxor.papers.han_ghoshdastidar.one_step import best_steps
    >>> df = one_step(d=[100], m=[16], seeds=3, n_test=256, step_length=[1.0, 100.0],
    ...               n_steps=1, attention=["softmax"])
    >>> table = best_steps(df)
    >>> table[["step_length", "successes", "runs", "best"]].values.tolist()
    [[1.0, 0, 3, False], [100.0, 3, 3, True]]
    """
    cells = checked(df)
    keys = ["attention", "n", "n_steps", "step_length"]
    rows = []
    for key, group in cells.groupby(keys, sort=True):
        # Runs of one seed share keys across d: the seeds are the units.
        # The claims page's interval (unit_interval): at 0/n or n/n at least Wilson's
        # over the seeds, so the headline and report print what the claims page does.
        rate, low, high, runs, seeds = unit_interval(group["success"], group["seed"])
        _, heads_low, heads_high, *_ = unit_interval(group["specialised"], group["seed"])
        rows.append({
            **dict(zip(keys, key)),
            "successes": int(group["success"].sum()), "runs": runs, "seeds": seeds,
            "success_rate": rate, "success_low": low, "success_high": high,
            "specialised": int(group["specialised"].sum()),
            "specialised_low": heads_low, "specialised_high": heads_high,
            "median_loss": float(group["loss_after_step"].median()),
            "median_max_weight": (float(group["max_weight"].median())
                                  if "max_weight" in group else float("nan")),
        })
    columns = [*keys, "successes", "runs", "seeds", "success_rate", "success_low",
               "success_high", "specialised", "specialised_low", "specialised_high",
               "median_loss", "median_max_weight"]
    table = pd.DataFrame(rows, columns=columns)
    table["best"] = False
    for _, group in table.groupby(["attention", "n", "n_steps"], sort=False):
        # Most successes first, then the lowest median loss.
        order = group.sort_values(["successes", "median_loss"], ascending=[False, True])
        table.loc[order.index[0], "best"] = True
    return table


def analysed(df):
    """The runs the study's headline and claims read, and what they are.

    The exact population steps when the table has any, else every run (steps
    on samples); ``step_length`` is NaN in tables written before it was swept.

    Returns
    -------
    data : pandas.DataFrame
        The :func:`checked` rows.
    kind : str
        ``"exact population steps"`` or ``"full-batch steps on n = ... samples"``.
    """
    cells = checked(df)
    if "step_length" not in cells:
        cells["step_length"] = float("nan")
    population = cells[cells["n"] == 0]
    if len(population):
        return population, "exact population steps"
    return cells, ("full-batch steps on n = " + values_text(int(n) for n in cells["n"])
                   + " samples")


def at_best(data):
    """The rows of :func:`best_steps` at each (attention, n, T)'s best step length."""
    best = best_steps(data)
    return best[best["best"]]


def best_cells(df, best=None):
    """The rows of ``df`` at each (attention, n, T)'s best step length (``best``: its
    :func:`best_steps`, when computed)."""
    best = best_steps(df) if best is None else best
    best = best[best["best"]][["attention", "n", "n_steps", "step_length"]]
    return checked(df).merge(best, on=["attention", "n", "n_steps", "step_length"])


@fill_doc
def one_step_summary(df):
    """The one-step study's summary of one setting's rows: what its renderers and claims read.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`one_step` (rows of one setting).

    %(returns_study_summary)s
        ``rows`` (the table's number of rows; the other parts only when
        above 0): ``cells`` (the :func:`checked` rows), ``best``
        (:func:`best_steps`), ``best_cells`` (the runs at each best step
        length), ``per_cell`` (:func:`summarize_one_step` of these),
        ``population`` and ``kind`` (the runs the headline and claims read,
        :func:`analysed`) and ``population_best`` (the best step lengths
        of those runs).

    Examples
    --------
    >>> from skxor.papers import one_step
    >>> from skxor.papers.han_ghoshdastidar.one_step import one_step_summary
    >>> summary = one_step_summary(one_step(d=[100], m=[16], seeds=2, n_test=256,
    ...                                     step_length=[100.0], n_steps=1))
    >>> summary.rows, summary.kind, summary.per_cell["success_rate"].tolist()
    (6, 'exact population steps', [0.0, 0.0, 1.0])
    """
    if len(df) == 0:
        return Bunch(rows=0)
    cells = checked(df)
    best = best_steps(cells)
    at = best_cells(cells, best)
    population, kind = analysed(df)
    # The population steps are often every row: their best step lengths are then ``best``'s.
    population_best = (best[best["best"]] if len(population) == len(cells)
                       else at_best(population))
    return Bunch(rows=len(df), cells=cells, best=best, best_cells=at,
                 per_cell=summarize_one_step(at), population=population, kind=kind,
                 population_best=population_best)


#: The study's small run, which the doctests of its report, figures and bullet render.
DOC_EXAMPLES = study_examples(""">>> from skxor.papers.han_ghoshdastidar.one_step import STUDY
>>> df = STUDY.run(d=[100], m=[32], seeds=3, n_test=256, step_length=[10.0, 100.0],
...                n_steps=1)""")


def representable(rows, attention):
    """Which runs' heads could put all their weight on one bit (``concentrates(m, d)``);
    None where the attention type does not say."""
    concentrates = get_attention(attention).concentrates
    if concentrates is None:
        return None
    return np.array([bool(concentrates(int(m), int(d))) for m, d in zip(rows["m"], rows["d"])],
                    dtype=bool)


def representable_rows(rows):
    """Per row of ``rows`` (any attention types), whether its heads could put all their weight
    on one bit; False where its attention type does not say."""
    can = np.zeros(len(rows), dtype=bool)
    for attention in rows["attention"].unique():
        mask = (rows["attention"] == attention).to_numpy()
        found = representable(rows[mask], attention)
        if found is not None:
            can[mask] = found
    return can
