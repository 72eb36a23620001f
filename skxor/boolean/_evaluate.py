"""Truth tables of any model: callables, estimators, torch modules.

How each kind of model is called and read is :mod:`skxor._utils._evaluate`.
"""

from numbers import Integral


from .._utils._sklearn_compat import Interval, StrOptions
from .._utils._docstrings import fill_doc
from .._utils._encoding import MODEL_INPUT_ENCODINGS
from .._utils._evaluate import DEFAULT_BATCH_SIZE, ModelEvaluator
from .._utils._validation import check_count, validate_params_once

__all__ = ["DEFAULT_BATCH_SIZE", "ModelEvaluator", "truth_table"]


@validate_params_once(
    {
        "f": "no_validation",
        "n_bits": [Interval(Integral, 1, None, closed="left")],
        "batch_size": [Interval(Integral, 1, None, closed="left")],
        "input_encoding": [StrOptions(set(MODEL_INPUT_ENCODINGS)), None],
    },
    prefer_skip_nested_validation=True,
)
@fill_doc
def truth_table(f, n_bits, *, batch_size=DEFAULT_BATCH_SIZE, input_encoding=None):
    """The truth table of a model: its value on each of the 2^N strings.

    The strings are generated chunk by chunk from their indices (bit i of
    the index is position i of the string; see :func:`all_strings`) and the
    model is evaluated once per string, so the only 2^N-sized object is the
    returned table (one byte per string).

    Parameters
    ----------
    f : callable, fitted estimator or torch.nn.Module
        The model; see :mod:`skxor.boolean` for how each kind is called and
        how its outputs are read.
    n_bits : int
        String length N, at most 28.
    batch_size : int, default=65536
        Strings per model call (rounded down to a power of two), and at most
        ``2^22 / N`` strings, so that a call holds at most 2^22 bits.
    %(input_encoding)s

    Returns
    -------
    table : ndarray of shape (2^n_bits,), dtype uint8
        ``table[r]`` is f on the string with index r.

    Examples
    --------
    >>> from skxor.boolean import truth_table
    >>> truth_table(lambda X: X[:, 0] & X[:, 1], 2).tolist()  # AND
    [0, 0, 0, 1]
    """
    n_bits = check_count(n_bits, "n_bits")
    batch_size = check_count(batch_size, "batch_size")
    evaluator = ModelEvaluator(f, n_bits, input_encoding)
    table = evaluator.truth_table(batch_size)
    # A table passed in comes back as a copy, never as a view of the input.
    return table.copy() if evaluator.kind == "table" else table
