"""What a transformer learns of PARITY, MAJORITY and FIRST as N grows (Köver et al. 2026, arXiv 2606.08768).

For each function, string length N and seed, a
:class:`~skxor.BooleanTransformerClassifier`
is trained on fresh uniform strings labelled by the function (AdamW, a fixed
budget of ``n_steps`` steps of ``batch_size`` strings), stopping early once
the accuracy on a monitoring sample of ``check_every * batch_size`` strings,
measured every ``check_every`` steps, reaches ``target_accuracy``. Recorded
per run: the accuracy reached (on all 2^N strings up to ``exhaustive_max``
bits, else on ``n_eval`` fresh strings), the steps used, whether the target
was reached, and the sensitivity profile of the trained model next to the
target function's (zero-sensitivity fraction, average sensitivity, and the
total-variation distance between the two profiles).

Köver et al. (2026) report that MAJORITY (exponentially many zero-sensitivity strings)
is learned, FIRST only at moderate lengths, and PARITY (no zero-sensitivity
strings, every string of sensitivity N) not, with trained models keeping a
low-sensitivity profile.

Every cell runs torch on one thread (the networks are small); parallelism
comes from ``n_jobs``.
"""

import json
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import Interval, StrOptions

from .._utils._validation import check_device
from ..estimators import BooleanTransformerClassifier
from ._common import (
    Grid,
    Study,
    cell_seed,
    expand_grid,
    profile,
    profile_result,
    single_thread,
)
from ._random_init import FUNCTIONS
from ._sweep import run_sweep

_POSITIVE = Interval(Integral, 1, None, closed="left")
# The classifier's own constraints for what is passed to it unchanged.
_MODEL = BooleanTransformerClassifier._parameter_constraints

#: Every parameter of the study and the values it accepts.
PARAMETERS = {
    "function": [Grid(StrOptions(set(FUNCTIONS)))],
    "n_bits": [Grid(_POSITIVE)],
    "d_model": _MODEL["d_model"],
    "n_layers": _MODEL["n_layers"],
    "n_heads": _MODEL["n_heads"],
    "layer_norm_eps": [Grid(*_MODEL["layer_norm_eps"])],
    "learning_rate": _MODEL["learning_rate"],
    "batch_size": _MODEL["batch_size"],
    "n_steps": [_POSITIVE],
    "check_every": [_POSITIVE],
    "target_accuracy": [Interval(Real, 0, 1, closed="right")],
    "seeds": [_POSITIVE],
    "exhaustive_max": [Interval(Integral, 0, None, closed="left")],
    "n_eval": [_POSITIVE],
    "n_samples": [_POSITIVE],
    "device": [str],
    "random_state": [Interval(Integral, 0, None, closed="left")],
}

PRESETS = {
    "quick": dict(
        function=list(FUNCTIONS),
        n_bits=[4, 6, 8],
        d_model=16,
        n_layers=2,
        n_heads=4,
        layer_norm_eps=[1e-5],
        learning_rate=3e-3,
        batch_size=64,
        n_steps=400,
        check_every=50,
        target_accuracy=0.99,
        seeds=2,
        exhaustive_max=16,
        n_eval=10000,
        n_samples=1000,
        device="cpu",
        random_state=0,
    ),
    # Only the differences from quick.
    "full": dict(
        n_bits=[4, 6, 8, 10, 12, 14, 16, 20, 24, 32, 48, 64],
        d_model=64,
        learning_rate=1e-3,
        batch_size=128,
        n_steps=5000,
        check_every=100,
        seeds=3,
        n_eval=20000,
        n_samples=2000,
    ),
}


def _check(params):
    check_device(params["device"])
    if params["d_model"] % params["n_heads"]:
        raise ValueError(
            f"d_model={params['d_model']} must be divisible by n_heads={params['n_heads']}."
        )


#: An accuracy at or above this on the evaluation strings counts as learned.
LEARNED = 0.99


def _total_variation(p, q):
    return 0.5 * float(np.abs(np.asarray(p) - np.asarray(q)).sum())


def training_cell(
    function, n_bits, seed, random_state, d_model, n_layers, n_heads, layer_norm_eps,
    learning_rate, batch_size, n_steps, check_every, target_accuracy, exhaustive_max,
    n_eval, n_samples, device="cpu",
):
    """Train one transformer on one function and profile what it learned."""
    target = FUNCTIONS[function](n_bits)
    rng = np.random.default_rng(cell_seed(random_state, seed, 10))
    monitor = rng.integers(0, 2, size=(check_every * batch_size, n_bits), dtype=np.uint8)
    clf = BooleanTransformerClassifier(
        d_model, n_layers, n_heads, layer_norm_eps=layer_norm_eps,
        learning_rate=learning_rate, batch_size=batch_size,
        max_iter=-(-n_steps // check_every), target_function=target,
        target_accuracy=target_accuracy, random_state=cell_seed(random_state, seed, 11),
        device=device,
    )
    with single_thread():
        clf.fit(monitor)
        if n_bits <= exhaustive_max:
            X_eval = ((np.arange(2**n_bits)[:, None] >> np.arange(n_bits)) & 1).astype(np.uint8)
        else:
            X_eval = rng.integers(0, 2, size=(n_eval, n_bits), dtype=np.uint8)
        accuracy = float(np.mean(clf.predict(X_eval) == target(X_eval)))
        profile_seed = cell_seed(random_state, seed, 12)
        learned = profile(clf.module_.to(check_device(device)), n_bits, exhaustive_max,
                           n_samples, profile_seed)
        wanted = profile(target, n_bits, exhaustive_max, n_samples, profile_seed)
    model = profile_result(learned)
    reference = profile_result(wanted)
    return {
        "accuracy": accuracy,
        "learned": bool(accuracy >= LEARNED),
        "reached_target": bool(clf.accuracy_curve_[-1] >= target_accuracy),
        "steps": int(clf.n_iter_ * check_every),
        "final_loss": float(clf.loss_curve_[-1]),
        "method": model["method"],
        "zero_fraction": model["zero_fraction"],
        "average_sensitivity": model["average_sensitivity"],
        "constant": model["constant"],
        "profile": model["profile"],
        "target_zero_fraction": reference["zero_fraction"],
        "target_average_sensitivity": reference["average_sensitivity"],
        "target_profile": reference["profile"],
        "profile_distance": _total_variation(learned.fractions, wanted.fractions),
    }


def training_sensitivity(
    preset="quick", *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None,
    **overrides,
):
    """Train on PARITY, MAJORITY and FIRST at growing N; accuracy and profiles.

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick`` (seconds): N in {4, 6, 8}, D = 16, L = 2, 400 steps of
        64 strings, 2 seeds. ``full`` (hours on one core; use ``n_jobs``):
        N from 4 to 64, D = 64, L = 2, 5000 steps of 128 strings, 3 seeds.
    checkpoint_dir, n_jobs, progress, scheduler
        As for :func:`skxor.studies.run_sweep`.
    **overrides
        Replace preset entries: ``random_state`` (int, default 0: seeds the
        networks, the training strings and the evaluation), ``function`` (names among PARITY, MAJORITY,
        FIRST), ``n_bits``, ``layer_norm_eps`` (lists); ``d_model``,
        ``n_layers``, ``n_heads``, ``learning_rate``, ``batch_size``,
        ``n_steps`` (budget), ``check_every`` (steps between accuracy
        checks), ``target_accuracy`` (early stop), ``seeds``,
        ``exhaustive_max`` (largest N evaluated and profiled over all
        strings), ``n_eval`` (evaluation strings beyond it), ``n_samples``
        (strings per sampled profile), ``device`` (torch device for
        training, e.g. ``"cuda"``).

    Returns
    -------
    results : pandas.DataFrame
        One row per (function, n_bits, layer_norm_eps, seed) with the
        settings, ``accuracy``, ``learned`` (accuracy >= 0.99),
        ``reached_target``, ``steps``, ``final_loss``, the trained model's
        ``zero_fraction``, ``average_sensitivity``, ``constant`` and
        ``profile`` (JSON list of fractions per sensitivity 0..N), the
        target's ``target_zero_fraction``, ``target_average_sensitivity``
        and ``target_profile``, and ``profile_distance`` (total variation
        between the two profiles).

    Examples
    --------
    >>> from skxor.studies import training_sensitivity
    >>> df = training_sensitivity(function=["MAJORITY"], n_bits=[5], seeds=1)
    >>> df[["function", "n_bits", "learned"]].values.tolist()
    [['MAJORITY', 5, True]]
    """
    return STUDY.run(
        preset, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
        scheduler=scheduler, **overrides,
    )


def _compute(params, *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None):
    random_state = params["random_state"]
    scalars = {
        name: [params[name]]
        for name in ("d_model", "n_layers", "n_heads", "learning_rate", "batch_size",
                     "n_steps", "check_every", "target_accuracy", "exhaustive_max",
                     "n_eval", "n_samples", "device")
    }
    cells = expand_grid(
        function=params["function"], n_bits=params["n_bits"],
        layer_norm_eps=params["layer_norm_eps"], seed=list(range(params["seeds"])),
        random_state=[random_state], **scalars,
    )
    order = list(FUNCTIONS)
    cells.sort(key=lambda c: (order.index(c["function"]), c["n_bits"], c["layer_norm_eps"],
                              c["seed"]))
    df = run_sweep(
        training_cell, cells, study="training_sensitivity", checkpoint_dir=checkpoint_dir,
        n_jobs=n_jobs, progress=progress, scheduler=scheduler,
    )
    first = ["function", "n_bits", "layer_norm_eps", "seed"]
    return df[first + [c for c in df.columns if c not in first]]


# -- summaries, figures, report ---------------------------------------------------


def summarise_training(df):
    """Per function, N and eps: means over seeds and the share of seeds that learned."""
    summary = (
        df.groupby(["function", "n_bits", "layer_norm_eps"], sort=False)
        .agg(
            learned_rate=("learned", "mean"),
            accuracy=("accuracy", "mean"),
            accuracy_min=("accuracy", "min"),
            steps=("steps", "mean"),
            zero_fraction=("zero_fraction", "mean"),
            target_zero_fraction=("target_zero_fraction", "first"),
            average_sensitivity=("average_sensitivity", "mean"),
            target_average_sensitivity=("target_average_sensitivity", "first"),
            profile_distance=("profile_distance", "mean"),
            seeds=("seed", "count"),
        )
        .reset_index()
    )
    order = {name: i for i, name in enumerate(FUNCTIONS)}
    return summary.sort_values(
        ["function", "layer_norm_eps", "n_bits"],
        key=lambda col: col.map(order) if col.name == "function" else col,
        ignore_index=True,
    )


def learned_up_to(df):
    """Largest N up to which every tried length was learned by all seeds, per function.

    Returns
    -------
    table : pandas.DataFrame
        Columns ``function``, ``layer_norm_eps``, ``learned_up_to`` (0 if the
        smallest N already failed) and ``largest_n_tried``.
    """
    rows = []
    summary = summarise_training(df)
    for (function, eps), group in summary.groupby(["function", "layer_norm_eps"], sort=False):
        group = group.sort_values("n_bits")
        ok = 0
        for n, rate in zip(group["n_bits"], group["learned_rate"]):
            if rate < 1.0:
                break
            ok = int(n)
        rows.append({"function": function, "layer_norm_eps": eps, "learned_up_to": ok,
                     "largest_n_tried": int(group["n_bits"].max())})
    return pd.DataFrame(rows)


def plot_training_sensitivity(df):
    """Figures: accuracy vs N per function; trained vs target profiles.

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
        ``"accuracy"`` (mean and worst seed vs N, per function and eps),
        ``"sensitivity"`` (zero-sensitivity fraction and average
        sensitivity of the trained models vs the targets', vs N) and
        ``"profiles"`` (mean trained profile against the target's at the
        largest exhaustively profiled N, one panel per function).
    """
    from matplotlib.figure import Figure

    summary = summarise_training(df)
    functions = list(dict.fromkeys(summary["function"]))
    acc = Figure(figsize=(5.0, 3.6), layout="constrained")
    ax = acc.subplots()
    for (function, eps), group in summary.groupby(["function", "layer_norm_eps"], sort=False):
        line, = ax.plot(group["n_bits"], group["accuracy"], marker="o",
                        label=f"{function} (eps={eps:g})")
        ax.plot(group["n_bits"], group["accuracy_min"], ls=":", color=line.get_color())
    ax.axhline(LEARNED, color="grey", lw=0.8, ls="--")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("string length N")
    ax.set_ylabel("accuracy (mean; dotted: worst seed)")
    ax.set_ylim(0.4, 1.02)
    ax.legend(fontsize="x-small")

    sens = Figure(figsize=(9.0, 3.6), layout="constrained")
    axes = sens.subplots(1, 2)
    for (function, eps), group in summary.groupby(["function", "layer_norm_eps"], sort=False):
        for ax, key in zip(axes, ["zero_fraction", "average_sensitivity"]):
            line, = ax.plot(group["n_bits"], group[key], marker="o", ms=3,
                            label=f"{function} trained (eps={eps:g})")
            ax.plot(group["n_bits"], group[f"target_{key}"], ls="--", lw=1,
                    color=line.get_color())
    axes[0].set_ylabel("zero-sensitivity fraction")
    axes[1].set_ylabel("average sensitivity")
    axes[1].set_yscale("symlog", linthresh=0.5)
    for ax in axes:
        ax.set_xscale("log", base=2)
        ax.set_xlabel("string length N (dashed: target function)")
    axes[0].legend(fontsize="x-small")

    exhaustive = df[df["method"] == "exhaustive"]
    n_bits = int(exhaustive["n_bits"].max()) if len(exhaustive) else int(df["n_bits"].max())
    prof = Figure(figsize=(4.0 * len(functions), 3.4), layout="constrained")
    paxes = np.atleast_1d(prof.subplots(1, len(functions), sharey=True))
    for ax, function in zip(paxes, functions):
        part = df[(df["function"] == function) & (df["n_bits"] == n_bits)]
        k = np.arange(n_bits + 1)
        if len(part):
            trained = np.mean([json.loads(p) for p in part["profile"]], axis=0)
            ax.bar(k, trained, color="tab:blue", alpha=0.7, label="trained (mean)")
            ax.step(k, json.loads(part["target_profile"].iloc[0]), where="mid",
                    color="black", lw=1, label="target")
        ax.set_title(f"{function}, N = {n_bits}", fontsize="small")
        ax.set_xlabel("sensitivity s(f, x)")
    paxes[0].set_ylabel("fraction of strings")
    paxes[-1].legend(fontsize="x-small")
    return {"accuracy": acc, "sensitivity": sens, "profiles": prof}


def report_training_sensitivity(df):
    """Markdown: accuracy and profiles per function and N, and how far each was learned."""
    summary = summarise_training(df)
    columns = ["function", "n_bits", "layer_norm_eps", "learned_rate", "accuracy",
               "steps", "zero_fraction", "target_zero_fraction", "average_sensitivity",
               "target_average_sensitivity", "profile_distance"]
    reach = learned_up_to(df)
    budget = int(df["n_steps"].iloc[0]) if "n_steps" in df else None
    lines = [
        "## Training on PARITY, MAJORITY and FIRST",
        "",
        f"Budget: {budget} steps of {int(df['batch_size'].iloc[0])} fresh strings "
        f"(D = {int(df['d_model'].iloc[0])}, L = {int(df['n_layers'].iloc[0])}); "
        f"learned = accuracy >= {LEARNED} on all strings (or a large sample).",
        "",
        summary[columns].assign(steps=summary["steps"].round().astype(int))
        .to_markdown(index=False, floatfmt=".3g"),
        "",
        "Learned by every seed at every N up to:",
        "",
        reach.to_markdown(index=False),
    ]
    return "\n".join(lines)


STUDY = Study(
    name="training_sensitivity",
    description=(
        "Boolean transformers trained on PARITY, MAJORITY and FIRST at growing N under a "
        "fixed budget: accuracy reached and the trained model's profile against the "
        "target's."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=training_cell,
    compute=_compute,
    summary=summarise_training,
    figures=plot_training_sensitivity,
    report=report_training_sensitivity,
    key=("function", "n_bits", "layer_norm_eps", "seed", "random_state", "d_model",
         "n_layers", "n_heads", "learning_rate", "batch_size", "n_steps", "check_every",
         "target_accuracy", "exhaustive_max", "n_eval", "n_samples"),
    check=_check,
)

__all__ = [
    "LEARNED",
    "PARAMETERS",
    "PRESETS",
    "STUDY",
    "learned_up_to",
    "plot_training_sensitivity",
    "report_training_sensitivity",
    "summarise_training",
    "training_cell",
    "training_sensitivity",
]
