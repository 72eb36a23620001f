"""SensitivityProfiler output names, pandas output, and its place below the estimators."""

import ast
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

import skxor.sensitivity._profiler as profiler_module
from skxor import SensitivityProfiler


def _data():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 2, (40, 4)), columns=["a", "b", "c", "d"])
    return X, X.a ^ X.b


def test_feature_names_out_and_pandas_output():
    X, y = _data()
    prof = SensitivityProfiler(DecisionTreeClassifier(random_state=0)).set_output(
        transform="pandas"
    ).fit(X, y)
    out = prof.transform(X)
    assert isinstance(out, pd.DataFrame)
    assert out.columns.tolist() == ["sensitivity"] == prof.get_feature_names_out().tolist()
    np.testing.assert_array_equal(out.index, X.index)
    assert out["sensitivity"].tolist() == prof.set_output(transform="default").transform(X)[
        :, 0
    ].tolist()


def test_per_bit_pandas_output_names_each_flip():
    X, y = _data()
    prof = SensitivityProfiler(
        DecisionTreeClassifier(random_state=0), per_bit=True
    ).set_output(transform="pandas")
    out = prof.fit_transform(X, y)
    assert out.columns.tolist() == ["flip_a", "flip_b", "flip_c", "flip_d"]
    assert out.sum(axis=1).tolist() == SensitivityProfiler(
        DecisionTreeClassifier(random_state=0)
    ).fit(X, y).transform(X)[:, 0].tolist()


def test_profiler_module_does_not_import_estimators_at_import_time():
    # sensitivity sits below the estimators: the default inner model is
    # imported inside the method that needs it.
    tree = ast.parse(Path(profiler_module.__file__).read_text())
    top_level = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    modules = [node.module or "" for node in top_level if isinstance(node, ast.ImportFrom)]
    # "estimators" as a module name, not as part of sklearn's "metaestimators".
    assert not any("estimators" in module.split(".") for module in modules), modules
