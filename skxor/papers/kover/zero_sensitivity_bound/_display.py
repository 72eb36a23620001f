"""The zero-sensitivity-bound study's figures (matplotlib is imported when drawing)."""

import math

from skxor._utils._docstrings import fill_doc, fill_doc_with

from skxor.studies.figures import (
    StudyDisplay, interval_errorbar, key_legends, log_axis, offset, one_value, panel_grid,
    rows_where, select_rows
)
from .._networks import require_networks
from ._summary import DOC_EXAMPLES, bound_exponent, bound_summary


_COLOURS = {8: "tab:blue", 16: "tab:orange", 32: "tab:green", 64: "tab:red"}


_MARKERS = {8: "o", 16: "s", 32: "^", 64: "D"}


def _style(d_model, j):
    return dict(color=_COLOURS.get(d_model, f"C{4 + j}"),
                marker=_MARKERS.get(d_model, "v"))


@fill_doc_with(DOC_EXAMPLES)
def render_figures(summary):
    """Figures: log10 count against N with the bound lines; the shares against N.

    Called as ``get_study("zero_sensitivity_bound").render("figures", table)``.

    %(returns_study_figures)s
        ``"count"``: one panel per L; per D the log10 of the mean number of
        zero-sensitivity strings (Wilson interval) and the median over the
        non-constant networks, the bound ``N^((D-1)/(2L) - 5)`` as a
        reference line labelled with its exponent at its end, and the constant function's 2^N, both
        drawn over the data (each panel a :class:`ZeroCountDisplay`); a legend
        of the widths and one of what is drawn sit beside the last panel. ``"shares"``:
        rows for the share with a zero-sensitivity string (all networks;
        non-constant ones; Clopper-Pearson) and the share of constant
        networks (Wilson), one column per L. When eps = 0 and eps > 0 give
        identical profiles on every pair, eps = 0 is drawn and the title
        says so; otherwise each eps gets its own marker fill.

    %(examples)s
    >>> figures = STUDY.render("figures", df)
    >>> {name: len(figure.axes) for name, figure in sorted(figures.items())}
    {'count': 1, 'shares': 3}
    >>> for legend in figures["count"].axes[-1].artists:
    ...     print([text.get_text() for text in legend.get_texts()])
    ['D = 8']
    ['log10 mean count (Wilson interval)', 'median over non-constant networks', 'reference: bound N^((D-1)/(2L) - 5), exponent at its end', 'reference: constant function, 2^N']
    """
    require_networks(summary.table)
    df, seeds = summary.table, summary.seeds
    summary, agreement, identical = summary.drawn, summary.agreement, summary.identical
    layers = sorted(summary["n_layers"].unique())
    ns = sorted(int(n) for n in summary["n_bits"].unique())
    note = (f"\neps = {agreement['eps']:g} gives identical profiles ({agreement['pairs']} of "
            f"{agreement['pairs']} networks): not drawn." if identical else "")
    title = f"Random initialisation (uniform, eos read-out), {seeds} seeds per point.{note}"

    fig, (axes,) = panel_grid(1, len(layers), size=(4.2, 4.4), pad=(3.2, 0.0), sharey=True)
    colours, kinds = {}, {}
    for ax, L in zip(axes, layers):
        # One panel per L, each the display's; one pair of legends for them all.
        display = ZeroCountDisplay(summary, n_layers=L, identical=identical).plot(
            ax=ax, legend=False)
        colours.update(display.keys_[0])
        kinds.update(display.keys_[1])
    fig.suptitle(title, fontsize="small")
    # Beside the last panel, where it covers no data.
    key_legends(axes[-1], colours, kinds, colour_title="width D", kind_title="what is drawn")
    figures = {"count": fig}

    rows = [("with_zero", "share with a zero-sensitivity string\n(all; Clopper-Pearson)"),
            ("nonconstant_with_zero", "share with a zero-sensitivity string\n"
             "(non-constant; Clopper-Pearson)"),
            ("constant", "share of constant networks\n(Wilson)")]
    fig, grid = panel_grid(len(rows), len(layers), size=(4.0, 8.5 / len(rows)), pad=(1.8, 0.0),
                           sharex=True, sharey=True)
    for i, (column, ylabel) in enumerate(rows):
        for ax, L in zip(grid[i], layers):
            part = summary[summary["n_layers"] == L]
            for d, eps, shift, style, label in _series(summary, identical):
                g = rows_where(part, d_model=d, layer_norm_eps=eps).sort_values("n_bits")
                if not len(g):
                    continue
                interval_errorbar(ax, g["n_bits"] * shift, g, column, ls="-", lw=1.0, ms=4,
                                  capsize=2, label=label, **style)
            log_axis(ax, ns, base=2, label="string length N (log scale)")
            ax.set_ylim(-0.05, 1.05)
            ax.set_ylabel(ylabel, fontsize="small")
            if i == 0:
                ax.set_title(f"L = {L}", fontsize="small")
    fig.suptitle(title, fontsize="small")
    key_legends(grid[0, -1], colours, {k: v for k, v in kinds.items() if k.startswith("eps")},
                colour_title="width D", kind_title="layer-norm eps")
    figures["shares"] = fig
    return figures


def _series(summary, identical):
    """Per width D and eps of ``summary``: its offset along N, style and label.

    Widths and eps are those of the whole summary (every L), so that each
    panel gives a width the same colour and offset.
    """
    widths = sorted(summary["d_model"].unique())
    epsilons = sorted(summary["layer_norm_eps"].unique())
    for j, d in enumerate(widths):
        for e_i, eps in enumerate(epsilons):
            shift = float(offset(2 ** (0.02 * e_i), j, len(widths), spread=0.05))
            fill = {} if e_i == 0 else {"mfc": "none"}
            eps_label = "" if identical else f", eps={eps:g}"
            yield d, eps, shift, {**_style(d, j), **fill}, f"D={d}{eps_label}"


@fill_doc
class ZeroCountDisplay(StudyDisplay):
    """The count of zero-sensitivity strings against N, with the bound: the study's main figure.

    Follows :mod:`skxor.plotting`'s displays (and scikit-learn's): build it
    with :meth:`from_table` from a zero-sensitivity-bound table, or from its
    summary, then :meth:`plot` on any axes. One depth L per axes: per width
    D, the log10 of the mean number of zero-sensitivity strings (Wilson
    interval) and the median over the non-constant networks, against N on a
    log axis; as references over the data, the bound ``N^((D-1)/(2L) - 5)``
    of each D (its exponent written at its end) and the constant function's
    2^N. Each eps gets its own marker fill unless the profiles are identical.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`~skxor.papers.summarize_bound` of a table (rows of several
        L, D and eps).
    n_layers : int or None, default=None
        The depth L drawn; may be None when the summary has one L.
    d_model : int, list of int or None, default=None
        The widths D drawn (all when None).
    layer_norm_eps : float, list of float or None, default=None
        The layer-norm eps drawn (all when None).
    identical : bool, default=False
        Whether the eps give identical profiles (then eps is left out of
        the labels; :meth:`from_table` finds out and keeps eps = 0 alone).

    Attributes
    ----------
    summary : pandas.DataFrame
        The rows of the widths and eps selected, every L (colours and
        offsets are those of every L, so that panels agree).
    n_layers : int
        The depth L drawn.
    %(display_drawn)s
        The legend of the widths and the legend of what is drawn, beside
        the axes (empty with ``legend=False``).
    %(display_keys)s

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skxor.papers import ZeroCountDisplay, zero_sensitivity_bound
    >>> df = zero_sensitivity_bound(n_bits=[4, 8], d_model=[8], n_layers=[1, 2],
    ...                             layer_norm_eps=[0.0], seeds=3)
    >>> ax = Figure(layout="constrained").subplots()
    >>> display = ZeroCountDisplay.from_table(df, n_layers=2, ax=ax)
    >>> display.ax_ is ax, ax.get_title(), [len(legend.get_texts()) for legend in display.legends_]
    (True, 'L = 2', [1, 4])
    >>> ZeroCountDisplay.from_table(df)
    Traceback (most recent call last):
    ...
    ValueError: the table has several n_layers ([1, 2]): choose one with n_layers.
    """

    def __init__(self, summary, *, n_layers=None, d_model=None, layer_norm_eps=None,
                 identical=False):
        summary = select_rows(summary, "d_model", d_model)
        self.summary = select_rows(summary, "layer_norm_eps", layer_norm_eps)
        self.n_layers = int(one_value(self.summary, "n_layers", n_layers))
        self.identical = identical

    @classmethod
    def from_table(cls, df, *, n_layers=None, d_model=None, layer_norm_eps=None, ax=None):
        # When every eps gives the profiles of eps = 0, only eps = 0 is drawn.
        require_networks(df)
        summary = bound_summary(df)
        return cls(summary.drawn, identical=summary.identical, n_layers=n_layers, d_model=d_model, layer_norm_eps=layer_norm_eps,
                   ).plot(ax=ax)

    def _draw(self, ax):
        figure = ax.figure
        summary, L = self.summary, self.n_layers
        ns = sorted(int(n) for n in summary["n_bits"].unique())
        widths = sorted(summary["d_model"].unique())
        epsilons = sorted(summary["layer_norm_eps"].unique())
        first = _style(widths[0], 0)["marker"]
        colours = {}
        kinds = {
            "log10 mean count (Wilson interval)": {"marker": first, "ls": "-", "ms": 4},
            "median over non-constant networks": {"marker": "x", "ls": ":", "ms": 5},
            "reference: bound N^((D-1)/(2L) - 5), exponent at its end":
                {"ls": (0, (6, 3)), "lw": 1.2},
            "reference: constant function, 2^N": {"color": "black", "lw": 1.4,
                                                  "ls": (0, (2, 2))},
        }
        if not self.identical and len(epsilons) > 1:
            kinds.update({f"eps = {eps:g}" + (": hollow" if e_i else ": filled"):
                          {"marker": first, "ls": "-", **({"mfc": "none"} if e_i else {})}
                          for e_i, eps in enumerate(epsilons)})
        part = summary[summary["n_layers"] == L]
        for d, eps, shift, style, label in _series(summary, self.identical):
            g = rows_where(part, d_model=d, layer_norm_eps=eps).sort_values("n_bits")
            if not len(g):
                continue
            x = g["n_bits"] * shift
            y = g["log10_count"]
            ax.errorbar(x, y, yerr=[(y - g["log10_count_low"]).clip(lower=0, upper=50),
                                    (g["log10_count_high"] - y).clip(lower=0)],
                        ls="-", lw=1.2, ms=4, capsize=2, label=f"{label}: mean count", **style)
            colours[f"D = {d}"] = style["color"]
            ax.plot(x, g["nonconstant_median_log10_count"], ls=":", lw=1.0, ms=5,
                    color=style["color"], marker="x", label=f"{label}: median, non-constant")
        for j, d in enumerate(widths):
            e = bound_exponent(d, L)
            # References above the data (zorder), so that data on them leave them visible.
            ax.plot(ns, [e * math.log10(n) for n in ns], color=_style(d, j)["color"],
                    ls=(0, (6, 3)), lw=1.2, zorder=9,
                    label=f"reference: bound N^{e:g}, D={d}")
            # Labelled at its end, in its colour: the exponent differs per D and L.
            ax.annotate(f"N^{e:g}", (ns[-1], e * math.log10(ns[-1])), xytext=(3, 0),
                        textcoords="offset points", color=_style(d, j)["color"],
                        fontsize="xx-small", va="center", annotation_clip=False)
        ax.plot(ns, [n * math.log10(2) for n in ns], color="black", lw=1.4, ls=(0, (2, 2)),
                zorder=10, label="reference: constant function, 2^N (drawn over the data)")
        log_axis(ax, ns, base=2, label="string length N (log scale)")
        ax.set_title(f"L = {L}", fontsize="small")
        ax.set_ylabel("log10 number of zero-sensitivity strings")
        self.keys_ = (colours, kinds)
        return lambda: key_legends(ax, colours, kinds, colour_title="width D",
                                   kind_title="what is drawn")
