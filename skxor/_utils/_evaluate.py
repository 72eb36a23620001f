"""Any model as a Boolean function of 0/1 strings: callables, estimators, torch modules.

Shared by :mod:`skxor.boolean` (``truth_table``) and :mod:`skxor.sensitivity`.

:class:`ModelEvaluator` turns a model into ``bits (n, N) uint8 -> labels (n,)
uint8 in {0, 1}``, which is all the sensitivity tools need. It decides how
the strings are presented to the model (its input encoding) and how the
model's outputs are read as Boolean values:

* a :class:`~skxor.boolean.BooleanFunction` gets 0/1 bits (uint8);
* any other callable gets a C-contiguous int64 array of shape (n, N), one row
  per string: 0/1 bits (or -1/+1 spins with ``input_encoding="pm1"``). int64
  so that sums, products and differences a callable computes cannot wrap
  round (with uint8, ``1 - 2 * (X.sum(1) % 2)`` gives 255 and 2^64 - 1). It
  must return labels 0/1, -1/+1 or bools (+1 / 1 / True is the value 1);
* a fitted estimator gets X in the encoding it was fitted with (its
  ``encoding_`` attribute, see below), else 0/1 bits; its predictions are
  mapped ``classes_[1] -> 1``, ``classes_[0] -> 0``. A skxor classifier
  (one with ``_decision_checked``) is given these strings, which this
  module made, without checking them again;
* a torch module gets floats in its input encoding, on its own device and
  dtype: the one asked for, else the one it declares (its ``input_encoding``;
  the modules in :mod:`skxor.nn` declare spins ``1 - 2 b``, the library's
  internal encoding), else a ValueError (:func:`module_input_encoding`); a
  real output is thresholded at 0 (positive -> 1), a bool output used as is,
  and a two-column output read as logits (argmax);
* a 1-D array of length ``2^N`` is a truth table.

``input_encoding="01"``, ``"pm1"`` or ``"2b-1"`` (spins ``2 b - 1``) sets the
input encoding.

For a skxor estimator fitted with ``binarize=t`` (``encoding_ ==
"binarized"``) bit b must be presented as a value that the estimator maps back
to b: plain 0/1 works when ``0 <= t < 1`` (0 is not above t, 1 is); for any
other threshold the strings are presented as ``t + b`` (float), since
``t + 1 > t`` and ``t`` is not above ``t``.

Over 600 lines because it is one class: :class:`ModelEvaluator`'s dispatch over
the kinds of model, its batching and its flip neighbours belong together (the
boundary rule they share lives in :mod:`skxor._utils._decisions`).
"""

import inspect
import numbers

import numpy as np
import torch
from sklearn.utils.validation import check_is_fitted

from ._bits import (
    bits_to_index,
    block_bits,
    check_exhaustive_bits,
    index_to_bits,
    largest_power_of_two_at_most,
    low_bits_pattern,
)
from ._decisions import (
    ModuleReference,
    _describe,
    _describe_input,
    _finite_scale,
    _format_string,
    _one_per_string,
    _reference_kernels,
    eval_mode,
    probe_strings,
    real_scores,
    rounding_bound,
    stable_decisions,
)
from ._docstrings import fill_doc
from ._encoding import ENCODING_NAMES, MODEL_INPUT_ENCODINGS, encode_for_model
from ._validation import check_count

#: Default number of strings per model call.
DEFAULT_BATCH_SIZE = 1 << 16

#: At most this many bits (strings x N) per model call, whatever batch_size:
#: 4 Mi bits are 32 MiB as the int64 a callable gets (an estimator may hold
#: several float copies of its input: ~200 MiB measured). It only bites for
#: N > 64 at the default batch size (never for exhaustive profiles, N <= 28).
MAX_CALL_BITS = 1 << 22


def strings_per_call(batch_size, n_bits):
    """Strings per model call: ``batch_size``, capped at ``MAX_CALL_BITS / N``.

    Peak memory of a call is then bounded by ``min(batch_size, 2^22 / N) * N``
    entries of the model's input, whatever the string length N.
    """
    return max(1, min(int(batch_size), MAX_CALL_BITS // max(1, int(n_bits))))


def _check_finite_weights(module, name):
    """Refuse a module with a NaN or infinite parameter (or a buffer of skxor's own modules).

    Its outputs are undefined, and which of them come out NaN depends on
    the kernels (torch's fused attention can return finite values from a
    NaN query): refused up front, every path of every tool gives the same
    error. A user module's buffers may hold infinities on purpose (an
    attention mask), so only skxor's are checked.
    """
    tensors = list(module.named_parameters())
    for prefix, sub in module.named_modules():
        if type(sub).__module__.split(".")[0] == "skxor":
            tensors += [(f"{prefix}.{key}" if prefix else key, b)
                        for key, b in sub.named_buffers(recurse=False)]
    for key, tensor in tensors:
        if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
            raise ValueError(
                f"{name} has non-finite weights (NaN or inf) in {key}; its outputs and "
                "predicted labels are undefined (did its training diverge?)."
            )


def _evaluates_bits(f):
    """A Boolean function of skxor's kind: ``n_bits`` and ``_evaluate_bits(bits)``.

    (:class:`skxor.boolean.BooleanFunction`, recognized by what it does so
    that this module need not import the layer above it.)
    """
    return hasattr(f, "n_bits") and callable(getattr(f, "_evaluate_bits", None))


def module_input_encoding(module):
    """The input encoding a torch module declares (its ``input_encoding``), else an error.

    skxor's modules (:mod:`skxor.nn`) declare spins ``1 - 2b`` (``"pm1"``).
    Nothing else in a module says whether it was trained on bits, on spins
    ``1 - 2b`` or on spins ``2b - 1``, and each gives another Boolean
    function (spins of the other sign: the same sensitivity counts on the
    complemented truth table), so a module that declares none must be given
    one.
    """
    declared = getattr(module, "input_encoding", None)
    if declared in MODEL_INPUT_ENCODINGS:
        return declared
    name = type(module).__name__
    if declared is not None:
        raise ValueError(
            f"{name}.input_encoding must be one of {MODEL_INPUT_ENCODINGS}; got "
            f"{declared!r}."
        )
    raise ValueError(
        f"The input encoding of the torch module {name} is unknown: pass "
        "input_encoding='pm1' (spins x = 1 - 2b, skxor's convention: bit 0 is +1), "
        "'2b-1' (spins x = 2b - 1: bit 1 is +1) or '01' (bits), the one it was trained "
        f"on, or set {name}.input_encoding. Spins of the other sign give the same "
        "sensitivity counts but the complemented truth table; bits give another "
        "function."
    )


@fill_doc
class ModelEvaluator:
    """A model seen as a Boolean function of 0/1 strings (see the module docstring).

    Parameters
    ----------
    f : callable, fitted estimator, torch.nn.Module or ndarray
        The model. A 1-D ndarray of length ``2^n_bits`` is a truth table.
    %(n_bits)s
    input_encoding : {"01", "pm1"} or None, default=None
        How strings are presented to the model; None picks per model kind.
    fallback_encoding : {"01", "pm1"}, default="01"
        Encoding for an estimator without an ``encoding_`` attribute.
    """

    def __init__(self, f, n_bits, input_encoding=None, fallback_encoding="01"):
        self.n_bits = check_count(n_bits, "n_bits")
        if input_encoding is not None and input_encoding not in MODEL_INPUT_ENCODINGS:
            raise ValueError(
                f"input_encoding must be None or one of {MODEL_INPUT_ENCODINGS}; got "
                f"{input_encoding!r}."
            )
        self.model = f
        # As asked (None: per model kind), for a worker's own evaluator.
        self.requested_encoding = input_encoding
        #: Outputs decided by the single-string re-evaluation (see stable_decisions).
        self.n_redecided = 0
        self._reference = None
        self._certifier = None
        self._scorer = None
        #: Why the exhaustive path evaluates string by string (see exhaustive_scorer).
        self.exhaustive_fallback = None
        self._saw_zero = self._saw_minus = False
        self._low_cache = {}
        self._shift = None
        self._as_float = False
        self.classes = None
        if isinstance(f, np.ndarray):
            self.kind = "table"
            self.table = self._check_table(f)
            self.input_encoding = "01"
        elif _evaluates_bits(f):
            self.kind = "boolean"
            if f.n_bits != self.n_bits:
                raise ValueError(
                    f"{f!r} takes {f.n_bits} bits, but n_bits={self.n_bits} was requested."
                )
            # Its values are those of the bits whatever they are presented
            # as: "2b-1" is presented as bits (its own call reads 0/1 and 1 - 2b).
            self.input_encoding = "pm1" if input_encoding == "pm1" else "01"
            table = getattr(f, "table", None)
            if isinstance(table, np.ndarray) and table.dtype == np.uint8 and table.ndim == 1:
                # A TruthTable (its table in skxor's conventions, checked when
                # made): look-ups, without strings to build and index again.
                self.kind, self.table = "table", table
        elif isinstance(f, torch.nn.Module):
            self.kind = "torch"
            self._setup_torch(f)
            self.input_encoding = input_encoding or module_input_encoding(f)
        elif hasattr(f, "predict") and hasattr(f, "fit"):
            self.kind = "estimator"
            self._setup_estimator(f)
            self.input_encoding = input_encoding or self._estimator_encoding(
                f, fallback_encoding
            )
            # An estimator that does not follow skxor's conventions gets float32
            # (what sklearn converts to anyway, and what torch wrappers need).
            self._as_float = not hasattr(f, "encoding_")
        elif callable(f):
            self.kind = "callable"
            self.input_encoding = input_encoding or "01"
        else:
            raise TypeError(
                "f must be a callable on 0/1 arrays, a fitted estimator, a torch "
                f"module or a truth table (1-D ndarray); got {_describe(f)}."
            )

    # -- set-up ---------------------------------------------------------------

    def _check_table(self, table):
        if table.ndim != 1 or table.shape[0] != 1 << self.n_bits:
            raise ValueError(
                f"A truth table for n_bits={self.n_bits} must be 1-D of length "
                f"2^{self.n_bits} = {1 << self.n_bits}; got shape {table.shape}."
            )
        if table.dtype == bool:
            return table.view(np.uint8)
        if table.dtype.kind not in "iuf":  # complex, strings, objects
            raise ValueError(
                f"A truth table must hold Boolean values 0/1; got dtype {table.dtype}."
            )
        if not np.isin(table, [0, 1]).all():
            bad = np.unique(table[~np.isin(table, [0, 1])])[:5].tolist()
            raise ValueError(
                f"A truth table must hold Boolean values 0/1; got the values {bad}."
            )
        return table.astype(np.uint8, copy=False)

    def _setup_torch(self, module):
        _check_finite_weights(module, _describe(module))
        tensors = list(module.parameters()) + list(module.buffers())
        self.device = tensors[0].device if tensors else torch.device("cpu")
        floating = [t.dtype for t in tensors if t.is_floating_point()]
        self.dtype = floating[0] if floating else torch.float32

    def _setup_estimator(self, estimator):
        check_is_fitted(estimator)
        module = getattr(estimator, "module_", None)
        if isinstance(module, torch.nn.Module):  # skxor's torch classifiers
            _check_finite_weights(module, _describe(estimator))
        n_features = getattr(estimator, "n_features_in_", None)
        if n_features is not None and n_features != self.n_bits:
            raise ValueError(
                f"{_describe(estimator)} was fitted on {n_features} features, but "
                f"n_bits={self.n_bits} was requested; profile strings of "
                f"{n_features} bits."
            )
        classes = getattr(estimator, "classes_", None)
        if classes is not None:
            classes = np.asarray(classes)
            if classes.ndim != 1 or classes.shape[0] > 2:
                raise ValueError(
                    "Only binary classification is supported: sensitivity is "
                    f"defined for Boolean functions, but {_describe(estimator)} "
                    f"has {classes.shape[0]} classes {classes.tolist()[:5]}; fit "
                    "it on two classes."
                )
            self.classes = classes

    def _estimator_encoding(self, estimator, fallback):
        encoding = getattr(estimator, "encoding_", None)
        if encoding in ("01", "pm1"):
            return encoding
        if encoding == "binarized":
            threshold = getattr(estimator, "binarize", None)
            if (
                isinstance(threshold, numbers.Real)
                and np.isfinite(threshold)
                and not 0 <= threshold < 1
            ):
                self._shift = float(threshold)
            return "01"
        return fallback

    # -- inputs ---------------------------------------------------------------

    def encode(self, bits):
        """The model input for 0/1 strings ``bits`` (uint8, shape (n, N))."""
        if self.kind == "torch":
            return encode_for_model(bits, self.input_encoding, dtype=self.dtype,
                                    device=self.device)
        if self._shift is not None:
            x = bits.astype(np.float64)
            x += self._shift
            return x
        if self.kind == "callable":
            # int64: whatever arithmetic the callable does cannot wrap round.
            dtype = np.int64
        elif self.input_encoding != "01" or self._as_float:
            dtype = np.float32 if self._as_float else np.int8
        else:
            return bits
        return encode_for_model(bits, self.input_encoding, dtype=dtype)

    def _low(self, size):
        """Low-bit pattern of an exhaustive block of ``size`` strings (cached)."""
        if size not in self._low_cache:
            low = low_bits_pattern(size.bit_length() - 1)
            if self.kind == "torch":
                low = self.encode(low)
            self._low_cache[size] = low
        return self._low_cache[size]

    # -- outputs --------------------------------------------------------------

    def _decode_labels(self, out, n_rows, x=None):
        """Map a callable's or label-less estimator's output to 0/1 (uint8).

        ``x`` is the batch the model got, quoted in the error for a bad label.
        """
        if isinstance(out, torch.Tensor):
            out = out.detach().cpu().numpy()
        out = _one_per_string(np.asarray(out), n_rows, _describe(self.model))
        if out.dtype == bool:
            return out.astype(np.uint8)
        if out.dtype.kind not in "biuf":
            raise ValueError(
                f"{_describe(self.model)} returned labels of dtype {out.dtype}; "
                "sensitivity needs Boolean labels 0/1, -1/+1 or bools."
            )
        is_one, is_zero, is_minus = out == 1, out == 0, out == -1
        if not (is_one | is_zero | is_minus).all():
            bad_rows = ~(is_one | is_zero | is_minus)
            bad = np.unique(out[bad_rows])[:5].tolist()
            first = int(np.flatnonzero(bad_rows)[0])
            where = ""
            if x is not None:
                where = (
                    f" (first: {out[first].item()!r} for the input string "
                    f"{_format_string(x[first])}, row {first} of a batch of {n_rows}, "
                    f"as the model received it: {_describe_input(x)})"
                )
            raise ValueError(
                f"{_describe(self.model)} returned non-binary labels {bad}{where}; "
                "sensitivity is defined for Boolean functions, so the model must "
                "return 0/1, -1/+1 or bools (for a real-valued score s, profile "
                "the predicted label, e.g. lambda X: score(X) > 0)."
            )
        self._saw_zero |= bool(is_zero.any())
        self._saw_minus |= bool(is_minus.any())
        if self._saw_zero and self._saw_minus:
            raise ValueError(
                f"{_describe(self.model)} returned the labels 0, -1 and 1; use "
                "either 0/1 or -1/+1 labels."
            )
        return is_one.astype(np.uint8)

    def _estimator_bound(self):
        """The rounding bound of a skxor torch classifier's decision values (cached)."""
        model = self.model
        if self._reference is None:
            scale = _finite_scale(self._decision(self.encode(probe_strings(self.n_bits))))
            self._reference = rounding_bound(torch.float32 if model.dtype == "float32"
                                             else torch.float64, scale)
        return self._reference

    def _estimator_recompute(self, X):
        """``recompute(rows)`` for :func:`stable_decisions`: decision values of rows of X, alone."""

        def recompute(rows):
            with _reference_kernels():
                return np.array([self._decision(X[int(r) : int(r) + 1])[0] for r in rows])

        return recompute

    def _is_skxor_classifier(self):
        """A skxor torch classifier: its label is the sign of ``decision_function``
        and it evaluates strings it is given in its own encoding unchecked
        (``_decision_checked``, see :mod:`skxor.estimators`)."""
        return callable(getattr(self.model, "_decision_checked", None))

    def _trusted(self):
        """Whether the strings presented are in the estimator's own encoding
        (then they are not checked again: the evaluator made them)."""
        encoding = getattr(self.model, "encoding_", None)
        return self._is_skxor_classifier() and encoding in ("binarized", self.input_encoding)

    def _decision(self, X):
        """``decision_function`` of strings this evaluator encoded."""
        if self._trusted():
            return self.model._decision_checked(X)
        return self.model.decision_function(X)

    def _stable_estimator_labels(self, X):
        """Labels of a skxor torch classifier from its decision values (see stable_decisions)."""
        decisions, n = stable_decisions(self._decision(X),
                                        self._estimator_recompute(X), self._estimator_bound())
        self.n_redecided += n
        return (decisions == 1).astype(np.uint8)

    def _estimator_labels(self, X, n_rows):
        if self._is_skxor_classifier() and self.classes is not None and self.classes.shape[0] == 2:
            # Its predict is classes_[1] exactly where decision_function > 0.
            return self._stable_estimator_labels(X)
        pred = np.asarray(self.model.predict(X))
        if self.classes is None:
            return self._decode_labels(pred, n_rows, X)
        pred = _one_per_string(pred, n_rows, f"{_describe(self.model)}.predict")
        known = np.isin(pred, self.classes)
        if not known.all():
            raise ValueError(
                f"{_describe(self.model)}.predict returned labels "
                f"{np.unique(pred[~known])[:5].tolist()} that are not among its "
                f"classes_ {self.classes.tolist()}."
            )
        if self.classes.shape[0] < 2:  # one class: a constant function
            return np.zeros(n_rows, dtype=np.uint8)
        return (pred == self.classes[1]).astype(np.uint8)

    def _run_module(self, function, x):
        """``function(x)`` with the module in eval mode and without autograd."""
        module = self.model
        # dropout etc. off: f must be a deterministic function
        with eval_mode(module), torch.inference_mode():
            try:
                return function(x)
            except RuntimeError as exc:
                # x is None where the module builds its tables (no batch yet).
                batch = ("building its tables" if x is None else
                         f"on a batch of strings of shape {tuple(x.shape)} "
                         f"({ENCODING_NAMES[self.input_encoding]}, {x.dtype})")
                raise ValueError(
                    f"{_describe(module)} failed {batch}; does it take {self.n_bits} "
                    f"input bits? torch said: {str(exc).splitlines()[0]}"
                ) from exc

    def _torch_labels(self, x):
        module = self.model
        out = self._run_module(module, x)
        if not isinstance(out, torch.Tensor):
            raise TypeError(
                f"{_describe(module)} must return a tensor of one output per "
                f"string; got {_describe(out)}."
            )
        n_rows = x.shape[0]
        if not (out.ndim == 2 and out.shape[1] == 2):
            out = _one_per_string(
                out, n_rows, _describe(module),
                f"({n_rows},) or ({n_rows}, 1) (a real score), or ({n_rows}, 2) (logits)",
            )
            if out.dtype == torch.bool:
                return out.to("cpu").numpy().astype(np.uint8)
        if not out.is_floating_point():  # integer scores: no rounding to undo
            return (real_scores(out) > 0).astype(np.uint8)
        return self._module_decisions(out, self._module_reference().recompute(x))

    def _module_reference(self):
        """The module's :class:`ModuleReference` (made once per evaluator)."""
        if self._reference is None:
            self._reference = ModuleReference(self.model, self.n_bits, self.dtype, self.device,
                                              self.input_encoding)
        return self._reference

    def _non_finite_outputs(self):
        """The one error of every path for a model whose outputs are NaN or inf."""
        return ValueError(
            f"{_describe(self.model)} returned non-finite outputs (NaN or inf); its "
            "predicted label is undefined there."
        )

    def _module_decisions(self, out, recompute):
        """Labels (uint8) of a module's real outputs ``out`` by :func:`stable_decisions`."""
        if not torch.isfinite(out).all():
            raise self._non_finite_outputs()
        decisions, n = stable_decisions(real_scores(out), recompute,
                                        self._module_reference().bound())
        self.n_redecided += n
        return (decisions == 1).astype(np.uint8)

    def _evaluate(self, x, n_rows):
        if self.kind == "torch":
            return self._torch_labels(x)
        if self.kind == "estimator":
            return self._estimator_labels(x, n_rows)
        if self.kind == "boolean" and self.input_encoding == "01":
            return self.model._evaluate_bits(x).astype(np.uint8, copy=False)
        if self.kind == "boolean":
            return self.model(x, encoding="pm1")
        return self._decode_labels(self.model(x), n_rows, x)

    # -- flip neighbours --------------------------------------------------------

    @property
    def has_flip_neighbours(self):
        """Whether the model evaluates the single-bit flips of a string itself.

        The flip-neighbour protocol: a torch module fed spins, or a fitted
        two-class estimator whose label is ``classes_[1]`` where its
        ``decision_function`` is positive, with a method
        ``flip_neighbours(X) -> (n, N)`` giving its real output on each row
        with bit i flipped (skxor's sparse-XOR, k-parity and Boolean
        transformer models and estimators).
        """
        if not callable(getattr(self.model, "flip_neighbours", None)):
            return False
        if self.kind == "torch":
            return self.input_encoding == "pm1"
        return (
            self.kind == "estimator"
            and callable(getattr(self.model, "decision_function", None))
            and self.classes is not None
            and self.classes.shape[0] == 2
        )

    def neighbour_outputs(self, bits):
        """Real outputs ``(own (n,), neighbours (n, N))`` of strings and their flips.

        ``neighbours[r, i]`` is the model's output on string r with bit i
        flipped, from the model's ``flip_neighbours`` (see
        :attr:`has_flip_neighbours`); ``own`` is its output on the strings
        themselves (``decision_function`` or the module's output, or
        ``flip_neighbours(X, return_outputs=True)`` where that exists, which
        agrees with them to float rounding). :meth:`neighbour_labels` turns
        them into labels by the rule every real output follows.
        """
        x = self.encode(bits)
        n_rows = bits.shape[0]
        together = "return_outputs" in inspect.signature(self.model.flip_neighbours).parameters
        if self.kind == "torch":
            if together:  # the string's own output from the same pass
                own, neighbours = self._run_module(
                    lambda x: self.model.flip_neighbours(x, return_outputs=True), x
                )
            else:
                own = self._run_module(self.model, x)
                neighbours = self._run_module(self.model.flip_neighbours, x)
            own = _one_per_string(own, n_rows, _describe(self.model), f"({n_rows},) (a real score)")
            own = own.detach().to("cpu").numpy()
            neighbours = neighbours.detach().to("cpu").numpy()
        elif self._trusted():
            # One pass over x for both; x is this evaluator's own (skxor's estimators).
            own, neighbours = self.model._flip_neighbours(x, return_outputs=True, checked=True)
        elif together:
            own, neighbours = map(np.asarray, self.model.flip_neighbours(x, return_outputs=True))
        else:
            own = np.asarray(self.model.decision_function(x))
            neighbours = np.asarray(self.model.flip_neighbours(x))
        if neighbours.shape != bits.shape:
            raise ValueError(
                f"{_describe(self.model)}.flip_neighbours returned shape "
                f"{neighbours.shape} for {n_rows} strings of {self.n_bits} bits; it "
                f"must return one output per string and bit, shape {bits.shape}."
            )
        for values in (own, neighbours):
            # A finite sum has only finite terms (NaN and inf propagate).
            if np.issubdtype(values.dtype, np.floating) and not np.isfinite(values.sum()):
                raise self._non_finite_outputs()
        return own, neighbours

    def _one_string_outputs(self):
        """``(bound, outputs)``: the rounding bound of the model's real outputs, and
        ``outputs(bits)`` evaluating 0/1 strings one at a time (the reference of
        :func:`stable_decisions`)."""
        if self.kind == "torch":
            reference = self._module_reference()
            return reference.bound(), lambda b: reference.recompute(self.encode(b))(range(len(b)))
        # A skxor classifier has its bound; another estimator's outputs are
        # re-decided only where they are exactly 0.
        bound = self._estimator_bound() if self._is_skxor_classifier() else 0.0
        return bound, lambda b: self._estimator_recompute(self.encode(b))(range(len(b)))

    def neighbour_labels(self, bits):
        """Labels (bool) ``(own (n,), neighbours (n, N))`` of strings and their flips.

        The outputs of :meth:`neighbour_outputs`, turned into labels by
        :func:`stable_decisions` as every real output is: one within the
        rounding bound of 0 is evaluated again alone (for a neighbour, the
        flipped string itself), and that value decides; they count in
        ``n_redecided``.
        """
        own, neighbours = self.neighbour_outputs(bits)
        n_bits = bits.shape[1]
        bound, outputs = self._one_string_outputs()

        def flipped(rows):
            strings = bits[rows // n_bits].copy()
            strings[np.arange(len(rows)), rows % n_bits] ^= 1
            return outputs(strings)

        own, n_own = stable_decisions(own, lambda rows: outputs(bits[rows]), bound)
        neighbours, n_flips = stable_decisions(neighbours.ravel(), flipped, bound)
        self.n_redecided += n_own + n_flips
        return own == 1, (neighbours == 1).reshape(bits.shape)

    @property
    def has_flip_certificate(self):
        """Whether the model also has the decision-only form of its flip neighbours.

        ``flip_certifier()`` of a torch module (the sparse-XOR attention and
        a one-layer softmax :class:`~skxor.nn.BooleanTransformer`), or
        ``_flip_certifier()`` of a skxor classifier given strings in its own
        encoding (:class:`~skxor.SparseXORTransformer`), returns
        ``certify(x, floor) -> (outputs, row_sign, rows, cols, values)``:
        the strings' own outputs (float64 ones that agree with the model's
        to rounding, or, where ``certify.model_outputs`` is true, the
        model's own arithmetic), the flips whose outputs it evaluated and,
        for every other flip of string r, the sign ``row_sign[r]`` of an
        output farther than ``floor`` from 0 (0 where it evaluated them
        all); it returns None where it has none (a subclass that changes the
        model). See :meth:`flip_changes`. The certifier is made once per
        evaluator.
        """
        if self._certifier is None:
            self._certifier = False
            if self.kind == "torch" and self.has_flip_neighbours:
                make = getattr(self.model, "flip_certifier", None)
                if callable(make):
                    self._certifier = self._run_module(lambda _: make(), None) or False
            elif self.has_flip_neighbours and self._trusted():
                make = getattr(self.model, "_flip_certifier", None)
                if callable(make):
                    self._certifier = make() or False
        return self._certifier is not False

    def flip_changes(self, bits):
        """``(rows, cols)``: the flips of each string that change its label.

        The labels of :meth:`neighbour_labels` (hence the same profile),
        from the model's certificate (:attr:`has_flip_certificate`), without
        forming every flip's output:

        * a flip it leaves unlisted has an output farther than twice the
          rounding bound from 0, which :func:`stable_decisions` decides by
          its sign, the one the certificate gives;
        * a listed flip's output is decided by :func:`stable_decisions`;
        * a string's own output is the certificate's, decided by
          :func:`stable_decisions`; where the certificate's are float64
          values rather than the model's own arithmetic, those within twice
          the bound of 0 are replaced by the model's outputs first (farther
          out, the sign decides either way: they differ by rounding, far
          less than the bound).
        """
        x = self.encode(bits)
        n_rows, n_bits = bits.shape
        bound, outputs = self._one_string_outputs()
        floor = 2.0 * bound
        if not self.has_flip_certificate:  # made once per evaluator: the model's tables
            raise TypeError(f"{_describe(self.model)} has no flip certificate.")
        if self.kind == "torch":
            own, row_sign, rows, cols, values = self._run_module(
                lambda x: self._certifier(x, floor), x)
        else:
            own, row_sign, rows, cols, values = self._certifier(x, floor)
        own = np.array(own, dtype=np.float64)
        if not (np.isfinite(own.sum()) and np.isfinite(np.sum(values))):
            raise self._non_finite_outputs()  # as the other paths say it
        near = np.flatnonzero(~(np.abs(own) > floor))
        if near.size and not getattr(self._certifier, "model_outputs", False):
            if self.kind == "torch":
                model_own = self._run_module(self.model, x[near])
                model_own = _one_per_string(model_own, near.size, _describe(self.model),
                                            f"({near.size},) (a real score)")
                own[near] = model_own.detach().to("cpu", torch.float64).numpy()
            else:
                own[near] = self._decision(x[near])
        own, n_own = stable_decisions(own, lambda r: outputs(bits[r]), bound)

        def flipped(entries):
            strings = bits[rows[entries]].copy()
            strings[np.arange(len(entries)), cols[entries]] ^= 1
            return outputs(strings)

        listed, n_flips = stable_decisions(values, flipped, bound)
        self.n_redecided += n_own + n_flips
        changed = listed != own[rows]
        change_rows, change_cols = [rows[changed]], [cols[changed]]
        # A certified string whose unlisted flips land on the other side of
        # 0 from its own decision: every unlisted flip changes the label.
        for r in np.flatnonzero((row_sign != 0) & (row_sign != own)):
            unlisted = np.setdiff1d(np.arange(n_bits), cols[rows == r], assume_unique=True)
            change_rows.append(np.full(unlisted.size, r, dtype=np.int64))
            change_cols.append(unlisted)
        return np.concatenate(change_rows), np.concatenate(change_cols)

    # -- public ---------------------------------------------------------------

    def labels(self, bits):
        """Values of f (uint8 0/1) on arbitrary 0/1 strings (shape (n, N))."""
        if self.kind == "table":
            return self.table[bits_to_index(bits)]
        return self._evaluate(self.encode(bits), bits.shape[0])

    def block(self, start, size):
        """Values of f on the strings ``start .. start + size - 1``.

        ``size`` is a power of two and ``start`` a multiple of it (see
        :func:`skxor._utils._bits.block_bits`).
        """
        if self.kind == "table":
            return self.table[start : start + size]
        low = self._low(size)
        if self.kind != "torch":
            return self._evaluate(
                self.encode(block_bits(start, self.n_bits, low)), size
            )
        # Build the block on the module's device: only the labels travel back.
        n_low = low.shape[1]
        x = low.clone()  # the module may write to its input; keep the cache intact
        if self.n_bits > n_low:
            high = [(start >> i) & 1 for i in range(n_low, self.n_bits)]
            high = encode_for_model(torch.tensor(high, dtype=self.dtype, device=self.device),
                                    self.input_encoding, dtype=self.dtype, device=self.device)
            # cat writes rows contiguously; assigning column slices is far slower.
            x = torch.cat([low, high.expand(size, -1)], dim=1)
        return self._torch_labels(x)

    def exhaustive_scorer(self):
        """The model's one-layer exhaustive scorer, or None; the reason is kept.

        A torch module with ``exhaustive_scorer`` (a one-layer softmax
        :class:`~skxor.nn.BooleanTransformer`) given spins scores whole
        blocks of strings from tables of its attention sums;
        :attr:`exhaustive_fallback` holds why another model (or one given
        0/1 strings) is evaluated string by string (None when it is not).
        """
        if self._scorer is None:
            build = getattr(self.model, "_exhaustive_build", None)
            if self.kind != "torch" or not callable(build):
                self._scorer, self.exhaustive_fallback = None, (
                    f"{_describe(self.model)} has no exhaustive scorer (a one-layer "
                    "BooleanTransformer has)")
            else:
                self._scorer, self.exhaustive_fallback = self._run_module(
                    lambda _: build(self.input_encoding), None)
            self._scorer = self._scorer or False
        return self._scorer or None

    def scored_block(self, scorer, start, size):
        """Labels of the strings ``start .. start + size - 1`` from ``scorer``'s outputs.

        Decided by :func:`stable_decisions` as every module output is: an
        output near 0 is evaluated again alone (the string built from its
        index), so the labels are those of the per-string path.
        """
        out = self._run_module(lambda _: scorer(start, size), None)
        reference = self._module_reference()

        def recompute(rows):
            bits = index_to_bits(start + np.asarray(rows, dtype=np.int64), self.n_bits)
            return reference.recompute(self.encode(bits))(range(len(rows)))

        return self._module_decisions(out, recompute)

    def truth_table(self, batch_size=DEFAULT_BATCH_SIZE, fast=True):
        """Values on all 2^N strings in index order.

        One evaluation per string, or, with ``fast`` and a model that has
        it (:meth:`exhaustive_scorer`), blocks scored from tables of its
        attention sums, with the same labels.
        """
        check_exhaustive_bits(self.n_bits, "A truth table")
        if self.kind == "table":
            return self.table
        table = np.empty(1 << self.n_bits, dtype=np.uint8)
        for start, labels in self.iter_blocks(0, 1 << self.n_bits, batch_size, fast):
            table[start : start + labels.size] = labels
        return table

    def iter_blocks(self, begin, end, batch_size=DEFAULT_BATCH_SIZE, fast=True):
        """Yield ``(start, labels)`` over the strings ``begin .. end - 1`` in aligned
        power-of-two blocks (``begin`` and ``end`` multiples of the block size, or
        ``end - begin`` itself a power of two dividing ``begin``)."""
        size = min(end - begin,
                   largest_power_of_two_at_most(strings_per_call(batch_size, self.n_bits)))
        scorer = self.exhaustive_scorer() if fast else None
        for start in range(begin, end, size):
            if scorer is not None:
                yield start, self.scored_block(scorer, start, size)
            else:
                yield start, self.block(start, size)
