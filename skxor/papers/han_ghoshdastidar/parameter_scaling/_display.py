"""The parameter-scaling study's figure: parameters needed against d, shares of seeds."""

import numpy as np


from skxor._utils._docstrings import fill_doc
from skxor.studies.figures import interval_errorbar, key_legends, log_axis, offset, StudyDisplay
from skxor.studies.stats import format_interval
from ._cells import DISPLAY_NAMES, MODELS
from ._section import _coef
from ._summary import _run_params, parameter_scaling_summary
from ._wording import setting_text

_STYLE = {
    "transformer_population_one_step": dict(color="C4", marker="D", ls=":"),
    "transformer_population": dict(color="C2", marker="s", ls="--"),
    "transformer": dict(color="C0", marker="o", ls="-"),
    "ffnn": dict(color="C3", marker="^", ls="-."),
    "ffnn_random_features": dict(color="C1", marker="v", ls=(0, (3, 1, 1, 1))),
    "ffnn_online": dict(color="C5", marker="P", ls=(0, (5, 2))),
}


@fill_doc
def render_figures(summary):
    """Parameters needed against d (log-log) and the share of seeds at the size needed.

    Called as ``get_study("parameter_scaling").render("figures", table)``, on the
    table's :func:`~skxor.papers.han_ghoshdastidar.parameter_scaling.parameter_scaling_summary`.

    Left: per model, the trainable parameters needed (filled markers; every
    size run has its own seeds) and, for the models with frozen random
    weights, the total with them (hollow markers, thin line); as references,
    the ``d + 3`` lower bound of any two-layer network and a curve
    proportional to log d (drawn by :class:`ParametersNeededDisplay`). Right: the share of seeds reaching the threshold
    at the size needed, with Wilson 95% intervals (at the closest size where
    the rule was not met, drawn hollow). Series are offset slightly along d
    so coinciding points stay visible.

    %(returns_study_figures)s
        ``{"parameter_scaling": figure}``.

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.parameter_scaling import STUDY
    >>> one_and_five_steps = ["transformer_population_one_step", "transformer_population"]
    >>> df = STUDY.run(model=one_and_five_steps, d=[16, 64], seeds=2,
    ...                transformer_m=[4, 16, 64], n_test=1000)
    >>> fig = STUDY.render("figures", df)["parameter_scaling"]
    >>> parameters, shares = fig.axes
    >>> models, kinds = fig.legends  # below the panels; one step: no m met the rule at d = 16
    >>> for text in models.get_texts():
    ...     print(text.get_text())
    transformer, one step (population; the paper's setting): no slope (the rule met at fewer than two d)
    transformer, T steps (population): slope 0.00 (rough: no interval)
    >>> [text.get_text() for text in kinds.get_texts()][:2]
    ['trainable parameters (filled)', 'trainable + frozen random (hollow)']
    """
    from matplotlib.figure import Figure  # lazily: matplotlib is optional

    df, params, samples = summary.table, summary.params, summary.samples_d_max
    threshold = params.get("threshold", 0.99)
    share = params.get("success_share", 0.8)
    fig = Figure(figsize=(14.0, 7.0), layout="constrained")
    ax, ax_share = fig.subplots(1, 2, width_ratios=[4, 3])
    # The left panel is the display's; its legends and the right panel's go below both.
    display = ParametersNeededDisplay(df, slopes=summary.slopes).plot(ax=ax, legend=False)
    colours, kinds = (dict(keys) for keys in display.keys_)  # the display's stay as drawn
    models = [m for m in MODELS if m in set(df["model"])]
    for model, shift in _shifts(models).items():
        rows, st = df[df["model"] == model], _STYLE[model]
        interval_errorbar(
            ax_share, rows["d"] * shift, rows, "success_rate", ls="none", marker=st["marker"], color=st["color"], capsize=3,
            label=DISPLAY_NAMES[model],
        )
    rule = f"reference: the {share:.0%} rule (right)"
    ax_share.axhline(share, color="0.3", lw=1, ls=(0, (3, 3)), zorder=5, label=rule)
    kinds[rule] = {"color": "0.3", "lw": 1, "ls": (0, (3, 3))}
    _d_axis(ax_share, df)
    ax_share.set_ylabel(f"share of seeds reaching {threshold:.0%} at the size needed")
    ax_share.set_ylim(-0.03, 1.03)
    # Below the panels: inside, they would hide points; beside them, they took a third of
    # the width.
    key_legends(fig, colours, kinds, colour_title=_COLOUR_TITLE, kind_title="what is drawn",
                below=True, kind_ncols=2)
    ax_share.set_title("Wilson 95% intervals", fontsize="small")
    n_rule = (f"max({params.get('n_train_min')}, {_coef(params.get('n_train_per_d2'))}d²)"
              if params else "n(d)")
    fig.suptitle(
        f"Parameter scaling ({setting_text(df)}): samples = n = {n_rule} training inputs"
        + (f" (d ≤ {samples})" if samples else "") + "; population = exact gradient; "
        + ("online = fresh inputs every step; " if (df["model"] == "ffnn_online").any() else "")
        + f"T = {params.get('transformer_steps')} steps",
        fontsize="medium",
    )
    return {"parameter_scaling": fig}


_COLOUR_TITLE = "model: slope of trainable parameters against log d (95% interval)"


def _shifts(models):
    """Each model's factor along d, so that coinciding points of the models stay visible."""
    return {model: float(offset(1.0, i, len(models), base=1.06, spread=1.0))
            for i, model in enumerate(models)}


def _d_axis(ax, df):
    """A log d axis labelled at exactly the d values run (minor labels would collide)."""
    d_all = np.unique(df["d"].to_numpy(dtype=float))
    log_axis(ax, d_all, label="input length d")
    if d_all.size > 6:
        ax.tick_params(axis="x", labelrotation=45)
    return d_all


@fill_doc
class ParametersNeededDisplay(StudyDisplay):
    """Trainable parameters needed against d per model, with the references: the study's main figure.

    Follows :mod:`skxor.plotting`'s displays (and scikit-learn's): build it
    with :meth:`from_table` from a parameter-scaling table, or from the
    table, then :meth:`plot` on any axes. Per model, the trainable
    parameters at the size needed (filled markers) and, for the models with
    frozen random weights, the total with them (hollow markers, thin line),
    on log-log axes; as references, the ``d + 3`` lower bound of any
    two-layer network and a curve proportional to log d through the first
    transformer point. Models are offset slightly along d so coinciding
    points stay visible; a (model, d) where no size met the rule is not drawn.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`~skxor.papers.parameter_scaling` (or its
        stored table): one row per model and d.
    slopes : dict or None, default=None
        :func:`~skxor.papers.han_ghoshdastidar.parameter_scaling.parameter_slopes` of ``df``
        when computed (the study's summary holds it); None: computed here.

    Attributes
    ----------
    needed : pandas.DataFrame
        The rows drawn: per model and d where the rule was met, the
        trainable (``params``), ``frozen`` and ``total`` parameters at the
        size needed.
    slopes : dict of str to dict
        :func:`~skxor.papers.han_ghoshdastidar.parameter_scaling.parameter_slopes` of the
        table, per model (shown in the legend).
    %(display_drawn)s
        The legend of the models (each with its slope) and the legend of
        what is drawn, beside the axes (empty with ``legend=False``).
    %(display_keys)s

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skxor.papers import ParametersNeededDisplay, parameter_scaling
    >>> df = parameter_scaling(model=["transformer_population"], d=[16, 64], seeds=2,
    ...                        transformer_m=[4, 16, 64], n_test=1000)
    >>> ax = Figure(layout="constrained").subplots()
    >>> display = ParametersNeededDisplay.from_table(df, ax=ax)
    >>> display.ax_ is ax, [len(legend.get_texts()) for legend in display.legends_]
    (True, [1, 4])
    >>> display.needed[["model", "d", "params"]].values.tolist()
    [['transformer_population', 16, 32.0], ['transformer_population', 64, 32.0]]
    """

    def __init__(self, df, *, slopes=None):
        self.df = df
        self.needed = df.loc[df["reached"].astype(bool),
                             ["model", "d", "params", "frozen", "total"]].reset_index(drop=True)
        self.slopes = parameter_scaling_summary(df).slopes if slopes is None else slopes

    def _draw(self, ax):
        df, needed = self.df, self.needed
        params = _run_params(df)
        threshold = params.get("threshold", 0.99)
        models = [m for m in MODELS if m in set(df["model"])]
        colours, kinds = {}, {"trainable parameters (filled)": {"marker": "o", "ls": "-", "ms": 6}}
        for model, shift in _shifts(models).items():
            name, st = DISPLAY_NAMES[model], _STYLE[model]
            reached = needed[needed["model"] == model]
            colours[f"{name}: {_short_slope(self.slopes[model])}"] = dict(st, ms=6)
            ax.plot(reached["d"] * shift, reached["params"], ls=st["ls"], marker=st["marker"],
                    color=st["color"], ms=7, mew=1.5, label=f"{name}: trainable")
            with_frozen = reached[reached["frozen"] > 0]
            if len(with_frozen):
                ax.plot(with_frozen["d"] * shift, with_frozen["total"], ls=st["ls"], lw=0.8,
                        marker=st["marker"], mfc="white", color=st["color"], ms=5,
                        label=f"{name}: total, with frozen")
                kinds["trainable + frozen random (hollow)"] = {
                    "marker": st["marker"], "ls": st["ls"], "lw": 0.8, "mfc": "white", "ms": 5}
        d_all = _d_axis(ax, df)
        if d_all.size:
            bound = "reference: d + 3 (any two-layer network, all trained)"
            ax.plot(d_all, d_all + 3, color="grey", lw=1, ls=(0, (6, 3)), zorder=5, label=bound)
            kinds[bound] = {"color": "grey", "lw": 1, "ls": (0, (6, 3))}
            anchor = needed[needed["model"].str.startswith("transformer")].sort_values("d")
            if len(anchor):  # through the first transformer point, to compare shapes
                d0, p0 = float(anchor["d"].iloc[0]), float(anchor["params"].iloc[0])
                log_d = "reference: proportional to log d"
                ax.plot(d_all, p0 * np.log(d_all) / np.log(d0), color="black", lw=1, zorder=5,
                        ls=(0, (1, 2)), label=log_d)
                kinds[log_d] = {"color": "black", "lw": 1, "ls": (0, (1, 2))}
        ax.set_yscale("log")
        ax.set_ylabel(f"parameters at the size needed for {threshold:.0%} test accuracy")
        ax.set_title("filled: trainable; hollow: trainable + frozen", fontsize="small")
        self.keys_ = (colours, kinds)
        return lambda: key_legends(ax, dict(colours), dict(kinds), colour_title=_COLOUR_TITLE,
                                   kind_title="what is drawn")


def _short_slope(fit):
    """A slope for a legend: ``"slope 0.13 [0.06, 0.22]"``, "(rough)" without an
    interval, and a sentence (not "-") when there is none.

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.parameter_scaling._display import _short_slope
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
