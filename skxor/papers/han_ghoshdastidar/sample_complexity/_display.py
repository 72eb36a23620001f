"""The sample-complexity study's figures: learning curves and n* against d."""

import numpy as np


from skxor._utils._docstrings import fill_doc_with
from skxor.studies.figures import MARKERS, key_legends, log_axis, offset, StudyDisplay, panel_grid
from ._cells import MODELS
from ._section import _exponent_text
from ._summary import (
    DOC_EXAMPLES,
    sample_complexity_summary,
)
from ._wording import setting_text


_MARKERS = {"transformer_one_step": "o", "transformer_multi_step": "s", "ffnn": "^"}


@fill_doc_with(DOC_EXAMPLES)
def render_figures(summary):
    """Learning curves per d, and n*(d) per seed on log-log axes with fits and bands.

    Called as ``get_study("sample_complexity").render("figures", table)``.

    %(returns_study_figures)s
        ``"learning_curves"`` (mean test accuracy over seeds against n, one
        panel per model, one line per d) and ``"samples_needed"`` (each
        seed's n* as its grid cell, a bar from the last failing size to the
        first size from which the accuracy stays up; hollow, down to the
        axis, where left-censored at the grid floor; triangles above the
        grid where right-censored; crosses above the grid for the seeds
        whose population run fails (no finite n*, left out of the fit);
        the maximum-likelihood fit of the median n* per model over the
        other seeds with its profile-likelihood 95% slope band and p_pop in
        the model's legend entry; a labelled d^4 reference slope), drawn by
        :class:`SamplesNeededDisplay`.

    %(examples)s
    >>> figures = STUDY.render("figures", df)
    >>> curves = figures["learning_curves"].axes[0]
    >>> [text.get_text() for text in curves.get_legend().get_texts()]
    ['d = 10', 'd = 20', 'target 0.95']
    >>> for legend in figures["samples_needed"].legends:  # below the panel
    ...     print([text.get_text() for text in legend.get_texts()])
    ['transformer_multi_step: p_pop 4/4, a = 1.17 [-7.44, 10.01] (4 curves, 2 censored)']
    ['n* per seed (bar: its grid cell)', 'at the grid floor (left-censored)', 'ML fit of the median n*', 'its 95% slope band', "reference slope d^4 (the proof's bound, up to polylog d)", 'grid floor n = 100']
    """
    from matplotlib.figure import Figure

    df = summary.analysed
    target = float(df["target"].iloc[0])
    models = [m for m in MODELS if m in set(df["model"])]
    ds = sorted(df["d"].unique())
    curves, (axes,) = panel_grid(1, len(models), size=(4.0, 3.6), pad=(0.8, 0.0), sharey=True)
    mean = df.groupby(["model", "d", "n"])["accuracy"].mean().reset_index()
    for ax, model in zip(axes, models):
        for i, d in enumerate(ds):
            group = mean[(mean["model"] == model) & (mean["d"] == d)]
            ax.plot(group["n"], group["accuracy"], marker=MARKERS[i % len(MARKERS)], ms=3,
                    ls="-", lw=1, label=f"d = {d}", color=f"C{i}")
        ax.axhline(target, color="grey", lw=0.8, ls="--", label=f"target {target:g}")
        ax.set_xscale("log")
        ax.set_xlabel("training samples n")
        ax.set_title(model, fontsize="small")
        ax.set_ylabel("test accuracy (mean over seeds)")
    axes[-1].legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.02, 1.0))
    curves.suptitle(f"Learning curves: {setting_text(df)}{_plateau_text(df, target)}",
                    fontsize="small", wrap=True)

    # The legends below the panel (beside it they took half the figure's width), the
    # title the figure's: the axes' own, two lines wider than the axes, was cut at the left.
    scaling = Figure(figsize=(11.5, 6.4), layout="constrained")
    display = SamplesNeededDisplay(df, summary=summary).plot(ax=scaling.subplots(), legend=False)
    display.ax_.set_title("")
    key_legends(scaling, *display.keys_, kind_title="what is drawn", colour_title=_COLOUR_TITLE,
                below=True, kind_ncols=2)
    scaling.suptitle(f"Samples needed: {setting_text(df)}. {_SCALING_NOTE}", fontsize="small")
    return {"learning_curves": curves, "samples_needed": scaling}


_COLOUR_TITLE = "model (a: fitted exponent of n* ~ d^a)"
_SCALING_NOTE = ("Lines: ML fit of the median n* (censored kept) over the seeds whose "
                 "population run succeeds;\nbands: profile likelihood 95%; crosses at the top: "
                 "seeds whose population run fails, which no sample size mends")


def _plateau_text(df, target):
    """Why a mean curve levels off below 1: the seeds still under ``target`` at the largest n.

    A mean over seeds of accuracies near 1.0 or near chance (0.5) levels off at the share
    of seeds that learned; naming them keeps the plateau from reading as a partial fit.
    """
    last = df.loc[df.groupby(["model", "d", "seed"])["n"].idxmax()]
    short = last[last["accuracy"] < target].groupby(["model", "d"]).size()
    if short.empty:
        return ""
    seeds = last.groupby(["model", "d"]).size()
    parts = [f"{model} at d = " + ", ".join(f"{d} ({short[model, d]}/{seeds[model, d]})"
                                           for d in short[model].index)
             for model in short.index.get_level_values("model").unique()]
    return ("; a curve levelling off below 1 averages seeds at 1.0 with seeds still below "
            f"{target:g} at the largest n (near chance, 0.5): " + "; ".join(parts))


@fill_doc_with(DOC_EXAMPLES)
class SamplesNeededDisplay(StudyDisplay):
    """n* against d per seed, with each model's fitted exponent: the study's main figure.

    Follows :mod:`skxor.plotting`'s displays (and scikit-learn's): build it
    with :meth:`from_table` from a sample-complexity table, or from its
    parts, then :meth:`plot` on any axes.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`~skxor.papers.sample_complexity` (or its
        stored table): one row per model, d, seed and training size n.
    summary : sklearn.utils.Bunch or None, default=None
        The study's summary of ``df``
        (:func:`~skxor.papers.han_ghoshdastidar.sample_complexity.sample_complexity_summary`)
        when computed; None: computed here.

    Attributes
    ----------
    per_seed : pandas.DataFrame
        :func:`~skxor.papers.n_star_per_seed` of the table.
    fits : pandas.DataFrame
        :func:`~skxor.papers.fit_exponents`, indexed by model.
    %(display_drawn)s
        The legend of the models (each with its exponent) and the legend of
        what is drawn, beside the axes (empty with ``legend=False``).
    %(display_keys)s

    %(examples)s
    >>> from matplotlib.figure import Figure
    >>> from skxor.papers import SamplesNeededDisplay
    >>> ax = Figure(layout="constrained").subplots()
    >>> display = SamplesNeededDisplay.from_table(df, ax=ax)
    >>> display.ax_ is ax, [len(legend.get_texts()) for legend in display.legends_]
    (True, [1, 6])
    >>> display.per_seed["status"].tolist()
    ['at grid floor', 'reached', 'at grid floor', 'reached']
    """

    def __init__(self, df, *, summary=None):
        summary = sample_complexity_summary(df) if summary is None else summary
        self.df, self.per_seed = summary.analysed, summary.per_seed
        self.fits = summary.fits.set_index("model")
        self._grid = summary.grid

    def _draw(self, ax):
        df, per_seed, fits = self.df, self.per_seed, self.fits
        target = float(df["target"].iloc[0])
        models = [m for m in MODELS if m in set(df["model"])]
        ds = sorted(df["d"].unique())
        sizes, _ = self._grid
        lo_d, hi_d = np.log(min(ds)), np.log(max(ds))
        grid_d = np.exp(np.linspace(lo_d, hi_d, 50))
        above = sizes.max() * 1.5  # where right-censored seeds are drawn
        bottom = sizes.min() / 1.5
        colours, kinds = {}, {}
        for i, model in enumerate(models):
            color, marker = f"C{i}", _MARKERS.get(model, "D")
            shift = float(offset(1.0, i, len(models), spread=0.012, base=10))  # models apart
            part = per_seed[per_seed["model"] == model]
            jitter = 10 ** (0.006 * (part["seed"].to_numpy() % 5 - 2))
            x = part["d"].to_numpy() * shift * jitter
            # A seed failing in the population limit has no n*: drawn apart, not as censored.
            failed = (part["population_success"] == 0).to_numpy()
            if failed.any():
                ax.plot(x[failed], np.full(failed.sum(), above * 1.25), ls="none", marker="x",
                        ms=5, color=color, label=f"{model}: population run fails (no n*)")
                kinds["population run fails (no n*, not fitted)"] = {"marker": "x",
                                                                     "ls": "none", "ms": 5}
            low, high = part["n_low"].to_numpy(float), part["n_high"].to_numpy(float)
            ok = (part["status"] == "reached").to_numpy() & ~failed
            if ok.any():
                ax.vlines(x[ok], low[ok], high[ok], color=color, lw=1, alpha=0.6,
                          label=f"{model}: grid cell (last failing n, n*] per seed")
                ax.plot(x[ok], high[ok], ls="none", marker=marker, ms=4, color=color, alpha=0.7,
                        label=f"{model}: n* per seed")
                kinds["n* per seed (bar: its grid cell)"] = {"marker": "o", "ls": "none", "ms": 4}
            floor = (part["status"] == "at grid floor").to_numpy() & ~failed
            if floor.any():
                ax.vlines(x[floor], bottom, high[floor], color=color, lw=1, ls=":", alpha=0.6,
                          label=f"{model}: left-censored cell (0, n*]")
                ax.plot(x[floor], high[floor], ls="none", marker="o", ms=5, mfc="none",
                        color=color, label=f"{model}: at grid floor (left-censored)")
                kinds["at the grid floor (left-censored)"] = {"marker": "o", "ls": "none",
                                                              "mfc": "none", "ms": 5}
            missing = (part["status"] == "not reached").to_numpy() & ~failed
            if missing.any():
                ax.plot(x[missing], np.full(missing.sum(), above), ls="none", marker="^", ms=5,
                        mfc="none", color=color,
                        label=f"{model}: not reached by n = {sizes.max():,} (right-censored)")
                kinds[f"not reached by n = {sizes.max():,}"] = {"marker": "^", "ls": "none",
                                                                "mfc": "none", "ms": 5}
            fit = fits.loc[model]
            colours[model] = color
            known = part["population_success"].notna()
            p_pop = (f"p_pop {int((part['population_success'] == 1).sum())}/{int(known.sum())}, "
                     if known.any() else "")
            if np.isfinite(fit["exponent"]):
                colours.pop(model)
                colours[f"{model}: {p_pop}a = {_exponent_text(fit)} ({int(fit['n_points'])} "
                        f"curves, {int(fit['left_censored'] + fit['right_censored'])} "
                        "censored)"] = color
                centred = np.log(grid_d) - fit["log_d_centre"]
                ax.plot(grid_d, np.exp(fit["intercept"] + fit["exponent"] * centred), color=color,
                        lw=1.2, label=f"{model}: ML fit, a = {_exponent_text(fit)}")
                kinds["ML fit of the median n*"] = {"ls": "-", "lw": 1.2}
                if np.isfinite(fit["low"]) and np.isfinite(fit["high"]):
                    band = [np.exp(fit["intercept"] + a * centred) for a in (fit["low"], fit["high"])]
                    ax.fill_between(grid_d, np.minimum(*band), np.maximum(*band), color=color,
                                    alpha=0.15, lw=0, label=f"{model}: 95% slope band")
                    kinds["its 95% slope band"] = {"patch": True}
        reachable = per_seed.loc[per_seed["status"] != "not reached", "n_star"]
        anchor = float(reachable.min()) if len(reachable) else float(sizes.min())
        reference = "reference slope d^4 (the proof's bound, up to polylog d)"
        ax.plot(grid_d, anchor * (grid_d / min(ds)) ** 4, color="black", ls="--", lw=1, zorder=5,
                label=reference)
        kinds[reference] = {"color": "black", "ls": "--", "lw": 1}
        floor_label = f"grid floor n = {sizes.min():,}"
        ax.axhline(sizes.min(), color="grey", lw=0.6, ls=":", zorder=5, label=floor_label)
        kinds[floor_label] = {"color": "grey", "ls": ":", "lw": 0.6}
        log_axis(ax, ds, label="d (input length)")
        ax.set_yscale("log")
        ax.set_ylim(bottom, above * 1.6)
        ax.set_ylabel(f"n* per seed (accuracy stays >= {target:g})")
        ax.set_title(f"Samples needed: {setting_text(df)}\nlines: ML fit of the median n* "
                     "(censored kept), over the seeds whose population run succeeds;\n"
                     "bands: profile likelihood 95%", fontsize="small")
        self.keys_ = (colours, kinds)
        return lambda: key_legends(ax, colours, kinds, kind_title="what is drawn",
                                  colour_title=_COLOUR_TITLE)
