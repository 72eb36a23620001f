"""Hypothesis strategies for messy inputs, and the outcome check every case must pass.

Each generated case knows which problems it has (NaN, non-binary values, one
class, ...). An entry point must then either return a valid result (only
allowed when the case has no problem) or raise a ValueError/TypeError whose
message names one of the case's problems and which was not raised from
inside torch. Anything else fails the test.
"""

import traceback

import numpy as np
import pandas as pd
import scipy.sparse as sp
from hypothesis import strategies as st

#: A problem and the words a message naming it contains (any one of them).
PROBLEM_WORDS = {
    "no samples": ["0 sample", "empty", "n_samples", "Expected 2D array"],
    "no features": ["0 feature", "feature(s)", "n_features"],
    "too few features": ["feature(s)", "n_features", "features"],
    "sparse": ["sparse", "dense data"],
    "nan": ["NaN", "nan"],
    "inf": ["infinity", "inf"],
    "not binary": ["binary", "values", "encod"],
    "length mismatch": ["inconsistent numbers of samples", "length", "samples"],
    "one class": ["class"],
    "multiclass": ["binary", "class"],
    "continuous y": ["Unknown label type", "continuous", "label"],
    "nan label": ["NaN", "nan", "Input y contains", "label"],
    "bad parameter": ["parameter", "must be"],
}


@st.composite
def binary_problems(draw, *, allow_binarize=True):
    """A (X, y, binarize, problems) case: shapes, dtypes, encodings, corruptions.

    Half the cases are drawn clean (no corruption, two labels, matching
    lengths, a dense container) so that valid inputs are exercised as often
    as broken ones.
    """
    clean = draw(st.booleans())
    n = draw(st.integers(2 if clean else 0, 12))
    d = draw(st.integers(0, 7))
    encoding = draw(st.sampled_from(["01", "pm1", "bool", "real"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    bits = rng.integers(0, 2, size=(n, d))
    if encoding == "01":
        X = bits.astype(draw(st.sampled_from([np.int8, np.int64, np.float32, np.float64, object])))
    elif encoding == "pm1":
        X = (1 - 2 * bits).astype(draw(st.sampled_from([np.int8, np.int32, np.float32, np.float64, object])))
    elif encoding == "bool":
        X = bits.astype(bool)
    else:
        X = rng.normal(size=(n, d)).astype(draw(st.sampled_from([np.float32, np.float64])))
    corruption = None if clean else draw(st.sampled_from([None, "nan", "inf", "value", "mixed"]))
    if corruption and X.size:
        X = X.astype(np.float64)
        i, j = rng.integers(0, n), rng.integers(0, d)
        X[i, j] = {"nan": np.nan, "inf": np.inf, "value": 2.0, "mixed": -1.0}[corruption]
        if corruption == "mixed":
            X[rng.integers(0, n), rng.integers(0, d)] = 0.0
    binarize = draw(st.sampled_from([None, 0.0, 0.5])) if allow_binarize else None

    label_kinds = ["two", "strings"] if clean else ["two", "one", "three", "continuous", "nan"]
    label_kind = draw(st.sampled_from(label_kinds))
    delta = 0 if clean else draw(st.sampled_from([0, -1, 1]))
    m = max(0, n + delta)
    if label_kind in ("two", "strings"):
        labels = [-1, 1] if label_kind == "two" else np.array(["no", "yes"], dtype=object)
        y = rng.choice(labels, size=m)
        if clean:  # both labels present
            y[:2] = labels[:2] if label_kind == "strings" else [-1, 1]
    elif label_kind == "one":
        y = np.ones(m)
    elif label_kind == "three":
        y = rng.integers(0, 3, size=m)
    elif label_kind == "continuous":
        y = rng.normal(size=m)
    else:
        y = rng.choice([0.0, 1.0, np.nan], size=m)

    containers = ["array", "dataframe", "list"] + ([] if clean else ["sparse"])
    container = draw(st.sampled_from(containers))
    problems = _problems(X, y, n, d, binarize)
    if container == "sparse":
        problems.add("sparse")
        X = sp.csr_matrix(np.nan_to_num(X.astype(np.float64))) if X.size else sp.csr_matrix((n, d))
    elif container == "dataframe":
        X = pd.DataFrame(X, columns=[f"b{i}" for i in range(d)])
    elif container == "list":
        X = X.tolist()
    return X, y, binarize, problems


def _problems(X, y, n, d, binarize):
    problems = set()
    if n == 0:
        problems.add("no samples")
    if d == 0:
        problems.add("no features")
    values = np.asarray(X, dtype=np.float64) if X.size else np.zeros(0)
    if np.isnan(values).any():
        problems.add("nan")
    if np.isinf(values).any():
        problems.add("inf")
    if binarize is None and values.size:
        finite = values[np.isfinite(values)]
        present = set(np.unique(finite).tolist())
        if not (present <= {0.0, 1.0} or present <= {-1.0, 1.0}):
            problems.add("not binary")
    if len(y) != n:
        problems.add("length mismatch")
    y_arr = np.asarray(y)
    if y_arr.dtype.kind == "f" and np.isnan(y_arr).any():
        problems.add("nan label")
        problems.add("continuous y")
    if y_arr.dtype.kind == "f" and not np.all(np.isnan(y_arr) | (y_arr == np.round(y_arr))):
        problems.add("continuous y")
    distinct = len(set(y_arr[~pd.isna(y_arr)].tolist())) if len(y_arr) else 0
    if distinct <= 1:
        problems.add("one class")
    if distinct > 2:
        problems.add("multiclass")
    return problems


def check_outcome(call, entry, problems, cases):
    """Run ``call``; a result only without problems, else a clear error naming one."""
    try:
        result = call()
    except (ValueError, TypeError) as exc:
        message = str(exc)
        where = traceback.extract_tb(exc.__traceback__)[-1].filename
        assert "/torch/" not in where, f"{entry}: error raised inside torch: {exc!r}"
        assert problems, f"{entry}: valid input rejected: {exc!r}"
        words = [w for p in problems for w in PROBLEM_WORDS[p]]
        assert any(w.lower() in message.lower() for w in words), (
            f"{entry}: message does not name any of {sorted(problems)}: {message!r}"
        )
        cases[entry]["clear error"] += 1
        return None
    assert not problems, f"{entry}: accepted input with problems {sorted(problems)}"
    cases[entry]["valid result"] += 1
    return result


def assert_finite(values, entry):
    values = np.asarray(values, dtype=np.float64)
    assert np.isfinite(values).all(), f"{entry}: non-finite output {values}"
