"""Sensitivity under a margin: recognizers that accept, reject or stay undecided.

Köver et al. (2026, arXiv 2606.08768) read a transformer as a recognizer
with a margin xi: a string is accepted when ``T(x) >= xi``, rejected when
``T(x) <= -xi`` and undecided in between. :func:`margin_profile` computes
the sensitivity profile of such a three-valued decision ``d(x) in {-1, 0,
+1}`` exhaustively, with the engine of :func:`sensitivity_profile`: one
evaluation per string builds the table of decisions, and the neighbour
``x^{+i}`` of the string with index r is the table entry ``r ^ (1 << i)``.
"""

import warnings
from dataclasses import dataclass

import numpy as np
import torch

from .._utils._bits import (
    block_bits,
    EXHAUSTIVE_MAX_BITS,
    largest_power_of_two_at_most,
    low_bits_pattern,
)
from .._utils._docstrings import fill_doc
from .._utils._decisions import ModuleReference, real_scores, stable_decisions
from .._utils._encoding import MODEL_INPUT_ENCODINGS, encode_for_model
from .._utils._evaluate import module_input_encoding
from .._utils._validation import check_count
from ._profile import exhaustive_pass
from ..nn import BooleanTransformer
from .._utils._warnings import SkxorUserWarning

#: log2 of the strings per chunk of the evaluation and look-up passes.
_CHUNK_BITS = 16


@dataclass(frozen=True, eq=False, repr=False)
@fill_doc
class MarginProfile:
    """Sensitivity profile of a recognizer with a margin (three-valued output).

    Returned by :func:`margin_profile`; not meant to be built by hand. Every
    count is exact (all 2^N strings).

    Parameters
    ----------
    %(n_bits)s
    margin : float or None
        The margin xi of the model (None when the decisions were given
        directly, as a table or a callable).
    counts : ndarray of shape (N + 1,), dtype int64
        ``counts[k]``: **decided** strings of margin sensitivity k.
    flip_counts : ndarray of shape (N,), dtype int64
        ``flip_counts[i]``: decided strings x whose flip at i crosses the
        margin band (``d(x) d(x^{+i}) = -1``).
    band_counts : ndarray of shape (N,), dtype int64
        ``band_counts[i]``: decided strings x whose flip at i lands in the
        band (``d(x) != 0 = d(x^{+i})``), not counted as flips.
    n_accepted, n_rejected, n_undecided : int
        Strings with ``d = +1``, ``-1`` and ``0``; they sum to ``2^N``.
    n_redecided : int, default=0
        Strings whose output lay within the rounding bound of ``+-margin``
        (of 0 when the margin is 0) and were decided by a one-string
        float64 evaluation, so that the profile does not depend on
        ``batch_size`` (a :class:`~skxor.nn.BooleanTransformer`; 0 for
        tables and callables, whose decisions are taken as given).

    Attributes
    ----------
    n_strings : int
        ``2^N``.
    n_decided : int
        ``n_accepted + n_rejected`` (the strings ``counts`` is over).
    undecided_fraction : float
        ``n_undecided / 2^N``.
    fractions : ndarray of shape (N + 1,)
        ``counts / n_decided`` (NaN when nothing is decided).
    average : float
        Average margin sensitivity over the decided strings.
    n_zero : int
        Decided strings of margin sensitivity 0.

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.sensitivity import margin_profile
    >>> prof = margin_profile(lambda X: np.where(X[:, 0] != X[:, 1], 1, -1), 3)  # XOR
    >>> prof.n_decided, prof.undecided_fraction, prof.average
    (8, 0.0, 2.0)
    """

    n_bits: int
    margin: float | None
    counts: np.ndarray
    flip_counts: np.ndarray
    band_counts: np.ndarray
    n_accepted: int
    n_rejected: int
    n_undecided: int
    n_redecided: int = 0

    @property
    def n_strings(self):
        return 1 << self.n_bits

    @property
    def n_decided(self):
        return self.n_accepted + self.n_rejected

    @property
    def undecided_fraction(self):
        return self.n_undecided / self.n_strings

    @property
    def fractions(self):
        if self.n_decided == 0:
            return np.full(self.n_bits + 1, np.nan)
        return self.counts / self.n_decided

    @property
    def average(self):
        if self.n_decided == 0:
            return float("nan")
        return float(np.dot(np.arange(self.n_bits + 1), self.counts) / self.n_decided)

    @property
    def n_zero(self):
        return int(self.counts[0])

    def __repr__(self):
        return (
            f"MarginProfile(n_bits={self.n_bits}, margin={self.margin}, "
            f"n_accepted={self.n_accepted}, n_rejected={self.n_rejected}, "
            f"n_undecided={self.n_undecided}, average={self.average:.4g}, "
            f"n_zero={self.n_zero})"
        )


def _check_decisions(values, n_rows, what):
    """Decisions as an int8 array of shape (n_rows,), values in {-1, 0, 1}.

    Bools are Boolean values, as in :func:`sensitivity_profile`: True
    accepts and False rejects (never undecided).
    """
    if isinstance(values, torch.Tensor):
        values = values.detach().cpu().numpy()
    values = np.asarray(values)
    if values.shape != (n_rows,):
        raise ValueError(
            f"{what} must give one decision per string, shape ({n_rows},); got "
            f"shape {values.shape}."
        )
    if values.dtype == bool:
        return np.where(values, 1, -1).astype(np.int8)
    if values.dtype.kind not in "biuf":
        raise ValueError(f"{what} must give decisions -1/0/+1; got dtype {values.dtype}.")
    ok = (values == -1) | (values == 0) | (values == 1)
    if not ok.all():
        bad = np.unique(values[~ok])[:5].tolist()
        raise ValueError(
            f"{what} must give decisions -1 (reject), 0 (undecided) or +1 "
            f"(accept); got the values {bad}."
        )
    return values.astype(np.int8)


def _decision_table(f, n_bits, batch_size, input_encoding=None):
    """``(decisions, n_redecided)``: the decision of ``f`` on every string, in
    index order (int8), and how many outputs were re-decided at a threshold."""
    total = 1 << n_bits
    redecided = [0]
    if isinstance(f, np.ndarray) or isinstance(f, torch.Tensor):
        table = f.detach().cpu().numpy() if isinstance(f, torch.Tensor) else f
        if table.ndim != 1 or table.shape[0] != total:
            raise ValueError(
                f"A decision table for n_bits={n_bits} must be 1-D of length "
                f"2^{n_bits} = {total}; got shape {table.shape}."
            )
        return _check_decisions(table, total, "The decision table"), 0
    if isinstance(f, torch.nn.Module):
        if not hasattr(f, "decide"):
            raise TypeError(
                f"{type(f).__name__} has no decide method; margin_profile needs a "
                "recognizer such as skxor.nn.BooleanTransformer, a callable "
                "returning decisions or a decision table."
            )
        encoding = input_encoding or module_input_encoding(f)
        tensors = list(f.parameters()) + list(f.buffers())
        device = tensors[0].device if tensors else torch.device("cpu")
        floating = [t.dtype for t in tensors if t.is_floating_point()]
        dtype = floating[0] if floating else torch.float32

        reference = None
        if isinstance(f, BooleanTransformer):
            # Its real outputs through the shared rule: decisions at +-margin
            # do not depend on the batch size (see stable_decisions).
            reference = ModuleReference(f, n_bits, dtype, device, encoding)

        def evaluate(bits):
            spins = encode_for_model(bits, encoding, dtype=dtype, device=device)
            if reference is None:
                return f.decide(spins)
            with torch.no_grad():
                out = f(spins)
            decisions, n = stable_decisions(
                real_scores(out), reference.recompute(spins, (-f.margin, f.margin)),
                reference.bound(), margin=f.margin)
            redecided[0] += n
            return decisions

        what = f"{type(f).__name__}.decide"
    elif callable(f):
        # int64 bits, as sensitivity_profile gives callables: arithmetic such
        # as 2 * X[:, 0] - 1 cannot wrap round (uint8 gave 255).
        evaluate, what = (lambda bits: f(bits.astype(np.int64))), "The callable"
    else:
        raise TypeError(
            "f must be a recognizer module with a decide method, a callable on "
            "0/1 strings returning -1/0/+1, or a decision table; got "
            f"{type(f).__name__}."
        )
    size = min(total, largest_power_of_two_at_most(batch_size))
    low = low_bits_pattern(size.bit_length() - 1)
    table = np.empty(total, dtype=np.int8)
    for start in range(0, total, size):
        bits = block_bits(start, n_bits, low)
        table[start : start + size] = _check_decisions(evaluate(bits), size, what)
    return table, redecided[0]


def margin_counts(table, n_bits, chunk_bits=_CHUNK_BITS):
    """Margin-sensitivity counts from a full table of decisions.

    The margin version of ``_profile.exhaustive_counts`` (same arguments
    and chunking) for a table of int8 decisions -1 / 0 / +1
    in index order: ``counts`` is over the decided strings only, a flip
    counts only from +1 to -1 or back, and ``band_counts`` (shape
    ``(n_bits,)``, int64) counts the flips from a decided string into the
    band. Returns ``(counts, flip_counts, band_counts)``.
    """
    starts, n_low, size, counts, flip_counts = exhaustive_pass(n_bits, chunk_bits)
    band_counts = np.zeros(n_bits, dtype=np.int64)
    sens = np.empty(size, dtype=np.uint8)  # N <= 28 fits a byte
    for start in starts:
        block = table[start : start + size]
        decided = block != 0
        sens.fill(0)
        for i in range(n_bits):
            if i < n_low:
                # Partners within the block: swap the halves of each 2^(i+1) run.
                partner = block.reshape(-1, 2, 1 << i)[:, ::-1, :].reshape(-1)
            else:
                other = start ^ (1 << i)
                partner = table[other : other + size]
            crossed = block * partner == -1  # accept <-> reject, int8 product
            sens += crossed
            flip_counts[i] += np.count_nonzero(crossed)
            band_counts[i] += np.count_nonzero(decided & (partner == 0))
        counts += np.bincount(sens[decided], minlength=n_bits + 1)
    return counts, flip_counts, band_counts


@fill_doc
def margin_profile(f, n_bits, *, batch_size=1 << 16, input_encoding=None):
    """Exhaustive sensitivity profile of a recognizer with a margin.

    A recognizer maps each string to a decision ``d(x)``: +1 (accept,
    ``T(x) >= xi``), -1 (reject, ``T(x) <= -xi``) or 0 (undecided,
    ``|T(x)| < xi``), as in Köver et al. (2026, arXiv 2606.08768). Flips
    count only across the margin band:

    * the **margin sensitivity** of a decided string x is
      ``s_xi(x) = #{i : d(x) d(x^{+i}) = -1}``, the positions whose flip
      turns an accepted string into a rejected one or back;
    * a flip from a decided string into the band (``d(x^{+i}) = 0``) is not
      a flip: it is counted apart, in ``band_counts``;
    * an undecided string has no sensitivity: it is left out of ``counts``
      and reported in ``n_undecided`` (never classified either way), so
      ``counts`` sums to the number of decided strings, not to 2^N.

    With ``margin = 0`` a :class:`~skxor.nn.BooleanTransformer` decides
    every string (+1 where ``T(x) > 0``, else -1), and the profile equals
    :func:`sensitivity_profile` of the model.

    One evaluation per string builds the table of decisions; the neighbour
    of the string with index r at position i is the table entry
    ``r ^ (1 << i)`` (the bit order of :func:`skxor.boolean.all_strings`).

    Parameters
    ----------
    f : torch.nn.Module with a ``decide`` method, callable or ndarray
        The recognizer. A module (e.g. :class:`skxor.nn.BooleanTransformer`)
        gets floats in its input encoding on its device (see
        ``input_encoding``) and its ``decide``
        returns -1/0/+1 (using its own ``margin``). A callable gets 0/1
        strings (int64, shape (n, N)) and returns -1/0/+1. A 1-D array of
        length 2^N is the table of decisions. Bools are Boolean values
        (True accepts, False rejects, nothing undecided), as in
        :func:`sensitivity_profile`; numbers are decisions, so 0 is
        undecided, and a function that never returns -1 but some 0 (such
        as Boolean labels 0/1) gets a UserWarning.
    n_bits : int
        String length N (at most 28).
    batch_size : int, default=65536
        Strings per model call (rounded down to a power of two).
    %(input_encoding)s
        Only a module's strings are encoded: a callable gets bits.

    Returns
    -------
    profile : MarginProfile

    Examples
    --------
    >>> import numpy as np
    >>> from skxor.sensitivity import margin_profile
    >>> # Accept two or more ones, reject none, undecided on exactly one.
    >>> decide = lambda X: np.select([X.sum(1) >= 2, X.sum(1) == 0], [1, -1], 0)
    >>> prof = margin_profile(decide, 3)
    >>> prof.n_accepted, prof.n_rejected, prof.n_undecided
    (4, 1, 3)
    >>> prof.counts.tolist()  # no flip crosses the band: all 5 decided have s = 0
    [5, 0, 0, 0]
    >>> prof.band_counts.tolist()  # per position: 000 and two strings with two ones
    [3, 3, 3]
    """
    n_bits = check_count(n_bits, "n_bits")
    if n_bits > EXHAUSTIVE_MAX_BITS:
        raise ValueError(
            f"margin_profile is exhaustive (all 2^N strings) and limited to "
            f"N <= {EXHAUSTIVE_MAX_BITS}; got n_bits={n_bits}."
        )
    batch_size = check_count(batch_size, "batch_size")
    if input_encoding is not None and input_encoding not in MODEL_INPUT_ENCODINGS:
        raise ValueError(
            f"input_encoding must be None or one of {MODEL_INPUT_ENCODINGS}; got "
            f"{input_encoding!r}.")
    table, n_redecided = _decision_table(f, n_bits, batch_size, input_encoding)
    counts, flip_counts, band_counts = margin_counts(table, n_bits)
    n_accepted = int(np.count_nonzero(table == 1))
    n_rejected = int(np.count_nonzero(table == -1))
    if n_rejected == 0 and n_accepted < table.shape[0]:
        # Outputs 0/1 only: decisions that never reject, or Boolean labels
        # 0/1 read as "undecided / accept"? Say which reading was taken.
        warnings.warn(
            f"margin_profile: f rejected no string (no decision -1) and left "
            f"{table.shape[0] - n_accepted} of {table.shape[0]} undecided (0), so "
            "its outputs never fall below the band. If f returns Boolean labels "
            "0/1, give them as bools or -1/+1 (e.g. lambda X: 2 * f(X) - 1), or use "
            "sensitivity_profile; 0 here means undecided.",
            SkxorUserWarning,
            stacklevel=2,
        )
    margin = getattr(f, "margin", None) if isinstance(f, torch.nn.Module) else None
    return MarginProfile(
        n_bits,
        None if margin is None else float(margin),
        counts,
        flip_counts,
        band_counts,
        n_accepted,
        n_rejected,
        (1 << n_bits) - n_accepted - n_rejected,
        n_redecided,
    )
