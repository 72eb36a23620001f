"""The tables claim H6 is tried on, for ``_rules``: fixed ones where the paper holds and
where it does not, and ``simulate``, drawing a table at a design from v1's epochs to learn,
lognormal per k from the stored and rerun cells.
"""

import numpy as np
import pandas as pd


#: The stored full run's v1 budget (docs/results/data/k_sparse: 10 000 epochs), for a
#: design that names none (:func:`~skxor.studies.power.design_of` of the stored table).
STORED_V1_EPOCHS = 10000

#: Epochs v1's k-parity model took to reach training accuracy 1, per k (d = 16,
#: 39 321 strings, Adam lr 0.1, full batch): every run of the stored full run (60
#: seeds per k, 10 000 epochs) that learned, 43 at k = 2 and 15 at k = 3. The others
#: stopped at the budget, most of them on a plateau (accuracy 0.6875) or at chance,
#: where no longer budget is known to end them (left out here: under "holds" every
#: seed learns).
V1_EPOCHS_TO_LEARN = {
    2: (1334, 1388, 1398, 1405, 1420, 1431, 1603, 1614, 1632, 2176, 2264, 2297, 2480,
        2487, 2490, 2492, 2514, 2521, 2528, 2602, 2619, 2633, 2640, 2662, 2716, 2747,
        2758, 2778, 2780, 2811, 2840, 2865, 2882, 2904, 2917, 2953, 2980, 2985, 2987,
        2993, 3006, 3032, 7970),
    3: (2487, 2573, 2708, 3078, 3109, 3820, 3904, 3952, 3985, 4126, 4241, 4269, 4355,
        4382, 4568),
}

#: The share of the stored run's v1 runs stopped by its budget that were above
#: chance there (censored), per k: 8 of 17 at k = 2, 18 of 45 at k = 3.
V1_ABOVE_CHANCE_AT_BUDGET = {2: 8 / 17, 3: 18 / 45}

#: The alternative: this share of v1's seeds at k = 3 (the extension beyond XOR)
#: never leave chance.
V1_ALTERNATIVE_STUCK = 0.25


def _lognormal(k):
    values = np.log(V1_EPOCHS_TO_LEARN[min(k, max(V1_EPOCHS_TO_LEARN))])
    return float(values.mean()), float(max(values.std(ddof=1), 0.2))


def simulate(design, truth, rng):
    """H6's table at ``design``: v1's k-parity runs where the paper holds or not.

    Only v1's k-parity rows (the rule's judged parts; the library's rows are
    shown only). A row of ``design`` is one of them where its ``model`` is
    ``"k_parity"`` (a planned design) or, in a stored table's design, where
    ``m`` and ``n_steps`` are 0. Each run's epochs to learn are drawn
    lognormal with the mean and spread of ln :data:`V1_EPOCHS_TO_LEARN` at its
    k (k = 2: median about 2 440, sigma 0.32; k = 3: median about 3 640,
    sigma 0.21); a run learns when they fit in its budget (the design's ``epochs``,
    else :data:`STORED_V1_EPOCHS`), and one that does not ends above chance
    (censored) at the stored share :data:`V1_ABOVE_CHANCE_AT_BUDGET`, at
    chance otherwise.

    * ``"holds"``: every seed learns, given epochs enough.
    * ``"alternative"``: at k = 3, :data:`V1_ALTERNATIVE_STUCK` (a quarter)
      of the seeds never leave chance (accuracy 1/2 at the budget): v1's
      model fails in more than 10% of seeds at some k, at a size a referee
      would care about; k = 2 as under ``"holds"``.
    """
    if truth not in ("holds", "alternative"):
        raise ValueError(f"truth must be 'holds' or 'alternative'; got {truth!r}.")
    if "model" in design:
        rows = design[design["model"] == "k_parity"]
    else:
        rows = design[(design["m"] == 0) & (design["n_steps"] == 0)]
    rows = rows.reset_index(drop=True)
    k = rows["k"].to_numpy(dtype=int)
    budget = (rows["epochs"].to_numpy(dtype=float) if "epochs" in rows
              else np.full(len(rows), float(STORED_V1_EPOCHS)))
    mean, sigma = np.array([_lognormal(v) for v in k]).reshape(-1, 2).T
    need = np.exp(mean + sigma * rng.standard_normal(len(rows)))
    learned = need <= budget
    above = rng.random(len(rows)) < np.array(
        [V1_ABOVE_CHANCE_AT_BUDGET[min(v, max(V1_ABOVE_CHANCE_AT_BUDGET))] for v in k])
    if truth == "alternative":
        stuck = (k == 3) & (rng.random(len(rows)) < V1_ALTERNATIVE_STUCK)
        learned &= ~stuck
        above &= ~stuck
    accuracy = np.where(learned, 1.0, np.where(above, 0.9, 0.5))
    return pd.DataFrame(dict(
        part="v1", model="k_parity", k=k, d=rows["d"].to_numpy(dtype=int),
        n=rows["n"].to_numpy(dtype=int), m=0, n_steps=0, seed=rows["seed"].to_numpy(dtype=int),
        epochs=budget.astype(int), iterations=np.where(learned, np.ceil(need), budget).astype(int),
        accuracy=accuracy, success=learned, specialised=learned, n_parameters=2 * k,
        learning_rate=0.1, batch_size=80000))


def _synthetic(rate, seeds=20, random_state=0):
    """v1 rows (k = 2, 3) whose k-parity model learns with probability ``rate``.

    A run that does not learn ends at chance after its whole budget (a failure).
    """
    rng = np.random.default_rng(random_state)
    rows = []
    for k in (2, 3):
        for seed in range(seeds):
            ok = bool(rng.random() < rate)
            rows.append(dict(part="v1", model="k_parity", k=k, d=16, m=0, n=40000, n_steps=1,
                             epochs=2000, iterations=1000 if ok else 2000,
                             accuracy=1.0 if ok else 0.5, n_parameters=100,
                             learning_rate=0.1, batch_size=80000, seed=seed, success=ok,
                             specialised=False))
    return pd.DataFrame(rows)


def v1_learns():
    """v1's model learns the k-parity in every seed."""
    return _synthetic(1.0)


def v1_rarely_learns():
    """v1's model learns in about a quarter of the seeds, the others at chance."""
    return _synthetic(0.25)
