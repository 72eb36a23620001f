"""Exhaustive profiles on a bit-packed truth table, locally, on joblib workers or on dask.

Beyond N = 28 a byte per string no longer fits comfortably (2^32 bytes are
4 GiB); packed, the table of N = 32 is 2^32 bits = 512 MiB of 64-bit words,
string r at bit ``r & 63`` of word ``r >> 6`` (numpy's little-endian
``packbits`` order). Sensitivities are counted by word operations:

* the strings whose flip of position i changes f are the set bits of
  ``w XOR partner(w)``: for ``i < 6`` the word shifted by ``2^i`` within
  itself (masked to the lower string of each pair, then copied to the
  upper one), for ``i >= 6`` the word ``2^(i - 6)`` further on;
* each such word is added to a bit-sliced counter (``planes[p]`` holds
  bit p of every string's running sensitivity, a ripple-carry add);
* the number of strings of sensitivity k is the popcount of the words
  where the planes spell k.

The table is built in slabs of aligned strings (the high bits fixed), each
an independent task, so that ``n_jobs`` workers (joblib, or a dask cluster
through joblib's dask backend) evaluate it together; only the packed slabs
come back.
"""

import os
import sys
import warnings

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs

from .._utils._bits import popcount
from .._utils._evaluate import DEFAULT_BATCH_SIZE, ModelEvaluator
from .._utils._torch import process_state_reason
from .._utils._warnings import SkxorUserWarning

#: Strings per slab of the table built by workers (2^24: 2 MiB packed).
_SLAB_BITS = 24
#: Words per chunk of the count (2^12 words, 2^18 strings: the planes stay in cache).
_CHUNK_WORDS = 1 << 12
#: ``_IN_WORD[i]``: the bits of a word whose string has bit i = 0 (i < 6).
_IN_WORD = [np.uint64(m) for m in (
    0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F,
    0x00FF00FF00FF00FF, 0x0000FFFF0000FFFF, 0x00000000FFFFFFFF)]


def pack_labels(labels):
    """0/1 labels (uint8, a multiple of 64 of them) as little-endian 64-bit words."""
    return np.packbits(labels, bitorder="little").view("<u8")


def _add(planes, carry):
    """Add the one-bit numbers ``carry`` (words) to the bit-sliced counter ``planes``."""
    for plane in planes:
        overflow = plane & carry
        plane ^= carry
        carry = overflow
        if not carry.any():
            return


def packed_counts(words, n_bits, chunk_words=_CHUNK_WORDS):
    """Sensitivity counts and per-bit flip counts from a bit-packed truth table.

    Equal to :func:`skxor.sensitivity._profile.exhaustive_counts` on the
    unpacked table (a test compares them).

    Parameters
    ----------
    words : ndarray of shape (2^(n_bits - 6),), dtype uint64
        The table packed by :func:`pack_labels` (``n_bits >= 6``).
    n_bits : int
    chunk_words : int
        Words per chunk (a power of two).

    Returns
    -------
    counts : ndarray of shape (n_bits + 1,), int64
    flip_counts : ndarray of shape (n_bits,), int64
    """
    n_words = words.shape[0]
    if n_bits < 6 or n_words != 1 << (n_bits - 6):
        raise ValueError(f"a packed table of N = {n_bits} >= 6 bits has 2^(N - 6) words; "
                         f"got {n_words}.")
    size = min(n_words, chunk_words)
    n_planes = n_bits.bit_length()
    counts = np.zeros(n_bits + 1, dtype=np.int64)
    flip_counts = np.zeros(n_bits, dtype=np.int64)
    planes = np.empty((n_planes, size), dtype=np.uint64)
    diff = np.empty(size, dtype=np.uint64)
    chunk_bits = size.bit_length() - 1
    for start in range(0, n_words, size):
        block = words[start : start + size]
        planes.fill(0)
        for i in range(n_bits):
            if i < 6:
                shift = np.uint64(1 << i)
                np.right_shift(block, shift, out=diff)
                diff ^= block
                diff &= _IN_WORD[i]
                diff |= diff << shift  # the upper string of each pair too
            elif i - 6 < chunk_bits:
                # Partner words in the same chunk: swap the halves of each 2^(i-5) run.
                run = 1 << (i - 6)
                pairs = block.reshape(-1, 2, run)
                halves = diff.reshape(-1, 2, run)
                np.bitwise_xor(pairs[:, 0], pairs[:, 1], out=halves[:, 0])
                halves[:, 1] = halves[:, 0]
            else:
                partner = start ^ (1 << (i - 6))
                np.bitwise_xor(block, words[partner : partner + size], out=diff)
            flip_counts[i] += int(popcount(diff).sum(dtype=np.int64))
            _add(planes, diff.copy())
        for k in range(n_bits + 1):
            match = np.full(size, np.uint64(0xFFFFFFFFFFFFFFFF))
            for p in range(n_planes):
                match &= planes[p] if (k >> p) & 1 else ~planes[p]
            counts[k] += int(popcount(match).sum(dtype=np.int64))
    return counts, flip_counts


def _slab(f, n_bits, input_encoding, batch_size, fast, begin, end, evaluator=None):
    """``(words, n_redecided)``: the packed labels of the strings ``begin .. end - 1``.

    A task of its own (joblib or dask worker): the model is evaluated by a
    fresh :class:`ModelEvaluator` (the same rounding bound on every worker:
    it comes from a fixed draw of strings), unless ``evaluator`` is given.
    """
    if evaluator is None:
        evaluator = ModelEvaluator(f, n_bits, input_encoding)
    before = evaluator.n_redecided
    words = np.empty((end - begin) >> 6, dtype="<u8")
    # Blocks of at least 64 strings: each fills whole words.
    for start, labels in evaluator.iter_blocks(begin, end, max(64, batch_size), fast):
        offset = (start - begin) >> 6
        words[offset : offset + (labels.size >> 6)] = pack_labels(labels)
    return words, evaluator.n_redecided - before


def _user_stacklevel():
    """The ``stacklevel`` of a warning from the caller's frame that points at the
    first frame outside skxor (the user's call, whichever entry point it took)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frame, level = sys._getframe(2), 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(root):
        frame, level = frame.f_back, level + 1
    return level


def _stays_here(evaluator, n_jobs):
    """Whether process state that workers lack changes the model: then warn and stay.

    A hook registered for every module (:func:`skxor._utils._torch.process_state_reason`)
    is not in a worker process, whose model would compute something else.
    """
    reason = None if evaluator.kind in ("table", "boolean") else process_state_reason()
    if reason is not None:
        warnings.warn(
            f"n_jobs={n_jobs!r} is ignored: the truth table is evaluated in the calling "
            f"process, because {reason} changes what the model computes and worker "
            "processes would not have it.",
            SkxorUserWarning,
            stacklevel=_user_stacklevel(),
        )
    return reason is not None


def packed_truth_table(evaluator, batch_size=DEFAULT_BATCH_SIZE, fast=True, n_jobs=None,
                       slab_bits=None):
    """The model's truth table on all 2^N strings (N >= 6), bit-packed (``evaluator.n_redecided``
    counts the outputs decided per string, on every worker).

    With ``n_jobs`` other than None or 1, slabs of ``2^slab_bits`` strings
    are evaluated by joblib workers (any joblib backend: a dask cluster
    with ``joblib.parallel_backend("dask")``); the words are the same
    whatever ran them.
    """
    n_bits = evaluator.n_bits
    total = 1 << n_bits
    slab = min(total, 1 << (_SLAB_BITS if slab_bits is None else slab_bits))
    if n_jobs is None or effective_n_jobs(n_jobs) == 1 or _stays_here(evaluator, n_jobs):
        return _slab(None, n_bits, None, batch_size, fast, 0, total, evaluator)[0]
    # As a generator: each slab is copied in as it comes, never all at once.
    parts = Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(_slab)(evaluator.model, n_bits, evaluator.requested_encoding, batch_size, fast,
                       begin, begin + slab)
        for begin in range(0, total, slab))
    words = np.empty(total >> 6, dtype="<u8")
    for j, (part, n_redecided) in enumerate(parts):
        words[j * part.size : (j + 1) * part.size] = part
        evaluator.n_redecided += n_redecided
    return words
