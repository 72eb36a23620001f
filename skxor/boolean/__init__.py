"""Boolean functions ``f: {0,1}^N -> {0,1}``, all strings, and truth tables.

The function zoo: :class:`Parity`, :class:`SparseParity` (k-sparse
parity; sparse XOR for k = 2), :class:`Dictator` / :class:`First`,
:class:`Majority` (ties give 0 for even N), :class:`RandomFunction` and
:class:`TruthTable`. Each is evaluable on 0/1 bits, -1/+1 spins or bools
and returns 0/1 values.

Bit order: the string x of length N has index ``sum_i x_i << i`` (position
i is bit i of the index; position 0 is the least significant bit). Truth
tables and :func:`all_strings` list strings in index order, and flipping
position i of the string with index r gives the string with index
``r ^ (1 << i)``.

:func:`truth_table` evaluates any model once per string:

* a Boolean function or any callable gets 0/1 bits (uint8) and must return
  labels 0/1, -1/+1 or bools (1 / +1 / True is the value 1);
* a fitted estimator gets X in the encoding it was fitted with (its
  ``encoding_`` attribute when it has one, else 0/1 bits as float32) and its
  predicted label ``classes_[1]`` is the value 1. An estimator fitted with
  ``binarize=t`` gets 0/1 bits when ``0 <= t < 1`` (0 is not above t, 1 is)
  and ``t + b`` otherwise, so that every threshold maps the string back to
  its bits;
* a torch module gets floats in its input encoding on its own device and
  dtype, in eval mode: spins ``1 - 2 b`` for the modules of :mod:`skxor.nn`
  (they declare ``input_encoding = "pm1"``); any other module must be given
  ``input_encoding`` (or declare it), else a ValueError; a real output is
  thresholded at 0 (positive is 1), a two-column output is read as logits
  (argmax);
* a 1-D array of length 2^N is already a truth table.

``input_encoding="01"``, ``"pm1"`` (spins ``1 - 2b``) or ``"2b-1"`` (spins
``2b - 1``) sets how strings are presented.

Tables and predictions from other code: :class:`TruthTable` takes the bit
order (``bit_order="lsb"`` or ``"msb"``) and the value convention
(``values="f"``, ``"1-f"``, ``"2f-1"``, ``"1-2f"``), and
:meth:`TruthTable.from_predictions` takes strings in any order and encoding
(``"01"``, ``"1-2b"``, ``"2b-1"``) with their predicted values.
"""

from ._evaluate import truth_table
from ._functions import (
    BooleanFunction,
    Dictator,
    First,
    Majority,
    Parity,
    RandomFunction,
    SparseParity,
    TruthTable,
    all_strings,
    bit_reversal_permutation,
    encoded_strings_to_bits,
    values_to_f,
)
from ._registry import NAMED_FUNCTIONS, get_function, register_function

__all__ = [
    "BooleanFunction",
    "Dictator",
    "First",
    "Majority",
    "NAMED_FUNCTIONS",
    "register_function",
    "Parity",
    "RandomFunction",
    "SparseParity",
    "TruthTable",
    "all_strings",
    "bit_reversal_permutation",
    "encoded_strings_to_bits",
    "get_function",
    "truth_table",
    "values_to_f",
]
