"""Private skorch plumbing shared by the estimators that train torch modules.

* :class:`TensorBatches`: mini-batches sliced out of in-memory tensors (one
  gather per batch instead of a ``DataLoader``'s per-sample collate).
* :class:`FreshBatches`: every batch a fresh sample from a generator
  (uniform strings labelled by a target function), no fixed data set.
* :class:`LeanNet`: a ``skorch.NeuralNet`` whose inner loop does only what
  a hand-written loop does, recording the mean loss once per epoch.
* :class:`StopOnNonFinite`: a clear ``ValueError`` once the loss is NaN/inf.
* :class:`StopAtAccuracy`: stop once a monitoring set is classified with a
  given accuracy.
"""

import numpy as np
import torch
from skorch import NeuralNet
from skorch.callbacks import Callback


class TensorBatches:
    """Mini-batches sliced straight out of a ``TensorDataset``'s two tensors.

    The order is drawn from torch's global CPU generator, so run training
    inside :func:`skxor._utils._torch.seeded_torch` for reproducibility.

    Parameters
    ----------
    dataset : torch.utils.data.TensorDataset
        Holds ``(X, y)``.
    batch_size : int
    shuffle : bool, default=False
    """

    def __init__(self, dataset, batch_size, shuffle=False):
        self.X, self.y = dataset.tensors
        self.batch_size = batch_size
        self.shuffle = shuffle

    def __len__(self):
        return -(-len(self.X) // self.batch_size)

    def __iter__(self):
        n = len(self.X)
        if self.batch_size >= n:  # one full batch: the order does not matter
            yield self.X, self.y
            return
        if self.shuffle:
            order = torch.randperm(n).to(self.X.device)
            for start in range(0, n, self.batch_size):
                rows = order[start : start + self.batch_size]
                yield self.X[rows], self.y[rows]
        else:
            for start in range(0, n, self.batch_size):
                stop = start + self.batch_size
                yield self.X[start:stop], self.y[start:stop]


class FreshBatches:
    """``n_batches`` freshly drawn batches per epoch; the dataset is ignored.

    Parameters
    ----------
    dataset : object
        Whatever skorch passes; unused (the data come from ``sampler``).
    batch_size : int
    sampler : callable
        ``sampler(batch_size) -> (X, y)`` tensors on the training device; it
        owns its (seeded) random generator.
    n_batches : int
        Batches per epoch.
    """

    def __init__(self, dataset, batch_size, sampler, n_batches):
        self.batch_size = batch_size
        self.sampler = sampler
        self.n_batches = n_batches

    def __len__(self):
        return self.n_batches

    def __iter__(self):
        for _ in range(self.n_batches):
            yield self.sampler(self.batch_size)


class LeanNet(NeuralNet):
    """A skorch net whose inner loop is: zero grad, forward, loss, backward, step.

    The loss is summed on the device and read once per epoch (no per-batch
    host synchronisation) and per-batch callbacks are not notified; the
    epoch-level machinery (history, ``PrintLog``, ``EarlyStopping``, timers,
    the callbacks below) works on the ``train_loss`` recorded per epoch.
    Build it with ``callbacks__train_loss=None, callbacks__valid_loss=None``.
    With ``record_batches = True`` each batch also gets its entry in the
    history (its size only: no loss is read per batch), for callbacks that
    look at the last batch, such as skorch's ``Checkpoint``.
    """

    record_batches = False

    def train_step(self, batch, **fit_params):
        Xi, yi = batch
        self.optimizer_.zero_grad(set_to_none=True)
        loss = self.criterion_(self.module_(Xi), yi)
        loss.backward()
        self.optimizer_.step()
        return {"loss": loss}

    def run_single_epoch(self, iterator, training, prefix, step_fn, **fit_params):
        if iterator is None:
            return
        if self.module_.training != training:
            self._set_training(training)
        losses, sizes = [], []
        for batch in iterator:
            losses.append(step_fn(batch, **fit_params)["loss"].detach())
            sizes.append(batch[0].shape[0])
            if self.record_batches:
                self.history.new_batch()
                self.history.record_batch(prefix + "_batch_size", sizes[-1])
        weights = torch.as_tensor(sizes, dtype=losses[0].dtype, device=losses[0].device)
        mean_loss = float(torch.stack(losses) @ weights) / sum(sizes)
        self.history.record(prefix + "_loss", mean_loss)
        self.history.record(prefix + "_batch_count", len(sizes))


class StopOnNonFinite(Callback):
    """Fail fast, with a clear message, once the training loss is NaN or inf.

    Parameters
    ----------
    learning_rate : float
        Named in the message when training diverges.
    probe : tuple of Tensor or None, default=None
        A few ``(X, y)`` rows: the loss of the initial network on them is
        measured at the start of training; when it is already non-finite the
        message names ``init_hint`` instead of the learning rate.
    init_hint : str or None, default=None
        What to change when the initial network overflows, e.g.
        ``"init_scale (got 1e+30)"``.
    """

    def __init__(self, learning_rate, probe=None, init_hint=None):
        self.learning_rate = learning_rate
        self.probe = probe
        self.init_hint = init_hint

    def on_train_begin(self, net, **kwargs):
        self.initial_loss_ = 0.0
        if self.probe is not None:
            X, y = self.probe
            with torch.no_grad():
                self.initial_loss_ = float(net.criterion_(net.module_(X), y))

    def on_epoch_end(self, net, **kwargs):
        loss = net.history[-1, "train_loss"]
        if np.isfinite(loss):
            return
        if self.init_hint is not None and not np.isfinite(getattr(self, "initial_loss_", 0.0)):
            raise ValueError(
                f"Training diverged: the initial network's loss is already "
                f"{self.initial_loss_} (its outputs overflow); use a smaller {self.init_hint}."
            )
        raise ValueError(
            f"Training diverged: the training loss became {loss} in epoch "
            f"{len(net.history)}; use a smaller learning_rate (got "
            f"{self.learning_rate!r})."
        )


class StopAtAccuracy(Callback):
    """Record the accuracy on a monitoring set each epoch; stop at a target.

    The module's output is thresholded at 0 and compared with the sign of
    the targets (``y > 0`` is the positive class, for 0/1 and -1/+1 targets
    alike). The accuracy goes to the history as ``"accuracy"``; reaching
    ``target`` ends training (skorch treats ``KeyboardInterrupt`` raised by a
    callback as a request to stop, as its own ``EarlyStopping`` does).

    Parameters
    ----------
    X, y : Tensor
        Monitoring inputs and targets, on the training device.
    target : float or None
        Accuracy at which to stop; None only records.
    """

    def __init__(self, X, y, target=None):
        self.X = X
        self.y = y
        self.target = target

    def on_epoch_end(self, net, **kwargs):
        module = net.module_
        training = module.training
        module.eval()
        with torch.no_grad():
            correct = (module(self.X) > 0) == (self.y > 0)
        module.train(training)
        accuracy = float(correct.double().mean())
        net.history.record("accuracy", accuracy)
        if self.target is not None and accuracy >= self.target:
            self.reached_ = True  # tells a deliberate stop from a user's Ctrl-C
            raise KeyboardInterrupt

    def on_train_begin(self, net, **kwargs):
        self.reached_ = False


def raise_if_interrupted(net, max_epochs, owner):
    """Re-raise a Ctrl-C that skorch swallowed during ``fit``.

    skorch ends training quietly on a ``KeyboardInterrupt``, which its
    callbacks also use to stop on purpose. Training that ended before
    ``max_epochs`` without a callback's deliberate stop (early stopping out
    of patience, a target accuracy reached) was interrupted by the user: a
    half-trained model must not look fitted (a study would checkpoint it).
    """
    from skorch.callbacks import EarlyStopping

    # max_epochs = 0: a model at initialisation (SensitivityProfiler(at_init=True)).
    completed = max_epochs == 0 or (
        len(net.history) == max_epochs and "train_loss" in net.history[-1])
    callbacks = [cb for _, cb in net.callbacks_]
    # Any EarlyStopping out of patience (the estimator's or a user's), or a
    # target accuracy reached.
    deliberate = any(
        isinstance(cb, EarlyStopping) and cb.misses_ >= cb.patience for cb in callbacks
    ) or any(isinstance(cb, StopAtAccuracy) and getattr(cb, "reached_", False)
             for cb in callbacks)
    if not completed and not deliberate:
        raise KeyboardInterrupt(
            f"{owner}.fit was interrupted after {len(net.history)} of {max_epochs} epochs."
        )


def user_callbacks(callbacks, taken):
    """A user's ``callbacks`` parameter as skorch's ``(name, callback)`` pairs.

    Parameters
    ----------
    callbacks : list or None
        skorch ``Callback`` instances or ``(name, callback)`` pairs.
    taken : list of str
        Names of the estimator's own callbacks, which a user's may not reuse.

    Returns
    -------
    pairs : list of (str, Callback)
        An unnamed callback is named after its class, as skorch names it.

    Examples
    --------
    >>> from skorch.callbacks import EpochTimer
    >>> from skxor._utils._skorch import user_callbacks
    >>> user_callbacks([EpochTimer(), ("timer", EpochTimer())], ["stop_on_non_finite"])[0][0]
    'EpochTimer'
    """
    pairs = []
    for item in callbacks or []:
        name, callback = item if isinstance(item, tuple) and len(item) == 2 else (None, item)
        if not isinstance(callback, Callback) or not isinstance(name, (str, type(None))):
            raise TypeError(
                "callbacks must be a list of skorch callbacks (skorch.callbacks.Callback "
                f"instances) or (name, callback) pairs; got {item!r}.")
        pairs.append((type(callback).__name__ if name is None else name, callback))
    names = [name for name, _ in pairs]
    clash = sorted({n for n in names if n in taken or names.count(n) > 1})
    if clash:
        raise ValueError(
            f"callbacks: the name(s) {clash} are used twice or by the estimator's own "
            f"callbacks {sorted(taken)}; pass (name, callback) pairs with other names.")
    return pairs


def quiet_settings(verbose, device):
    """skorch settings shared by the estimators: per-epoch logging only if verbose.

    ``PrintLog`` formats a table every epoch even when silent, and LeanNet
    records the mean training loss itself, so the default loss callbacks go.
    """
    from skorch.callbacks import PrintLog

    return dict(
        callbacks__print_log=PrintLog() if verbose else None,
        callbacks__train_loss=None,
        callbacks__valid_loss=None,
        verbose=verbose,
        device=str(device),
    )


def fit_seeded(net, X, y, seed, device, max_epochs, owner):
    """Initialise and train ``net`` on tensors under ``seed``; re-raise a Ctrl-C."""
    from torch.utils.data import TensorDataset

    from ._torch import seeded_torch

    with seeded_torch(seed, device):
        net.initialize()
        net.partial_fit(TensorDataset(X, y), None)
    raise_if_interrupted(net, max_epochs, owner)
    return net
