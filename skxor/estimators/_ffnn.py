"""FFNNParityBaseline: the two-layer feed-forward baseline.

After Han & Ghoshdastidar (2025, arXiv 2502.07553).
"""

from numbers import Real

import numpy as np
import torch
from sklearn.model_selection import train_test_split
from skorch.callbacks import EarlyStopping, Freezer
from skorch.helper import predefined_split
from torch.utils.data import TensorDataset

from .._utils._sklearn_compat import Interval, StrOptions
from .._utils._docstrings import fill_doc
from .._utils._skorch import StopAtAccuracy, StopOnNonFinite, TensorBatches
from .._utils._torch import count_module_parameters, seed_from
from .._utils._validation import Integers
from ..nn import ACTIVATIONS, TwoLayerNetwork
from ._base import FreshDataMixin, SkorchTrainedClassifier, history_column

_OPTIMIZERS = {"adam": torch.optim.Adam, "adamw": torch.optim.AdamW, "sgd": torch.optim.SGD}


@fill_doc
class FFNNParityBaseline(FreshDataMixin, SkorchTrainedClassifier):
    """Two-layer feed-forward network classifier, the baseline of Han & Ghoshdastidar (2025, arXiv 2502.07553).

    ``f(x) = sum_j a_j sigma(w_j . x + c_j) + c_0`` on the input spins
    ``x in {-1, +1}^d``, with ``width`` hidden units; the prediction is
    ``classes_[1]`` where ``f(x) > 0``. By default every weight is trainable:
    ``width * (d + 2) + 1`` parameters, at least ``d + 3`` for any width,
    the Omega(d) that Han & Ghoshdastidar contrast with the transformer's
    ``n_heads * m``. With ``train_hidden=False`` the first layer keeps its
    random initialization and only the read-out is trained (a random-features
    model): ``width + 1`` trainable parameters and ``width * (d + 1)`` frozen
    ones, like the transformer's frozen random keys.

    Training is mini-batch gradient descent run through skorch (held as a
    private fitted attribute): PyTorch's default ``nn.Linear``
    initialization, then ``max_iter`` epochs (fewer with early stopping or
    ``target_accuracy``), on either

    * a fixed training set: ``fit(X, y)``, each epoch over all training rows
      in a fresh random order; or
    * fresh data (online SGD): with ``target_function`` set, every step
      draws ``batch_size`` new uniform strings and labels them with the
      function, so that memory does not bound d; an epoch is as many steps
      as a pass over X would take (``ceil(n_samples / batch_size)``), and X
      (labelled by y, or by the function when y is None) only monitors the
      accuracy.

    Parameters
    ----------
    width : int, default=32
        Number of hidden units.
    activation : {"relu", "gelu", "tanh", "logistic", "square", \
"identity"}, default="relu"
        Hidden non-linearity sigma: ``relu`` ``max(z, 0)``, ``gelu`` (exact,
        erf-based), ``tanh``, ``logistic`` ``1 / (1 + exp(-z))``, ``square``
        ``z ** 2`` (one unit computes a 2-sparse XOR exactly),
        ``identity`` (a linear model, which cannot fit any parity).
    loss : {"logistic", "squared_error"}, default="logistic"
        ``"logistic"``: ``log(1 + exp(-y f(x)))`` on labels ``y in {-1, +1}``
        (binary cross-entropy with ``f`` as the logit; enables
        ``predict_proba``). ``"squared_error"``: ``(f(x) - y) ** 2``, the
        transformer's loss.
    optimizer : {"adam", "adamw", "sgd"}, default="adam"
        Torch optimizer.
    learning_rate : float, default=0.01
        Step size of the optimizer.
    momentum : float, default=0.9
        Momentum of ``optimizer="sgd"``; ignored otherwise.
    weight_decay : float, default=0.0
        L2 penalty (``"adam"``, ``"sgd"``) or decoupled weight decay
        (``"adamw"``).
    max_iter : int, default=100
        Maximum number of epochs (passes over the training rows).
    batch_size : int or None, default=128
        Mini-batch size; None (or a size >= the number of training rows) uses
        full-batch gradient descent. With ``target_function``: the fresh
        strings per step (None: ``n_samples``).
    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the data (stratified) and stop
        when the validation loss has not improved by at least ``tol`` for
        ``n_iter_no_change`` epochs; the weights of the best epoch are kept.
        When False, exactly ``max_iter`` epochs run (unless
        ``target_accuracy`` stops them). Needs a fixed training set: not
        with ``target_function``.
    validation_fraction : float, default=0.1
        Share of the data held out for early stopping.
    n_iter_no_change : int, default=10
        Patience of early stopping, in epochs.
    tol : float, default=1e-4
        Smallest decrease of the validation loss that counts as improvement.
    train_hidden : bool, default=True
        Train the first layer (``w_j``, ``c_j``). When False it stays at its
        random initialization (frozen, not counted in ``n_parameters_``) and
        only the read-out ``a``, ``c_0`` is trained: random features.
    %(target_function)s
    %(target_accuracy)s
    %(binarize)s
    %(dtype)s
    device : str or torch.device, default="cpu"
        Torch device for fit. A model fitted on an accelerator predicts on
        the CPU (with a warning) where that device is absent.
    %(verbose)s
    %(callbacks)s
    random_state : int, RandomState instance or None, default=None
        Seeds the initial weights, the batch order, the validation split and
        the fresh strings.
        Torch is seeded inside ``fit`` only; its global generator is left as
        it was. The same seed gives bit-identical fits on the same machine.

    Attributes
    ----------
    n_parameters_ : int
        Trainable parameters: ``width * (n_features_in_ + 2) + 1``, or
        ``width + 1`` with ``train_hidden=False``.
    n_frozen_parameters_ : int
        Parameters kept at their initialization: 0, or
        ``width * (n_features_in_ + 1)`` with ``train_hidden=False``.
    %(loss_curve_)s
    accuracy_curve_ : list of float
        Monitored accuracy after each epoch (empty unless
        ``target_accuracy`` is set).
    validation_loss_curve_ : list of float or None
        Validation loss after each epoch when ``early_stopping``, else None.
    history_ : skorch.History
        skorch's per-epoch record (losses, durations, batch counts).
    n_iter_ : int
        Number of epochs run.
    %(fitted_data_)s

    See Also
    --------
    skxor.SparseXORTransformer : The attention model with ``n_heads * m``
        trainable parameters.

    Examples
    --------
    >>> from skxor import FFNNParityBaseline
    >>> from skxor.datasets import make_sparse_parity
    >>> X, y = make_sparse_parity(1500, 10, support=[2, 7], random_state=0)
    >>> clf = FFNNParityBaseline(width=8, max_iter=30, random_state=0)
    >>> clf.fit(X[:1000], y[:1000]).n_parameters_  # 8 * (10 + 2) + 1
    97
    >>> clf.score(X[1000:], y[1000:])
    1.0

    Random features: the first layer frozen, only the read-out trained.

    >>> rf = FFNNParityBaseline(width=8, train_hidden=False, max_iter=2, random_state=0)
    >>> rf.fit(X[:1000], y[:1000]).n_parameters_, rf.n_frozen_parameters_
    (9, 88)

    Online SGD: every step a fresh batch labelled by the target function;
    X only monitors the accuracy and sets the epoch length.

    >>> from skxor.boolean import SparseParity
    >>> online = FFNNParityBaseline(width=8, target_function=SparseParity(10, [2, 7]),
    ...                             target_accuracy=1.0, max_iter=200, random_state=0)
    >>> online.fit(X[:1000]).accuracy_curve_[-1]
    1.0
    """

    _parameter_constraints = {
        "width": [Integers(1, None, closed="left")],
        "activation": [StrOptions(set(ACTIVATIONS))],
        "loss": [StrOptions({"logistic", "squared_error"})],
        "optimizer": [StrOptions(set(_OPTIMIZERS))],
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "momentum": [Interval(Real, 0, 1, closed="left")],
        "weight_decay": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Integers(1, None, closed="left")],
        "batch_size": [Integers(1, None, closed="left"), None],
        "early_stopping": ["boolean"],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "n_iter_no_change": [Integers(1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "train_hidden": ["boolean"],
        "target_function": [callable, None],
        "target_accuracy": [Interval(Real, 0, 1, closed="right"), None],
        **SkorchTrainedClassifier._shared_constraints,
    }

    def __init__(
        self,
        width=32,
        *,
        activation="relu",
        loss="logistic",
        optimizer="adam",
        learning_rate=0.01,
        momentum=0.9,
        weight_decay=0.0,
        max_iter=100,
        batch_size=128,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=10,
        tol=1e-4,
        train_hidden=True,
        target_function=None,
        target_accuracy=None,
        binarize=None,
        dtype="float32",
        device="cpu",
        verbose=0,
        callbacks=None,
        random_state=None,
    ):
        self.width = width
        self.activation = activation
        self.loss = loss
        self.optimizer = optimizer
        self.learning_rate = learning_rate
        self.momentum = momentum
        self.weight_decay = weight_decay
        self.max_iter = max_iter
        self.batch_size = batch_size
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.tol = tol
        self.train_hidden = train_hidden
        self.target_function = target_function
        self.target_accuracy = target_accuracy
        self.binarize = binarize
        self.dtype = dtype
        self.device = device
        self.verbose = verbose
        self.callbacks = callbacks
        self.random_state = random_state

    # -- validation -----------------------------------------------------------

    def _check_params(self):
        if self.early_stopping and self.target_function is not None:
            raise ValueError(
                "early_stopping=True holds out part of a fixed training set; with "
                "target_function every batch is fresh. Use target_accuracy to stop "
                "on the monitored accuracy, or set early_stopping=False.")

    def _split(self, spins, target, y_spins, seed):
        """Stratified hold-out for early stopping, as tensors."""
        n_samples = spins.shape[0]
        try:
            train, valid = train_test_split(
                np.arange(n_samples),
                test_size=self.validation_fraction,
                stratify=y_spins,
                random_state=seed,
            )
        except ValueError as exc:
            raise ValueError(
                f"early_stopping=True cannot hold out validation_fraction="
                f"{self.validation_fraction} of {n_samples} samples with both "
                f"classes on each side ({exc}); use more data, another "
                "validation_fraction or early_stopping=False."
            ) from exc
        device = spins.device
        train = torch.as_tensor(np.sort(train), device=device)
        valid = torch.as_tensor(np.sort(valid), device=device)
        return (spins[train], target[train]), (spins[valid], target[valid])

    # -- training -------------------------------------------------------------

    def _fit(self, start):
        X, device, dtype = start.X, start.device, start.dtype
        seed = seed_from(start.rng)
        fresh = self.target_function is not None
        self._label_by_target_function(start)
        y_spins = start.y_spins

        spins = start.spins()
        target = self._targets(y_spins, dtype, device)
        callbacks = [("stop_on_non_finite", StopOnNonFinite(self.learning_rate))]
        if self.target_accuracy is not None:
            callbacks.append(("stop_at_accuracy", StopAtAccuracy(spins, target, self.target_accuracy)))
        if self.early_stopping:
            (spins, target), valid = self._split(spins, target, y_spins, seed)
            train_split = predefined_split(TensorDataset(*valid))
            callbacks.append((
                "early_stopping",
                EarlyStopping(
                    patience=self.n_iter_no_change,
                    threshold=self.tol,
                    threshold_mode="abs",
                    load_best=True,
                ),
            ))
        else:
            train_split = None  # no validation pass at all
        n_train = spins.shape[0]
        if fresh:  # drawn after the model's seed: fits on fixed data are unchanged
            batch_size = n_train if self.batch_size is None else self.batch_size
            iterator_kwargs = self._fresh_iterator(n_train, X.shape[1], seed_from(start.rng),
                                                   dtype, device, batch_size,
                                                   start.target_sign)
        else:
            batch_size = n_train if self.batch_size is None else min(self.batch_size, n_train)
            iterator_kwargs = {"iterator_train": TensorBatches, "iterator_train__shuffle": True}
        optimizer_kwargs = {"optimizer__weight_decay": self.weight_decay}
        if self.optimizer == "sgd":
            optimizer_kwargs["optimizer__momentum"] = self.momentum

        if not self.train_hidden:
            # Frozen parameters get no gradient; the optimizers skip them.
            callbacks.append(("freeze_hidden", Freezer("hidden.*")))
        net = self._train_net(
            TwoLayerNetwork,
            spins,
            target,
            seed,
            device,
            module__n_features=X.shape[1],
            module__width=self.width,
            module__activation=self.activation,
            module__dtype=dtype,
            optimizer=_OPTIMIZERS[self.optimizer],
            batch_size=batch_size,
            iterator_valid=TensorBatches,
            iterator_valid__batch_size=-1,  # the whole hold-out at once
            train_split=train_split,
            callbacks=callbacks,
            **iterator_kwargs,
            **optimizer_kwargs,
        )
        # Drop the reference to the hold-out tensors: a fitted model keeps no data.
        net.train_split = None

        self._net = net
        self._record_fit(start, net)
        self.validation_loss_curve_ = (
            history_column(net, "valid_loss") if self.early_stopping else None
        )
        self.n_parameters_ = count_module_parameters(net.module_)
        self.n_frozen_parameters_ = (
            sum(p.numel() for p in net.module_.parameters()) - self.n_parameters_
        )

    # -- prediction -----------------------------------------------------------

    def _forward(self):
        """The trained network (moved to the prediction device) and that device."""
        device = self._prediction_device()
        module = self._net.module_
        if next(module.parameters()).device != device:
            module.to(device)
        return module, device
