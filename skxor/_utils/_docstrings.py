"""Shared numpydoc entries, written once and filled into every docstring that uses them.

A docstring line holding only ``%(name)s`` (indented as the entry should be)
is replaced by ``DOCS[name]``, the way MNE-Python's ``fill_doc`` and SciPy's
``doccer`` share parameter descriptions. Only whole lines are replaced, so a
``%`` anywhere else in a docstring stays as written, and an unknown name
raises at import time rather than leaving a placeholder in the docs.

Examples
--------
>>> from skxor._utils._docstrings import fill_doc
>>> @fill_doc
... def f(spins):
...     '''Do nothing.
...
...     Parameters
...     ----------
...     %(spins)s
...     '''
>>> print(f.__doc__.splitlines()[4].strip())
spins : Tensor of shape (B, N)
"""

import re

DOCS = {
    # -- inputs ---------------------------------------------------------------------
    "n_bits": """n_bits : int
    The string length N.""",
    "X_strings": """X : array-like of shape (n_strings, N)
    The strings.""",
    "spins": """spins : Tensor of shape (B, N)
    Spins +-1.""",
    "X_fit": """X : array-like of shape (n_samples, n_features)
    Binary inputs: 0/1 bits or -1/+1 spins (or real values with
    ``binarize`` set). An X of ones only (neither 0 nor -1) is read as
    bits, as everywhere in skxor.""",
    "input_encoding": """input_encoding : {"01", "pm1", "2b-1"} or None, default=None
    How the strings are presented to the model: bits (``"01"``), spins
    ``1 - 2b`` (``"pm1"``, skxor's convention: bit 0 is +1) or spins
    ``2b - 1`` (``"2b-1"``: bit 1 is +1). None: a torch module's own
    ``input_encoding`` attribute (skxor's modules declare ``"pm1"``); a
    module that declares none is refused with a ValueError, since nothing
    in it says which encoding it was trained on (spins of the other sign
    give the complemented truth table, bits another function). A fitted
    estimator gets the encoding it was fitted with (``encoding_``, else
    bits), a callable bits.""",
    "X_predict": """X : array-like of shape (n_samples, n_features)
    Inputs in the encoding used in fit.""",
    "returns_self": """self : object
    The fitted estimator.""",
    # -- estimator parameters -----------------------------------------------------
    "n_layers": """n_layers : int, default=2
    Number of layers L.""",
    "n_heads": """n_heads : int, default=4
    Attention heads per layer.""",
    "binarize": """binarize : float or None, default=None
    If None, X must be 0/1 bits or -1/+1 spins. If a float, a value
    greater than it is bit 1 (spin -1), anything else bit 0.""",
    "dtype": """dtype : {"float32", "float64"}, default="float32"
    Precision of the network and its arithmetic.""",
    "target_function": """target_function : callable or None, default=None
    If set, train on fresh uniform strings labelled by
    ``target_function(bits)``: it gets an int64 array of 0/1 bits of shape
    (n, N) and returns n labels 0/1, -1/+1 or bools, 1/+1/True being
    ``classes_[1]`` (the functions of :mod:`skxor.boolean` qualify). The
    fitted estimator pickles (``pickle``, ``joblib.dump``) when the function
    does: a lambda or local function works for fitting, and pickling then
    raises a PicklingError naming ``target_function``. A y given to ``fit``
    must agree with it on every row of X (see ``fit``).""",
    "target_accuracy": """target_accuracy : float in (0, 1] or None, default=None
    Stop once the monitored accuracy reaches it; None trains for
    ``max_iter`` epochs without measuring.""",
    "verbose": """verbose : int, default=0
    0 is silent; 1 or more prints skorch's table of per-epoch losses.""",
    "callbacks": """callbacks : list or None, default=None
    skorch callbacks (``skorch.callbacks.Callback`` instances, or
    ``(name, callback)`` pairs) added to the ones the estimator uses
    itself, such as skorch's ``TensorBoard``, ``WandbLogger`` or
    ``MlflowLogger`` trackers or ``EarlyStopping(monitor="train_loss")``.
    They are notified at the start and end of training and of every epoch
    (``net.history`` holds ``train_loss``), not per batch: the training loop
    reads the loss once per epoch (each batch's entry holds its size
    only). ``fit`` uses them as given (a callback that records keeps its
    record), and ``clone`` copies them, so each fit of a ``GridSearchCV``
    has its own. The fitted estimator keeps no reference to them.""",
    # -- fitted attributes ------------------------------------------------------
    "encoding_": """encoding_ : {"01", "pm1", "binarized"}
    Encoding of X seen in fit, enforced in predict.""",
    "n_features_in_": """n_features_in_ : int
    Number of features seen in fit.""",
    "feature_names_in_": """feature_names_in_ : ndarray of shape (n_features,)
    Column names of X, when it had string column names.""",
    "loss_curve_": """loss_curve_ : list of float
    Mean training loss of each epoch, measured while the epoch trained.""",
    # -- plotting -----------------------------------------------------------------
    "ax": """ax : matplotlib Axes or None, default=None
    Where to draw; a new figure when None.""",
    "display_name": """name : str or None, default=None
    Legend label; the class name of ``f`` when None.""",
    # -- studies ------------------------------------------------------------------
    "study_params": """params : dict
    Validated parameters (:meth:`params`).""",
    "scheduler": """scheduler : str or None, default=None
    dask.distributed scheduler address.""",
    "study_attrs": """``attrs`` holds the parameters used (``params``), the preset they
equal (``preset``, None when overridden), the rows computed (``rows``),
and ``floor_seconds`` and ``floor_description`` (the summed floor time
and what it covers).""",
    "sample_complexity_table": """df : pandas.DataFrame
    The long table of :func:`sample_complexity`.
target : float or None, default=None
    Defaults to the table's ``target``.""",
}

# What fit records about y and X, in one entry for the estimators that share it.
DOCS["fitted_data_"] = "\n".join([
    """classes_ : ndarray of shape (2,)
    Labels; ``classes_[1]`` is the positive class (+1).""",
    *(DOCS[name] for name in ("encoding_", "n_features_in_", "feature_names_in_")),
])

# A display's plot(ax=None, *, name=None, ...): where to draw, and the label.
DOCS["plot_ax_name"] = DOCS["ax"] + """
name : str or None, default=None
    Legend label; overrides the one given at construction."""

# A study display's plot(ax=None, *, legend=True): a figure of several of its
# panels draws their legends once.
DOCS["plot_ax_legend"] = DOCS["ax"] + """
legend : bool, default=True
    Whether to draw the display's legends beside (or below) the axes; a
    figure of several panels draws one set for them all."""

# What a study display's plot sets, and how its from_table reads the table: the
# same in every study's display (``display_drawn`` ends with the legends' entry, whose
# description each display writes below it: which legends, and where).
DOCS["display_drawn"] = """ax_ : matplotlib Axes
    The axes drawn on (after :meth:`plot`).
figure_ : matplotlib Figure
    Its figure.
legends_ : list of matplotlib Legend"""
DOCS["display_table"] = """df : pandas.DataFrame
    The study's table: its function's result, or its stored table."""
# A study's summary function (``Study(summary=...)``): the whole Returns section's
# opening, the study's own parts listed after it; and the Parameters section of the
# functions that take only the study's table.
DOCS["returns_study_summary"] = """Returns
-------
summary : sklearn.utils.Bunch
    What the study's report, figures, headline and claims read, computed once
    per table:"""
DOCS["parameters_study_table"] = "Parameters\n----------\n" + DOCS["display_table"]
# A study's renderers (``render_figures``, ``render_report``): their Returns section's
# opening, what each figure or section shows written below it.
DOCS["returns_study_figures"] = """Returns
-------
figures : dict of str to matplotlib.figure.Figure"""
DOCS["returns_study_report"] = """Returns
-------
text : str"""
DOCS["display_keys"] = """keys_ : tuple of (dict, dict)
    The entries of those two legends (colours, then line styles or kinds
    drawn), as :func:`~skxor.studies.figures.key_legends` takes them, for a
    legend placed elsewhere."""

# The whole Parameters section of the methods that take only X (predict and
# the like), of the functions that take only a truth table, and of the
# Boolean-function classes that take only n_bits.
DOCS["parameters_X_predict"] = "Parameters\n----------\n" + DOCS["X_predict"]
DOCS["parameters_table"] = """Parameters
----------
table : array-like of shape (2^N,)
    0/1 truth table."""
DOCS["parameters_n_bits"] = "Parameters\n----------\n" + DOCS["n_bits"]

_PLACEHOLDER = re.compile(r"^(?P<indent>[ ]*)%\((?P<name>\w+)\)s[ ]*$", re.MULTILINE)


def fill_doc(obj):
    """Fill the ``%(name)s`` lines of ``obj.__doc__`` from :data:`DOCS`; return ``obj``."""
    return _fill(obj, DOCS)


def fill_doc_with(entries):
    """A :func:`fill_doc` that reads ``entries`` too: those one package shares among
    its own docstrings (:func:`study_examples`), beside the library's :data:`DOCS`.

    Examples
    --------
    >>> from skxor._utils._docstrings import fill_doc_with
    >>> @fill_doc_with({"setting": "Runs of d = 100."})
    ... def f():
    ...     '''Do nothing.
    ...
    ...     %(setting)s
    ...     '''
    >>> f.__doc__.splitlines()[2].strip()
    'Runs of d = 100.'
    """
    return lambda obj: _fill(obj, {**DOCS, **entries})


def study_examples(run):
    """The entries a study's reporting hooks fill their Examples sections from.

    ``run`` is the study's small example run (doctest lines that leave its
    table in ``df``), written once for its report, figures and bullet:
    ``%(examples)s`` is the section's heading and the run,
    ``%(report_examples)s`` those and the report rendered from it (``report``).

    Examples
    --------
    >>> from skxor._utils._docstrings import study_examples
    >>> study_examples(">>> df = None")["report_examples"].splitlines()  # doctest: +NORMALIZE_WHITESPACE
    ['Examples', '--------', '>>> df = None', '>>> report = STUDY.render("report", df)']
    """
    examples = "Examples\n--------\n" + run
    return {"examples": examples,
            "report_examples": examples + '\n>>> report = STUDY.render("report", df)'}


def _fill(obj, docs):
    doc = obj.__doc__
    if not doc:  # python -OO strips docstrings
        return obj

    def entry(match):
        try:
            text = docs[match["name"]]
        except KeyError:
            raise KeyError(f"{obj.__qualname__}: no shared docstring entry "
                           f"{match['name']!r}") from None
        return "\n".join(match["indent"] + line for line in text.splitlines())

    obj.__doc__ = _PLACEHOLDER.sub(entry, doc)
    return obj
