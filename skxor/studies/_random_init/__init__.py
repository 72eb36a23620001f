"""Sensitivity of randomly initialised transformers (Köver et al. 2026, arXiv 2606.08768).

Köver et al.'s setting is the default: a :class:`~skxor.nn.BooleanTransformer`
read as a recognizer (an end-of-string token appended, the logit read there,
``readout="eos"``), fixed sinusoidal positional encodings, and their four
random initialisations -- uniform, Gaussian, Xavier-uniform and
Xavier-Gaussian (``init="uniform"``, ``"normal"``, ``"xavier_uniform"``,
``"xavier_normal"``). PyTorch's default initialisation (``"default"``), the
last-bit and CLS read-outs and learned positions are variations in the grid.

For each string length N, width D, depth L, layer-norm stabiliser eps,
scheme and seed, one network is drawn (nothing is trained) and the Boolean
function it computes, ``f(x) = [T(x) > 0]``, is profiled: exhaustively over
all 2^N strings up to ``exhaustive_max`` bits, from ``n_samples`` uniform
strings and their N neighbours beyond (with a Wilson interval). Recorded per
network:

* the profile, the fraction of zero-sensitivity strings and the estimated
  count ``fraction * 2^N`` (its log10, with an interval when sampled);
* whether f is constant (no string of positive sensitivity; beyond
  ``exhaustive_max``: none among the sampled strings) and whether at least
  one zero-sensitivity string was found;
* why a network is constant: the mean and spread (std) of the logit T(x)
  over ``n_blowup`` uniform strings, and the read-out bias omega. ``f`` is
  constant on those strings exactly when no T(x) crosses 0, which happens
  when ``|mean|`` dwarfs the spread;
* the layer-norm blow-up: the largest ``1 / sqrt(var + eps)`` over every
  norm and token, and Köver et al.'s ``beta = prod_l tau_l`` (largest over
  the strings), against ``1 / sqrt(eps)`` and the bound
  ``(1 + 1/sqrt(eps))^K``.

Beside the networks, at every exhaustive N, ``n_random_functions``
uniformly random Boolean functions (the control of Köver et al.): the share
with a zero-sensitivity string and their count. Each string of a random
function has sensitivity 0 with probability 2^-N, so the expected count is
exactly 1 at every N and the number is about Poisson(1): the share tends to
1 - 1/e = 0.632. PARITY, MAJORITY and FIRST are profiled the same way.

Every cell runs torch on one thread (the networks are small); parallelism
comes from ``n_jobs``.
"""

import json
import math

import numpy as np
import pandas as pd

from ...boolean import NAMED_FUNCTIONS, RandomFunction, get_function
from ...sensitivity import sensitivity_profile
from .._common import Study, cell_seed, columns_first, expand_grid
from .._figures import interval_errors, log_axis, offset, series_style
from .._floor import floor_work
from .._networks import (
    NETWORK_PARAMETERS,
    TRANSFORMER,
    distinct_networks,
    eps_agreement,
    log10_count,
    network_cell,
    network_rows,
    require_networks,
)
from .._parameters import NON_NEGATIVE
from .._profiling import check_transformer, profile, profile_result
from .._stats import format_count, format_interval, wilson_interval
from .._sweep import run_sweep

#: Label of the random-Boolean-function control rows.
RANDOM_FUNCTION = "random function"

#: Köver et al.'s four initialisation schemes, in the order they are shown.
PAPER_SCHEMES = ("uniform", "normal", "xavier_uniform", "xavier_normal")

#: 1 - 1/e: the limit of the share of random functions with a zero-sensitivity string.
POISSON_LIMIT = 1 - math.exp(-1)

#: Every parameter of the study and the values it accepts: those of the random
#: networks, and the number of random control functions.
PARAMETERS = {**NETWORK_PARAMETERS, "n_random_functions": [NON_NEGATIVE]}

PRESETS = {
    "quick": dict(
        n_bits=[4, 6, 8, 10, 16, 32],
        d_model=[16],
        n_layers=[1],
        n_heads=4,
        layer_norm_eps=[0.0, 1e-5],
        init=list(PAPER_SCHEMES) + ["default"],
        readout=["eos"],
        positional=["sinusoidal"],
        init_scale=1.0,
        seeds=5,
        exhaustive_max=10,
        n_samples=64,
        n_blowup=128,
        n_random_functions=200,
        device="cpu",
        random_state=0,
    ),
    # Only the differences from quick.
    "full": dict(
        n_bits=list(range(4, 21)) + [24, 32, 48, 64],
        d_model=[16, 64],
        n_layers=[1, 2, 4],
        readout=["eos", "last", "cls"],
        positional=["sinusoidal", "learned"],
        seeds=20,
        exhaustive_max=20,
        n_samples=2000,
        n_blowup=512,
        n_random_functions=1000,
    ),
}


def random_init_cell(
    n_bits, d_model, n_layers, n_heads, layer_norm_eps, init, init_scale, seed,
    random_state, exhaustive_max, n_samples, n_blowup, readout="eos",
    positional="sinusoidal", device="cpu",
):
    """One random transformer of the study: :func:`~skxor.studies._networks.network_cell`, labelled."""
    return {"function": TRANSFORMER, **network_cell(
        n_bits, d_model, n_layers, n_heads, layer_norm_eps, init, init_scale, seed,
        random_state, exhaustive_max, n_samples, n_blowup, readout=readout,
        positional=positional, device=device,
    )}


def reference_cell(function, n_bits, exhaustive_max, n_samples, random_state):
    """Profile PARITY, MAJORITY or FIRST on N bits the way the models are profiled."""
    with floor_work("sensitivity profiles of the reference functions"):
        prof = profile(get_function(function, n_bits), n_bits, exhaustive_max, n_samples,
                       cell_seed(random_state, 0, 3))
    return {"function": function, **profile_result(prof)}


def random_function_cell(n_bits, n_functions, random_state):
    """The control: ``n_functions`` uniformly random functions on N bits, exhaustively.

    Returns
    -------
    result : dict
        ``n_functions``, ``with_zero`` (functions with at least one
        zero-sensitivity string), ``zero_count_mean`` (mean number of such
        strings; its expectation is exactly 1), ``zero_fraction`` (mean
        fraction) and ``zero_count_max``.
    """
    rng = np.random.RandomState(cell_seed(random_state, n_bits, 4))
    with floor_work("profiles of the random control functions"):
        counts = np.array([
            sensitivity_profile(RandomFunction(n_bits, random_state=rng).table, n_bits).n_zero
            for _ in range(n_functions)
        ])
    return {
        "function": RANDOM_FUNCTION,
        "method": "exhaustive",
        "n_functions": int(n_functions),
        "with_zero": int((counts > 0).sum()),
        "zero_count_mean": float(counts.mean()),
        "zero_count_max": int(counts.max()),
        "zero_fraction": float(counts.mean() / 2.0 ** n_bits),
    }


def random_init_sensitivity(
    preset="quick", *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None,
    **overrides,
):
    """Sensitivity of random transformers vs N, beside random functions and PARITY/MAJORITY/FIRST.

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick`` (rough, 5 seeds): N in {4, 6, 8, 10} exhaustively and
        {16, 32} from 64 sampled strings, D = 16, L = 1, eps in {0, 1e-5},
        Köver et al.'s four schemes and PyTorch's default, eos read-out,
        sinusoidal positions, 200 random functions per exhaustive N.
        ``full``: N = 4..20 exhaustively plus 24, 32, 48, 64 from 2000
        strings, D in {16, 64}, L in {1, 2, 4}, read-outs eos / last / cls,
        sinusoidal and learned positions, 20 seeds: 151 200 networks, far
        too many for a laptop (see docs/results/measured.rst for measured
        costs); run it with ``n_jobs``, a dask ``scheduler`` and a
        ``checkpoint_dir``, or narrow it with overrides.
    checkpoint_dir, n_jobs, progress, scheduler
        As for :func:`skxor.studies.run_sweep`.
    **overrides
        Replace preset entries: ``n_bits``, ``d_model``, ``n_layers``,
        ``layer_norm_eps``, ``init``, ``readout``, ``positional`` (lists);
        ``n_heads`` (must divide every D), ``init_scale`` (sigma of
        ``"normal"``, w of ``"uniform"``, gain of the Xavier schemes),
        ``seeds``, ``exhaustive_max`` (largest N profiled over all strings,
        at most 20), ``n_samples`` (strings per sampled profile),
        ``n_blowup`` (strings for the logit and layer-norm diagnostics),
        ``n_random_functions`` (control functions per exhaustive N; 0
        skips the control), ``device``, ``random_state`` (default 0).

    Returns
    -------
    results : pandas.DataFrame
        One row per transformer (``function == "transformer"``: the
        configuration, ``seed`` and the results of :func:`~skxor.studies._networks.network_cell`),
        per reference function and N (``function`` in PARITY, MAJORITY,
        FIRST) and per exhaustive N for the control
        (``function == "random function"``: ``n_functions``,
        ``with_zero``, ``zero_count_mean``, ``zero_count_max``).

    Examples
    --------
    >>> from skxor.studies import random_init_sensitivity
    >>> df = random_init_sensitivity(n_bits=[4, 8], init=["normal"], seeds=2,
    ...                              n_random_functions=20)
    >>> sorted(df["function"].unique())
    ['FIRST', 'MAJORITY', 'PARITY', 'random function', 'transformer']
    >>> df[df["function"] == "PARITY"]["zero_fraction"].tolist()
    [0.0, 0.0]
    """
    return STUDY.run(
        preset, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
        scheduler=scheduler, **overrides,
    )


_SETTING = ["init", "readout", "positional", "d_model", "n_layers", "layer_norm_eps"]


def network_cells(params):
    """The transformer cells of a run with parameters ``params``, in sweep order.

    Examples
    --------
    >>> from skxor.studies._random_init import STUDY, network_cells
    >>> len(network_cells(STUDY.preset("quick")))  # 6 N x 5 inits x 2 eps x 5 seeds
    300
    """
    cells = expand_grid(
        n_bits=params["n_bits"], d_model=params["d_model"], n_layers=params["n_layers"],
        n_heads=[params["n_heads"]], layer_norm_eps=params["layer_norm_eps"],
        init=params["init"], readout=params["readout"], positional=params["positional"],
        init_scale=[params["init_scale"]], seed=list(range(params["seeds"])),
        n_blowup=[params["n_blowup"]], device=[params["device"]],
        exhaustive_max=[params["exhaustive_max"]], n_samples=[params["n_samples"]],
        random_state=[params["random_state"]],
    )
    cells.sort(key=lambda c: (c["n_bits"], *(str(c[k]) for k in _SETTING), c["seed"]))
    return cells


def _compute(params, *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None):
    random_state = params["random_state"]
    common = dict(
        exhaustive_max=[params["exhaustive_max"]], n_samples=[params["n_samples"]],
        random_state=[random_state],
    )
    cells = network_cells(params)
    refs = expand_grid(function=list(NAMED_FUNCTIONS), n_bits=params["n_bits"], **common)
    refs.sort(key=lambda c: (c["n_bits"], list(NAMED_FUNCTIONS).index(c["function"])))
    controls = [
        dict(n_bits=n, n_functions=params["n_random_functions"], random_state=random_state)
        for n in params["n_bits"]
        if n <= params["exhaustive_max"] and params["n_random_functions"] > 0
    ]
    sweep = dict(checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
                 scheduler=scheduler, study="random_init_sensitivity")
    parts = [
        run_sweep(random_init_cell, cells, **sweep),
        run_sweep(reference_cell, refs, **sweep),
    ]
    if controls:
        parts.append(run_sweep(random_function_cell, controls, **sweep))
    df = pd.concat(parts, ignore_index=True)
    if "n_functions" not in df:  # a key column, even without the control
        df["n_functions"] = np.nan
    return columns_first(df, ["function", "n_bits", *_SETTING, "n_heads", "init_scale", "seed"])


# -- summaries, figures, report ---------------------------------------------------


def _setting_label(init, readout, positional, d_model, n_layers, eps=None):
    label = f"{init}, {readout}, {positional}, D={int(d_model)}, L={int(n_layers)}"
    return label if eps is None else f"{label}, eps={float(eps):g}"


def summarise_random_init(df):
    """Per setting and N: constant share, zero-sensitivity strings, diagnostics.

    Returns
    -------
    summary : pandas.DataFrame
        One row per setting (init, read-out, positions, D, L, eps) and N:
        ``networks``; ``constant`` (share of constant networks) with its
        Wilson interval ``constant_low``/``_high``; ``with_zero`` (share with
        at least one zero-sensitivity string found) with its Wilson
        interval; ``nonconstant`` (count), ``nonconstant_with_zero`` (share
        among them) with its interval; ``zero_fraction`` (mean over all
        networks) and ``nonconstant_zero_fraction`` (mean over the
        non-constant ones, NaN if none); ``log10_zero_count`` (log10 of the
        mean count ``zero_fraction * 2^N``) and
        ``nonconstant_log10_zero_count``; ``logit_offset`` (median
        ``|mean| / std`` of the logit) for constant and non-constant
        networks; ``ln_inv_std_max`` and ``beta_max`` (largest seen).
        Random functions get one row each (``init == "random function"``).
    """
    models = network_rows(df)
    rows = []
    for key, group in models.groupby(_SETTING + ["n_bits"], sort=True):
        constant = group["constant"].astype(bool)
        has_zero = group["has_zero"].astype(bool)
        nonconst = group[~constant]
        n, k_c, k_z = len(group), int(constant.sum()), int(has_zero.sum())
        k_nz = int(nonconst["has_zero"].astype(bool).sum())
        n_bits = int(key[-1])
        zf = float(group["zero_fraction"].mean())
        nzf = float(nonconst["zero_fraction"].mean()) if len(nonconst) else np.nan
        row = dict(zip(_SETTING + ["n_bits"], key))
        row.update(
            networks=n,
            method=group["method"].iloc[0],
            constant=k_c / n, constant_low=wilson_interval(k_c, n)[0],
            constant_high=wilson_interval(k_c, n)[1],
            with_zero=k_z / n, with_zero_low=wilson_interval(k_z, n)[0],
            with_zero_high=wilson_interval(k_z, n)[1],
            nonconstant=len(nonconst),
            nonconstant_with_zero=k_nz / len(nonconst) if len(nonconst) else np.nan,
            nonconstant_with_zero_low=wilson_interval(k_nz, len(nonconst))[0],
            nonconstant_with_zero_high=wilson_interval(k_nz, len(nonconst))[1],
            zero_fraction=zf,
            nonconstant_zero_fraction=nzf,
            log10_zero_count=log10_count(zf, n_bits),
            nonconstant_log10_zero_count=log10_count(nzf, n_bits),
            logit_offset_constant=group.loc[constant, "logit_offset"].median(),
            logit_offset_nonconstant=nonconst["logit_offset"].median(),
            ln_inv_std_max=group["ln_inv_std_max"].max(),
            beta_max=group["beta_max"].max(),
        )
        rows.append(row)
    summary = pd.DataFrame(rows)
    control = df[df["function"] == RANDOM_FUNCTION]
    if len(control):
        extra = []
        for _, c in control.iterrows():
            low, high = wilson_interval(int(c["with_zero"]), int(c["n_functions"]))
            extra.append(dict(
                init=RANDOM_FUNCTION, n_bits=int(c["n_bits"]), networks=int(c["n_functions"]),
                method="exhaustive", with_zero=c["with_zero"] / c["n_functions"],
                with_zero_low=low, with_zero_high=high,
                zero_fraction=c["zero_fraction"],
                log10_zero_count=log10_count(c["zero_fraction"], int(c["n_bits"])),
            ))
        summary = pd.concat([summary, pd.DataFrame(extra)], ignore_index=True)
    return summary


def _drawn(df):
    """The networks to draw: eps = 0 only when eps > 0 coincides on every pair."""
    models = network_rows(df)
    agreement = eps_agreement(df)
    if agreement is not None and agreement["same"] == agreement["pairs"]:
        return models[models["layer_norm_eps"] == 0], agreement
    return models, agreement


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


def plot_random_init_sensitivity(df):
    """Figures: zero-sensitivity count, constant networks, why they are constant, profiles.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`random_init_sensitivity`.

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
        beside the control and its limit 1 - 1/e. ``"diagnostic"``: the
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
    >>> from skxor.studies import plot_random_init_sensitivity, random_init_sensitivity
    >>> df = random_init_sensitivity(n_bits=[4, 8], init=["normal"], seeds=2,
    ...                              n_random_functions=20)
    >>> figures = plot_random_init_sensitivity(df)
    >>> {name: len(figure.axes) for name, figure in sorted(figures.items())}
    {'diagnostic': 2, 'profiles': 1, 'shares': 3, 'zero_count': 2}
    """
    from matplotlib.figure import Figure

    require_networks(df)
    models, agreement = _drawn(df)
    summary = summarise_random_init(pd.concat([models, df[df["function"] != TRANSFORMER]]))
    nets = summary[summary["init"] != RANDOM_FUNCTION]
    control = summary[summary["init"] == RANDOM_FUNCTION]
    ns = sorted(int(n) for n in df["n_bits"].dropna().unique())
    styles = _series_styles(nets)
    seeds = int(models["seed"].nunique()) if len(models) else 0
    eps_note = ""
    if agreement is not None and agreement["same"] == agreement["pairs"]:
        eps_note = (f"\neps = {agreement['eps']:g} gives identical profiles "
                    f"({agreement['pairs']} of {agreement['pairs']} networks): not drawn.")
    settings = list(styles)
    offsets = {s: float(offset(1.0, i, len(settings))) for i, s in enumerate(settings)}
    figures = {}

    def each_setting():
        for (init, r, p, d, l, eps), group in nets.groupby(_SETTING, sort=False):
            key = (init, r, p, int(d), int(l))
            label = _setting_label(init, r, p, d, l, None if eps_note else eps)
            yield key, label, group.sort_values("n_bits")

    # -- count of zero-sensitivity strings
    fig = Figure(figsize=(12.0, 4.4), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    for ax, logx in zip(axes, (False, True)):
        for key, label, g in each_setting():
            x = g["n_bits"] * offsets[key] if logx else g["n_bits"] + 8 * np.log2(offsets[key])
            style = styles[key]
            ax.plot(x, g["log10_zero_count"], ms=4, lw=1.2, label=f"{label}: all",
                    **style)
            ax.plot(x, g["nonconstant_log10_zero_count"], ms=4, lw=0.8, alpha=0.7,
                    color=style["color"], marker=style["marker"], ls=":", mfc="none",
                    label=f"{label}: non-constant")
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
    # Below the panels, where it cannot cover the title.
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=3,
               fontsize="xx-small")
    figures["zero_count"] = fig

    # -- shares
    fig = Figure(figsize=(12.0, 4.2), layout="constrained")
    axes = fig.subplots(1, 3, sharey=True)
    panels = [
        ("constant", "share of constant networks"),
        ("with_zero", "share with a zero-sensitivity string (all networks)"),
        ("nonconstant_with_zero", "share with a zero-sensitivity string (non-constant)"),
    ]
    for ax, (column, title) in zip(axes, panels):
        for key, label, g in each_setting():
            x = g["n_bits"] * offsets[key]
            ax.errorbar(x, g[column], yerr=interval_errors(
                g[column], g[f"{column}_low"], g[f"{column}_high"]),
                ms=4, lw=1.0, capsize=2, label=label, **styles[key])
        if column != "constant" and len(control):
            c = control.sort_values("n_bits")
            ax.errorbar(c["n_bits"], c["with_zero"],
                        yerr=interval_errors(c["with_zero"], c["with_zero_low"],
                                             c["with_zero_high"]),
                        fmt="k*", ms=8, capsize=2, label="random function (measured)")
            ax.plot(ns, [POISSON_LIMIT] * len(ns), color="black", lw=1.0, ls=(0, (1, 1)),
                    label="reference: random function, limit 1 - 1/e")
        log_axis(ax, ns, base=2)
        ax.set_ylim(-0.05, 1.05)
        ax.set_xlabel("string length N")
        ax.set_title(title, fontsize="small")
    for ax in axes:
        ax.set_ylabel("share of networks (Wilson 95% interval)")
    fig.suptitle(f"Random initialisation, {seeds} seeds per point.{eps_note}",
                 fontsize="small")
    handles, labels = axes[1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=3, fontsize="xx-small")
    figures["shares"] = fig

    # -- why constant
    fig = Figure(figsize=(12.0, 4.2), layout="constrained")
    axes = fig.subplots(1, 2)
    for key, label, g in each_setting():
        x = g["n_bits"] * offsets[key]
        style = styles[key]
        axes[0].plot(x, g["logit_offset_constant"], ms=4, lw=1.2,
                     label=f"{label}: constant", **style)
        axes[0].plot(x, g["logit_offset_nonconstant"], ms=4, lw=0.8, color=style["color"],
                     marker=style["marker"], ls=":", mfc="none",
                     label=f"{label}: non-constant")
    axes[0].set_yscale("log")
    axes[0].set_ylabel("median |mean| / std of the logit T(x) over strings")
    axes[0].set_title("constant when the logit's offset dwarfs its spread", fontsize="small")
    all_models = network_rows(df)
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
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=3,
               fontsize="xx-small")
    figures["diagnostic"] = fig

    # -- mean profile per scheme, drawn by SensitivityProfileDisplay
    figures["profiles"] = _plot_profiles(df, models, eps_note)
    return figures


def _plot_profiles(df, models, eps_note):
    """Mean profile of the non-constant networks per scheme at the largest exhaustive N.

    One :class:`~skxor.plotting.SensitivityProfileDisplay` per scheme (pooled
    over the scheme's settings), PARITY, MAJORITY and FIRST as labelled
    references; a scheme whose networks are all constant shows their mean.
    """
    from matplotlib.figure import Figure

    from ...plotting import SensitivityProfileDisplay

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
        settings = part.groupby(_SETTING, sort=False).ngroups
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


def _counted(row, column):
    """``"k/n = share [low, high]"`` of a summary row's share ``column`` over its networks."""
    n = int(row["networks"])
    k = int(round(row[column] * n))
    return (f"{k}/{n} = "
            f"{format_interval(row[column], row[f'{column}_low'], row[f'{column}_high'])}")


def _count_cell(row):
    if not np.isfinite(row.get("with_zero", np.nan)):
        return "-"
    count = row["zero_fraction"] * 2.0 ** row["n_bits"]
    return f"{_counted(row, 'with_zero')}; {count:.3g}"


def paper_setting_table(df):
    """Köver et al.'s setting: share with a zero-sensitivity string and mean count.

    One row per N, one column per scheme of the eos / sinusoidal networks
    (the smallest D, L and eps; ``"share [Wilson 95%]; mean count"``) and
    one for the random-function control.
    """
    summary = summarise_random_init(df)
    nets = summary[(summary["init"] != RANDOM_FUNCTION) & (summary["readout"] == "eos")
                   & (summary["positional"] == "sinusoidal")]
    if not len(nets):
        nets = summary[summary["init"] != RANDOM_FUNCTION]
    if not len(nets):
        return pd.DataFrame()
    nets = nets[(nets["d_model"] == nets["d_model"].min())
                & (nets["n_layers"] == nets["n_layers"].min())
                & (nets["layer_norm_eps"] == nets["layer_norm_eps"].min())]
    def column(part):
        return pd.Series([_count_cell(r) for _, r in part.iterrows()],
                         index=part["n_bits"].astype(int).tolist())

    table = {init: column(nets[nets["init"] == init])
             for init in sorted(nets["init"].unique(),
                                key=lambda i: (i not in PAPER_SCHEMES, str(i)))}
    control = summary[summary["init"] == RANDOM_FUNCTION]
    if len(control):
        table[RANDOM_FUNCTION] = column(control)
    out = pd.DataFrame(table)
    out.index.name = "N"
    if RANDOM_FUNCTION in out:  # beyond exhaustive N: the exact expectation, not a measurement
        out[RANDOM_FUNCTION] = out[RANDOM_FUNCTION].fillna("not enumerated; expected count 1")
    return out.fillna("-")


def _per_setting_table(summary, column):
    nets = summary[summary["init"] != RANDOM_FUNCTION].copy()
    nets["setting"] = [_setting_label(*r) for r in nets[_SETTING].itertuples(index=False)]
    cells = nets.apply(lambda r: _counted(r, column), axis=1)
    nets["cell"] = cells
    return nets.pivot(index="setting", columns="n_bits", values="cell").rename(
        columns=lambda n: f"N={n}")


def _pooled_diagnostic(models):
    """Per N: constant share [Wilson], median |mean T|, std T and their ratio."""
    rows = {}
    for n, g in models.groupby("n_bits"):
        k = int(g["constant"].astype(bool).sum())
        rows[int(n)] = {
            "constant": format_count(k, len(g), "networks"),
            "median abs(mean T)": g["logit_mean"].abs().median(),
            "median std T": g["logit_std"].median(),
            "median abs(mean T) / std T": g["logit_offset"].median(),
            "median abs(omega) / std T": (g["readout_bias"].abs() / g["logit_std"]).median(),
            "networks": str(len(g)),
        }
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "N"
    return table


def report_random_init_sensitivity(df):
    """Markdown: Köver et al.'s setting first, then why networks are constant.

    Every number in the text is computed from ``df``.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`random_init_sensitivity`, from which the section is written.

    Returns
    -------
    text : str
        A Markdown section: the share of networks with a zero-sensitivity
        string and their mean count in Köver et al.'s setting beside the
        random-function control, the constant networks, the logit diagnostic
        and, with two eps, whether they agree.

    Examples
    --------
    >>> from skxor.studies import random_init_sensitivity, report_random_init_sensitivity
    >>> df = random_init_sensitivity(n_bits=[4, 8], init=["normal"], seeds=2,
    ...                              n_random_functions=20)
    >>> report = report_random_init_sensitivity(df)
    >>> for line in report.splitlines():
    ...     if line.startswith("#"):
    ...         print(line)
    ## Sensitivity at random initialisation
    ### Köver et al.'s setting: share with a zero-sensitivity string and mean count
    ### (a) Constant networks and (b) zero-sensitivity strings of the others
    ### Why networks are constant
    ### eps = 0 and eps > 0 on the same weights
    >>> for line in report.splitlines():  # the cells "k/n = share [Wilson 95%]; mean count"
    ...     if line.startswith("|") and "]; " in line:
    ...         print(line)
    |   4 | 2/2 = 1.00 [0.34, 1.00]; 12  | 12/20 = 0.60 [0.39, 0.78]; 1.4  |
    |   8 | 2/2 = 1.00 [0.34, 1.00]; 247 | 16/20 = 0.80 [0.58, 0.92]; 1.45 |
    """
    models = network_rows(df)
    if not len(models):
        return ("## Sensitivity at random initialisation\n\nThe table holds no random "
                "network (no row with function == 'transformer'): nothing to summarise.")
    summary = summarise_random_init(df)
    nets = summary[summary["init"] != RANDOM_FUNCTION]
    control = summary[summary["init"] == RANDOM_FUNCTION]
    agreement = eps_agreement(df)
    identical = agreement is not None and agreement["same"] == agreement["pairs"]
    if identical:  # the eps > 0 rows repeat the eps = 0 ones: shown once
        nets = nets[nets["layer_norm_eps"] == 0]
    # eps is a paired factor (the same networks at every eps): counts over
    # networks pool one eps at a time, so that each network counts once.
    epsilons = sorted(models["layer_norm_eps"].unique())
    pools = [(e, models[models["layer_norm_eps"] == e])
             for e in (epsilons[:1] if identical else epsilons)]
    shown = pools[0][1]
    seeds = int(models["seed"].nunique())
    exhaustive = models.loc[models["method"] == "exhaustive", "n_bits"]
    sampled = models.loc[models["method"] == "sampled"]
    rough = " **Rough: {} seeds per point.**".format(seeds) if seeds < 20 else ""
    lines = [
        "## Sensitivity at random initialisation",
        "",
        f"{distinct_networks(models)} distinct random transformers ({seeds} seeds per "
        f"setting; each cell of the grid draws its own weights; init "
        f"{', '.join(sorted(models['init'].unique()))}; read-out "
        f"{', '.join(sorted(models['readout'].unique()))}; positions "
        f"{', '.join(sorted(models['positional'].unique()))}; "
        f"D in {sorted(int(d) for d in models['d_model'].unique())}, "
        f"L in {sorted(int(n) for n in models['n_layers'].unique())}), profiled over "
        + (f"all strings up to N = {int(exhaustive.max())}" if len(exhaustive)
           else "no N exhaustively")
        + (f" and from {int(sampled['n_strings'].max())} uniform strings with their "
           f"neighbours at N = {', '.join(str(int(n)) for n in sorted(sampled['n_bits'].unique()))}"
           " (there 'constant' means no sensitive string among the sampled ones, and "
           "'with a zero-sensitivity string' that one was found)" if len(sampled) else "")
        + f".{rough}"
        + (f" Each network is evaluated at every eps ({', '.join(f'{e:g}' for e in epsilons)}"
           f"; a paired design: {len(models)} evaluations of {distinct_networks(models)} "
           "networks), so every count over networks below is at one eps and counts each "
           "network once." if len(epsilons) > 1 else ""),
        "",
        "### Köver et al.'s setting: share with a zero-sensitivity string and mean count",
        "",
        "Each cell: networks with at least one zero-sensitivity string, k/n "
        "[Wilson 95%]; mean number of such strings (fraction x 2^N). Random "
        "function: uniformly random Boolean functions, exhaustively.",
        "",
        paper_setting_table(df).to_markdown(),
    ]
    if len(control):
        c = control
        pooled = int((c["with_zero"] * c["networks"]).round().sum())
        total = int(c["networks"].sum())
        lo, hi = wilson_interval(pooled, total)
        lines += [
            "",
            f"Random functions: {format_count(pooled, total, 'functions', digits=3)} "
            f"(pooled over N = {', '.join(str(int(n)) for n in c['n_bits'])}, each "
            "function drawn independently) "
            f"have a zero-sensitivity string, against the limit 1 - 1/e = "
            f"{POISSON_LIMIT:.3f}; their mean count ranges over "
            f"{c['zero_fraction'].mul(2.0 ** c['n_bits']).min():.2f}-"
            f"{c['zero_fraction'].mul(2.0 ** c['n_bits']).max():.2f} "
            "(exact expectation 1 at every N: each string is insensitive with "
            "probability 2^-N).",
        ]
    lines += ["", "### (a) Constant networks and (b) zero-sensitivity strings of the others",
              ""]
    for eps, pool in pools:
        constant = pool["constant"].astype(bool)
        nonconst = pool[~constant]
        k_nz = int(nonconst["has_zero"].astype(bool).sum())
        at = f" at eps = {eps:g}" if len(epsilons) > 1 else ""
        if identical:
            at += f" (eps = {agreement['eps']:g} gives the same functions on these networks)"
        lines += [
            f"Over all {distinct_networks(pool)} networks{at}, "
            f"{format_count(int(constant.sum()), len(pool), 'networks')} are constant. "
            + (f"Of the {len(nonconst)} non-constant ones, "
               f"{format_count(k_nz, len(nonconst), 'networks')} have a zero-sensitivity "
               "string, and their mean zero-sensitivity fraction is "
               f"{nonconst['zero_fraction'].mean():.3f}." if len(nonconst)
               else "No non-constant network remains."),
            "",
        ]
    lines += [
        "(a) Constant networks, k/n [Wilson 95%], per setting and N:",
        "",
        _per_setting_table(nets, "constant").to_markdown(),
        "",
        "(b) Mean zero-sensitivity fraction among the non-constant networks "
        "(blank: all constant):",
        "",
        nets.assign(setting=[_setting_label(*r) for r in nets[_SETTING].itertuples(index=False)])
        .pivot(index="setting", columns="n_bits", values="nonconstant_zero_fraction")
        .rename(columns=lambda n: f"N={n}")
        .map(lambda v: "" if pd.isna(v) else f"{v:.3f}").to_markdown(),
    ]
    with_std = shown[shown["logit_offset"].notna()]
    if len(with_std):
        const = with_std["constant"].astype(bool)
        by_n = with_std.groupby("n_bits")["logit_offset"].median()
        lines += [
            "",
            "### Why networks are constant",
            "",
            f"Over {int(models['n_blowup'].max()) if 'n_blowup' in models else ''} uniform "
            "strings per network, the logit's offset |mean T(x)| against its spread "
            "std T(x): the median ratio is "
            f"{with_std.loc[const, 'logit_offset'].median():.3g} for constant networks and "
            f"{with_std.loc[~const, 'logit_offset'].median():.3g} for non-constant ones. "
            "A network is constant when the input-dependent part of T(x) is too small "
            "to move it across 0. Pooled over settings, the median ratio goes from "
            f"{by_n.iloc[0]:.3g} at N = {int(by_n.index[0])} to {by_n.iloc[-1]:.3g} at "
            f"N = {int(by_n.index[-1])}.",
            "",
            _pooled_diagnostic(with_std).to_markdown(floatfmt=".3g"),
            "",
            f"(pooled over the settings shown, at eps = {pools[0][0]:g}; medians over "
            "networks)",
            "",
            nets.assign(setting=[_setting_label(*r)
                                 for r in nets[_SETTING].itertuples(index=False)])
            .pivot(index="setting", columns="n_bits", values="logit_offset_constant")
            .rename(columns=lambda n: f"N={n}")
            .map(lambda v: "" if pd.isna(v) else f"{v:.3g}").to_markdown(),
            "",
            "(median |mean| / std of the logit over the constant networks, per setting "
            "and N; blank: none constant)",
        ]
    if agreement is not None:
        lines += [
            "",
            "### eps = 0 and eps > 0 on the same weights",
            "",
            f"On the same weights, eps = 0 and eps = {agreement['eps']:g} gave identical "
            f"profiles in {agreement['same']} of {agreement['pairs']} pairs. The largest "
            f"layer-norm 1/std seen in any network is {agreement['inv_std_max']:.3g}, "
            f"against 1/sqrt(eps) = {1 / math.sqrt(agreement['eps']):.3g}; the largest "
            f"cumulative blow-up beta = prod tau is {agreement['beta_max']:.3g}, against "
            f"the bound (1 + 1/sqrt(eps))^K = {agreement['beta_bound']:.3g} (K layer "
            "norms). eps changes the network only where 1/std nears 1/sqrt(eps)."
            + (" The tables above therefore show eps = 0 only." if identical else ""),
        ]
    return "\n".join(lines)


STUDY = Study(
    name="random_init_sensitivity",
    description=(
        "Sensitivity of randomly initialised Boolean transformers in Köver et al.'s "
        "setting (eos read-out, fixed positions, uniform / Gaussian / Xavier schemes; "
        "PyTorch default init and other read-outs as variations): constant networks, "
        "zero-sensitivity strings and their count against N, the logit diagnostic, "
        "beside uniformly random Boolean functions and PARITY, MAJORITY, FIRST."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=random_init_cell,
    compute=_compute,
    summary=summarise_random_init,
    figures=plot_random_init_sensitivity,
    report=report_random_init_sensitivity,
    key=("function", "n_bits", "d_model", "n_layers", "n_heads", "layer_norm_eps", "init",
         "readout", "positional", "init_scale", "seed", "random_state", "exhaustive_max",
         "n_samples", "n_blowup", "n_functions"),
    setting=("n_heads", "init_scale", "exhaustive_max", "n_samples", "n_blowup",
             "n_random_functions", "device", "random_state"),
    check=check_transformer,
)

__all__ = [
    "PARAMETERS",
    "PRESETS",
    "STUDY",
    "network_cells",
    "paper_setting_table",
    "plot_random_init_sensitivity",
    "random_function_cell",
    "random_init_cell",
    "random_init_sensitivity",
    "reference_cell",
    "report_random_init_sensitivity",
    "summarise_random_init",
]
