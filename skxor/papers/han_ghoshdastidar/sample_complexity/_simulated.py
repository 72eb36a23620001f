"""The tables claim H5 is tried on, for ``_rules``: fixed ones where the paper holds and
where it does not, and ``simulate``, drawing a table at a design from the stored run's
spread of n* about its fit in d, and its share of population failures.
"""

import math

import numpy as np
import pandas as pd

from ._cells import train_sizes


#: The spread the stored full run measured (docs/results/data/sample_complexity,
#: 60 seeds x 6 d, the one-step transformer's cure-model fit of
#: :func:`~skxor.papers.han_ghoshdastidar.sample_complexity.fit_exponents`):
#: ``sigma`` of log n* about the line, log n* at ``log_d_centre`` (the mean log d
#: of the cured curves) and p_pop, the share of curves whose population step
#: succeeds (320/360). tests/unit/test_claim_power_h5.py recomputes them from the
#: stored table.
STORED_SPREAD = dict(sigma=1.821, intercept=8.008, log_d_centre=3.966, p_pop=320 / 360)

#: The stored run's grid of training sizes and target (the full preset's): the
#: sizes a simulated table uses when its design does not name them.
STORED_GRID = dict(n_min=25, n_max=1638400, n_sizes=33, target=0.95)

#: The exponent of n* ~ d^a where the paper's remark holds (linear in d) and where
#: its alternative does (``contradicted_by``: samples growing like d^2).
SIMULATED_EXPONENT = {"holds": 1.0, "alternative": 2.0}


def simulate(design, truth, rng):
    """The one-step learning curves of ``design`` where the remark holds or its alternative does.

    Only what H5's rule reads is drawn: the ``transformer_one_step`` cells of
    ``design`` (one row per (model, d, seed), as :func:`design_of
    <skxor.studies.power.design_of>` or :func:`planned_design
    <skxor.studies.power.planned_design>` give), each a learning curve on the
    grid of training sizes of the design (its ``n_min``, ``n_max``,
    ``n_sizes``, ``target`` where it names them, else :data:`STORED_GRID`).
    Each curve's population step succeeds with probability p_pop = 320/360
    (:data:`STORED_SPREAD`, the stored run's); a curve whose population step
    fails stays at accuracy 0.5. A curve whose population step succeeds has
    its own n*: log n* = ``intercept`` + a (log d - ``log_d_centre``) +
    ``sigma`` Z with Z standard normal, ``intercept`` = 8.008 (n* = 3 000 at
    d = 53, the stored run's), ``sigma`` = 1.821 (the stored run's spread, a
    factor of 6 per standard deviation); its accuracy is 1 at every size from
    n* on and 0.5 below (n* beyond the grid: censored as the study's are).

    ``truth="holds"``: a = 1 (the paper's remark, samples growing linearly in
    d; the rule should say "reproduced"). ``truth="alternative"``: a = 2
    (``contradicted_by``: samples growing like d^2; the stored run measured
    1.70 [1.45, 1.96]; the rule should say "not reproduced").

    Returns
    -------
    table : pandas.DataFrame
        One row per (one-step cell, training size): ``model, d, seed, n,
        accuracy, population_success, target``.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.sample_complexity._simulated import simulate
    >>> design = pd.DataFrame({"model": "transformer_one_step", "d": [16, 160], "seed": 0})
    >>> table = simulate(design, "holds", np.random.default_rng(0))
    >>> table.shape, table["d"].unique().tolist()
    ((66, 7), [16, 160])
    """
    if truth not in SIMULATED_EXPONENT:
        raise ValueError(f"truth must be one of {tuple(SIMULATED_EXPONENT)}; got {truth!r}.")
    cells = design[design["model"] == "transformer_one_step"] if "model" in design else design
    grid = {k: (cells[k].iloc[0] if k in cells and cells[k].notna().any() else v)
            for k, v in STORED_GRID.items()}
    sizes = np.array(train_sizes(grid["n_min"], grid["n_max"], int(grid["n_sizes"])))
    cells = cells[["d", "seed"]].drop_duplicates()
    d = cells["d"].to_numpy(dtype=float)
    spread = STORED_SPREAD
    success = rng.random(d.size) < spread["p_pop"]
    log_n_star = (spread["intercept"] + SIMULATED_EXPONENT[truth]
                  * (np.log(d) - spread["log_d_centre"])
                  + spread["sigma"] * rng.standard_normal(d.size))
    reached = success[:, None] & (np.log(sizes)[None, :] >= log_n_star[:, None])
    return pd.DataFrame({
        "model": "transformer_one_step",
        "d": np.repeat(cells["d"].to_numpy(), sizes.size),
        "seed": np.repeat(cells["seed"].to_numpy(), sizes.size),
        "n": np.tile(sizes, d.size),
        "accuracy": np.where(reached, 1.0, 0.5).ravel(),
        "population_success": np.repeat(success.astype(float), sizes.size),
        "target": float(grid["target"]),
    })


def _synthetic(exponent, sigma=0.15, seeds=10, random_state=0, failures=0.0):
    """Learning curves whose n* grows as 20 d^exponent (log-normal spread ``sigma``).

    With ``failures`` > 0, that share of the seeds at d >= 64 fails in the
    population limit: its curve reaches the target at small n and falls back
    (the old censored reading sees them as n* above the grid).
    """
    rng = np.random.default_rng(random_state)
    d = [16, 25, 40, 64, 100, 160]
    n = np.unique(np.round(np.geomspace(25, 409600, 29)).astype(int))
    rows = []
    for dd in d:
        for seed in range(seeds):
            n_star = 20 * dd ** exponent * math.exp(sigma * rng.standard_normal())
            fails = dd >= 64 and seed < round(failures * seeds)
            for x in n:
                if fails:
                    accuracy = 1.0 if 100 <= x < 1000 else 0.6
                else:
                    accuracy = 1.0 if x >= n_star else 0.5
                rows.append(dict(model="transformer_one_step", d=dd, seed=seed, n=int(x),
                                 accuracy=accuracy, population_success=float(not fails),
                                 target=0.95))
    return pd.DataFrame(rows)


def linear_samples():
    """n* grows like d (the paper's remark)."""
    return _synthetic(1.0)


def linear_samples_with_population_failures():
    """n* grows like d on the seeds whose population run succeeds; 40% fail at d >= 64."""
    return _synthetic(1.0, failures=0.4)


def quadratic_samples():
    """n* grows like d^2."""
    return _synthetic(2.0)


def cubic_samples():
    """n* grows like d^3."""
    return _synthetic(3.0)
