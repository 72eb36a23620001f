"""Sensitivity profiles: the exhaustive and sampled engines and their result.

For ``f: {0,1}^N -> {0,1}`` the sensitivity of a string is the number of
positions whose flip changes f (Köver et al. 2026, arXiv 2606.08768).

Exhaustive engine: the truth table is built with one model evaluation per
string (strings generated chunk-wise from their indices), then sensitivities
are computed chunk by chunk from table look-ups alone: the string with index
r and its neighbour ``r ^ (1 << i)`` differ in f iff ``table[r] XOR
table[r ^ (1 << i)]`` is 1. Chunks are aligned blocks of ``2^c`` indices, so
for ``i >= c`` the neighbours of a block form the contiguous block at
``start ^ (1 << i)``, and for ``i < c`` they lie in the same block with the
halves of each ``2^(i+1)`` run swapped: every look-up is a strided slice,
never a gather. The counts per sensitivity value are accumulated with
``np.bincount``; the only 2^N-sized object is the truth table (one byte per
string).

Sampled engine: uniform random strings and their N neighbours, (N + 1) model
evaluations per sample, with Wilson confidence intervals for each fraction and
a t interval for the average sensitivity. The neighbours are evaluated in
model calls of at most ``batch_size`` strings (and at most 2^22 bits): several
strings per call when N + 1 fits, else one string's neighbours split over
several calls, so memory stays bounded whatever N is.

Over 600 lines because the result class and the two engines that fill it
share their batching, string draws and boundary rule; splitting them would
make each engine import the other's private helpers.
"""

import functools
from dataclasses import dataclass
from numbers import Real

import numpy as np
from scipy import stats
from sklearn.utils import check_random_state

from .._utils._sklearn_compat import Interval, StrOptions
from .._utils._bits import EXHAUSTIVE_MAX_BITS, PACKED_MAX_BITS, check_exhaustive_bits
from .._utils._deprecation import deprecated_method
from .._utils._docstrings import fill_doc
from .._utils._encoding import MODEL_INPUT_ENCODINGS
from .._utils._validation import Integers, validate_params_once
from .._utils._wilson import wilson_interval
from .._utils._evaluate import (
    DEFAULT_BATCH_SIZE,
    ModelEvaluator,
    strings_per_call,
)
from ._packed import packed_counts, packed_truth_table

#: log2 of the strings per chunk of the sensitivity pass (64 KiB per chunk).
_CHUNK_BITS = 16
#: Up to this N a whole table is counted by one gather of every string's
#: partners (a few numpy calls); above it the blockwise pass is faster
#: (measured 3.9x faster at N = 10, 2.2x at 12, 0.88x at 16).
_GATHER_MAX_BITS = 12

METHODS = ("auto", "exhaustive", "sampled")


@dataclass(frozen=True, eq=False, repr=False)
@fill_doc
class SensitivityProfile:
    """The sensitivity profile of a Boolean function ``f: {0,1}^N -> {0,1}``.

    Returned by :func:`sensitivity_profile`; not meant to be built by hand.

    Parameters
    ----------
    %(n_bits)s
    method : {"exhaustive", "sampled", "data"}
        ``"exhaustive"``: counts over all 2^N strings (exact). ``"sampled"``:
        counts over uniform random strings. ``"data"``: counts over given
        strings (e.g. the inputs an estimator was fitted on).
    counts : ndarray of shape (N + 1,), dtype int64
        ``counts[k]`` is the number of (profiled) strings of sensitivity k.
    n_strings : int
        Number of profiled strings (``2^N`` when exhaustive).
    flip_counts : ndarray of shape (N,), dtype int64
        ``flip_counts[i]``: profiled strings x with ``f(x) != f(x^{+i})``.
    confidence : float or None
        Confidence level of the intervals (None when exhaustive).
    fraction_ci : ndarray of shape (N + 1, 2) or None
        Wilson score interval of each fraction (None when exhaustive).
    average_ci : ndarray of shape (2,) or None
        Student-t interval of the average sensitivity (None when exhaustive;
        of width 0 when every sampled string has the same sensitivity).
    n_redecided : int, default=0
        Model outputs (strings and flip neighbours evaluated) that lay
        within the rounding bound of 0 and were decided by a one-string
        evaluation, so that the profile does not depend on batching (torch
        modules and skxor's torch classifiers; 0 for Boolean outputs).

    Attributes
    ----------
    fractions : ndarray of shape (N + 1,)
        ``counts / n_strings``.
    average : float
        Average sensitivity (exact when exhaustive, else the sample mean).
    minimum, maximum : int
        Smallest and largest sensitivity seen (exact when exhaustive; from a
        sample, an upper / lower bound of the true value).
    n_zero : int
        Number of profiled strings of sensitivity 0.
    zero_fraction : float
        Their fraction.
    influences : ndarray of shape (N,)
        ``flip_counts / n_strings``: the influence of each bit (exact when
        exhaustive); they sum to ``average``.
    normalized_average : float
        ``average / N``, the per-bit average of Bhattamishra et al. (2023).

    Examples
    --------
    >>> from skxor.boolean import Majority
    >>> from skxor.sensitivity import sensitivity_profile
    >>> prof = sensitivity_profile(Majority(3), 3)
    >>> prof.counts.tolist(), prof.average, prof.zero_fraction
    ([2, 0, 6, 0], 1.5, 0.25)
    """

    n_bits: int
    method: str
    counts: np.ndarray
    n_strings: int
    flip_counts: np.ndarray
    confidence: float | None = None
    fraction_ci: np.ndarray | None = None
    average_ci: np.ndarray | None = None
    n_redecided: int = 0

    @property
    def fractions(self):
        return self.counts / self.n_strings

    @property
    def average(self):
        return float(np.dot(np.arange(self.n_bits + 1), self.counts) / self.n_strings)

    @property
    def minimum(self):
        return int(np.flatnonzero(self.counts)[0])

    @property
    def maximum(self):
        return int(np.flatnonzero(self.counts)[-1])

    @property
    def n_zero(self):
        return int(self.counts[0])

    @property
    def zero_fraction(self):
        return float(self.counts[0] / self.n_strings)

    @property
    def zero_fraction_ci(self):
        """Confidence interval of ``zero_fraction`` (None when exhaustive)."""
        return None if self.fraction_ci is None else self.fraction_ci[0]

    @property
    def influences(self):
        return self.flip_counts / self.n_strings

    @property
    def normalized_average(self):
        """Average sensitivity divided by N, in [0, 1].

        The per-bit convention of Bhattamishra et al. (2023), whose value is
        ``average / n_bits``.
        """
        return self.average / self.n_bits

    def to_frame(self):
        """The profile as a pandas DataFrame, one row per sensitivity value.

        Returns
        -------
        frame : pandas.DataFrame
            Index ``sensitivity`` (0..N); columns ``count`` and ``fraction``,
            plus ``ci_low`` and ``ci_high`` when sampled. ``frame.attrs``
            holds ``n_bits``, ``method``, ``n_strings`` and ``average``.

        Examples
        --------
        >>> from skxor.boolean import Parity
        >>> from skxor.sensitivity import sensitivity_profile
        >>> sensitivity_profile(Parity(2), 2).to_frame()
                     count  fraction
        sensitivity                 
        0                0       0.0
        1                0       0.0
        2                4       1.0
        """
        import pandas as pd

        data = {"count": self.counts, "fraction": self.fractions}
        if self.fraction_ci is not None:
            data["ci_low"] = self.fraction_ci[:, 0]
            data["ci_high"] = self.fraction_ci[:, 1]
        frame = pd.DataFrame(
            data, index=pd.RangeIndex(self.n_bits + 1, name="sensitivity")
        )
        frame.attrs.update(
            n_bits=self.n_bits,
            method=self.method,
            n_strings=self.n_strings,
            average=self.average,
        )
        return frame

    @deprecated_method("skxor.plotting.SensitivityProfileDisplay.from_profile(profile)")
    @fill_doc
    def plot(self, ax=None, **bar_kwargs):
        """Bar chart of the fraction of strings per sensitivity value (deprecated).

        Deprecated: a result does not draw itself; the display draws the
        result, ``SensitivityProfileDisplay.from_profile(profile)`` in
        :mod:`skxor.plotting` (with references, legend and styles). This
        method draws a plain bar chart (sampled profiles with Wilson error
        bars), titled with N, the method and the average sensitivity, with
        matplotlib alone, and will be removed in the next release.

        Parameters
        ----------
        %(ax)s
        **bar_kwargs
            Passed to ``ax.bar``.

        Returns
        -------
        ax : matplotlib Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skxor.boolean import Majority
        >>> from skxor.plotting import SensitivityProfileDisplay
        >>> from skxor.sensitivity import sensitivity_profile
        >>> disp = SensitivityProfileDisplay.from_profile(sensitivity_profile(Majority(5), 5))
        >>> disp.ax_.get_xlabel()
        'sensitivity s(f, x)'
        """
        # matplotlib directly, not skxor.plotting: plotting sits above sensitivity.
        try:
            import matplotlib.pyplot as plt
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ImportError(
                "SensitivityProfile.plot needs matplotlib; install it with "
                "`pip install skxor[plot]`."
            ) from exc
        if ax is None:
            _, ax = plt.subplots()
        errors = (None if self.fraction_ci is None
                  else np.abs(self.fraction_ci.T - self.fractions))
        ax.bar(np.arange(self.fractions.size), self.fractions, yerr=errors, **bar_kwargs)
        ax.set_xlabel("sensitivity s(f, x)")
        sampled = self.method != "exhaustive"
        ax.set_ylabel("fraction of sampled strings" if sampled else "fraction of strings")
        ax.set_title(
            f"N = {self.n_bits}, {self.method} ({self.n_strings} strings), "
            f"average {self.average:.3g}"
        )
        return ax

    def __repr__(self):
        text = (
            f"SensitivityProfile(n_bits={self.n_bits}, method={self.method!r}, "
            f"n_strings={self.n_strings}, average={self.average:.4g}"
        )
        if self.average_ci is not None:
            text += f" [{self.average_ci[0]:.4g}, {self.average_ci[1]:.4g}]"
        return text + f", minimum={self.minimum}, zero_fraction={self.zero_fraction:.4g})"


# -- engines -------------------------------------------------------------------


def exhaustive_pass(n_bits, chunk_bits):
    """The chunks of a pass over all 2^N strings and its zeroed counters.

    Returns ``(starts, n_low, size, counts, flip_counts)``: the first index
    of each aligned block of ``size = 2^n_low`` strings (``n_low =
    min(N, chunk_bits)``), and int64 zeros of shapes ``(N + 1,)`` and ``(N,)``.
    """
    n_low = min(n_bits, chunk_bits)
    size = 1 << n_low
    counts = np.zeros(n_bits + 1, dtype=np.int64)
    return range(0, 1 << n_bits, size), n_low, size, counts, np.zeros(n_bits, dtype=np.int64)


def exhaustive_counts(table, n_bits, chunk_bits=_CHUNK_BITS):
    """Sensitivity counts and per-bit flip counts from a full truth table.

    Parameters
    ----------
    table : ndarray of shape (2^n_bits,), dtype uint8
        Values 0/1 in index order.
    n_bits : int
    chunk_bits : int
        Chunks of ``2^chunk_bits`` strings.

    Returns
    -------
    counts : ndarray of shape (n_bits + 1,), int64
    flip_counts : ndarray of shape (n_bits,), int64
    """
    if n_bits <= min(_GATHER_MAX_BITS, chunk_bits):
        return _gather_counts(table, n_bits)
    starts, n_low, size, counts, flip_counts = exhaustive_pass(n_bits, chunk_bits)
    sens = np.empty(size, dtype=np.uint8)  # N <= 28 < 256 fits a byte
    diff = np.empty(size, dtype=np.uint8)
    for start in starts:
        block = table[start : start + size]
        sens.fill(0)
        for i in range(n_low):
            # Within the block, the partner of a string swaps the two halves of
            # its 2^(i+1) run: compare the halves once, add to both.
            pairs = block.reshape(-1, 2, 1 << i)
            half = diff[: size // 2].reshape(-1, 1 << i)
            np.bitwise_xor(pairs[:, 0, :], pairs[:, 1, :], out=half)
            sens_pairs = sens.reshape(-1, 2, 1 << i)
            sens_pairs[:, 0, :] += half
            sens_pairs[:, 1, :] += half
            flip_counts[i] += 2 * np.count_nonzero(half.view(bool))
        for i in range(n_low, n_bits):
            partner = start ^ (1 << i)
            np.bitwise_xor(block, table[partner : partner + size], out=diff)
            sens += diff
            flip_counts[i] += np.count_nonzero(diff.view(bool))
        counts += np.bincount(sens, minlength=n_bits + 1)
    return counts, flip_counts


@functools.lru_cache(maxsize=_GATHER_MAX_BITS + 1)
def _partners(n_bits):
    """(N, 2^N) int32, read-only: row i holds each index with bit i flipped."""
    index = np.arange(1 << n_bits, dtype=np.int32)
    partners = index ^ (np.int32(1) << np.arange(n_bits, dtype=np.int32))[:, None]
    partners.flags.writeable = False
    return partners


def _gather_counts(table, n_bits):
    """:func:`exhaustive_counts` of a small table by one gather: per-call work, not
    per-bit numpy calls, is what a small table's time is made of."""
    flips = np.take(table, _partners(n_bits))  # (N, 2^N): f at each partner
    np.bitwise_xor(flips, table, out=flips)
    sens = np.add.reduce(flips, axis=0, dtype=np.uint8)
    counts = np.bincount(sens, minlength=n_bits + 1).astype(np.int64, copy=False)
    return counts, np.count_nonzero(flips, axis=1).astype(np.int64, copy=False)


def iter_flips(evaluator, bits, batch_size=DEFAULT_BATCH_SIZE, incremental=True):
    """Yield ``(rows, flips)`` per chunk of ``bits``.

    ``flips[r, i]`` is True when flipping position i of string ``bits[rows][r]``
    changes f. Every model call gets at most ``strings_per_call(batch_size,
    N)`` strings: whole strings with their N neighbours when N + 1 fit in a
    call, else one string at a time, its neighbours split over several calls.
    Peak memory is therefore about ``batch_size * N`` entries whatever N is.

    With ``incremental=True`` (the default) a model that evaluates the flips
    of a string itself (``evaluator.has_flip_neighbours``) does so, on at
    most ``strings_per_call(batch_size, N)`` strings per call; its real
    outputs become labels by the same rule as the per-flip path's.
    """
    n_rows, n_bits = bits.shape
    per_call = strings_per_call(batch_size, n_bits)
    if incremental and evaluator.has_flip_neighbours:
        for begin in range(0, n_rows, per_call):
            rows = slice(begin, min(n_rows, begin + per_call))
            own, neighbours = evaluator.neighbour_labels(bits[rows])
            yield rows, neighbours != own[:, None]
        return
    if n_bits + 1 > per_call:
        yield from _iter_flips_split(evaluator, bits, per_call)
        return
    step = per_call // (n_bits + 1)
    positions = np.arange(n_bits)
    for begin in range(0, n_rows, step):
        rows = slice(begin, min(n_rows, begin + step))
        block = bits[rows]
        # (r, N + 1, N): each string followed by its N neighbours.
        ext = np.repeat(block[:, None, :], n_bits + 1, axis=1)
        ext[:, positions + 1, positions] ^= 1
        values = evaluator.labels(ext.reshape(-1, n_bits)).reshape(-1, n_bits + 1)
        yield rows, values[:, 1:] != values[:, :1]


def _iter_flips_split(evaluator, bits, per_call):
    """:func:`iter_flips` for strings whose N + 1 neighbours exceed one call."""
    n_rows, n_bits = bits.shape
    values = np.empty(n_bits + 1, dtype=np.uint8)
    for r in range(n_rows):
        # Entry j of ``values``: f on the string with position j - 1 flipped
        # (j = 0: the string itself), filled per_call entries at a time.
        for begin in range(0, n_bits + 1, per_call):
            stop = min(n_bits + 1, begin + per_call)
            block = np.repeat(bits[r][None, :], stop - begin, axis=0)
            first = max(begin, 1)
            block[np.arange(first - begin, stop - begin), np.arange(first - 1, stop - 1)] ^= 1
            values[begin:stop] = evaluator.labels(block)
        yield slice(r, r + 1), (values[1:] != values[0])[None, :]


def summarize(n_bits, method, counts, flip_counts, confidence=0.95, n_redecided=0):
    """Build a :class:`SensitivityProfile`, with intervals unless exhaustive."""
    if method == "exhaustive":  # every string counted once: 2^N, without a reduction
        # The fields set directly: a frozen dataclass's __init__ sets each through
        # object.__setattr__ (1.1 us, 4% of a profile of a 10-bit table).
        profile = object.__new__(SensitivityProfile)
        profile.__dict__.update(n_bits=n_bits, method=method, counts=counts,
                                n_strings=1 << n_bits, flip_counts=flip_counts, confidence=None,
                                fraction_ci=None, average_ci=None, n_redecided=n_redecided)
        return profile
    n_strings = int(counts.sum())
    fraction_ci = wilson_interval(counts, n_strings, confidence)
    k = np.arange(n_bits + 1)
    mean = np.dot(k, counts) / n_strings
    if n_strings > 1:
        var = np.dot((k - mean) ** 2, counts) / (n_strings - 1)
        sem = np.sqrt(var / n_strings)
    else:
        sem = np.inf
    if sem == 0:  # every sample has the same sensitivity
        average_ci = np.array([mean, mean])
    elif not np.isfinite(sem):
        average_ci = np.array([0.0, float(n_bits)])
    else:
        low, high = stats.t.interval(confidence, n_strings - 1, loc=mean, scale=sem)
        average_ci = np.clip([low, high], 0.0, n_bits)
    return SensitivityProfile(
        n_bits,
        method,
        counts,
        n_strings,
        flip_counts,
        confidence=confidence,
        fraction_ci=fraction_ci,
        average_ci=average_ci,
        n_redecided=n_redecided,
    )


def uniform_strings(rng, n_strings, n_bits):
    """``rng.randint(0, 2, size=(n_strings, n_bits), dtype=np.uint8)``, faster.

    The same strings, and the same state of ``rng`` after. For uint8 that
    draw takes the bytes of the generator's 32-bit words, low byte first,
    and keeps the lowest bit of each (numpy's frozen legacy stream; it is
    how ``rng.bytes`` is made too). Drawing the words and masking them
    costs a third of the element-wise bounded draw.
    """
    size = n_strings * n_bits
    if size == 0:
        return np.zeros((n_strings, n_bits), dtype=np.uint8)
    words = rng.randint(0, 1 << 32, size=(size + 3) // 4, dtype=np.uint32)
    words &= np.uint32(0x01010101)
    return words.astype("<u4", copy=False).view(np.uint8)[:size].reshape(n_strings, n_bits)


def profile_strings(evaluator, bits, *, method, batch_size, confidence, incremental=True):
    """Profile over given 0/1 strings (``method`` names where they came from)."""
    n_bits = evaluator.n_bits
    counts = np.zeros(n_bits + 1, dtype=np.int64)
    flip_counts = np.zeros(n_bits, dtype=np.int64)
    if incremental and evaluator.has_flip_certificate:
        # Decisions only: the flips a certificate settles are never formed.
        per_call = strings_per_call(batch_size, n_bits)
        for begin in range(0, bits.shape[0], per_call):
            block = bits[begin : begin + per_call]
            rows, cols = evaluator.flip_changes(block)
            sensitivities = np.bincount(rows, minlength=block.shape[0])
            counts += np.bincount(sensitivities, minlength=n_bits + 1)
            flip_counts += np.bincount(cols, minlength=n_bits)
        return summarize(n_bits, method, counts, flip_counts, confidence, evaluator.n_redecided)
    for _, flips in iter_flips(evaluator, bits, batch_size, incremental):
        counts += np.bincount(flips.sum(axis=1), minlength=n_bits + 1)
        flip_counts += flips.sum(axis=0)
    return summarize(n_bits, method, counts, flip_counts, confidence, evaluator.n_redecided)


def resolve_method(method, n_bits, n_samples, *, fallback="sampled", table=False):
    """The one rule for ``method="auto"``: exhaustive when it costs no more.

    Exhaustive costs 2^N evaluations, sampling ``(N + 1) n_samples``: when the
    exact answer is no dearer than the estimate (and N is at most 28), take
    the exact one; else ``fallback`` (``"sampled"`` for a bare function,
    ``"data"`` for :class:`SensitivityProfiler`, which has training strings).
    A truth table (``table=True``) is always profiled exhaustively.
    """
    if method not in METHODS + ("data",):
        raise ValueError(f"method must be one of {METHODS}; got {method!r}.")
    if method != "auto":
        return method
    if table:
        return "exhaustive"
    if n_bits <= EXHAUSTIVE_MAX_BITS and (1 << n_bits) <= (n_bits + 1) * n_samples:
        return "exhaustive"
    return fallback


def profile_model(
    evaluator, method, *, n_samples, batch_size, confidence, random_state, data=None,
    incremental=True, n_jobs=None,
):
    """The sensitivity engine: ``(profile, truth table or None)`` of a model.

    ``method`` is resolved (not ``"auto"``). ``"exhaustive"`` evaluates all
    2^N strings and returns the table too (None beyond N = 28, or with
    ``n_jobs`` workers: the table is then bit-packed, see
    :mod:`skxor.sensitivity._packed`); ``"sampled"`` draws ``n_samples``
    uniform strings from ``random_state``; ``"data"`` profiles the 0/1
    strings ``data`` (a random subset of ``n_samples`` rows, in their order,
    when there are more). ``incremental``: see :func:`iter_flips`.
    """
    n_bits = evaluator.n_bits
    packed = n_bits > EXHAUSTIVE_MAX_BITS or n_jobs not in (None, 1)
    if method == "exhaustive" and packed and n_bits >= 6:
        words = packed_truth_table(evaluator, batch_size, incremental, n_jobs)
        counts, flip_counts = packed_counts(words, n_bits)
        return summarize(n_bits, "exhaustive", counts, flip_counts,
                         n_redecided=evaluator.n_redecided), None
    if method == "exhaustive":
        table = evaluator.truth_table(batch_size, fast=incremental)
        counts, flip_counts = exhaustive_counts(table, n_bits)
        profile = summarize(n_bits, "exhaustive", counts, flip_counts,
                            n_redecided=evaluator.n_redecided)
        return profile, table
    rng = check_random_state(random_state)
    if method == "sampled":
        strings = uniform_strings(rng, n_samples, n_bits)
    elif data.shape[0] > n_samples:
        strings = data[np.sort(rng.choice(data.shape[0], n_samples, replace=False))]
    else:
        strings = data
    profile = profile_strings(
        evaluator, strings, method=method, batch_size=batch_size, confidence=confidence,
        incremental=incremental,
    )
    return profile, None


@validate_params_once(
    {
        "f": "no_validation",  # a callable, estimator, module or table: see ModelEvaluator
        "n_bits": [Integers(1, None, closed="left")],
        "method": [StrOptions(set(METHODS))],
        "n_samples": [Integers(1, None, closed="left")],
        "batch_size": [Integers(1, None, closed="left")],
        "confidence": [Interval(Real, 0, 1, closed="neither")],
        "input_encoding": [StrOptions(set(MODEL_INPUT_ENCODINGS)), None],
        "random_state": ["random_state"],
        "incremental": ["boolean"],
        "n_jobs": [Integers(None, None, closed="neither"), None],
    },
    prefer_skip_nested_validation=True,
)
@fill_doc
def sensitivity_profile(
    f,
    n_bits,
    *,
    method="auto",
    n_samples=10_000,
    batch_size=DEFAULT_BATCH_SIZE,
    confidence=0.95,
    input_encoding=None,
    random_state=None,
    incremental=True,
    n_jobs=None,
):
    """Sensitivity profile of a Boolean function, model or truth table.

    The sensitivity of string x is ``s(f, x) = #{i : f(x) != f(x^{+i})}``,
    where ``x^{+i}`` flips position i. The profile counts the strings per
    sensitivity value 0..N.

    Parameters
    ----------
    f : callable, fitted estimator, torch.nn.Module or ndarray
        The function. A callable gets a batch of strings as a C-contiguous
        ``int64`` ndarray of shape (n, N), one string per row, position i in
        column i, values 0/1 (or -1/+1 with ``input_encoding="pm1"``); int64
        so that sums and products cannot wrap round. It returns one label
        per row, 0/1, -1/+1 or bools (any other value is an error that names
        the value and the input string). A fitted classifier's predicted
        label ``classes_[1]`` is 1, and it gets the encoding it was fitted
        with (``encoding_``); a torch module gets float spins and its real
        output is thresholded at 0 (see :mod:`skxor.boolean`); a 1-D array of
        length 2^N is a truth table.
    %(n_bits)s
    method : {"auto", "exhaustive", "sampled"}, default="auto"
        ``"exhaustive"``: all 2^N strings, one model evaluation each (N at
        most 32; beyond 28 the truth table is bit-packed). ``"sampled"``: ``n_samples`` uniform strings and their N
        neighbours. ``"auto"``: exhaustive when ``2^N <= (N + 1) *
        n_samples`` (it then costs no more than sampling), else sampled.
    n_samples : int, default=10000
        Number of uniform strings for the sampled method (drawn at once: an
        ``n_samples x N`` byte array); also sets the auto rule.
    batch_size : int, default=65536
        Strings per model call (exhaustive: rounded down to a power of two),
        and at most ``2^22 / N`` strings. A sampled string's N neighbours are
        split over several calls when N + 1 exceeds that, so memory stays
        about ``batch_size * N`` whatever N is.
    confidence : float, default=0.95
        Level of the confidence intervals of a sampled profile.
    %(input_encoding)s
    random_state : int, RandomState instance or None, default=None
        Seeds the sampled strings.
    incremental : bool, default=True
        For the sampled method: a model that evaluates the N flips of a
        string itself, from the string's own evaluation (its
        ``flip_neighbours`` method: skxor's sparse-XOR, k-parity and Boolean
        transformer modules and estimators), does so, far faster than N
        model calls; its outputs agree with the per-flip evaluation to float
        rounding and become labels by the same rule. A model that also
        certifies flips' decisions (the sparse-XOR models, a one-layer
        Boolean transformer) forms only the flips its bound cannot settle,
        with the same labels. For the exhaustive method: a one-layer
        softmax :class:`~skxor.nn.BooleanTransformer` given spins is scored
        on whole blocks of strings from tables of its read-out token's
        attention sums (:meth:`~skxor.nn.BooleanTransformer.exhaustive_scorer`;
        10x faster at N = 24, D = 64), with the labels and profile of the
        per-string path; :func:`skxor.nn.exhaustive_refusal` says why
        another model is evaluated string by string. False evaluates every
        (flipped) string with the model (the reference path).
    n_jobs : int or None, default=None
        Workers of an exhaustive profile (joblib's convention: -1 for every
        core; a dask cluster under ``joblib.parallel_backend("dask")``):
        each evaluates slabs of 2^24 strings of a bit-packed truth table,
        and the counts are word operations on it. The profile is the same
        whatever ``n_jobs``: while a forward hook registered for every
        module (``torch.nn.modules.module.register_module_forward_hook``)
        changes what the model computes, workers would not have it, so the
        table is evaluated in the calling process and a UserWarning says
        so. Beyond N = 28 the table is bit-packed anyway (N = 32: 512 MiB).

    Returns
    -------
    profile : SensitivityProfile

    Raises
    ------
    ValueError
        For an exhaustive request with N > 32 (use ``method="sampled"``), a
        torch module whose input encoding is unknown (see ``input_encoding``),
        a model that returns non-binary labels, a torch module (or skxor
        classifier) with a NaN or infinite weight, a model whose outputs
        are NaN or infinite (the same error on every path), a truth table
        of the wrong length, or an estimator fitted on a different number
        of features.

    Examples
    --------
    >>> from skxor.boolean import Parity
    >>> from skxor.sensitivity import sensitivity_profile
    >>> sensitivity_profile(Parity(4), 4).counts.tolist()
    [0, 0, 0, 0, 16]
    >>> prof = sensitivity_profile(lambda X: X[:, 0] | X[:, 1], 10,
    ...                            method="sampled", n_samples=500, random_state=0)
    >>> prof.method, prof.n_strings, round(prof.average, 1)
    ('sampled', 500, 1.0)
    """
    # Checked once, by the decorator; numpy integers become ints.
    n_bits, n_samples, batch_size = int(n_bits), int(n_samples), int(batch_size)
    if method == "exhaustive":
        check_exhaustive_bits(n_bits, limit=PACKED_MAX_BITS)
    evaluator = ModelEvaluator(f, n_bits, input_encoding)
    method = resolve_method(method, n_bits, n_samples, table=isinstance(f, np.ndarray))
    profile, _ = profile_model(
        evaluator,
        method,
        n_samples=n_samples,
        batch_size=batch_size,
        confidence=confidence,
        random_state=random_state,
        incremental=incremental,
        n_jobs=n_jobs,
    )
    return profile
