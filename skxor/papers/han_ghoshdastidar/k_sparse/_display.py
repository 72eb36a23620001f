"""The k-sparse study's figures: success against d, the gradient signal, the v1 reference."""

import numpy as np

from skxor._utils._docstrings import fill_doc_with
from skxor.studies.figures import (
    StudyDisplay, LINESTYLES, MARKERS, interval_errorbar, key_legends, log_axis, offset, one_value,
    panel_grid, rows_where
)
from ._summary import DOC_EXAMPLES, k_sparse_summary
from ._wording import _data_label, _preset_label


@fill_doc_with(DOC_EXAMPLES)
def render_figures(summary):
    """Figures: success against d per k, data and T; the gradient signal; the v1 reference.

    Called as ``get_study("k_sparse").render("figures", table)``, on the
    table's :func:`~skxor.papers.han_ghoshdastidar.k_sparse.k_sparse_summary`.

    %(returns_study_figures)s
        ``"success"``: certified success rate (Wilson 95 % bars) against d,
        one panel per k (columns) and data size (rows: population or n
        samples), one series per (T, m), each panel a
        :class:`KSparseSuccessDisplay`; ``"gradient"``: the support gain
        per unit step at initialisation against d, and the share of seeds
        whose first-order long step is on distinct support bits, one series
        per (k, m); ``"v1"`` (only with v1 rows): success and fit wall time
        of the two models per setting.

    %(examples)s
    >>> figures = STUDY.render("figures", df)
    >>> sorted(figures)  # no "v1" figure: the run has no v1 rows
    ['gradient', 'success']
    >>> for legend in figures["success"].axes[0].artists:  # beside the top right panel
    ...     print([text.get_text() for text in legend.get_texts()])
    ['T = 1 (steps of 100)', 'T = 2 (steps of 50)']
    ['m = 32']
    >>> len(figures["gradient"].axes)
    2
    """
    df, steps, signal, ref = summary.table, summary.steps, summary.signal, summary.v1_summary
    summary = summary.per_cell
    ks = sorted(summary["k"].unique())
    # One row of panels per (data, initialisation).
    rows_of = sorted(set(zip(summary["n"], summary["init"])))
    ds = sorted(summary["d"].unique())
    ms = sorted(summary["m"].unique())
    seeds = int(summary["seeds"].max()) if len(summary) else 0
    preset = _preset_label(df)
    path = float(steps["path_length"].iloc[0]) if len(summary) else float("nan")
    fig, axes = panel_grid(max(len(rows_of), 1), max(len(ks), 1), size=(3.3, 2.9),
                           pad=(0.0, 0.8), sharex=True, sharey=True)
    colours, kinds = {}, {}
    for row, (n, init) in enumerate(rows_of):
        for col, k in enumerate(ks):
            display = KSparseSuccessDisplay(summary, k=k, n=n, init=init).plot(
                ax=axes[row, col], legend=False)
            colours.update(display.keys_[0])  # one legend of every panel's keys
            kinds.update(display.keys_[1])
    key_legends(axes[0, -1], colours, kinds, colour_title=_STEPS_TITLE,
                kind_title=_WIDTHS_TITLE)
    fig.suptitle(f"k-sparse parity, k heads: success after T normalised steps of total "
                 f"length {path:g} ({preset}, {seeds} seeds, Wilson 95 %)", fontsize="small")

    grad, (gaxes,) = panel_grid(1, 2, size=(4.5, 4.6))
    inits = sorted(summary["init"].unique())
    pairs = [(k, m, init) for k in ks for m in ms for init in inits]
    raw_all = steps.drop_duplicates(["k", "d", "m", "init", "seed"])
    colours, kinds, starts = {}, {}, {}
    for i, (k, m, init) in enumerate(pairs):
        g = rows_where(signal, k=k, m=m, init=init).sort_values("d")
        raw = rows_where(raw_all, k=k, m=m, init=init)
        shift = float(offset(1.0, i, len(pairs), spread=0.015, base=10))
        marker = MARKERS[ks.index(k) % len(MARKERS)]
        style = LINESTYLES[ms.index(m) % len(LINESTYLES)]
        name = f"k = {k}, m = {m}" + (f", {init}" if len(inits) > 1 else "")
        colour = f"C{ks.index(k) % 10}"
        colours[f"k = {k}"] = {"color": colour, "marker": marker, "ms": 4, "lw": 1.5}
        kinds[f"m = {m}"] = {"ls": style, "lw": 1.5}
        if len(inits) > 1:
            starts[f"{init} initial queries" + (": hollow" if init == "random" else ": filled")] = {
                "marker": MARKERS[0], "ls": "none", "ms": 5,
                **({"mfc": "none"} if init == "random" else {})}
        line, = gaxes[0].plot(g["d"] * shift, g["support_gain"], marker=marker,
                              ls=style, ms=4, color=colour, label=name,
                              mfc="none" if init == "random" else None)
        gaxes[0].plot(raw["d"] * shift, raw["support_gain"], ls="none",
                      marker=marker, ms=2, alpha=0.4, color=line.get_color())
        interval_errorbar(
            gaxes[1], g["d"] * shift, g, "limit_distinct",
            marker=marker, ls=style, ms=4, capsize=2, lw=1,
            color=line.get_color(), label=name, mfc="none" if init == "random" else None,
        )
    gaxes[0].axhline(0, color="grey", lw=0.6)
    gaxes[0].set_ylabel("support gain at init (median; dots: seeds):\n"
                        "d log(mass on S) / d(path length)")
    gaxes[1].set_ylabel("share of seeds: first-order long step\nputs heads on distinct support bits")
    gaxes[1].set_ylim(-0.05, 1.05)
    for ax in gaxes:
        log_axis(ax, ds, label="d (input length)")
    key_legends(gaxes[-1], colours, {**kinds, **starts}, colour_title="k (colour, marker)",
                kind_title="width m (line style), initial queries")
    grad.suptitle(f"Exact population gradient at initialisation ({preset}, {seeds} seeds; "
                  "small dots: single seeds; bars: Wilson 95 %)", fontsize="small")
    figures = {"success": fig, "gradient": grad}

    if len(ref):
        v1, (vaxes,) = panel_grid(1, 2, size=(4.5, 3.6))
        settings = list(dict.fromkeys(zip(ref["k"], ref["d"], ref["n"])))
        models = list(dict.fromkeys(zip(ref["model"], ref["budget"])))
        for i, (model, budget) in enumerate(models):
            g = rows_where(ref, model=model, budget=budget)
            x = np.array([settings.index(s) for s in zip(g["k"], g["d"], g["n"])], dtype=float)
            x = x + 0.08 * (i - (len(models) - 1) / 2)
            name = "v1 k-parity" if model == "k_parity" else "sparse-XOR"
            label = f"{name}: {budget}, {int(g['n_parameters'].iloc[0])} params"
            errorbar = interval_errorbar(
                vaxes[0], x, g, "success",
                marker=MARKERS[i % len(MARKERS)], ls="none", capsize=3, label=label,
            )
            vaxes[1].plot(x, g["seconds"], marker=MARKERS[i % len(MARKERS)], ls="none",
                          color=errorbar.lines[0].get_color(), label=label)
        for ax in vaxes:
            ax.set_xticks(range(len(settings)),
                          [f"k={k}, d={d}\nn={n:,}" for k, d, n in settings])
            ax.set_xlabel("setting (samples)")
        vaxes[0].set_ylim(-0.05, 1.05)
        vaxes[0].set_ylabel("success rate (accuracy >= 0.99)")
        vaxes[1].set_yscale("log")
        vaxes[1].set_ylabel("median fit wall time (s)")
        vaxes[1].legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.02, 1.0))
        v1.suptitle(f"v1 k-parity model vs k-head sparse-XOR model on the same data "
                    f"({preset}, {int(ref['seeds'].max())} seeds, Wilson 95 %)",
                    fontsize="small")
        figures["v1"] = v1
    return figures


@fill_doc_with(DOC_EXAMPLES)
class KSparseSuccessDisplay(StudyDisplay):
    """Certified success rate against d per number of steps T and width m: the study's
    main figure.

    Follows :mod:`skxor.plotting`'s displays (and scikit-learn's): build it
    with :meth:`from_table` from a k-sparse table, or from its summary, then
    :meth:`plot` on any axes. One (k, data size, initial queries) per axes:
    per T (colour, marker) and m (line style), the share of seeds whose
    accuracy is certified at 0.99 after T normalised steps (of the path
    length over T each), with its Wilson 95% interval, against d on a log
    axis. Series are offset slightly along d so coinciding points stay
    visible.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`~skxor.papers.han_ghoshdastidar.k_sparse.summarize_k_sparse` of a table (rows
        of any k, n and initial queries).
    k, n : int or None, default=None
        The sparsity k (= the number of heads) and data size n (0: the
        population) drawn; each may be None when the summary has one.
    init : str or None, default=None
        The initial queries drawn; may be None when the summary has one.

    Attributes
    ----------
    summary : pandas.DataFrame
        The summary's rows of that (k, n, init) (colours, offsets and the d
        axis are those of the whole summary, so that panels agree).
    %(display_drawn)s
        The legend of the steps T and the legend of the widths m, beside
        the axes (empty with ``legend=False``).
    %(display_keys)s

    %(examples)s
    >>> from matplotlib.figure import Figure
    >>> from skxor.papers import KSparseSuccessDisplay
    >>> ax = Figure(layout="constrained").subplots()
    >>> display = KSparseSuccessDisplay.from_table(df, init="antisymmetric", ax=ax)
    >>> display.ax_ is ax, ax.get_title()
    (True, 'k = H = 2, population (exact),\\nantisymmetric initial queries')
    >>> for legend in display.legends_:
    ...     print([text.get_text() for text in legend.get_texts()])
    ['T = 1 (steps of 100)', 'T = 2 (steps of 50)']
    ['m = 32']
    >>> KSparseSuccessDisplay.from_table(df, k=3)
    Traceback (most recent call last):
    ...
    ValueError: k [3] is not in the table; it has [2].
    """

    def __init__(self, summary, *, k=None, n=None, init=None):
        self.k = one_value(summary, "k", k)
        self.n = one_value(summary, "n", n)
        self.init = one_value(summary, "init", init)
        # Steps, widths and d of the whole summary, so that the panels agree.
        self._ts = sorted(summary["n_steps"].unique())
        self._ms = sorted(summary["m"].unique())
        self._ds = sorted(summary["d"].unique())
        self.summary = rows_where(summary, k=self.k, n=self.n, init=self.init)

    @classmethod
    def from_table(cls, df, *, k=None, n=None, init=None, ax=None):
        return cls(k_sparse_summary(df).per_cell, k=k, n=n, init=init).plot(ax=ax)

    def _draw(self, ax):
        ts, ms = self._ts, self._ms
        series = [(t, m) for t in ts for m in ms]
        colours, kinds = {}, {}
        for i, (t, m) in enumerate(series):
            g = rows_where(self.summary, n_steps=t, m=m).sort_values("d")
            if not len(g):
                continue
            steps = f"T = {t} (steps of {float(g['step_length'].iloc[0]):g})"
            colour, marker = f"C{ts.index(t) % 10}", MARKERS[ts.index(t) % len(MARKERS)]
            line = LINESTYLES[ms.index(m) % len(LINESTYLES)]
            interval_errorbar(
                ax, offset(g["d"], i, len(series), spread=0.015, base=10), g, "success",
                marker=marker, ls=line, ms=4, capsize=2, lw=1, color=colour,
                label=f"{steps}, m = {m}",
            )
            colours[steps] = {"color": colour, "marker": marker, "ms": 4, "lw": 1.5}
            kinds[f"m = {m}"] = {"ls": line, "lw": 1.5}
        log_axis(ax, self._ds, label="d (input length)")
        ax.set_ylim(-0.05, 1.05)
        ax.set_title(f"k = H = {self.k}, {_data_label(self.n)},\n{self.init} initial queries",
                     fontsize="small")
        ax.set_ylabel("success rate (certified)")
        self.keys_ = (colours, kinds)
        return lambda: key_legends(ax, dict(colours), dict(kinds),
                                   colour_title=_STEPS_TITLE, kind_title=_WIDTHS_TITLE)


_STEPS_TITLE, _WIDTHS_TITLE = "steps T (colour, marker)", "width m (line style)"
