"""The one place that reads and writes binary strings: 0/1 bits and -1/+1 spins.

A bit ``b in {0, 1}`` is the spin ``x = 1 - 2 b`` (bit 0 is spin +1, bit 1
is spin -1); the library computes in spins. Every entry point that takes
strings (the estimators, the sensitivity profiler, the Boolean functions,
the evaluators, the data sets) detects, checks and converts them here:

* :func:`detect_encoding`: ``"01"`` or ``"pm1"`` (or ``"binarized"`` with a
  ``binarize`` threshold, where a value above it is bit 1) of a numeric
  2-D array, refusing any other value with a ``ValueError`` naming it;
* :func:`check_strings`: any array-like of strings to 0/1 bits (uint8);
* :func:`to_bits` and :func:`to_spins`: conversion of checked arrays.

The rule for ambiguous inputs
-----------------------------
The values decide, never the shape. A 0 means bits, a -1 means spins, a
bool array is bits, and both a 0 and a -1 together are refused. An array
that holds neither a 0 nor a -1 (all ones, or no values at all) is both
valid bits and valid spins: it is read in the encoding its context has
already fixed (``predict``, ``transform`` and ``score`` follow the encoding
seen in ``fit``; an explicit ``encoding`` argument wins), and **with no
context as 0/1 bits**. All zeros are bits and all minus ones spins (0 is no
spin, -1 no bit). A single row, a single column or a 1-D string is read by
these same rules over its values.

Why bits: a Boolean function is ``f: {0,1}^N -> {0,1}`` (spins are derived
from bits, ``x = 1 - 2 b``), and the Boolean-function side of the library
(:class:`skxor.boolean.BooleanFunction`, callables on 0/1 strings) already
documented and tested "an all-ones input is read as bits". Before this
module the estimators and the profiler read an all-ones X in ``fit`` as
spins (an undocumented choice in a private validator, tested only by its
mutation test); that was the one case where the two readings disagreed, and
an all-ones training set is one string repeated, so no fit learns anything
from it either way. Prediction followed the fit's encoding then and still
does. So bits breaks no documented behaviour; spins would have broken one.
"""

import numpy as np
import torch
from sklearn.utils import gen_batches

#: The two encodings of binary strings (an estimator's X may also be
#: ``"binarized"``: real values read against its ``binarize`` threshold).
ENCODINGS = ("01", "pm1")

#: Rows handled at once when checking or converting X: bounds temporaries.
_CHECK_CHUNK_ELEMENTS = 1 << 22

#: How messages name the encodings (``"2b-1"``: a model's, never X's).
ENCODING_NAMES = {"01": "0/1 bits", "pm1": "-1/+1 spins", "2b-1": "spins 2b - 1"}

#: How strings can be presented to a model (a torch module, a callable): 0/1
#: bits, skxor's spins ``1 - 2b`` (bit 1 is -1) or spins ``2b - 1`` (bit 1 is +1).
MODEL_INPUT_ENCODINGS = ("01", "pm1", "2b-1")

#: The advice of an estimator's error on non-binary X.
BINARIZE_ADVICE = (
    " Encode it as 0/1 or -1/+1, or set binarize=<threshold> to map real values "
    "to bits (value > threshold is bit 1)."
)


def row_batches(n_rows, n_cols, max_elements=None):
    """Row slices covering ``n_rows`` with at most ``max_elements`` per block.

    ``max_elements`` defaults to ``_CHECK_CHUNK_ELEMENTS``, read at each call.
    """
    if max_elements is None:
        max_elements = _CHECK_CHUNK_ELEMENTS
    return gen_batches(n_rows, max(1, max_elements // max(1, n_cols)))


def offending_values(X, allowed, limit=5):
    """Up to ``limit`` distinct values of X that are not in ``allowed``, sorted."""
    found = []
    for rows in row_batches(X.shape[0], X.shape[1]):
        block = np.asarray(X[rows])
        bad = block[~np.isin(block, allowed)]
        if bad.size:
            found.extend(np.unique(bad)[:limit].tolist())
            found = sorted(set(found))[:limit]
            if len(found) >= limit:
                break
    return found


def _value_flags(X):
    """Whether X holds 0, -1, and values outside {-1, 0, 1}."""
    if X.size == 0:
        return False, False, False
    if np.issubdtype(X.dtype, np.integer):
        # Integers in [-1, 1] are exactly {-1, 0, 1}: two fast reductions
        # replace three elementwise comparisons (this is on fit's hot path).
        lo, hi = X.min(), X.max()
        if lo >= -1 and hi <= 1:
            has_minus = bool(lo == -1)
            has_zero = bool(lo == 0) or (has_minus and np.count_nonzero(X) < X.size)
            return has_zero, has_minus, False
        return bool((X == 0).any()), bool((X == -1).any()), True
    has_zero = has_minus = has_other = False
    for rows in row_batches(X.shape[0], X.shape[1]):
        block = X[rows]
        is_zero = block == 0
        is_minus = block == -1
        has_zero |= bool(is_zero.any())
        has_minus |= bool(is_minus.any())
        has_other |= not bool((is_zero | is_minus | (block == 1)).all())
    return has_zero, has_minus, has_other


def detect_encoding(X, expected=None, *, binarize=None, name="X", advice=BINARIZE_ADVICE):
    """The encoding of a numeric 2-D array, by the rule of this module.

    Parameters
    ----------
    X : ndarray of shape (n_rows, n_cols)
        Finite numeric (or bool) array.
    expected : {"01", "pm1", "binarized"} or None, default=None
        The encoding the context fixed (the one seen in ``fit``); X must
        use it, and an ambiguous X is read in it.
    binarize : float or None, default=None
        A threshold: then nothing is detected and the result is ``"binarized"``.
    name : str, default="X"
        How X is called in error messages.
    advice : str, default=BINARIZE_ADVICE
        Appended to the error for non-binary values.

    Returns
    -------
    encoding : {"01", "pm1", "binarized"}

    Examples
    --------
    >>> import numpy as np
    >>> from skxor._utils._encoding import detect_encoding
    >>> detect_encoding(np.array([[0, 1]])), detect_encoding(np.array([[-1, 1]]))
    ('01', 'pm1')
    >>> detect_encoding(np.ones((1, 3))), detect_encoding(np.ones((1, 3)), "pm1")
    ('01', 'pm1')
    """
    if binarize is not None:
        return "binarized"
    if X.dtype == bool:
        encoding = "01"
    else:
        has_zero, has_minus, has_other = _value_flags(X)
        if has_other or (has_zero and has_minus):
            mixed = has_zero and has_minus
            if mixed:  # 0/1 bits mixed with -1 spins: list all
                bad = offending_values(X, [])
            else:
                bad = offending_values(X, [0, 1] if has_zero else [-1, 1])
            raise ValueError(
                f"{name} must be binary, either 0/1 bits or -1/+1 spins"
                f"{' (not mixed)' if mixed else ''}, but it contains the values "
                f"{bad}.{advice}"
            )
        if has_zero:
            encoding = "01"
        elif has_minus:
            encoding = "pm1"
        else:
            # Neither 0 nor -1 (all ones): the context's encoding, else bits.
            encoding = expected if expected in ENCODINGS else "01"
    if expected in ENCODINGS and encoding != expected:
        raise ValueError(
            f"{name} uses {ENCODING_NAMES[encoding]} but the estimator was fitted on "
            f"{ENCODING_NAMES[expected]}; use the same encoding in fit and predict."
        )
    return encoding


def _as_numeric_2d(X, n_bits, name):
    """X (array-like, tensor, one 1-D string) as a numeric 2-D ndarray."""
    if hasattr(X, "detach") and hasattr(X, "cpu"):  # a torch tensor
        X = X.detach().cpu().numpy()
    X = np.asarray(X)
    if X.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be a numeric or bool array; got dtype {X.dtype}.")
    if X.ndim == 1:
        X = X.reshape(1, -1)
    if X.ndim != 2:
        raise ValueError(
            f"{name} must be one string (1-D) or a 2-D array of strings; got "
            f"an array of shape {X.shape}."
        )
    if n_bits is not None and X.shape[1] != n_bits:
        raise ValueError(
            f"{name} holds strings of length {X.shape[1]}, but the function "
            f"takes n_bits={n_bits} bits."
        )
    return X


def check_strings(X, n_bits=None, encoding="auto", *, name="X"):
    """Check binary strings and return their 0/1 bits (2-D, uint8).

    Parameters
    ----------
    X : array-like or tensor of shape (n_strings, n_bits) or (n_bits,)
        0/1 bits, -1/+1 spins or bools; a 1-D array is one string.
    n_bits : int or None, default=None
        Required string length.
    encoding : {"auto", "01", "pm1"}, default="auto"
        ``"auto"`` detects it by the rule of this module (all ones: bits).
    name : str, default="X"
        How X is called in error messages.

    Returns
    -------
    bits : ndarray of shape (n_strings, n_bits), dtype uint8

    Examples
    --------
    >>> from skxor._utils._encoding import check_strings
    >>> check_strings([[1, -1]]).tolist(), check_strings([1, 1]).tolist()
    ([[0, 1]], [[1, 1]])
    >>> check_strings([1, 1], encoding="pm1").tolist()
    [[0, 0]]
    """
    if encoding not in ("auto", *ENCODINGS):
        raise ValueError(f"encoding must be 'auto', '01' or 'pm1'; got {encoding!r}.")
    X = _as_numeric_2d(X, n_bits, name)
    if X.dtype == bool:
        return X.astype(np.uint8)
    if encoding == "auto":
        encoding = detect_encoding(X, name=name, advice="")
    else:
        allowed = [0, 1] if encoding == "01" else [-1, 1]
        if not np.isin(X, allowed).all():
            raise ValueError(
                f"{name} must be binary, either 0/1 bits or -1/+1 spins (not "
                f"mixed); read as {ENCODING_NAMES[encoding]} it contains the values "
                f"{offending_values(X, allowed)}."
            )
    return to_bits(X, encoding)


def to_bits(X, encoding, binarize=None):
    """The 0/1 bits (uint8) of a checked array in ``encoding``.

    Parameters
    ----------
    X : ndarray
        Values in ``encoding`` (checked by :func:`detect_encoding`).
    encoding : {"01", "pm1", "binarized"}
        ``"pm1"``: spin -1 is bit 1; ``"binarized"``: a value above
        ``binarize`` is bit 1.
    binarize : float or None, default=None
        The threshold of ``"binarized"``.

    Returns
    -------
    bits : ndarray of the shape of X, dtype uint8

    Examples
    --------
    >>> import numpy as np
    >>> from skxor._utils._encoding import to_bits
    >>> to_bits(np.array([[1, -1]]), "pm1").tolist(), to_bits(np.array([0.2, 0.9]), "binarized", 0.5).tolist()
    ([[0, 1]], [0, 1])
    """
    X = np.asarray(X)
    if encoding == "binarized":
        return (X > binarize).astype(np.uint8)
    if encoding == "pm1":
        return (X == -1).astype(np.uint8)
    return (X == 1).astype(np.uint8)


def to_spins(X, encoding="01", binarize=None, *, dtype=None, device=None, out=None):
    """The spins ``1 - 2 b`` of a checked array in ``encoding``.

    Parameters
    ----------
    X : ndarray or torch.Tensor of shape (n_rows, n_cols)
        Values in ``encoding``; a tensor (of bits, say on a device) stays there.
    encoding : {"01", "pm1", "binarized"}, default="01"
    binarize : float or None, default=None
        The threshold of ``"binarized"``.
    dtype : torch or numpy dtype or None, default=None
        Of the result: a numpy dtype gives an ndarray, a torch dtype a
        tensor; None keeps a tensor's dtype and makes float32 of an ndarray.
    device : str or torch.device or None, default=None
        Of a tensor result; None keeps a tensor's device (an ndarray: the CPU).
    out : Tensor of shape (n_rows, n_cols) or None, default=None
        Written in place and returned when given (its dtype and device are
        used): a loop over chunks reuses one buffer instead of allocating,
        and page-faulting, a fresh one per chunk.

    Returns
    -------
    spins : torch.Tensor or ndarray of shape (n_rows, n_cols)

    Examples
    --------
    >>> import numpy as np
    >>> from skxor._utils._encoding import to_spins
    >>> to_spins(np.array([[0, 1]]), dtype=np.int8).tolist()
    [[1, -1]]
    >>> to_spins(np.array([[0.2, 0.9]]), "binarized", 0.5).tolist()
    [[1.0, -1.0]]
    """
    if dtype is not None and not isinstance(dtype, torch.dtype):
        bits = to_bits(X, encoding, binarize) if encoding != "01" else np.asarray(X)
        spins = bits.astype(dtype, order="C")
        spins *= -2
        spins += 1
        return spins
    if isinstance(X, torch.Tensor):
        block = X > binarize if encoding == "binarized" else X
        dtype = X.dtype if dtype is None else dtype
        device = X.device if device is None else device
    elif encoding == "binarized":
        block = torch.from_numpy(np.ascontiguousarray(X > binarize))
    else:
        block = torch.from_numpy(np.ascontiguousarray(X))
    if out is not None:
        out.copy_(block)
        return out if encoding == "pm1" else out.mul_(-2).add_(1)
    block = block.to(device="cpu" if device is None else device,
                     dtype=torch.float32 if dtype is None else dtype)
    return block if encoding == "pm1" else 1 - 2 * block


def encode_for_model(bits, encoding, *, dtype, device=None):
    """0/1 strings ``bits`` (uint8 ndarray, or a tensor of 0/1) as a model gets them.

    ``encoding`` is one of :data:`MODEL_INPUT_ENCODINGS`: the bits themselves
    (``"01"``), spins ``1 - 2b`` (``"pm1"``) or spins ``2b - 1`` (``"2b-1"``).
    A torch ``dtype`` gives a tensor on ``device``, a numpy one an ndarray.

    Examples
    --------
    >>> import numpy as np
    >>> from skxor._utils._encoding import encode_for_model
    >>> bits = np.array([[0, 1]], dtype=np.uint8)
    >>> [encode_for_model(bits, e, dtype=np.int8).tolist() for e in ("01", "pm1", "2b-1")]
    [[[0, 1]], [[1, -1]], [[-1, 1]]]
    """
    if encoding == "01":
        if isinstance(dtype, torch.dtype):
            tensor = bits if isinstance(bits, torch.Tensor) else torch.from_numpy(
                np.ascontiguousarray(bits))
            return tensor.to(device=device, dtype=dtype, copy=True)
        return bits.astype(dtype, order="C")
    spins = to_spins(bits, dtype=dtype, device=device)
    if encoding == "2b-1":
        spins *= -1  # in place: the spins are this call's own
    return spins
