"""The claims the k sparse study tests: H6 of Han & Ghoshdastidar, from v1 (arXiv 2502.07553v1).

The k-head claim is v1's (v2 lists k > 2 as a limitation), so it is judged on
v1's k-parity model trained with its authors' recipe; one step at k > 2 (not
claimed by either version) and the library's multi-step extension are shown
in the row, population and sample rows both, without a verdict.
"""

import json

import numpy as np
import pandas as pd

from skxor.studies.claims import (Claim, censored_rate_part, judged, listed, shown,
                                  unit_interval, units_to_decide)
from skxor.studies.stats import flag_columns, format_interval
from ..._common import budget_censored

_PAPER, _SOURCE = "Han & Ghoshdastidar", "arXiv 2502.07553v1 (v2 lists k > 2 as a limitation)"


#: A v1 run whose accuracy on all strings is within this of 1/2 ended at chance.
V1_CHANCE_MARGIN = 0.05


def v1_censored(rows):
    """Which of v1's k-parity runs are censored by the budget (the shared rule).

    :func:`~skxor.papers._common.budget_censored`, the training study's K3
    rule too: a run that did not learn is censored when it ran to its budget
    of epochs (``iterations >= epochs``; it stops early only at training
    accuracy 1) while its accuracy on all strings was still more than
    :data:`V1_CHANCE_MARGIN` above 1/2; one at chance there is a failure.

    Examples
    --------
    >>> import pandas as pd
    >>> from skxor.papers.han_ghoshdastidar.k_sparse._rules import v1_censored
    >>> rows = pd.DataFrame({"success": [True, False, False, False],
    ...                      "iterations": [1400, 2000, 2000, 900], "epochs": 2000,
    ...                      "accuracy": [1.0, 0.95, 0.51, 0.9]})
    >>> v1_censored(rows).tolist()
    [False, True, False, False]
    """
    rows = flag_columns(rows, ["success"])
    return pd.Series(budget_censored(rows["success"], rows["iterations"] >= rows["epochs"],
                                     rows["accuracy"] > 0.5 + V1_CHANCE_MARGIN),
                     index=rows.index)


def _budget(rows):
    setting = json.loads(rows["setting"].iloc[0]) if "setting" in rows else {}
    epochs = int(rows["epochs"].max())
    at_budget = int((rows["iterations"] >= epochs).sum())
    censored = int(v1_censored(rows).sum())
    return (f"budget {epochs} epochs, learning rate "
            f"{setting.get('v1_learning_rate', rows['learning_rate'].iloc[0]):g}, batch "
            f"{int(setting.get('v1_batch_size', rows['batch_size'].iloc[0]))}; {at_budget}/"
            f"{len(rows)} runs stopped at the budget, {censored} of them above chance "
            f"(censored)")


def _pooled(rows, label):
    """Per k: successes over the runs, the seeds the units (shown, not judged)."""
    texts = []
    for k, group in rows.groupby("k"):
        rate, low, high, n, seeds = unit_interval(group["success"], group["seed"])
        texts.append(f"k = {k}: {int(group['success'].sum())}/{n} = "
                     f"{format_interval(rate, low, high)}")
    return f"{label}: " + "; ".join(texts)


def _claim_k_sparse(summary):
    if "part" not in summary.table:
        return dict(value="no k-sparse rows", verdict="not tested", ours="-")
    v1 = summary.v1
    theirs = v1[v1["model"] == "k_parity"] if len(v1) else v1
    censored = v1_censored(theirs) if len(theirs) else None
    parts = [censored_rate_part(f"v1's k-parity model, k = {k}", g["success"],
                                censored[g.index], g["seed"], "with high probability")
             for k, g in theirs.groupby("k")]
    if len(theirs):
        parts.append(shown("budget", f"v1's model: {_budget(theirs)}"))
    ours_v1 = v1[v1["model"] != "k_parity"] if len(v1) else v1
    if len(ours_v1):
        parts.append(shown("library on v1's data", _pooled(
            ours_v1, f"the library's k-head model on v1's data (d = {listed(ours_v1['d'])}, "
            f"m = {listed(ours_v1['m'])}; shown)")))
    steps = summary.steps
    if len(steps):
        longest = int(steps["n_steps"].max())
        for n, data in steps.groupby("n"):
            kind = "population" if n == 0 else f"n = {n} samples"
            one = data[(data["n_steps"] == 1) & (data["k"] > 2)]
            if len(one):
                parts.append(shown("one step", _pooled(
                    one, f"one step, {kind}, k > 2 (not claimed by the paper; shown)")))
            many = data[(data["n_steps"] == longest) & (data["k"] > 2)]
            if longest > 1 and len(many):
                parts.append(shown("multi-step", _pooled(
                    many, f"{longest} steps, {kind} (the library's extension; shown)")))
    if not parts:
        return dict(value="no v1 or step runs", verdict="not tested", ours="-")
    return judged(
        parts,
        ours=f"v1's k-parity model with its authors' recipe at d = {listed(theirs['d'])}, "
        f"{theirs['seed'].nunique()} seeds (judged); the library's k-head model, normalised "
        f"steps, d = {listed(steps['d'])}, m = {listed(steps['m'])}, "
        f"{steps['seed'].nunique()} seeds, inits {listed(steps['init'])} (shown)"
        if len(steps) and len(theirs) else "-",
        units="v1: one run per seed; the library's rows pooled over d, m and init per k, "
        "the seeds the units",
    )


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


CLAIMS = (
    Claim(id="H6", min_units=units_to_decide("with high probability"),
          paper=_PAPER, source=_SOURCE, name="k-sparse parity with k heads",
          paper_setting="v1: a k-head model for a k-sparse parity (the extension beyond XOR), "
          "trained by gradient descent with the authors' recipe",
          statement="with k heads, gradient training learns a parity of k hidden bits",
          strength="with high probability (v1); not claimed in v2",
          regime="v1's model and recipe (d = 16, its budget stated in the row)",
          rule_text="per k, v1's model's success judged 'with high probability', a run "
          "that did not learn censored when its budget of epochs stopped it while its "
          f"accuracy on all strings was more than {V1_CHANCE_MARGIN:g} above 1/2 (the "
          "training study's rule: counted both ways, a part judged only where both "
          "completions agree) and a failure at chance; Holm over the k; the library's "
          "one-step and multi-step rows are shown without a verdict (at k >= 3 the "
          "antisymmetric init starts its heads exactly tied, so which head wins is decided "
          "by floating-point rounding and those cells can differ between CPU kinds)",
          contradicted_by="v1's model failing to learn, at chance after its budget, in more "
          "than 10% of seeds at some k (upper end below 0.9)",
          rule=_claim_k_sparse, holds=(v1_learns,), counterfactuals=(v1_rarely_learns,),
          simulate=simulate),
)
