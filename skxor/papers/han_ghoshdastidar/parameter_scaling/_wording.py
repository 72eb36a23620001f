"""The parameter-scaling study's wording: the phrase its report and figure titles share."""

from skxor.studies import merge_preset
from ._cells import _normalised
from ._presets import PARAMETERS, PRESETS
from ._summary import _run_params


def setting_text(df):
    """One line for titles: the preset the parameters match best, what differs, seeds.

    Derived from ``df.attrs["params"]`` (the parameters the study ran with),
    so it reads the same whether the table came from
    :func:`parameter_scaling` or from ``skxor run``.
    """
    seeds = int(df["seeds"].iloc[0]) if len(df) else 0
    params = df.attrs.get("params") or ("setting" in df and len(df) and _run_params(df))
    if not params:
        return f"{seeds} seeds per size"
    params = _normalised(params)
    differences = {
        name: [k for k in PARAMETERS if params.get(k) != preset.get(k)]
        for name, preset in ((n, _normalised(merge_preset(PRESETS, n))) for n in PRESETS)
    }
    preset = min(differences, key=lambda name: len(differences[name]))
    text = f"{preset} preset"
    if differences[preset]:
        text += " with " + ", ".join(differences[preset]) + " overridden"
    return f"{text}, {seeds} seeds per size"
