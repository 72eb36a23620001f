"""SensitivityProfiler: fit a classifier, then profile the Boolean function it computes."""

from numbers import Real

import numpy as np
import torch
from sklearn.base import BaseEstimator, MetaEstimatorMixin, TransformerMixin, clone
from sklearn.metrics import accuracy_score
from sklearn.utils import get_tags
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted, column_or_1d

from .._utils._sklearn_compat import (
    HasMethods,
    Interval,
    StrOptions,
    check_feature_names_in,
    fit_context,
)
from .._utils._bits import bits_to_index, check_exhaustive_bits
from .._utils._docstrings import fill_doc
from .._utils._encoding import MODEL_INPUT_ENCODINGS, detect_encoding, to_bits
from .._utils._validation import (
    Integers,
    check_finite_params,
    restore_on_error,
    validate_binary_data,
)
from .._utils._evaluate import DEFAULT_BATCH_SIZE, ModelEvaluator
from ._profile import iter_flips, profile_model, resolve_method


def _inner_has(method):
    """available_if check: the (fitted, else template) inner classifier has ``method``."""

    def check(self):
        inner = getattr(self, "estimator_", None)
        return hasattr(inner if inner is not None else self._inner_template(), method)

    return check


def _delegated(method, what, returns):
    """A profiler method returning the fitted classifier's ``method`` on X.

    X is validated against fit and presented in the classifier's own
    encoding (see ``SensitivityProfiler._inner_X``).
    """

    def delegate(self, X):
        return self._delegate(method, X)

    delegate.__name__ = method
    delegate.__qualname__ = f"SensitivityProfiler.{method}"
    delegate.__doc__ = f"""{what} of the fitted classifier.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Inputs in the encoding used in fit.

    Returns
    -------
    {returns}
    """
    return delegate


class SensitivityProfiler(TransformerMixin, MetaEstimatorMixin, BaseEstimator):
    """Fit a classifier and profile the sensitivity of the function it computes.

    The fitted classifier is a Boolean function ``f: {0,1}^N -> {0,1}`` (its
    predicted label, ``classes_[1]`` being 1). ``fit`` fits a clone of
    ``estimator`` (or takes it as is with ``prefit=True``) and computes its
    sensitivity profile ``profile_``: exhaustively over all 2^N strings where
    that is feasible, else over the strings it was fitted on (or uniform
    samples). ``transform`` returns the sensitivity ``s(f, x) = #{i : f(x)
    != f(x^{+i})}`` of each row under the fitted model; ``predict`` and
    ``score`` delegate to it.

    Three other things can be profiled the same way:

    * a fitted estimator as it is: ``prefit=True``;
    * a torch module as it is (it is never trained, so y is not needed):
      its real output is thresholded at 0 (label 1 where it is positive,
      ``classes_ = [0, 1]``), and its input encoding must be known: the
      module's own ``input_encoding`` (skxor's modules declare spins ``1 -
      2b``) or the ``input_encoding`` parameter, else ``fit`` raises;
    * an estimator's model at initialisation: ``at_init=True`` with one of
      skxor's estimators (unfitted): ``fit`` builds the model as the
      estimator's ``fit`` does, seeded from the estimator's
      ``random_state``, and takes no training step, so the profile is that
      of the model ``fit`` with the same parameters starts from. y is
      optional there (without it ``classes_`` are ``[0, 1]``).

    X follows skxor's input conventions: 0/1 bits or -1/+1 spins (bool too),
    or real values with ``binarize`` set. The inner estimator is fitted on X
    as given (0/1 or -1/+1), or on the bits ``X > binarize``. The strings and
    their flips are presented to it in the encoding it was fitted with (its
    ``encoding_`` when it has one, else the encoding the profiler saw).

    Parameters
    ----------
    estimator : classifier, torch.nn.Module or None, default=None
        The model to fit and profile; it must predict two classes. None uses
        ``SparseXORTransformer(random_state=random_state)``. A torch module
        is profiled as it is (see above).
    prefit : bool, default=False
        If True, ``estimator`` is already fitted and used as is (``fit`` then
        only profiles it and y is not needed).
    at_init : bool, default=False
        If True, profile the model of ``estimator`` (one of skxor's
        estimators) at initialisation, before any training step, seeded
        from its ``random_state`` (see above); ``estimator_`` is then the
        untrained estimator (``n_iter_ = 0``). Not with ``prefit=True`` or
        a torch module.
    input_encoding : {"01", "pm1", "2b-1"} or None, default=None
        How a torch module gets its strings: bits (``"01"``), spins ``1 -
        2b`` (``"pm1"``) or spins ``2b - 1`` (``"2b-1"``). None: the
        module's own ``input_encoding``; a module that declares none is
        refused by ``fit`` with a ValueError, since its encoding cannot be
        known. Only for a torch module: an estimator gets the encoding it
        was fitted with.
    method : {"auto", "exhaustive", "sampled", "data"}, default="auto"
        What ``profile_`` is computed over. ``"exhaustive"``: all 2^N strings,
        one model evaluation each (N at most 28); the truth table is kept
        and ``transform`` becomes look-ups. ``"sampled"``: ``n_samples``
        uniform strings. ``"data"``: the rows of X seen in fit (a random
        subset of ``n_samples`` rows if there are more). ``"auto"``:
        exhaustive when ``2^N <= (N + 1) * n_samples`` (no dearer than
        sampling), else ``"data"``.
    n_samples : int, default=10000
        Strings profiled by the sampled and data methods; sets the auto rule.
    per_bit : bool, default=False
        If True, ``transform`` returns the (n_samples, N) 0/1 matrix whose
        entry (r, i) is 1 when flipping bit i of row r changes the
        prediction (its row sums are the sensitivities).
    binarize : float or None, default=None
        If None, X must be 0/1 bits or -1/+1 spins. If a float, a value
        greater than it is bit 1, anything else bit 0.
    confidence : float, default=0.95
        Level of the confidence intervals of a sampled or data profile.
    batch_size : int, default=65536
        Strings per model call.
    random_state : int, RandomState instance or None, default=None
        Seeds the sampled strings, the subset of rows for ``"data"`` and the
        default estimator.
    incremental : bool, default=True
        A classifier that evaluates the N flips of a string itself (its
        ``flip_neighbours`` method, e.g. skxor's sparse-XOR, k-parity and
        Boolean transformer estimators) does so for sampled and data
        profiles and ``transform``; False evaluates every flipped string
        (the reference path; see :func:`sensitivity_profile`).

    Attributes
    ----------
    estimator_ : estimator or torch.nn.Module
        The fitted classifier (``estimator`` itself when ``prefit=True`` or a
        torch module; the untrained clone with ``at_init=True``).
    profile_ : SensitivityProfile
        Sensitivity profile of the fitted classifier.
    average_sensitivity_ : float
        ``profile_.average``.
    min_sensitivity_ : int
        ``profile_.minimum``.
    zero_sensitivity_fraction_ : float
        ``profile_.zero_fraction``: fraction of strings where no single flip
        changes the prediction.
    truth_table_ : ndarray of shape (2^N,) or None
        The classifier's truth table when ``profile_`` is exhaustive, else None.
    classes_ : ndarray of shape (2,)
        The classifier's classes (when it has them).
    encoding_ : {"01", "pm1", "binarized"}
        Encoding of X seen in fit, enforced in transform and predict.
    n_features_in_ : int
        Number of bits N.
    feature_names_in_ : ndarray of shape (N,)
        Names of the features, when X had string column names.

    See Also
    --------
    skxor.sensitivity.sensitivity_profile : Profile of any callable, estimator
        or torch module.

    Examples
    --------
    >>> from skxor import SparseXORTransformer
    >>> from skxor.datasets import make_sparse_parity
    >>> from skxor.sensitivity import SensitivityProfiler
    >>> X, y = make_sparse_parity(20000, 12, support=[2, 7], random_state=0)
    >>> prof = SensitivityProfiler(SparseXORTransformer(m=16, random_state=2))
    >>> prof = prof.fit(X, y)
    >>> prof.profile_.method, prof.average_sensitivity_
    ('exhaustive', 2.0)
    >>> prof.transform(X[:3]).ravel().tolist()
    [2, 2, 2]
    >>> prof.score(X, y)
    1.0

    The same estimator's model at initialisation (no training step), and a
    torch module that reads spins ``2b - 1``:

    >>> init = SensitivityProfiler(SparseXORTransformer(m=16, random_state=2), at_init=True)
    >>> init.fit(X).estimator_.n_iter_, init.profile_.method
    (0, 'exhaustive')
    >>> import torch
    >>> first = torch.nn.Linear(12, 1)  # weight 1 on bit 0: the function FIRST
    >>> _ = torch.nn.init.zeros_(first.bias), torch.nn.init.eye_(first.weight)
    >>> prof = SensitivityProfiler(first, input_encoding="2b-1").fit(X)
    >>> bit0 = [[-1] + [1] * 11, [1] * 12]  # bit 0 set, then no bit set (X's spins)
    >>> prof.average_sensitivity_, prof.predict(bit0).tolist()
    (1.0, [1, 0])
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict"]), torch.nn.Module, None],
        "prefit": ["boolean"],
        "at_init": ["boolean"],
        "input_encoding": [StrOptions(set(MODEL_INPUT_ENCODINGS)), None],
        "method": [StrOptions({"auto", "exhaustive", "sampled", "data"})],
        "n_samples": [Integers(1, None, closed="left")],
        "per_bit": ["boolean"],
        "binarize": [Real, None],
        "confidence": [Interval(Real, 0, 1, closed="neither")],
        "batch_size": [Integers(1, None, closed="left")],
        "random_state": ["random_state"],
        "incremental": ["boolean"],
    }

    def __init__(
        self,
        estimator=None,
        *,
        prefit=False,
        at_init=False,
        input_encoding=None,
        method="auto",
        n_samples=10_000,
        per_bit=False,
        binarize=None,
        confidence=0.95,
        batch_size=DEFAULT_BATCH_SIZE,
        random_state=None,
        incremental=True,
    ):
        self.estimator = estimator
        self.prefit = prefit
        self.at_init = at_init
        self.input_encoding = input_encoding
        self.method = method
        self.n_samples = n_samples
        self.per_bit = per_bit
        self.binarize = binarize
        self.confidence = confidence
        self.batch_size = batch_size
        self.random_state = random_state
        self.incremental = incremental

    def _inner_template(self):
        if self.estimator is None:
            # Imported here: sensitivity sits below the estimators it profiles.
            from ..estimators import SparseXORTransformer

            return SparseXORTransformer(random_state=self.random_state)
        return self.estimator

    def _profiles_module(self):
        """Whether ``estimator`` is a torch module (profiled as it is, never trained)."""
        return isinstance(self.estimator, torch.nn.Module)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self._profiles_module():
            # A module is no estimator: nothing to fit, so no y needed.
            tags.target_tags.required = False
            tags.transformer_tags.preserves_dtype = []
            return tags
        inner = get_tags(self._inner_template())
        # A classifier that also transforms: type and classifier tags follow the
        # inner model, so cross-validation stratifies and checks send 2 classes.
        tags.estimator_type = inner.estimator_type
        tags.classifier_tags = inner.classifier_tags
        tags.regressor_tags = inner.regressor_tags
        tags.target_tags.required = (inner.target_tags.required and not self.prefit
                                     and not self.at_init)
        # f must be Boolean: two classes only, whatever the inner model supports.
        tags.classifier_tags.multi_class = False
        tags.classifier_tags.multi_label = False
        # transform returns counts, not a transformed copy of X.
        tags.transformer_tags.preserves_dtype = []
        return tags

    # -- helpers ----------------------------------------------------------------

    def _bits(self, X, reset):
        """Validate X and return it with its 0/1 bits (uint8)."""
        X = validate_binary_data(self, X, reset=reset, dtype="numeric")
        encoding = detect_encoding(X, None if reset else self.encoding_, binarize=self.binarize)
        if reset:
            self.encoding_ = encoding
        return X, to_bits(X, encoding, self.binarize)

    def _evaluator(self):
        """The fitted classifier as a function of the profiler's 0/1 strings.

        A string is presented to the classifier as the values it stands for
        in the X the classifier was fitted on, so the classifier applies its
        own conventions (its ``binarize`` too) exactly as in fit:
        ``estimator_.predict`` and the profiler agree on every row. An
        estimator that reads 0/1 or -1/+1 itself (``encoding_``) gets its
        own encoding.
        """
        if isinstance(self.estimator_, torch.nn.Module):
            # Its own declared encoding, or the one given (else a ValueError).
            return ModelEvaluator(self.estimator_, self.n_features_in_,
                                  input_encoding=self.input_encoding)
        own = "pm1" if self.encoding_ == "pm1" else "01"
        inner = getattr(self.estimator_, "encoding_", None)
        if inner in ("01", "pm1"):
            encoding = inner
        elif self.prefit and self.encoding_ == "binarized":
            # Fitted elsewhere on real values: let a binarizing classifier see
            # values on the right side of its own threshold.
            encoding = None
        else:
            # Not prefit: the classifier was fitted on X as given (0/1 or
            # -1/+1), or on the bits X > binarize.
            encoding = own
        return ModelEvaluator(
            self.estimator_, self.n_features_in_, input_encoding=encoding, fallback_encoding=own
        )

    @staticmethod
    def _check_binary_target(y):
        """Refuse a multiclass target before spending a fit on it."""
        if y is None:
            return  # the inner estimator says that it needs y
        y_array = np.asarray(y)
        if y_array.dtype.kind == "f" and not np.isfinite(y_array).all():
            return  # NaN/inf: the inner estimator's validation names them
        try:
            target = type_of_target(y)
        except (TypeError, ValueError):
            return  # odd targets: the inner estimator's validation names them
        if target in ("multiclass", "multiclass-multioutput", "multilabel-indicator"):
            raise ValueError(
                "Only binary classification is supported: sensitivity is defined "
                f"for Boolean functions, but the target is {target}; pass two "
                "class labels."
            )

    # -- fit ----------------------------------------------------------------------

    @fit_context(prefer_skip_nested_validation=False)
    @fill_doc
    def fit(self, X, y=None):
        """Fit the classifier (unless prefit) and profile its sensitivity.

        Parameters
        ----------
        %(X_fit)s
        y : array-like of shape (n_samples,) or None
            Two class labels; not needed with ``prefit=True``.

        Returns
        -------
        self : SensitivityProfiler
            The fitted profiler.
        """
        # Any exception leaves the profiler as it was (previous fit intact).
        with restore_on_error(self):
            self._fit(X, y)
        return self

    def _fit(self, X, y):
        check_finite_params(self, ["binarize"])
        X, bits = self._bits(X, reset=True)
        n_bits = X.shape[1]
        method = resolve_method(self.method, n_bits, self.n_samples, fallback="data")
        if method == "exhaustive":
            check_exhaustive_bits(n_bits)
        self._check_what_is_profiled()
        if self._profiles_module():
            self.estimator_ = self.estimator
            self.classes_ = np.array([0, 1])  # label 1 where the output is positive
        elif self.prefit:
            if self.estimator is None:
                raise ValueError(
                    "prefit=True needs a fitted estimator; got estimator=None."
                )
            check_is_fitted(self.estimator)
            self.estimator_ = self.estimator
        elif self.at_init:
            self._fit_at_init(X, y, bits)
        else:
            if y is not None and np.asarray(y).ndim == 2:
                # One label per string: a column vector is raveled (with a warning).
                y = column_or_1d(y, warn=True)
            self._check_binary_target(y)
            self.estimator_ = clone(self._inner_template())
            if self.encoding_ == "binarized":
                X, encoding = bits, "01"
            else:
                encoding = self.encoding_
            if hasattr(self.estimator_, "_fit_checked"):
                # skxor's estimators: X is checked, with the same encoding rule.
                self.estimator_._fit_checked(X, y, encoding)
            else:
                self.estimator_.fit(X, y)
        classes = getattr(self.estimator_, "classes_", None)
        if classes is not None and not self._profiles_module():
            self.classes_ = classes

        self.profile_, self.truth_table_ = profile_model(
            self._evaluator(),
            method,
            n_samples=self.n_samples,
            batch_size=self.batch_size,
            confidence=self.confidence,
            random_state=self.random_state,
            data=bits,
            incremental=self.incremental,
        )
        self.average_sensitivity_ = self.profile_.average
        self.min_sensitivity_ = self.profile_.minimum
        self.zero_sensitivity_fraction_ = self.profile_.zero_fraction

    def _check_what_is_profiled(self):
        """Refuse combinations of estimator, prefit, at_init and input_encoding that
        name no model to profile, before any work."""
        module = self._profiles_module()
        if self.at_init and (self.prefit or module):
            raise ValueError(
                "at_init=True profiles an estimator's model before training; it does not "
                + ("apply to a torch module, which is profiled as it is."
                   if module else "go with prefit=True (a fitted estimator).")
            )
        if self.input_encoding is not None and not module:
            raise ValueError(
                f"input_encoding={self.input_encoding!r} is for a torch module, whose "
                "encoding cannot be read from it; an estimator gets its strings in the "
                "encoding it was fitted with. Leave input_encoding=None."
            )
        if self.at_init and not callable(getattr(self._inner_template(), "_fit_at_init", None)):
            raise ValueError(
                "at_init=True needs one of skxor's estimators, which build their model "
                f"without training it; {type(self.estimator).__name__} is not one. Fit it "
                "for as few steps as it allows and pass it with prefit=True."
            )

    def _fit_at_init(self, X, y, bits):
        """``estimator_``: a clone of the estimator with its model at initialisation."""
        self.estimator_ = clone(self._inner_template())
        X, encoding = (bits, "01") if self.encoding_ == "binarized" else (X, self.encoding_)
        if y is None and self.estimator_._requires_y():
            # The model at initialisation does not depend on the labels (the
            # k-parity model's orientation, its sign, does, which leaves the
            # profile alone): stand-in classes 0, 1 give it classes_.
            y = np.resize([0, 1], X.shape[0])
        else:
            self._check_binary_target(y)
        self.estimator_._fit_at_init(X, y, encoding)

    # -- transform / predict ------------------------------------------------------

    def _iter_flips(self, bits):
        """Yield ``(rows, flips)``: does flipping bit i of a row change the prediction?

        With a truth table these are look-ups at ``index ^ (1 << i)``; else the
        model is evaluated on each row and its N neighbours.
        """
        if self.truth_table_ is None:
            yield from iter_flips(self._evaluator(), bits, self.batch_size, self.incremental)
            return
        table = self.truth_table_
        masks = np.left_shift(np.int64(1), np.arange(bits.shape[1], dtype=np.int64))
        step = max(1, self.batch_size // bits.shape[1])  # bounds the (rows, N) index block
        for begin in range(0, bits.shape[0], step):
            rows = slice(begin, begin + step)
            index = bits_to_index(bits[rows])
            yield rows, table[index[:, None] ^ masks] != table[index][:, None]

    @fill_doc
    def transform(self, X):
        """Sensitivity of each row under the fitted classifier.

        %(parameters_X_predict)s

        Returns
        -------
        S : ndarray of shape (n_samples, 1), dtype int64
            ``S[r, 0] = s(f, X[r])``. With ``per_bit=True``, an ndarray of
            shape (n_samples, n_features), dtype uint8, whose entry (r, i) is
            1 when flipping bit i of row r changes the prediction.
        """
        check_is_fitted(self)
        _, bits = self._bits(X, reset=False)
        if self.per_bit:
            out = np.empty(bits.shape, dtype=np.uint8)
            for rows, flips in self._iter_flips(bits):
                out[rows] = flips
            return out
        out = np.empty((bits.shape[0], 1), dtype=np.int64)
        for rows, flips in self._iter_flips(bits):
            out[rows, 0] = flips.sum(axis=1)
        return out

    def get_feature_names_out(self, input_features=None):
        """Output feature names: ``["sensitivity"]``, or ``flip_<name>`` per bit.

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            Input feature names (checked against those seen in fit).

        Returns
        -------
        feature_names_out : ndarray of str objects
        """
        check_is_fitted(self, "n_features_in_")
        names = check_feature_names_in(self, input_features)
        if self.per_bit:
            return np.asarray([f"flip_{name}" for name in names], dtype=object)
        return np.asarray(["sensitivity"], dtype=object)

    def _inner_X(self, X):
        _, bits = self._bits(X, reset=False)
        return self._evaluator().encode(bits)

    def _delegate(self, method, X, *args):
        """Call the fitted classifier's ``method`` on X in its own encoding
        (a torch module: its labels, by the rule of the profile)."""
        check_is_fitted(self)
        if isinstance(self.estimator_, torch.nn.Module):
            _, bits = self._bits(X, reset=False)
            pred = self.classes_[self._evaluator().labels(bits)]
            return pred if method == "predict" else accuracy_score(args[0], pred)
        return getattr(self.estimator_, method)(self._inner_X(X), *args)

    # The fitted classifier's prediction methods, on X in its own encoding.
    predict = _delegated("predict", "Predictions", "y_pred : ndarray of shape (n_samples,)")
    decision_function = available_if(_inner_has("decision_function"))(
        _delegated(
            "decision_function",
            "Decision function (e.g. for ROC AUC scoring)",
            "scores : ndarray of shape (n_samples,)",
        )
    )
    predict_proba = available_if(_inner_has("predict_proba"))(
        _delegated(
            "predict_proba", "Class probabilities", "proba : ndarray of shape (n_samples, 2)"
        )
    )

    @fill_doc
    def score(self, X, y):
        """Score of the fitted classifier (its own ``score``, e.g. accuracy).

        Parameters
        ----------
        %(X_predict)s
        y : array-like of shape (n_samples,)
            True labels.

        Returns
        -------
        score : float
        """
        return self._delegate("score", X, y)
