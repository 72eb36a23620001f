"""The random-initialisation study's profiles figure (mean profile per scheme)."""

import json

import numpy as np

from skxor.studies.figures import panel_grid
from skxor.boolean import NAMED_FUNCTIONS
from ._cells import SETTING
from ._display_style import _SCHEME_COLOURS


def _plot_profiles(df, models, eps_note):
    """Mean profile of the non-constant networks per scheme at the largest exhaustive N.

    One :class:`~skxor.plotting.SensitivityProfileDisplay` per scheme (pooled
    over the scheme's settings), PARITY, MAJORITY and FIRST as labelled
    references; a scheme whose networks are all constant shows their mean.
    """
    from skxor.plotting import SensitivityProfileDisplay

    exhaustive = models[models["method"] == "exhaustive"]
    if not len(exhaustive):
        exhaustive = models
    n_bits = int(exhaustive["n_bits"].max())
    at_n = exhaustive[exhaustive["n_bits"] == n_bits]
    schemes = list(dict.fromkeys(at_n["init"]))
    references = {}
    for function in NAMED_FUNCTIONS:
        ref = df[(df["function"] == function) & (df["n_bits"] == n_bits)]
        if len(ref):
            references[f"reference: {function}"] = json.loads(ref["profile"].iloc[0])
    fig, (axes,) = panel_grid(1, max(len(schemes), 1), size=(3.4, 3.8), pad=(0.6, 0.0),
                              sharey=True)
    for ax, init in zip(axes, schemes):
        part = at_n[at_n["init"] == init]
        settings = part.groupby(SETTING, sort=False).ngroups
        shown = part[~part["constant"].astype(bool)]
        if len(shown):
            name = f"mean of {len(shown)} non-constant of {len(part)} networks"
        else:
            shown, name = part, f"all {len(part)} networks constant"
        mean = np.mean([json.loads(p) for p in shown["profile"]], axis=0)
        disp = SensitivityProfileDisplay(mean, name=name, references=references).plot(
            ax=ax, reference_style="steps", color=_SCHEME_COLOURS.get(init, "tab:gray"))
        ax.legend(handles=[*disp.bars_, *disp.reference_lines_], fontsize="xx-small",
                  loc="upper right")
        ax.set_title(f"{init}" + (f" ({settings} settings pooled)" if settings > 1 else ""),
                     fontsize="small")
    fig.suptitle(f"Sensitivity profiles at random initialisation, N = {n_bits} (all "
                 f"strings), {int(models['seed'].nunique())} seeds per setting.{eps_note}",
                 fontsize="small")
    return fig
