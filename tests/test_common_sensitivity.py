"""scikit-learn's common checks for SensitivityProfiler (to merge into test_common.py).

The checks feed real-valued data, so the profiler binarizes at 0.0 (SPEC 1);
the inner estimators then see 0/1 bits.
"""

from sklearn.linear_model import LogisticRegression
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from skxor import SparseXORTransformer
from skxor.sensitivity import SensitivityProfiler

ESTIMATORS = [
    # The default inner estimator: SparseXORTransformer(random_state=random_state).
    SensitivityProfiler(binarize=0.0, random_state=0),
    SensitivityProfiler(
        SparseXORTransformer(m=4, random_state=0), binarize=0.0, per_bit=True, random_state=0
    ),
    SensitivityProfiler(
        DecisionTreeClassifier(random_state=0), binarize=0.0, method="sampled",
        n_samples=200, random_state=0,
    ),
    SensitivityProfiler(LogisticRegression(), binarize=0.0, method="data", n_samples=50),
]

# Checks that cannot pass, with the reason. Empty: all pass.
EXPECTED_FAILED_CHECKS = {}


@parametrize_with_checks(
    ESTIMATORS,
    expected_failed_checks=lambda est: EXPECTED_FAILED_CHECKS.get(type(est).__name__, {}),
)
def test_sklearn_compatible_estimator(estimator, check):
    check(estimator)
