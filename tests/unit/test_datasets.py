import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skxor.datasets import make_sparse_parity


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 50),
    d=st.integers(1, 30),
    data=st.data(),
    seed=st.integers(0, 2**31 - 1),
)
def test_labels_are_minus_product_of_support(n, d, data, seed):
    k = data.draw(st.integers(1, d))
    X, y, S = make_sparse_parity(n, d, k=k, return_support=True, random_state=seed)
    assert X.shape == (n, d) and X.dtype == np.int8
    assert set(np.unique(X)) <= {-1, 1}
    assert S.shape == (k,) and len(set(S.tolist())) == k and S.max() < d
    np.testing.assert_array_equal(y, -np.prod(X[:, S].astype(int), axis=1))


def test_encodings_describe_the_same_inputs():
    Xp, yp = make_sparse_parity(200, 12, support=[0, 5], random_state=3)
    Xb, yb = make_sparse_parity(200, 12, support=[0, 5], encoding="01", random_state=3)
    np.testing.assert_array_equal(Xp, 1 - 2 * Xb)
    np.testing.assert_array_equal(yp, yb)
    # y = +1 exactly when the XOR of the support bits is 1.
    np.testing.assert_array_equal(yb == 1, (Xb[:, 0] ^ Xb[:, 5]) == 1)


def test_reproducible_and_seed_dependent():
    a = make_sparse_parity(50, 20, random_state=1, return_support=True)
    b = make_sparse_parity(50, 20, random_state=1, return_support=True)
    c = make_sparse_parity(50, 20, random_state=2, return_support=True)
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u, v)
    assert not np.array_equal(a[0], c[0])


def test_noise_flips_the_requested_fraction():
    X, y, S = make_sparse_parity(40000, 5, noise=0.2, return_support=True, random_state=0)
    clean = -np.prod(X[:, S].astype(int), axis=1)
    assert abs(np.mean(y != clean) - 0.2) < 0.01


def test_k_is_read_from_the_support():
    # Issue 51, item 3: support=[0, 3, 5] without k was refused ("pass k=3").
    X, y, S = make_sparse_parity(200, 8, support=[5, 0, 3], return_support=True,
                                 random_state=0)
    assert S.tolist() == [0, 3, 5]
    assert np.array_equal(y, -X[:, 0] * X[:, 3] * X[:, 5])
    # A k that agrees is accepted; without a support k is still 2 by default.
    same = make_sparse_parity(200, 8, k=3, support=[0, 3, 5], random_state=0)
    assert np.array_equal(same[1], y)
    assert make_sparse_parity(5, 8, return_support=True, random_state=0)[2].size == 2


def test_return_clean_gives_the_labels_before_the_noise():
    # Issue 51, item 5: the clean labels came back with the noisy ones.
    for labels in ("pm1", "pm1_even", "01_odd", "01_even"):
        X, y, clean, S = make_sparse_parity(5000, 6, noise=0.1, labels=labels,
                                            return_clean=True, return_support=True,
                                            random_state=1)
        noiseless = make_sparse_parity(5000, 6, labels=labels, random_state=1)
        # X and the clean labels are those of the same draw without noise.
        assert np.array_equal(X, noiseless[0]) and np.array_equal(clean, noiseless[1])
        assert S.shape == (2,)
        assert 0.09 < np.mean(y != clean) < 0.11
    # No noise: the clean labels are the labels.
    _, y, clean = make_sparse_parity(300, 6, return_clean=True, random_state=2)
    assert np.array_equal(y, clean)


def test_the_labels_flipped_at_a_smaller_noise_are_flipped_at_a_larger_one():
    flipped = []
    for noise in (0.05, 0.1, 0.3):
        _, y, clean = make_sparse_parity(3000, 6, noise=noise, return_clean=True,
                                         random_state=3)
        flipped.append(y != clean)
    assert np.all(flipped[0] <= flipped[1]) and np.all(flipped[1] <= flipped[2])
    assert flipped[0].sum() < flipped[1].sum() < flipped[2].sum()


def test_return_clean_must_be_a_boolean():
    with pytest.raises(TypeError, match="return_clean"):
        make_sparse_parity(5, 3, return_clean=1)


def test_inputs_are_uniform():
    X, _ = make_sparse_parity(20000, 8, random_state=0)
    assert np.all(np.abs(X.mean(axis=0)) < 0.03)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(n_samples=0, n_features=3), "n_samples"),
        (dict(n_samples=5, n_features=0), "n_features"),
        (dict(n_samples=5, n_features=3, k=4), "larger than n_features"),
        (dict(n_samples=5, n_features=3, support=[0, 3]), r"\[0, 2\]"),
        (dict(n_samples=5, n_features=3, support=[1, 1]), "distinct"),
        (dict(n_samples=5, n_features=3, support=[-1, 1]), r"\[0, 2\]"),
        (dict(n_samples=5, n_features=5, k=2, support=[0, 1, 2]), "k=2"),
        (dict(n_samples=5, n_features=5, k=3, support=[0, 1]), "k=3"),
        (dict(n_samples=5, n_features=3, noise=0.5), "noise"),
        (dict(n_samples=5, n_features=3, noise=-0.1), "noise"),
        (dict(n_samples=5, n_features=3, encoding="bits"), "encoding"),
    ],
)
def test_invalid_arguments_raise_value_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_sparse_parity(**kwargs)


@pytest.mark.parametrize(
    "kwargs", [dict(n_samples=2.5, n_features=3), dict(n_samples=5, n_features=3, noise="x")]
)
def test_wrong_types_raise_type_error(kwargs):
    with pytest.raises(TypeError):
        make_sparse_parity(**kwargs)


# -- argument types (issue 11 item 13): booleans are not numbers here -------------


@pytest.mark.parametrize("noise", [0.1 + 0j, np.complex128(0.1), 0j, True, np.bool_(False)])
def test_noise_must_be_a_real_number(noise):
    with pytest.raises(TypeError, match=r"The 'noise' parameter of make_sparse_parity must be "
                                        r"a float in the range \[0\.0, 0\.5\)"):
        make_sparse_parity(5, 3, noise=noise)


@pytest.mark.parametrize("noise", [np.float32(0.1), np.float64(0.2), 0, np.int64(0)])
def test_real_noise_of_any_numeric_type_is_accepted(noise):
    X, y = make_sparse_parity(50, 3, noise=noise, random_state=0)
    assert X.shape == (50, 3) and set(np.unique(y)) <= {-1, 1}


@pytest.mark.parametrize(
    "kwargs, name",
    [
        (dict(n_samples=True, n_features=3), "n_samples"),
        (dict(n_samples=np.bool_(True), n_features=3), "n_samples"),
        (dict(n_samples=5, n_features=np.bool_(True)), "n_features"),
        (dict(n_samples=5, n_features=3, k=True), "k"),
        (dict(n_samples=5, n_features=3, support=[True, False]), "support"),
        (dict(n_samples=5, n_features=3, support=np.array([1, 0], dtype=bool)), "support"),
        (dict(n_samples=5, n_features=3, support=["0", "1"]), "support"),
        (dict(n_samples=5, n_features=3, return_support="yes"), "return_support"),
        (dict(n_samples=5, n_features=3, return_support=1), "return_support"),
        (dict(n_samples=5, n_features=3, random_state=True), "random_state"),
    ],
)
def test_booleans_and_strings_are_not_integers(kwargs, name):
    with pytest.raises(TypeError, match=name):
        make_sparse_parity(**kwargs)
