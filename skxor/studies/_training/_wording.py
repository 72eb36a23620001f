"""The training study's wording: how its report, headline, figures and claim name settings and series."""

import pandas as pd

from .._report import seeds_text
from ._cells import MODEL_SETTINGS, training_cells
from ._presets import PRESETS
from ._summary import SETTINGS, series_columns, with_model_setting


def setting_label(model_setting):
    """``"library"`` / ``"paper, xavier_uniform init"``: a model setting for legends and tables.

    Examples
    --------
    >>> from skxor.studies._training import setting_label
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
    >>> from skxor.studies._training import setting_description
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
    df = with_model_setting(df)
    parts = [function]
    for column, value in zip(columns, values):
        if column == "model_setting":
            if df[column].nunique() > 1:
                parts.append(setting_label(value))
            continue
        parts.append(f"{column}={value:g}")
    return parts[0] if len(parts) == 1 else f"{parts[0]} ({', '.join(parts[1:])})"


def preset_label(df):
    """"quick preset" / "full preset" when the table is exactly one, else "custom settings"."""
    df = with_model_setting(df)
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


def seeds_per_cell(df):
    """``"5 seeds"``, or ``"4-5 seeds"``: the runs per function, N and series."""
    df = with_model_setting(df)
    return seeds_text(df.groupby(["function", "n_bits", *series_columns(df)]).size())
