"""The exact theory and the sensitivity tools on extreme and odd input.

Two classes of failure are covered here: non-finite numbers from the
population functions (extreme query norms and step sizes, any number of heads
and support bits), and callables that return odd values to
``sensitivity_profile``. Each case must give a valid result or a ValueError /
TypeError that names its problem, never NaN, a warning or a traceback from
deep inside numpy or torch.
"""

import itertools
import traceback
import warnings

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from skxor.nn import SparseXORAttention
from skxor.sensitivity import sensitivity_profile
from skxor.theory import population_gradient, population_loss, population_step

ATTENTIONS = ["softmax", "linear", "erf"]
#: Query norms from denormal-small to near the float64 limit.
SCALES = [0.0, 1e-300, 1e-8, 1.0, 1e3, 1e8, 1e12, 1e40, 1e80, 1e200, 1e300]
STEPS = [1e-300, 1e-8, 1.0, 1e12, 1e40, 1e300]

#: A problem of a theory case and the words its message must contain (one of).
THEORY_WORDS = {
    "complex": ["must be real"],
    "nan": ["NaN"],
    "m=0": ["m >= 1"],
    "too many heads": ["H <= 5"],
    "no heads": ["one row per head"],
    "1-D queries": ["2-D"],
    "support": ["support"],
    "mismatch": ["disagree on m"],
}
#: Words of an overflow message: it names the parameter to change.
OVERFLOW_WORDS = ["queries are too large", "step_length", "learning_rate", "overflow"]


def _not_from_libraries(exc):
    where = traceback.extract_tb(exc.__traceback__)[-1].filename
    assert "/torch/" not in where and "/numpy/" not in where, f"raised inside {where}: {exc!r}"


@given(
    n_heads=st.integers(1, 5),
    k=st.integers(1, 5),
    d=st.integers(5, 40),
    m=st.integers(1, 5),
    scale=st.sampled_from(SCALES),
    attention=st.sampled_from(ATTENTIONS),
    dtype=st.sampled_from(["float32", "float64"]),
    step=st.sampled_from(["normalized", "learning_rate"]),
    size=st.sampled_from(STEPS),
    corrupt=st.sampled_from([None] * 6 + list(THEORY_WORDS)),
    seed=st.integers(0, 10_000),
)
def test_population_functions_on_extreme_norms_and_steps(
    n_heads, k, d, m, scale, attention, dtype, step, size, corrupt, seed, reliability_cases
):
    rng = np.random.default_rng(seed)
    keys = rng.normal(size=(d, m))
    keys /= np.linalg.norm(keys, axis=1, keepdims=True)
    queries = scale * rng.normal(size=(n_heads, m))
    support = sorted(rng.choice(d, k, replace=False).tolist())
    if corrupt == "complex":
        queries = queries + 1j
    elif corrupt == "nan":
        queries[0, -1] = np.nan
    elif corrupt == "m=0":
        queries, keys = queries[:, :0], keys[:, :0]
    elif corrupt == "too many heads":
        queries = np.zeros((6, m))
    elif corrupt == "no heads":
        queries = queries[:0]
    elif corrupt == "1-D queries":
        queries = queries[0]
    elif corrupt == "support":
        support = support[:-1] + [d]
    elif corrupt == "mismatch":
        keys = np.hstack([keys, keys[:, :1]])
    kwargs = {"learning_rate": size} if step == "learning_rate" else {"step_length": size}
    entry = "theory.population_step (H heads, k bits)"
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        try:
            loss = population_loss(queries, keys, support, attention, dtype=dtype)
            grad = population_gradient(queries, keys, support, attention, dtype=dtype)
            new = population_step(queries, keys, support, attention, dtype=dtype, **kwargs)
            new_loss = population_loss(new, keys, support, attention, dtype=dtype)
        except (ValueError, TypeError) as exc:
            _not_from_libraries(exc)
            message = str(exc)
            if corrupt is not None:
                assert any(w in message for w in THEORY_WORDS[corrupt]), message
                if corrupt == "complex":
                    assert isinstance(exc, TypeError)
                reliability_cases[entry]["clear error"] += 1
            else:
                # Only an overflow may stop a valid case, and it names the cause.
                assert isinstance(exc, ValueError), message
                assert any(w in message for w in OVERFLOW_WORDS), message
                reliability_cases[entry]["clear overflow error"] += 1
            return
    assert corrupt is None, f"{corrupt} accepted"
    assert np.isfinite(loss) and np.isfinite(new_loss)
    # An expected square: non-negative up to rounding relative to its terms.
    assert loss >= -1e-6 * max(1.0, abs(loss)) and new_loss >= -1e-6 * max(1.0, abs(new_loss))
    assert grad.shape == new.shape == (n_heads, m)
    assert np.isfinite(grad).all() and np.isfinite(new).all()
    reliability_cases[entry]["valid result"] += 1


def _exhaustive(queries, keys, support, attention):
    d = keys.shape[0]
    X = torch.tensor(list(itertools.product([1.0, -1.0], repeat=d)), dtype=torch.float64)
    y = -X[:, support].prod(dim=1)
    model = SparseXORAttention(
        torch.as_tensor(keys), torch.as_tensor(queries), attention
    )
    loss = ((model(X) - y) ** 2).mean()
    loss.backward()
    return loss.item(), model.queries.grad.numpy()


@given(
    n_heads=st.integers(1, 5),
    k=st.integers(1, 5),
    d=st.integers(5, 9),
    m=st.integers(1, 4),
    scale=st.sampled_from([0.0, 0.1, 1.0, 3.0, 10.0]),
    attention=st.sampled_from(ATTENTIONS),
    seed=st.integers(0, 10_000),
)
def test_population_functions_equal_exhaustive_enumeration(
    n_heads, k, d, m, scale, attention, seed, reliability_cases
):
    rng = np.random.default_rng(seed)
    keys = rng.normal(size=(d, m))
    queries = scale * rng.normal(size=(n_heads, m))
    support = sorted(rng.choice(d, k, replace=False).tolist())
    loss, grad = _exhaustive(queries, keys, support, attention)
    tolerance = 1e-10 * max(1.0, abs(loss))
    assert abs(population_loss(queries, keys, support, attention) - loss) <= tolerance
    got = population_gradient(queries, keys, support, attention)
    assert np.abs(got - grad).max() <= 1e-10 * max(1.0, np.abs(grad).max())
    reliability_cases["theory (H heads, k bits) vs all 2^d inputs"]["agrees"] += 1


# -- callables returning odd values ---------------------------------------------------

#: name -> (callable on a batch X, whether its output is a valid Boolean label).
ODD_CALLABLES = {
    "0/1 parity": (lambda X: X.sum(axis=1) % 2, True),
    "+-1 parity": (lambda X: 1 - 2 * (X.sum(axis=1) % 2), True),
    "bool": (lambda X: X[:, 0] == 1, True),
    "float 0/1": (lambda X: (X[:, 0] * 1.0), True),
    "list": (lambda X: [int(v) for v in X[:, 0]], True),
    "column": (lambda X: X[:, :1], True),
    "torch tensor": (lambda X: torch.as_tensor(X[:, 0]), True),
    "constant -1": (lambda X: -np.ones(len(X), dtype=int), True),
    "sum": (lambda X: X.sum(axis=1), False),
    "value 2": (lambda X: 2 * X[:, 0], False),
    "half": (lambda X: X[:, 0] / 2, False),
    "nan": (lambda X: np.where(X[:, 0] == 1, np.nan, 0.0), False),
    "inf": (lambda X: np.where(X[:, 0] == 1, np.inf, 1.0), False),
    "huge": (lambda X: X[:, 0] * 2**62, False),
    "complex": (lambda X: X[:, 0] + 0j, False),
    "strings": (lambda X: np.array(["a"] * len(X)), False),
    "None": (lambda X: None, False),
    "too short": (lambda X: X[:-1, 0], False),
    "two columns": (lambda X: X[:, :2], False),
    "0, -1 and 1": (lambda X: X[:, 0] - X[:, 1], False),
}


@given(
    name=st.sampled_from(sorted(ODD_CALLABLES)),
    n_bits=st.integers(2, 12),
    method=st.sampled_from(["exhaustive", "sampled"]),
    encoding=st.sampled_from([None, "pm1"]),
    batch_size=st.sampled_from([1, 3, 64, 1 << 16]),
    seed=st.integers(0, 1000),
)
def test_sensitivity_profile_of_callables_returning_odd_values(
    name, n_bits, method, encoding, batch_size, seed, reliability_cases
):
    function, valid = ODD_CALLABLES[name]
    if encoding == "pm1" and name in ("0/1 parity", "+-1 parity", "sum"):
        # On spins the sum is even or odd with N: these are still a parity
        # (or a sum) of the bits, just written differently.
        function = {
            "0/1 parity": lambda X: ((X < 0).sum(axis=1) % 2),
            "+-1 parity": lambda X: X.prod(axis=1),
            "sum": lambda X: (X < 0).sum(axis=1),
        }[name]
    entry = "sensitivity_profile(odd callables)"
    try:
        profile = sensitivity_profile(
            function, n_bits, method=method, n_samples=40, batch_size=batch_size,
            input_encoding=encoding, random_state=seed,
        )
    except (ValueError, TypeError) as exc:
        _not_from_libraries(exc)
        message = str(exc)
        # The "0, -1 and 1" callable is binary on a batch without its third value.
        assert not valid, f"{name}: valid callable rejected: {message}"
        assert "function <lambda>" in message or "lambda" in message, message
        if "non-binary labels" in message:
            # It says which value came back and for which input string.
            assert "for the input string [" in message, message
        reliability_cases[entry]["clear error"] += 1
        return
    if name == "0, -1 and 1" or (name == "sum" and n_bits == 1):
        reliability_cases[entry]["valid result"] += 1
        return
    assert valid, f"{name}: odd output accepted: {profile!r}"
    assert profile.counts.sum() == profile.n_strings
    if name in ("0/1 parity", "+-1 parity"):
        assert profile.counts[n_bits] == profile.n_strings
    reliability_cases[entry]["valid result"] += 1


@pytest.mark.parametrize("name", ["nan", "value 2", "half", "huge", "sum"])
def test_non_binary_error_quotes_the_first_value(name):
    function, _ = ODD_CALLABLES[name]
    with pytest.raises(ValueError, match=r"non-binary labels .*\(first: .* for the input "
                       r"string \[[01]+\] \(5 bits\), row \d+ of a batch of \d+"):
        sensitivity_profile(function, 5)
