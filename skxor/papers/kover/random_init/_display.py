"""The random-initialisation study's figures (matplotlib is imported when drawing)."""

import json
import math

import numpy as np

from skxor.boolean import NAMED_FUNCTIONS
from skxor._utils._docstrings import fill_doc
from skxor.studies.figures import NEUTRAL, interval_errorbar, key_legends, log_axis, offset, series_style, StudyDisplay
from .._networks import require_networks
from ._cells import RANDOM_FUNCTION, SETTING
from ._summary import POISSON_LIMIT, random_init_summary
from ._wording import network_setting_label


_SCHEME_COLOURS = {
    "uniform": "tab:blue", "normal": "tab:orange", "xavier_uniform": "tab:green",
    "xavier_normal": "tab:red", "default": "tab:purple",
}


def _series_styles(summary):
    """A distinct (colour, marker, line style) per setting without eps.

    Colour and marker name the scheme, the line style the network's shape
    (read-out, positions, D, L), so schemes differ in more than colour.
    """
    settings = summary[["init", "readout", "positional", "d_model", "n_layers"]].drop_duplicates()
    schemes = list(dict.fromkeys(settings["init"]))
    shapes = sorted({(r, p, int(d), int(l)) for _, (i, r, p, d, l) in settings.iterrows()})
    styles = {}
    for _, (init, r, p, d, l) in settings.iterrows():
        styles[(init, r, p, int(d), int(l))] = dict(
            color=_SCHEME_COLOURS.get(init, "tab:gray"),
            marker=series_style(schemes.index(init))["marker"],
            ls=series_style(shapes.index((r, p, int(d), int(l))))["ls"],
        )
    return styles


def _eps_width(eps, smallest):
    """Line width and marker size: the smallest eps drawn thick, any other thin."""
    return dict(lw=1.3, ms=4.5) if eps == smallest else dict(lw=0.6, ms=2.5)


def _key_handles(styles, eps_values, variants):
    """A legend that reads the styles: one entry per scheme, shape, variant and eps.

    With every setting a series (5 schemes x 4 shapes x 2 eps x 2 variants
    in the full preset), one entry per series would fill the figure.
    """
    from matplotlib.lines import Line2D

    handles = {}
    for (init, r, p, d, l), style in styles.items():
        handles.setdefault(("scheme", init), Line2D(
            [], [], color=style["color"], marker=style["marker"], ls="none",
            label=f"init: {init}"))
    for (init, r, p, d, l), style in styles.items():
        handles.setdefault(("shape", r, p, d, l), Line2D(
            [], [], color=NEUTRAL, ls=style["ls"], label=f"{r}, {p}, D={d}, L={l}"))
    for name, filled in variants:
        handles[("variant", name)] = Line2D(
            [], [], color=NEUTRAL, marker="o", ls="none", mfc=None if filled else "none",
            label=f"{name}: {'filled' if filled else 'hollow'} markers")
    smallest = min(eps_values) if eps_values else 0.0
    if len(eps_values) > 1:
        for eps in eps_values:
            handles[("eps", eps)] = Line2D(
                [], [], color=NEUTRAL, marker="o", label=f"eps = {eps:g}: "
                + ("thick line" if eps == smallest else "thin line, small markers"),
                **_eps_width(eps, smallest))
    return list(handles.values())


def _drawing(nets, identical):
    """Each setting's style and offset along N, and the eps drawn (the first alone when
    ``identical``): of every setting, so that the panels of a figure agree."""
    styles = _series_styles(nets)
    offsets = {s: float(offset(1.0, i, len(styles))) for i, s in enumerate(styles)}
    eps_values = sorted({float(e) for e in nets["layer_norm_eps"]}) if len(nets) else []
    if identical:  # eps > 0 identical everywhere: drawn once
        eps_values = eps_values[:1]
    return styles, offsets, eps_values


def _each_setting(nets, styles, eps_values, identical):
    """Per setting of ``nets``: its key, label, style (the eps by line width) and rows by N."""
    for (init, r, p, d, l, eps), group in nets.groupby(SETTING, sort=False):
        key = (init, r, p, int(d), int(l))
        width = _eps_width(float(eps), eps_values[0] if eps_values else 0.0)
        label = network_setting_label(init, r, p, d, l, None if identical else eps)
        yield key, label, {**styles[key], **width}, group.sort_values("n_bits")


#: Up to this many labelled series a figure's legend lists each; beyond, a key.
FULL_LEGEND_MAX = 6


def _legend(fig, axes, styles, eps_values, variants, series):
    """Beside the last panel, where it covers no data.

    Each series by its own label when there are at most
    :data:`FULL_LEGEND_MAX`; otherwise two short legends: the colours
    (schemes) with the references, and the kinds (shape, variant, eps)
    that read every series' style. Returns the legends drawn.
    """
    axes = np.atleast_1d(axes)
    handles = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    references = {label: h for label, h in handles.items() if label not in series}
    if sum(label in series for label in handles) <= FULL_LEGEND_MAX:
        return [axes[-1].legend(handles=list(handles.values()), labels=list(handles),
                                loc="upper left", bbox_to_anchor=(1.02, 1.0),
                                fontsize="x-small", frameon=False)]
    key = _key_handles(styles, eps_values, variants)
    colours = [h for h in key if h.get_label().startswith("init: ")] + list(references.values())
    kinds = [h for h in key if not h.get_label().startswith("init: ")]
    labels = [h.get_label() for h in colours[:len(colours) - len(references)]] + list(references)
    return key_legends(axes[-1], dict(zip(labels, colours)), {h.get_label(): h for h in kinds},
                       colour_title="colour: init scheme; black: references",
                       kind_title="grey: the style of every colour")


def render_figures(summary):
    """Figures: zero-sensitivity count, constant networks, why they are constant, profiles.

    Called as ``get_study("random_init_sensitivity").render("figures", table)``, on the
    table's :func:`~skxor.papers.kover.random_init.random_init_summary`.

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
        ``"zero_count"``: log10 of the mean number of zero-sensitivity
        strings against N, on a linear N axis (exponential growth is a
        straight line) and a log N axis (polynomial growth is a straight
        line), for all networks and the non-constant ones, beside the
        random-function control (measured, and its exact expectation 1)
        and the constant function's 2^N (a labelled reference).
        ``"shares"``: the share of constant networks and the share with a
        zero-sensitivity string (all; non-constant) with Wilson bands,
        beside the control and its limit 1 - 1/e (each panel a
        :class:`RandomInitShareDisplay`). ``"diagnostic"``: the
        median ``|mean| / std`` of the logit for constant and non-constant
        networks, and the largest layer-norm 1/std seen against
        1/sqrt(eps). ``"profiles"``: one
        :class:`~skxor.plotting.SensitivityProfileDisplay` per scheme, the
        mean profile of its non-constant networks at the largest exhaustive
        N against PARITY, MAJORITY and FIRST. When eps = 0 and eps > 0
        give identical profiles on every pair of networks, eps = 0 is drawn
        and the titles say so.

    Examples
    --------
    >>> from skxor.papers.kover.random_init import STUDY
    >>> df = STUDY.run(n_bits=[4, 8], init=["normal"], seeds=2,
    ...                n_random_functions=20)
    >>> figures = STUDY.render("figures", df)
    >>> {name: len(figure.axes) for name, figure in sorted(figures.items())}
    {'diagnostic': 2, 'profiles': 1, 'shares': 3, 'zero_count': 2}
    """
    from matplotlib.figure import Figure

    require_networks(summary.table)
    df, models, agreement = summary.table, summary.drawn_models, summary.agreement
    summary_models = summary.models
    summary = summary.drawn
    nets = summary[summary["init"] != RANDOM_FUNCTION]
    control = summary[summary["init"] == RANDOM_FUNCTION]
    ns = sorted(int(n) for n in df["n_bits"].dropna().unique())
    seeds = int(models["seed"].nunique()) if len(models) else 0
    eps_note = ""
    if agreement is not None and agreement["same"] == agreement["pairs"]:
        eps_note = (f"\neps = {agreement['eps']:g} gives identical profiles "
                    f"({agreement['pairs']} of {agreement['pairs']} networks): not drawn.")
    styles, offsets, eps_values = _drawing(nets, bool(eps_note))
    figures = {}

    def each_setting():
        return _each_setting(nets, styles, eps_values, bool(eps_note))

    series = set()

    def named(label):
        series.add(label)
        return label

    # -- count of zero-sensitivity strings
    fig = Figure(figsize=(12.0, 4.4), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    for ax, logx in zip(axes, (False, True)):
        for key, label, style, g in each_setting():
            x = g["n_bits"] * offsets[key] if logx else g["n_bits"] + 8 * np.log2(offsets[key])
            ax.plot(x, g["log10_zero_count"], label=named(f"{label}: all"), **style)
            ax.plot(x, g["nonconstant_log10_zero_count"], alpha=0.7, mfc="none",
                    label=named(f"{label}: non-constant"), **style)
        if len(control):
            c = control.sort_values("n_bits")
            ax.plot(c["n_bits"], c["log10_zero_count"], "k*", ms=8,
                    label="random function (measured mean)")
        ax.plot(ns, [0.0] * len(ns), color="black", lw=1.0, ls=(0, (1, 1)), zorder=5,
                label="reference: random function, exact expectation 1")
        ax.plot(ns, [n * math.log10(2) for n in ns], color="black", lw=1.4, ls=(0, (2, 2)),
                zorder=10, label="reference: constant function, 2^N (drawn over the data)")
        ax.set_xlabel("string length N" + (" (log scale)" if logx else ""))
        if logx:
            log_axis(ax, ns, base=2)
        else:
            ax.set_xticks(ns, [str(n) for n in ns])
    for ax in axes:
        ax.set_ylabel("log10 mean number of zero-sensitivity strings")
    axes[0].set_title("linear N: exponential growth is a straight line", fontsize="small")
    axes[1].set_title("log N: polynomial growth is a straight line", fontsize="small")
    fig.suptitle(f"Random initialisation, {seeds} seeds per point.{eps_note}",
                 fontsize="small")
    _legend(fig, axes, styles, eps_values,
            [("all networks", True), ("non-constant networks", False)], series)
    figures["zero_count"] = fig

    # -- shares
    fig = Figure(figsize=(12.0, 4.2), layout="constrained")
    axes = fig.subplots(1, 3, sharey=True)
    for ax, share in zip(axes, _SHARES):
        display = RandomInitShareDisplay(summary, share=share, identical=bool(eps_note))
        series.update(display.plot(ax=ax, legend=False).series_)
    fig.suptitle(f"Random initialisation, {seeds} seeds per point.{eps_note}",
                 fontsize="small")
    _legend(fig, axes, styles, eps_values, [], series)
    figures["shares"] = fig

    # -- why constant
    fig = Figure(figsize=(12.0, 4.2), layout="constrained")
    axes = fig.subplots(1, 2)
    for key, label, style, g in each_setting():
        x = g["n_bits"] * offsets[key]
        axes[0].plot(x, g["logit_offset_constant"], label=named(f"{label}: constant"), **style)
        axes[0].plot(x, g["logit_offset_nonconstant"], alpha=0.7, mfc="none",
                     label=named(f"{label}: non-constant"), **style)
    axes[0].set_yscale("log")
    axes[0].set_ylabel("median |mean| / std of the logit T(x) over strings")
    axes[0].set_title("constant when the logit's offset dwarfs its spread", fontsize="small")
    all_models = summary_models
    by_eps = list(all_models.groupby("layer_norm_eps"))
    for j, (eps, g) in enumerate(by_eps):
        worst = g.groupby("n_bits")["ln_inv_std_max"].max()
        axes[1].plot(offset(worst.index, j, len(by_eps)), worst.values, **series_style(j),
                     label=f"largest 1/std seen, eps={eps:g}")
        if eps > 0:
            axes[1].plot(ns, [1 / math.sqrt(eps)] * len(ns), color="black", lw=1.2,
                         ls=(0, (5, 2)), zorder=10,
                         label=f"reference: 1/sqrt(eps) for eps={eps:g}")
    axes[1].set_yscale("log")
    axes[1].set_ylabel("layer-norm 1 / sqrt(var + eps)")
    if any(eps > 0 for eps, _ in by_eps):
        axes[1].set_title("eps matters only where 1/std nears 1/sqrt(eps) (dashed)",
                          fontsize="small")
    else:  # no eps > 0 in the table: nothing to compare with
        axes[1].set_title("largest layer-norm 1/std seen (eps = 0 only)", fontsize="small")
    axes[1].legend(fontsize="xx-small")
    for ax in axes:
        log_axis(ax, ns, base=2)
        ax.set_xlabel("string length N")
    _legend(fig, axes[:1], styles, eps_values,
            [("constant networks", True), ("non-constant networks", False)], series)
    figures["diagnostic"] = fig

    # -- mean profile per scheme, drawn by SensitivityProfileDisplay
    figures["profiles"] = _plot_profiles(df, models, eps_note)
    return figures


#: The shares :class:`RandomInitShareDisplay` draws, each with its panel title.
_SHARES = {
    "constant": "share of constant networks",
    "with_zero": "share with a zero-sensitivity string (all networks)",
    "nonconstant_with_zero": "share with a zero-sensitivity string (non-constant)",
}


@fill_doc
class RandomInitShareDisplay(StudyDisplay):
    """The share of random networks with a zero-sensitivity string (or constant) against
    N per setting, beside random functions: the study's main figure.

    Follows :mod:`skxor.plotting`'s displays (and scikit-learn's): build it
    with :meth:`from_table` from a random-initialisation table, or from its
    summary, then :meth:`plot` on any axes. Per setting (colour and marker:
    the init scheme; line style: read-out, positions, D and L; line width:
    eps), the share of networks with a zero-sensitivity string (or of
    constant networks) with its Wilson 95% interval, against N on a log
    axis; for the zero-sensitivity shares, the uniformly random functions
    measured (black stars) and their limit 1 - 1/e. Settings are offset
    slightly along N so coinciding points stay visible.

    Parameters
    ----------
    summary : pandas.DataFrame
        :func:`~skxor.papers.kover.random_init.summarize_random_init` of a table
        (its networks and random functions).
    share : {"with_zero", "nonconstant_with_zero", "constant"}, default="with_zero"
        The share of all networks with a zero-sensitivity string, of the
        non-constant ones, or the share of constant networks.
    identical : bool, default=False
        Whether the eps give identical functions (then eps is left out of
        the labels; :meth:`from_table` finds out and keeps eps = 0 alone).

    Attributes
    ----------
    series_ : list of str
        The labels of the settings drawn (the references aside).
    %(display_drawn)s
    legends_ : list of matplotlib Legend
        Beside the axes: one legend of every series when there are few,
        else a legend of the schemes and references and one of the styles
        (empty with ``legend=False``).

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> from skxor.papers import RandomInitShareDisplay, random_init_sensitivity
    >>> df = random_init_sensitivity(n_bits=[4, 8], init=["normal"], seeds=2,
    ...                              n_random_functions=20)
    >>> ax = Figure(layout="constrained").subplots()
    >>> display = RandomInitShareDisplay.from_table(df, ax=ax)
    >>> display.ax_ is ax, display.series_
    (True, ['normal, eos, sinusoidal, D=16, L=1'])
    >>> [t.get_text() for t in display.legends_[0].get_texts()]  # doctest: +NORMALIZE_WHITESPACE
    ['reference: random function, limit 1 - 1/e', 'normal, eos, sinusoidal, D=16, L=1',
     'random function (measured)']
    """

    def __init__(self, summary, *, share="with_zero", identical=False):
        if share not in _SHARES:
            raise ValueError(f"share must be one of {sorted(_SHARES)}; got {share!r}.")
        self.summary, self.share, self.identical = summary, share, identical

    @classmethod
    def from_table(cls, df, *, share="with_zero", ax=None):
        # When every eps gives the functions of eps = 0, only eps = 0 is drawn.
        require_networks(df)
        summary = random_init_summary(df)
        return cls(summary.drawn, share=share, identical=summary.identical).plot(ax=ax)

    def _draw(self, ax):
        figure = ax.figure
        summary, column = self.summary, self.share
        nets = summary[summary["init"] != RANDOM_FUNCTION]
        control = summary[summary["init"] == RANDOM_FUNCTION]
        styles, offsets, eps_values = _drawing(nets, self.identical)
        ns = sorted(int(n) for n in summary["n_bits"].unique())
        self.series_ = []
        for key, label, style, g in _each_setting(nets, styles, eps_values, self.identical):
            interval_errorbar(ax, g["n_bits"] * offsets[key], g, column, capsize=2,
                              label=label, **style)
            self.series_.append(label)
        if column != "constant" and len(control):  # random functions are never constant
            c = control.sort_values("n_bits")
            interval_errorbar(ax, c["n_bits"], c, "with_zero", fmt="k*", ms=8, capsize=2, label="random function (measured)")
            ax.plot(ns, [POISSON_LIMIT] * len(ns), color="black", lw=1.0, ls=(0, (1, 1)),
                    label="reference: random function, limit 1 - 1/e")
        log_axis(ax, ns, base=2)
        ax.set_ylim(-0.05, 1.05)
        ax.set_xlabel("string length N")
        ax.set_title(_SHARES[column], fontsize="small")
        ax.set_ylabel("share of networks (Wilson 95% interval)")
        return lambda: _legend(figure, [ax], styles, eps_values, [], set(self.series_))


def _plot_profiles(df, models, eps_note):
    """Mean profile of the non-constant networks per scheme at the largest exhaustive N.

    One :class:`~skxor.plotting.SensitivityProfileDisplay` per scheme (pooled
    over the scheme's settings), PARITY, MAJORITY and FIRST as labelled
    references; a scheme whose networks are all constant shows their mean.
    """
    from matplotlib.figure import Figure

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
    fig = Figure(figsize=(3.4 * max(len(schemes), 1) + 0.6, 3.8), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, max(len(schemes), 1), sharey=True, squeeze=False)[0])
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
