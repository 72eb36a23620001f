"""The parameter-scaling study's figure: parameters needed against d, shares of seeds."""

import numpy as np

from .._figures import interval_errors, key_legends, log_axis, offset
from .._stats import format_interval
from ._cells import DISPLAY_NAMES, MODELS
from ._report import _coef
from ._summary import _run_params, _samples_d_max, _setting, parameter_slopes

_STYLE = {
    "transformer_population_one_step": dict(color="C4", marker="D", ls=":"),
    "transformer_population": dict(color="C2", marker="s", ls="--"),
    "transformer": dict(color="C0", marker="o", ls="-"),
    "ffnn": dict(color="C3", marker="^", ls="-."),
    "ffnn_random_features": dict(color="C1", marker="v", ls=(0, (3, 1, 1, 1))),
}


def plot_parameter_scaling(df):
    """Parameters needed against d (log-log) and the share of seeds at the size needed.

    Left: per model, the trainable parameters needed (filled markers; every
    size run has its own seeds) and, for the models with frozen random
    weights, the total with them (hollow markers, thin line); as references,
    the ``d + 3`` lower bound of any two-layer network and a curve
    proportional to log d. Right: the share of seeds reaching the threshold
    at the size needed, with Wilson 95% intervals (at the closest size where
    the rule was not met, drawn hollow). Series are offset slightly along d
    so coinciding points stay visible.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`parameter_scaling`, fresh or read back from its CSV
        (the figure needs only the table).

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
        ``{"parameter_scaling": figure}``.

    Examples
    --------
    >>> from skxor.studies import parameter_scaling, plot_parameter_scaling
    >>> one_and_five_steps = ["transformer_population_one_step", "transformer_population"]
    >>> df = parameter_scaling(model=one_and_five_steps, d=[16, 64], seeds=2,
    ...                        transformer_m=[4, 16, 64], n_test=1000)
    >>> fig = plot_parameter_scaling(df)["parameter_scaling"]
    >>> parameters, shares = fig.axes
    >>> models, kinds = shares.artists  # one step: no m met the rule at d = 16
    >>> for text in models.get_texts():
    ...     print(text.get_text())
    transformer, one step (population; the paper's setting): no slope (the rule met at fewer than two d)
    transformer, T steps (population): slope 0.00 (rough: no interval)
    >>> [text.get_text() for text in kinds.get_texts()][:2]
    ['trainable parameters (filled)', 'trainable + frozen random (hollow)']
    """
    from matplotlib.figure import Figure  # lazily: matplotlib is optional

    params = _run_params(df)
    threshold = params.get("threshold", 0.99)
    share = params.get("success_share", 0.8)
    slopes = parameter_slopes(df)
    fig = Figure(figsize=(15.0, 6.0), layout="constrained")
    ax, ax_share = fig.subplots(1, 2, width_ratios=[4, 3])
    models = [m for m in MODELS if m in set(df["model"])]
    colours, kinds = {}, {"trainable parameters (filled)": {"marker": "o", "ls": "-", "ms": 6}}
    for i, model in enumerate(models):
        shift = float(offset(1.0, i, len(models), base=1.06, spread=1.0))
        name, st = DISPLAY_NAMES[model], _STYLE[model]
        rows = df[df["model"] == model]
        reached = rows[rows["reached"]]
        colours[f"{name}: {_short_slope(slopes[model])}"] = dict(st, ms=6)
        ax.plot(reached["d"] * shift, reached["params"], ls=st["ls"], marker=st["marker"],
                color=st["color"], ms=7, mew=1.5, label=f"{name}: trainable")
        with_frozen = reached[reached["frozen"] > 0]
        if len(with_frozen):
            ax.plot(with_frozen["d"] * shift, with_frozen["total"], ls=st["ls"], lw=0.8,
                    marker=st["marker"], mfc="white", color=st["color"], ms=5,
                    label=f"{name}: total, with frozen")
            kinds["trainable + frozen random (hollow)"] = {"marker": st["marker"], "ls": st["ls"],
                                                          "lw": 0.8, "mfc": "white", "ms": 5}
        ax_share.errorbar(
            rows["d"] * shift, rows["success_rate"],
            yerr=interval_errors(rows["success_rate"], rows["success_low"],
                                 rows["success_high"]),
            ls="none", marker=st["marker"], color=st["color"], capsize=3, label=name,
        )
    d_all = np.unique(df["d"].to_numpy(dtype=float))
    if d_all.size:
        bound = "reference: d + 3 (any two-layer network, all trained)"
        ax.plot(d_all, d_all + 3, color="grey", lw=1, ls=(0, (6, 3)), zorder=5, label=bound)
        kinds[bound] = {"color": "grey", "lw": 1, "ls": (0, (6, 3))}
        anchor = df[df["reached"] & df["model"].str.startswith("transformer")].sort_values("d")
        if len(anchor):  # through the first transformer point, to compare shapes
            d0, p0 = float(anchor["d"].iloc[0]), float(anchor["params"].iloc[0])
            log_d = "reference: proportional to log d"
            ax.plot(d_all, p0 * np.log(d_all) / np.log(d0), color="black", lw=1, zorder=5,
                    ls=(0, (1, 2)), label=log_d)
            kinds[log_d] = {"color": "black", "lw": 1, "ls": (0, (1, 2))}
    rule = f"reference: the {share:.0%} rule (right)"
    ax_share.axhline(share, color="0.3", lw=1, ls=(0, (3, 3)), zorder=5, label=rule)
    kinds[rule] = {"color": "0.3", "lw": 1, "ls": (0, (3, 3))}
    for a in (ax, ax_share):
        # Label exactly the d values run; log-scale minor labels would collide.
        log_axis(a, d_all, label="input length d")
        if d_all.size > 6:
            a.tick_params(axis="x", labelrotation=45)
    ax.set_yscale("log")
    ax.set_ylabel(f"parameters at the size needed for {threshold:.0%} test accuracy")
    ax_share.set_ylabel(f"share of seeds reaching {threshold:.0%} at the size needed")
    ax_share.set_ylim(-0.03, 1.03)
    # Right of the panels: inside, they would hide points.
    key_legends(ax_share, colours, kinds, colour_title="model: slope of trainable parameters "
                "against log d (95% interval)", kind_title="what is drawn")
    ax_share.set_title("Wilson 95% intervals", fontsize="small")
    ax.set_title("filled: trainable; hollow: trainable + frozen", fontsize="small")
    samples = _samples_d_max(df)
    n_rule = (f"max({params.get('n_train_min')}, {_coef(params.get('n_train_per_d2'))}d²)"
              if params else "n(d)")
    fig.suptitle(
        f"Parameter scaling ({_setting(df)}): samples = n = {n_rule} training inputs"
        + (f" (d ≤ {samples})" if samples else "") + "; population = exact gradient; "
        f"T = {params.get('transformer_steps')} steps",
        fontsize="medium",
    )
    return {"parameter_scaling": fig}


def _short_slope(fit):
    """A slope for a legend: ``"slope 0.13 [0.06, 0.22]"``, "(rough)" without an
    interval, and a sentence (not "-") when there is none.

    Examples
    --------
    >>> from skxor.studies._parameter_scaling._figures import _short_slope
    >>> _short_slope({"slope": -0.001, "low": float("nan"), "high": float("nan"), "rough": True})
    'slope 0.00 (rough: no interval)'
    >>> _short_slope({"slope": float("nan"), "low": float("nan"), "high": float("nan")})
    'no slope (the rule met at fewer than two d)'
    """
    if not np.isfinite(fit["slope"]):
        return "no slope (the rule met at fewer than two d)"
    # Rounded first, so that a slope of -0.001 reads 0.00, not -0.00.
    values = [0.0 if round(float(v), 2) == 0 else float(v)
              for v in (fit["slope"], fit["low"], fit["high"])]
    text = format_interval(*values)
    return f"slope {text}" + (" (rough: no interval)" if fit.get("rough") else "")
