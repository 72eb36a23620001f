"""BooleanTransformerClassifier: a transformer classifier on bit strings.

After Köver et al. (2026, arXiv 2606.08768).
"""

from numbers import Real

import numpy as np
import torch
from sklearn.utils.validation import check_is_fitted

from .._utils._sklearn_compat import Interval, StrOptions
from .._utils._docstrings import fill_doc
from .._utils._skorch import (
    StopAtAccuracy,
    StopOnNonFinite,
    TensorBatches,
)
from .._utils._torch import torch_threads
from .._utils._validation import Integers, check_head_split
from ..nn import BooleanTransformer, BooleanTransformerConfig
from ._base import FreshDataMixin, SkorchTrainedClassifier

_SEED_MAX = np.iinfo(np.int32).max


@fill_doc
class BooleanTransformerClassifier(FreshDataMixin, SkorchTrainedClassifier):
    """Transformer classifier for Boolean functions of bit strings (Köver et al.).

    Each of the N input bits is a token of a
    :class:`~skxor.nn.BooleanTransformer` (token plus
    position embedding, ``n_layers`` layers of multi-head softmax attention
    and an MLP, layer norm with a stabilizer that may be 0); its scalar
    output f(x) is read at the last token, at a CLS token or at an
    end-of-string token, and the
    prediction is ``classes_[1]`` where ``f(x) > 0``.

    Training runs through skorch (internally) with AdamW for at most
    ``max_iter`` epochs, on either

    * a fixed training set: ``fit(X, y)``, one epoch being a pass over X in a
      fresh random order; or
    * fresh data: with ``target_function`` set, every step draws
      ``batch_size`` new uniform strings and labels them with the function;
      an epoch is as many steps as a pass over X would take
      (``ceil(n_samples / batch_size)``), and X (labelled by y, or by the
      function when y is None) only monitors the accuracy.

    With ``target_accuracy`` set, the accuracy on the training set (fixed
    data) or on X (fresh data) is measured after every epoch, and training
    stops once it reaches the target.

    Parameters
    ----------
    d_model : int, default=64
        Model width D; must be divisible by ``n_heads``.
    %(n_layers)s
    %(n_heads)s
    d_mlp : int or None, default=None
        MLP hidden width; None means ``4 * d_model``.
    positional : {"learned", "sinusoidal"}, default="learned"
        Position embeddings: learned, or fixed sinusoidal codes.
    norm : {"pre", "post"}, default="pre"
        Layer norm before each sub-layer (plus a final one) or after each
        residual sum.
    layer_norm_eps : float, default=1e-5
        Layer-norm stabilizer, ``>= 0``. With 0 a constant token would give
        ``0 / 0``; it is normalized to 0 instead (the norm outputs its bias),
        so no NaN ever appears (see :class:`skxor.nn.LayerNorm`).
    readout : {"last", "cls", "eos"}, default="last"
        Read f(x) at the last bit's token, at a prepended CLS token or at an
        appended end-of-string token (position N + 1, the recognizer form of
        Köver et al.).
    activation : {"relu", "gelu", "tanh", "logistic", "square", "identity"}, \
default="relu"
        MLP non-linearity.
    attention : str, default="softmax"
        Attention type of every layer: ``"softmax"`` or another name of
        :func:`skxor.nn.attention_names` (``"linear"``, ``"erf"``, or one
        added by :func:`skxor.nn.register_attention`), applied to the scores
        ``q k^T / sqrt(Dh)`` over the keys.
    init : {"default", "normal", "uniform", "xavier_uniform", \
"xavier_normal"}, default="default"
        ``"default"``: PyTorch's initialization of each layer. ``"normal"``:
        every parameter i.i.d. ``N(0, init_scale^2)``. ``"uniform"``: every
        parameter i.i.d. ``U[-init_scale, init_scale]``.
        ``"xavier_uniform"`` / ``"xavier_normal"``: every weight matrix
        Xavier-initialized with gain ``init_scale`` (biases 0, layer-norm
        gains 1; see :class:`skxor.nn.BooleanTransformer` for which
        matrices).
    init_scale : float, default=1.0
        sigma of ``"normal"``, half-width of ``"uniform"``, gain of the
        Xavier schemes (``U[-a, a]`` with ``a = init_scale * sqrt(6 /
        (fan_in + fan_out))``, or ``N(0, init_scale^2 * 2 / (fan_in +
        fan_out))``); unused by ``"default"``.
    loss : {"logistic", "squared_error"}, default="logistic"
        ``"logistic"``: ``log(1 + exp(-y f(x)))`` on labels ``y in {-1, +1}``
        (binary cross-entropy with f as the logit). ``"squared_error"``:
        ``(f(x) - y) ** 2``.
    learning_rate : float, default=1e-3
        AdamW step size.
    weight_decay : float, default=0.01
        AdamW's decoupled weight decay.
    max_iter : int, default=100
        Maximum number of epochs.
    batch_size : int, default=64
        Strings per gradient step (capped at n_samples for fixed data).
    %(target_function)s
    %(target_accuracy)s
    %(binarize)s
    %(dtype)s
    device : str or torch.device, default="cpu"
        Torch device for fit and predict. The fitted module is kept on the
        CPU, so a pickled model loads anywhere; predicting falls back to the
        CPU (with a warning) where the device is absent.
    %(verbose)s
    %(callbacks)s
    random_state : int, RandomState instance or None, default=None
        Seeds the initialization, the batch order and the fresh strings;
        torch's global generator is left untouched. The same seed gives
        bit-identical fits and decision values on the same machine, whatever
        the torch thread count or joblib ``n_jobs`` (fit and evaluation run
        on one torch thread).

    Attributes
    ----------
    module_ : BooleanTransformer
        The trained network (on the CPU, in eval mode).
    n_parameters_ : int
        Trainable parameters of the network.
    %(loss_curve_)s
    accuracy_curve_ : list of float
        Monitored accuracy after each epoch (empty unless
        ``target_accuracy`` is set).
    history_ : skorch.History
        skorch's per-epoch record.
    n_iter_ : int
        Number of epochs run.
    classes_ : ndarray of shape (2,)
        Labels; ``classes_[1]`` is the positive class. With
        ``target_function`` and ``y=None`` they are ``[0, 1]``.
    %(encoding_)s
    %(n_features_in_)s
    %(feature_names_in_)s

    See Also
    --------
    skxor.sensitivity.sensitivity_profile : Profile of a fitted classifier.

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.boolean import First, all_strings
    >>> from skxor import BooleanTransformerClassifier
    >>> X = all_strings(6)
    >>> clf = BooleanTransformerClassifier(
    ...     d_model=16, n_layers=1, n_heads=2, learning_rate=1e-2, max_iter=50,
    ...     target_function=First(6), target_accuracy=1.0, random_state=0)
    >>> clf.fit(X).score(X, First(6)(X))
    1.0
    >>> clf.n_iter_ < 50  # stopped at the target accuracy
    True
    """

    #: The network's parameters (all of :class:`~skxor.nn.BooleanTransformerConfig`
    #: but ``n_bits``, which X gives).
    _architecture = tuple(n for n in BooleanTransformerConfig.parameter_names() if n != "n_bits")

    _parameter_constraints = {
        **{name: BooleanTransformerConfig.constraints[name] for name in _architecture},
        "loss": [StrOptions({"logistic", "squared_error"})],
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "weight_decay": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Integers(1, None, closed="left")],
        "batch_size": [Integers(1, None, closed="left")],
        "target_function": [callable, None],
        "target_accuracy": [Interval(Real, 0, 1, closed="right"), None],
        **SkorchTrainedClassifier._shared_constraints,
    }

    def __init__(
        self,
        d_model=64,
        n_layers=2,
        n_heads=4,
        d_mlp=None,
        *,
        positional="learned",
        norm="pre",
        layer_norm_eps=1e-5,
        readout="last",
        activation="relu",
        attention="softmax",
        init="default",
        init_scale=1.0,
        loss="logistic",
        learning_rate=1e-3,
        weight_decay=0.01,
        max_iter=100,
        batch_size=64,
        target_function=None,
        target_accuracy=None,
        binarize=None,
        dtype="float32",
        device="cpu",
        verbose=0,
        callbacks=None,
        random_state=None,
    ):
        self.d_model = d_model
        self.n_layers = n_layers
        self.n_heads = n_heads
        self.d_mlp = d_mlp
        self.positional = positional
        self.norm = norm
        self.layer_norm_eps = layer_norm_eps
        self.readout = readout
        self.activation = activation
        self.attention = attention
        self.init = init
        self.init_scale = init_scale
        self.loss = loss
        self.learning_rate = learning_rate
        self.weight_decay = weight_decay
        self.max_iter = max_iter
        self.batch_size = batch_size
        self.target_function = target_function
        self.target_accuracy = target_accuracy
        self.binarize = binarize
        self.dtype = dtype
        self.device = device
        self.verbose = verbose
        self.callbacks = callbacks
        self.random_state = random_state

    # -- validation -----------------------------------------------------------

    # Interval constraints without an upper bound still admit inf.
    _finite_params = ("layer_norm_eps", "init_scale", "learning_rate", "weight_decay", "binarize")

    def _check_params(self):
        check_head_split(self.d_model, self.n_heads)

    # -- training -------------------------------------------------------------

    def _fit(self, start):
        fresh = self.target_function is not None
        device, dtype = start.device, start.dtype
        n_samples, n_bits = start.X.shape
        init_seed, train_seed, data_seed = (int(s) for s in start.rng.randint(_SEED_MAX, size=3))

        spins = start.spins()
        self._label_by_target_function(start)
        y_spins = start.y_spins
        target = self._targets(y_spins, dtype, device)

        # The parameters passed _parameter_constraints and _check_params: the
        # configuration is built without checking them again.
        config = BooleanTransformerConfig(
            n_bits=n_bits, **{name: getattr(self, name) for name in self._architecture}
        )
        module = BooleanTransformer.from_config(config, seed=init_seed).to(dtype=dtype)

        init_hint = None
        if self.init != "default":
            init_hint = f"init_scale (got {self.init_scale!r}, init={self.init!r})"
        stop = StopOnNonFinite(self.learning_rate, (spins[:256], target[:256]), init_hint)
        callbacks = [("stop_on_non_finite", stop)]
        if self.target_accuracy is not None:
            callbacks.append(("stop_at_accuracy", StopAtAccuracy(spins, target, self.target_accuracy)))
        batch_size = min(self.batch_size, n_samples) if not fresh else self.batch_size
        iterator_kwargs = (self._fresh_iterator(n_samples, n_bits, data_seed, dtype, device,
                                                sign=start.target_sign)
                           if fresh else
                           {"iterator_train": TensorBatches, "iterator_train__shuffle": True})
        # One torch thread: float sums then do not depend on the caller's
        # thread count (joblib workers, OMP_NUM_THREADS), so fits are bit-identical.
        with torch_threads(1):
            net = self._train_net(
                module, spins, target, train_seed, device,
                optimizer=torch.optim.AdamW,
                optimizer__weight_decay=self.weight_decay,
                batch_size=batch_size,
                train_split=None,
                callbacks=callbacks,
                **iterator_kwargs,
            )

        # The callbacks hold the monitoring tensors: keep only the record.
        self._record_fit(start, net)
        self.module_ = net.module_.cpu().eval()
        self.n_parameters_ = self.module_.n_parameters

    # -- prediction -----------------------------------------------------------

    def _forward(self):
        """The fitted module and its device; one torch thread, as in fit."""
        module, device = self._predict_module()

        def forward(spins):
            with torch_threads(1):  # thread-count independent, like fit
                return module(spins)

        return forward, device

    def _neighbour_forward(self):
        """Every flip's output from the row's first layer (``BooleanTransformer.flip_neighbours``)."""
        module, device = self._predict_module()

        def neighbours(spins):
            with torch_threads(1):  # thread-count independent, like fit
                return module.flip_neighbours(spins)

        return neighbours, device

    @fill_doc
    def layer_norm_inverse_std(self, X):
        """Layer-norm blow-up ``1 / sqrt(var + eps)`` of every norm's input.

        The full forward pass is run and, for each layer norm, the inverse
        standard deviation of its input is recorded per string and token
        (``inf`` for an exactly constant token with ``layer_norm_eps=0``).

        %(parameters_X_predict)s

        Returns
        -------
        inverse_std : dict of str to ndarray of shape (n_samples, n_tokens)
            Keyed by layer norm, in the order the input meets them:
            ``"layers.{l}.ln_attn"``, ``"layers.{l}.ln_mlp"`` and, for
            pre-norm, ``"ln_final"``; ``n_tokens`` is N (+1 with a CLS or eos token).
        """
        check_is_fitted(self)
        module, device = self._predict_module()
        _, chunks = self._spin_chunks(X, device)
        parts = {}
        for _, spins in chunks:
            for name, values in module.layer_norm_inverse_std(spins).items():
                parts.setdefault(name, []).append(values.double().numpy())
        names = self.module_.layer_norm_names
        if not parts:
            return {name: np.empty((0, self.module_.n_tokens)) for name in names}
        return {name: np.concatenate(parts[name]) for name in names}
