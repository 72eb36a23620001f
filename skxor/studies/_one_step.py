"""One gradient step and the necessity of softmax (Han & Ghoshdastidar, section 3.2).

For each attention type, d, m and seed: one normalised gradient step from the
antisymmetric initialisation, taken either on the exact population loss
(``n = 0``: no sampling, :mod:`skxor.theory`) or on ``n`` samples (the
estimator's full-batch step). Recorded per cell: the exact population loss
after the step, the attention mass each head puts on the support, whether
the two heads lock onto distinct support bits (specialisation), the test
accuracy on fresh samples, and success (test accuracy >= 0.99).
"""

from numbers import Integral, Real

import numpy as np
import torch
from sklearn.utils._param_validation import Interval, Options, StrOptions

from ..datasets import make_sparse_parity
from ..estimators import SparseXORTransformer
from ..nn import SparseXORAttention, attention_weights, sparse_xor_init
from ..theory import population_loss, population_step
from ._common import Grid, Study, expand_grid
from ._sweep import run_sweep

_ATTENTIONS = ("softmax", "linear", "erf")

#: Every parameter of the study and the values it accepts.
PARAMETERS = {
    "attention": [Grid(StrOptions(set(_ATTENTIONS)))],
    # The XOR of two of the d bits.
    "d": [Grid(Interval(Integral, 2, None, closed="left"))],
    "m": [Grid(Interval(Integral, 1, None, closed="left"))],
    # 0: the exact population step; otherwise a full-batch step on n samples
    # (at least 2, so that both classes can occur).
    "n": [Grid(Options(Integral, {0}), Interval(Integral, 2, None, closed="left"))],
    "seeds": [Interval(Integral, 1, None, closed="left")],
    # A normalised step: beyond 1e6 the attention is saturated (one-hot) and
    # larger values only overflow the estimator's floating point.
    "step_length": [Interval(Real, 0, 1e6, closed="right")],
    "n_test": [Interval(Integral, 1, None, closed="left")],
}

PRESETS = {
    "quick": dict(
        attention=list(_ATTENTIONS),
        d=[100, 1000, 10000],
        m=[16, 32],
        n=[0],
        seeds=10,
        step_length=100.0,
        n_test=2000,
    ),
    # Only the differences from quick.
    "full": dict(
        d=[100, 300, 1000, 3000, 10000, 30000, 100000],
        m=[8, 16, 32, 64, 128],
        seeds=30,
        n_test=10000,
    ),
}


def one_step_cell(attention, d, m, n, seed, step_length, n_test):
    """Run one step for one configuration and measure what it learned."""
    _, _, support = make_sparse_parity(1, d, return_support=True, random_state=seed)
    if n == 0:
        keys, queries = sparse_xor_init(d, m, random_state=seed)  # the estimator's draw
        theta = population_step(
            queries, keys, support, attention,
            step_length=step_length,
        )
    else:
        X, y = make_sparse_parity(n, d, support=support, random_state=seed)
        clf = SparseXORTransformer(
            m=m, attention=attention, step_length=step_length, random_state=seed
        ).fit(X, y)
        keys, theta = clf.keys_, clf.queries_
    Xt, yt = make_sparse_parity(n_test, d, support=support, random_state=10**6 + seed)
    with torch.no_grad():
        gamma = attention_weights(
            torch.as_tensor(keys) @ torch.as_tensor(theta).T, attention
        )  # (d, 2)
        f = SparseXORAttention.read_out(
            torch.as_tensor(Xt, dtype=torch.float32), gamma.to(torch.float32)
        )
    gamma = gamma.numpy()
    accuracy = float(np.mean(np.where(f.numpy() > 0, 1, -1) == yt))
    heads = np.argmax(gamma, axis=0)
    mass = gamma[support].sum(axis=0)  # attention on the support, per head
    return {
        "loss_after_step": population_loss(theta, keys, support, attention),
        "support_mass_min": float(mass.min()),
        "specialised": bool(sorted(heads.tolist()) == support.tolist()),
        "test_accuracy": accuracy,
        "success": bool(accuracy >= 0.99),
    }


def one_step(
    preset="quick", *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None,
    **overrides,
):
    """One-step success, loss and head specialisation per attention type, d and m.

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick``: d in {1e2, 1e3, 1e4}, m in {16, 32}, 10 seeds, population
        steps (seconds). ``full``: d up to 1e5, m from 8 to 128, 30 seeds.
    checkpoint_dir : path or None, default=None
        Where finished cells are written (see :func:`run_sweep`).
    n_jobs : int or None, default=None
        joblib workers.
    progress : bool, default=False
        Show a progress bar.
    scheduler : str or None, default=None
        dask.distributed scheduler address.
    **overrides
        Replace preset entries: ``attention``, ``d``, ``m``, ``n`` (lists; n=0
        is the exact population step, n>0 a full-batch step on n samples),
        ``seeds`` (int), ``step_length``, ``n_test``.

    Returns
    -------
    results : pandas.DataFrame
        One row per (attention, d, m, n, seed) with ``loss_after_step``,
        ``support_mass_min``, ``specialised``, ``test_accuracy``, ``success``.

    Examples
    --------
    >>> from skxor.studies import one_step
    >>> df = one_step(d=[100], m=[32], seeds=3)
    >>> df.groupby("attention")["success"].mean().to_dict()
    {'erf': 0.0, 'linear': 0.0, 'softmax': 1.0}
    """
    return STUDY.run(
        preset, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
        scheduler=scheduler, **overrides,
    )


def _compute(params, *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None):
    cells = expand_grid(
        attention=params["attention"], d=params["d"], m=params["m"], n=params["n"],
        seed=list(range(params["seeds"])), step_length=[params["step_length"]],
        n_test=[params["n_test"]],
    )
    return run_sweep(
        one_step_cell, cells, study="one_step", checkpoint_dir=checkpoint_dir,
        n_jobs=n_jobs, progress=progress, scheduler=scheduler,
    )


def _summary(df):
    return (
        df.groupby(["attention", "d", "m", "n"], sort=True)
        .agg(
            success_rate=("success", "mean"),
            specialised_rate=("specialised", "mean"),
            median_loss=("loss_after_step", "median"),
            median_support_mass=("support_mass_min", "median"),
            seeds=("seed", "count"),
        )
        .reset_index()
    )


def attention_maps(d=60, m=32, seed=1, step_length=100.0):
    """Attention of both heads after one population step, per attention type."""
    _, _, support = make_sparse_parity(1, d, return_support=True, random_state=seed)
    maps = {}
    for attention in ("softmax", "linear", "erf"):
        keys, queries = sparse_xor_init(d, m, random_state=seed)
        theta = population_step(
            queries, keys, support, attention,
            step_length=step_length,
        )
        with torch.no_grad():
            maps[attention] = attention_weights(
                torch.as_tensor(keys) @ torch.as_tensor(theta).T, attention
            ).numpy().T
    return maps, support


def plot_one_step(df):
    """Success rate vs d per attention type, and attention-map heatmaps.

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
    """
    from matplotlib.figure import Figure

    summary = _summary(df)
    ms = sorted(summary["m"].unique())
    fig = Figure(figsize=(4.2 * len(ms), 3.4), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, len(ms), sharey=True))
    for ax, m in zip(axes, ms):
        part = summary[summary["m"] == m]
        for (attention, n), group in part.groupby(["attention", "n"]):
            label = attention if n == 0 else f"{attention}, n={n}"
            style = {"softmax": "-o", "linear": "--s", "erf": ":^"}[attention]
            ax.plot(group["d"], group["success_rate"], style, label=label)
        ax.set_xscale("log")
        ax.set_xlabel("d (input length)")
        ax.set_title(f"m = {m}")
        ax.set_ylim(-0.05, 1.05)
    axes[0].set_ylabel("success rate after one step")
    axes[-1].legend(fontsize="small")

    maps, support = attention_maps()
    heat = Figure(figsize=(9, 3.6), layout="constrained")
    hax = np.atleast_1d(heat.subplots(3, 1, sharex=True))
    for ax, (attention, gamma) in zip(hax, maps.items()):
        image = ax.imshow(gamma, aspect="auto", cmap="viridis", interpolation="nearest")
        ax.set_yticks([0, 1], ["head 1", "head 2"])
        ax.set_title(f"{attention}: attention after one population step (support {support.tolist()})",
                     fontsize="small")
        heat.colorbar(image, ax=ax)
    hax[-1].set_xlabel("position")
    return {"success": fig, "attention_maps": heat}


def report_one_step(df):
    """Markdown table of success and specialisation rates."""
    summary = _summary(df)
    lines = [
        "## One gradient step: softmax vs linear vs erf attention",
        "",
        "Success = test accuracy >= 0.99 after one normalised step "
        "(n = 0: exact population step).",
        "",
        summary.to_markdown(index=False, floatfmt=".3g"),
    ]
    return "\n".join(lines)


STUDY = Study(
    name="one_step",
    description=(
        "One gradient step: success, loss, attention on the support and head "
        "specialisation for softmax, linear and erf attention, vs d and m."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=one_step_cell,
    compute=_compute,
    summary=_summary,
    figures=plot_one_step,
    report=report_one_step,
    key=("attention", "d", "m", "n", "seed", "step_length", "n_test"),
)

__all__ = [
    "PARAMETERS", "PRESETS", "STUDY", "attention_maps", "one_step", "one_step_cell",
    "plot_one_step", "report_one_step",
]

