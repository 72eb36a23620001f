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

from .._profiling import check_transformer
from skxor.studies import Study, role_hooks
from ..._removed import module_getattr
from ._cells import (
    CHANCE_SHARE,
    FLAT_TOLERANCE,
    LEARNED,
    MODEL_SETTINGS,
    at_chance,
    budget_of,
    chance_plateau,
    loss_status,
    training_cell,
    training_cells,
    training_cost,
    training_key,
    training_table,
)
from ._display import LearnedShareDisplay
from ._presets import PARAMETERS, PRESETS
from ._summary import (
    HALF_WINDOW,
    LEARNED_UP_TO_RATE,
    censored_by_budget,
    cluster_counts,
    clusters,
    learned_up_to,
    summarize_training,
    training_summary,
)
from ._wording import budget_text, setting_description, setting_label, steps_to_learn_text


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
    cells=training_cells,
    cost=training_cost,
    tabulate=training_table,
    summary=training_summary,
    **role_hooks(__name__),
    key=("function", "n_bits", "model_setting", "seed", "random_state", "d_model",
         "n_layers", "n_heads", "learning_rate", "batch_size", "n_steps", "check_every",
         "target_accuracy", "exhaustive_max", "n_eval", "n_samples"),
    setting=("d_model", "n_layers", "n_heads", "learning_rate", "batch_size", "n_steps",
             "budgets", "check_every", "target_accuracy", "exhaustive_max",
             "n_eval", "n_samples", "device", "random_state"),
    check=check_transformer,
)


training_sensitivity = STUDY.function(
    """Train on PARITY, MAJORITY and FIRST at growing N; accuracy and profiles.

    Parameters
    ----------
    preset : {"quick", "full", "paper"}, default="quick"
        ``quick`` (about a minute; rough, 2 seeds): N in {4, 6, 8}, D = 16,
        L = 2, at most 150 AdamW steps of 32 strings, in the library's model
        setting and in Köver et al.'s with Xavier-uniform init.
        ``full`` (what the documents cite; about 2 hours with
        ``n_jobs=2`` on 2 cores, 4.1 CPU-hours in the stored run): the library's model setting and Köver et
        al.'s with Xavier-uniform init, each labelled, N in {4, 8, 16, 32,
        64, 128}, D = 16, L = 2, AdamW at learning rate 0.001 on batches of
        128 strings, 20 seeds, budgets: PARITY 20 000 steps at N = 4 and 8,
        12 000 at N = 16 and 200 beyond (where no budget within reach
        learns it), MAJORITY 4 000, FIRST 1 000. ``paper``: as ``full``, in the
        library's setting and in Köver et al.'s with each of their four init
        schemes (2.5x its cost; run it with ``n_jobs``, a dask
        ``scheduler`` or ``device="cuda"``, and a ``checkpoint_dir``).
    %(study_options)s
    **overrides
        Replace preset entries: ``random_state`` (int, default 0: seeds the
        networks, the training strings and the evaluation), ``function``
        (names among PARITY, MAJORITY, FIRST), ``n_bits``,
        ``model_setting`` (names among :data:`MODEL_SETTINGS`: ``"library"``,
        ``"paper_uniform"``, ``"paper_normal"``, ``"paper_xavier_uniform"``,
        ``"paper_xavier_normal"``) (lists); ``d_model``, ``n_layers``,
        ``n_heads``, ``learning_rate``, ``batch_size``, ``n_steps``
        (budget), ``budgets`` (budgets per function and N that differ from
        ``n_steps``: a list of dicts with ``n_steps`` and ``function`` and/or
        ``n_bits``, e.g. ``[{"function": "MAJORITY", "n_steps": 6000}]``; the
        first block naming a run sets its budget; see :func:`budget_of`),
        ``check_every`` (steps between accuracy checks), ``target_accuracy``
        (early stop), ``seeds``, ``exhaustive_max`` (largest N evaluated and
        profiled over all strings, at most 20), ``n_eval`` (evaluation strings beyond
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
    >>> from skxor.papers import training_sensitivity
    >>> df = training_sensitivity(function=["MAJORITY"], n_bits=[5], seeds=1)
    >>> df[["function", "n_bits", "model_setting", "learned", "stop"]].values.tolist()
    [['MAJORITY', 5, 'library', True, 'target'], ['MAJORITY', 5, 'paper_xavier_uniform', True, 'target']]
    """)



__all__ = [
    "CHANCE_SHARE",
    "LearnedShareDisplay",
    "FLAT_TOLERANCE",
    "HALF_WINDOW",
    "LEARNED",
    "LEARNED_UP_TO_RATE",
    "MODEL_SETTINGS",
    "PARAMETERS",
    "PRESETS",
    "STUDY",
    "at_chance",
    "budget_of",
    "budget_text",
    "chance_plateau",
    "censored_by_budget",
    "cluster_counts",
    "clusters",
    "learned_up_to",
    "loss_status",
    "setting_description",
    "setting_label",
    "steps_to_learn_text",
    "training_cells",
    "training_key",
    "summarize_training",
    "training_cell",
    "training_sensitivity",
    "training_summary",
]

#: plot_<study>, report_<study> and headline were removed: an import of one says
#: how the study is rendered now (get_study(name).render(hook, table)).
__getattr__ = module_getattr(__name__, ["training_sensitivity"])
