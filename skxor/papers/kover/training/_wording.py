"""The training study's wording: how its report, headline, figures and claim name settings and series."""

import numpy as np
import pandas as pd

from skxor.boolean import NAMED_FUNCTIONS
from skxor.studies.reporting import seeds_text, values_text
from ._cells import MODEL_SETTINGS, training_cells
from ._presets import PRESETS
from ._summary import SETTINGS


def setting_label(model_setting):
    """``"library"`` / ``"paper, xavier_uniform init"``: a model setting for legends and tables.

    Examples
    --------
    >>> from skxor.papers.kover.training import setting_label
    >>> setting_label("paper_xavier_uniform"), setting_label("library")
    ('paper, xavier_uniform init', 'library')
    """
    if str(model_setting).startswith("paper_"):
        return f"paper, {str(model_setting)[len('paper_'):]} init"
    return str(model_setting)


def setting_description(model_setting):
    """The model setting in words: read-out, positions, init and eps.

    Examples
    --------
    >>> from skxor.papers.kover.training import setting_description
    >>> setting_description("library")
    "library: last-token read-out, learned positions, PyTorch's default init, eps = 1e-05"
    """
    s = MODEL_SETTINGS.get(model_setting)
    if s is None:
        return str(model_setting)
    read = {"last": "last-token", "eos": "eos", "cls": "CLS"}[s["readout"]]
    init = "PyTorch's default" if s["init"] == "default" else s["init"]
    who = "Köver et al.'s setting" if model_setting.startswith("paper_") else model_setting
    return (f"{who}: {read} read-out, {s['positional']} positions, {init} init, "
            f"eps = {s['layer_norm_eps']:g}")


def series_label(function, values, columns, df):
    """A series' name in legends and tables; ``df`` is the summary's table."""
    parts = [function]
    for column, value in zip(columns, values):
        if column == "model_setting":
            if df[column].nunique() > 1:
                parts.append(setting_label(value))
            continue
        parts.append(f"{column}={value:g}")
    return parts[0] if len(parts) == 1 else f"{parts[0]} ({', '.join(parts[1:])})"


def preset_label(df):
    """"quick preset" / "full preset" when the summary's table is exactly one, else "custom
    settings"."""
    for name in PRESETS:
        params = dict(PRESETS["quick"], **PRESETS[name])
        cells = pd.DataFrame(training_cells(params))
        same = (
            set(df["function"]) == set(params["function"])
            and set(df["n_bits"]) == set(params["n_bits"])
            and set(df["model_setting"]) == set(params["model_setting"])
            and set(df["seed"]) == set(range(params["seeds"]))
            and all(c in df and set(df[c]) == {params[c]}
                    for c in SETTINGS + ("random_state",) if c != "n_steps")
            and all(set(df.loc[df["function"] == f, "n_steps"]) == set(g["n_steps"])
                    for f, g in cells.groupby("function"))
        )
        if same:
            return f"{name} preset"
    return "custom settings"


def seeds_per_cell(df, series):
    """``"5 seeds"``, or ``"4-5 seeds"``: the runs per function, N and series (the summary's)."""
    return seeds_text(df.groupby(["function", "n_bits", *series]).size())


def budget_text(df, unit="steps"):
    """The runs' step budgets in words: one number, or per function and N.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.kover.training import budget_text
    >>> df = pd.DataFrame({"function": ["PARITY"] * 3 + ["FIRST"], "n_bits": [4, 8, 32, 4],
    ...                    "n_steps": [20000, 20000, 1000, 1000]})
    >>> budget_text(df)
    'at most 20000 (PARITY at N = 4, 8), 1000 (PARITY at N = 32; FIRST) steps'
    >>> budget_text(df.assign(n_steps=600))
    'at most 600 steps'
    """
    budgets = df.groupby(["function", "n_bits"])["n_steps"].max()
    if budgets.nunique() == 1:
        return f"at most {int(budgets.iloc[0])} {unit}"
    order = [f for f in NAMED_FUNCTIONS if f in budgets.index.get_level_values(0)]
    parts = []
    for steps in sorted(set(budgets), reverse=True):
        who = []
        for function in order:
            at = budgets.loc[function]
            lengths = at.index[at == steps]
            if len(lengths) == len(at):
                who.append(function)
            elif len(lengths):
                who.append(f"{function} at N = {values_text(int(n) for n in lengths)}")
        parts.append(f"{int(steps)} ({'; '.join(who)})")
    return "at most " + ", ".join(parts) + f" {unit}"


def steps_to_learn_text(row):
    """A row's median steps to learn with its 95% interval; beyond the budget as ``> budget``.

    Examples
    --------
    >>> from skxor.papers.kover.training import steps_to_learn_text
    >>> row = dict(steps_to_learn=1200.0, steps_to_learn_low=800.0,
    ...            steps_to_learn_high=float("inf"), n_steps=20000)
    >>> steps_to_learn_text(row)
    '1200 [800, > 20000]'
    >>> steps_to_learn_text(dict(row, steps_to_learn=float("inf")))
    '> 20000 [800, > 20000]'
    """
    def one(value):
        if value == float("inf"):
            return f"> {int(row['n_steps'])}"
        return "0" if value == float("-inf") else f"{value:.0f}"

    return (f"{one(row['steps_to_learn'])} [{one(row['steps_to_learn_low'])}, "
            f"{one(row['steps_to_learn_high'])}]")


def growth_sentences(summary, series, df, function="PARITY"):
    """How the median steps to learn ``function`` grow with N, one sentence per series."""
    out = []
    part = summary[summary["function"] == function]
    for keys, group in part.groupby(series, sort=False) if len(part) else []:
        keys = keys if isinstance(keys, tuple) else (keys,)
        group = group.sort_values("n_bits")
        steps, budget, texts = None, 0, []
        for _, r in group.iterrows():
            if r["n_steps"] < budget:  # a shorter budget than the length before: says no more
                break
            budget, notes, now = r["n_steps"], [], r["steps_to_learn"]
            if steps is not None and np.isfinite(now) and np.isfinite(steps) and steps > 0:
                notes.append(f"x{now / steps:.1f}")
            if np.isfinite(r.get("plateau_max", np.nan)):
                notes.append(f"at chance first for a median of {r['plateau_median']:.0f} "
                             f"steps, at most {r['plateau_max']:.0f}")
            steps = now
            texts.append(f"{steps_to_learn_text(r)} at N = {int(r['n_bits'])}"
                         + (f" ({'; '.join(notes)})" if notes else ""))
            if not np.isfinite(now):  # beyond the budget: the longer lengths say no more
                break
        out.append(f"{series_label(function, keys, series, df)}: " + ", ".join(texts))
    return out
