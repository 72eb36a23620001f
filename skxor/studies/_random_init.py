"""Sensitivity of randomly initialised transformers (Köver et al. 2026, arXiv 2606.08768).

For each string length N, width D, depth L, layer-norm stabiliser eps and
seed, one :class:`~skxor.nn.BooleanTransformer` is drawn
at random (nothing is trained) and the Boolean function it computes,
``f(x) = [output > 0]``, is profiled: exhaustively over all 2^N strings up
to ``exhaustive_max`` bits, from ``n_samples`` uniform strings and their N
neighbours beyond. Recorded per model: the profile (fraction of strings per
sensitivity value), the fraction of zero-sensitivity strings, the average,
minimum and maximum sensitivity, whether f is constant, and the layer-norm
blow-up ``1 / sqrt(var + eps)`` (its largest and median value over every
norm and token on a few hundred strings). PARITY, MAJORITY and FIRST are
profiled the same way at each N, side by side.

Köver et al. (2026) predict that random transformers have many strings of sensitivity 0
and more so as N grows, whereas PARITY and FIRST have none: the functions
without zero-sensitivity strings occupy a measure-zero set of parameters.

Every cell runs torch on one thread (the networks are small); parallelism
comes from ``n_jobs``.
"""

import json
from numbers import Integral

import numpy as np
import pandas as pd
import torch
from sklearn.utils._param_validation import Interval

from .._utils._validation import check_device
from ..boolean import First, Majority, Parity
from ..estimators import BooleanTransformerClassifier
from ..nn import BooleanTransformer
from ._common import (
    Grid,
    Study,
    cell_seed,
    expand_grid,
    profile,
    profile_result,
    single_thread,
)
from ._sweep import finite_or_none, run_sweep

#: Reference functions profiled next to the transformers.
FUNCTIONS = {"PARITY": Parity, "MAJORITY": Majority, "FIRST": First}

_POSITIVE = Interval(Integral, 1, None, closed="left")
# The transformer's own constraints for what is passed to it unchanged.
_MODEL = BooleanTransformerClassifier._parameter_constraints

#: Every parameter of the study and the values it accepts.
PARAMETERS = {
    "n_bits": [Grid(_POSITIVE)],
    "d_model": [Grid(*_MODEL["d_model"])],
    "n_layers": [Grid(*_MODEL["n_layers"])],
    "n_heads": _MODEL["n_heads"],
    "layer_norm_eps": [Grid(*_MODEL["layer_norm_eps"])],
    "init": [Grid(*_MODEL["init"])],
    "init_scale": _MODEL["init_scale"],
    "seeds": [_POSITIVE],
    "exhaustive_max": [Interval(Integral, 0, None, closed="left")],
    "n_samples": [_POSITIVE],
    "n_blowup": [_POSITIVE],
    "device": [str],
    "random_state": [Interval(Integral, 0, None, closed="left")],
}

PRESETS = {
    "quick": dict(
        n_bits=[4, 6, 8, 10, 12, 16],
        d_model=[16],
        n_layers=[1, 2],
        n_heads=4,
        layer_norm_eps=[0.0, 1e-5],
        init=["normal"],
        init_scale=1.0,
        seeds=6,
        exhaustive_max=12,
        n_samples=256,
        n_blowup=128,
        device="cpu",
        random_state=0,
    ),
    # Only the differences from quick.
    "full": dict(
        n_bits=list(range(4, 21)) + [24, 28, 32, 48, 64],
        d_model=[16, 64],
        n_layers=[1, 2, 4],
        init=["normal", "default"],
        seeds=20,
        exhaustive_max=20,
        n_samples=2000,
        n_blowup=512,
    ),
}


def _check(params):
    check_device(params["device"])
    for D in params["d_model"]:
        if D % params["n_heads"]:
            raise ValueError(
                f"d_model={D} must be divisible by n_heads={params['n_heads']}."
            )


def random_init_cell(
    n_bits, d_model, n_layers, n_heads, layer_norm_eps, init, init_scale, seed,
    random_state, exhaustive_max, n_samples, n_blowup, device="cpu",
):
    """Profile one randomly initialised transformer.

    The weights depend on (random_state, seed) and the shapes only, so the
    two eps values see the same network. They are drawn on the CPU and then
    moved to ``device``.
    """
    with single_thread():
        model = BooleanTransformer(
            n_bits, d_model, n_layers, n_heads, layer_norm_eps=layer_norm_eps,
            init=init, init_scale=init_scale, seed=cell_seed(random_state, seed),
        ).eval().to(check_device(device))
        prof = profile(model, n_bits, exhaustive_max, n_samples,
                        cell_seed(random_state, seed, 1))
        g = torch.Generator().manual_seed(cell_seed(random_state, seed, 2))
        spins = 1.0 - 2.0 * torch.randint(0, 2, (n_blowup, n_bits), generator=g).float()
        inv = torch.cat([v.flatten() for v in model.layer_norm_inverse_std(spins).values()])
    finite = inv[torch.isfinite(inv)]
    return {
        "function": "transformer",
        **profile_result(prof),
        "ln_inv_std_max": finite_or_none(inv.max()),
        "ln_inv_std_median": finite_or_none(finite.median()) if finite.numel() else None,
        "n_parameters": model.n_parameters,
    }


def reference_cell(function, n_bits, exhaustive_max, n_samples, random_state):
    """Profile PARITY, MAJORITY or FIRST on N bits the way the models are profiled."""
    prof = profile(FUNCTIONS[function](n_bits), n_bits, exhaustive_max, n_samples,
                    cell_seed(random_state, 0, 3))
    return {"function": function, **profile_result(prof)}


def random_init_sensitivity(
    preset="quick", *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None,
    **overrides,
):
    """Sensitivity profiles of random transformers vs N, next to PARITY/MAJORITY/FIRST.

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick`` (seconds): N in {4, .., 16} (exhaustive up to 12, sampled
        at 16), D = 16, L in {1, 2}, eps in {0, 1e-5}, Gaussian init, 6
        seeds. ``full``: N = 4..20 exhaustively plus 24..64 sampled, D in
        {16, 64}, L in {1, 2, 4}, eps in {0, 1e-5}, Gaussian and
        PyTorch-default init, 20 seeds -- 2 880 networks; the D = 64 models
        at N = 20 dominate (minutes each on one CPU core, a day or so for
        the whole preset on one core), so run it with ``n_jobs`` and a
        ``checkpoint_dir``, or with ``device="cuda"``.
    checkpoint_dir, n_jobs, progress, scheduler
        As for :func:`skxor.studies.run_sweep`.
    **overrides
        Replace preset entries: ``random_state`` (int, default 0: seeds the
        networks and the sampled strings), ``n_bits``, ``d_model``, ``n_layers``,
        ``layer_norm_eps``, ``init`` (lists); ``n_heads`` (must divide every
        D), ``init_scale`` (sigma of ``"normal"``, w of ``"uniform"``),
        ``seeds``, ``exhaustive_max`` (largest N profiled over all strings),
        ``n_samples`` (strings per sampled profile), ``n_blowup`` (strings
        for the layer-norm diagnostic), ``device`` (torch device of the
        networks, e.g. ``"cuda"``).

    Returns
    -------
    results : pandas.DataFrame
        One row per transformer (``function == "transformer"``: the
        configuration, ``seed``, ``n_parameters``, ``ln_inv_std_max``,
        ``ln_inv_std_median``) and per reference function and N
        (``function`` in PARITY, MAJORITY, FIRST; configuration columns
        empty). Profile columns for all: ``method``, ``n_strings``,
        ``zero_fraction`` (with ``zero_fraction_low``/``_high``, a 95%
        interval when sampled), ``average_sensitivity``,
        ``min_sensitivity``, ``max_sensitivity``, ``constant`` and
        ``profile`` (JSON list of the fractions per sensitivity 0..N).

    Examples
    --------
    >>> from skxor.studies import random_init_sensitivity
    >>> df = random_init_sensitivity(n_bits=[4, 8], n_layers=[1], seeds=2)
    >>> sorted(df["function"].unique())
    ['FIRST', 'MAJORITY', 'PARITY', 'transformer']
    >>> df[df["function"] == "PARITY"]["zero_fraction"].tolist()
    [0.0, 0.0]
    """
    return STUDY.run(
        preset, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
        scheduler=scheduler, **overrides,
    )


def _compute(params, *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None):
    random_state = params["random_state"]
    common = dict(
        exhaustive_max=[params["exhaustive_max"]], n_samples=[params["n_samples"]],
        random_state=[random_state],
    )
    cells = expand_grid(
        n_bits=params["n_bits"], d_model=params["d_model"], n_layers=params["n_layers"],
        n_heads=[params["n_heads"]], layer_norm_eps=params["layer_norm_eps"],
        init=params["init"], init_scale=[params["init_scale"]],
        seed=list(range(params["seeds"])), n_blowup=[params["n_blowup"]],
        device=[params["device"]], **common,
    )
    cells.sort(key=lambda c: (c["n_bits"], c["d_model"], c["n_layers"], c["init"],
                              c["layer_norm_eps"], c["seed"]))
    refs = expand_grid(function=list(FUNCTIONS), n_bits=params["n_bits"], **common)
    refs.sort(key=lambda c: (c["n_bits"], list(FUNCTIONS).index(c["function"])))
    sweep = dict(checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
                 scheduler=scheduler)
    models = run_sweep(random_init_cell, cells, study="random_init_sensitivity", **sweep)
    references = run_sweep(reference_cell, refs, study="random_init_sensitivity", **sweep)
    df = pd.concat([models, references], ignore_index=True)
    first = ["function", "n_bits", "d_model", "n_layers", "n_heads", "layer_norm_eps",
             "init", "init_scale", "seed"]
    return df[first + [c for c in df.columns if c not in first]]


# -- summaries, figures, report ---------------------------------------------------

_CONFIG = ["init", "d_model", "n_layers", "layer_norm_eps"]


def _config_label(init, d_model, n_layers, eps):
    return f"{init}, D={int(d_model)}, L={int(n_layers)}, eps={eps:g}"


def summarise_random_init(df):
    """Per configuration and N: means over seeds.

    Returns
    -------
    summary : pandas.DataFrame
        Columns ``config`` (a label; the function name for the references),
        ``n_bits``, ``zero_fraction`` (mean), ``zero_fraction_std``,
        ``constant_rate`` (share of seeds computing a constant function),
        ``nonconstant_zero_fraction`` (mean over the non-constant ones, NaN
        if none), ``average_sensitivity``, ``ln_inv_std_max`` (median) and
        ``seeds``.
    """
    models = df[df["function"] == "transformer"].copy()
    models["config"] = [
        _config_label(*row) for row in models[_CONFIG].itertuples(index=False)
    ]
    models["nonconstant_zero"] = models["zero_fraction"].where(~models["constant"].astype(bool))
    summary = (
        models.groupby(["config", "n_bits"], sort=False)
        .agg(
            zero_fraction=("zero_fraction", "mean"),
            zero_fraction_std=("zero_fraction", "std"),
            constant_rate=("constant", "mean"),
            nonconstant_zero_fraction=("nonconstant_zero", "mean"),
            average_sensitivity=("average_sensitivity", "mean"),
            ln_inv_std_max=("ln_inv_std_max", "median"),
            seeds=("seed", "count"),
        )
        .reset_index()
    )
    refs = df[df["function"] != "transformer"]
    refs = refs.assign(config=refs["function"], seeds=1)[
        ["config", "n_bits", "zero_fraction", "average_sensitivity", "seeds"]
    ]
    return pd.concat([summary, refs], ignore_index=True)


def _profiles(df, n_bits):
    """Mean profile per configuration (and reference) at string length n_bits."""
    part = df[df["n_bits"] == n_bits]
    out = {}
    for _, row in part.iterrows():
        label = (
            row["function"] if row["function"] != "transformer"
            else _config_label(row["init"], row["d_model"], row["n_layers"], row["layer_norm_eps"])
        )
        out.setdefault(label, []).append(json.loads(row["profile"]))
    return {label: np.mean(rows, axis=0) for label, rows in out.items()}


_REF_STYLES = {"PARITY": ":", "MAJORITY": "--", "FIRST": "-."}


def plot_random_init_sensitivity(df):
    """Figures: zero-sensitivity fraction and average sensitivity vs N; profiles.

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
        ``"zero_fraction"``, ``"average_sensitivity"`` (both vs N on a
        log axis, one panel per eps: each configuration's mean over seeds,
        the mean of all networks in black, the references in grey) and
        ``"profiles"`` (mean profile at the largest exhaustive N, per
        configuration and reference).
    """
    from matplotlib.figure import Figure

    summary = summarise_random_init(df)
    refs = summary[summary["config"].isin(list(FUNCTIONS))]
    models = summary[~summary["config"].isin(list(FUNCTIONS))]
    epsilons = sorted(df.loc[df["function"] == "transformer", "layer_norm_eps"].unique())
    figures = {}
    for key, ylabel in [
        ("zero_fraction", "fraction of strings with sensitivity 0"),
        ("average_sensitivity", "average sensitivity"),
    ]:
        fig = Figure(figsize=(4.0 * len(epsilons) + 2.0, 3.8), layout="constrained")
        axes = np.atleast_1d(fig.subplots(1, len(epsilons), sharey=True))
        for ax, eps in zip(axes, epsilons):
            for config, group in models.groupby("config", sort=False):
                if not config.endswith(f"eps={eps:g}"):
                    continue
                ax.plot(group["n_bits"], group[key], marker="o", ms=2, lw=0.8, alpha=0.6,
                        label=config.rsplit(", eps", 1)[0])
            pooled = pooled_random_init(df[df["layer_norm_eps"].isin([eps])
                                           | (df["function"] != "transformer")])
            ax.plot(pooled.index, pooled[key], color="black", lw=2.2,
                    label="mean of all networks")
            if key == "zero_fraction":
                ax.plot(pooled.index, pooled["nonconstant_zero_fraction"], color="black",
                        lw=1.6, ls="--", label="mean of non-constant ones")
            for function, group in refs.groupby("config", sort=False):
                ax.plot(group["n_bits"], group[key], ls=_REF_STYLES[function], lw=1.2,
                        color="grey", label=function)
            ax.set_xscale("log", base=2)
            if key == "average_sensitivity":  # PARITY's N would flatten the rest
                ax.set_yscale("symlog", linthresh=0.5)
            ax.set_xlabel("string length N")
            ax.set_title(f"layer-norm eps = {eps:g}", fontsize="small")
        axes[0].set_ylabel(ylabel)
        fig.legend(*axes[-1].get_legend_handles_labels(), loc="outside right upper",
                   fontsize="x-small")
        figures[key] = fig

    n_bits = int(df.loc[df["method"] == "exhaustive", "n_bits"].max())
    profiles = _profiles(df, n_bits)
    fig = Figure(figsize=(6.5, 3.8), layout="constrained")
    ax = fig.subplots()
    for label, fractions in profiles.items():
        style = (
            {"ls": _REF_STYLES[label], "lw": 1, "color": "grey"} if label in FUNCTIONS
            else {"marker": "o", "ms": 3}
        )
        ax.plot(np.arange(n_bits + 1), fractions, label=label, **style)
    ax.set_xlabel("sensitivity s(f, x)")
    ax.set_ylabel("fraction of strings (mean over seeds)")
    ax.set_title(f"sensitivity profiles at N = {n_bits} (random initialisation)",
                 fontsize="small")
    ax.legend(fontsize="x-small")
    figures["profiles"] = fig
    return figures


def pooled_random_init(df):
    """Per N, pooled over every configuration, next to the references.

    Returns
    -------
    table : pandas.DataFrame
        Index ``n_bits``; columns ``zero_fraction`` (mean over networks),
        ``constant_share``, ``nonconstant_zero_fraction`` (mean over the
        non-constant functions), ``average_sensitivity``, ``networks``, and
        the zero-sensitivity fraction of PARITY, MAJORITY and FIRST.
    """
    models = df[df["function"] == "transformer"]
    constant = models["constant"].astype(bool)
    table = pd.DataFrame({
        "zero_fraction": models.groupby("n_bits")["zero_fraction"].mean(),
        "constant_share": constant.groupby(models["n_bits"]).mean(),
        "nonconstant_zero_fraction":
            models[~constant].groupby("n_bits")["zero_fraction"].mean(),
        "average_sensitivity": models.groupby("n_bits")["average_sensitivity"].mean(),
        "networks": models.groupby("n_bits").size(),
    })
    refs = df[df["function"] != "transformer"].pivot_table(
        index="n_bits", columns="function", values="zero_fraction")
    for function in FUNCTIONS:
        if function in refs:
            table[function] = refs[function]
    return table


def _eps_agreement(df):
    """(same, pairs): eps = 0 vs eps > 0 networks with equal weights and equal profiles."""
    models = df[df["function"] == "transformer"]
    keys = ["n_bits", "d_model", "n_layers", "n_heads", "init", "init_scale", "seed"]
    wide = models.pivot_table(index=keys, columns="layer_norm_eps", values="profile",
                              aggfunc="first")
    if wide.shape[1] < 2:
        return None
    wide = wide.dropna()
    same = (wide.nunique(axis=1) == 1).sum()
    return int(same), len(wide)


def report_random_init_sensitivity(df):
    """Markdown: zero-sensitivity fraction vs N, pooled and per configuration."""
    models = df[df["function"] == "transformer"]
    exhaustive_max = int(df.loc[df["method"] == "exhaustive", "n_bits"].max())
    pooled = pooled_random_init(df)
    summary = summarise_random_init(df)
    per_config = summary[~summary["config"].isin(list(FUNCTIONS))].pivot_table(
        index="config", columns="n_bits", values="zero_fraction", sort=False)
    ns = list(per_config.columns)
    if len(ns) > 6:  # a readable width: six lengths spread over the range
        ns = [ns[i] for i in np.unique(np.linspace(0, len(ns) - 1, 6).round().astype(int))]
    per_config = per_config[ns].rename(columns=lambda n: f"N={n}")
    seeds = int(models["seed"].nunique())
    lines = [
        "## Sensitivity at random initialisation",
        "",
        f"{len(models)} random transformers (init {', '.join(sorted(models['init'].unique()))}; "
        f"D in {sorted(int(d) for d in models['d_model'].unique())}, "
        f"L in {sorted(int(n) for n in models['n_layers'].unique())}, "
        f"eps in {{{', '.join(f'{e:g}' for e in sorted(models['layer_norm_eps'].unique()))}}}, "
        f"{seeds} seeds), profiled "
        f"over all strings up to N = {exhaustive_max} and from uniform samples beyond. "
        "Pooled over configurations, with the zero-sensitivity fraction of the "
        "reference functions:",
        "",
        pooled.astype({"networks": str}).to_markdown(floatfmt=".3f"),
        "",
        "Mean zero-sensitivity fraction per configuration:",
        "",
        per_config.to_markdown(floatfmt=".3f"),
    ]
    agreement = _eps_agreement(df)
    if agreement is not None:
        same, pairs = agreement
        blowup = models["ln_inv_std_max"].median()
        lines += [
            "",
            f"eps = 0 against eps > 0 on the same weights: equal profiles in {same} of "
            f"{pairs} pairs. The median over networks of the largest layer-norm "
            f"blow-up 1/std seen is {blowup:.3g}; eps changes the network only "
            "where 1/std approaches 1/sqrt(eps) (316 for eps = 1e-5).",
        ]
    return "\n".join(lines)


STUDY = Study(
    name="random_init_sensitivity",
    description=(
        "Sensitivity profiles of randomly initialised Boolean transformers (N, D, L, "
        "layer-norm epsilon 0 and 1e-5, many seeds) beside PARITY, MAJORITY and FIRST: "
        "zero-sensitivity fraction and average sensitivity."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=random_init_cell,
    compute=_compute,
    summary=summarise_random_init,
    figures=plot_random_init_sensitivity,
    report=report_random_init_sensitivity,
    key=("function", "n_bits", "d_model", "n_layers", "n_heads", "layer_norm_eps", "init",
         "init_scale", "seed", "random_state", "exhaustive_max", "n_samples", "n_blowup"),
    check=_check,
)

__all__ = [
    "PARAMETERS",
    "PRESETS",
    "STUDY",
    "plot_random_init_sensitivity",
    "pooled_random_init",
    "random_init_cell",
    "random_init_sensitivity",
    "reference_cell",
    "report_random_init_sensitivity",
    "summarise_random_init",
]
