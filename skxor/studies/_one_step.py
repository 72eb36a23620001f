"""One gradient step and the necessity of softmax (Han & Ghoshdastidar 2025, arXiv 2502.07553, section 3.2).

For each attention type, d, m, step length, number of steps T and seed: T
normalised gradient steps of the given length each from the antisymmetric
initialisation, taken either on the exact population loss (``n = 0``: no
sampling, :mod:`skxor.theory`) or on ``n`` samples (the estimator's
full-batch steps). T = 1 is the paper's setting. Recorded per cell: the
exact population loss after the steps, the attention mass each head puts on
the support, the largest attention weight, whether the two heads lock onto
distinct support bits (specialisation), the test accuracy with its Wilson
interval, and success (test accuracy >= 0.99).

Each attention type at its best step length
-------------------------------------------
One step length suits one attention type: the step length is a sweep axis,
and :func:`best_steps` reports each (attention, T) at the step length where
it succeeds most often (ties: the lower median loss), chosen on the same
runs - an optimistic choice for every variant, so that no variant fails for
want of a step length tried. The three attention types, every step length
and every T share each seed's keys, initial queries and support (a paired
design); seeds, d and m give the runs (for one seed and m, the keys at a
smaller d are the first rows of those at a larger d).

How the accuracy is scored
--------------------------
The model's output is ``f(x) = -prod_h <x, gamma_h>``. When every head has
one *dominant* position, ``|gamma_jh| > sum_{i != j} |gamma_ih|``, the sign
of ``<x, gamma_h>`` is ``sign(gamma_jh) x_j`` for every input ``x``, so
``sign f`` is a fixed parity of the dominant positions and its accuracy on
uniform inputs is exact: 1 or 0 when these positions are the support, 1/2
otherwise (:func:`dominant_accuracy`). This covers almost every softmax
cell. The others are scored on fresh uniform inputs drawn in growing
batches (256, 512, ... up to ``n_test``), stopping as soon as the Wilson 95%
interval of the accuracy excludes the 0.99 threshold; linear and erf heads,
whose accuracy is near 1/2, stop after the first batch. This replaces a
fresh ``n_test x d`` test set per cell (10^9 spins at d = 10^5), which was
almost all of the study's time. The stopping rule looks at most
``log2(n_test / 256) + 1`` times, so its decisions are those of a
group-sequential test; a cell is undecided only when the accuracy is within
sampling error of 0.99 after ``n_test`` inputs, and then the point estimate
decides, as before.
"""

import time

import numpy as np
import torch
from sklearn.utils import check_random_state

from .._utils._docstrings import fill_doc
from ..datasets import make_sparse_parity
from ..estimators import SparseXORTransformer
from ..nn import (
    attention_constraint,
    attention_names,
    attention_weights,
    get_attention,
    sparse_xor_init,
)
from ..theory import population_loss, population_step
from ._common import Study, expand_grid, run_preset, seeds_text, single_thread
from ._figures import figure_legend, interval_errors, log_axis, offset
from ._floor import TIME_COLUMNS, timing_sentence
from ._parameters import AT_LEAST_TWO, POSITIVE, SAMPLES, STEP_LENGTH, Grid
from ._stats import POOLED_OVER_D_CAVEAT, format_interval, rate_with_interval, wilson_interval
from ._sweep import run_sweep

#: Every parameter of the study and the values it accepts.
PARAMETERS = {
    "attention": [Grid(attention_constraint())],
    # The XOR of two of the d bits.
    "d": [Grid(AT_LEAST_TWO)],
    "m": [Grid(POSITIVE)],
    # 0: the exact population step; otherwise a full-batch step on n samples.
    "n": [Grid(*SAMPLES)],
    "seeds": [POSITIVE],
    # The length of each normalised step (a sweep axis: each attention at its best).
    "step_length": [Grid(STEP_LENGTH)],
    # Number of steps T, each of length step_length (1: the paper's setting).
    "n_steps": [Grid(POSITIVE)],
    # The most test inputs a cell draws (most cells are scored exactly).
    "n_test": [POSITIVE],
}

PRESETS = {
    "quick": dict(
        attention=list(attention_names()),
        d=[100, 1000, 10000],
        m=[16, 32],
        n=[0],
        seeds=10,
        step_length=[1.0, 10.0, 100.0, 1000.0],
        n_steps=[1, 50],
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

#: Test accuracy at or above this counts as success.
SUCCESS_ACCURACY = 0.99

_FIRST_BATCH = 256
_ROWS_PER_CHUNK = 1 << 22  # spins per matrix product while scoring (32 MiB of float64)


def dominant_accuracy(gamma, support):
    """Exact accuracy of ``sign f`` on uniform inputs when every head has a dominant position.

    Parameters
    ----------
    gamma : array-like of shape (d, H)
        Attention weights, one column per head; ``f(x) = -prod_h <x, gamma_h>``.
    support : array-like of int
        The support S of the target ``y = -prod_{i in S} x_i``.

    Returns
    -------
    accuracy : float or None
        When each head's largest weight in absolute value, at ``j_h``,
        exceeds the sum of the absolute values of its other weights,
        ``sign <x, gamma_h> = sign(gamma_{j_h h}) x_{j_h}`` for every x, so
        ``sign f = -(prod_h sign gamma_{j_h h}) prod_h x_{j_h}``: accuracy 1
        (or 0 when the signs multiply to -1) if the positions met an odd
        number of times are exactly S, and 1/2 otherwise (a different parity
        is independent of y). None when some head has no dominant position.

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.studies._one_step import dominant_accuracy
    >>> gamma = np.full((10, 2), 0.01)
    >>> gamma[3, 0], gamma[7, 1] = 0.9, 0.9
    >>> dominant_accuracy(gamma, [3, 7]), dominant_accuracy(gamma, [3, 8])
    (1.0, 0.5)
    >>> gamma[7, 1] = -0.9
    >>> dominant_accuracy(gamma, [3, 7])
    0.0
    >>> dominant_accuracy(np.full((10, 2), 0.1), [3, 7]) is None
    True
    """
    gamma = np.asarray(gamma, dtype=np.float64)
    magnitude = np.abs(gamma)
    top = np.argmax(magnitude, axis=0)
    heads = np.arange(gamma.shape[1])
    largest = magnitude[top, heads]
    rest = magnitude.sum(axis=0) - largest
    # A relative safety margin keeps float rounding of the sum from deciding.
    if not np.all(largest > rest * (1 + 1e-9)):
        return None
    return _parity_accuracy(top, support, np.prod(np.sign(gamma[top, heads])))


def _parity_accuracy(top, support, sign):
    # sign f = -sign * prod_h x_{top_h}: the positions met an odd number of times.
    counts = np.bincount(np.asarray(top), minlength=1)
    odd = set(np.flatnonzero(counts % 2).tolist())
    if odd != set(np.asarray(support).tolist()):
        return 0.5  # a different (or empty) parity: independent of y, balanced
    return 1.0 if sign > 0 else 0.0


def score_heads(gamma, support, *, n_test, random_state, threshold=SUCCESS_ACCURACY):
    """Accuracy of ``sign f`` on uniform inputs: exact when possible, else sequential sampling.

    Parameters
    ----------
    gamma : ndarray of shape (d, H)
        Attention weights; ``f(x) = -prod_h <x, gamma_h>``.
    support : array-like of int
    n_test : int
        Largest number of fresh inputs drawn.
    random_state : int or RandomState
        Seeds the inputs (drawn in order: the first inputs are the same
        whatever the stopping point).
    threshold : float, default=0.99
        Sampling stops once the Wilson 95% interval excludes it.

    Returns
    -------
    result : dict
        ``test_accuracy``, ``accuracy_low``, ``accuracy_high`` (the Wilson
        interval; equal to the accuracy when exact), ``n_scored`` (inputs
        drawn; 0 when exact) and ``scoring`` (``"exact"`` or ``"sampled"``).

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.studies._one_step import score_heads
    >>> uniform = np.full((50, 2), 1 / 50)
    >>> r = score_heads(uniform, [3, 7], n_test=4096, random_state=0)
    >>> r["scoring"], r["n_scored"], r["accuracy_high"] < 0.99
    ('sampled', 256, True)
    """
    gamma = np.asarray(gamma, dtype=np.float64)
    exact = dominant_accuracy(gamma, support)
    if exact is not None:
        return {"test_accuracy": exact, "accuracy_low": exact, "accuracy_high": exact,
                "n_scored": 0, "scoring": "exact"}
    rng = check_random_state(random_state)
    d = gamma.shape[0]
    correct = drawn = 0
    batch = min(_FIRST_BATCH, int(n_test))
    while True:
        for start in range(0, batch, max(1, _ROWS_PER_CHUNK // d)):
            rows = min(max(1, _ROWS_PER_CHUNK // d), batch - start)
            X, y = make_sparse_parity(rows, d, support=support, random_state=rng)
            f = -np.prod(X @ gamma, axis=1)
            correct += int(np.sum(np.where(f > 0, 1, -1) == y))
        drawn += batch
        low, high = wilson_interval(correct, drawn)
        if drawn >= n_test or low > threshold or high < threshold:
            break
        batch = min(drawn, int(n_test) - drawn)  # double the inputs drawn so far
    return {"test_accuracy": correct / drawn, "accuracy_low": low, "accuracy_high": high,
            "n_scored": drawn, "scoring": "sampled"}


def one_step_cell(attention, d, m, n, seed, step_length, n_test, n_steps=1):
    """Run T normalised steps (one by default) for one configuration and measure what it learned.

    Parameters
    ----------
    attention : {"softmax", "linear", "erf"}
    d : int
        Input length, at least 2.
    m : int
        Key dimension, at least 1.
    n : int
        0 for the exact population step, else the number of training samples.
    seed : int
        Seeds the support, keys, queries, samples and test inputs.
    step_length : float
        Length of each normalised step.
    n_test : int
        Largest number of test inputs drawn (see :func:`score_heads`).
    n_steps : int, default=1
        Number of steps T (1: the paper's one step).

    Returns
    -------
    result : dict
        ``loss_after_step`` (after all T steps), ``support_mass_min``,
        ``max_weight`` (the largest attention weight of either head),
        ``specialised``,
        ``test_accuracy``, ``accuracy_low``, ``accuracy_high``, ``n_scored``,
        ``scoring``, ``success``, ``seconds`` (the whole cell) and
        ``floor_seconds`` (the step, or the fit for n > 0, and the exact
        loss: the work any scoring method must do).

    Examples
    --------
    >>> from skxor.studies._one_step import one_step_cell
    >>> r = one_step_cell("softmax", 100, 32, 0, 0, 100.0, 2000)
    >>> r["success"], r["scoring"], r["test_accuracy"]
    (True, 'exact', 1.0)
    """
    # Small torch operations stall on a shared machine with several threads;
    # parallelism comes from n_jobs.
    with single_thread():
        return _one_step_cell(attention, d, m, n, seed, step_length, n_test, n_steps)


def _one_step_cell(attention, d, m, n, seed, step_length, n_test, n_steps):
    start = time.perf_counter()
    _, _, support = make_sparse_parity(1, d, return_support=True, random_state=seed)
    if n == 0:
        keys, theta = sparse_xor_init(d, m, random_state=seed)  # the estimator's draw
        for _ in range(int(n_steps)):
            theta = population_step(theta, keys, support, attention, step_length=step_length)
    else:
        X, y = make_sparse_parity(n, d, support=support, random_state=seed)
        clf = SparseXORTransformer(
            m=m, attention=attention, step_length=step_length, max_iter=int(n_steps),
            random_state=seed,
        ).fit(X, y)
        keys, theta = clf.keys_, clf.queries_
    with torch.no_grad():
        gamma = attention_weights(
            torch.as_tensor(keys) @ torch.as_tensor(theta).T, attention
        ).numpy()  # (d, 2)
    loss = population_loss(theta, keys, support, attention)
    floor = time.perf_counter() - start
    score = score_heads(gamma, support, n_test=n_test, random_state=10**6 + seed)
    heads = np.argmax(gamma, axis=0)
    mass = gamma[support].sum(axis=0)  # attention on the support, per head
    return {
        "loss_after_step": loss,
        "support_mass_min": float(mass.min()),
        "max_weight": float(gamma.max()),
        "specialised": bool(sorted(heads.tolist()) == support.tolist()),
        **score,
        "success": bool(score["test_accuracy"] >= SUCCESS_ACCURACY),
        "seconds": time.perf_counter() - start,
        "floor_seconds": floor,
    }


@fill_doc
def one_step(
    preset="quick", *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None,
    **overrides,
):
    """Success, loss and head specialisation per attention type, d, m, step length and T.

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick``: d in {1e2, 1e3, 1e4}, m in {16, 32}, step lengths 1, 10,
        100 and 1000, T in {1, 50} steps, 10 seeds, population steps (about
        a minute on one core). ``full``: d up to 1e5, m from 8 to 128, 30
        seeds (25 200 cells; hours on 2 cores).
    checkpoint_dir : path or None, default=None
        Where finished cells are written (see :func:`run_sweep`).
    n_jobs : int or None, default=None
        joblib workers.
    progress : bool, default=False
        Show a progress bar.
    %(scheduler)s
    **overrides
        Replace preset entries: ``attention``, ``d``, ``m``, ``n`` (lists; n=0
        is the exact population step, n>0 a full-batch step on n samples),
        ``step_length`` and ``n_steps`` (lists: the length of each
        normalised step, and T), ``seeds`` (int), ``n_test`` (largest number
        of test inputs a cell draws; most cells are scored exactly or stop
        early, see :func:`score_heads`).

    Returns
    -------
    results : pandas.DataFrame
        One row per (attention, d, m, n, step_length, n_steps, seed) with
        ``loss_after_step``, ``support_mass_min``, ``max_weight``,
        ``specialised``, ``test_accuracy``, ``accuracy_low``,
        ``accuracy_high``, ``n_scored``, ``scoring``, ``success``,
        ``seconds`` and ``floor_seconds``. ``attrs`` holds the parameters
        used (``params``), the preset they equal (``preset``, None when
        overridden), the rows computed (``rows``), and ``floor_seconds`` and
        ``floor_description`` (the summed floor time and what it covers).

    Examples
    --------
    >>> from skxor.studies import one_step
    >>> df = one_step(d=[100], m=[32], seeds=3, step_length=100.0, n_steps=1)
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
        seed=list(range(params["seeds"])), step_length=params["step_length"],
        n_test=[params["n_test"]], n_steps=params["n_steps"],
    )
    # Costly cells (large d, many steps) first: better load balance.
    cells.sort(key=lambda c: -(c["d"] * c["n_steps"] * max(c["n"], 1)))
    df = run_sweep(
        one_step_cell, cells, study="one_step", checkpoint_dir=checkpoint_dir,
        n_jobs=n_jobs, progress=progress, scheduler=scheduler,
    )
    return STUDY.stamp(
        df, params, "the steps (or fits, for n > 0) and exact losses of every cell"
    )


def _rate_columns(flags, name):
    rate, low, high, _ = rate_with_interval(flags)
    return {f"{name}_rate": rate, f"{name}_low": low, f"{name}_high": high}


_GROUP = ["attention", "d", "m", "n", "n_steps", "step_length"]


#: Columns every one-step table has (``n_steps`` and ``step_length`` may be
#: missing in tables written before they were swept).
_REQUIRED = ("attention", "d", "m", "n", "seed", "success", "specialised", "loss_after_step")


def _cells(df):
    """``df`` with the columns of tables written before T and the step were swept."""
    import pandas as pd

    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"df must be a pandas DataFrame (the table of one_step); "
                        f"got {type(df).__name__}.")
    missing = [c for c in _REQUIRED if c not in df]
    if missing:
        raise ValueError(f"df lacks the column(s) {missing}: a one_step table has "
                         f"{', '.join(_REQUIRED)}.")
    df = df.copy()
    if "n_steps" not in df:
        df["n_steps"] = 1
    df["n_steps"] = df["n_steps"].fillna(1).astype(int)
    df["n"] = df["n"].astype(int)
    for column in ("success", "specialised"):
        df[column] = df[column].astype(bool)
    return df


def summarise_one_step(df):
    """Per attention, d, m, n, T and step length: success and specialisation with Wilson 95% intervals.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`one_step`.

    Returns
    -------
    summary : pandas.DataFrame
        Columns ``attention, d, m, n, n_steps, step_length, success_rate,
        success_low, success_high, specialised_rate, specialised_low,
        specialised_high, median_loss, median_support_mass, seeds``.

    Examples
    --------
    >>> from skxor.studies import one_step, summarise_one_step
    >>> df = one_step(d=[100], m=[32], seeds=3, n_test=256, step_length=100.0, n_steps=1)
    >>> summary = summarise_one_step(df)
    >>> summary[["attention", "success_rate", "specialised_rate", "seeds"]].values.tolist()
    [['erf', 0.0, 0.0, 3], ['linear', 0.0, 1.0, 3], ['softmax', 1.0, 1.0, 3]]
    """
    import pandas as pd

    rows = []
    for key, group in _cells(df).groupby(_GROUP, sort=True):
        rows.append({
            **dict(zip(_GROUP, key)),
            **_rate_columns(group["success"], "success"),
            **_rate_columns(group["specialised"], "specialised"),
            "median_loss": float(group["loss_after_step"].median()),
            "median_support_mass": float(group["support_mass_min"].median()),
            "seeds": int(len(group)),
        })
    return pd.DataFrame(rows, columns=[*_GROUP, "success_rate", "success_low", "success_high",
                                       "specialised_rate", "specialised_low",
                                       "specialised_high", "median_loss",
                                       "median_support_mass", "seeds"])


def best_steps(df):
    """Each attention type and T at every step length, pooled over d and m; the best marked.

    For each (attention, n, T), the best step length is the one with the
    most successes over all runs (seeds x d x m), ties broken by the lower
    median loss after the steps. It is chosen on the runs it is reported
    on, so each variant's rate at its best step is optimistic for that
    variant: the comparison gives linear and erf their best case.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`one_step`.

    Returns
    -------
    table : pandas.DataFrame
        One row per (attention, n, n_steps, step_length): ``successes``,
        ``runs``, ``success_rate``, ``success_low``, ``success_high`` (Wilson
        95% over runs), ``specialised`` (count), ``median_loss``,
        ``median_max_weight`` and ``best`` (True at the best step length).

    Examples
    --------
    >>> from skxor.studies import one_step
    >>> from skxor.studies._one_step import best_steps
    >>> df = one_step(d=[100], m=[16], seeds=3, n_test=256, step_length=[1.0, 100.0],
    ...               n_steps=1, attention=["softmax"])
    >>> table = best_steps(df)
    >>> table[["step_length", "successes", "runs", "best"]].values.tolist()
    [[1.0, 0, 3, False], [100.0, 3, 3, True]]
    """
    import pandas as pd

    cells = _cells(df)
    keys = ["attention", "n", "n_steps", "step_length"]
    rows = []
    for key, group in cells.groupby(keys, sort=True):
        rate, low, high, runs = rate_with_interval(group["success"])
        rows.append({
            **dict(zip(keys, key)),
            "successes": int(group["success"].sum()), "runs": runs,
            "success_rate": rate, "success_low": low, "success_high": high,
            "specialised": int(group["specialised"].sum()),
            "median_loss": float(group["loss_after_step"].median()),
            "median_max_weight": (float(group["max_weight"].median())
                                  if "max_weight" in group else float("nan")),
        })
    columns = [*keys, "successes", "runs", "success_rate", "success_low", "success_high",
               "specialised", "median_loss", "median_max_weight"]
    table = pd.DataFrame(rows, columns=columns)
    table["best"] = False
    for _, group in table.groupby(["attention", "n", "n_steps"], sort=False):
        # Most successes first, then the lowest median loss.
        order = group.sort_values(["successes", "median_loss"], ascending=[False, True])
        table.loc[order.index[0], "best"] = True
    return table


def _best_cells(df):
    """The rows of ``df`` at each (attention, n, T)'s best step length."""
    best = best_steps(df)
    best = best[best["best"]][["attention", "n", "n_steps", "step_length"]]
    return _cells(df).merge(best, on=["attention", "n", "n_steps", "step_length"])


def _steps_text(steps):
    return "1 step" if int(steps) == 1 else f"{int(steps)} steps"


def _setting(df):
    """'population steps (n = 0), quick preset, 10 seeds' for titles."""
    ns = sorted(int(n) for n in df["n"].unique())
    kind = ("population steps (n = 0)" if ns == [0]
            else "n = " + ", ".join("population" if n == 0 else f"{n:,}" for n in ns))
    preset = run_preset(df)
    where = "" if preset is None else f", {preset} preset"
    seeds = _cells(df).groupby(_GROUP)["seed"].count()
    return f"{kind}{where}, {seeds_text(seeds)} per cell"


#: Marker and line style of each attention type, in registration order (then a default).
_STYLES = [("o", "-"), ("s", "--"), ("^", ":")]


def _style(attention):
    names = attention_names()
    at = names.index(attention) if attention in names else len(_STYLES)
    return _STYLES[at] if at < len(_STYLES) else ("D", "-.")


def attention_maps(d=60, m=32, seed=1, step_length=100.0):
    """Attention of both heads after one population step, per attention type.

    Returns
    -------
    maps : dict of str to ndarray of shape (2, d)
    support : ndarray of shape (2,)
    """
    _, _, support = make_sparse_parity(1, d, return_support=True, random_state=seed)
    maps = {}
    for attention in attention_names():
        keys, theta0 = sparse_xor_init(d, m, random_state=seed)
        theta = population_step(
            theta0, keys, support, attention,
            step_length=step_length,
        )
        with torch.no_grad():
            maps[attention] = attention_weights(
                torch.as_tensor(keys) @ torch.as_tensor(theta).T, attention
            ).numpy().T
    return maps, support


def plot_attention_maps(maps, support, title):
    """Each attention type's heads as an :class:`~skxor.plotting.AttentionDisplay`, one row each.

    All rows share one colour scale (:meth:`AttentionDisplay.shared_norm
    <skxor.plotting.AttentionDisplay.shared_norm>`) and one colour bar, so
    weights of about 1/d look as small as they are; crosses mark each head's
    most attended position, triangles the support.

    Parameters
    ----------
    maps : dict of str to array-like of shape (n_heads, d)
        Attention weights per attention type, one row per head (as returned
        by :func:`~skxor.studies._one_step.attention_maps`).
    support : array-like of int
        The support positions, marked above each row.
    title : str
        The figure's title.

    Returns
    -------
    figure : matplotlib.figure.Figure
        One row of axes per attention type, then the shared colour bar.

    Examples
    --------
    >>> from skxor.studies import plot_attention_maps
    >>> from skxor.studies._one_step import attention_maps
    >>> maps, support = attention_maps(d=20, m=8)
    >>> support.tolist()
    [3, 16]
    >>> fig = plot_attention_maps(maps, support, "One population step, d = 20, m = 8")
    >>> len(fig.axes)  # three attention types and the colour bar
    4
    >>> for ax in fig.axes[:3]:
    ...     print(ax.get_title(loc="left"))
    softmax: largest weight 1, most attended [16, 3]
    linear: largest weight 2.27, most attended [3, 3]
    erf: largest weight 0.1, most attended [1, 1]
    """
    from matplotlib.figure import Figure

    from ..plotting import AttentionDisplay

    norm = AttentionDisplay.shared_norm(maps.values())
    heat = Figure(figsize=(9, 1.5 * len(maps) + 1.2), layout="constrained")
    axes = np.atleast_1d(heat.subplots(len(maps), 1, sharex=True))
    displays = []
    for row, (ax, (attention, gamma)) in enumerate(zip(axes, maps.items())):
        gamma = np.asarray(gamma)
        name = (f"{attention}: largest weight {gamma.max():.3g}, most attended "
                f"{gamma.argmax(axis=1).tolist()}")
        displays.append(AttentionDisplay(gamma, support=support, name=name).plot(
            ax=ax, norm=norm, colorbar=False, legend=row == 0))
        if row < len(maps) - 1:
            ax.set_xlabel("")  # one "position" label, under the last row
    heat.colorbar(displays[0].image_, ax=axes.tolist(),
                  label="attention weight (one scale for all rows)")
    heat.suptitle(title, fontsize="small")
    return heat


def plot_one_step(df):
    """Success and specialisation vs d at each variant's best step, success vs step length, maps.

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
        ``"success"``: one column per m, success rate (top) and specialised
        rate (bottom) against d with Wilson 95% intervals, one series per
        attention type, n and T, each at its best step length
        (:func:`best_steps`), slightly offset in d so none hides another.
        ``"step_length"``: success rate (Wilson 95%, pooled over d and m)
        and median loss after the steps against the step length, one series
        per attention type, n and T: every step length tried.
        ``"attention_maps"``: both heads' weights after one population step
        (d = 60, m = 32) for each attention type on one colour scale.

    Examples
    --------
    >>> from skxor.studies import one_step, plot_one_step
    >>> df = one_step(d=[100], m=[32], seeds=3, n_test=256, step_length=[10.0, 100.0],
    ...               n_steps=1)
    >>> figures = plot_one_step(df)
    >>> sorted(figures)
    ['attention_maps', 'step_length', 'success']
    >>> len(figures["success"].axes)  # success (top) and specialised (bottom) for m = 32
    2
    >>> [text.get_text() for text in figures["success"].legends[0].get_texts()]
    ['erf, step 10', 'linear, step 10', 'softmax, step 100']
    """
    from matplotlib.figure import Figure

    best = best_steps(df)
    summary = summarise_one_step(_best_cells(df))
    ms = sorted(summary["m"].unique())
    series = list(summary.groupby(["attention", "n", "n_steps"]).groups)
    fig = Figure(figsize=(3.8 * len(ms) + 1.0, 5.8 + 0.2 * len(series)), layout="constrained")
    axes = np.asarray(fig.subplots(2, len(ms), sharex=True, sharey=True)).reshape(2, len(ms))
    several_t = summary["n_steps"].nunique() > 1

    def label(attention, n, steps, step_length=None):
        text = attention if n == 0 else f"{attention}, n = {n:,}"
        if several_t:
            text += f", T = {steps}"
        return text + ("" if step_length is None else f", step {step_length:g}")

    for col, m in enumerate(ms):
        part = summary[summary["m"] == m]
        for i, (attention, n, steps) in enumerate(series):
            group = part[(part["attention"] == attention) & (part["n"] == n)
                         & (part["n_steps"] == steps)]
            if group.empty:
                continue
            marker, line = _style(attention)
            step_length = float(group["step_length"].iloc[0])
            for row, key in enumerate(["success", "specialised"]):
                rate = group[f"{key}_rate"]
                err = interval_errors(rate, group[f"{key}_low"], group[f"{key}_high"])
                axes[row, col].errorbar(
                    offset(group["d"], i, len(series), spread=0.035, base=10), rate,
                    yerr=err, marker=marker, ls=line if steps == 1 else "-.",
                    capsize=2, ms=5, mfc="none" if steps > 1 else None,
                    label=label(attention, n, steps, step_length), color=f"C{i}",
                )
        axes[0, col].set_title(f"m = {m}")
    ds = sorted(summary["d"].unique())
    for ax in axes.ravel():
        log_axis(ax, ds, label="d (input length)")
        ax.set_ylim(-0.05, 1.05)
    for ax in axes[0]:
        ax.set_ylabel("success rate (acc. >= 0.99)")
    for ax in axes[1]:
        ax.set_ylabel("specialised rate\n(heads on distinct support bits)")
    figure_legend(fig, axes, loc="outside lower center", ncols=min(len(series), 3),
                  fontsize="x-small", title="each attention type and T at its best step length")
    fig.suptitle(f"Normalised gradient steps: {_setting(df)}; each attention at its best "
                 "step length; bars: Wilson 95%", fontsize="small")

    sweep = Figure(figsize=(9.0, 4.4), layout="constrained")
    saxes = sweep.subplots(1, 2)
    lengths = sorted(best["step_length"].unique())
    groups = list(best.groupby(["attention", "n", "n_steps"], sort=True).groups)
    for i, (attention, n, steps) in enumerate(groups):
        g = best[(best["attention"] == attention) & (best["n"] == n)
                 & (best["n_steps"] == steps)].sort_values("step_length")
        marker, line = _style(attention)
        style = dict(marker=marker, ls=line if steps == 1 else "-.", ms=5, color=f"C{i}",
                     mfc="none" if steps > 1 else None,
                     label=f"{label(attention, n, steps)}, T = {steps}" if not several_t
                     else label(attention, n, steps))
        saxes[0].errorbar(
            offset(g["step_length"], i, len(groups), spread=0.03, base=10), g["success_rate"],
            yerr=interval_errors(g["success_rate"], g["success_low"], g["success_high"]),
            capsize=2, **style)
        # Exact zeros (saturated softmax) drawn at the axis floor.
        saxes[1].plot(g["step_length"], np.maximum(g["median_loss"], 1e-12), **style)
    for ax in saxes:
        log_axis(ax, lengths, label="length of each normalised step")
    saxes[0].set_ylim(-0.05, 1.05)
    saxes[0].set_ylabel("success rate, pooled over d and m")
    saxes[1].set_yscale("log")
    saxes[1].axhline(1.0, color="black", lw=0.8, ls=":", zorder=3,
                     label="loss of the zero output (1)")
    saxes[1].set_ylabel("median population loss after the steps\n(floored at 1e-12)")
    figure_legend(sweep, saxes, loc="outside lower center", ncols=4, fontsize="x-small")
    sweep.suptitle(f"Step length swept per attention: {_setting(df)}; bars: Wilson 95% over "
                   "runs (seeds x d x m)", fontsize="small")

    maps, support = attention_maps()
    heat = plot_attention_maps(
        maps, support, "Attention after one population step (n = 0), d = 60, m = 32, seed 1")
    return {"success": fig, "step_length": sweep, "attention_maps": heat}


def _pooled(df, attention, key):
    flags = df.loc[df["attention"] == attention, key]
    rate, low, high, n = rate_with_interval(flags)
    return f"{int(flags.sum())}/{n} = {format_interval(rate, low, high)}"


def _lengths_text(values):
    return ", ".join(f"{v:g}" for v in sorted(set(float(v) for v in values)))


def report_one_step(df):
    """Markdown: each attention at its best step length, with Wilson 95% intervals; every number from ``df``.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`one_step`, from which the section is written.

    Returns
    -------
    text : str
        A Markdown section: the setting, every (attention, n, T, step
        length) pooled over d and m with the best step length marked, a
        table per (attention, d, m, n, T) at the best step length, pooled
        rates per attention type and T, the largest attention weights, how
        the cells were scored and the time against the floor.

    Examples
    --------
    >>> from skxor.studies import one_step, report_one_step
    >>> df = one_step(d=[100], m=[32], seeds=3, n_test=256, step_length=[10.0, 100.0],
    ...               n_steps=1)
    >>> report = report_one_step(df)
    >>> print(report.splitlines()[0])
    ## Normalised gradient steps: softmax vs linear vs erf attention, each at its best step length
    >>> for line in report.splitlines():  # doctest: +NORMALIZE_WHITESPACE
    ...     if line.startswith(("- softmax", "- erf,", "- erf weights")):
    ...         print(line)
    - softmax, 1 step of 100 (its best of 10, 100): success in 3/3 = 1.00 [0.44, 1.00]
      of runs (seeds x d x m); heads on distinct support bits in 3/3 = 1.00 [0.44, 1.00].
    - erf, 1 step of 10 (its best of 10, 100): success in 0/3 = 0.00 [0.00, 0.56]
      of runs (seeds x d x m); heads on distinct support bits in 3/3 = 1.00 [0.44, 1.00].
    - erf weights are (1 + erf(s)) / d <= 2/d by definition; the largest weight in any
      erf run times d is 2.000.
    """
    title = ("## Normalised gradient steps: softmax vs linear vs erf attention, each at its "
             "best step length")
    if len(df) == 0:
        return title + "\n\nThe table holds no runs: nothing to report."
    cells = _cells(df)
    best = best_steps(cells)
    at_best = _best_cells(cells)
    summary = summarise_one_step(at_best)
    table = summary.assign(
        success=[format_interval(r, lo, hi) for r, lo, hi in
                 summary[["success_rate", "success_low", "success_high"]].to_numpy()],
        specialised=[format_interval(r, lo, hi) for r, lo, hi in
                     summary[["specialised_rate", "specialised_low",
                              "specialised_high"]].to_numpy()],
    )[["attention", "d", "m", "n", "n_steps", "step_length", "success", "specialised",
       "median_loss", "median_support_mass", "seeds"]]
    sweep = best.assign(
        success=[f"{int(k)}/{int(n)} = " + format_interval(r, lo, hi) for k, n, r, lo, hi in
                 best[["successes", "runs", "success_rate", "success_low",
                       "success_high"]].to_numpy()],
        best=np.where(best["best"], "best", ""),
    )[["attention", "n", "n_steps", "step_length", "success", "specialised", "median_loss",
       "median_max_weight", "best"]]
    ns = sorted(int(n) for n in cells["n"].unique())
    lengths = _lengths_text(cells["step_length"])
    lines = [
        title,
        "",
        f"Setting: {_setting(cells)}. "
        + ("Every step here is a population step (n = 0): the exact gradient of the "
           "population loss, no training samples."
           if ns == [0] else
           "Rows with n = 0 are exact population steps; rows with n > 0 take "
           "full-batch steps on n training samples."),
        f"T normalised steps of the given length each (T = 1 is the paper's one step); "
        f"step lengths tried: {lengths}. Success = test accuracy >= {SUCCESS_ACCURACY} "
        "after the steps; specialised = the two heads' most-attended positions are the "
        "two support bits. A run is one seed at one d and m; the three attention types, "
        "every step length and every T share each run's keys, initial queries and support "
        "(paired). Rates in [brackets]: Wilson 95% intervals over runs. "
        + POOLED_OVER_D_CAVEAT,
        "",
        "Every step length, pooled over d and m (`best`: the step length with the most "
        "successes, ties broken by the lower median loss - chosen on these runs, so "
        "optimistic for every variant; `median_max_weight`: median of the largest "
        "attention weight of either head):",
        "",
        sweep.to_markdown(index=False, floatfmt=".3g"),
        "",
        "Per d and m, each attention type and T at its best step length:",
        "",
        table.to_markdown(index=False, floatfmt=".3g"),
        "",
    ]
    order = {name: i for i, name in enumerate(attention_names())}
    keys = sorted(at_best.groupby(["attention", "n", "n_steps"]).groups,
                  key=lambda k: (k[1], k[2], order.get(k[0], len(order)), k[0]))
    for attention, n, steps in keys:
        part = at_best[(at_best["attention"] == attention) & (at_best["n"] == n)
                       & (at_best["n_steps"] == steps)]
        length = float(part["step_length"].iloc[0])
        tried = _lengths_text(cells.loc[(cells["attention"] == attention) & (cells["n"] == n)
                                        & (cells["n_steps"] == steps), "step_length"])
        data = "" if n == 0 else f", n = {n:,}"
        lines.append(
            f"- {attention}{data}, {_steps_text(steps)} of {length:g} (its best of {tried}): "
            f"success in {_pooled(part, attention, 'success')} of runs (seeds x d x m); "
            f"heads on distinct support bits in {_pooled(part, attention, 'specialised')}."
        )
    one = at_best[at_best["n_steps"] == 1]
    # The unnormalised types (the paper's linear and erf), which one step leaves diffuse.
    for attention in [a for a in attention_names() if not get_attention(a).normalised]:
        part = one[one["attention"] == attention]
        landed = part["specialised"]
        if len(part) and landed.any() and not part.loc[landed, "success"].any():
            rate, low, high, n = rate_with_interval(landed)
            lines.append(
                f"- {attention} heads, one step at its best length, do land on the support "
                f"bits in {int(landed.sum())} of {n} runs ({format_interval(rate, low, high)}) "
                f"and still fail: each of them has test accuracy below "
                f"{SUCCESS_ACCURACY} (at most {part.loc[landed, 'test_accuracy'].max():.3f}), "
                f"with median support mass {part.loc[landed, 'support_mass_min'].median():.3g} "
                "per head - the weights are not concentrated enough."
            )
    if "max_weight" in cells:
        erf = cells[cells["attention"] == "erf"]
        if len(erf):
            scaled = (erf["max_weight"] * erf["d"]).max()
            lines.append(
                f"- erf weights are (1 + erf(s)) / d <= 2/d by definition; the largest weight "
                f"in any erf run times d is {scaled:.3f}."
            )
    widths = summary["success_high"] - summary["success_low"]
    if len(widths) and widths.max() > 0.3:
        lines.append(
            f"- Rough: with {int(summary['seeds'].min())} seeds per cell the per-cell "
            f"intervals are up to {widths.max():.2f} wide."
        )
    exact = cells["scoring"] == "exact" if "scoring" in cells else None
    if exact is not None:
        sampled = cells.loc[~exact, "n_scored"]
        lines.append(
            f"- Scoring: {int(exact.sum())} of {len(cells)} cells exactly (every head has a "
            "dominant position, so the accuracy is 0, 1/2 or 1 on all inputs), "
            f"{len(sampled)} by sequential sampling"
            + (f" (median {int(sampled.median())}, at most {int(sampled.max())} inputs)"
               if len(sampled) else "") + "."
        )
    timing = timing_sentence(df, "cells", "steps or fits, and exact losses")
    if timing:
        lines.append(timing)
    return "\n".join(lines)


STUDY = Study(
    name="one_step",
    description=(
        "One gradient step (and T steps): success, loss, attention on the support "
        "and head specialisation for softmax, linear and erf attention, each at its "
        "best step length, vs d and m, with Wilson intervals (exact or sequential "
        "scoring)."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=one_step_cell,
    compute=_compute,
    summary=summarise_one_step,
    figures=plot_one_step,
    report=report_one_step,
    key=("attention", "d", "m", "n", "seed", "step_length", "n_steps", "n_test"),
    setting=("n_test",),
)

__all__ = [
    "PARAMETERS",
    "PRESETS",
    "STUDY",
    "SUCCESS_ACCURACY",
    "TIME_COLUMNS",
    "attention_maps",
    "best_steps",
    "dominant_accuracy",
    "one_step",
    "one_step_cell",
    "plot_attention_maps",
    "plot_one_step",
    "report_one_step",
    "score_heads",
    "summarise_one_step",
]
