"""The tables claims H1 and H3 are tried on, for ``_rules``: fixed ones where the paper
holds and where it does not, and ``simulate``, drawing a table at a design from the one-step
successes per step length and d of the stored full run.
"""

import numpy as np
import pandas as pd

from skxor.nn import attention_names
from ._cells import M_REGIME
from ._summary import representable_rows


# -- the power of the design: tables simulated where the paper holds, and where not ----

#: H1's spread, measured in the stored full run: softmax one-step successes ``(k, n)``
#: per step length and d, pooled over m >= M_REGIME (64, 128) and its 240 regime seeds
#: (a test recomputes them from the stored table).
H1_STORED = {
    1.0: {100: (0, 480), 300: (0, 480), 1000: (0, 480), 3000: (0, 480), 10000: (0, 480),
          30000: (0, 480), 100000: (0, 480)},
    10.0: {100: (402, 480), 300: (362, 480), 1000: (285, 480), 3000: (168, 480),
           10000: (40, 480), 30000: (0, 480), 100000: (0, 480)},
    100.0: {100: (448, 480), 300: (461, 480), 1000: (473, 480), 3000: (477, 480),
            10000: (475, 480), 30000: (478, 480), 100000: (480, 480)},
    1000.0: {100: (448, 480), 300: (461, 480), 1000: (473, 480), 3000: (477, 480),
             10000: (475, 480), 30000: (478, 480), 100000: (480, 480)},
}

#: Where the paper holds, no run succeeds more often than this (the stored 480/480 would
#: make every simulated run succeed): a conservative "with high probability".
H1_HOLDS_CAP = 0.97

#: H1's alternative: this share of the seeds fail in every run at one d (the largest).
H1_FAILING_SEEDS = 0.2


def _nearest(value, stored):
    """The key of ``stored`` nearest ``value`` on a log scale."""
    keys = np.array(sorted(stored), dtype=float)
    return keys[np.argmin(np.abs(np.log(keys) - np.log(float(value))))].item()


def _runs(rows, success):
    """One-step rows with the columns the claims read, from a success flag per row."""
    success = np.asarray(success, dtype=bool)
    return rows.assign(success=success, specialised=success,
                       support_mass_min=np.where(success, 1.0, 0.2),
                       max_weight=np.where(success, 1.0, 0.2),
                       loss_after_step=np.where(success, 0.0, 0.7))


def simulate_h1(design, truth, rng):
    """H1's table at ``design``: its softmax one-step runs in the regime (m >= M_REGIME).

    Each (d, m, seed) draws one uniform u, and its run at step length s succeeds when
    u < p(d, s) (the step lengths nested, as in the stored run, where steps 100 and
    1000 fail in the same 68 runs and step 10 only in more):

    * ``"holds"``: p(d, s) = the stored run's success share at (d, s) (:data:`H1_STORED`,
      the nearest stored d and step on a log scale), at most :data:`H1_HOLDS_CAP` = 0.97:
      the paper holds at every d at the stored spread (0.93 to 0.97 at steps 100 and 1000);
    * ``"alternative"``: the same, except that at the largest d each seed fails in every
      run with probability :data:`H1_FAILING_SEEDS` = 0.2 (a seed's keys that do not
      work at that d: 20% failing seeds at one d, the referee's size; the success share
      there is about 0.78, against "with high probability").

    Only the columns and rows H1's rule reads, so that the summary stays fast.
    """
    rows = design[(design["attention"] == "softmax") & (design["n_steps"] == 1)
                  & (design["n"] == 0) & (design["m"] >= M_REGIME)].reset_index(drop=True)
    if rows.empty:
        return _runs(design.head(1), [False])
    p = np.array([min(_stored_rate(H1_STORED, step, d), H1_HOLDS_CAP)
                  for d, step in zip(rows["d"], rows["step_length"])])
    run, _ = pd.factorize(pd.MultiIndex.from_frame(rows[["d", "m", "seed"]]))
    success = rng.random(run.max() + 1)[run] < p
    if truth == "alternative":
        seeds, which = np.unique(rows["seed"], return_inverse=True)
        failing = rng.random(seeds.size) < H1_FAILING_SEEDS
        success &= ~(failing[which] & (rows["d"] == rows["d"].max()).to_numpy())
    elif truth != "holds":
        raise ValueError(f"truth must be 'holds' or 'alternative'; got {truth!r}.")
    return _runs(rows, success)


def _stored_rate(stored, step, d):
    k, n = stored[_nearest(step, stored)][_nearest(d, stored[_nearest(step, stored)])]
    return k / n


#: H3's spread in the stored full run: no linear or erf one-step run succeeded (0 of
#: 3 840 linear runs where it can represent one bit, 0 of 12 120 in all).
H3_STORED = {"representable": (0, 3840), "all": (0, 12120)}

#: Where the paper holds, a run succeeds with this probability (above the stored 0: a
#: conservative failure claim).
H3_HOLDS_RATE = 0.01

#: H3's alternative: at one step length this share of the seeds succeed in every run
#: where linear attention can represent one bit (20%, twice the claim's 10%).
H3_LEARNING_SEEDS = 0.2

#: The step length the alternative acts at (the nearest the design has): the one at which
#: the library's 50-step linear runs learn where they can represent one bit (30/30).
H3_ALTERNATIVE_STEP = 10.0


def simulate_h3(design, truth, rng):
    """H3's table at ``design``: its unnormalised one-step runs where a head can represent
    one bit (linear with m + 1 >= d), the only runs H3 judges.

    * ``"holds"``: each run succeeds independently with probability
      :data:`H3_HOLDS_RATE` = 0.01 (the stored run: 0 of 3 840 such runs, 0 of 12 120
      linear and erf runs in all);
    * ``"alternative"``: the same, except that at one step length (the design's nearest
      to :data:`H3_ALTERNATIVE_STEP` = 10) each seed succeeds in every such run with
      probability :data:`H3_LEARNING_SEEDS` = 0.2: linear attention learning in 20% of
      the seeds where it can represent one bit, the claim's "more than 10%" at a size a
      referee would care about.

    Where the design has no such runs, its unnormalised one-step runs, all failing
    (the rule then says "not tested").
    """
    if truth not in ("holds", "alternative"):
        raise ValueError(f"truth must be 'holds' or 'alternative'; got {truth!r}.")
    rows = design[(design["n_steps"] == 1) & (design["n"] == 0)
                  & (design["attention"] != "softmax")].reset_index(drop=True)
    can = representable_rows(rows)
    if not can.any():
        rows = rows if len(rows) else design.head(1)
        return _runs(rows, np.zeros(len(rows), dtype=bool))
    rows = rows[can].reset_index(drop=True)
    success = rng.random(len(rows)) < H3_HOLDS_RATE
    if truth == "alternative":
        steps = np.unique(rows["step_length"])
        step = steps[np.argmin(np.abs(np.log(steps) - np.log(H3_ALTERNATIVE_STEP)))]
        seeds, which = np.unique(rows["seed"], return_inverse=True)
        learning = rng.random(seeds.size) < H3_LEARNING_SEEDS
        success |= learning[which] & (rows["step_length"] == step).to_numpy()
    return _runs(rows, success)


# -- tables on which the paper holds, and on which it is wrong ------------------------


def _synthetic(rate, d=(100, 1000, 10000), m=(64, 128), seeds=30, attention=("softmax",),
               step_length=(10.0, 100.0), mass=1.0, specialised=True, random_state=0):
    """A small one-step table: success with probability ``rate(d, m, step)`` per run."""
    rng = np.random.default_rng(random_state)
    rows = []
    for a in attention:
        for dd in d:
            for mm in m:
                for step in step_length:
                    p = rate(a, dd, mm, step)
                    for seed in range(seeds):
                        ok = bool(rng.random() < p)
                        rows.append(dict(attention=a, d=dd, m=mm, n=0, n_steps=1, seed=seed,
                                         step_length=step, success=ok,
                                         specialised=ok and specialised,
                                         support_mass_min=mass if ok else 0.2,
                                         loss_after_step=0.0 if ok else 0.7))
    return pd.DataFrame(rows)


def softmax_learns():
    """Softmax learns in every run at the long step, in the regime."""
    return _synthetic(lambda a, d, m, s: 1.0 if s == 100.0 else 0.3, attention=("softmax",))


def softmax_fails_at_large_d():
    """Softmax fails in every run at d = 10 000 (the regime the polylog claim is about)."""
    return _synthetic(lambda a, d, m, s: 0.0 if d >= 10000 else 1.0, attention=("softmax",))


def softmax_half():
    """Softmax succeeds in about 55% of runs everywhere (not 'with high probability')."""
    return _synthetic(lambda a, d, m, s: 0.55, attention=("softmax",))


def _rivals():
    # Every registered attention but softmax (linear and erf today), from the registry.
    return tuple(a for a in attention_names() if a != "softmax")


def linear_erf_fail():
    """Linear and erf fail in every run, with 40 seeds (enough to bound the rate at 0.1)."""
    return _synthetic(lambda a, d, m, s: 0.0, attention=_rivals(), seeds=40)


def linear_learns_sometimes():
    """Linear attention succeeds in about 45% of runs."""
    return _synthetic(lambda a, d, m, s: 0.45 if a == "linear" else 0.0,
                      attention=_rivals(), seeds=40)
