"""Public entry points validate their arguments once, with scikit-learn's errors (issue 36.4)."""

import inspect

import numpy as np
import pytest
import sklearn
from sklearn.utils._param_validation import InvalidParameterError, make_constraint

from skxor.boolean import TruthTable
from skxor.sensitivity import sensitivity_profile


@pytest.mark.parametrize("name, value", [
    ("n_bits", 0), ("n_bits", True), ("n_bits", 2.0), ("method", "all"), ("n_samples", 0),
    ("batch_size", np.bool_(True)), ("confidence", 1.0), ("confidence", float("nan")),
    ("input_encoding", "spins"), ("random_state", "seed"), ("incremental", 1),
])
def test_a_bad_argument_gets_scikit_learns_error_naming_it(name, value):
    kwargs = {"n_bits": 4, name: value}
    with pytest.raises(InvalidParameterError,
                       match=f"The '{name}' parameter of sensitivity_profile must be"):
        sensitivity_profile(lambda X: X[:, 0], **kwargs)


def test_every_default_satisfies_its_constraint():
    # The quick check skips arguments not given: their defaults must pass.
    constraints = sensitivity_profile._skl_parameter_constraints
    for name, param in inspect.signature(sensitivity_profile).parameters.items():
        if param.default is param.empty or constraints[name] == "no_validation":
            continue
        assert any(make_constraint(c).is_satisfied_by(param.default)
                   for c in constraints[name]), name


def test_positional_arguments_and_numpy_integers_are_checked():
    table = TruthTable(np.array([0, 1, 1, 0], dtype=np.uint8))
    assert sensitivity_profile(table, np.int64(2)).counts.tolist() == [0, 0, 4]
    with pytest.raises(InvalidParameterError, match="'n_bits' parameter"):
        sensitivity_profile(table, -2)
    with pytest.raises(TypeError):
        sensitivity_profile(table, 2, "exhaustive")  # method is keyword-only


def test_skip_parameter_validation_is_honoured():
    with sklearn.config_context(skip_parameter_validation=True):
        # Not checked: the body's own use of the value decides.
        assert sensitivity_profile(lambda X: X[:, 0], 3, confidence=2.0).n_bits == 3
