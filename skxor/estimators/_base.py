"""The base class of skxor's torch-backed binary classifiers.

It owns what the three torch estimators share: the start of ``fit``
(validation, input encoding, the two-class target as spins, device, dtype,
random state), committing the fitted attributes only once training has
succeeded, and the prediction plumbing (``predict``, chunked, device-aware
evaluation with a CPU fallback). Each estimator keeps its own parameter
constraints, module builder and training routine.

X is read by :mod:`skxor._utils._encoding` (one rule for 0/1 bits and
-1/+1 spins everywhere). The library's own callers that have checked X
already (the sensitivity profiler, the evaluators behind the sensitivity
tools) fit and evaluate through ``_fit_checked``, ``_decision_checked`` and
``_flip_neighbours(..., checked=True)``, which do not check it again, as
scikit-learn's trees take ``check_input=False``.
"""

import copy
import pickle
import sys
import warnings
from dataclasses import dataclass
from numbers import Real

import numpy as np
import torch
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_consistent_length, check_is_fitted, validate_data

from .._utils._sklearn_compat import StrOptions, check_y, fit_context
from .._utils._docstrings import fill_doc
from .._utils._skorch import FreshBatches, LeanNet, fit_seeded, quiet_settings, user_callbacks
from .._utils._encoding import detect_encoding, row_batches, to_bits, to_spins
from .._utils._validation import (
    check_binary_target,
    check_device,
    check_dtype,
    check_finite_params,
    real_parameters,
    restore_on_error,
    validate_binary_data,
)
from .._utils._warnings import SkxorRuntimeWarning


@dataclass
class FitStart:
    """What every torch estimator's ``fit`` starts from (see ``_start_fit``)."""

    X: np.ndarray
    encoding: str
    classes: np.ndarray
    y_spins: np.ndarray
    device: torch.device
    dtype: torch.dtype
    rng: np.random.RandomState
    binarize: object = None
    #: -1 when fresh strings' labels are negated: y names the target function's
    #: value 1 by ``classes_[0]`` (see ``FreshDataMixin._label_by_target_function``).
    target_sign: float = 1.0

    def spins(self, X=None, **kwargs):
        """Spins of ``X`` (default: all of the training X) on the fit's device and dtype."""
        return to_spins(self.X if X is None else X, self.encoding, self.binarize,
                        dtype=self.dtype, device=self.device, **kwargs)


class TorchBinaryClassifier(ClassifierMixin, BaseEstimator):
    """Base of the torch-backed binary classifiers (not for direct use).

    Subclasses store ``device``, ``dtype``, ``binarize`` and ``random_state``
    parameters, implement ``_fit(X, y)`` (starting with :meth:`_start_fit`)
    and ``_forward()`` (the fitted model as a function of spins, and its
    device), from which ``decision_function``, ``predict`` and, with
    ``loss="logistic"``, ``predict_proba`` follow. :meth:`fit` wraps
    ``_fit`` so that an exception leaves the estimator exactly as it was.
    """

    #: Finite-valued float parameters (Interval constraints admit inf).
    _finite_params = ("binarize",)
    #: Constraints of the parameters every torch estimator has.
    _shared_constraints = {
        "binarize": [Real, None],
        "dtype": [StrOptions({"float32", "float64"})],
        "device": [str, torch.device],
        "random_state": ["random_state"],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # fit raises on more than two classes
        return tags

    # -- fit --------------------------------------------------------------------

    @fit_context(prefer_skip_nested_validation=True)
    @fill_doc
    def fit(self, X, y):
        """Fit the model; an exception leaves the estimator as it was.

        Parameters
        ----------
        %(X_fit)s
        y : array-like of shape (n_samples,)
            Two class labels; ``classes_[1]`` is mapped to +1.

        Returns
        -------
        %(returns_self)s
        """
        return self._commit_fit(X, y)

    def _commit_fit(self, X, y, encoding=None):
        """Check X, run ``_fit``; any exception restores the state before the call.

        ``encoding``: X was checked by the caller (see :meth:`_fit_checked`).
        """
        with restore_on_error(self):
            self._check_params()
            self._fit(self._start_fit(X, y, need_y=self._requires_y(), encoding=encoding))
        return self

    def _fit_checked(self, X, y, encoding):
        """``fit`` on an X its caller has already checked, without checking it again.

        As scikit-learn's trees' ``check_input=False``: for the library's own
        callers (the sensitivity profiler), which validated X and read its
        encoding ``encoding`` (``"01"`` or ``"pm1"``) with the same rule
        (:mod:`skxor._utils._encoding`). X must be a numeric 2-D ndarray;
        the estimator's own ``binarize`` still applies; y is validated here.
        """
        self._validate_params()
        return self._commit_fit(X, y, encoding)

    def _fit_at_init(self, X, y, encoding=None):
        """The estimator with its model at initialisation: ``fit`` for zero steps.

        Everything ``fit`` does before the first step runs as in ``fit``
        (validation, encoding, classes, the model built and seeded from
        ``random_state``), so the model is the one ``fit`` with the same
        parameters starts from; then no step is taken (``n_iter_ = 0``,
        empty curves). For :class:`~skxor.sensitivity.SensitivityProfiler`
        (``at_init=True``). ``encoding``: X was checked by the caller (see
        :meth:`_fit_checked`).
        """
        self._validate_params()
        max_iter = self.max_iter
        self.max_iter = 0  # after validation, which asks for at least one
        try:
            return self._commit_fit(X, y, encoding)
        finally:
            self.max_iter = max_iter

    def _record_start(self, start):
        """``encoding_`` and ``classes_``, read from X and y at the start of ``fit``."""
        self.encoding_ = start.encoding
        self.classes_ = start.classes

    def _check_params(self):
        """Checks of parameter combinations, before X is read (none by default)."""

    def _requires_y(self):
        """Whether ``fit`` needs y (an estimator that can label X itself says no)."""
        return True

    def _fit(self, start):  # pragma: no cover - abstract
        raise NotImplementedError

    def _start_fit(self, X, y, *, need_y=True, encoding=None):
        """Validate X (and y), read the encoding, target, device, dtype and RNG.

        With ``need_y=False`` and ``y=None`` only X is validated; ``classes``
        and ``y_spins`` are then None. With ``encoding`` given, X was
        checked by the caller in that encoding: only y is validated.
        """
        # The listed ones and every real-valued parameter (a float field can't be missed).
        check_finite_params(self, dict.fromkeys([*self._finite_params, *real_parameters(self)]))
        if encoding is not None:
            # n_features_in_ (and no feature names) as validate_data would set them.
            skip_y = y is None and not need_y
            validate_data(self, X, "no_validation" if skip_y else y, skip_check_array=True)
            if y is not None:
                y = check_y(y, estimator=self)
                check_consistent_length(X, y)
            if self.binarize is not None:  # the estimator's own threshold still applies
                encoding = "binarized"
        elif y is None and not need_y:
            X = validate_binary_data(self, X, dtype="numeric")
        else:
            X, y = validate_binary_data(self, X, y, dtype="numeric")
        if encoding is None:
            encoding = detect_encoding(X, binarize=self.binarize)
        classes = y_spins = None
        if y is not None or need_y:
            classes, y_spins = check_binary_target(y, type(self).__name__)
        return FitStart(
            X=X,
            encoding=encoding,
            classes=classes,
            y_spins=y_spins,
            device=check_device(self.device),
            dtype=check_dtype(self.dtype),
            rng=check_random_state(self.random_state),
            binarize=self.binarize,
        )

    # -- prediction ---------------------------------------------------------------

    def _prediction_device(self):
        """The fit device if usable here, else the CPU (a model moved machines)."""
        try:
            return check_device(self.device)
        except ValueError:
            warnings.warn(
                f"device={self.device!r} is not available here; predicting on the CPU.",
                SkxorRuntimeWarning,
                stacklevel=4,
            )
            return torch.device("cpu")

    def _predict_module(self):
        """The fitted ``module_`` on the fit device if usable here, else on the CPU."""
        device = self._prediction_device()
        if device.type == "cpu":
            return self.module_, device
        return copy.deepcopy(self.module_).to(device), device

    def _spin_chunks(self, X, device, checked=False):
        """Validate X against fit; return its row count and ``(rows, spins)`` chunks.

        The spins of each row chunk are made on ``device`` only when the
        generator reaches it, so memory stays bounded for large X. With
        ``checked=True`` X is a numeric 2-D ndarray in ``encoding_`` that the
        caller made or checked (see :meth:`_decision_checked`): it is not
        checked again.
        """
        check_is_fitted(self)
        if checked:
            encoding = self.encoding_
        else:
            X = validate_binary_data(self, X, reset=False, dtype="numeric")
            encoding = detect_encoding(X, self.encoding_, binarize=self.binarize)
        dtype = check_dtype(self.dtype)

        def chunks():
            for rows in row_batches(X.shape[0], X.shape[1]):
                yield rows, to_spins(X[rows], encoding, self.binarize, dtype=dtype, device=device)

        return X.shape[0], chunks()

    def _evaluate(self, X, forward, device, checked=False):
        """``forward(spins)`` over X in row chunks, without autograd, as float64."""
        n_rows, chunks = self._spin_chunks(X, device, checked)
        out = np.empty(n_rows, dtype=np.float64)
        with torch.no_grad():
            for rows, spins in chunks:
                out[rows] = forward(spins).cpu().numpy()
        return out

    def _forward(self):
        """``(forward, device)``: the fitted model as ``forward(spins) -> f`` and its device.

        Each estimator provides only this; :meth:`decision_function`,
        :meth:`predict` and :meth:`predict_proba` are shared.
        """
        raise NotImplementedError

    def _neighbour_forward(self):
        """``(neighbours, device)``: ``neighbours(spins) -> (c, N)`` outputs on every flip.

        Estimators whose model evaluates the single-bit flips of a string
        faster than one model call per flip provide this; it enables
        :meth:`flip_neighbours`.
        """
        raise NotImplementedError

    def _has_flip_neighbours(self):
        return type(self)._neighbour_forward is not TorchBinaryClassifier._neighbour_forward

    @available_if(_has_flip_neighbours)
    @fill_doc
    def flip_neighbours(self, X, *, return_outputs=False):
        """``decision_function`` of every single-bit flip of each row.

        The flip-neighbour protocol of :func:`skxor.sensitivity.sensitivity_profile`:
        entry ``(r, i)`` is the model output on row r with bit i flipped
        (its spin negated), computed from the row's own evaluation in far
        less than N model calls, and equal to ``decision_function`` of the
        flipped rows to float rounding. Only estimators whose model has
        such an update have this method.

        Parameters
        ----------
        %(X_predict)s
        return_outputs : bool, default=False
            Also return ``decision_function(X)``, computed in the same pass
            (the same values: X is read and converted once for both).

        Returns
        -------
        f : ndarray of shape (n_samples, n_features), float64
            Positive values predict ``classes_[1]``.
        outputs : ndarray of shape (n_samples,)
            ``decision_function(X)``; only with ``return_outputs=True``,
            which returns ``(outputs, f)``.

        Examples
        --------
        >>> import numpy as np
        >>> from skxor import SparseXORTransformer
        >>> from skxor.datasets import make_sparse_parity
        >>> X, y = make_sparse_parity(2000, 12, random_state=0)
        >>> clf = SparseXORTransformer(m=8, random_state=0).fit(X, y)
        >>> flipped = np.repeat(X[:1], 12, axis=0)
        >>> flipped[np.arange(12), np.arange(12)] *= -1
        >>> np.allclose(clf.flip_neighbours(X[:1])[0], clf.decision_function(flipped))
        True
        """
        return self._flip_neighbours(X, return_outputs)

    def _flip_neighbours(self, X, return_outputs=False, checked=False):
        """:meth:`flip_neighbours`; ``checked=True``: X is not checked again
        (see :meth:`_decision_checked`)."""
        check_is_fitted(self)
        neighbours, device = self._neighbour_forward()
        forward = self._forward()[0] if return_outputs else None
        n_rows, chunks = self._spin_chunks(X, device, checked)
        out = np.empty((n_rows, self.n_features_in_), dtype=np.float64)
        own = np.empty(n_rows, dtype=np.float64)
        with torch.no_grad():
            for rows, spins in chunks:
                if forward is not None:  # as decision_function: same chunks, same call
                    own[rows] = forward(spins).cpu().numpy()
                values = neighbours(spins)
                out[rows] = values.cpu().numpy() if isinstance(values, torch.Tensor) else values
        return (own, out) if return_outputs else out

    @fill_doc
    def decision_function(self, X):
        """Model output ``f(x)`` for each row (the logit for the logistic loss).

        %(parameters_X_predict)s

        Returns
        -------
        f : ndarray of shape (n_samples,)
            Positive values predict ``classes_[1]``.
        """
        return self._decision_checked(X, checked=False)

    def _decision_checked(self, X, checked=True):
        """``decision_function`` of an X the caller made or checked, not checked again.

        For the library's own callers (the evaluators behind the sensitivity
        tools), which present strings they generated in the estimator's
        ``encoding_``, as scikit-learn's trees take ``check_input=False``:
        X must be a numeric 2-D ndarray in ``encoding_`` with
        ``n_features_in_`` columns. Its outputs are those of
        ``decision_function``, bit for bit (same chunks, same calls).
        """
        check_is_fitted(self)
        forward, device = self._forward()
        return self._evaluate(X, forward, device, checked)

    def _has_logistic_loss(self):
        return getattr(self, "loss", None) == "logistic"

    @available_if(_has_logistic_loss)
    @fill_doc
    def predict_proba(self, X):
        """Class probabilities ``[1 - p, p]`` with ``p = 1 / (1 + exp(-f(x)))``.

        Only with ``loss="logistic"``, where ``f`` is trained as a logit.

        %(parameters_X_predict)s

        Returns
        -------
        proba : ndarray of shape (n_samples, 2)
            Columns follow ``classes_``.
        """
        f = self.decision_function(X)
        # expit(-f) rather than 1 - expit(f): no cancellation for large f.
        return np.column_stack([expit(-f), expit(f)])

    @fill_doc
    def predict(self, X):
        """Predicted labels: ``classes_[1]`` where ``f(x) > 0``, else ``classes_[0]``.

        %(parameters_X_predict)s

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]


def _function_labels(function, bits, name="target_function"):
    """Values 0/1 (bool array) of a target function on 0/1 strings (uint8).

    The function gets them as int64, so that arithmetic on them such as
    ``2 * X[:, 0] - 1`` cannot wrap round.
    """
    try:
        out = function(bits.astype(np.int64))
    except Exception as exc:
        raise ValueError(
            f"{name} failed on a batch of 0/1 strings of shape {bits.shape}: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    if isinstance(out, torch.Tensor):
        out = out.detach().cpu().numpy()
    out = np.asarray(out)
    if out.shape != (bits.shape[0],):
        raise ValueError(
            f"{name} must return one label per string, shape ({bits.shape[0]},); "
            f"got shape {out.shape}."
        )
    if out.dtype == bool:
        return out
    if out.dtype.kind not in "iuf" or not np.isin(out, [-1, 0, 1]).all() or (
        (out == 0).any() and (out == -1).any()
    ):
        bad = np.unique(out)[:5].tolist() if out.dtype.kind in "biuf" else out.dtype
        raise ValueError(
            f"{name} must return Boolean labels 0/1, -1/+1 or bools (1, +1 and "
            f"True are the positive class); got {bad}."
        )
    return out == 1


class SkorchTrainedClassifier(TorchBinaryClassifier):
    """Base of the estimators trained by skorch (FFNN, Boolean transformer, k-parity).

    Owns the one training loop they share: targets for the chosen ``loss``,
    the criterion, the :class:`~skxor._utils._skorch.LeanNet` with quiet
    settings, seeded fitting and the record of the run (``history_``,
    ``loss_curve_``, ``n_iter_``). Subclasses store ``loss``,
    ``learning_rate``, ``max_iter`` and ``verbose`` and pass their module,
    optimizer, batches and callbacks.
    """

    _shared_constraints = {
        **TorchBinaryClassifier._shared_constraints,
        "verbose": ["verbose"],
        "callbacks": [list, None],
    }

    def _targets(self, y_spins, dtype, device):
        """Training targets: 0/1 for the logistic loss, -1/+1 for squared error."""
        return loss_targets(y_spins, self.loss, dtype, device)

    def _criterion(self):
        """The loss module class for ``self.loss``."""
        return torch.nn.BCEWithLogitsLoss if self.loss == "logistic" else torch.nn.MSELoss

    def _train_net(self, module, spins, target, seed, device, callbacks=(), **net_kwargs):
        """Build the skorch net for ``module`` and fit it on ``(spins, target)``, seeded.

        ``callbacks`` are the estimator's own; the user's (``self.callbacks``)
        follow them, and are dropped from the net once it is trained.
        """
        own = list(callbacks)
        users = user_callbacks(self.callbacks, [name for name, _ in own])
        net = LeanNet(
            module,
            self._criterion(),
            lr=self.learning_rate,
            max_epochs=self.max_iter,
            callbacks=own + users,
            **quiet_settings(self.verbose, device),
            **net_kwargs,
        )
        # A user's callback may read the last batch's entry (skorch's Checkpoint does).
        net.record_batches = bool(users)
        fit_seeded(net, spins, target, seed, device, self.max_iter, type(self).__name__)
        if users:
            # The fitted model holds no tracker (a writer, a run handle): it
            # pickles, and its callbacks' records stay the user's.
            net.callbacks = own
            net.callbacks_ = [(name, cb) for name, cb in net.callbacks_
                              if not any(cb is user for _, user in users)]
        return net

    def _record_fit(self, start, net):
        """The fitted attributes every skorch-trained estimator shares.

        ``encoding_``, ``classes_``, and from the trained net ``history_``,
        ``loss_curve_``, ``n_iter_`` and, for an estimator with a
        ``target_accuracy`` parameter, ``accuracy_curve_``.
        """
        self._record_start(start)
        self.history_ = net.history
        self.loss_curve_ = history_column(net, "train_loss")
        self.n_iter_ = len(net.history)
        if "target_accuracy" in self._parameter_constraints:
            self.accuracy_curve_ = (
                history_column(net, "accuracy") if self.target_accuracy is not None else []
            )


def history_column(net, key):
    """One float per epoch of ``net.history[:, key]``; [] when no epoch ran (at init)."""
    return [float(v) for v in net.history[:, key]] if len(net.history) else []


def loss_targets(y_spins, loss, dtype, device):
    """Training targets of labels ``y_spins`` (+-1): 0/1 for ``loss="logistic"``, else +-1."""
    y_spins = np.asarray(y_spins, dtype=np.float64)
    target = (y_spins + 1) / 2 if loss == "logistic" else y_spins
    return torch.as_tensor(target, dtype=dtype, device=device)


# The former name of the base, kept for code that subclassed it.
TorchBinaryClassifierMixin = TorchBinaryClassifier


class FreshSampler:
    """``sampler(n) -> (spins, targets)``: n fresh uniform strings labelled by a target.

    The batches of an online fit (:class:`~skxor._utils._skorch.FreshBatches`).
    A class, not a closure, so that the fitted net that holds it pickles
    whenever the target function does. ``sign = -1`` negates the labels
    (``classes_[0]`` names the function's value 1).
    """

    def __init__(self, target_function, n_bits, seed, loss, dtype, device, sign=1.0):
        self.target_function = PicklableTarget(target_function)
        self.n_bits, self.loss, self.dtype, self.device = n_bits, loss, dtype, device
        self.sign = float(sign)
        self.rng = np.random.default_rng(seed)

    def __call__(self, n):
        bits = self.rng.integers(0, 2, size=(n, self.n_bits), dtype=np.uint8)
        labels = _function_labels(self.target_function.function, bits)
        spins = to_spins(bits, dtype=self.dtype, device=self.device)
        return spins, loss_targets(self.sign * (2.0 * labels - 1.0), self.loss, self.dtype,
                                   self.device)


def _pickles_by_value():
    """Whether the pickler running now pickles functions by value (cloudpickle's,
    as dask and joblib's workers use): one with a ``reducer_override`` method."""
    frame = sys._getframe(2)
    for _ in range(32):  # the pickler's dump/save frames are a few levels up
        if frame is None:
            return False
        owner = frame.f_locals.get("self")
        if isinstance(owner, (pickle.Pickler, pickle._Pickler)):
            return callable(getattr(owner, "reducer_override", None))
        frame = frame.f_back
    return False


class PicklableTarget:
    """A target function as an online-fitted estimator stores it in a pickle.

    The standard pickle (``pickle``, ``joblib.dump``) stores a function by
    reference; a target it cannot store (a lambda, a local function, one
    holding a lock) is refused with an error that names ``target_function``
    and says what pickles, instead of a message about a library internal.
    A pickler that stores functions by value (cloudpickle) gets the
    function as it is.
    """

    __slots__ = ("function",)

    def __init__(self, function):
        self.function = function

    def __deepcopy__(self, memo):  # a copy of the estimator shares its function
        return PicklableTarget(self.function)

    def __reduce__(self):
        if not _pickles_by_value():
            try:
                pickle.dumps(self.function)
            except Exception as exc:
                raise pickle.PicklingError(
                    f"This estimator cannot be pickled: its target_function "
                    f"{self.function!r} cannot be ({type(exc).__name__}: {exc}). Give a "
                    "function defined at module level (importable where it is loaded), "
                    "a functools.partial of one, or a function of skxor.boolean (e.g. "
                    "SparseParity(N, support)); a lambda or local function cannot be "
                    "pickled."
                ) from exc
        return PicklableTarget, (self.function,)


class FreshDataMixin:
    """Training on fresh strings drawn from a ``target_function`` (a mixin of the
    skorch-trained estimators that take one).

    ``fit(X, y=None)``: with ``target_function`` set, y may be left out (the
    function labels X, classes ``[0, 1]``), X only monitors the accuracy, and
    every training batch is drawn fresh (:meth:`_fresh_iterator`).
    """

    @fit_context(prefer_skip_nested_validation=True)
    @fill_doc
    def fit(self, X, y=None):
        """Train the network; an exception leaves the estimator as it was.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Binary inputs: 0/1 bits or -1/+1 spins (or real values with
            ``binarize`` set). With ``target_function``, X fixes the input
            length, the epoch length and the monitoring set.
        y : array-like of shape (n_samples,) or None, default=None
            Two class labels, ``classes_[1]`` mapped to +1. Required unless
            ``target_function`` is set (then it labels X when y is None).
            With ``target_function``, a y that disagrees with it on any row
            of X is refused (a ValueError gives the count): labels 0/1, -1/+1
            or bools are read as the function's values; any two other labels
            name its two values in either order, the one y gives where the
            function is 1 being predicted there, whichever sorts first.

        Returns
        -------
        %(returns_self)s
        """
        return self._commit_fit(X, y)

    def _requires_y(self):
        return self.target_function is None

    def __getstate__(self):
        state = dict(super().__getstate__())  # a copy: object's is the instance's own dict
        if state.get("target_function") is not None:
            # Pickled with a clear error when it cannot be (see PicklableTarget).
            state["target_function"] = PicklableTarget(state["target_function"])
        return state

    def __setstate__(self, state):
        target = state.get("target_function")
        if isinstance(target, PicklableTarget):
            state = {**state, "target_function": target.function}
        super().__setstate__(state)

    def _label_by_target_function(self, start):
        """Label X with ``target_function`` when fit got no y (classes ``[0, 1]``);
        check a given y against it.

        The rule for a given y: it must agree with the function on every row
        of X. Labels 0/1, -1/+1 or bools mean what they say (1, +1 and True
        where the function is 1). Any other two labels (strings, say) name the
        function's two values in either order: the label y gives where the
        function is 1 is the one predicted there, whichever sorts first
        (``start.target_sign`` is -1 when that is ``classes_[0]``).
        """
        if self.target_function is None:
            return
        bits = to_bits(start.X, start.encoding, self.binarize)
        labels = _function_labels(self.target_function, bits)
        if start.classes is None:
            start.classes = np.array([0, 1])
            start.y_spins = 2.0 * labels - 1.0
            return
        positive = start.y_spins > 0  # rows labelled classes_[1]
        n_rows = positive.shape[0]
        disagree = int(np.count_nonzero(positive != labels))
        classes = start.classes
        numeric = classes.dtype.kind in "biuf" and (
            np.array_equal(classes, [0, 1]) or np.array_equal(classes, [-1, 1]))
        if not numeric and n_rows - disagree < disagree:
            # classes_[0] is y's name for the function's value 1.
            start.target_sign, disagree = -1.0, n_rows - disagree
        if disagree:
            rule = (
                f"the labels {classes.tolist()} are read as the function's values: "
                f"{classes.tolist()[1]!r} where it is 1, {classes.tolist()[0]!r} where it "
                "is 0" if numeric else
                f"the labels {classes.tolist()} must name the function's two values, "
                "one label per value"
            )
            raise ValueError(
                f"y disagrees with target_function on {disagree} of {n_rows} rows of X "
                f"({rule}). With target_function, y only monitors the accuracy: leave "
                "it out (fit(X)) to label X with the function, or pass the labels the "
                "function gives."
            )

    def _fresh_iterator(self, n_samples, n_bits, seed, dtype, device, batch_size=None,
                        sign=1.0):
        """skorch iterator settings drawing every batch fresh from ``target_function``.

        An epoch is as many steps as a pass over the ``n_samples`` rows of X
        would take in batches of ``batch_size`` (default ``self.batch_size``);
        the strings come from a generator seeded with ``seed``; ``sign`` is
        ``start.target_sign`` (see :meth:`_label_by_target_function`).
        """
        batch_size = self.batch_size if batch_size is None else batch_size
        return {
            "iterator_train": FreshBatches,
            "iterator_train__sampler": FreshSampler(
                self.target_function, n_bits, seed, self.loss, dtype, device, sign),
            "iterator_train__n_batches": -(-n_samples // batch_size),
        }
