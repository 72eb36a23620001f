"""scikit-learn's common estimator checks for BooleanTransformerClassifier.

The checks feed real-valued data, so every instance binarizes at 0.0 (a value
above 0 is bit 1), as SPEC section 1 prescribes. The networks are tiny so the
whole run stays fast. No check is expected to fail.
"""

import pytest
import torch
from sklearn.utils.estimator_checks import parametrize_with_checks

from skxor.estimators._boolean_transformer import BooleanTransformerClassifier

ESTIMATORS = [
    BooleanTransformerClassifier(
        d_model=8, n_layers=1, n_heads=2, learning_rate=0.02, max_iter=30, batch_size=32,
        binarize=0.0, random_state=0,
    ),
    BooleanTransformerClassifier(
        d_model=6, n_layers=2, n_heads=3, d_mlp=8, positional="sinusoidal", norm="post",
        layer_norm_eps=0.0, readout="cls", activation="gelu", init="normal", init_scale=0.3,
        loss="squared_error", learning_rate=0.01, max_iter=20, batch_size=64,
        target_accuracy=0.95, binarize=0.0, random_state=0,
    ),
]


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():
    # Tiny networks gain nothing from intra-op threads, and on a busy machine
    # (or under pytest-xdist) OpenMP contention makes every step ~10x slower.
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


# Checks that cannot pass, with the reason. Empty: all pass.
EXPECTED_FAILED_CHECKS = {}


@parametrize_with_checks(
    ESTIMATORS,
    expected_failed_checks=lambda est: EXPECTED_FAILED_CHECKS.get(type(est).__name__, {}),
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
