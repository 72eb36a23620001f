"""Round trips from the conventions of three codebases of the field into skxor.

The fixtures are written here from the conventions' definitions (issue 15), not
copied from those codebases:

* Parity-Learning-Transformer (code of Han & Ghoshdastidar, arXiv 2502.07553
  v1): bits in {0, 1}; label = sum of the support bits mod 2 as a float column
  (n, 1), 1 meaning odd.
* Transformer-Simplicity (Bhattamishra et al. 2023): sparse-parity label 1 for
  even parity; average sensitivity divided by N; sensitive strings counted per
  position.
* sensitivity-hardness (Hahn & Rofin 2024): truth-table index with position 0
  as the most significant bit; Fourier sign F = 2 f - 1; spins 2 b - 1.

Each test converts their objects into skxor and checks that influences, Fourier
weights and labels are identical (exactly, or to 1e-12 for float sums).
"""

import itertools

import numpy as np
import pytest

from skxor.boolean import (
    Majority,
    RandomFunction,
    SparseParity,
    TruthTable,
    bit_reversal_permutation,
    encoded_strings_to_bits,
    values_to_f,
)
from skxor.datasets import make_sparse_parity
from skxor.sensitivity import (
    degree_weights,
    fourier_spectrum,
    influences,
    sensitivity_profile,
)

# -- the conventions, from their definitions -----------------------------------


def msb_strings(n_bits):
    """All strings, position 0 the most significant bit of the row index."""
    return np.array(list(itertools.product([0, 1], repeat=n_bits)), dtype=np.int64)


def plt_labels(bits, support):
    """Parity-Learning-Transformer: sum of support bits mod 2, float (n, 1), 1 = odd."""
    return (bits[:, support].sum(axis=1) % 2).astype(np.float64).reshape(-1, 1)


def ts_labels(bits, support):
    """Transformer-Simplicity: sparse-parity label 1 for even parity."""
    return 1 - bits[:, support].sum(axis=1) % 2


def ts_sensitivity(g, n_bits):
    """Transformer-Simplicity: average sensitivity / N and counts per position.

    ``g`` maps an (n, N) 0/1 array to 0/1 labels.
    """
    X = msb_strings(n_bits)
    base = g(X)
    per_position = np.zeros(n_bits, dtype=np.int64)
    per_string = np.zeros(len(X), dtype=np.int64)
    for i in range(n_bits):
        flipped = X.copy()
        flipped[:, i] ^= 1
        changed = g(flipped) != base
        per_position[i] = changed.sum()
        per_string += changed
    return per_string.mean() / n_bits, per_position


def hr_table(g, n_bits):
    """sensitivity-hardness: the table, row index with position 0 as the MSB."""
    return g(msb_strings(n_bits)).astype(np.int64)


def hr_fourier(table_msb, n_bits, characters="bits"):
    """sensitivity-hardness: coefficients of F = 2 f - 1, subsets as MSB masks.

    ``characters="bits"``: chi_S(x) = (-1)^(sum_{i in S} b_i) (the
    Walsh-Hadamard characters of the table); ``"spins"``: chi_S = prod_{i in
    S} (2 b_i - 1).
    """
    X = msb_strings(n_bits)
    F = 2.0 * table_msb - 1.0
    subsets = msb_strings(n_bits)  # row s lists S as a 0/1 mask, MSB first
    coefficients = np.empty(len(subsets))
    for s, mask in enumerate(subsets):
        if characters == "bits":
            chi = (-1.0) ** (X @ mask)
        else:
            chi = np.prod(np.where(mask == 1, 2.0 * X - 1.0, 1.0), axis=1)
        coefficients[s] = np.mean(F * chi)
    return coefficients


def hr_influences(table_msb, n_bits):
    """sensitivity-hardness: Pr_x[f(x) != f(x with position i flipped)]."""
    X = msb_strings(n_bits)
    index = X @ (1 << np.arange(n_bits - 1, -1, -1))
    assert (index == np.arange(1 << n_bits)).all()
    out = np.empty(n_bits)
    for i in range(n_bits):
        partner = index ^ (1 << (n_bits - 1 - i))
        out[i] = np.mean(table_msb[index] != table_msb[partner])
    return out


def functions(n_bits):
    """Asymmetric test functions (their influences differ per position)."""
    first_and_or = lambda X: (X[:, 0] & X[:, 1]) | X[:, n_bits - 1]  # noqa: E731
    random = RandomFunction(n_bits, random_state=n_bits)
    return {
        "3-sparse parity": lambda X: X[:, [0, 2, 3]].sum(axis=1) % 2,
        "x0 x1 OR x_{N-1}": first_and_or,
        "random": lambda X: random(X).astype(np.int64),
        "majority": lambda X: Majority(n_bits)(X).astype(np.int64),
    }


# -- Parity-Learning-Transformer -----------------------------------------------


@pytest.mark.parametrize("k", [2, 3])
def test_plt_labels_are_make_sparse_parity_01_odd(k):
    S = [1, 4, 8][:k]
    X, y = make_sparse_parity(500, 9, k=k, support=S, encoding="01", labels="01_odd",
                              random_state=k)
    np.testing.assert_array_equal(y, plt_labels(X, S)[:, 0])
    # skxor's default labels are the same data set: +1 is odd.
    Xs, ys = make_sparse_parity(500, 9, k=k, support=S, random_state=k)
    np.testing.assert_array_equal(ys, 2 * plt_labels(X, S)[:, 0] - 1)
    np.testing.assert_array_equal(Xs, 1 - 2 * X)


def test_plt_data_loaded_with_skxor_spins_agree_and_the_other_spins_do_not():
    rng = np.random.default_rng(0)
    for k, expected_other in [(3, 0.0), (2, 1.0)]:
        bits = rng.integers(0, 2, size=(400, 10))
        S = [1, 4, 7][:k]
        y = plt_labels(bits, S)
        labels = 2 * y[:, 0] - 1  # 1 = odd -> +1
        skxor_spins = encoded_strings_to_bits(1 - 2 * bits, "1-2b")
        np.testing.assert_array_equal(skxor_spins, bits)
        spins = 1 - 2 * bits
        assert np.mean(-np.prod(spins[:, S], axis=1) == labels) == 1.0
        other = 2 * bits - 1  # the other common spin convention
        # -prod over the other spins: right for even k only (k = 2 hides it).
        assert np.mean(-np.prod(other[:, S], axis=1) == labels) == expected_other


def test_plt_predictions_round_trip_into_a_truth_table():
    n_bits, S = 7, [0, 3, 5]
    X = msb_strings(n_bits)
    f = TruthTable.from_predictions(X, plt_labels(X, S), values="01")
    g = SparseParity(n_bits, support=S)
    np.testing.assert_array_equal(f.truth_table(), g.truth_table())
    np.testing.assert_array_equal(influences(f.table), [1, 0, 0, 1, 0, 1, 0])
    assert degree_weights(f.table)[3] == 1.0


# -- Transformer-Simplicity ----------------------------------------------------


def test_ts_labels_are_make_sparse_parity_01_even():
    S = [0, 2, 7]
    X, y = make_sparse_parity(500, 9, k=3, support=S, encoding="01", labels="01_even",
                              random_state=1)
    np.testing.assert_array_equal(y, ts_labels(X, S))
    _, y_pm = make_sparse_parity(500, 9, k=3, support=S, labels="pm1_even", random_state=1)
    np.testing.assert_array_equal(y_pm, 2 * ts_labels(X, S) - 1)


@pytest.mark.parametrize("name", ["3-sparse parity", "x0 x1 OR x_{N-1}", "random", "majority"])
def test_ts_sensitivity_round_trip(name):
    n_bits = 8
    g = functions(n_bits)[name]
    their_average, their_per_position = ts_sensitivity(g, n_bits)
    X = msb_strings(n_bits)
    # Their labels of the function (1 = even for parities) are the complement.
    f = TruthTable.from_predictions(X, 1 - g(X), values="1-f")
    profile = sensitivity_profile(f, n_bits)
    assert abs(profile.normalized_average - their_average) < 1e-12
    assert profile.average == pytest.approx(n_bits * their_average, abs=1e-12)
    np.testing.assert_array_equal(profile.flip_counts, their_per_position)


# -- sensitivity-hardness ------------------------------------------------------


@pytest.mark.parametrize("name", ["3-sparse parity", "x0 x1 OR x_{N-1}", "random", "majority"])
def test_hr_table_round_trip(name):
    n_bits = 7
    g = functions(n_bits)[name]
    table = hr_table(g, n_bits)
    f = TruthTable(table, bit_order="msb")
    np.testing.assert_array_equal(f(msb_strings(n_bits)), g(msb_strings(n_bits)))
    # Influences per position: identical.
    np.testing.assert_allclose(influences(f.table), hr_influences(table, n_bits), atol=1e-12)
    # Fourier: coefficients negated (F = 2f - 1), subsets reordered, weights identical.
    theirs = hr_fourier(table, n_bits)[bit_reversal_permutation(n_bits)]
    ours = fourier_spectrum(f.table)
    np.testing.assert_allclose(ours, -theirs, atol=1e-12)
    np.testing.assert_allclose(ours**2, theirs**2, atol=1e-12)
    # Characters built from spins 2b - 1 add (-1)^|S|; weights still agree.
    spins = hr_fourier(table, n_bits, characters="spins")[bit_reversal_permutation(n_bits)]
    degree = np.array([bin(s).count("1") for s in range(1 << n_bits)])
    np.testing.assert_allclose(ours, -((-1.0) ** degree) * spins, atol=1e-12)
    # The same table given as F = 2f - 1 values.
    g_pm = TruthTable(2 * table - 1, bit_order="msb", values="2f-1")
    np.testing.assert_array_equal(g_pm.table, f.table)


def test_hr_table_loaded_unchanged_bit_reverses_the_influences():
    n_bits = 6
    table = hr_table(functions(n_bits)["x0 x1 OR x_{N-1}"], n_bits)
    wrong = influences(TruthTable(table).table)  # read as LSB-first
    right = influences(TruthTable(table, bit_order="msb").table)
    np.testing.assert_allclose(wrong, right[::-1], atol=1e-12)
    assert not np.allclose(wrong, right)


def test_hr_saved_predictions_on_spins_round_trip():
    n_bits = 6
    g = functions(n_bits)["random"]
    X = msb_strings(n_bits)
    rng = np.random.default_rng(0)
    order = rng.permutation(len(X))
    spins = 2 * X[order] - 1  # their spins
    F = 2 * g(X[order]) - 1  # their sign
    f = TruthTable.from_predictions(spins, F, input_encoding="2b-1", values="2f-1")
    np.testing.assert_array_equal(f.table, TruthTable(hr_table(g, n_bits), bit_order="msb").table)


# -- the conversions themselves ----------------------------------------------------


def test_bit_reversal_permutation_is_an_involution_that_reverses_strings():
    for n_bits in (1, 4, 7):
        perm = bit_reversal_permutation(n_bits)
        np.testing.assert_array_equal(perm[perm], np.arange(1 << n_bits))
        X = msb_strings(n_bits)  # row r is MSB-first string r
        lsb_index = X @ (1 << np.arange(n_bits))
        np.testing.assert_array_equal(perm[lsb_index], np.arange(1 << n_bits))


@pytest.mark.parametrize(
    "values, convention, f",
    [
        ([0, 1, 1], "f", [0, 1, 1]),
        ([0, 1, 1], "01", [0, 1, 1]),
        ([True, False], "1-f", [0, 1]),
        ([-1, 1], "pm1", [0, 1]),
        ([-1.0, 1.0], "1-2f", [1, 0]),
    ],
)
def test_values_to_f(values, convention, f):
    assert values_to_f(values, convention).tolist() == f


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: values_to_f([0, 1], "2f-1"), ValueError, r"-1/\+1 values .*\[0\]"),
        (lambda: values_to_f([-1, 1], "f"), ValueError, r"0/1 .*\[-1\]"),
        (lambda: values_to_f([True], "pm1"), ValueError, "bools"),
        # Option names: scikit-learn's message, naming the parameter and its choices.
        (lambda: values_to_f([0, 1], "odd"), ValueError,
         r"(?=.*'1-2f')(?=.*'pm1')The 'convention' parameter of values_to_f must be a str "
         r"among \{[^}]*\}\. Got 'odd' instead\."),
        (lambda: TruthTable([0, 1], bit_order="big"), ValueError,
         r"(?=.*'lsb')(?=.*'msb')The 'bit_order' parameter of TruthTable must be a str among"),
        (lambda: TruthTable([0, 1], values="odd"), ValueError,
         "The 'values' parameter of TruthTable must be"),
        (lambda: TruthTable.from_predictions([[0], [1]], [0, 1], values=1), ValueError,
         r"The 'values' parameter of TruthTable\.from_predictions must be .* Got 1 instead"),
        (lambda: encoded_strings_to_bits([[0, 1]], "spins"), ValueError,
         "The 'input_encoding' parameter of encoded_strings_to_bits must be a str among"),
        (lambda: encoded_strings_to_bits([[0, 1]], "2b-1"), ValueError, "X"),
        (
            lambda: TruthTable.from_predictions([[0], [0]], [0, 1]),
            ValueError,
            "appears with both values",
        ),
        (lambda: TruthTable.from_predictions([[0, 1], [1, 1]], [0, 1]), ValueError, "missing"),
        (lambda: TruthTable.from_predictions([[0], [1]], [0, 1, 1]), ValueError, "shape"),
    ],
)
def test_conversion_errors_name_the_problem(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("labels", ["pm", "01", None, 1])
def test_make_sparse_parity_rejects_unknown_labels(labels):
    with pytest.raises(ValueError, match="The 'labels' parameter of make_sparse_parity must be "
                                         "a str among"):
        make_sparse_parity(5, 4, labels=labels)


# -- the docs page's round trips run -------------------------------------------------


@pytest.mark.parametrize("page", ["coming_from_other_code.rst", "profiling_models.rst",
                                  "user_guide.rst", "scikit_learn_flows.rst"])
def test_docs_page_examples_run(page):
    import doctest
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "docs" / page
    pytest.importorskip("matplotlib").use("Agg")
    result = doctest.testfile(
        str(path), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert result.attempted > 0 and result.failed == 0


def test_from_predictions_without_bit_columns_names_x():
    # Issue 23: X of shape (1, 0) was reported as a bad "table".
    with pytest.raises(ValueError, match=r"X must hold one column per bit .* shape \(1, 0\)"):
        TruthTable.from_predictions(np.zeros((1, 0)), [1])


def test_every_warning_skxor_issues_is_a_skxor_warning():
    # pyproject's filterwarnings makes SkxorWarning an error in the test suite,
    # so a warning of skxor's own that no test expects fails it; a warning
    # issued with a plain category would slip past.
    import ast
    from pathlib import Path

    import skxor

    plain = []
    for path in Path(skxor.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "warn"):
                names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
                if not any(name.startswith("Skxor") for name in names):
                    plain.append(f"{path.name}:{node.lineno}")
    assert plain == []
