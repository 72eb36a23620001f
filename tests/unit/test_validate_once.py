"""Public entry points validate their arguments once, with scikit-learn's errors (issue 36.4)."""

import inspect
from numbers import Integral, Real

import numpy as np
import pytest
import sklearn
from sklearn.utils._param_validation import InvalidParameterError, Interval, make_constraint

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


class _Counted(Interval):
    """An interval that counts its checks."""

    calls = 0

    def is_satisfied_by(self, val):
        type(self).calls += 1
        return super().is_satisfied_by(val)


def test_a_plain_value_that_passed_is_not_checked_again():
    # Old code: every call checked every argument (6 of a 31 us profile of a
    # 10-bit truth table; issue 49, P18).
    from skxor._utils._validation import validate_params_once

    @validate_params_once({"k": [_Counted(Integral, 1, None, closed="left")],
                           "x": [_Counted(Real, 0, 1, closed="both")]})
    def twice(k=1, x=0.5):
        return 2 * k * x

    _Counted.calls = 0
    assert [twice(k=3, x=0.5) for _ in range(5)] == [3.0] * 5
    assert _Counted.calls == 2  # once per argument
    assert twice(3, True) == 6  # k remembered; x=True is another key than 1.0: checked
    assert _Counted.calls == 3
    with pytest.raises(InvalidParameterError, match="'k' parameter"):
        twice(k=0)  # a new value: checked
    with pytest.raises(InvalidParameterError, match="'x' parameter"):
        twice(k=3, x=float("nan"))
    arrays = _Counted.calls
    twice(k=np.int64(3)), twice(k=np.int64(3))  # not a plain type: checked each time
    assert _Counted.calls >= arrays + 2


def test_an_exhaustive_profile_has_every_field_of_the_dataclass():
    # summarize fills the frozen dataclass's fields directly: none may be missing.
    import dataclasses

    profile = sensitivity_profile(TruthTable(np.array([0, 1, 1, 0], dtype=np.uint8)), 2)
    names = {f.name for f in dataclasses.fields(profile)}
    assert names == set(vars(profile))
    assert profile.confidence is None and profile.n_redecided == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        profile.n_bits = 3
