"""k-sparse parity with k heads: one normalised step against T steps.

Han & Ghoshdastidar (2025, arXiv 2502.07553) show that one normalised
gradient step of the two-head attention model learns sparse XOR (k = 2) and
leave k > 2 open. This study runs the model with H = k heads on the k-sparse
parity ``y = -prod_{i in S} x_i`` for k = 2 .. 5 and asks where one step
stops working and how many steps k needs.

*Steps* (``part="steps"``). For each k, d, m, data size n, number of steps T
and seed: T normalised steps of length ``path_length / T`` (the total path
length in query space is the same for every T), from one of the
estimator's initialisations (``init``, a swept setting: keys uniform on the
sphere, queries a uniformly rotated regular simplex, ``"antisymmetric"``,
the paper's for k = 2, or k independent queries uniform on the sphere,
``"random"``; both inits of a seed share its keys and support), taken
either on the exact population loss (``n = 0``,
:func:`skxor.theory.population_step`, no sampling) or full-batch on n
samples (:class:`skxor.SparseXORTransformer` with ``n_heads = k``). The
population and sample cells of one seed share keys, initial queries and
support. Recorded: the exact population loss after the steps; how many
support bits the heads' most-attended positions cover and whether they are
distinct support bits (*specialised*); the smallest attention mass a head
puts on its own bit; the success criterion (below); the accuracy on
``n_test`` fresh strings as a check. At initialisation, from the exact
population gradient g (the same for every T of a seed): how fast a
normalised step raises the attention on the support (``support_gain``, the
log-mass gained per unit of path length), against the spread of the score
changes over the other positions (``signal_to_noise``), the share of
gradient in the span of the support keys (``support_component``, chance
level k/m), and where an arbitrarily long single step sends each head to
first order (``limit_on_support``: every head's largest score increase is
at a support bit; ``limit_distinct``: at distinct support bits).

*Success* is an exact certificate, not a sampled accuracy: either every head
puts more than half of its attention on its own support bit (distinct bits),
so that ``sign f(x) = y`` for **every** input (accuracy exactly 1), or the
exact population loss is at most 0.01, so that the error rate, which is at
most ``E[(f - y)^2]`` (a wrong sign means ``|f - y| >= 1``), is at most
0.01. Either proves accuracy >= 0.99; the sampled accuracy (``accurate``,
>= 0.99 on ``n_test`` strings) is recorded beside it.

*v1 reference* (``part="v1"``). Han & Ghoshdastidar's first version's
k-parity model (:class:`skxor.KParityTransformer`: position-only heads, a
frozen parity read-out, Adam on the squared mean hinge, ``2 k`` trainable
parameters) and ``SparseXORTransformer(n_heads=k)`` (``k m`` trainable
parameters, each T of the study) are trained on the same strings of the same
seeds; success is accuracy >= 0.99 on all ``2^d`` strings (d <= 16) or on
``n_test`` fresh ones; recorded with the steps or epochs used, the wall time
of ``fit`` and the trainable parameters. The v1 model trains the authors'
label orientation (``orientation="odd"``: +1 means an odd number of ones,
the labels of :func:`skxor.datasets.make_sparse_parity`) and stops at
training accuracy 1.

The initial keys and queries of a population cell are drawn as the estimator
draws them, with :func:`skxor.nn.sparse_xor_init`.
"""

import time
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import Interval, StrOptions

from ...boolean import all_strings
from ...datasets import make_sparse_parity
from ...estimators import KParityTransformer, SparseXORTransformer
from ...nn import sparse_xor_init
from ...theory import population_gradient, population_loss, population_step
from .._common import Study, cell_seed, columns_first, expand_grid, single_thread
from .._figures import LINESTYLES, MARKERS, figure_legend, interval_errors, log_axis, offset
from .._floor import floor_work
from .._parameters import AT_LEAST_TWO, NON_NEGATIVE, POSITIVE, SAMPLES, SEEDS, STEP_LENGTH, Grid
from .._stats import (
    MIN_BOOTSTRAP_GROUPS, POOLED_OVER_D_CAVEAT, bootstrap_loglog_slope, format_interval,
    rate_with_interval,
)
from .._sweep import run_sweep

_K = Interval(Integral, 2, 5, closed="both")

#: Every parameter of the study and the values it accepts.
PARAMETERS = {
    # Support size; the model has H = k heads (the exact theory covers k <= 5).
    "k": [Grid(_K)],
    "d": [Grid(Interval(Integral, 5, None, closed="left"))],
    "m": [Grid(POSITIVE)],
    # Number of normalised steps T; each has length path_length / T.
    "n_steps": [Grid(POSITIVE)],
    # Initial queries: a rotated regular simplex, or independent uniform on the sphere.
    "init": [Grid(StrOptions({"antisymmetric", "random"}))],
    # Total length of the path in query space (one step of 100 = five of 20).
    "path_length": [STEP_LENGTH],
    # 0: the exact population loss; otherwise full-batch steps on n samples.
    "n": [Grid(*SAMPLES)],
    **SEEDS,
    # Fresh strings for the sampled accuracy check (0: skip it).
    "n_test": [NON_NEGATIVE],
    # The v1 reference (Han & Ghoshdastidar, arXiv 2502.07553 v1).
    "v1_k": [Grid(_K)],
    "v1_d": [Grid(AT_LEAST_TWO)],
    "v1_n": [Grid(AT_LEAST_TWO)],
    "v1_epochs": [POSITIVE],
    "v1_learning_rate": [Interval(Real, 0, None, closed="neither")],
    "v1_batch_size": [POSITIVE],
    # m of the SparseXORTransformer it is compared with.
    "v1_m": [POSITIVE],
    # 0: no v1 comparison.
    "v1_seeds": [NON_NEGATIVE],
}

PRESETS = {
    "quick": dict(
        k=[2, 3, 4, 5],
        d=[20, 100, 1000],
        m=[32],
        n_steps=[1, 2, 5, 10],
        init=["antisymmetric", "random"],
        path_length=100.0,
        n=[0],
        seeds=5,
        n_test=1000,
        random_state=0,
        v1_k=[2],
        v1_d=[6],
        v1_n=[500],
        v1_epochs=200,
        v1_learning_rate=0.1,
        v1_batch_size=80000,
        v1_m=32,
        v1_seeds=2,
    ),
    # Only the differences from quick. The v1 reference in the authors'
    # setting: n = 16 bits, k = 3, 0.6 * 2^16 training strings (one batch of
    # at most 80 000 per epoch), 2 000 epochs, Adam lr 0.1.
    "full": dict(
        d=[20, 50, 100, 200, 500, 1000],
        m=[16, 32, 64],
        n=[0, 100000],
        seeds=20,
        n_test=10000,
        v1_k=[2, 3],
        v1_d=[16],
        v1_n=[39321],
        v1_epochs=2000,
        v1_seeds=8,
    ),
}

#: A success certificate by the exact population loss: error rate <= loss.
LOSS_CERTIFICATE = 0.01
#: Accuracy that counts as success where accuracy is measured.
TARGET_ACCURACY = 0.99


def _check(params):
    for key_k, key_m, key_d in (("k", "m", "d"), ("v1_k", None, "v1_d")):
        k_max = max(params[key_k])
        if min(params[key_d]) < k_max:
            raise ValueError(
                f"every {key_d} must be at least the largest {key_k} ({k_max}); got "
                f"{key_d}={params[key_d]}."
            )
    # The estimator's simplex initialisation of k heads needs m >= k - 1.
    if "antisymmetric" in params["init"] and min(params["m"]) < max(params["k"]) - 1:
        raise ValueError(
            f"every m must be at least k - 1 = {max(params['k']) - 1} (the initial "
            f"queries are a regular simplex); got m={params['m']}."
        )
    if params["v1_m"] < max(params["v1_k"]) - 1:
        raise ValueError(
            f"v1_m must be at least v1_k - 1 = {max(params['v1_k']) - 1}; got "
            f"v1_m={params['v1_m']}."
        )


# -- cells ------------------------------------------------------------------------


def _softmax(scores):
    """Attention weights (d, H) of scores (d, H), column by column, in float64."""
    z = scores - scores.max(axis=0, keepdims=True)
    w = np.exp(z)
    return w / w.sum(axis=0, keepdims=True)


def _spins_accuracy(X, y, gamma):
    """Accuracy of ``sign(-prod_h gamma_h . x)`` on spins X against y."""
    f = -np.prod(X.astype(np.float64) @ gamma, axis=1)
    return float(np.mean(np.where(f > 0, 1, -1) == y))


def _initial_signal(theta, keys, support):
    """What the exact population gradient at ``theta`` says about the support."""
    grad = population_gradient(theta, keys, support, "softmax")
    norm = np.linalg.norm(grad)
    k = len(support)
    gamma = _softmax(keys @ theta.T)  # (d, H)
    # Score change of head h at position i per unit of normalised path length.
    ds = -(keys @ grad.T) / norm  # (d, H)
    centred = ds - (gamma * ds).sum(axis=0, keepdims=True)  # d log gamma_{h,i} / dt
    on = np.zeros(keys.shape[0], dtype=bool)
    on[support] = True
    gain = float(centred[on].mean())
    noise = float(ds[~on].std(axis=0).mean())
    top = np.argmax(ds, axis=0)
    basis, _ = np.linalg.qr(keys[support].T)  # (m, k): the span of the support keys
    projected = grad @ basis
    return {
        "gradient_norm": float(norm),
        "support_gain": gain,
        "signal_to_noise": gain / noise if noise > 0 else float("nan"),
        "support_component": float(np.sum(projected**2) / norm**2),
        "chance_component": k / keys.shape[1] if k < keys.shape[1] else 1.0,
        "limit_on_support": bool(np.isin(top, support).all()),
        "limit_distinct": bool(sorted(top.tolist()) == sorted(support.tolist())),
    }


def k_sparse_cell(k, d, m, n, n_steps, path_length, seed, random_state, n_test,
                  init="antisymmetric"):
    """T normalised steps of the k-head model on a k-sparse parity; what they learned."""
    support_seed, init_seed, data_seed, test_seed = (
        cell_seed(random_state, seed, salt) for salt in (1, 2, 3, 4)
    )
    _, _, support = make_sparse_parity(1, d, k=k, return_support=True, random_state=support_seed)
    step_length = path_length / n_steps
    with single_thread():
        # The estimator's draw order: keys, then the initial queries.
        keys, theta0 = sparse_xor_init(d, m, n_heads=k, init=init, random_state=init_seed)
        signal = _initial_signal(theta0, keys, support)
        start = time.perf_counter()
        if n == 0:
            theta = theta0
            with floor_work("population steps or fits, exact losses, test scoring"):
                for _ in range(n_steps):
                    theta = population_step(theta, keys, support, "softmax",
                                            step_length=step_length)
        else:
            X, y = make_sparse_parity(n, d, k=k, support=support, random_state=data_seed)
            with floor_work("population steps or fits, exact losses, test scoring"):
                clf = SparseXORTransformer(
                    m=m, n_heads=k, init=init, max_iter=n_steps, step_length=step_length,
                    random_state=init_seed,
                ).fit(X, y)
            del X, y
            theta = clf.queries_
        seconds = time.perf_counter() - start
        with floor_work("population steps or fits, exact losses, test scoring"):
            loss = population_loss(theta, keys, support, "softmax")
    gamma = _softmax(keys @ theta.T)  # (d, k)
    heads = np.argmax(gamma, axis=0)
    own = gamma[heads, np.arange(k)]  # each head's mass on its most-attended bit
    specialised = sorted(heads.tolist()) == support.tolist()
    certified = bool((specialised and own.min() > 0.5) or loss <= LOSS_CERTIFICATE)
    result = {
        "loss": float(loss),
        "bits_found": int(np.isin(support, heads).sum()),
        "specialised": bool(specialised),
        "own_mass_min": float(own.min()) if specialised else 0.0,
        "support_mass_min": float(gamma[support].sum(axis=0).min()),
        "success": certified,
        "test_accuracy": float("nan"),
        "accurate": None,
        "seconds": seconds,
        **signal,
    }
    if n_test:
        Xt, yt = make_sparse_parity(n_test, d, k=k, support=support, random_state=test_seed)
        with floor_work("population steps or fits, exact losses, test scoring"):
            accuracy = _spins_accuracy(Xt, yt, gamma)
        result["test_accuracy"] = accuracy
        result["accurate"] = bool(accuracy >= TARGET_ACCURACY)
    return result


def v1_cell(model, k, d, n, seed, random_state, n_test, epochs, learning_rate, batch_size,
            m, n_steps, path_length):
    """Train the v1 k-parity model or the k-head sparse-XOR model on one data set."""
    X, y, support = make_sparse_parity(
        n, d, k=k, return_support=True, random_state=cell_seed(random_state, seed, 20)
    )
    if d <= 16:
        Xt = all_strings(d, encoding="pm1")
        yt = -np.prod(Xt[:, support].astype(np.int64), axis=1)
        scored = "all strings"
    else:
        Xt, yt = make_sparse_parity(max(n_test, 1), d, k=k, support=support,
                                    random_state=cell_seed(random_state, seed, 21))
        scored = f"{len(yt)} fresh strings"
    fit_seed = cell_seed(random_state, seed, 22)
    if model == "k_parity":
        clf = KParityTransformer(
            n_heads=k, orientation="odd", learning_rate=learning_rate, max_iter=epochs,
            batch_size=batch_size, target_accuracy=1.0, random_state=fit_seed,
        )
    else:
        clf = SparseXORTransformer(
            m=m, n_heads=k, max_iter=n_steps, step_length=path_length / n_steps,
            random_state=fit_seed,
        )
    with single_thread(), floor_work("v1 reference fits and scoring"):
        start = time.perf_counter()
        clf.fit(X, y)
        seconds = time.perf_counter() - start
        accuracy = float(np.mean(clf.predict(Xt) == yt))
    return {
        "accuracy": accuracy,
        "scored_on": scored,
        "success": bool(accuracy >= TARGET_ACCURACY),
        "bits_found": int(np.isin(support, clf.support_).sum()),
        "specialised": bool(sorted(clf.support_.tolist()) == support.tolist()),
        "iterations": int(clf.n_iter_),
        "seconds": seconds,
        "n_parameters": int(clf.n_parameters_),
    }


# -- the sweep --------------------------------------------------------------------

_KEY = ("part", "model", "k", "d", "m", "n", "n_steps", "init", "path_length", "seed",
        "random_state", "n_test", "epochs", "learning_rate", "batch_size")


def k_sparse(
    preset="quick", *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None,
    **overrides,
):
    """One normalised step against T steps for k-sparse parity with k heads; v1 reference.

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick`` (about a minute on one core): k = 2 .. 5, d in {20, 100,
        1000}, m = 32, T in {1, 2, 5, 10}, both initialisations, population
        steps, 5 seeds; the v1
        reference at k = 2, d = 6 on 500 strings, at most 200 epochs, 2 seeds.
        ``full``: d from 20 to 1000, m in {16, 32, 64}, population and
        n = 100 000 samples, 20 seeds; the v1 reference in its authors'
        setting (d = 16, k = 2 and 3, 39 321 strings, 2 000 epochs), 8 seeds.
    checkpoint_dir, n_jobs, progress, scheduler
        As for :func:`skxor.studies.run_sweep`.
    **overrides
        Replace preset entries: ``k``, ``d``, ``m``, ``n_steps`` (T),
        ``n`` (0: the exact population loss), ``init`` (``"antisymmetric"``
        and/or ``"random"`` initial queries) as lists; ``path_length``
        (total path length, each step ``path_length / T``), ``seeds``,
        ``n_test`` (strings of the sampled accuracy check, 0 to skip),
        ``random_state``; the v1 reference's ``v1_k``, ``v1_d``, ``v1_n``
        (lists), ``v1_epochs``, ``v1_learning_rate``, ``v1_batch_size``,
        ``v1_m`` (m of the sparse-XOR model beside it) and ``v1_seeds``
        (0: no reference).

    Returns
    -------
    results : pandas.DataFrame
        One row per cell: ``part`` ("steps" or "v1"), ``model``
        ("sparse_xor" or "k_parity"), the parameters, and the results of
        :func:`k_sparse_cell` or :func:`v1_cell` (see the module
        documentation); ``preset`` names the preset the parameters match.

    Examples
    --------
    >>> from skxor.studies import k_sparse
    >>> df = k_sparse(k=[2], d=[20], n_steps=[1], seeds=2, v1_seeds=0)
    >>> df[["init", "seed", "success", "specialised"]].values.tolist()
    [['antisymmetric', 0, True, True], ['antisymmetric', 1, True, True], ['random', 0, False, False], ['random', 1, False, False]]
    """
    return STUDY.run(
        preset, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
        scheduler=scheduler, **overrides,
    )


def _compute(params, *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None):
    sweep = dict(checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
                 scheduler=scheduler)
    cells = expand_grid(
        k=params["k"], d=params["d"], m=params["m"], n=params["n"],
        n_steps=params["n_steps"], path_length=[params["path_length"]],
        seed=list(range(params["seeds"])), random_state=[params["random_state"]],
        n_test=[params["n_test"]], init=params["init"],
    )
    # Costly cells (large d, many samples, many steps) first: better load balance.
    cells.sort(key=lambda c: -(c["d"] * max(c["n"], 1000) * c["n_steps"]))
    steps = run_sweep(k_sparse_cell, cells, study="k_sparse", **sweep)
    steps.insert(0, "model", "sparse_xor")
    steps.insert(0, "part", "steps")
    tables = [steps]
    if params["v1_seeds"]:
        common = dict(
            k=params["v1_k"], d=params["v1_d"], n=params["v1_n"],
            seed=list(range(params["v1_seeds"])), random_state=[params["random_state"]],
            n_test=[params["n_test"]],
        )
        v1 = expand_grid(
            model=["k_parity"], epochs=[params["v1_epochs"]],
            learning_rate=[params["v1_learning_rate"]],
            batch_size=[params["v1_batch_size"]], m=[0], n_steps=[0], path_length=[0.0],
            **common,
        ) + expand_grid(
            model=["sparse_xor"], epochs=[0], learning_rate=[0.0], batch_size=[0],
            m=[params["v1_m"]], n_steps=params["n_steps"],
            path_length=[params["path_length"]], **common,
        )
        v1.sort(key=lambda c: c["model"] != "k_parity")  # the slow fits first
        reference = run_sweep(v1_cell, v1, study="k_sparse", **sweep)
        reference.insert(0, "part", "v1")
        tables.append(reference)
    df = pd.concat(tables, ignore_index=True)
    df["preset"] = STUDY.preset_of(params) or "custom"
    return columns_first(df, _KEY)


# -- summaries, figures, report ---------------------------------------------------


def _steps(df):
    part = df[df["part"] == "steps"].copy()
    # Tables written before the initialisation was swept used the simplex.
    part["init"] = (part["init"].fillna("antisymmetric") if "init" in part
                    else "antisymmetric")
    for column in ("k", "d", "m", "n", "n_steps", "seed"):
        part[column] = part[column].astype(int)
    for column in ("success", "specialised", "limit_on_support", "limit_distinct"):
        part[column] = part[column].astype(bool)
    return part


def _v1(df):
    part = df[df["part"] == "v1"].copy()
    for column in ("k", "d", "n", "seed", "m", "n_steps", "epochs", "iterations",
                   "n_parameters"):
        part[column] = part[column].astype(int)
    part["success"] = part["success"].astype(bool)
    part["specialised"] = part["specialised"].astype(bool)
    return part


def _rate(flags):
    rate, low, high, count = rate_with_interval(flags)
    return pd.Series({"rate": rate, "low": low, "high": high, "count": count,
                      "hits": int(np.sum(np.asarray(flags, dtype=bool)))})


def summarise_k_sparse(df):
    """Success (Wilson interval) and head specialisation per k, d, m, n and T.

    Returns
    -------
    summary : pandas.DataFrame
        One row per (k, d, m, n, n_steps, init) of the steps part: ``success``
        (share with a certificate), ``success_low``/``success_high`` (Wilson
        95 %), ``specialised`` (share), ``bits_found`` (mean number of support
        bits the heads cover), ``support_mass`` (median over seeds of the
        smallest attention mass a head puts on the whole support),
        ``median_loss`` and ``seeds``.
    """
    part = _steps(df)
    rows = []
    for key, group in part.groupby(["k", "d", "m", "n", "n_steps", "init"], sort=True):
        success = _rate(group["success"])
        rows.append({
            **dict(zip(["k", "d", "m", "n", "n_steps", "init"], key)),
            "step_length": float(group["path_length"].iloc[0]) / key[4],
            "success": success["rate"], "success_low": success["low"],
            "success_high": success["high"],
            "specialised": float(group["specialised"].mean()),
            "bits_found": float(group["bits_found"].mean()),
            "support_mass": float(group["support_mass_min"].median()),
            "median_loss": float(group["loss"].median()),
            "seeds": int(success["count"]),
        })
    return pd.DataFrame(rows, columns=[
        "k", "d", "m", "n", "n_steps", "init", "step_length", "success", "success_low",
        "success_high", "specialised", "bits_found", "support_mass", "median_loss", "seeds"])


def gradient_signal(df):
    """The population gradient at initialisation, per k, d, m and init (over seeds).

    ``support_gain``: median log attention mass gained on the support per
    unit of normalised path length; ``signal_to_noise``: median gain over the
    spread of score changes elsewhere; ``support_component`` against its
    chance level k/m; ``limit_on_support`` / ``limit_distinct``: shares (with
    Wilson intervals) of seeds where, to first order, an arbitrarily long
    single step puts every head on the support / on distinct support bits.
    """
    part = _steps(df)
    # One initialisation per (k, d, m, init, seed): the same for every n and T.
    part = part.drop_duplicates(["k", "d", "m", "init", "seed"])
    rows = []
    for key, group in part.groupby(["k", "d", "m", "init"], sort=True):
        on = _rate(group["limit_on_support"])
        distinct = _rate(group["limit_distinct"])
        rows.append({
            **dict(zip(["k", "d", "m", "init"], key)),
            "support_gain": float(group["support_gain"].median()),
            "signal_to_noise": float(group["signal_to_noise"].median()),
            "support_component": float(group["support_component"].median()),
            "chance_component": float(group["chance_component"].iloc[0]),
            "limit_on_support": on["rate"], "limit_on_support_low": on["low"],
            "limit_on_support_high": on["high"],
            "limit_distinct": distinct["rate"], "limit_distinct_low": distinct["low"],
            "limit_distinct_high": distinct["high"],
            "seeds": int(on["count"]),
        })
    return pd.DataFrame(rows)


def gain_slopes(df):
    """Log-log slope of the support gain against d per k, m and init.

    With at least :data:`~skxor.studies._stats.MIN_BOOTSTRAP_GROUPS` seeds the interval is a
    bootstrap 95 % interval over seeds (``interval = "bootstrap 95%"``);
    with fewer, a bootstrap would draw from too few distinct resamples, so
    ``low`` and ``high`` are the smallest and largest per-seed slopes
    (``interval = "range over seeds (rough)"``).

    Returns
    -------
    slopes : pandas.DataFrame
        One row per (k, m, init): ``slope`` (least squares over every
        point), ``low``, ``high``, ``interval``, ``points`` and ``seeds``.

    Examples
    --------
    >>> from skxor.studies import k_sparse
    >>> from skxor.studies._k_sparse import gain_slopes
    >>> df = k_sparse(k=[2], d=[20, 40], n_steps=[1], seeds=3, n_test=0, v1_seeds=0,
    ...               init="antisymmetric")
    >>> gain_slopes(df)[["k", "interval", "points", "seeds"]].values.tolist()
    [[2, 'range over seeds (rough)', 6, 3]]
    """
    part = _steps(df).drop_duplicates(["k", "d", "m", "init", "seed"])
    rows = []
    for (k, m, init), group in part.groupby(["k", "m", "init"], sort=True):
        seeds = int(group["seed"].nunique())
        fit = bootstrap_loglog_slope(group["d"], group["support_gain"], groups=group["seed"])
        low, high, interval = fit["low"], fit["high"], "bootstrap 95%"
        if fit["rough"]:
            low, high = fit["range_low"], fit["range_high"]
            interval = "range over seeds (rough)"
        rows.append({"k": k, "m": m, "init": init, "slope": fit["slope"], "low": low,
                     "high": high, "interval": interval, "points": fit["n_points"],
                     "seeds": seeds})
    return pd.DataFrame(rows, columns=["k", "m", "init", "slope", "low", "high", "interval",
                                       "points", "seeds"])


def summarise_v1(df):
    """The v1 k-parity model against the k-head sparse-XOR model, on the same data."""
    part = _v1(df)
    rows = []
    for key, group in part.groupby(["k", "d", "n", "model", "n_steps", "epochs"], sort=True):
        success = _rate(group["success"])
        k, d, n, model, n_steps, epochs = key
        budget = (f"{epochs} epochs (Adam, lr {group['learning_rate'].iloc[0]:g})"
                  if model == "k_parity"
                  else f"{n_steps} step(s) of {group['path_length'].iloc[0] / n_steps:g}")
        rows.append({
            "k": k, "d": d, "n": n, "model": model, "budget": budget,
            "success": success["rate"], "success_low": success["low"],
            "success_high": success["high"],
            "specialised": float(group["specialised"].mean()),
            "iterations": float(group["iterations"].median()),
            "seconds": float(group["seconds"].median()),
            "n_parameters": int(group["n_parameters"].iloc[0]),
            "scored_on": group["scored_on"].iloc[0],
            "seeds": int(success["count"]),
        })
    return pd.DataFrame(rows)


def _data_label(n):
    return "population (exact)" if n == 0 else f"n = {n:,} samples"


def _preset_label(df):
    presets = sorted(set(df["preset"].dropna().astype(str))) if "preset" in df else []
    return "preset " + ("/".join(presets) if presets else "unknown")


def plot_k_sparse(df):
    """Figures: success against d per k, data and T; the gradient signal; the v1 reference.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`k_sparse`.

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
        ``"success"``: certified success rate (Wilson 95 % bars) against d,
        one panel per k (columns) and data size (rows: population or n
        samples), one series per (T, m); ``"gradient"``: the support gain
        per unit step at initialisation against d, and the share of seeds
        whose first-order long step is on distinct support bits, one series
        per (k, m); ``"v1"`` (only with v1 rows): success and fit wall time
        of the two models per setting.

    Examples
    --------
    >>> from skxor.studies import k_sparse, plot_k_sparse
    >>> df = k_sparse(k=[2], d=[20], n_steps=[1, 2], seeds=2, n_test=200, v1_seeds=0)
    >>> figures = plot_k_sparse(df)
    >>> sorted(figures)  # no "v1" figure: the run has no v1 rows
    ['gradient', 'success']
    >>> [text.get_text() for text in figures["success"].legends[0].get_texts()]
    ['T = 1 (steps of 100), m = 32', 'T = 2 (steps of 50), m = 32']
    >>> len(figures["gradient"].axes)
    2
    """
    from matplotlib.figure import Figure

    summary = summarise_k_sparse(df)
    ks = sorted(summary["k"].unique())
    # One row of panels per (data, initialisation).
    rows_of = sorted(set(zip(summary["n"], summary["init"])))
    ds = sorted(summary["d"].unique())
    ms = sorted(summary["m"].unique())
    ts = sorted(summary["n_steps"].unique())
    seeds = int(summary["seeds"].max()) if len(summary) else 0
    preset = _preset_label(df)
    path = float(_steps(df)["path_length"].iloc[0]) if len(summary) else float("nan")
    fig = Figure(figsize=(3.3 * max(len(ks), 1), 2.9 * max(len(rows_of), 1) + 0.8),
                 layout="constrained")
    axes = np.atleast_2d(fig.subplots(max(len(rows_of), 1), max(len(ks), 1), sharex=True,
                                      sharey=True, squeeze=False))
    series = [(t, m) for t in ts for m in ms]
    for row, (n, init) in enumerate(rows_of):
        for col, k in enumerate(ks):
            ax = axes[row, col]
            for i, (t, m) in enumerate(series):
                g = summary[(summary["k"] == k) & (summary["n"] == n) & (summary["n_steps"] == t)
                            & (summary["m"] == m) & (summary["init"] == init)].sort_values("d")
                if not len(g):
                    continue
                ax.errorbar(
                    offset(g["d"], i, len(series), spread=0.015, base=10), g["success"],
                    yerr=interval_errors(g["success"], g["success_low"], g["success_high"]),
                    marker=MARKERS[ts.index(t) % len(MARKERS)],
                    ls=LINESTYLES[ms.index(m) % len(LINESTYLES)], ms=4, capsize=2, lw=1,
                    color=f"C{i}", label=f"T = {t} (steps of {path / t:g}), m = {m}",
                )
            log_axis(ax, ds, label="d (input length)")
            ax.set_ylim(-0.05, 1.05)
            ax.set_title(f"k = H = {k}, {_data_label(n)},\n{init} initial queries",
                         fontsize="small")
            ax.set_ylabel("success rate (certified)")
    n_series = len({label for ax in axes.ravel() for label in ax.get_legend_handles_labels()[1]})
    figure_legend(fig, axes, loc="outside lower center", ncols=max(min(n_series, 4), 1),
                  fontsize="x-small")
    fig.suptitle(f"k-sparse parity, k heads: success after T normalised steps of total "
                 f"length {path:g} ({preset}, {seeds} seeds, Wilson 95 %)", fontsize="small")

    signal = gradient_signal(df)
    grad = Figure(figsize=(9.0, 4.6), layout="constrained")
    gaxes = grad.subplots(1, 2)
    inits = sorted(summary["init"].unique())
    pairs = [(k, m, init) for k in ks for m in ms for init in inits]
    raw_all = _steps(df).drop_duplicates(["k", "d", "m", "init", "seed"])
    for i, (k, m, init) in enumerate(pairs):
        g = signal[(signal["k"] == k) & (signal["m"] == m)
                   & (signal["init"] == init)].sort_values("d")
        raw = raw_all[(raw_all["k"] == k) & (raw_all["m"] == m) & (raw_all["init"] == init)]
        shift = float(offset(1.0, i, len(pairs), spread=0.015, base=10))
        marker = MARKERS[ks.index(k) % len(MARKERS)]
        style = LINESTYLES[(ms.index(m) * len(inits) + inits.index(init)) % len(LINESTYLES)]
        name = f"k = {k}, m = {m}" + (f", {init}" if len(inits) > 1 else "")
        line, = gaxes[0].plot(g["d"] * shift, g["support_gain"], marker=marker,
                              ls=style, ms=4, color=f"C{i % 10}", label=name,
                              mfc="none" if init == "random" else None)
        gaxes[0].plot(raw["d"] * shift, raw["support_gain"], ls="none",
                      marker=marker, ms=2, alpha=0.4, color=line.get_color())
        gaxes[1].errorbar(
            g["d"] * shift, g["limit_distinct"],
            yerr=interval_errors(g["limit_distinct"], g["limit_distinct_low"],
                                 g["limit_distinct_high"]),
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
    figure_legend(grad, gaxes, loc="outside lower center", ncols=4, fontsize="x-small")
    grad.suptitle(f"Exact population gradient at initialisation ({preset}, {seeds} seeds; "
                  "small dots: single seeds; bars: Wilson 95 %)", fontsize="small")
    figures = {"success": fig, "gradient": grad}

    ref = summarise_v1(df) if (df["part"] == "v1").any() else pd.DataFrame()
    if len(ref):
        v1 = Figure(figsize=(9.0, 3.6), layout="constrained")
        vaxes = v1.subplots(1, 2)
        settings = list(dict.fromkeys(zip(ref["k"], ref["d"], ref["n"])))
        models = list(dict.fromkeys(zip(ref["model"], ref["budget"])))
        for i, (model, budget) in enumerate(models):
            g = ref[(ref["model"] == model) & (ref["budget"] == budget)]
            x = np.array([settings.index(s) for s in zip(g["k"], g["d"], g["n"])], dtype=float)
            x = x + 0.08 * (i - (len(models) - 1) / 2)
            name = "v1 k-parity" if model == "k_parity" else "sparse-XOR"
            label = f"{name}: {budget}, {int(g['n_parameters'].iloc[0])} params"
            errorbar = vaxes[0].errorbar(
                x, g["success"], yerr=interval_errors(g["success"], g["success_low"],
                                                      g["success_high"]),
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
        vaxes[1].legend(fontsize="x-small")
        v1.suptitle(f"v1 k-parity model vs k-head sparse-XOR model on the same data "
                    f"({preset}, {int(ref['seeds'].max())} seeds, Wilson 95 %)",
                    fontsize="small")
        figures["v1"] = v1
    return figures


def pooled_success(df):
    """Certified success per k, data, initialisation and T, pooled over d and m.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`k_sparse`.

    Returns
    -------
    table : pandas.DataFrame
        One row per (k, n, init, n_steps): ``successes``, ``runs`` (seeds x d
        x m; every run draws its own support and initial queries, but for
        one seed and m the keys at a smaller d are the first rows of those
        at a larger d, and the T and the n of one seed share everything),
        ``success``, ``success_low`` and ``success_high`` (Wilson 95 % over
        runs, treated as independent: see the report's caveat).

    Examples
    --------
    >>> from skxor.studies import k_sparse
    >>> from skxor.studies._k_sparse import pooled_success
    >>> df = k_sparse(k=[2], d=[20], n_steps=[1], seeds=2, v1_seeds=0)
    >>> pooled_success(df)[["k", "init", "successes", "runs"]].values.tolist()
    [[2, 'antisymmetric', 2, 2], [2, 'random', 0, 2]]
    """
    part = _steps(df)
    keys = ["k", "n", "init", "n_steps"]
    rows = []
    for key, group in part.groupby(keys, sort=True):
        rate = _rate(group["success"])
        rows.append({**dict(zip(keys, key)), "successes": int(rate["hits"]),
                     "runs": int(rate["count"]), "success": rate["rate"],
                     "success_low": rate["low"], "success_high": rate["high"]})
    return pd.DataFrame(rows, columns=[*keys, "successes", "runs", "success", "success_low",
                                       "success_high"])


def _success_table(summary):
    """Success with interval: rows (k, d, m, n, init), one column per T."""
    table = summary.assign(
        cell=[f"{int(round(r * s))}/{s}: " + format_interval(r, lo, hi)
              for r, lo, hi, s in zip(summary["success"], summary["success_low"],
                                      summary["success_high"], summary["seeds"])],
        data=[("population" if n == 0 else f"{n}") for n in summary["n"]],
    ).pivot_table(index=["k", "d", "m", "data", "init"], columns="n_steps", values="cell",
                  aggfunc="first")
    table.columns = [f"T={t}" for t in table.columns]
    return table.reset_index()


def _pooled_table(df):
    """Pooled success: rows (k, data, init), one column per T."""
    pooled = pooled_success(df)
    table = pooled.assign(
        cell=[f"{a}/{b}: " + format_interval(r, lo, hi) for a, b, r, lo, hi in zip(
            pooled["successes"], pooled["runs"], pooled["success"], pooled["success_low"],
            pooled["success_high"])],
        data=[("population" if n == 0 else f"{n}") for n in pooled["n"]],
    ).pivot_table(index=["k", "data", "init"], columns="n_steps", values="cell",
                  aggfunc="first")
    table.columns = [f"T={t}" for t in table.columns]
    return table.reset_index()


def _one_step_lines(df):
    """One line per (data, init): the one-step success per k, pooled over d and m."""
    pooled = pooled_success(df)
    one = pooled[pooled["n_steps"] == pooled["n_steps"].min()] if len(pooled) else pooled
    lines = []
    for (n, init), group in one.groupby(["n", "init"], sort=True):
        steps = int(group["n_steps"].iloc[0])
        parts = [f"k = {r.k}: {r.successes}/{r.runs} = "
                 f"{format_interval(r.success, r.success_low, r.success_high)}"
                 for r in group.itertuples()]
        lines.append(f"- {_data_label(n)}, {init} initial queries, "
                     f"{'one step' if steps == 1 else f'{steps} steps'}: "
                     + "; ".join(parts) + " of runs certified.")
    return lines


def report_k_sparse(df):
    """Markdown: success by k, d, init and T; the gradient signal; the v1 reference.

    Every number in the text is computed from ``df``.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`k_sparse`, from which the section is written.

    Returns
    -------
    text : str
        A Markdown section: certified success per (k, d, m, data) and T, where
        the heads are, the exact population gradient at initialisation, the
        log-log slope of its support gain against d and, with v1 rows, the v1
        reference.

    Examples
    --------
    >>> from skxor.studies import k_sparse, report_k_sparse
    >>> df = k_sparse(k=[2], d=[20], n_steps=[1, 2], seeds=2, n_test=200, v1_seeds=0)
    >>> report = report_k_sparse(df)
    >>> print(report.splitlines()[0])
    ## k-sparse parity with k heads: one step against T steps
    >>> for line in report.splitlines()[6:10]:
    ...     print(line)
    |   k | data       | init          | T=1                    | T=2                    |
    |----:|:-----------|:--------------|:-----------------------|:-----------------------|
    |   2 | population | antisymmetric | 2/2: 1.00 [0.34, 1.00] | 2/2: 1.00 [0.34, 1.00] |
    |   2 | population | random        | 0/2: 0.00 [0.00, 0.66] | 2/2: 1.00 [0.34, 1.00] |
    """
    summary = summarise_k_sparse(df)
    path = float(_steps(df)["path_length"].iloc[0]) if len(summary) else float("nan")
    signal = gradient_signal(df)
    signal_table = signal.assign(
        limit_on_support=[format_interval(r, lo, hi) for r, lo, hi in zip(
            signal["limit_on_support"], signal["limit_on_support_low"],
            signal["limit_on_support_high"])],
        limit_distinct=[format_interval(r, lo, hi) for r, lo, hi in zip(
            signal["limit_distinct"], signal["limit_distinct_low"],
            signal["limit_distinct_high"])],
    )[["k", "d", "m", "init", "support_gain", "signal_to_noise", "support_component",
       "chance_component", "limit_on_support", "limit_distinct", "seeds"]]
    slopes = gain_slopes(df)
    slopes = slopes.assign(slope=[format_interval(s, lo, hi) for s, lo, hi in zip(
        slopes["slope"], slopes["low"], slopes["high"])])[
        ["k", "m", "init", "slope", "interval", "points", "seeds"]]
    heads = summary.assign(
        cell=[f"{b:.1f} / {mass:.2f}" for b, mass in zip(summary["bits_found"],
                                                        summary["support_mass"])]
    ).pivot_table(index=["k", "d", "m", "n", "init"], columns="n_steps", values="cell",
                  aggfunc="first")
    heads.columns = [f"T={t}" for t in heads.columns]
    lines = [
        "## k-sparse parity with k heads: one step against T steps",
        "",
        f"T normalised steps of length {path:g}/T each (total path length {path:g}), "
        "H = k heads, softmax. Success = an exact certificate of accuracy >= 0.99: "
        "every head puts > 1/2 of its attention on its own support bit (accuracy "
        "exactly 1), or the exact population loss is <= 0.01 (error rate <= loss). "
        "Cells: successes/seeds, rate [Wilson 95 %]; data = population (exact loss) "
        "or the number of samples; init = the initial queries (antisymmetric: a "
        "uniformly rotated regular simplex, the estimator's default; random: k "
        "independent uniform unit vectors; both share each seed's keys and support).",
        "",
        "Pooled over d and m (runs = seeds x d x m). " + POOLED_OVER_D_CAVEAT,
        "",
        _pooled_table(df).to_markdown(index=False),
        "",
        *_one_step_lines(df),
        "",
        "Per d and m:",
        "",
        _success_table(summary).to_markdown(index=False),
        "",
        "Where the heads are: mean number of distinct support bits among the heads' "
        "most-attended positions (k when every head has its own bit) / median of the "
        "smallest attention mass a head puts on the whole support:",
        "",
        heads.reset_index().to_markdown(index=False),
        "",
        "Exact population gradient at initialisation (medians over seeds): "
        "`support_gain` = log attention mass gained on the support per unit of "
        "normalised path length; `signal_to_noise` = that gain over the spread of "
        "score changes at the other positions; `support_component` = share of the "
        "gradient's squared norm in the span of the support keys (chance level k/m); "
        "`limit_on_support` / `limit_distinct` = share of seeds (Wilson 95 %) where "
        "every head's largest score increase is at a support bit / at distinct "
        "support bits (where an arbitrarily long single step sends the heads, to "
        "first order).",
        "",
        signal_table.to_markdown(index=False, floatfmt=".3g"),
        "",
        "Log-log slope of the support gain against d (least squares over every point; "
        f"the interval: bootstrap 95 % over seeds with at least {MIN_BOOTSTRAP_GROUPS} "
        "seeds, otherwise the range of the per-seed slopes, rough):",
        "",
        slopes.to_markdown(index=False),
    ]
    if (df["part"] == "v1").any():
        ref = summarise_v1(df)
        ref = ref.assign(success=[
            f"{int(round(r * s))}/{s}: " + format_interval(r, lo, hi)
            for r, lo, hi, s in zip(ref["success"], ref["success_low"], ref["success_high"],
                                    ref["seeds"])
        ])[["k", "d", "n", "model", "budget", "success", "specialised", "iterations",
            "seconds", "n_parameters", "scored_on"]]
        lines += [
            "",
            "### Reference: the v1 k-parity model (Han & Ghoshdastidar, arXiv 2502.07553 v1)",
            "",
            "Both models on the same training strings per seed; success = accuracy >= 0.99 "
            "(on all 2^d strings for d <= 16); `iterations` = epochs (v1, stopped at "
            "training accuracy 1) or steps (median); `seconds` = median wall time of "
            "`fit` on one thread.",
            "",
            ref.to_markdown(index=False, floatfmt=".3g"),
        ]
    return "\n".join(lines)


STUDY = Study(
    name="k_sparse",
    description=(
        "k-sparse parity with k heads (k = 2..5): success of one normalised step "
        "against T steps on the exact population loss and on samples, the population "
        "gradient's signal towards the support at initialisation, and the v1 k-parity "
        "model as a reference."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=k_sparse_cell,
    compute=_compute,
    summary=summarise_k_sparse,
    figures=plot_k_sparse,
    report=report_k_sparse,
    key=_KEY,
    check=_check,
    # v1_k, v1_d and v1_n are sweep axes of the v1 rows (their k, d, n columns).
    setting=("path_length", "n_test", "random_state", "v1_epochs", "v1_learning_rate",
             "v1_batch_size", "v1_m"),
)

__all__ = [
    "LOSS_CERTIFICATE",
    "PARAMETERS",
    "PRESETS",
    "STUDY",
    "gain_slopes",
    "gradient_signal",
    "k_sparse",
    "k_sparse_cell",
    "plot_k_sparse",
    "report_k_sparse",
    "summarise_k_sparse",
    "summarise_v1",
    "v1_cell",
]
