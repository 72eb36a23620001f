"""The training study's loss curves: every run's training loss against steps."""

import json

import numpy as np

from skxor.boolean import NAMED_FUNCTIONS
from skxor.studies.figures import key_legends, panel_grid
from ._wording import setting_label


#: Line style of a loss curve by how its run stopped (see :func:`loss_status`).
_STOP_STYLE = {"target": "-", "flat": "--", "budget": ":", "short": "-."}


_STOP_NAME = {"target": "stopped at the target", "flat": "flat at the budget",
              "budget": "budget-limited (still falling)", "short": "too short to tell"}


def _plot_loss_curves(df, caption):
    """Every run's training loss against steps: one panel per (model setting, function).

    Colour: N; line style: how the run stopped (at the target, flat, or
    budget-limited), so a run cut off by its budget shows as such. Every
    logged value (the mean loss of each stretch of ``check_every`` steps)
    has a small marker, so that a run that stopped at its first check shows
    as a point. One legend of the N drawn and one of the line styles, beside
    the top right panel.
    """
    settings = list(dict.fromkeys(df["model_setting"]))
    functions = [f for f in NAMED_FUNCTIONS if f in set(df["function"])]
    n_values = sorted(int(n) for n in df["n_bits"].unique())
    colours = _n_colours(len(n_values))
    fig, grid = panel_grid(len(settings), len(functions), size=(3.8, 3.0), pad=(2.0, 0.8),
                           sharey=True)
    for i, setting in enumerate(settings):
        for j, function in enumerate(functions):
            ax = grid[i, j]
            runs = df[(df["model_setting"] == setting) & (df["function"] == function)]
            for _, run in runs.sort_values(["n_bits", "seed"]).iterrows():
                curve = json.loads(run["loss_curve"])
                steps = np.arange(1, len(curve) + 1) * int(run["check_every"])
                n = int(run["n_bits"])
                ax.plot(steps, curve, color=colours[n_values.index(n)], lw=1.0, marker=".",
                        ms=3, ls=_STOP_STYLE.get(run.get("stop"), "-"),
                        label=f"{function}, {setting}, N = {n}, seed {run['seed']}")
            ax.set_yscale("log")
            ax.set_xlabel("training steps")
            ax.set_ylabel("training loss (mean per check)")
            ax.set_title(f"{function}, {setting_label(setting)}", fontsize="small")
    stops = [s for s in _STOP_STYLE if s in set(df.get("stop", []))]
    key_legends(grid[0, -1], {f"N = {n}": colours[k] for k, n in enumerate(n_values)},
                {_STOP_NAME[s]: {"ls": _STOP_STYLE[s], "marker": ".", "ms": 3, "lw": 1.0}
                 for s in stops},
                colour_title="string length N", kind_title="the run (line style)")
    fig.suptitle(f"Loss curves, every run, a point per check\n({caption})", fontsize="small")
    return fig


def _n_colours(n):
    """``n`` colours of the viridis map, dark to light (one per string length)."""
    from matplotlib import colormaps

    return [colormaps["viridis"](x) for x in np.linspace(0.0, 0.85, max(n, 1))]
