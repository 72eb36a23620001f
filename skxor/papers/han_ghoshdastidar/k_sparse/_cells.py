"""The k-sparse study's cells: T normalised steps of the k-head model; the v1 reference; the sweep.

What a cell records and what counts as success is described in the package
documentation of :mod:`skxor.papers.han_ghoshdastidar.k_sparse`.
"""

import time

import numpy as np
import pandas as pd

from skxor.boolean import all_strings
from skxor.datasets import make_sparse_parity
from skxor.estimators import KParityTransformer, SparseXORTransformer
from skxor.nn import sparse_xor_init
from skxor.theory import population_gradient, population_loss, population_step
from ..._common import cell_seed, columns_first, expand_grid, single_thread
from skxor.studies import floor_work
from skxor.studies import cell_version, run_sweep

#: A success certificate by the exact population loss: error rate <= loss.
LOSS_CERTIFICATE = 0.01
#: Accuracy that counts as success where accuracy is measured.
TARGET_ACCURACY = 0.99


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


@cell_version(1, formerly="skxor.studies._k_sparse._cells")
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


@cell_version(1, formerly="skxor.studies._k_sparse._cells")
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


def k_sparse_cost(cell):
    """The dry run's cost of a cell: a step cell's (population or samples) or a v1 fit's."""
    if cell.get("model") == "k_parity":  # v1's k-parity model, trained for its epochs
        return "v1_k_parity", (cell["epochs"] * cell["n"] * cell["d"] * cell["k"]
                               + cell["n_test"] * cell["d"])
    if cell.get("model") == "sparse_xor":  # v1's sparse-XOR steps on its n samples
        return "v1_sparse_xor", cell["d"] * (cell["k"] * cell["m"] * cell["n_steps"] * cell["n"]
                                             + cell["n_test"])
    if cell["n"] == 0:  # exact population steps: O(k d m) each
        return "population", cell["d"] * (cell["k"] * cell["m"] * cell["n_steps"]
                                          + cell["n_test"])
    # Drawing the n samples and their k-fold products dominate (timed: m hardly matters).
    return "sample", cell["d"] * (cell["n"] * (cell["k"] + cell["n_steps"]) + cell["n_test"])


# -- the sweep --------------------------------------------------------------------

KEY = ("part", "model", "k", "d", "m", "n", "n_steps", "init", "path_length", "seed",
        "random_state", "n_test", "epochs", "learning_rate", "batch_size")


def step_cells(params):
    """The cells of the step-count sweep (part ``"steps"``), unsorted.

    The cost model reads this grid too.

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.k_sparse import STUDY, step_cells
    >>> cells = step_cells(STUDY.preset("quick"))
    >>> sorted(cells[0])[:4]
    ['d', 'init', 'k', 'm']
    """
    return expand_grid(
        k=params["k"], d=params["d"], m=params["m"], n=params["n"],
        n_steps=params["n_steps"], path_length=[params["path_length"]],
        seed=list(range(params["seeds"])), random_state=[params["random_state"]],
        n_test=[params["n_test"]], init=params["init"],
    )


def v1_cells(params):
    """The cells of the v1 comparison (part ``"v1"``): the k-parity fits, then the steps.

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.k_sparse import STUDY, v1_cells
    >>> k_parity, sparse_xor = v1_cells(STUDY.preset("quick"))
    >>> {c["model"] for c in k_parity}, {c["model"] for c in sparse_xor}
    ({'k_parity'}, {'sparse_xor'})
    """
    common = dict(
        k=params["v1_k"], d=params["v1_d"], n=params["v1_n"],
        seed=list(range(params["v1_seeds"])), random_state=[params["random_state"]],
        n_test=[params["n_test"]],
    )
    k_parity = expand_grid(
        model=["k_parity"], epochs=[params["v1_epochs"]],
        learning_rate=[params["v1_learning_rate"]],
        batch_size=[params["v1_batch_size"]], m=[0], n_steps=[0], path_length=[0.0],
        **common,
    )
    sparse_xor = expand_grid(
        model=["sparse_xor"], epochs=[0], learning_rate=[0.0], batch_size=[0],
        m=[params["v1_m"]], n_steps=params["n_steps"],
        path_length=[params["path_length"]], **common,
    )
    return k_parity, sparse_xor


def every_cell(params):
    """Every cell of a run, as (function, cell): the step sweep, then v1's."""
    v1 = [c for part in v1_cells(params) for c in part] if params["v1_seeds"] else []
    return [(k_sparse_cell, c) for c in step_cells(params)] + [(v1_cell, c) for c in v1]


def k_sparse_table(params, *, preset="custom", checkpoint_dir=None, n_jobs=None, progress=False,
                   scheduler=None):
    """The study's table: the step sweep's rows (part ``"steps"``), then v1's (``"v1"``),
    each row naming the ``preset`` the parameters are."""
    sweep = dict(checkpoint_dir=checkpoint_dir, n_jobs=n_jobs, progress=progress,
                 scheduler=scheduler)
    cells = step_cells(params)
    # Costly cells (large d, many samples, many steps) first: better load balance.
    cells.sort(key=lambda c: -(c["d"] * max(c["n"], 1000) * c["n_steps"]))
    steps = run_sweep(k_sparse_cell, cells, study="k_sparse", **sweep)
    steps.insert(0, "model", "sparse_xor")
    steps.insert(0, "part", "steps")
    tables = [steps]
    if params["v1_seeds"]:
        k_parity, sparse_xor = v1_cells(params)
        v1 = k_parity + sparse_xor
        v1.sort(key=lambda c: c["model"] != "k_parity")  # the slow fits first
        reference = run_sweep(v1_cell, v1, study="k_sparse", **sweep)
        reference.insert(0, "part", "v1")
        tables.append(reference)
    df = pd.concat(tables, ignore_index=True)
    df["preset"] = preset
    return columns_first(df, KEY)
