"""SparseXORTransformer: the one-layer, H-head attention classifier.

After Han & Ghoshdastidar (2025, arXiv 2502.07553).
"""

from numbers import Real

import numpy as np
import torch
from sklearn.utils import gen_batches
from sklearn.utils.validation import check_is_fitted

from .._utils._sklearn_compat import Interval, StrOptions
from .._utils._docstrings import fill_doc
from .._utils._torch import count_module_parameters, head_product
from .._utils._encoding import to_spins
from .._utils._validation import Integers, check_dtype
from ..nn import SparseXORAttention, attention_constraint, sparse_xor_init
from ._base import TorchBinaryClassifier

#: Elements of X converted and multiplied at once in a training pass: small
#: enough that a chunk's spins stay in cache between its two products.
_PASS_CHUNK_ELEMENTS = 1 << 20
#: Training rows (at most) on which fit checks the read-out's orientation.
_ORIENTATION_ROWS = 4096
#: Subsample accuracy at which the paper's orientation is kept without a mirror fit.
_ORIENTATION_ACCURACY = 0.9
#: The mirror must beat the paper's subsample accuracy by at least this much
#: (and three standard errors): two chance-level fits never swap.
_ORIENTATION_MARGIN = 0.1


def _exclusive_products(Z):
    """``Q[h] = prod_{g != h} Z[g]`` for Z of shape (H, c), without dividing."""
    if Z.shape[0] == 2:  # the common case, and the same values as below
        return Z.flip(0)
    ones = Z.new_ones((1, Z.shape[1]))
    left = torch.cumprod(torch.cat([ones, Z[:-1]]), dim=0)
    right = torch.cumprod(torch.cat([ones, Z.flip(0)[:-1]]), dim=0).flip(0)
    return left * right


def _scaled_exclusive_products(Z, dtype):
    """``(Q, e)`` with ``Q[h] * 2**e = prod_{g != h} Z[g]``, Q in ``dtype``, ``max |Q|`` in [1, 2).

    The products of H - 1 head averages (each about ``1/sqrt(d)``)
    underflow float32 from about 16 heads and float64 from about 170, so
    they are formed from log2-magnitudes (sums, never differences, so a zero
    factor is harmless) and scaled by a power of two: exact, so that the
    gradient scaled back is the one without scaling. ``e`` is None when every
    product is 0. With at most two heads there is no product to underflow.
    """
    if Z.shape[0] <= 2:
        return _exclusive_products(Z), 0
    logs = torch.log2(Z.abs().to(torch.float64))  # (H, c), -inf where Z == 0
    zeros = logs.new_zeros((1, Z.shape[1]))
    left = torch.cumsum(torch.cat([zeros, logs[:-1]]), dim=0)
    right = torch.cumsum(torch.cat([zeros, logs.flip(0)[:-1]]), dim=0).flip(0)
    exclusive = left + right
    top = exclusive.max()
    if top == -torch.inf:
        return None, None
    e = int(torch.floor(top))
    Q = _exclusive_products(torch.sign(Z)) * torch.exp2(exclusive - e)
    return Q.to(dtype), e


@fill_doc
class SparseXORTransformer(TorchBinaryClassifier):
    """One-layer attention classifier that learns sparse XOR (Han & Ghoshdastidar).

    Positions are keys: ``v_1 .. v_d`` are drawn uniformly from the unit
    sphere in R^m and frozen. Bits are values. Each of the ``n_heads`` heads
    has one trainable query ``theta_h``; its attention weights over the
    positions, ``gamma_h = attn(v_i . theta_h)``, average the input spins,
    and the output is ``f(x) = -prod_h (sum_i gamma_{h,i} x_i)``. Training is
    gradient descent on the mean squared error against labels in {-1, +1};
    the default is a single full-batch, normalized gradient step.

    Class orientation: the read-out ``-prod_h(...)`` has a fixed sign, so a
    model of this form fits ``y = -x_i x_j`` but not ``y = +x_i x_j``. ``fit``
    therefore trains the paper's orientation first and, only if that does not
    classify a subsample of the training rows (at most 4096, evenly spaced)
    with accuracy at least 0.9, also trains its mirror (the same keys, initial
    queries and batch order, fitted to the negated labels) and keeps the
    mirror when it is clearly better on that subsample: lower squared error
    and an accuracy higher by more than 0.1 and more than three standard
    errors (two chance-level fits never swap). The choice is
    ``output_sign_``: the model computes ``f(x) = -output_sign_ * prod_h
    (gamma_h . x)``. On labels in the paper's orientation that it learns
    (``make_sparse_parity`` output), ``output_sign_`` is 1 and the fit is the
    paper's model exactly; on negated or renamed labels the fit is that
    model's exact mirror.

    Trainable parameters: ``n_heads * m`` (the ``d * m`` keys are frozen).

    Parameters
    ----------
    m : int, default=32
        Embedding dimension of keys and queries.
    attention : {"softmax", "linear", "erf"}, default="softmax"
        ``softmax``: ``exp(s_i) / sum_j exp(s_j)`` (stable for any score
        size); ``linear``: ``(1 + s_i) / d``; ``erf``: ``(1 + erf(s_i)) / d``.
        All equal ``1/d`` at ``theta = 0``.
        Any other type registered with :func:`skxor.nn.register_attention`
        is accepted too (:func:`skxor.nn.attention_names`).
    n_heads : int, default=2
        Number of heads H (at most d); use H = k for a k-sparse parity. The
        product over heads, far below float32's range with many heads, is
        taken from scaled log-magnitudes, so float32 and float64 take the same
        step for every H and predictions keep their sign.
    init : {"antisymmetric", "random"}, default="antisymmetric"
        ``"antisymmetric"``: ``theta_2 = -theta_1``, ``theta_1`` uniform on the
        sphere (for H > 2, a uniformly rotated regular simplex, pairwise
        inner products ``-1/(H-1)``; needs ``m >= H - 1``). ``"random"``:
        independent uniform unit vectors.
    learning_rate : "normalized" or float, default="normalized"
        ``"normalized"``: each step is ``theta <- theta - step_length * g /
        ||g||`` with g the gradient of all queries together. A float gives
        plain gradient descent ``theta <- theta - learning_rate * g``.
    step_length : float, default=100.0
        Length of a normalized step in query space (only used with
        ``learning_rate="normalized"``). Large steps make the softmax sharp.
    max_iter : int, default=1
        Number of passes over the data (epochs). With ``batch_size=None`` one
        pass is one full-batch step.
    batch_size : int or None, default=None
        Mini-batch size; None uses the full batch. Mini-batches are drawn
        without replacement in a fresh random order each epoch.
    %(binarize)s
    %(dtype)s
    device : str, default="cpu"
        Torch device for fit. A model fitted on an accelerator predicts on the
        CPU (with a warning) when that device is absent.
    random_state : int, RandomState instance or None, default=None
        Seeds the keys, the initial queries and the mini-batch order.

    Attributes
    ----------
    keys_ : ndarray of shape (d, m)
        The frozen positional keys.
    queries_ : ndarray of shape (n_heads, m)
        The trained queries.
    initial_queries_ : ndarray of shape (n_heads, m)
        The queries before training.
    attention_ : ndarray of shape (n_heads, d)
        Attention weights of each head over the positions.
    support_ : ndarray of shape (n_heads,)
        The position each head attends to most.
    n_parameters_ : int
        Trainable parameters, ``n_heads * m``.
    output_sign_ : {1, -1}
        Sign of the read-out chosen in fit: ``f(x) = -output_sign_ *
        prod_h (gamma_h . x)`` (1 is the paper's model).
    loss_curve_ : list of float
        Training loss per epoch, measured during the pass that computed the
        gradient (so ``loss_curve_[0]`` is the loss at initialization).
    n_iter_ : int
        Number of epochs run: always ``max_iter`` (no early stopping).
    %(fitted_data_)s

    See Also
    --------
    skxor.theory.population_loss : Exact loss of the same model on uniform inputs.
    skxor.nn.CLSTransformer : The equivalent standard transformer.

    Examples
    --------
    >>> from skxor import SparseXORTransformer
    >>> from skxor.datasets import make_sparse_parity
    >>> X, y, S = make_sparse_parity(30000, 40, support=[3, 17],
    ...                              return_support=True, random_state=0)
    >>> clf = SparseXORTransformer(m=16, random_state=0).fit(X, y)
    >>> sorted(clf.support_.tolist())
    [3, 17]
    >>> clf.n_parameters_
    32
    """

    _parameter_constraints = {
        "m": [Integers(1, None, closed="left")],
        "attention": [attention_constraint()],
        "n_heads": [Integers(1, None, closed="left")],
        "init": [StrOptions({"antisymmetric", "random"})],
        "learning_rate": [
            StrOptions({"normalized"}),
            Interval(Real, 0, None, closed="neither"),
        ],
        "step_length": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Integers(1, None, closed="left")],
        "batch_size": [Integers(1, None, closed="left"), None],
        **TorchBinaryClassifier._shared_constraints,
    }

    def __init__(
        self,
        m=32,
        *,
        attention="softmax",
        n_heads=2,
        init="antisymmetric",
        learning_rate="normalized",
        step_length=100.0,
        max_iter=1,
        batch_size=None,
        binarize=None,
        dtype="float32",
        device="cpu",
        random_state=None,
    ):
        self.m = m
        self.attention = attention
        self.n_heads = n_heads
        self.init = init
        self.learning_rate = learning_rate
        self.step_length = step_length
        self.max_iter = max_iter
        self.batch_size = batch_size
        self.binarize = binarize
        self.dtype = dtype
        self.device = device
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # f(-x) = (-1)^H f(x): with two heads the model cannot tell x from -x,
        # so it cannot fit the common checks' blobs (a near-dictator labelling).
        tags.classifier_tags.poor_score = True
        return tags

    # -- validation ---------------------------------------------------------

    # -- training -------------------------------------------------------------

    def _loss_and_gradient(self, model, X, rows, y, n_rows, encoding, dtype, device,
                           mirror=False):
        """``(loss, grad, scale)``: the mean squared error over ``X[rows]`` and its
        gradient ``grad * 2**scale`` with respect to the queries, chunk by chunk.

        The gradient comes scaled by a power of two (exact) because with many
        heads it lies far below the dtype's range (see
        :func:`_scaled_exclusive_products`). The attention weights (d, H) are formed once; each chunk contributes
        ``spins @ gamma`` forward and ``dZ.T @ spins`` backward, so nothing of
        size n * d * m is built and memory stays bounded.

        With ``mirror=True`` the same pass also returns the loss and the
        attention gradient ``(H, d)`` and its scale on the negated labels
        ``-y`` from the same queries: the first step of the mirror fit. The loss is not
        label-linear but ``dZ`` is cheap ``(c, H)``; the costly parts, the
        spins of each chunk, ``spins @ gamma`` and the backward product, are
        shared (one stacked ``(2H, c) @ (c, d)`` product).
        """
        gamma = model.weights()  # (d, H), on the autograd tape
        # (H, d), contiguous: gamma_t @ spins.T is the fast form of spins @ gamma
        # (see SparseXORAttention.read_out).
        gamma_t = gamma.detach().T.contiguous()
        n_heads, d = gamma_t.shape
        signs = (1, -1) if mirror else (1,)
        # The attention gradient is kept as grad_gamma_t * 2**scale: with many
        # heads it is far below float32's (or float64's) range.
        grad_gamma_t = gamma_t.new_zeros((len(signs) * n_heads, d))
        scale = None
        totals = [torch.zeros((), dtype=dtype, device=device) for _ in signs]
        block = X[rows]
        targets = torch.as_tensor(y[rows], dtype=dtype, device=device)
        chunk_rows = max(1, _PASS_CHUNK_ELEMENTS // d)
        # One buffer for every chunk's spins: a fresh allocation per chunk
        # costs more in page faults than the conversion itself.
        buffer = torch.empty((min(chunk_rows, block.shape[0]), d), dtype=dtype, device=device)
        for chunk in gen_batches(block.shape[0], chunk_rows):
            spins = to_spins(block[chunk], encoding, self.binarize,
                             out=buffer[: chunk.stop - chunk.start])
            target = targets[chunk]
            Z = gamma_t @ spins.T  # (H, c): the head averages
            # loss = sum_x (-prod_h Z_h - t)^2 / n, so dloss/dZ_h = 2 (P + t)
            # Q_h / n with P = prod_h Z_h and Q_h the product of the others.
            P = head_product(Z)
            Q, e = _scaled_exclusive_products(Z, dtype)
            if e is not None and (scale is None or e > scale):
                if scale is not None:  # rescale what is summed so far (exact)
                    grad_gamma_t = torch.ldexp(grad_gamma_t, grad_gamma_t.new_tensor(scale - e))
                scale = e
            dZ = []
            for k, sign in enumerate(signs):
                # P - t equals P + (-t) exactly, so the mirror's terms are bit
                # for bit those of a fit on -y.
                r = P + target if sign == 1 else P - target
                totals[k] += (r ** 2).sum() / n_rows
                if e is not None:
                    dZ.append(torch.ldexp(Q * (r * (2.0 / n_rows)), Q.new_tensor(e - scale)))
            # dZ @ spins rather than spins.T @ dZ.T: the same product, but torch
            # runs the transposed-operand form several times slower.
            if dZ:
                grad_gamma_t += torch.cat(dZ) @ spins
        scale = 0 if scale is None else scale
        grad = self._query_gradient(model, grad_gamma_t[:n_heads].contiguous(), gamma)
        loss_grad = float(totals[0]), grad, scale
        if not mirror:
            return loss_grad
        return loss_grad, (float(totals[1]), grad_gamma_t[n_heads:].contiguous(), scale)

    @staticmethod
    def _query_gradient(model, grad_gamma_t, gamma=None):
        """The queries' gradient given the attention weights' gradient ``(H, d)``.

        ``gamma``: the attention weights on the autograd tape, if formed.
        """
        model.queries.grad = None
        (model.weights() if gamma is None else gamma).backward(grad_gamma_t.T)
        return model.queries.grad

    def _step(self, model, grad, scale):
        """One step along the gradient ``grad * 2**scale``."""
        with torch.no_grad():
            if self.learning_rate == "normalized":
                # The direction only: the scale (a power of two) drops out.
                norm = torch.linalg.vector_norm(grad)
                if norm > 0:  # a zero gradient (e.g. constant data) leaves theta put
                    model.queries -= self.step_length * grad / norm
            else:
                # ldexp is exact; a gradient below the dtype's range steps by 0.
                model.queries -= self.learning_rate * torch.ldexp(grad, grad.new_tensor(scale))
            if not torch.isfinite(model.queries).all():
                raise ValueError(
                    "The gradient step overflowed to non-finite query values; "
                    f"use a smaller {self._step_parameter()}."
                )

    def _train(self, start, keys, queries, y_spins, rng, *, share_mirror=False, first=None):
        """Gradient descent from ``queries`` on ``y_spins``: (model, loss curve, mirror).

        ``share_mirror=True``: the first step's pass also computes the first
        step of the mirror fit (on ``-y_spins``, returned as ``mirror``).
        ``first``: that precomputed ``(loss, attention gradient, scale)``, used for
        the first step instead of a pass over the data (the mirror fit).
        """
        X, dtype, device = start.X, start.dtype, start.device
        n_samples = X.shape[0]
        model = SparseXORAttention(
            torch.as_tensor(keys, dtype=dtype, device=device),
            # A copy: the in-place steps must not write into initial_queries_.
            torch.tensor(queries, dtype=dtype, device=device),
            self.attention,
        )
        batch_size = n_samples if self.batch_size is None else min(self.batch_size, n_samples)
        loss_curve = []
        mirror = None
        for epoch in range(self.max_iter):
            if batch_size == n_samples:
                batches = [slice(None)]
            else:
                order = rng.permutation(n_samples)
                batches = [order[rows] for rows in gen_batches(n_samples, batch_size)]
            epoch_loss = 0.0
            for b, rows in enumerate(batches):
                n_rows = n_samples if isinstance(rows, slice) else rows.shape[0]
                is_first = epoch == 0 and b == 0
                if is_first and first is not None:
                    loss, grad, scale = first[0], self._query_gradient(model, first[1]), first[2]
                elif is_first and share_mirror:
                    (loss, grad, scale), mirror = self._loss_and_gradient(
                        model, X, rows, y_spins, n_rows, start.encoding, dtype, device,
                        mirror=True,
                    )
                else:
                    loss, grad, scale = self._loss_and_gradient(
                        model, X, rows, y_spins, n_rows, start.encoding, dtype, device
                    )
                epoch_loss += loss * n_rows / n_samples
                self._step(model, grad, scale)
            loss_curve.append(epoch_loss)
        return model, loss_curve, mirror

    def _step_parameter(self):
        """The parameter that sets the step size, for error messages."""
        if self.learning_rate == "normalized":
            return f"step_length (got {self.step_length!r})"
        return f"learning_rate (got {self.learning_rate!r})"

    def _check_output_range(self, attention, dtype):
        """Refuse queries whose read-out can overflow (linear/erf attention).

        ``|f(x)| <= prod_h sum_i |gamma_{h,i}|``; when that bound is beyond the
        largest value of ``dtype``, ``decision_function`` could return inf.
        """
        gamma = attention.detach().cpu().double().numpy()
        with np.errstate(over="ignore", invalid="ignore"):
            bound = np.prod(np.abs(gamma).sum(axis=1))
        if not np.isfinite(gamma).all() or not bound <= torch.finfo(dtype).max:
            raise ValueError(
                "Training produced attention weights whose read-out overflows "
                f"{str(dtype).replace('torch.', '')} (|f(x)| can reach {bound:.3g}); "
                f"use a smaller {self._step_parameter()}."
            )

    @staticmethod
    def _orientation_rows(n_samples):
        """Evenly spaced training rows (at most ``_ORIENTATION_ROWS``) for the sign check."""
        step = -(-n_samples // _ORIENTATION_ROWS)
        return np.arange(0, n_samples, step)

    def _fit_quality(self, start, X_rows, attention, target, sign):
        """Accuracy and mean squared error of ``sign * (-prod)`` on the rows ``X_rows``.

        In the fit's dtype, as ``predict`` computes it, chunk by chunk
        through one spins buffer.
        """
        n_rows, d = X_rows.shape
        gamma = attention.detach().T
        chunk_rows = max(1, _PASS_CHUNK_ELEMENTS // d)
        buffer = torch.empty((min(chunk_rows, n_rows), d), dtype=start.dtype,
                             device=start.device)
        f = np.empty(n_rows)
        with torch.no_grad():
            for chunk in gen_batches(n_rows, chunk_rows):
                spins = to_spins(X_rows[chunk], start.encoding, self.binarize,
                                 out=buffer[: chunk.stop - chunk.start])
                f[chunk] = (sign * SparseXORAttention.read_out(spins, gamma, torch.float64)).cpu().numpy()
        return float(np.mean((f > 0) == (target > 0))), float(np.mean((f - target) ** 2))

    def _fit(self, start):
        n_samples, d = start.X.shape
        name = type(self).__name__
        if d < self.n_heads:
            raise ValueError(
                f"{name} needs at least n_heads={self.n_heads} features; got "
                f"{d} feature(s)."
            )
        rng = start.rng
        keys, queries = sparse_xor_init(d, self.m, self.n_heads, self.init, random_state=rng)
        # The mirrored fit replays the same mini-batch order.
        rng_state = rng.get_state()
        # The paper fit's first pass also computes the mirror's first step, so
        # that a mirror fit (below) costs no second pass for a one-step fit.
        model, loss_curve, mirror_first = self._train(
            start, keys, queries, start.y_spins, rng, share_mirror=True
        )
        with torch.no_grad():
            attention = model.weights().T  # (H, d)
        self._check_output_range(attention, start.dtype)

        # The paper's read-out -prod_h(gamma_h . x) has a fixed sign. Fit the
        # mirror (the paper model on -y, negated) only when the paper
        # orientation does not fit a subsample of the training rows, and keep
        # it only when it is clearly better there.
        sign = 1
        rows = self._orientation_rows(n_samples)
        X_rows = start.X[rows]
        target = start.y_spins[rows]
        accuracy, loss = self._fit_quality(start, X_rows, attention, target, 1)
        if accuracy < _ORIENTATION_ACCURACY:
            rng.set_state(rng_state)
            mirror_model, mirror_curve, _ = self._train(
                start, keys, queries, -start.y_spins, rng, first=mirror_first
            )
            with torch.no_grad():
                mirror_attention = mirror_model.weights().T
            self._check_output_range(mirror_attention, start.dtype)
            m_accuracy, m_loss = self._fit_quality(start, X_rows, mirror_attention, target, -1)
            margin = max(_ORIENTATION_MARGIN, 3 * np.sqrt(0.25 / rows.shape[0]))
            if m_loss < loss and m_accuracy > accuracy + margin:
                sign, model, loss_curve, attention = -1, mirror_model, mirror_curve, mirror_attention

        self._record_start(start)
        self.output_sign_ = sign
        self.loss_curve_ = loss_curve
        self.n_iter_ = self.max_iter
        self.keys_ = keys
        self.initial_queries_ = queries
        self.queries_ = model.queries.detach().cpu().numpy().astype(np.float64)
        self.attention_ = attention.cpu().numpy().astype(np.float64)
        self.support_ = np.argmax(self.attention_, axis=1)
        self.n_parameters_ = count_module_parameters(model)  # n_heads * m: keys are frozen

    # -- prediction -----------------------------------------------------------

    def _forward(self):
        """``f(x) = -output_sign_ * prod_h (gamma_h . x)`` from the fitted attention."""
        device = self._prediction_device()
        gamma = torch.as_tensor(self.attention_.T, dtype=check_dtype(self.dtype), device=device)
        # The product over heads in float64: with many heads it is below
        # float32's range (decision_function returns float64 anyway).
        if getattr(self, "output_sign_", 1) == 1:
            return (lambda spins: SparseXORAttention.read_out(spins, gamma, torch.float64)), device
        return (lambda spins: -SparseXORAttention.read_out(spins, gamma, torch.float64)), device

    def _neighbour_forward(self):
        """Every flip's output from the row's head sums, ``O(d H)`` per row."""
        gamma = self.attention_.T  # (d, H), float64 holding the fit dtype's values
        sign = getattr(self, "output_sign_", 1)
        return (lambda spins: SparseXORAttention.neighbour_read_out(spins, gamma, sign)), torch.device("cpu")

    def _flip_certifier(self):
        """The decision-only form of ``flip_neighbours`` for the sensitivity tools.

        ``certify(X, floor) -> (outputs, row_sign, rows, cols, values)``:
        :func:`skxor.nn._sparse_xor.product_flip_certificate` of the rows of
        an X the caller made in ``encoding_`` (as for
        :meth:`_decision_checked`); ``outputs`` are the rows' own outputs in
        float64, which ``decision_function`` gives to float32 rounding, and
        the listed flips' values are those of :meth:`flip_neighbours`. None
        for a subclass that changes the model (``_forward`` or
        ``_neighbour_forward``).
        """
        check_is_fitted(self)
        cls = type(self)
        if any(getattr(cls, name) is not getattr(SparseXORTransformer, name)
               for name in ("_forward", "_neighbour_forward")):
            return None
        certificate = SparseXORAttention.neighbour_certificate(
            self.attention_.T, getattr(self, "output_sign_", 1))

        def certify(X, floor):
            if self.encoding_ == "pm1" and X.dtype == np.int8:
                # Spins as given: no float copy of X (the same values, the same sums).
                return certificate(X, floor)
            _, chunks = self._spin_chunks(X, torch.device("cpu"), checked=True)
            parts = []
            for rows, spins in chunks:
                own, row_sign, r, c, v = certificate(spins, floor)
                parts.append((own, row_sign, r + rows.start, c, v))
            if not parts:
                empty = np.empty(0, dtype=np.int64)
                return np.empty(0), np.empty(0, dtype=np.int8), empty, empty, np.empty(0)
            return tuple(np.concatenate(p) for p in zip(*parts))

        return certify
