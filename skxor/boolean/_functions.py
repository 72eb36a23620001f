"""The Boolean function zoo: PARITY, sparse parity, DICTATOR/FIRST, MAJORITY, random.

About 600 lines: the classes and the converters of other codebases'
conventions (truth tables, bit orders, value encodings) they all use.
"""

import numpy as np
from sklearn.utils import check_random_state

from .._utils._bits import (
    ALL_STRINGS_MAX_BITS,
    bits_to_index,
    check_exhaustive_bits,
    index_to_bits,
    table_n_bits,
)
from .._utils._docstrings import fill_doc
from .._utils._sklearn_compat import StrOptions, validate_parameter_constraints
from .._utils._encoding import ENCODINGS, check_strings, to_spins
from .._utils._validation import Integers, check_count, check_interval, validate_params_once
from .._utils._support import check_support


def all_strings(n_bits, *, encoding="01"):
    """All ``2^n_bits`` strings of ``n_bits`` bits, in index order.

    Row ``r`` is the string whose bit ``i`` is bit ``i`` of ``r``
    (``x_i = (r >> i) & 1``): the first position is the least significant
    bit, and flipping position ``i`` of row ``r`` gives row ``r ^ (1 << i)``.
    This is the order of every truth table in skxor.

    Parameters
    ----------
    n_bits : int
        String length N, from 1 to 24 (the matrix has ``N * 2^N`` entries;
        the sensitivity tools never build it and go further).
    encoding : {"01", "pm1"}, default="01"
        ``"01"``: bits; ``"pm1"``: spins ``1 - 2 b``.

    Returns
    -------
    X : ndarray of shape (2^n_bits, n_bits), dtype int8

    Examples
    --------
    >>> from skxor.boolean import all_strings
    >>> all_strings(2).tolist()
    [[0, 0], [1, 0], [0, 1], [1, 1]]
    >>> all_strings(2, encoding="pm1")[1].tolist()
    [-1, 1]
    """
    n_bits = check_count(n_bits, "n_bits")
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding must be '01' or 'pm1'; got {encoding!r}.")
    if n_bits > ALL_STRINGS_MAX_BITS:
        raise ValueError(
            f"all_strings(n_bits={n_bits}) would hold {n_bits} x 2^{n_bits} "
            f"entries; it is limited to n_bits <= {ALL_STRINGS_MAX_BITS}. "
            "skxor.boolean.truth_table and skxor.sensitivity.sensitivity_profile "
            "stream the strings in chunks instead."
        )
    bits = index_to_bits(np.arange(1 << n_bits, dtype=np.int64), n_bits)
    return bits.astype(np.int8) if encoding == "01" else to_spins(bits, dtype=np.int8)


#: Bit orders of a truth-table index: ``"lsb"`` (skxor: position i is bit i of
#: the index) or ``"msb"`` (position 0 is the most significant bit).
BIT_ORDERS = ("lsb", "msb")

#: Value conventions of a table or of predictions, as formulas in skxor's
#: ``f in {0, 1}``; ``"01"`` and ``"pm1"`` are skxor's own (labels ``2f - 1``).
VALUE_CONVENTIONS = ("f", "1-f", "2f-1", "1-2f")
_VALUE_ALIASES = {"01": "f", "pm1": "2f-1"}

#: Encodings of input strings: 0/1 bits, skxor's spins ``1 - 2b`` (bit 1 is
#: -1) or the other common spins ``2b - 1`` (bit 1 is +1).
INPUT_ENCODINGS = ("01", "1-2b", "2b-1")
_INPUT_ALIASES = {"pm1": "1-2b"}


# The names each option accepts, aliases included, as scikit-learn constraints:
# a bad name is reported as for any parameter of skxor (InvalidParameterError).
_VALUE_OPTIONS = StrOptions({*VALUE_CONVENTIONS, *_VALUE_ALIASES})
_INPUT_OPTIONS = StrOptions({*INPUT_ENCODINGS, *_INPUT_ALIASES})


@validate_params_once(
    {"values": "no_validation", "convention": [_VALUE_OPTIONS], "name": [str]},
    prefer_skip_nested_validation=True,
)
def values_to_f(values, convention="01", *, name="values"):
    """Map values in a stated convention to skxor's ``f in {0, 1}`` (uint8).

    Parameters
    ----------
    values : array-like
        Values of a Boolean function or labels.
    convention : {"f", "1-f", "2f-1", "1-2f", "01", "pm1"}, default="01"
        How ``values`` encode ``f``: ``"f"`` (alias ``"01"``): 0/1 with 1
        meaning f = 1, as in skxor; ``"1-f"``: 0/1 with 1 meaning f = 0 (the
        complement); ``"2f-1"`` (alias ``"pm1"``): -1/+1 with +1 meaning
        f = 1 (skxor's labels); ``"1-2f"``: -1/+1 with +1 meaning f = 0
        (skxor's Fourier sign ``(-1)^f``).

    Returns
    -------
    f : ndarray of dtype uint8, the shape of ``values``

    Raises
    ------
    ValueError
        If a value does not belong to the convention (naming the values).

    Examples
    --------
    >>> from skxor.boolean import values_to_f
    >>> values_to_f([1, 0, 1], "1-f").tolist()
    [0, 1, 0]
    >>> values_to_f([-1, 1], "2f-1").tolist(), values_to_f([-1, 1], "1-2f").tolist()
    ([0, 1], [1, 0])
    """
    convention = _VALUE_ALIASES.get(convention, convention)
    arr = np.asarray(values)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric or bool; got dtype {arr.dtype}.")
    zero_one = convention in ("f", "1-f")
    if arr.dtype == bool:
        if not zero_one:
            raise ValueError(
                f"{name} holds bools, but the convention {convention!r} is -1/+1; "
                "use values='f' or '1-f' for 0/1 or bool values."
            )
        arr = arr.astype(np.uint8)
    allowed = [0, 1] if zero_one else [-1, 1]
    outside = ~np.isin(arr, allowed)
    if outside.any():
        what = "Boolean values 0/1 (or bools)" if zero_one else "-1/+1 values"
        raise ValueError(
            f"{name} must hold {what} in the convention {convention!r}; got the "
            f"values {np.unique(arr[outside])[:5].tolist()}."
        )
    if convention == "f":
        f = arr
    elif convention == "1-f":
        f = 1 - arr
    elif convention == "2f-1":
        f = (arr + 1) // 2
    else:  # "1-2f"
        f = (1 - arr) // 2
    return np.asarray(f).astype(np.uint8)


def bit_reversal_permutation(n_bits):
    """The permutation between MSB-first and LSB-first (skxor) index orders.

    The string whose LSB-first index is r has the MSB-first index
    ``reverse(r)`` (its N bits read backwards), so for any array indexed by
    strings or by subsets in MSB-first order (a truth table, saved
    predictions, Fourier coefficients), ``a[perm]`` is the same array in
    skxor's order. The permutation is its own inverse.

    Parameters
    ----------
    n_bits : int
        The string length N, at most 28.

    Returns
    -------
    perm : ndarray of shape (2^n_bits,), dtype int64

    Examples
    --------
    >>> from skxor.boolean import bit_reversal_permutation
    >>> bit_reversal_permutation(3).tolist()
    [0, 4, 2, 6, 1, 5, 3, 7]
    """
    n_bits = check_count(n_bits, "n_bits")
    check_exhaustive_bits(n_bits, "A bit-reversal permutation")
    index = np.arange(1 << n_bits, dtype=np.int64)
    perm = np.zeros_like(index)
    for i in range(n_bits):
        perm |= ((index >> i) & 1) << (n_bits - 1 - i)
    return perm


@validate_params_once(
    {"X": "no_validation", "input_encoding": [_INPUT_OPTIONS], "name": [str]},
    prefer_skip_nested_validation=True,
)
@fill_doc
def encoded_strings_to_bits(X, input_encoding="01", *, name="X"):
    """Strings in a stated encoding as skxor's 0/1 bits (uint8, 2-D).

    Parameters
    ----------
    %(X_strings)s
    input_encoding : {"01", "1-2b", "2b-1", "pm1"}, default="01"
        ``"01"``: bits (or bools); ``"1-2b"`` (alias ``"pm1"``): skxor's
        spins, bit 1 is -1; ``"2b-1"``: spins with bit 1 as +1.

    Returns
    -------
    bits : ndarray of shape (n_strings, N), dtype uint8

    Examples
    --------
    >>> from skxor.boolean import encoded_strings_to_bits
    >>> encoded_strings_to_bits([[1, -1]], "2b-1").tolist()
    [[1, 0]]
    >>> encoded_strings_to_bits([[1, -1]], "1-2b").tolist()
    [[0, 1]]
    """
    input_encoding = _INPUT_ALIASES.get(input_encoding, input_encoding)
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_strings, N); got shape {X.shape}.")
    if input_encoding == "01":
        return check_strings(X, encoding="01", name=name)
    bits = check_strings(X, encoding="pm1", name=name)  # spins 1 - 2b
    return bits if input_encoding == "1-2b" else (1 - bits).astype(np.uint8)


@fill_doc
class BooleanFunction:
    """Base class of a Boolean function ``f: {0,1}^N -> {0,1}``.

    Calling the function on strings returns their values as a uint8 array of
    0/1. Strings may be 0/1 bits, -1/+1 spins (spin ``1 - 2 b``) or bools;
    the encoding is detected, or forced with ``encoding``. As labels, value 1
    is the class ``+1`` of the estimators (``y = 2 f(x) - 1``).

    Subclasses implement ``_evaluate_bits(bits)`` on a validated uint8 array
    of shape (n, N).

    %(parameters_n_bits)s

    Examples
    --------
    >>> from skxor.boolean import BooleanFunction
    >>> class Xor(BooleanFunction):
    ...     def _evaluate_bits(self, bits):
    ...         return bits[:, 0] ^ bits[:, 1]
    >>> f = Xor(2)
    >>> f([[0, 0], [0, 1], [1, 1]]).tolist()
    [0, 1, 0]
    >>> f.truth_table().tolist()  # index order: 00, 10, 01, 11
    [0, 1, 1, 0]
    """

    #: Where the sensitivities of the function's own strings sit, for the studies
    #: that compare a trained model's profile with the function's: among
    #: ``"zero"`` (sensitivity 0), ``"half"`` (near N/2), ``"one"`` (1) and
    #: ``"top"`` (N); empty when not stated.
    sensitivity_clusters = ()

    def __init__(self, n_bits):
        self.n_bits = check_count(n_bits, "n_bits")

    def __call__(self, X, encoding="auto"):
        """Evaluate the function.

        Parameters
        ----------
        X : array-like of shape (n_strings, n_bits) or (n_bits,)
            Strings as 0/1 bits, -1/+1 spins or bools.
        encoding : {"auto", "01", "pm1"}, default="auto"
            ``"auto"`` reads X as spins when it holds a -1, else as bits (so
            an all-ones input is read as bits: the library's one rule for
            ambiguous strings, see :mod:`skxor._utils._encoding`).

        Returns
        -------
        values : ndarray of shape (n_strings,) of uint8 in {0, 1}, or a
            uint8 scalar for a single 1-D string.
        """
        single = np.ndim(X) == 1
        bits = check_strings(X, self.n_bits, encoding)
        values = self._evaluate_bits(bits).astype(np.uint8, copy=False)
        return values[0] if single else values

    def _evaluate_bits(self, bits):  # pragma: no cover - abstract
        raise NotImplementedError

    def truth_table(self):
        """Values on all ``2^N`` strings in index order (uint8, length 2^N).

        See :func:`all_strings` for the order. Limited to N <= 28.
        """
        from ._evaluate import truth_table

        return truth_table(self, self.n_bits)

    def _repr_args(self):
        return f"n_bits={self.n_bits}"

    def __repr__(self):
        return f"{type(self).__name__}({self._repr_args()})"


@fill_doc
class Parity(BooleanFunction):
    """PARITY: the XOR of all N bits.

    Every string has sensitivity N (flipping any bit flips the parity).

    %(parameters_n_bits)s

    Examples
    --------
    >>> from skxor.boolean import Parity
    >>> f = Parity(3)
    >>> f([[0, 0, 0], [1, 0, 0], [1, 1, 0]]).tolist()
    [0, 1, 0]
    >>> int(f([-1, -1, -1]))  # spins: three 1-bits
    1
    """

    sensitivity_clusters = ("top",)  # every string: sensitivity N

    def _evaluate_bits(self, bits):
        return np.bitwise_xor.reduce(bits, axis=1)


@fill_doc
class SparseParity(BooleanFunction):
    """k-SPARSE PARITY: the XOR of the bits in a support S of k positions.

    For k = 2 this is the sparse XOR of Han & Ghoshdastidar; as labels,
    ``2 f(x) - 1 = -prod_{i in S} x_i`` in spins, as produced by
    :func:`skxor.datasets.make_sparse_parity`. Every string has sensitivity k.

    Parameters
    ----------
    %(n_bits)s
    support : array-like of int or None, default=None
        The k relevant positions (0-based, distinct). Drawn uniformly without
        replacement from ``random_state`` when None, exactly as
        ``make_sparse_parity`` draws it for the same seed.
    k : int, default=2
        Size of the support (ignored when ``support`` is given).
    random_state : int, RandomState instance or None, default=None
        Seeds the support when it is drawn.

    Attributes
    ----------
    support : ndarray of shape (k,)
        Sorted support.

    Examples
    --------
    >>> from skxor.boolean import SparseParity
    >>> f = SparseParity(5, support=[1, 3])
    >>> f([[0, 1, 0, 0, 0], [0, 1, 1, 1, 1]]).tolist()
    [1, 0]
    """

    def __init__(self, n_bits, support=None, *, k=2, random_state=None):
        super().__init__(n_bits)
        if support is None:
            k = check_count(k, "k")
            if k > self.n_bits:
                raise ValueError(f"k={k} is larger than n_bits={self.n_bits}.")
            rng = check_random_state(random_state)
            support = np.sort(rng.choice(self.n_bits, size=k, replace=False))
        self.support = check_support(support, self.n_bits)

    @property
    def k(self):
        """Size of the support."""
        return int(self.support.size)

    def _evaluate_bits(self, bits):
        return np.bitwise_xor.reduce(bits[:, self.support], axis=1)

    def _repr_args(self):
        return f"n_bits={self.n_bits}, support={self.support.tolist()}"


@fill_doc
class Dictator(BooleanFunction):
    """DICTATOR: ``f(x) = x_i`` for one position i.

    Every string has sensitivity 1. ``Dictator(N)`` (i = 0) is FIRST.

    Parameters
    ----------
    %(n_bits)s
    index : int, default=0
        The dictating position, in ``[0, N - 1]``.

    Examples
    --------
    >>> from skxor.boolean import Dictator
    >>> Dictator(3, index=2)([[0, 0, 1], [1, 1, 0]]).tolist()
    [1, 0]
    """

    sensitivity_clusters = ("one",)  # every string: sensitivity 1

    def __init__(self, n_bits, index=0):
        super().__init__(n_bits)
        self.index = check_interval(
            index, "index", Integers(0, self.n_bits, closed="left"),
            f"an integer position in [0, {self.n_bits - 1}] for n_bits={self.n_bits}",
        )

    def _evaluate_bits(self, bits):
        return bits[:, self.index].copy()

    def _repr_args(self):
        return f"n_bits={self.n_bits}, index={self.index}"


@fill_doc
class First(Dictator):
    """FIRST: the dictator of the first position, ``f(x) = x_0``.

    %(parameters_n_bits)s

    Examples
    --------
    >>> from skxor.boolean import First
    >>> int(First(4)([1, 0, 0, 0]))
    1
    """

    def __init__(self, n_bits):
        super().__init__(n_bits, index=0)

    def _repr_args(self):
        return f"n_bits={self.n_bits}"


@fill_doc
class Majority(BooleanFunction):
    """MAJORITY: 1 when more than half of the N bits are 1.

    For even N a tie (exactly N/2 ones) gives 0. For odd N = 2m + 1 the
    strings with m or m + 1 ones have sensitivity m + 1 and all others 0.

    %(parameters_n_bits)s

    Examples
    --------
    >>> from skxor.boolean import Majority
    >>> Majority(3)([[1, 1, 0], [1, 0, 0]]).tolist()
    [1, 0]
    >>> Majority(2)([1, 0]).item()  # a tie -> 0
    0
    """

    sensitivity_clusters = ("zero", "half")  # 0, and m + 1 for N = 2m + 1

    def _evaluate_bits(self, bits):
        ones = bits.sum(axis=1, dtype=np.int64)
        return (2 * ones > self.n_bits).astype(np.uint8)


class TruthTable(BooleanFunction):
    """A Boolean function given by its truth table.

    The table may come from other code: ``bit_order`` and ``values`` state
    its conventions, and the function stores it in skxor's (LSB-first index,
    0/1 values of f). See :doc:`/coming_from_other_code`.

    Parameters
    ----------
    table : array-like of shape (2^N,)
        One value per string, in index order.
    bit_order : {"lsb", "msb"}, default="lsb"
        ``"lsb"``: ``table[r]`` is the value on the string whose position i
        is bit i of r (skxor's order, see :func:`all_strings`). ``"msb"``:
        position 0 is the most significant bit of r (the order of
        ``itertools.product([0, 1], repeat=N)``).
    values : {"01", "pm1", "f", "1-f", "2f-1", "1-2f"}, default="01"
        How the entries encode f (see :func:`values_to_f`): ``"01"`` / ``"f"``
        are 0/1 (or bools) with 1 meaning f = 1; ``"1-f"`` is the complement;
        ``"pm1"`` / ``"2f-1"`` are -1/+1 with +1 meaning f = 1; ``"1-2f"`` has
        +1 meaning f = 0.

    Attributes
    ----------
    table : ndarray of shape (2^N,), dtype uint8
        The values of f in skxor's conventions (LSB-first, 0/1).

    See Also
    --------
    TruthTable.from_predictions : Build one from strings and their predictions.

    Examples
    --------
    >>> from skxor.boolean import TruthTable
    >>> f = TruthTable([0, 1, 1, 1])  # OR of two bits
    >>> f.n_bits, f([[0, 0], [0, 1]]).tolist()
    (2, [0, 1])

    The FIRST function of two bits, tabulated MSB-first with +1 meaning f = 0:

    >>> g = TruthTable([1, 1, -1, -1], bit_order="msb", values="1-2f")
    >>> g.table.tolist()
    [0, 1, 0, 1]
    """

    def __init__(self, table, *, bit_order="lsb", values="01"):
        validate_parameter_constraints(
            {"bit_order": [StrOptions(set(BIT_ORDERS))], "values": [_VALUE_OPTIONS]},
            {"bit_order": bit_order, "values": values}, caller_name="TruthTable")
        table = np.asarray(table)
        n_bits = table_n_bits(table)
        check_exhaustive_bits(n_bits, "A truth table")
        if table.dtype.kind not in "biuf":
            raise ValueError(
                f"table must hold Boolean values 0/1 (or bools); got dtype {table.dtype}."
            )
        table = values_to_f(table, values, name="table")
        if bit_order == "msb":
            table = table[bit_reversal_permutation(n_bits)]
        super().__init__(n_bits)
        self.table = table

    @classmethod
    @fill_doc
    def from_predictions(cls, X, y_pred, *, input_encoding="01", values="01"):
        """Build the function from every string and its saved prediction.

        The strings may come in any order (each of the 2^N must appear; a
        repeated string must carry the same value each time), so no bit
        order is involved: position i is column i of ``X``.

        Parameters
        ----------
        %(X_strings)s
        y_pred : array-like of shape (n_strings,) or (n_strings, 1)
            The value on each string.
        input_encoding : {"01", "1-2b", "2b-1", "pm1"}, default="01"
            How ``X`` encodes bits (see :func:`encoded_strings_to_bits`).
        values : {"01", "pm1", "f", "1-f", "2f-1", "1-2f"}, default="01"
            How ``y_pred`` encodes f (see :func:`values_to_f`).

        Returns
        -------
        function : TruthTable

        Raises
        ------
        ValueError
            If a string is missing, a repeated string has two values, or a
            value is outside the convention.

        Examples
        --------
        >>> import itertools
        >>> from skxor.boolean import TruthTable
        >>> X = list(itertools.product([-1, 1], repeat=2))  # spins 2b - 1
        >>> y = [1.0 - (x0 > 0) for x0, x1 in X]  # 1 where bit 0 is 0
        >>> TruthTable.from_predictions(X, y, input_encoding="2b-1",
        ...                             values="1-f").table.tolist()
        [0, 1, 0, 1]
        """
        validate_parameter_constraints(
            {"input_encoding": [_INPUT_OPTIONS], "values": [_VALUE_OPTIONS]},
            {"input_encoding": input_encoding, "values": values},
            caller_name="TruthTable.from_predictions")
        bits = encoded_strings_to_bits(X, input_encoding)
        if bits.shape[1] == 0:
            raise ValueError(
                f"X must hold one column per bit (at least one); got shape {np.shape(X)}."
            )
        y = np.asarray(y_pred)
        if y.ndim == 2 and y.shape[1] == 1:
            y = y[:, 0]
        if y.ndim != 1 or y.shape[0] != bits.shape[0]:
            raise ValueError(
                f"y_pred must have shape ({bits.shape[0]},) or ({bits.shape[0]}, 1) "
                f"to match X; got {np.shape(y_pred)}."
            )
        f = values_to_f(y, values, name="y_pred")
        n_bits = bits.shape[1]
        check_exhaustive_bits(n_bits, "A truth table")
        index = bits_to_index(bits)
        table = np.full(1 << n_bits, 2, dtype=np.uint8)  # 2: not seen yet
        table[index] = f
        clash = np.flatnonzero(table[index] != f)
        if clash.size:
            row = int(clash[0])
            raise ValueError(
                f"the string {bits[row].tolist()} (as bits) appears with both "
                "values in y_pred."
            )
        missing = np.flatnonzero(table == 2)
        if missing.size:
            raise ValueError(
                f"X must list all 2^{n_bits} = {1 << n_bits} strings; {missing.size} "
                f"are missing, e.g. {index_to_bits(missing[:1], n_bits)[0].tolist()} "
                "(as bits)."
            )
        return cls(table)

    def _evaluate_bits(self, bits):
        return self.table[bits_to_index(bits)]

    def truth_table(self):
        """A copy of the table (uint8, length 2^N, skxor's conventions)."""
        return self.table.copy()

    def _repr_args(self):
        return f"<table of {self.table.size}>"


@fill_doc
class RandomFunction(TruthTable):
    """A random Boolean function: each of the 2^N values is 1 with probability p.

    The truth table is stored, so N is limited to 28.

    Parameters
    ----------
    %(n_bits)s
    p : float, default=0.5
        Probability, in [0, 1], that a value is 1 (independently per string).
    random_state : int, RandomState instance or None, default=None
        Seeds the table.

    Examples
    --------
    >>> from skxor.boolean import RandomFunction
    >>> f = RandomFunction(4, random_state=0)
    >>> f.table.shape, bool(set(f.table.tolist()) <= {0, 1})
    ((16,), True)
    """

    def __init__(self, n_bits, *, p=0.5, random_state=None):
        n_bits = check_count(n_bits, "n_bits")
        check_exhaustive_bits(n_bits, "A random function")
        if isinstance(p, (bool, np.bool_)) or not np.isscalar(p) or not np.isreal(p):
            raise TypeError(f"p must be a probability in [0, 1]; got {p!r}.")
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"p must be a probability in [0, 1]; got {p!r}.")
        rng = check_random_state(random_state)
        self.p = float(p)
        super().__init__((rng.random_sample(1 << n_bits) < p).astype(np.uint8))

    def _repr_args(self):
        return f"n_bits={self.n_bits}, p={self.p}"
