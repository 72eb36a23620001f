"""Parameter efficiency: trainable parameters needed for sparse XOR against d.

Han & Ghoshdastidar (2025, arXiv 2502.07553) prove that a one-layer softmax
transformer learns the 2-sparse XOR of d bits after one gradient step with
``n_heads * m = O(polylog d)`` trainable parameters (the queries; the
``d * m`` positional keys are random and frozen), while any two-layer
feed-forward network has at least ``d + 3``. This study measures how many
trainable parameters each model needs, against d, and reports the frozen and
total counts beside them.

Models (one recipe each, the same for every d, size and seed)
--------------------------------------------------------------
* ``"transformer_population_one_step"`` -- the paper's setting: 2 softmax
  heads, size m, one normalised step of length ``one_step_length`` (100,
  the estimator's default) on the exact population gradient
  (:func:`skxor.theory.population_step`): infinite data.
* ``"transformer_population"`` -- the same start, ``transformer_steps`` (T =
  5) normalised population steps of length ``step_length`` (20).
* ``"transformer"`` -- :class:`~skxor.SparseXORTransformer` with those T
  steps on the finite training set (full batch). Five short steps need far
  fewer samples than one long one (see the sample-complexity study).
  All three have ``2 m`` trainable and ``d m`` frozen parameters.
* ``"ffnn"`` -- :class:`~skxor.FFNNParityBaseline`, two-layer, ReLU, size =
  width, every weight trained: ``width (d + 2) + 1`` trainable parameters.
  Adam, learning rate ``ffnn_learning_rate`` (0.01), mini-batches of
  ``ffnn_batch_size`` (128), logistic loss, whole epochs until at least
  ``ffnn_steps`` (256) mini-batch steps are taken (at least one epoch).
* ``"ffnn_random_features"`` -- the same network and recipe with the first
  layer frozen at its random initialization (``train_hidden=False``): only
  the read-out is trained, ``width + 1`` trainable and ``width (d + 1)``
  frozen parameters, so that the comparison is not only about a trained
  dense layer; its widths are ``rf_width``.
* ``"ffnn_online"`` -- the trained FFNN on fresh strings (online SGD, the
  regime in which SGD on sparse parity is analysed): every step draws
  ``ffnn_batch_size`` new uniform inputs, so no training set bounds d and it
  runs to ``online_d_max`` (2048 in the full preset) over the transformer's
  range of d. Budget: at most ``max(online_steps_min, online_steps_per_d *
  d)`` steps (``max(2048, 32 d)``), stopping once 1024 monitoring inputs are
  all right; widths ``online_width`` from 2 (one ReLU unit cannot compute
  the XOR). The table gives the steps the succeeding runs took
  (``steps_median``, ``steps_max``) beside the budget, and the failing runs
  with their median test accuracy (``failures``, ``failure_accuracy``).

Data
----
The finite-sample models are trained on ``n(d) = max(n_train_min,
ceil(n_train_per_d2 * d**2))`` uniform inputs (``max(2048, d**2)``);
every model is scored on ``n_test`` (5000) fresh inputs. ``d**2`` is set by
the transformer, the more sample-hungry of the two trained models, so that
neither is starved of data at the sizes they need; random features need
about as many samples as features, so at large d they may be limited by
n(d) as much as by width (the report says so). The finite-sample models run
only up to ``samples_d_max``; the population rows run at every d.

What "needed" means
-------------------
Every size tried gets its own ``seeds`` independent runs: each cell (d,
size, seed) draws its support, training set, test set and model from seeds
derived from ``(random_state, d, size, seed)`` (:func:`cell_seeds`); models
of the same size at the same (d, seed) share them (a paired comparison).
The size **needed** at d is the smallest size tried at which at least
``success_share`` (80%) of its seeds reach ``threshold`` (99%) test
accuracy, with the Wilson 95% interval of that share. Sizes are tried
upwards from the smallest; after the first size meeting the rule,
``sizes_beyond`` (2) larger ones are run as well, so that a non-monotone
result (a larger size meeting the rule less often) is seen, and shown, not
smoothed. A (model, d) where no size tried meets the rule is *not reached*.

Growth with d is the least-squares slope of log(trainable parameters
needed) against log d, with a bootstrap 95% interval (each size's seeds
resampled) from at least 8 seeds per size; with fewer it is marked rough.
About 1 means Omega(d); a size proportional to log d gives a local slope
that falls with d (0.27 from d = 16 to 128), so slopes this small cannot
separate polylogarithmic growth from a small power of d.
Measured results are in ``docs/results/measured.rst``.

This module declares the study and its public function; ``_presets`` holds
its parameters and presets, ``_cells`` the models, one cell and the sweep of
rounds, ``_summary`` the size needed and the slopes, ``_display`` the
figure, ``_section`` the report section, ``_bullet`` the headline bullet and
``_rules`` the claim it judges (H2).
"""


from skxor.studies import Study, role_hooks
from ..._removed import module_getattr
from ._cells import (
    DISPLAY_NAMES,
    GRIDS,
    MODELS,
    SAMPLE_MODELS,
    SIZE_NAMES,
    _normalised,
    cell_data,
    cell_seeds,
    every_cell,
    ffnn_epochs,
    parameter_scaling_cell,
    parameter_scaling_cost,
    searched,
    size_rounds,
    size_cell,
    training_size,
    transformer_start,
)
from ._display import ParametersNeededDisplay
from ._presets import PARAMETERS, PRESETS
from ._summary import (
    parameter_scaling_summary,
    parameter_slopes,
    size_counts,
    summarize_parameter_scaling,
)


def _check(params):
    # Rules between parameters: something must be left to run.
    if not searched(_normalised(params)):
        raise ValueError(
            f"nothing to run: every d ({sorted(params['d'])}) exceeds "
            f"samples_d_max={params['samples_d_max']} (the finite-sample models) or "
            f"online_d_max={params['online_d_max']} (the online FFNN), beyond which only "
            "the population models run, and model includes none of them."
        )


def _compute(params, **sweep):
    params = _normalised(params)
    cells = size_rounds(params, **sweep)
    summary = summarize_parameter_scaling(cells, params["threshold"], params["success_share"])
    # Records and plain dicts, not DataFrames: pandas compares attrs with ==
    # when concatenating.
    summary.attrs["cells"] = cells.to_dict("records")
    summary.attrs["params"] = {k: v for k, v in params.items()}
    return summary


STUDY = Study(
    name="parameter_scaling",
    description=(
        "Trainable (and frozen) parameters needed for 99% test accuracy vs d: the "
        "transformer after one population step (the paper's setting) and after T "
        "steps (population and samples), a trained two-layer FFNN (on a training set, and "
        "online on fresh samples to d = 2048) and one with a frozen "
        "random first layer; every size with its own seeds, the smallest size where "
        "80% of them succeed (Wilson), log-log slopes (bootstrap from 8 seeds per size)."
    ),
    parameters=PARAMETERS,
    presets=PRESETS,
    cell=parameter_scaling_cell,
    compute=_compute,
    cells=every_cell,
    cost=parameter_scaling_cost,
    stops_early=("sizes are tried upwards and the search stops sizes_beyond sizes after the "
                 "first that meets the rule"),
    summary=parameter_scaling_summary,
    **role_hooks(__name__),
    # One row per (model, d) of a setting: seeds, threshold, size grids, training
    # sets, budgets and random state all define the row (the runner merges on
    # key plus setting), so a run with other settings never replaces it.
    # samples_d_max and online_d_max only choose which d the finite-sample models
    # and the online FFNN run.
    key=("model", "d"),
    check=_check,
    setting=("seeds", "threshold", "success_share", "sizes_beyond", "n_test", "n_train_min",
             "n_train_per_d2", "transformer_m", "transformer_steps", "step_length",
             "one_step_length", "ffnn_width", "rf_width", "ffnn_activation", "ffnn_steps",
             "ffnn_batch_size", "ffnn_learning_rate", "online_width", "online_steps_min",
             "online_steps_per_d", "random_state"),
)

parameter_scaling = STUDY.function(
    """Trainable parameters needed for 99% test accuracy against d.

    Each (model, d) tries sizes from the smallest upwards, every size with
    its own ``seeds`` independent runs (one :func:`~skxor.studies.run_sweep`
    round per size, all (model, d) together), until one size meets the rule
    (at least ``success_share`` of its seeds reach ``threshold``) and
    ``sizes_beyond`` more have run. The models, their recipes and the rule
    are described in the module documentation.

    Parameters
    ----------
    preset : {"quick", "full"}, default="quick"
        ``quick``: d in {16, 32, 64, 128}, five models (all but the online
        FFNN), 5 seeds per size (rough). ``full``: finite samples for d up
        to 256, the online FFNN up to d = 2048, the population rows up to d
        = 8192, 10 seeds per size.
    %(study_options)s
    **overrides
        Replace preset entries: ``random_state`` (int, default 0: the root of
        every cell's data and model seeds), ``model`` (list of
        "transformer_population_one_step", "transformer_population",
        "transformer", "ffnn", "ffnn_random_features", "ffnn_online"), ``d``,
        ``samples_d_max`` (the finite-sample models skip larger d),
        ``online_d_max`` (the online FFNN skips larger d), ``online_width``
        (its widths), ``online_steps_min`` and ``online_steps_per_d`` (its
        step budget ``max(online_steps_min, online_steps_per_d * d)``),
        ``seeds``, ``threshold``, ``success_share``, ``sizes_beyond``,
        ``n_test``, ``n_train_min``, ``n_train_per_d2``, ``transformer_m``,
        ``ffnn_width`` and ``rf_width`` (the size grids),
        ``transformer_steps``, ``step_length``, ``one_step_length``,
        ``ffnn_activation``, ``ffnn_steps``, ``ffnn_batch_size``,
        ``ffnn_learning_rate``.

    Returns
    -------
    results : pandas.DataFrame
        One row per (model, d), see :func:`summarize_parameter_scaling`.
        ``results.attrs`` holds ``cells`` (every cell as a list of records:
        one per model, d, size and seed run) and ``params`` (the
        parameters used).

    Examples
    --------
    >>> from skxor.papers import parameter_scaling
    >>> df = parameter_scaling(model=["transformer_population"], d=[16, 64], seeds=3,
    ...                        transformer_m=[2, 8, 32], n_test=2000)
    >>> df[["d", "size", "params", "frozen", "seeds_reached"]].to_dict("list")
    {'d': [16, 64], 'size': [8.0, 32.0], 'params': [16.0, 64.0], 'frozen': [128.0, 2048.0], 'seeds_reached': [3, 3]}
    """)

__all__ = [
    "DISPLAY_NAMES",
    "GRIDS",
    "MODELS",
    "PARAMETERS",
    "ParametersNeededDisplay",
    "PRESETS",
    "SAMPLE_MODELS",
    "SIZE_NAMES",
    "STUDY",
    "cell_data",
    "cell_seeds",
    "ffnn_epochs",
    "parameter_scaling",
    "parameter_scaling_summary",
    "parameter_scaling_cell",
    "parameter_slopes",
    "size_counts",
    "summarize_parameter_scaling",
    "training_size",
    "transformer_start",
]

#: plot_<study>, report_<study> and headline were removed: an import of one says
#: how the study is rendered now (get_study(name).render(hook, table)).
__getattr__ = module_getattr(__name__, ["parameter_scaling"])
