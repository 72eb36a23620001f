"""The flip-effect study's figures (matplotlib is imported when drawing)."""

import numpy as np

from .._figures import figure_legend, interval_errors, log_axis, offset, series_style
from ._summary import ONE_OVER_N, summarize_flip_effect


def _panels(summary):
    return sorted({(int(d), int(layers)) for d, layers in
                   zip(summary["d_model"], summary["n_layers"])})


def plot_flip_effect(df):
    """Figures: the change under one flip against N per eps; the constant share against N.

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
        ``"change"``: one panel per (D, L), log-log; per eps the median over
        the networks of each network's largest change (bars: quartiles over
        the networks) and a dashed reference of slope -1 (O(1/N)) through
        the first point of the largest eps. ``"constant"``: the share of
        networks whose label is constant on their sampled strings (Wilson
        95%), per eps. One legend per figure, below the panels: an entry per
        eps, and the reference.

    Examples
    --------
    >>> from skxor.studies._flip_effect import flip_effect, plot_flip_effect
    >>> df = flip_effect(n_bits=[8, 32], layer_norm_eps=[0.0, 0.1], seeds=2, n_samples=4)
    >>> figures = plot_flip_effect(df)
    >>> sorted(figures), [t.get_text() for t in figures["change"].legends[0].get_texts()]
    (['change', 'constant'], ['reference: slope -1 (O(1/N))', 'eps = 0', 'eps = 0.1'])
    """
    from matplotlib.figure import Figure

    summary = summarize_flip_effect(df)
    panels = _panels(summary)
    eps_values = sorted(summary["layer_norm_eps"].unique())
    ns = sorted(int(n) for n in summary["n_bits"].unique())
    figures = {}
    for name, ylabel in (("change", "largest |T(x flipped) - T(x)| (median over networks)"),
                         ("constant", "share of networks constant on the sampled strings")):
        fig = Figure(figsize=(max(6.4, 4.2 * len(panels) + 0.6), 4.6), layout="constrained")
        axes = np.atleast_1d(fig.subplots(1, len(panels), squeeze=False)[0])
        for ax, (d, layers) in zip(axes, panels):
            here = summary[(summary["d_model"] == d) & (summary["n_layers"] == layers)]
            for j, eps in enumerate(eps_values):
                rows = here[here["layer_norm_eps"] == eps].sort_values("n_bits")
                x = offset(rows["n_bits"], j, len(eps_values))
                if name == "change":
                    y, low, high = rows["max_median"], rows["max_q25"], rows["max_q75"]
                else:
                    y, low, high = rows["constant"], rows["constant_low"], rows["constant_high"]
                ax.errorbar(x, y, yerr=interval_errors(y, low, high), capsize=2,
                            color=f"C{j}", label=f"eps = {eps:g}", **series_style(j))
            if name == "change":
                ax.set_yscale("log")
                start = here[here["layer_norm_eps"] == eps_values[-1]].sort_values("n_bits")
                if len(start):
                    n0, y0 = float(start["n_bits"].iloc[0]), float(start["max_median"].iloc[0])
                    grid = np.asarray(ns, dtype=float)
                    ax.plot(grid, y0 * (grid / n0) ** ONE_OVER_N, color="0.4", ls=":",
                            label="reference: slope -1 (O(1/N))")
            else:
                ax.set_ylim(-0.03, 1.03)
            log_axis(ax, ns, base=2, label="N (string length)")
            ax.set_title(f"D = {d}, L = {layers}")
        axes[0].set_ylabel(ylabel)
        figure_legend(fig, axes, loc="outside lower center",
                      ncol=min(len(eps_values) + 1, 2 * len(panels) + 1), frameon=False)
        fig.suptitle("Largest output change under one flip, per layer-norm eps"
                     if name == "change" else "Networks constant on their sampled strings")
        figures[name] = fig
    return figures
