"""scikit-learn's common estimator checks for FFNNParityBaseline.

The checks feed real-valued data, so every instance binarizes at 0.0 (a value
above 0 is bit 1), as SPEC section 1 prescribes. Settings are small so the
whole run stays fast. No check is expected to fail.
"""

import pytest
import torch
from sklearn.utils.estimator_checks import parametrize_with_checks

from skxor.estimators._ffnn import FFNNParityBaseline

ESTIMATORS = [
    FFNNParityBaseline(width=8, max_iter=20, batch_size=32, binarize=0.0, random_state=0),
    FFNNParityBaseline(
        width=4, activation="tanh", loss="squared_error", optimizer="sgd",
        learning_rate=0.05, max_iter=5, batch_size=None, binarize=0.0, random_state=0,
    ),
]


@pytest.fixture(autouse=True)
def _one_torch_thread():
    # Tiny networks: a second intra-op thread buys nothing and, on a busy
    # machine, stalls every small matrix product (10x slower checks).
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


# Checks that cannot pass, with the reason. Empty: all pass.
EXPECTED_FAILED_CHECKS = {}


@parametrize_with_checks(
    ESTIMATORS,
    expected_failed_checks=lambda est: EXPECTED_FAILED_CHECKS.get(type(est).__name__, {}),
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
