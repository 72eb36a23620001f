"""A model's outputs read as decisions that do not depend on how it was batched.

The rule every sensitivity tool uses to read a real output as a label (or,
with a margin, as accept / reject / undecided): an output within a rounding
bound of a threshold is evaluated again alone, in float64 where the model
allows, and that value decides (:func:`stable_decisions`); for a torch
module :class:`ModuleReference` is that one-string reference. The helpers
that name a model, its input and its outputs in error messages live here too.
"""

import contextlib
import copy
import functools
import threading
import warnings

import numpy as np
import torch

from ._encoding import encode_for_model
from ._warnings import SkxorRuntimeWarning


def _format_string(row, limit=64):
    """One input string for a message: ``0110`` for bits, else its values."""
    if isinstance(row, torch.Tensor):
        row = row.detach().cpu().numpy()
    row = np.asarray(row).ravel()
    head = row[:limit]
    if np.isin(head, [0, 1]).all():
        text = "".join(str(int(v)) for v in head)
    else:
        text = " ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in head.tolist())
    return f"[{text}{' ...' if row.size > limit else ''}] ({row.size} bits)"


def _describe_input(x):
    dtype = x.dtype if hasattr(x, "dtype") else type(x).__name__
    return f"{type(x).__name__} of dtype {dtype}"


def _describe(f):
    """A short name for error messages: a function's name, else its class."""
    if callable(f) and hasattr(f, "__qualname__") and not isinstance(f, type):
        return f"function {f.__qualname__}"
    return type(f).__name__


def _one_per_string(out, n_rows, what, expected=None):
    """``out`` (array or tensor) as one entry per string, a column raveled.

    Any shape other than ``(n_rows,)`` or ``(n_rows, 1)`` is refused with a
    ValueError naming ``what`` returned it and ``expected`` (default
    ``"(n_rows,)"``).
    """
    if out.ndim == 2 and out.shape[1] == 1:
        out = out[:, 0]
    if tuple(out.shape) != (n_rows,):
        raise ValueError(
            f"{what} returned an output of shape {tuple(out.shape)} for {n_rows} "
            f"strings; it must return one label per string, shape "
            f"{expected or f'({n_rows},)'}."
        )
    return out


#: Strings whose outputs set the scale of a model's rounding bound: a fixed
#: draw, evaluated as one batch, so that the bound is the same every call.
_SCALE_PROBE = 256

#: At most this many bits in the probe (and at least 16 strings): for long
#: strings the probe must not cost more than the profile it serves (256
#: strings of 10^5 bits are 2.6 times a sampled profile's 100 strings).
_SCALE_PROBE_BITS = 1 << 16


@functools.lru_cache(maxsize=8)
def _probe_draw(n_bits, dtype):
    n_strings = min(_SCALE_PROBE, max(16, _SCALE_PROBE_BITS // n_bits))
    return np.random.default_rng(0).integers(0, 2, (n_strings, n_bits), dtype=dtype)


def probe_strings(n_bits, dtype=np.uint8):
    """The fixed 0/1 strings whose outputs set a model's output scale (a fresh copy).

    256 strings up to N = 256 bits, then ``2^16 / N`` (at least 16), from
    one seeded draw, so that the bound is the same every call (the draw is
    kept for the next call). The draw depends on ``dtype``: torch modules
    have used the int64 one, skxor's classifiers the uint8 one.
    """
    return _probe_draw(int(n_bits), np.dtype(dtype)).copy()


def rounding_bound(dtype, scale):
    """How close to a threshold an output of a ``dtype`` model is "at" it.

    ``sqrt(eps) * scale``: 3.5e-4 of the model's output scale in float32,
    1.5e-8 in float64. The same string's output differs between batches,
    chunk sizes and kernels by a few eps of the scale (4.8e-7 measured for
    a float32 :class:`~skxor.nn.BooleanTransformer` with outputs of order
    1), far inside this bound.
    """
    return float(np.sqrt(torch.finfo(dtype).eps)) * float(scale)


#: Rows per float64 forward of the re-checks (:meth:`ModuleReference.recompute`).
_RECHECK_BLOCK = 1 << 10

#: The bound of a model in a low-precision dtype is at least this many times
#: the largest difference between its outputs and a float64 evaluation of it
#: on the probe strings (see :meth:`ModuleReference.bound`).
_MEASURED_ERROR_FACTOR = 16


def stable_decisions(out, recompute, bound, margin=0.0):
    """Decisions from real outputs that do not depend on how they were batched.

    The rule every sensitivity tool uses to turn a model's real outputs into
    decisions. An output farther than ``bound`` from a threshold (0, or
    ``-margin`` and ``margin``) is decided by its sign as given; an output
    within ``bound`` of one is evaluated again by ``recompute``, as the
    string alone would be (in float64 where the model allows; a torch
    module's :class:`ModuleReference` scores the strings in blocks and
    evaluates alone those whose block value is a float64 tie), and that
    value decides. So whenever two evaluations of a string (another
    batch size, chunking or kernel) differ by less than ``bound``, the
    decision is the one of the single-string evaluation either way.

    Parameters
    ----------
    out : array-like of shape (n,)
        Real outputs of n strings, as evaluated in some batch.
    recompute : callable
        ``recompute(rows) -> ndarray of shape (len(rows),)``: the outputs of
        the strings ``rows`` (indices into ``out``), each evaluated alone.
    bound : float
        The rounding bound (see :func:`rounding_bound`), ``>= 0``.
    margin : float, default=0.0
        With 0: +1 where the output is > 0, else -1. With ``xi > 0``: +1
        where it is ``>= xi``, -1 where ``<= -xi``, 0 (undecided) between.

    Returns
    -------
    decisions : ndarray of shape (n,), dtype int8
    n_redecided : int
        How many outputs were within ``bound`` of a threshold and decided
        by ``recompute``.

    Raises
    ------
    ValueError
        When an output is NaN or infinite: its decision is undefined (a NaN
        would otherwise read as "reject" at margin 0 and "undecided" above).

    Examples
    --------
    >>> import numpy as np
    >>> from skxor._utils._decisions import stable_decisions
    >>> exact = np.array([2.0, -1e-9, 0.5])
    >>> batched = exact + [0.0, 3e-9, 0.0]  # rounding put the 2nd above 0
    >>> stable_decisions(batched, lambda rows: exact[rows], bound=1e-6)
    (array([ 1, -1,  1], dtype=int8), 1)
    """
    out = np.asarray(out, dtype=np.float64)
    bad = ~np.isfinite(out)
    if bad.any():
        raise ValueError(
            f"The model returned non-finite outputs (NaN or inf) for {int(bad.sum())} of "
            f"{out.size} strings; its decision is undefined there."
        )
    if margin == 0:
        # The same rule without further float64 temporaries (a sampled profile
        # of long strings decides 10^7 flip outputs at once): |out| <= bound
        # is -bound <= out <= bound exactly.
        rows = np.flatnonzero((out <= bound) & (out >= -bound))
        decisions = (out > 0).view(np.int8) * 2 - 1
        if rows.size:
            again = np.asarray(recompute(rows), dtype=np.float64)
            decisions[rows] = np.where(again > 0, 1, -1)
        return decisions, int(rows.size)
    out = out.copy()
    distance = np.abs(np.abs(out) - margin)
    rows = np.flatnonzero(distance <= bound)
    if rows.size:
        out[rows] = np.asarray(recompute(rows), dtype=np.float64)
    decisions = (out >= margin).astype(np.int8) - (out <= -margin).astype(np.int8)
    return decisions, int(rows.size)


#: Reference passes under way in this process (threads share torch's switch).
_REFERENCE_DEPTH = [0, None]  # [count, the switch's value before the first]
_REFERENCE_LOCK = threading.Lock()


@contextlib.contextmanager
def eval_mode(module):
    """``module`` in eval mode (dropout etc. off) inside, its own modes restored after."""
    modes = [(m, m.training) for m in module.modules()]
    module.eval()
    try:
        yield module
    finally:
        for m, training in modes:
            m.training = training


@contextlib.contextmanager
def _reference_kernels():
    """torch's fused attention fast path off: a single string's reference pass.

    The switch is process-wide: threads (joblib's threading backend) nest
    their passes under one lock and the last one out restores the value the
    first one found (two threads each restoring what they found could
    leave it off for good).
    """
    backend = getattr(torch.backends, "mha", None)
    if backend is None or not hasattr(backend, "set_fastpath_enabled"):
        yield
        return
    with _REFERENCE_LOCK:
        if _REFERENCE_DEPTH[0] == 0:
            _REFERENCE_DEPTH[1] = backend.get_fastpath_enabled()
            backend.set_fastpath_enabled(False)
        _REFERENCE_DEPTH[0] += 1
    try:
        yield
    finally:
        with _REFERENCE_LOCK:
            _REFERENCE_DEPTH[0] -= 1
            if _REFERENCE_DEPTH[0] == 0:
                backend.set_fastpath_enabled(_REFERENCE_DEPTH[1])


def _finite_scale(values):
    """The largest finite magnitude among ``values`` (0 when none is finite)."""
    values = np.abs(np.asarray(values, dtype=np.float64))
    values = values[np.isfinite(values)]
    return float(values.max()) if values.size else 0.0


def real_scores(out):
    """A module's outputs as one real score per string (numpy float64).

    ``(n,)`` or ``(n, 1)`` as is; ``(n, 2)`` logits as ``l_1 - l_0`` (the
    argmax is 1 exactly where it is > 0).
    """
    if out.ndim == 2 and out.shape[1] == 2:
        out = out[:, 1] - out[:, 0]
    elif out.ndim == 2 and out.shape[1] == 1:
        out = out[:, 0]
    return out.detach().to("cpu", torch.float64).numpy()


class ModuleReference:
    """A torch module's single-string, float64 evaluation and its output scale.

    The reference for :func:`stable_decisions`: a float64 copy of the
    module (the module itself where it cannot be copied or run in float64),
    in eval mode, with torch's fused attention kernel off; its sign on a
    string is that of the string evaluated alone (see :meth:`recompute`). ``scale`` is the largest output magnitude on a
    fixed draw of strings (:func:`probe_strings`, one batch), so that the
    bound is the same for every batch.

    ``sqrt(eps) * scale`` ignores the sizes of the values inside the model:
    a float32 model whose layer norm sees a tiny variance, or that
    subtracts large activations, loses far more than a few ulps of its
    output. So for a module below float64 the probe strings also run
    through the float64 copy, and the bound is at least
    ``_MEASURED_ERROR_FACTOR`` (16) times the largest difference measured
    there (outputs within it are decided by the float64 copy); where the
    difference exceeds ``sqrt(eps) * scale`` itself, a RuntimeWarning says
    so. A string more ill-conditioned than every probe string may still be
    misread: profile ``model.double()`` for labels that do not depend on
    float32 rounding.
    """

    def __init__(self, module, n_bits, dtype, device, input_encoding="pm1", call=None):
        self.module = module
        self.dtype = dtype
        self.device = device
        self.input_encoding = input_encoding
        self.call = call or (lambda m, x: m(x))
        self._copy = None
        self._scale = None
        self.n_bits = n_bits

    def _model(self):
        if self._copy is None:
            try:
                model = copy.deepcopy(self.module).to(torch.float64).eval()
                dtype = torch.float64
                model(torch.ones(1, self.n_bits, dtype=dtype, device=self.device))
            except Exception:  # noqa: BLE001 - any module: fall back to itself
                model, dtype = self.module, self.dtype
            self._copy = (model, dtype)
        return self._copy

    def bound(self):
        if self._scale is None:
            x = torch.as_tensor(probe_strings(self.n_bits, np.int64), dtype=self.dtype,
                                device=self.device)
            x = encode_for_model(x, self.input_encoding, dtype=self.dtype, device=self.device)
            # In eval mode, as the float64 copy runs: a module left in training
            # mode would measure its dropout noise as rounding error.
            with torch.no_grad(), eval_mode(self.module):
                out = real_scores(self.call(self.module, x))
            self._scale = _finite_scale(out)
            usual = rounding_bound(self.dtype, self._scale)
            error = self._measured_error(x, out)
            self._bound = max(usual, _MEASURED_ERROR_FACTOR * error)
            if error > usual:  # the usual bound fails on the probe strings themselves
                warnings.warn(
                    f"{type(self.module).__name__} in {self.dtype} is ill-conditioned: on "
                    f"{x.shape[0]} probe strings its outputs differ from a float64 evaluation "
                    f"by up to {error:.3g}, more than the usual rounding bound {usual:.3g} "
                    f"(sqrt(eps) times its output scale {self._scale:.3g}): its internal "
                    "values, such as a layer norm's inverse standard deviation, are far "
                    f"larger than its outputs. Outputs within {self._bound:.3g} of a "
                    "threshold are decided in float64; for labels that do not depend on its "
                    "rounding, use a float64 model (model.double()).",
                    SkxorRuntimeWarning,
                    stacklevel=2,
                )
        return self._bound

    def _measured_error(self, x, out):
        """Largest ``|out - float64 output|`` on the probe strings ``x`` (0 in float64,
        or where no float64 copy runs)."""
        if self.dtype == torch.float64:
            return 0.0
        model, dtype = self._model()
        if dtype != torch.float64:
            return 0.0
        try:
            with torch.no_grad(), _reference_kernels():
                reference = real_scores(self.call(model, x.to(dtype)))
        except Exception:  # noqa: BLE001 - any module: no measurement, the usual bound
            return 0.0
        return _finite_scale(out - reference)

    def tie_bound(self):
        """How close to a threshold a float64 output evaluated in a batch is "at" it.

        ``sqrt(eps)`` of float64 times the output scale (1.5e-8 of it), and
        at least the module's bound scaled from its dtype's eps to
        float64's: the same string's float64 output differs between a batch
        and a lone evaluation by a few float64 eps of the scale (kernels
        that block rows differently), about 10^8 times less.
        """
        bound = self.bound()
        ratio = torch.finfo(torch.float64).eps / torch.finfo(self.dtype).eps
        return max(rounding_bound(torch.float64, self._scale), bound * ratio)

    def recompute(self, x, thresholds=(0.0,)):
        """``recompute(rows)`` for :func:`stable_decisions` on the batch ``x``.

        The value of each row evaluated alone, in float64. A module below
        float64 is first evaluated on blocks of the rows (one float64
        forward per ``_RECHECK_BLOCK`` rows, not one per row: 10^5 rows at
        0.6 ms each were 60 s); the rows whose block value lies within
        :meth:`tie_bound` of one of ``thresholds`` (0, or ``-margin`` and
        ``margin``) are then evaluated alone, and only their lone values
        can differ from the block's by more than rounding, so the signs
        (hence the decisions) are those of the lone evaluation of every row.
        """
        def alone(rows, values, model, dtype):
            for j, r in enumerate(rows):
                one = x[int(r) : int(r) + 1].to(dtype=dtype)
                values[j] = real_scores(self.call(model, one))[0]

        def outputs(rows):
            model, dtype = self._model()
            rows = np.asarray(rows, dtype=np.int64)
            values = np.empty(rows.size)
            with torch.no_grad(), _reference_kernels():
                if dtype != torch.float64 or self.dtype == torch.float64 or rows.size < 2:
                    # No float64 copy, or a float64 module: its bound is the tie
                    # bound, so every row would be evaluated alone anyway.
                    alone(rows, values, model, dtype)
                    return values
                index = torch.from_numpy(rows).to(x.device)
                for begin in range(0, rows.size, _RECHECK_BLOCK):
                    block = x[index[begin : begin + _RECHECK_BLOCK]].to(dtype=dtype)
                    values[begin : begin + block.shape[0]] = real_scores(self.call(model, block))
                tie = self.tie_bound()
                near = np.zeros(rows.size, dtype=bool)
                for t in thresholds:
                    near |= np.abs(values - t) <= tie
                near |= ~np.isfinite(values)
                if near.any():
                    again = np.empty(int(near.sum()))
                    alone(rows[near], again, model, dtype)
                    values[near] = again
            return values

        return outputs
