"""The parameter-scaling study: quick preset, search rule, outputs, bad input."""

import io
import re

import numpy as np
import pandas as pd
import pytest

from skxor import SparseXORTransformer
from skxor.datasets import make_sparse_parity
from skxor.studies._parameter_scaling import (
    PRESETS,
    cell_seeds,
    parameter_scaling,
    parameter_slopes,
    plot_parameter_scaling,
    report_parameter_scaling,
    transformer_start,
)


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    folder = tmp_path_factory.mktemp("checkpoints")
    return parameter_scaling("quick", checkpoint_dir=folder), folder


def test_quick_preset_measures_both_models(quick):
    df, _ = quick
    assert list(df.columns[:6]) == ["d", "model", "params", "accuracy", "seeds", "seconds"]
    expected_d = PRESETS["quick"]["d"]
    for model in ("transformer", "ffnn"):
        rows = df[df["model"] == model]
        assert rows["d"].tolist() == expected_d
        assert rows["reached"].all()
        assert (rows["accuracy"] >= 0.99).all() and (rows["seeds"] == 5).all()
    transformer = df[df["model"] == "transformer"]
    ffnn = df[df["model"] == "ffnn"]
    np.testing.assert_array_equal(transformer["params"], 2 * transformer["size"])
    np.testing.assert_array_equal(ffnn["params"], ffnn["size"] * (ffnn["d"] + 2) + 1)
    # The Omega(d) floor of any two-layer network, and the gap it opens.
    assert (ffnn["params"].to_numpy() >= ffnn["d"].to_numpy() + 3).all()
    assert ffnn["params"].iloc[-1] > 10 * transformer["params"].iloc[-1]
    slopes = parameter_slopes(df)
    assert 0.7 < slopes["ffnn"] < 1.3
    assert slopes["transformer"] < 0.5


def test_search_stops_at_the_first_size_reaching_the_threshold(quick):
    df, _ = quick
    cells = pd.DataFrame(df.attrs["cells"])
    for row in df.itertuples():
        tried = cells[(cells["model"] == row.model) & (cells["d"] == row.d)]
        median = tried.groupby("size")["accuracy"].median()
        assert median.index.max() == row.size  # nothing larger was trained
        assert (median.drop(row.size) < 0.99).all()
        assert len(tried) == 5 * len(median)


def test_rerun_reuses_the_checkpoints(quick):
    df, folder = quick
    again = parameter_scaling("quick", checkpoint_dir=folder)
    # Recorded compute seconds come back unchanged: nothing was recomputed.
    pd.testing.assert_frame_equal(again, df)
    assert again.attrs == df.attrs
    # Results of two runs concatenate (attrs hold plain records).
    assert len(pd.concat([df, again])) == 2 * len(df)


def test_plot_and_report(quick):
    df, _ = quick
    figures = plot_parameter_scaling(df)
    fig = figures["parameter_scaling"]
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    assert buffer.getvalue()[:4] == b"\x89PNG"
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any(label.startswith("transformer (slope") for label in labels)
    text = report_parameter_scaling(df)
    slopes = parameter_slopes(df)
    assert f"ffnn: {slopes['ffnn']:.2f}" in text
    assert re.search(r"\|\s*512\s*\|\s*\d+\s*\|", text)


def test_a_grid_that_never_reaches_the_threshold():
    # One ReLU unit cannot compute an XOR of two bits (at most 3 of 4 cases).
    df = parameter_scaling(model=["ffnn"], d=[8], seeds=1, ffnn_width=[1],
                           ffnn_min_samples=500, ffnn_epochs=2, n_test=500)
    row = df.iloc[0]
    assert not row["reached"] and np.isnan(row["params"]) and np.isnan(row["size"])
    assert row["accuracy"] < 0.9 and row["success_rate"] == 0.0
    assert re.search(r"\|\s*8\s*\|\s*-\s*\|\s*-\s*\|", report_parameter_scaling(df))
    assert np.isnan(parameter_slopes(df)["ffnn"])
    plot_parameter_scaling(df)  # nothing to draw but the reference line


def test_ffnn_d_max_limits_the_ffnn_only():
    df = parameter_scaling(d=[8, 32], ffnn_d_max=8, seeds=1, transformer_m=[32],
                           ffnn_width=[8], ffnn_min_samples=500, ffnn_epochs=1, n_test=200)
    assert df[df["model"] == "ffnn"]["d"].tolist() == [8]
    assert df[df["model"] == "transformer"]["d"].tolist() == [8, 32]


def test_population_start_is_the_estimators_start():
    X, y = make_sparse_parity(100, 12, random_state=0)
    clf = SparseXORTransformer(m=5, random_state=7).fit(X, y)
    keys, queries = transformer_start(12, 5, 7)
    np.testing.assert_array_equal(keys, clf.keys_)
    np.testing.assert_array_equal(queries, clf.initial_queries_)


def test_finite_sample_transformer_cells_fit_the_estimator():
    df = parameter_scaling(model=["transformer"], d=[10], seeds=1, transformer_m=[6],
                           transformer_samples=3000, n_test=1000, random_state=4)
    data_seed, model_seed = cell_seeds(4, 10, 0)
    X, y = make_sparse_parity(4000, 10, random_state=data_seed)
    clf = SparseXORTransformer(m=6, random_state=model_seed).fit(X[:3000], y[:3000])
    (cell,) = df.attrs["cells"]
    assert cell["accuracy"] == clf.score(X[3000:], y[3000:])
    assert cell["params"] == 12


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"preset": "medium"}, ValueError, "preset must be one of"),
        ({"widths": [1]}, ValueError, "unknown parameter"),
        ({"model": ["rnn"]}, ValueError, r"'model' parameter .* among \{"),
        ({"d": [1]}, ValueError, r"'d' parameter .* range \[2, inf\)"),
        ({"ffnn_width": [0]}, ValueError, r"'ffnn_width' parameter .* range \[1, inf\)"),
        ({"threshold": 1.5}, ValueError, "threshold"),
        ({"random_state": None}, TypeError, r"'random_state' parameter .* range \[0, inf\)"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        parameter_scaling(**kwargs)


@pytest.mark.slow
def test_full_preset_transformer_reaches_8192():
    df = parameter_scaling("full", model=["transformer"])
    assert df["d"].max() == 8192 and df["reached"].all()
