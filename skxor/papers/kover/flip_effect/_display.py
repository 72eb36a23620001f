"""The flip-effect study's figures (matplotlib is imported when drawing)."""

import numpy as np

from skxor._utils._docstrings import fill_doc

from skxor.studies.figures import (
    figure_legend, interval_errorbar, legend_below, log_axis, offset, one_value, panel_grid,
    series_style, StudyDisplay
)
from ._summary import ONE_OVER_N, flip_effect_summary


def _panels(summary):
    return sorted({(int(d), int(layers)) for d, layers in
                   zip(summary["d_model"], summary["n_layers"])})


def _by_eps(ax, here, eps_values, column, low, high):
    """Per eps, ``column`` of ``here`` against N with error bars from ``low`` to ``high``."""
    for j, eps in enumerate(eps_values):
        rows = here[here["layer_norm_eps"] == eps].sort_values("n_bits")
        x = offset(rows["n_bits"], j, len(eps_values))  # eps apart along N
        interval_errorbar(ax, x, rows, column, low, high, capsize=2, color=f"C{j}",
                          label=f"eps = {eps:g}", **series_style(j))


@fill_doc
def render_figures(summary):
    """Figures: the change under one flip against N per eps; the constant share against N.

    Called as ``get_study("flip_effect").render("figures", table)``.

    %(returns_study_figures)s
        ``"change"``: one panel per (D, L), log-log; per eps the median over
        the networks of each network's largest change (bars: quartiles over
        the networks) and a dashed reference of slope -1 (O(1/N)) through
        the first point of the largest eps (each panel a
        :class:`FlipChangeDisplay`). ``"constant"``: the share of
        networks whose label is constant on their sampled strings (Wilson
        95%), per eps. One legend per figure, below the panels: an entry per
        eps, and the reference.

    Examples
    --------
    >>> from skxor.papers.kover.flip_effect import STUDY
    >>> df = STUDY.run(n_bits=[8, 32], layer_norm_eps=[0.0, 0.1], seeds=2, n_samples=4)
    >>> figures = STUDY.render("figures", df)
    >>> sorted(figures), [t.get_text() for t in figures["change"].legends[0].get_texts()]
    (['change', 'constant'], ['reference: slope -1 (O(1/N))', 'eps = 0', 'eps = 0.1'])
    """
    summary = summary.per_n
    panels = _panels(summary)
    eps_values = sorted(summary["layer_norm_eps"].unique())
    ns = sorted(int(n) for n in summary["n_bits"].unique())
    figures = {}
    for name in ("change", "constant"):
        fig, (axes,) = panel_grid(1, len(panels), size=(4.2, 4.6),
                                  pad=(max(0.6, 6.4 - 4.2 * len(panels)), 0.0))
        for ax, (d, layers) in zip(axes, panels):
            if name == "change":
                FlipChangeDisplay(summary, d_model=d, n_layers=layers).plot(ax=ax, legend=False)
                continue
            here = summary[(summary["d_model"] == d) & (summary["n_layers"] == layers)]
            _by_eps(ax, here, eps_values, "constant", "constant_low", "constant_high")
            ax.set_ylim(-0.03, 1.03)
            log_axis(ax, ns, base=2, label="N (string length)")
            ax.set_title(f"D = {d}, L = {layers}")
        # One y label for the row of panels.
        for ax in axes[1:]:
            ax.set_ylabel("")
        if name == "constant":
            axes[0].set_ylabel("share of networks constant on the sampled strings")
        figure_legend(fig, axes, loc="outside lower center",
                      ncol=min(len(eps_values) + 1, 2 * len(panels) + 1), frameon=False)
        fig.suptitle("Largest output change under one flip, per layer-norm eps"
                     if name == "change" else "Networks constant on their sampled strings")
        figures[name] = fig
    return figures


#: What each change of :class:`FlipChangeDisplay` draws: the summary's median, quartiles
#: and the axis label.
_CHANGES = {
    "largest": ("max_median", "max_q25", "max_q75",
                "largest |T(x flipped) - T(x)| (median over networks)"),
    "typical": ("typical_median", "typical_q25", "typical_q75",
                "typical |T(x flipped) - T(x)| (median over networks)"),
}


@fill_doc
class FlipChangeDisplay(StudyDisplay):
    """The output change under one flip against N, per eps, with the 1/N reference: the
    study's main figure.

    Follows :mod:`skxor.plotting`'s displays (and scikit-learn's): build it
    with :meth:`from_table` from a flip-effect table, or from its summary,
    then :meth:`plot` on any axes. One (D, L) per axes, log-log: per
    layer-norm eps the median over the networks of each network's largest
    (or typical: median) change under one flip, with the quartiles over the
    networks as bars; a dotted reference of slope -1 (O(1/N)) through the
    first point of the largest eps. Series are offset slightly along N so
    coinciding points stay visible.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`~skxor.papers.kover.flip_effect.summarize_flip_effect` of a table.
    d_model, n_layers : int or None, default=None
        The width D and depth L drawn; each may be None when the summary
        has one.
    change : {"largest", "typical"}, default="largest"
        Each network's largest change over its flips, or its median change.

    Attributes
    ----------
    summary : pandas.DataFrame
        The summary's rows of that (D, L), every eps and N.
    %(display_drawn)s
        The legend of the eps and the reference, below the axes (empty with
        ``legend=False``).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skxor.papers import FlipChangeDisplay, flip_effect
    >>> df = flip_effect(n_bits=[8, 32], layer_norm_eps=[0.0, 0.1], seeds=2, n_samples=4)
    >>> ax = Figure(layout="constrained").subplots()
    >>> display = FlipChangeDisplay.from_table(df, ax=ax)
    >>> display.ax_ is ax, ax.get_title()
    (True, 'D = 16, L = 1')
    >>> [t.get_text() for t in display.legends_[0].get_texts()]
    ['reference: slope -1 (O(1/N))', 'eps = 0', 'eps = 0.1']
    """

    def __init__(self, summary, *, d_model=None, n_layers=None, change="largest"):
        if change not in _CHANGES:
            raise ValueError(f"change must be one of {sorted(_CHANGES)}; got {change!r}.")
        self.d_model = int(one_value(summary, "d_model", d_model))
        here = summary[summary["d_model"] == self.d_model]
        self.n_layers = int(one_value(here, "n_layers", n_layers))
        self.summary = here[here["n_layers"] == self.n_layers]
        self.change = change

    @classmethod
    def from_table(cls, df, *, d_model=None, n_layers=None, change="largest", ax=None):
        return cls(flip_effect_summary(df).per_n, d_model=d_model, n_layers=n_layers,
                   change=change).plot(ax=ax)

    def _draw(self, ax):
        here = self.summary
        column, low, high, ylabel = _CHANGES[self.change]
        eps_values = sorted(here["layer_norm_eps"].unique())
        _by_eps(ax, here, eps_values, column, low, high)
        ax.set_yscale("log")
        start = here[here["layer_norm_eps"] == eps_values[-1]].sort_values("n_bits")
        ns = np.asarray(sorted(here["n_bits"].unique()), dtype=float)
        if len(start):
            n0, y0 = float(start["n_bits"].iloc[0]), float(start[column].iloc[0])
            ax.plot(ns, y0 * (ns / n0) ** ONE_OVER_N, color="0.4", ls=":",
                    label="reference: slope -1 (O(1/N))")
        log_axis(ax, ns, base=2, label="N (string length)")
        ax.set_title(f"D = {self.d_model}, L = {self.n_layers}")
        ax.set_ylabel(ylabel)
        return lambda: [legend_below(ax)]
