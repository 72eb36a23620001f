"""What a transformer learns of PARITY, MAJORITY and FIRST as N grows.

After Köver et al. (2026, arXiv 2606.08768). For each function, string
length N and seed, a :class:`~skxor.BooleanTransformerClassifier` is trained
on fresh uniform strings labelled by the function (AdamW, at most
``n_steps`` steps of ``batch_size`` strings), stopping early once the
accuracy on a monitoring sample of ``check_every * batch_size`` strings,
measured every ``check_every`` steps, reaches ``target_accuracy``. Recorded
per run: the accuracy reached (on all 2^N strings up to ``exhaustive_max``
bits, else on ``n_eval`` fresh strings), whether it counts as learned
(accuracy >= :data:`LEARNED`), the steps used, and the sensitivity histogram
of the trained model next to the target function's on the same strings.

Two model settings, each labelled in every table and figure
(:data:`MODEL_SETTINGS`): the library's (``"library"``: last-token
read-out, learned positions, PyTorch's default initialisation, layer-norm
eps = 1e-5) and Köver et al.'s (``"paper_<scheme>"``: the eos read-out,
fixed sinusoidal positions, eps = 0 and one of their four initialisation
schemes). Each run also records its loss curve and whether it stopped at the
target, on a flat loss (:data:`FLAT_TOLERANCE`) or still decreasing when the
budget ran out (budget-limited).

From these the study reports the share of seeds that learned with its 95%
Wilson interval, how far each function was learned (the rule of
:data:`LEARNED_UP_TO_RATE`), and where the trained models' sensitivities sit:
the shares of strings at 0, near N/2 (:data:`HALF_WINDOW`), at 1 and at N,
against the functions' own. Köver et al. prove that functions without
zero-sensitivity strings (PARITY, FIRST) become unlearnable as N grows (an
asymptotic statement), and describe trained MAJORITY's sensitivities as
clustered at 0 and N/2 and trained FIRST's at 1.

Every cell runs torch on one thread (the networks are small); parallelism
comes from ``n_jobs`` or a dask scheduler.
"""

import json
import time
from numbers import Real

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import Interval, StrOptions

from ..._utils._docstrings import fill_doc
from ..._utils._validation import check_device
from ...boolean import NAMED_FUNCTIONS, all_strings, get_function
from ...estimators import BooleanTransformerClassifier
from .._common import Study, columns_first, expand_grid, key_seed, single_thread
from .._figures import interval_errors, log_axis, offset
from .._floor import floor_work
from .._parameters import NON_NEGATIVE, POSITIVE, SEEDS, Grid, estimator_parameters
from .._profiling import check_transformer, profile, profile_result
from .._stats import format_interval, wilson_interval
from .._sweep import run_sweep

#: The model settings a run can train in: read-out, positions, init and eps.
MODEL_SETTINGS = {
    # The library's defaults (the setting of the earlier published runs).
    "library": dict(readout="last", positional="learned", init="default",
                    layer_norm_eps=1e-5),
    # Köver et al.'s setting (docs/settings.rst), one entry per init scheme.
    **{f"paper_{scheme}": dict(readout="eos", positional="sinusoidal", init=scheme,
                               layer_norm_eps=0.0)
       for scheme in ("uniform", "normal", "xavier_uniform", "xavier_normal")},
}

#: A run whose mean loss over its last quarter of checks (at least two) fell by
#: less than this fraction from the quarter before has a flat loss curve.
FLAT_TOLERANCE = 0.05

#: Every parameter of the study and the values it accepts.
PARAMETERS = {
    "function": [Grid(StrOptions(set(NAMED_FUNCTIONS)))],
    "n_bits": [Grid(POSITIVE)],
    "model_setting": [Grid(StrOptions(set(MODEL_SETTINGS)))],
    # The classifier's own constraints for what is passed to it unchanged.
    **estimator_parameters(
        BooleanTransformerClassifier,
        ("d_model", "n_layers", "n_heads", "learning_rate", "batch_size"),
    ),
    "n_steps": [POSITIVE],
    "n_steps_majority": [POSITIVE, None],
    "check_every": [POSITIVE],
    "target_accuracy": [Interval(Real, 0, 1, closed="right")],
    "exhaustive_max": [NON_NEGATIVE],
    "n_eval": [POSITIVE],
    "n_samples": [POSITIVE],
    "device": [str],
    **SEEDS,
}

PRESETS = {
    # Seconds on one core: a rough look (2 seeds), not a result.
    "quick": dict(
        function=list(NAMED_FUNCTIONS),
        n_bits=[4, 6, 8],
        d_model=16,
        n_layers=2,
        n_heads=4,
        model_setting=["library", "paper_xavier_uniform"],
        learning_rate=3e-3,
        batch_size=32,
        n_steps=150,
        n_steps_majority=None,
        check_every=25,
        # Stop only above the success threshold (LEARNED = 0.99): stopping at
        # 0.99 on the monitoring strings leaves runs just below it on the rest.
        target_accuracy=0.999,
        seeds=2,
        exhaustive_max=16,
        n_eval=2000,
        n_samples=200,
        device="cpu",
        random_state=0,
    ),
    # Only the differences from quick: the measured setting of
    # docs/results/measured.rst ("Training on PARITY, MAJORITY and FIRST"),
    # N up to 128, 5 seeds per cell, at most 600 steps of 32 strings (about
    # 50 min with n_jobs=2 on a shared 2-core machine). A larger budget is a
    # set of overrides; see that page for its cost.
    "full": dict(
        n_bits=[4, 8, 16, 32, 64, 128],
        model_setting=["library"],
        n_steps=600,
        check_every=50,
        seeds=5,
        n_samples=100,
    ),
    # Köver et al.'s setting (eos read-out, fixed sinusoidal positions, eps = 0)
    # in each of their four init schemes beside the library's: the full grid,
    # MAJORITY with a budget of 6000 steps so that its loss curve can flatten at
    # N >= 64 (each run stops at the target accuracy). Roughly 5x the full
    # preset's cost plus the MAJORITY runs: many hours on 2 cores.
    "paper": dict(
        n_bits=[4, 8, 16, 32, 64, 128],
        model_setting=list(MODEL_SETTINGS),
        n_steps=600,
        n_steps_majority=6000,
        check_every=50,
        seeds=5,
        n_samples=100,
    ),
}


#: An accuracy at or above this on the evaluation strings counts as learned.
LEARNED = 0.99

#: A sensitivity s with ``|s - N/2| <= HALF_WINDOW`` (and s > 0) is "near N/2":
#: MAJORITY's sensitive strings have N/2 or N/2 + 1 (even N) or (N + 1)/2 (odd N).
HALF_WINDOW = 1

#: "Learned up to N" needs, at N and every smaller length tried, at least this
#: share of the seeds to have learned (2 of 2, 4 of 5, 8 of 10).
LEARNED_UP_TO_RATE = 0.8


def _total_variation(p, q):
    return 0.5 * float(np.abs(np.asarray(p) - np.asarray(q)).sum())


@fill_doc
def cluster_counts(histogram, n_bits):
    """Strings at sensitivity 0, near N/2 (``|s - N/2| <= HALF_WINDOW``, s > 0) and at 1.

    Parameters
    ----------
    histogram : array-like of shape (N + 1,)
        Number of profiled strings per sensitivity 0..N.
    %(n_bits)s

    Returns
    -------
    counts : dict
        ``zero``, ``half``, ``one`` (string counts) and ``n`` (all profiled
        strings). "Near N/2" and "at 1" overlap for N <= 4.

    Examples
    --------
    >>> from skxor.boolean import Majority
    >>> from skxor.sensitivity import sensitivity_profile
    >>> from skxor.studies._training import cluster_counts
    >>> counts = sensitivity_profile(Majority(6), 6).counts
    >>> cluster_counts(counts, 6)
    {'zero': 29, 'half': 35, 'one': 0, 'n': 64}
    """
    counts = np.asarray(histogram, dtype=np.int64)
    if counts.shape != (n_bits + 1,):
        raise ValueError(
            f"histogram must have one count per sensitivity 0..{n_bits} ({n_bits + 1} "
            f"entries); got shape {counts.shape}."
        )
    s = np.arange(n_bits + 1)
    near_half = (np.abs(s - n_bits / 2) <= HALF_WINDOW) & (s > 0)
    return {
        "zero": int(counts[0]),
        "half": int(counts[near_half].sum()),
        "one": int(counts[1]) if n_bits >= 1 else 0,
        "n": int(counts.sum()),
    }


def loss_status(loss_curve, reached_target):
    """How a run ended: ``"target"``, ``"flat"``, ``"budget"`` or ``"short"``, and the drop.

    ``"target"``: it stopped at the target accuracy. Otherwise the mean loss
    over the last quarter of the checks (at least two) is compared with the
    quarter before: a relative drop below :data:`FLAT_TOLERANCE` is a flat
    curve (``"flat"``: more steps would not have helped much), a larger one
    a curve still falling when the budget ran out (``"budget"``:
    budget-limited); fewer than four checks cannot tell (``"short"``).

    Returns
    -------
    status : str
    drop : float
        The relative drop (NaN when too short).

    Examples
    --------
    >>> from skxor.studies._training import loss_status
    >>> loss_status([0.7, 0.69, 0.693, 0.692, 0.694, 0.693, 0.693, 0.692], False)[0]
    'flat'
    >>> loss_status([0.7, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1], False)[0]
    'budget'
    >>> loss_status([0.7, 0.1], True)[0]
    'target'
    """
    curve = np.asarray(loss_curve, dtype=float)
    window = max(2, curve.size // 4)
    drop = float("nan")
    if curve.size >= 2 * window:
        before = curve[-2 * window:-window].mean()
        drop = float((before - curve[-window:].mean()) / before) if before > 0 else 0.0
    if reached_target:
        return "target", drop
    if not np.isfinite(drop):
        return "short", drop
    return ("flat" if drop < FLAT_TOLERANCE else "budget"), drop


def training_key(function, n_bits, model_setting, d_model, n_layers, n_heads, seed):
    """What identifies one training run's network and data: the whole cell but its budget.

    The budget and the step size are left out on purpose: the same run
    under a larger budget extends this one.

    Examples
    --------
    >>> from skxor.studies._training import training_key
    >>> sorted(training_key("FIRST", 8, "library", 16, 2, 4, 0))
    ['d_model', 'function', 'model_setting', 'n_bits', 'n_heads', 'n_layers', 'seed']
    """
    return dict(function=function, n_bits=n_bits, model_setting=model_setting,
                d_model=d_model, n_layers=n_layers, n_heads=n_heads, seed=seed)


def training_cell(
    function, n_bits, model_setting, seed, random_state, d_model, n_layers, n_heads,
    learning_rate, batch_size, n_steps, check_every, target_accuracy, exhaustive_max,
    n_eval, n_samples, device="cpu",
):
    """Train one transformer on one function and profile what it learned.

    The initial weights, the training strings and the monitoring and
    evaluation strings come from seeds derived from the cell's key
    (function, N, model setting, D, L, heads, seed index): no two cells
    share a network or data. The budget and step size are left out on
    purpose, so that the same run under a larger budget extends this one.
    """
    start = time.perf_counter()
    target = get_function(function, n_bits)
    setting = MODEL_SETTINGS[model_setting]
    key = training_key(function, n_bits, model_setting, d_model, n_layers, n_heads, seed)
    rng = np.random.default_rng(key_seed(random_state, 10, **key))
    monitor = rng.integers(0, 2, size=(check_every * batch_size, n_bits), dtype=np.uint8)
    clf = BooleanTransformerClassifier(
        d_model, n_layers, n_heads, learning_rate=learning_rate, batch_size=batch_size,
        max_iter=-(-n_steps // check_every), target_function=target,
        target_accuracy=target_accuracy, random_state=key_seed(random_state, 11, bits=32, **key),
        device=device, **setting,
    )
    with single_thread():
        with floor_work("fits"):
            clf.fit(monitor)
        if n_bits <= exhaustive_max:
            X_eval = all_strings(n_bits).astype(np.uint8)
        else:
            X_eval = rng.integers(0, 2, size=(n_eval, n_bits), dtype=np.uint8)
        profile_seed = key_seed(random_state, 12, bits=32, **key)
        with floor_work("accuracy and sensitivity profiles of the fitted models and targets"):
            accuracy = float(np.mean(clf.predict(X_eval) == target(X_eval)))
            learned = profile(clf.module_.to(check_device(device)), n_bits, exhaustive_max,
                              n_samples, profile_seed)
            wanted = profile(target, n_bits, exhaustive_max, n_samples, profile_seed)
    model = profile_result(learned)
    reference = profile_result(wanted)
    reached = bool(clf.accuracy_curve_[-1] >= target_accuracy)
    status, drop = loss_status(clf.loss_curve_, reached)
    return {
        **setting,
        "accuracy": accuracy,
        "learned": bool(accuracy >= LEARNED),
        "reached_target": reached,
        "steps": int(clf.n_iter_ * check_every),
        "final_loss": float(clf.loss_curve_[-1]),
        # The mean training loss of each stretch of check_every steps (JSON).
        "loss_curve": json.dumps([round(float(v), 6) for v in clf.loss_curve_]),
        "loss_drop": drop,
        "stop": status,
        "n_parameters": int(clf.n_parameters_),
        "method": model["method"],
        "n_strings": model["n_strings"],
        "zero_fraction": model["zero_fraction"],
        "average_sensitivity": model["average_sensitivity"],
        "constant": model["constant"],
        # Strings per sensitivity 0..N (JSON), the model's and the target's on
        # the same strings: the cluster shares are read off these.
        "histogram": json.dumps([int(c) for c in learned.counts]),
        "target_zero_fraction": reference["zero_fraction"],
        "target_average_sensitivity": reference["average_sensitivity"],
        "target_histogram": json.dumps([int(c) for c in wanted.counts]),
        "profile_distance": _total_variation(learned.fractions, wanted.fractions),
        "seconds": time.perf_counter() - start,
    }


def training_sensitivity(
    preset="quick", *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None,
    **overrides,
):
    """Train on PARITY, MAJORITY and FIRST at growing N; accuracy and profiles.

    Parameters
    ----------
    preset : {"quick", "full", "paper"}, default="quick"
        ``quick`` (about a minute; rough, 2 seeds): N in {4, 6, 8}, D = 16,
        L = 2, at most 150 AdamW steps of 32 strings, in the library's model
        setting and in Köver et al.'s with Xavier-uniform init.
        ``full`` (the setting published in docs/results/measured.rst; about
        50 minutes with ``n_jobs=2``): the library's model setting only, N
        in {4, 8, 16, 32, 64, 128}, D = 16, L = 2, at most 600 steps of 32
        strings (learning rate 0.003), 5 seeds. ``paper``: as ``full``, in
        the library's setting and in Köver et al.'s with each of their four
        init schemes, MAJORITY with up to 6000 steps (many hours on 2 cores;
        run it with ``n_jobs``, a dask ``scheduler`` or ``device="cuda"``,
        and a ``checkpoint_dir``).
    checkpoint_dir, n_jobs, progress, scheduler
        As for :func:`skxor.studies.run_sweep`.
    **overrides
        Replace preset entries: ``random_state`` (int, default 0: seeds the
        networks, the training strings and the evaluation), ``function``
        (names among PARITY, MAJORITY, FIRST), ``n_bits``,
        ``model_setting`` (names among :data:`MODEL_SETTINGS`: ``"library"``,
        ``"paper_uniform"``, ``"paper_normal"``, ``"paper_xavier_uniform"``,
        ``"paper_xavier_normal"``) (lists); ``d_model``, ``n_layers``,
        ``n_heads``, ``learning_rate``, ``batch_size``, ``n_steps``
        (budget), ``n_steps_majority`` (MAJORITY's budget; None: ``n_steps``),
        ``check_every`` (steps between accuracy checks), ``target_accuracy``
        (early stop), ``seeds``, ``exhaustive_max`` (largest N evaluated and
        profiled over all strings), ``n_eval`` (evaluation strings beyond
        it), ``n_samples`` (strings per sampled profile), ``device`` (torch
        device for training, e.g. ``"cuda"``).

    Returns
    -------
    results : pandas.DataFrame
        One row per (function, n_bits, model_setting, seed) with the
        settings (``readout``, ``positional``, ``init``,
        ``layer_norm_eps`` of the model setting), ``accuracy``, ``learned``
        (accuracy >= 0.99), ``reached_target``, ``steps``, ``final_loss``,
        ``loss_curve`` (JSON: the mean training loss of each
        ``check_every`` steps), ``loss_drop`` and ``stop`` (see
        :func:`loss_status`), ``n_parameters`` (trainable), the profile
        ``method`` and ``n_strings``, the trained model's
        ``zero_fraction``, ``average_sensitivity``, ``constant`` and
        ``histogram`` (JSON list: strings per sensitivity 0..N), the
        target's ``target_zero_fraction``, ``target_average_sensitivity``
        and ``target_histogram`` (on the same strings), ``profile_distance``
        (total variation between the two profiles) and ``seconds``.

    Examples
    --------
    >>> from skxor.studies import training_sensitivity
    >>> df = training_sensitivity(function=["MAJORITY"], n_bits=[5], seeds=1)
    >>> df[["function", "n_bits", "model_setting", "learned", "stop"]].values.tolist()
    [['MAJORITY', 5, 'library', True, 'target'], ['MAJORITY', 5, 'paper_xavier_uniform', True, 'target']]
    """
    return STUDY.run(
        preset, checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
        scheduler=scheduler, **overrides,
    )


def training_cells(params):
    """The cells of a run with parameters ``params``, in sweep order.

    MAJORITY runs get ``n_steps_majority`` steps where it is set, the others
    ``n_steps``.

    Examples
    --------
    >>> from skxor.studies._training import STUDY, training_cells
    >>> cells = training_cells(STUDY.preset("paper"))
    >>> sorted({(c["function"], c["n_steps"]) for c in cells})
    [('FIRST', 600), ('MAJORITY', 6000), ('PARITY', 600)]
    """
    scalars = {
        name: [params[name]]
        for name in ("d_model", "n_layers", "n_heads", "learning_rate", "batch_size",
                     "check_every", "target_accuracy", "exhaustive_max",
                     "n_eval", "n_samples", "device")
    }
    cells = expand_grid(
        function=params["function"], n_bits=params["n_bits"],
        model_setting=params["model_setting"], seed=list(range(params["seeds"])),
        random_state=[params["random_state"]], **scalars,
    )
    for cell in cells:
        long = cell["function"] == "MAJORITY" and params["n_steps_majority"] is not None
        cell["n_steps"] = params["n_steps_majority"] if long else params["n_steps"]
    order = list(NAMED_FUNCTIONS)
    settings = list(MODEL_SETTINGS)
    cells.sort(key=lambda c: (order.index(c["function"]), c["n_bits"],
                              settings.index(c["model_setting"]), c["seed"]))
    return cells


def _compute(params, *, checkpoint_dir=None, n_jobs=None, progress=False, scheduler=None):
    df = run_sweep(
        training_cell, training_cells(params), study="training_sensitivity",
        checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress, scheduler=scheduler,
    )
    return columns_first(df, ["function", "n_bits", "model_setting", "seed"])


# -- summaries, figures, report ---------------------------------------------------

#: Settings that, when they differ between runs merged into one table, make
#: separate series.
_SETTINGS = ("d_model", "n_layers", "n_heads", "learning_rate", "batch_size", "n_steps",
             "check_every", "target_accuracy", "exhaustive_max", "n_eval", "n_samples")

#: The sensitivities around which each function's own strings sit (Köver et al.
#: 2026 describe trained MAJORITY at 0 and N/2 and trained FIRST at 1; every
#: string of PARITY has sensitivity N).
CLUSTERS = {"PARITY": ("top",), "MAJORITY": ("zero", "half"), "FIRST": ("one",)}

_STYLE = {  # colour, marker, line style: no two functions alike
    "PARITY": ("tab:red", "o", "-"),
    "MAJORITY": ("tab:blue", "s", "--"),
    "FIRST": ("tab:green", "^", "-."),
}


# Targets: wide, pale and drawn underneath, so a trained series on top of its
# target leaves the target visible on both sides.
_TARGET = dict(color="0.55", lw=5, alpha=0.55, ls="--", zorder=1)


def _require_runs(df):
    """ValueError unless ``df`` holds at least one training run."""
    if not len(df) or "function" not in df:
        raise ValueError("the table holds no training run: nothing to summarise or draw; "
                         "pass the table training_sensitivity returned.")


def _with_model_setting(df):
    """``df`` with a ``model_setting`` column (tables from before it: the library's)."""
    if "model_setting" in df:
        return df
    return df.assign(model_setting="library")


def setting_label(model_setting):
    """``"library"`` / ``"paper, xavier_uniform init"``: a model setting for legends and tables.

    Examples
    --------
    >>> from skxor.studies._training import setting_label
    >>> setting_label("paper_xavier_uniform"), setting_label("library")
    ('paper, xavier_uniform init', 'library')
    """
    if str(model_setting).startswith("paper_"):
        return f"paper, {str(model_setting)[len('paper_'):]} init"
    return str(model_setting)


def setting_description(model_setting):
    """The model setting in words: read-out, positions, init and eps.

    Examples
    --------
    >>> from skxor.studies._training import setting_description
    >>> setting_description("library")
    "library: last-token read-out, learned positions, PyTorch's default init, eps = 1e-05"
    """
    s = MODEL_SETTINGS.get(model_setting)
    if s is None:
        return str(model_setting)
    read = {"last": "last-token", "eos": "eos", "cls": "CLS"}[s["readout"]]
    init = "PyTorch's default" if s["init"] == "default" else s["init"]
    who = "Köver et al.'s setting" if model_setting.startswith("paper_") else model_setting
    return (f"{who}: {read} read-out, {s['positional']} positions, {init} init, "
            f"eps = {s['layer_norm_eps']:g}")


def _series_columns(df):
    """The model setting and every setting that varies within a function: with it, a series.

    A budget set per function (``n_steps_majority``) is not a series of its own.
    """
    df = _with_model_setting(df)
    return ["model_setting"] + [
        c for c in _SETTINGS
        if c in df and (df.groupby("function")[c].nunique() > 1).any()]


def _series_label(function, values, columns, df):
    df = _with_model_setting(df)
    parts = [function]
    for column, value in zip(columns, values):
        if column == "model_setting":
            if df[column].nunique() > 1:
                parts.append(setting_label(value))
            continue
        parts.append(f"{column}={value:g}")
    return parts[0] if len(parts) == 1 else f"{parts[0]} ({', '.join(parts[1:])})"


def _shares(histograms, n_bits):
    """Pooled cluster counts of several histograms, plus each histogram's own."""
    each = [json.loads(h) if isinstance(h, str) else h for h in histograms]
    per_seed = []
    for h in each:
        counts = cluster_counts(h, n_bits)
        counts["top"] = int(h[n_bits])
        per_seed.append(counts)
    pooled = {key: sum(c[key] for c in per_seed) for key in per_seed[0]}
    return pooled, per_seed


def summarise_training(df):
    """Per function, N and series: success rate with its Wilson interval, accuracy, shares.

    Parameters
    ----------
    df : pandas.DataFrame
        The study's table (:func:`training_sensitivity`).

    Returns
    -------
    summary : pandas.DataFrame
        One row per function, ``n_bits``, ``model_setting`` (and any setting
        that varies within a function) with ``seeds``, ``n_steps`` (the
        budget), ``stopped_target``, ``stopped_flat`` and ``stopped_budget``
        (runs that stopped at the target accuracy, ended on a flat loss, or
        were still improving at the budget: budget-limited; see
        :func:`loss_status`), ``learned`` (seeds that
        learned), ``learned_rate`` and its 95% Wilson interval
        ``learned_low``/``learned_high``; ``accuracy`` (mean over seeds),
        ``accuracy_min`` (worst seed), ``steps`` (median); the profile
        ``method`` and the strings profiled over all seeds (``n_strings``);
        the pooled shares of strings at sensitivity 0 (``share_zero``), near
        N/2 (``share_half``, see :data:`HALF_WINDOW`), at 1 (``share_one``)
        and at N (``share_top``), each with ``_low``/``_high`` (a Wilson
        interval over the pooled sampled strings; NaN where every string was
        profiled, the share then being exact for these networks), the
        target's (``target_share_*``), ``in_cluster`` (the share in the
        target's clusters, :data:`CLUSTERS`), its lowest value over seeds
        ``in_cluster_min`` and the target's ``target_in_cluster``;
        ``average_sensitivity`` (mean), ``target_average_sensitivity``,
        ``profile_distance`` (mean), ``n_parameters`` and ``seconds`` (sum).
    """
    _require_runs(df)
    df = _with_model_setting(df)
    series = _series_columns(df)
    rows = []
    for keys, group in df.groupby(["function", "n_bits", *series], sort=False):
        function, n_bits = keys[0], int(keys[1])
        k, n = int(group["learned"].sum()), len(group)
        low, high = wilson_interval(k, n)
        row = dict(zip(["function", "n_bits", *series], keys))
        stops = group["stop"] if "stop" in group else pd.Series(dtype=str)
        row.update(
            n_bits=n_bits, seeds=n, learned=k, learned_rate=k / n, learned_low=low,
            learned_high=high, accuracy=float(group["accuracy"].mean()),
            accuracy_min=float(group["accuracy"].min()),
            steps=float(group["steps"].median()), n_steps=int(group["n_steps"].max()),
            stopped_target=int((stops == "target").sum()),
            stopped_flat=int((stops == "flat").sum()),
            stopped_budget=int((stops == "budget").sum()),
        )
        sampled = bool((group["method"] == "sampled").any())
        pooled, per_seed = _shares(group["histogram"], n_bits)
        target, _ = _shares(group["target_histogram"], n_bits)
        row.update(method="sampled" if sampled else "exhaustive", n_strings=pooled["n"])
        for name in ("zero", "half", "one", "top"):
            row[f"share_{name}"] = pooled[name] / pooled["n"]
            low, high = (wilson_interval(pooled[name], pooled["n"]) if sampled
                         else (float("nan"), float("nan")))
            row[f"share_{name}_low"], row[f"share_{name}_high"] = low, high
            row[f"target_share_{name}"] = target[name] / target["n"]
        cluster = CLUSTERS[function]
        row["in_cluster"] = sum(pooled[c] for c in cluster) / pooled["n"]
        row["in_cluster_min"] = min(sum(s[c] for c in cluster) / s["n"] for s in per_seed)
        row["target_in_cluster"] = sum(target[c] for c in cluster) / target["n"]
        row.update(
            average_sensitivity=float(group["average_sensitivity"].mean()),
            target_average_sensitivity=float(group["target_average_sensitivity"].mean()),
            profile_distance=float(group["profile_distance"].mean()),
            n_parameters=int(group["n_parameters"].max()),
            seconds=float(group["seconds"].sum()) if "seconds" in group else float("nan"),
        )
        rows.append(row)
    summary = pd.DataFrame(rows)
    order = {name: i for i, name in enumerate(NAMED_FUNCTIONS)}
    return summary.sort_values(
        ["function", *series, "n_bits"],
        key=lambda col: col.map(order) if col.name == "function" else col,
        ignore_index=True,
    )


def learned_up_to(df):
    """How far each function was learned, by the rule of :data:`LEARNED_UP_TO_RATE`.

    "Learned up to N" is the largest N such that at N and at every smaller
    length tried, at least 80% of the seeds learned (accuracy >=
    :data:`LEARNED`): 2 of 2, 4 of 5, 8 of 10. The success rate at the
    largest N tried comes with its 95% Wilson interval.

    Returns
    -------
    table : pandas.DataFrame
        Per function (and series): ``learned_up_to`` (0 if the smallest N
        already falls short), ``first_short`` (the first N that falls short,
        0 if none), ``largest_with_success`` (the largest N at which any seed
        learned, 0 if none), ``largest_n_tried``, and ``learned``, ``seeds``,
        ``rate``, ``low``, ``high`` at the largest N tried.
    """
    summary = summarise_training(df)
    series = _series_columns(df)
    rows = []
    for keys, group in summary.groupby(["function", *series], sort=False):
        group = group.sort_values("n_bits")
        ok, first_short = 0, 0
        for n, rate in zip(group["n_bits"], group["learned_rate"]):
            if rate < LEARNED_UP_TO_RATE - 1e-12:
                first_short = int(n)
                break
            ok = int(n)
        some = group[group["learned"] > 0]
        last = group.iloc[-1]
        row = dict(zip(["function", *series], keys))
        row.update(
            learned_up_to=ok, first_short=first_short,
            largest_with_success=int(some["n_bits"].max()) if len(some) else 0,
            largest_n_tried=int(last["n_bits"]), learned=int(last["learned"]),
            seeds=int(last["seeds"]), rate=float(last["learned_rate"]),
            low=float(last["learned_low"]), high=float(last["learned_high"]),
        )
        rows.append(row)
    return pd.DataFrame(rows)


def _preset_label(df):
    """"quick preset" / "full preset" when the table is exactly one, else "custom settings"."""
    df = _with_model_setting(df)
    for name in PRESETS:
        params = dict(PRESETS["quick"], **PRESETS[name])
        cells = pd.DataFrame(training_cells(params))
        same = (
            set(df["function"]) == set(params["function"])
            and set(df["n_bits"]) == set(params["n_bits"])
            and set(df["model_setting"]) == set(params["model_setting"])
            and set(df["seed"]) == set(range(params["seeds"]))
            and all(c in df and set(df[c]) == {params[c]}
                    for c in _SETTINGS + ("random_state",) if c != "n_steps")
            and all(set(df.loc[df["function"] == f, "n_steps"]) == set(g["n_steps"])
                    for f, g in cells.groupby("function"))
        )
        if same:
            return f"{name} preset"
    return "custom settings"


def _seeds_text(df):
    df = _with_model_setting(df)
    counts = df.groupby(["function", "n_bits", *_series_columns(df)]).size()
    low, high = int(counts.min()), int(counts.max())
    return f"{low} seeds" if low == high else f"{low}-{high} seeds"


def plot_training_sensitivity(df):
    """Figures: success rate, accuracy, sensitivity and cluster shares against N.

    Every series has its own marker and line style, coinciding series are
    offset a little along N, and every N tried has a tick.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`training_sensitivity`.

    Returns
    -------
    figures : dict of str to matplotlib.figure.Figure
        ``"success"`` (share of seeds that learned, with 95% Wilson
        intervals), ``"accuracy"`` (mean and worst seed, one panel per
        function), ``"sensitivity"`` (share of strings at sensitivity 0 and
        average sensitivity, trained against the function itself, one
        column per function), ``"clusters"`` (the shares of strings where
        each function's own strings sit: 0 and near N/2 for MAJORITY, 1 for
        FIRST, N for PARITY, trained against the function) and
        ``"profiles"`` (pooled trained histogram against the function's at
        the largest exhaustively profiled N, one
        :class:`~skxor.plotting.SensitivityProfileDisplay` per function) and
        ``"loss"`` (every run's loss curve, one panel per model setting and
        function, coloured by N, the line style saying whether the run
        stopped at the target, on a flat loss or budget-limited).

    Examples
    --------
    >>> from skxor.studies import plot_training_sensitivity, training_sensitivity
    >>> df = training_sensitivity(function=["FIRST"], n_bits=[3, 4], seeds=1, d_model=8,
    ...                           n_layers=1, n_heads=2, n_steps=50, check_every=10)
    >>> figures = plot_training_sensitivity(df)
    >>> {name: len(figure.axes) for name, figure in sorted(figures.items())}
    {'accuracy': 1, 'clusters': 1, 'loss': 2, 'profiles': 1, 'sensitivity': 2, 'success': 1}
    """
    from matplotlib.figure import Figure

    summary = summarise_training(df)
    df = _with_model_setting(df)
    series = _series_columns(df)
    groups = list(summary.groupby(["function", *series], sort=False))
    functions = list(dict.fromkeys(summary["function"]))
    n_values = summary["n_bits"].unique()
    caption = f"{_preset_label(df)}, {_seeds_text(df)} per cell"

    def style(function, index):
        colour, marker, line = _STYLE[function]
        return dict(color=colour, marker=marker, ls=line,
                    mfc="none" if index % 2 else colour)

    # Success rate with Wilson intervals.
    success = Figure(figsize=(6.0, 3.8), layout="constrained")
    ax = success.subplots()
    for i, (keys, group) in enumerate(groups):
        ax.errorbar(
            offset(group["n_bits"], i, len(groups), spread=0.07), group["learned_rate"],
            yerr=interval_errors(group["learned_rate"], group["learned_low"], group["learned_high"]),
            capsize=3, ms=5, label=_series_label(keys[0], keys[1:], series, df),
            **style(keys[0], i),
        )
    log_axis(ax, n_values, base=2, label="string length N", pad=0.3)
    ax.set_ylim(-0.05, 1.05)
    ax.set_ylabel(f"share of seeds learned\n(accuracy >= {LEARNED}; 95% Wilson)")
    ax.legend(fontsize="small", loc="best")
    success.suptitle(f"Training success ({caption})", fontsize="medium")

    # Accuracy, one panel per function: mean and worst seed.
    acc = Figure(figsize=(3.6 * len(functions), 3.6), layout="constrained")
    axes = np.atleast_1d(acc.subplots(1, len(functions), sharey=True))
    for i, (keys, group) in enumerate(groups):
        ax = axes[functions.index(keys[0])]
        label = _series_label(keys[0], keys[1:], series, df)
        colour, marker, line = _STYLE[keys[0]]
        ax.plot(group["n_bits"], group["accuracy"], color=colour, marker=marker, ls=line,
                label=f"{label}: mean over seeds")
        ax.plot(group["n_bits"], group["accuracy_min"], color="black", marker="v", ms=4,
                ls=":", label=f"{label}: worst seed")
    for ax, function in zip(axes, functions):
        ax.axhline(LEARNED, color="grey", lw=0.8, ls="--", label=f"learned: {LEARNED}")
        log_axis(ax, n_values, base=2, label="string length N", pad=0.3)
        ax.set_ylabel("test accuracy")
        ax.set_title(function, fontsize="small")
        ax.set_ylim(0.4, 1.03)
        ax.legend(fontsize="x-small", loc="lower left")
    acc.suptitle(f"Accuracy after training ({caption})", fontsize="medium")

    # Sensitivity: share at 0 and average, trained against the function itself.
    sens = Figure(figsize=(3.6 * len(functions), 6.0), layout="constrained")
    axes = np.atleast_2d(sens.subplots(2, len(functions)))
    if len(functions) == 1:
        axes = axes.reshape(2, 1)
    for i, (keys, group) in enumerate(groups):
        col = functions.index(keys[0])
        label = _series_label(keys[0], keys[1:], series, df)
        colour, marker, line = _STYLE[keys[0]]
        axes[0, col].errorbar(
            group["n_bits"], group["share_zero"],
            yerr=interval_errors(group["share_zero"], group["share_zero_low"], group["share_zero_high"]),
            capsize=3, color=colour, marker=marker, ls=line, label=f"{label} trained",
        )
        axes[0, col].plot(group["n_bits"], group["target_share_zero"],
                          label=f"{keys[0]} itself (target)", **_TARGET)
        axes[1, col].plot(group["n_bits"], group["average_sensitivity"], color=colour,
                          marker=marker, ls=line, label=f"{label} trained (mean)")
        axes[1, col].plot(group["n_bits"], group["target_average_sensitivity"],
                          label=f"{keys[0]} itself (target)", **_TARGET)
    for col, function in enumerate(functions):
        axes[0, col].set_title(function, fontsize="small")
        axes[0, col].set_ylabel("share of strings with sensitivity 0")
        axes[0, col].set_ylim(-0.05, 1.05)
        axes[1, col].set_ylabel("average sensitivity")
        for ax in axes[:, col]:
            log_axis(ax, n_values, base=2, label="string length N", pad=0.3)
            ax.legend(fontsize="x-small", loc="best")
    sens.suptitle(f"Sensitivity of the trained models ({caption})", fontsize="medium")

    # Cluster shares: where each function's own strings sit.
    names = {"zero": "at 0", "half": "near N/2", "one": "at 1", "top": "at N"}
    shown = {"PARITY": ("zero", "top"), "MAJORITY": ("zero", "half"), "FIRST": ("one", "zero")}
    clus = Figure(figsize=(3.8 * len(functions), 3.8), layout="constrained")
    axes = np.atleast_1d(clus.subplots(1, len(functions), sharey=True))
    for i, (keys, group) in enumerate(groups):
        ax = axes[functions.index(keys[0])]
        label = _series_label(keys[0], keys[1:], series, df)
        colour = _STYLE[keys[0]][0]
        for j, (name, marker, line) in enumerate(zip(shown[keys[0]], ("o", "s"), ("-", "-."))):
            ax.errorbar(
                offset(group["n_bits"], j, 2, spread=0.07), group[f"share_{name}"],
                yerr=interval_errors(group[f"share_{name}"], group[f"share_{name}_low"],
                           group[f"share_{name}_high"]),
                capsize=3, color=colour, marker=marker, ls=line,
                mfc="none" if j else colour, label=f"{label} trained: {names[name]}",
            )
            ax.plot(group["n_bits"], group[f"target_share_{name}"],
                    label=f"{keys[0]} itself (target): {names[name]}",
                    **dict(_TARGET, ls="--" if j == 0 else ":"))
    for ax, function in zip(axes, functions):
        ax.set_title(function, fontsize="small")
        ax.set_ylabel("share of strings")
        ax.set_ylim(-0.05, 1.05)
        log_axis(ax, n_values, base=2, label="string length N", pad=0.3)
        ax.legend(fontsize="x-small", loc="best")
    clus.suptitle(
        f"Where sensitivities sit, near N/2 = within {HALF_WINDOW} of N/2 ({caption})",
        fontsize="medium",
    )

    # Histograms at the largest exhaustively profiled N, drawn by the display.
    from ...plotting import SensitivityProfileDisplay

    exhaustive = df[df["method"] == "exhaustive"]
    n_bits = int(exhaustive["n_bits"].max()) if len(exhaustive) else int(df["n_bits"].max())
    prof = Figure(figsize=(3.8 * len(functions), 3.4), layout="constrained")
    paxes = np.atleast_1d(prof.subplots(1, len(functions), sharey=True))
    for ax, function in zip(paxes, functions):
        part = df[(df["function"] == function) & (df["n_bits"] == n_bits)]
        if len(part):
            trained = np.sum([json.loads(h) for h in part["histogram"]], axis=0)
            wanted = np.sum([json.loads(h) for h in part["target_histogram"]], axis=0)
            disp = SensitivityProfileDisplay(
                trained / trained.sum(), name=f"trained ({len(part)} seeds pooled)",
                references={f"reference: {function} itself": wanted / wanted.sum()},
            ).plot(ax=ax, reference_style="steps", color=_STYLE[function][0], alpha=0.6)
            ax.legend(handles=[*disp.bars_, *disp.reference_lines_], fontsize="x-small")
        else:
            ax.set_xlabel("sensitivity s(f, x)")
            ax.set_ylabel("fraction of strings")
        ax.set_title(f"{function}, N = {n_bits}", fontsize="small")
    prof.suptitle(f"Sensitivity histograms ({caption})", fontsize="medium")
    figures = {"loss": _plot_loss_curves(df, caption)} if "loss_curve" in df else {}
    return {**figures, "success": success, "accuracy": acc, "sensitivity": sens, "clusters": clus,
            "profiles": prof}


#: Line style of a loss curve by how its run stopped (see :func:`loss_status`).
_STOP_STYLE = {"target": "-", "flat": "--", "budget": ":", "short": "-."}
_STOP_NAME = {"target": "stopped at the target", "flat": "flat at the budget",
              "budget": "budget-limited (still falling)", "short": "too short to tell"}


def _plot_loss_curves(df, caption):
    """Every run's training loss against steps: one panel per (model setting, function).

    Colour: N; line style: how the run stopped (at the target, flat, or
    budget-limited), so a run cut off by its budget shows as such.
    """
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    df = _with_model_setting(df)
    settings = list(dict.fromkeys(df["model_setting"]))
    functions = [f for f in NAMED_FUNCTIONS if f in set(df["function"])]
    n_values = sorted(int(n) for n in df["n_bits"].unique())
    colours = _n_colours(len(n_values))
    fig = Figure(figsize=(3.8 * len(functions), 3.0 * len(settings) + 0.8),
                 layout="constrained")
    grid = np.array(fig.subplots(len(settings), len(functions), sharey=True, squeeze=False))
    for i, setting in enumerate(settings):
        for j, function in enumerate(functions):
            ax = grid[i, j]
            runs = df[(df["model_setting"] == setting) & (df["function"] == function)]
            labelled = set()
            for _, run in runs.sort_values(["n_bits", "seed"]).iterrows():
                curve = json.loads(run["loss_curve"])
                steps = np.arange(1, len(curve) + 1) * int(run["check_every"])
                n = int(run["n_bits"])
                label = f"N = {n}" if n not in labelled else "_nolegend_"
                labelled.add(n)
                ax.plot(steps, curve, color=colours[n_values.index(n)], lw=1.0,
                        ls=_STOP_STYLE.get(run.get("stop"), "-"), label=label)
            stops = [s for s in _STOP_STYLE if s in set(runs.get("stop", []))]
            proxies = [Line2D([], [], color="black", lw=1.0, ls=_STOP_STYLE[s],
                              label=_STOP_NAME[s]) for s in stops]
            handles, labels = ax.get_legend_handles_labels()
            ax.legend(handles=handles + proxies, fontsize="xx-small", loc="upper right")
            ax.set_yscale("log")
            ax.set_xlabel("training steps")
            ax.set_ylabel("training loss (mean per check)")
            ax.set_title(f"{function}, {setting_label(setting)}", fontsize="small")
    fig.suptitle(f"Loss curves, every run\n({caption})", fontsize="small")
    return fig


def _n_colours(n):
    """``n`` colours of the viridis map, dark to light (one per string length)."""
    from matplotlib import colormaps

    return [colormaps["viridis"](x) for x in np.linspace(0.0, 0.85, max(n, 1))]


def _budget_lines(df):
    """One sentence per budget in the table: steps x batch, optimiser, model size."""
    df = _with_model_setting(df)
    weight_decay = BooleanTransformerClassifier().weight_decay
    lines = []
    columns = [c for c in _SETTINGS if c in df and c != "n_steps"]
    for values, group in df.groupby(columns, sort=False):
        p = dict(zip(columns, values))
        budgets = group.groupby("function")["n_steps"].max()
        steps = sorted(set(budgets))
        if len(steps) == 1:
            budget = f"at most {int(steps[0])} AdamW steps"
        else:
            budget = "at most " + ", ".join(
                f"{int(b)} (" + ", ".join(f for f in budgets.index if budgets[f] == b) + ")"
                for b in steps) + " AdamW steps"
        params = group["n_parameters"]
        size = (f"{int(params.min())}" if params.min() == params.max()
                else f"{int(params.min())}-{int(params.max())}")
        settings = "; ".join(setting_description(m) for m in group["model_setting"].unique())
        lines.append(
            f"Budget per run: {budget} (learning rate "
            f"{p['learning_rate']:g}, weight decay {weight_decay:g}) of {int(p['batch_size'])} "
            f"fresh uniform strings each, stopping early once the accuracy on "
            f"{int(p['check_every'] * p['batch_size'])} monitoring strings, measured every "
            f"{int(p['check_every'])} steps, reaches {p['target_accuracy']:g}. Model: "
            f"D = {int(p['d_model'])}, L = {int(p['n_layers'])}, {int(p['n_heads'])} heads, "
            f"MLP width 4D; {size} trainable parameters (learned position embeddings grow "
            f"with N). Model settings ({settings}). Learned: accuracy >= "
            f"{LEARNED} on all 2^N strings for N <= {int(p['exhaustive_max'])}, else on "
            f"{int(p['n_eval'])} fresh strings; profiles over all strings up to the same N, "
            f"else over {int(p['n_samples'])} uniform strings and their neighbours per seed."
        )
    return lines


def _share(row, name):
    return format_interval(row[f"share_{name}"], row[f"share_{name}_low"],
                           row[f"share_{name}_high"])


def report_training_sensitivity(df):
    """Markdown: success per function and N, how far each was learned, where sensitivities sit.

    Every sentence stating a number is generated from the table.

    Parameters
    ----------
    df : pandas.DataFrame
        The result of :func:`training_sensitivity`, from which the section is written.

    Returns
    -------
    text : str
        A Markdown section: the budget, success per function and N with
        Wilson intervals, how far each function was learned, where the
        trained models' sensitivities sit, and the comparison with Köver et
        al. (2026, arXiv 2606.08768).

    Examples
    --------
    >>> from skxor.studies import report_training_sensitivity, training_sensitivity
    >>> df = training_sensitivity(function=["FIRST"], n_bits=[3, 4], seeds=1, d_model=8,
    ...                           n_layers=1, n_heads=2, n_steps=50, check_every=10)
    >>> report = report_training_sensitivity(df)
    >>> for line in report.splitlines():
    ...     if line.startswith("#"):
    ...         print(line)
    ## Training on PARITY, MAJORITY and FIRST
    ### Success per N
    ### How far each function was learned
    ### Where the trained models' sensitivities sit
    ### Against Köver et al. (2026)
    >>> success = report.split("### Success per N")[1].split("###")[0]
    >>> for line in success.splitlines():  # doctest: +NORMALIZE_WHITESPACE
    ...     if line.startswith("| FIRST"):
    ...         print(line)
    | FIRST (library) | 3 | 1/1 seeds | 1.00 [0.21, 1.00] | 1 | 1 | 40 | 50 | 1 / 0 / 0 |
    | FIRST (library) | 4 | 0/1 seeds | 0.00 [0.00, 0.79] | 0.875 | 0.875 | 50 | 50 | 0 / 0 / 1 |
    | FIRST (paper, xavier_uniform init) | 3 | 1/1 seeds | 1.00 [0.21, 1.00] | 1 | 1 | 30 | 50 |
      1 / 0 / 0 |
    | FIRST (paper, xavier_uniform init) | 4 | 1/1 seeds | 1.00 [0.21, 1.00] | 1 | 1 | 20 | 50 |
      1 / 0 / 0 |
    """
    if not len(df) or "function" not in df:
        return ("## Training on PARITY, MAJORITY and FIRST\n\nThe table holds no training "
                "run: nothing to summarise.")
    df = _with_model_setting(df)
    summary = summarise_training(df)
    series = _series_columns(df)
    reach = learned_up_to(df)
    label = _preset_label(df)
    seeds = _seeds_text(df)
    lines = ["## Training on PARITY, MAJORITY and FIRST", ""]
    min_seeds = int(df.groupby(["function", "n_bits", *series]).size().min())
    header = f"Settings: {label}, {seeds} per (function, N)."
    if min_seeds < 5:
        header += f" Rough: with {seeds} per cell the intervals below are wide."
    lines += [header, ""] + [line + "\n" for line in _budget_lines(df)]

    def name(row):
        return _series_label(row["function"], [row[c] for c in series], series, df)

    success = pd.DataFrame({
        "function": [name(r) for _, r in summary.iterrows()],
        "N": summary["n_bits"],
        "learned": [f"{r.learned}/{r.seeds} seeds" for r in summary.itertuples()],
        "success rate [95% Wilson]": [
            format_interval(r.learned_rate, r.learned_low, r.learned_high)
            for r in summary.itertuples()],
        "mean accuracy": summary["accuracy"].map("{:.3f}".format),
        "worst seed": summary["accuracy_min"].map("{:.3f}".format),
        "median steps": summary["steps"].round().astype(int),
        "budget": summary["n_steps"],
        "stopped: target / flat / budget-limited": [
            f"{r.stopped_target} / {r.stopped_flat} / {r.stopped_budget}"
            for r in summary.itertuples()],
    })
    lines += [
        "### Success per N",
        "",
        "Each run stops at the target accuracy, or at its budget; there its loss curve is "
        f"called flat when the mean loss over the last quarter of the checks fell by less "
        f"than {FLAT_TOLERANCE:.0%} from the quarter before, and budget-limited otherwise "
        "(still falling: a larger budget may change the outcome). Loss curves: the "
        "figure 'loss'.",
        "",
        success.to_markdown(index=False),
        "",
    ]
    limited = summary[summary["stopped_budget"] > 0]
    if len(limited):
        lines += [
            "Budget-limited runs (loss still falling when the budget ran out): "
            + "; ".join(f"{name(r)} at N = {int(r['n_bits'])}: {int(r['stopped_budget'])} "
                        f"of {int(r['seeds'])} seeds ({int(r['n_steps'])} steps)"
                        for _, r in limited.iterrows())
            + ". Where these runs did not learn, 'not learned' means not learned within "
            "this budget.",
            "",
        ]

    rule = (
        f"Learned up to N: the largest N such that at N and at every smaller length "
        f"tried, at least {LEARNED_UP_TO_RATE:.0%} of the seeds learned (2 of 2, 4 of 5, "
        f"8 of 10); 0 when the smallest length tried already falls short."
    )
    reach_table = pd.DataFrame({
        "function": [name(r) for _, r in reach.iterrows()],
        "learned up to N": reach["learned_up_to"],
        "first N short": reach["first_short"].map(lambda n: n or "-"),
        "largest N with a success": reach["largest_with_success"].map(lambda n: n or "-"),
        "largest N tried": reach["largest_n_tried"],
        "success at largest N": [
            f"{r.learned}/{r.seeds} seeds: {format_interval(r.rate, r.low, r.high)}"
            for r in reach.itertuples()],
    })
    lines += ["### How far each function was learned", "", rule, "",
              reach_table.to_markdown(index=False), ""]

    cluster = pd.DataFrame({
        "function": [name(r) for _, r in summary.iterrows()],
        "N": summary["n_bits"],
        "strings": [f"{r.method}: {r.n_strings}" for r in summary.itertuples()],
        "at 0": [_share(r, "zero") for _, r in summary.iterrows()],
        "at 1": [_share(r, "one") for _, r in summary.iterrows()],
        "near N/2": [_share(r, "half") for _, r in summary.iterrows()],
        "at N": [_share(r, "top") for _, r in summary.iterrows()],
        "target: 0 / 1 / N/2 / N": [
            f"{r.target_share_zero:.2f} / {r.target_share_one:.2f} / "
            f"{r.target_share_half:.2f} / {r.target_share_top:.2f}"
            for r in summary.itertuples()],
        "in target's cluster (lowest seed)": [
            f"{r.in_cluster:.2f} ({r.in_cluster_min:.2f})" for r in summary.itertuples()],
    })
    lines += [
        "### Where the trained models' sensitivities sit",
        "",
        f"Share of strings, pooled over seeds, at sensitivity 0, at 1, near N/2 "
        f"(|s - N/2| <= {HALF_WINDOW}, s > 0; it overlaps \"at 1\" for N <= 4) and at N; "
        f"exact where all strings were profiled, else with a 95% Wilson interval over the "
        f"pooled sampled strings. The target's cluster: "
        f"0 and near N/2 for MAJORITY, 1 for FIRST, N for PARITY.",
        "",
        cluster.to_markdown(index=False),
        "",
    ]
    lines += _cluster_sentences(summary, series, df) + [""]
    lines += ["### Against Köver et al. (2026)", ""] + _paper_sentences(
        reach, summary, series, df, label, seeds)
    return "\n".join(lines)


def _cluster_sentences(summary, series, df):
    out = []
    for function, what in (("MAJORITY", "at sensitivity 0 and {half} near N/2"),
                           ("FIRST", "at sensitivity 1")):
        part = summary[summary["function"] == function]
        for keys, group in part.groupby(series, sort=False) if len(part) else []:
            keys = keys if isinstance(keys, tuple) else (keys,)
            row = group.sort_values("n_bits").iloc[-1]
            label = _series_label(function, keys, series, df)
            if function == "MAJORITY":
                text = (f"Trained {label} at N = {int(row['n_bits'])}: {_share(row, 'zero')} "
                        f"of the strings at sensitivity 0 and {_share(row, 'half')} near N/2, "
                        f"together {row['in_cluster']:.2f} (lowest seed "
                        f"{row['in_cluster_min']:.2f}); MAJORITY itself: "
                        f"{row['target_share_zero']:.2f} and {row['target_share_half']:.2f}.")
            else:
                text = (f"Trained {label} at N = {int(row['n_bits'])}: {_share(row, 'one')} "
                        f"of the strings at sensitivity 1 (lowest seed "
                        f"{row['in_cluster_min']:.2f}) and {_share(row, 'zero')} at 0; FIRST "
                        f"itself: {row['target_share_one']:.2f} at 1.")
            out.append(text)
    if out:
        out.insert(0, "At the largest N tried (all seeds pooled, learned or not):")
        out = [out[0], ""] + [f"* {t}" for t in out[1:]]
    return out


def _paper_sentences(reach, summary, series, df, label, seeds):
    lines = [
        "Köver et al. (2026, arXiv 2606.08768) prove that functions without "
        "zero-sensitivity strings, PARITY and FIRST among them, become unlearnable by "
        "transformers as N grows: the statement is asymptotic (N -> infinity) and names no "
        "length from which learning fails. In their own experiments PARITY is not learned, "
        "FIRST is learned at moderate lengths with sensitivities clustered at 1, and "
        "MAJORITY is learned with sensitivities clustered at 0 and N/2.",
        "",
        f"Measured here ({label}, {seeds} per cell, the budget above; each line names its "
        "model setting: " + "; ".join(setting_description(m)
                                      for m in df["model_setting"].unique()) + "):",
        "",
    ]
    for _, r in reach.iterrows():
        name = _series_label(r["function"], [r[c] for c in series], series, df)
        tried = sorted(df.loc[df["function"] == r["function"], "n_bits"].unique())
        reached = (f"learned up to N = {r['learned_up_to']}" if r["learned_up_to"]
                   else f"below the rule already at N = {int(tried[0])}")
        text = (f"* {name}: {reached} ({len(tried)} lengths tried, N = {int(tried[0])} to "
                f"{int(tried[-1])}); at N = {r['largest_n_tried']}, {r['learned']}/{r['seeds']} "
                f"seeds learned ({format_interval(r['rate'], r['low'], r['high'])}).")
        if r["learned_up_to"] == r["largest_n_tried"]:
            text += (f" No length tried here fell short, so these data do not locate a "
                     f"length at which {r['function']} stops being learned under this budget.")
        elif r["largest_with_success"] == 0:
            text += " No seed learned it at any length tried."
        else:
            text += (f" The first length short of the rule is N = {r['first_short']}; the "
                     f"largest with any success is N = {r['largest_with_success']}.")
            short = summary[(summary["function"] == r["function"])
                            & (summary["n_bits"] == r["first_short"])]
            short = short[np.all([short[c] == r[c] for c in series], axis=0)]
            if len(short):
                row = short.iloc[0]
                text += (f" At N = {r['first_short']}, of {int(row['seeds'])} runs "
                         f"({int(row['n_steps'])}-step budget), {int(row['stopped_target'])} "
                         f"stopped at the target, {int(row['stopped_flat'])} ended on a flat "
                         f"loss and {int(row['stopped_budget'])} were budget-limited (loss "
                         "still falling)"
                         + (", so a larger budget may move this length."
                            if row["stopped_budget"] else "."))
        lines.append(text)
    lines += [
        "",
        "A finite-N result can neither support nor refute an asymptotic statement; these "
        "figures hold for this budget, model size and model setting only.",
    ]
    return lines


STUDY = Study(
    name="training_sensitivity",
    description=(
        "Boolean transformers trained on PARITY, MAJORITY and FIRST at growing N under a "
        "stated budget, in the library's model setting and in Köver et al.'s (eos read-out, "
        "fixed sinusoidal positions, eps = 0, their init schemes): success rates with "
        "Wilson intervals, whether each run stopped at the target, on a flat loss or at "
        "its budget (loss curves), how far each function is learned, and where the "
        "trained models' sensitivities sit against the target's."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=training_cell,
    compute=_compute,
    summary=summarise_training,
    figures=plot_training_sensitivity,
    report=report_training_sensitivity,
    key=("function", "n_bits", "model_setting", "seed", "random_state", "d_model",
         "n_layers", "n_heads", "learning_rate", "batch_size", "n_steps", "check_every",
         "target_accuracy", "exhaustive_max", "n_eval", "n_samples"),
    setting=("d_model", "n_layers", "n_heads", "learning_rate", "batch_size", "n_steps",
             "n_steps_majority", "check_every", "target_accuracy", "exhaustive_max",
             "n_eval", "n_samples", "device", "random_state"),
    check=check_transformer,
)

__all__ = [
    "CLUSTERS",
    "FLAT_TOLERANCE",
    "HALF_WINDOW",
    "LEARNED",
    "LEARNED_UP_TO_RATE",
    "MODEL_SETTINGS",
    "PARAMETERS",
    "PRESETS",
    "STUDY",
    "cluster_counts",
    "learned_up_to",
    "loss_status",
    "setting_description",
    "setting_label",
    "training_cells",
    "training_key",
    "plot_training_sensitivity",
    "report_training_sensitivity",
    "summarise_training",
    "training_cell",
    "training_sensitivity",
]
