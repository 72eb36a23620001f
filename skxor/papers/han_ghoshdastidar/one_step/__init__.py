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


from skxor.nn import attention_constraint, attention_names
from skxor.studies.reporting import TIME_COLUMNS
from skxor.studies import AT_LEAST_TWO, NON_NEGATIVE, POSITIVE, SAMPLES, STEP_LENGTH, Grid
from skxor.studies import Study, role_hooks
from ..._removed import module_getattr
from ._cells import (
    SUCCESS_ACCURACY,
    dominant_accuracy,
    costly_first,
    every_one_step_cell,
    one_step_cell,
    one_step_cost,
    score_heads,
)
from ._display import (
    OneStepSuccessDisplay,
    attention_maps,
    plot_attention_maps,
)
from ._summary import best_steps, one_step_summary, summarize_one_step


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
    # Seeds of the one-step (T = 1) cells the claims judge: softmax at m >= M_REGIME (H1)
    # and unnormalised attention where it can represent one bit (H3); the other cells
    # run `seeds` (0 or at most `seeds`: every cell runs `seeds`).
    "regime_seeds": [NON_NEGATIVE],
    # (d, m) pairs added for the unnormalised attention types that can put all their
    # weight on one bit there (linear: m + 1 >= d), every step length and T, for H3.
    "one_bit": [list],
}

PRESETS = {
    "quick": dict(
        attention=list(attention_names()),
        d=[100, 1000, 10000],
        # In H1's regime (m >= 64), with 24 seeds: 4 choose the step length, and
        # 20 x 2 runs per d decide H1: up to 4 failures of 40 still read reproduced
        # (P = 0.91 at d = 100's stored rate 0.94); 16 seeds gave 26/28 = [0.69, 1.00].
        m=[64, 128],
        n=[0],
        seeds=24,
        step_length=[1.0, 10.0, 100.0, 1000.0],
        n_steps=[1, 50],
        n_test=2000,
        regime_seeds=0,
        one_bit=[],
    ),
    # Only the differences from quick.
    "full": dict(
        d=[100, 300, 1000, 3000, 10000, 30000, 100000],
        m=[8, 16, 32, 64, 128],
        seeds=30,
        n_test=10000,
        # The claims' cells: H1 (softmax, m >= 64) on 240 seeds (40 choose the step
        # length, 200 x 2 runs per d decide it), H3 where linear attention can represent
        # one bit (m + 1 >= d) on 240 seeds too (simulate_h1, simulate_h3 in _rules.py).
        # Power, 200 simulated tables each way (P(reproduced | holds), P(not reproduced |
        # alternative)): H1 1.00 [0.98, 1.00], 0.99 [0.97, 1.00] here against 1.00, 0.12
        # [0.08, 0.17] at the 30-seed design; H3 1.00 [0.98, 1.00], 0.99 [0.97, 1.00] here
        # against 0.00, 0.00 there (30 seeds < the 35 a claimed failure needs). Dry run:
        # 41 040 cells, about 73 min on 2 workers; the stored run took 75 min (load 3-9).
        regime_seeds=240,
        one_bit=[[100, 99], [100, 256], [300, 512]],
    ),
}


def _check(params):
    # Each one_bit entry is a (d, m) pair within the axes' constraints.
    for pair in params["one_bit"]:
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in pair)
                and pair[0] >= 2 and pair[1] >= 1):
            raise ValueError(f"one_bit must be a list of [d, m] pairs of ints (d >= 2, "
                             f"m >= 1); got {params['one_bit']!r}.")


def study_cells(params):
    """The study's cells: the grid on ``seeds`` seeds; the ``one_bit`` (d, m) pairs for
    every unnormalised attention type that can represent one bit there (every step
    length and T); and the judged one-step cells (:func:`_judged_cell`) on
    ``regime_seeds`` seeds. A grid cell's key is the same as without the additions.

    Examples
    --------
    >>> from skxor.papers.han_ghoshdastidar.one_step import STUDY, study_cells
    >>> params = STUDY.params("quick", {"d": [100], "m": [8, 64], "seeds": 2,
    ...                                 "step_length": [100.0], "n_steps": [1],
    ...                                 "regime_seeds": 3, "one_bit": [[100, 99]]})
    >>> sorted((c["attention"], c["m"], c["seed"]) for c in study_cells(params)
    ...        if c["seed"] == 2 or c["m"] == 99)
    ... # doctest: +NORMALIZE_WHITESPACE
    [('linear', 99, 0), ('linear', 99, 1), ('linear', 99, 2), ('softmax', 64, 2)]
    """
    return every_one_step_cell(params, STUDY.grid_cells)


def _sweep_cells(params):
    # Every cell, costly first (better load balance across workers).
    return costly_first(study_cells(params))


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
    cells=_sweep_cells,
    check=_check,
    cost=one_step_cost,
    summary=one_step_summary,
    **role_hooks(__name__),
    # regime_seeds and one_bit only add cells (each with its own key): not the setting,
    # so that runs with and without them share rows and the stored setting stays valid.
    setting=("n_test",),
    floor="the steps (or fits, for n > 0) and exact losses of every cell",
)

one_step = STUDY.function(
    """Success, loss and head specialisation per attention type, d, m, step length and T.

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick``: d in {1e2, 1e3, 1e4}, m in {64, 128} (H1's regime), step
        lengths 1, 10, 100 and 1000, T in {1, 50} steps, 24 seeds, population
        steps (a few minutes on one core). ``full``: d up to 1e5, m from 8 to 128, 30
        seeds, and the claims' one-step cells on 240 seeds: softmax at m >= 64 (H1)
        and linear attention where it can represent one bit, (d, m) = (100, 99),
        (100, 128), (100, 256), (300, 512) (H3) (41 040 cells; about 40 minutes on
        2 cores).
    %(study_options)s
    **overrides
        Replace preset entries: ``attention``, ``d``, ``m``, ``n`` (lists; n=0
        is the exact population step, n>0 a full-batch step on n samples),
        ``step_length`` and ``n_steps`` (lists: the length of each
        normalised step, and T), ``seeds`` (int), ``n_test`` (largest number
        of test inputs a cell draws; most cells are scored exactly or stop
        early, see :func:`score_heads`), ``regime_seeds`` (int: seeds of the
        one-step cells the claims judge, see :func:`study_cells`; 0 or at most
        ``seeds``: every cell runs ``seeds``), ``one_bit`` (list of [d, m]
        pairs added for the attention types that can represent one bit there).

    Returns
    -------
    results : pandas.DataFrame
        One row per (attention, d, m, n, step_length, n_steps, seed) with
        ``loss_after_step``, ``support_mass_min``, ``max_weight``,
        ``specialised``, ``test_accuracy``, ``accuracy_low``,
        ``accuracy_high``, ``n_scored``, ``scoring``, ``success``,
        ``seconds`` and ``floor_seconds``.

        %(study_attrs)s

    Examples
    --------
    >>> from skxor.papers import one_step
    >>> df = one_step(d=[100], m=[32], seeds=3, step_length=100.0, n_steps=1)
    >>> df.groupby("attention")["success"].mean().to_dict()
    {'erf': 0.0, 'linear': 0.0, 'softmax': 1.0}
    """)


__all__ = [
    "OneStepSuccessDisplay",
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
    "one_step_summary",
    "plot_attention_maps",
    "score_heads",
    "study_cells",
    "summarize_one_step",
]

#: plot_<study>, report_<study> and headline were removed: an import of one says
#: how the study is rendered now (get_study(name).render(hook, table)).
__getattr__ = module_getattr(__name__, ["one_step"])
