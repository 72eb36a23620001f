"""The displays of skxor.plotting draw what they say (Agg backend)."""

import subprocess
import sys

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402

from skxor import SparseXORTransformer  # noqa: E402
from skxor.boolean import Majority, Parity, SparseParity, all_strings  # noqa: E402
from skxor.datasets import make_sparse_parity  # noqa: E402
from skxor.plotting import (  # noqa: E402
    AttentionDisplay,
    FourierSpectrumDisplay,
    SensitivityProfileDisplay,
)
from skxor.sensitivity import degree_weights, sensitivity_profile  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def bar_x(container):
    return np.array([patch.get_x() + patch.get_width() / 2 for patch in container])


def bar_heights(container):
    return np.array([patch.get_height() for patch in container])


# -- SensitivityProfileDisplay ---------------------------------------------------


def test_sensitivity_display_from_function_draws_every_series_beside_the_others():
    disp = SensitivityProfileDisplay.from_function(
        SparseParity(6, support=[1, 4]), 6, name="XOR", references=["parity", "majority"]
    )
    assert disp.ax_.get_xlabel() == "sensitivity s(f, x)"
    assert disp.ax_.get_ylabel() == "fraction of strings"
    assert legend_texts(disp.ax_) == [
        "XOR (average 2)",
        "PARITY (average 6)",
        "MAJORITY (average 1.88)",
    ]
    assert disp.figure_ is disp.ax_.figure
    assert len(disp.bars_) == 3
    # Side by side: no two series share a bar position, each has its own hatch.
    xs = [bar_x(c) for c in disp.bars_]
    assert all(not np.isin(xs[a], xs[b]).any() for a in range(3) for b in range(a + 1, 3))
    hatches = [c.patches[0].get_hatch() for c in disp.bars_]
    assert len(set(hatches)) == 3
    np.testing.assert_allclose(bar_heights(disp.bars_[0]), [0, 0, 1, 0, 0, 0, 0])
    np.testing.assert_allclose(bar_heights(disp.bars_[1]), [0] * 6 + [1])
    np.testing.assert_allclose(
        bar_heights(disp.bars_[2]), sensitivity_profile(Majority(6), 6).fractions
    )


def test_sensitivity_display_plot_on_given_axes_returns_self():
    profile = sensitivity_profile(Majority(5), 5)
    disp = SensitivityProfileDisplay(profile, name="maj")
    fig, ax = plt.subplots()
    assert disp.plot(ax=ax) is disp
    assert disp.ax_ is ax and disp.figure_ is fig
    assert legend_texts(ax) == ["maj (average 1.88)"]


def test_sensitivity_display_sampled_profiles_get_error_bars():
    disp = SensitivityProfileDisplay.from_function(
        lambda X: X[:, 0] ^ X[:, 3], 30, method="sampled", n_samples=300, random_state=0,
        references={"FIRST": lambda X: X[:, 0]},
    )
    assert disp.ax_.get_ylabel() == "fraction of sampled strings"
    assert legend_texts(disp.ax_) == ["f (average 2)", "FIRST (average 1)"]
    assert disp.bars_[0].errorbar is not None


def test_sensitivity_display_from_estimator_and_from_predictions():
    X = all_strings(5)
    y = Majority(5)(X)
    clf = LogisticRegression().fit(X, y)
    disp = SensitivityProfileDisplay.from_estimator(clf, references=["majority"])
    assert legend_texts(disp.ax_)[0].startswith("LogisticRegression (average")
    np.testing.assert_allclose(bar_heights(disp.bars_[0]), bar_heights(disp.bars_[1]))
    # Saved predictions: spins 2b - 1, +1 meaning f = 1, in a shuffled order.
    order = np.random.default_rng(0).permutation(32)
    disp2 = SensitivityProfileDisplay.from_predictions(
        2 * X[order] - 1, 2 * y[order].astype(int) - 1, input_encoding="2b-1", values="pm1"
    )
    assert legend_texts(disp2.ax_) == ["predictions (average 1.88)"]


def test_sensitivity_display_rejects_mismatched_references():
    with pytest.raises(ValueError, match="N=4 bits"):
        SensitivityProfileDisplay(
            sensitivity_profile(Parity(5), 5),
            references={"P4": sensitivity_profile(Parity(4), 4)},
        ).plot()
    with pytest.raises(ValueError, match="a reference must be one of"):
        SensitivityProfileDisplay.from_function(Parity(3), 3, references=["dictator"])


# -- FourierSpectrumDisplay ------------------------------------------------------


def test_fourier_display_from_function():
    disp = FourierSpectrumDisplay.from_function(
        SparseParity(5, support=[0, 2, 4]), 5, references=["first"]
    )
    assert (disp.ax_.get_xlabel(), disp.ax_.get_ylabel()) == ("degree k", "Fourier weight W^k")
    assert legend_texts(disp.ax_) == [
        "SparseParity (total influence 3)",
        "FIRST (total influence 1)",
    ]
    np.testing.assert_allclose(bar_heights(disp.bars_[0]), [0, 0, 0, 1, 0, 0])
    np.testing.assert_allclose(bar_heights(disp.bars_[1]), [0, 1, 0, 0, 0, 0])
    assert not np.isin(bar_x(disp.bars_[0]), bar_x(disp.bars_[1])).any()


def test_fourier_display_plot_and_log_scale():
    weights = degree_weights(Majority(7).truth_table())
    fig, ax = plt.subplots()
    disp = FourierSpectrumDisplay(weights, name="MAJ7").plot(ax=ax, log=True)
    assert disp.ax_ is ax and disp.figure_ is fig and ax.get_yscale() == "log"
    assert legend_texts(ax) == ["MAJ7 (total influence 2.19)"]


def test_fourier_display_from_estimator_and_predictions_agree():
    X, y = make_sparse_parity(2000, 6, support=[1, 2], encoding="01", random_state=0)
    clf = LogisticRegression().fit(X, y)  # cannot learn XOR: some low-degree function
    disp = FourierSpectrumDisplay.from_estimator(clf)
    Xall = all_strings(6)
    disp2 = FourierSpectrumDisplay.from_predictions(Xall, clf.predict(Xall), values="pm1")
    np.testing.assert_allclose(bar_heights(disp.bars_[0]), bar_heights(disp2.bars_[0]))
    assert bar_heights(disp.bars_[0]).sum() == pytest.approx(1.0)


def test_fourier_display_rejects_bad_weights():
    with pytest.raises(ValueError, match="non-negative"):
        FourierSpectrumDisplay([0.5, -0.5]).plot()


# -- AttentionDisplay ------------------------------------------------------------


@pytest.fixture(scope="module")
def fitted():
    X, y = make_sparse_parity(20000, 16, support=[3, 9], random_state=0)
    return SparseXORTransformer(m=16, random_state=0).fit(X, y)


def test_attention_display_from_estimator(fitted):
    disp = AttentionDisplay.from_estimator(fitted, support=[9, 3], name="softmax")
    ax = disp.ax_
    assert ax.get_xlabel() == "position" and ax.get_ylabel() == "head"
    assert [t.get_text() for t in ax.get_yticklabels()] == ["head 1", "head 2"]
    assert legend_texts(ax) == ["most attended position", "true support [3, 9]"]
    assert disp.colorbar_.ax.get_ylabel() == "attention weight"
    # One shared colour scale, from 0 to the largest weight of any head.
    assert disp.image_.get_clim() == (0.0, pytest.approx(fitted.attention_.max()))
    np.testing.assert_array_equal(disp.image_.get_array(), fitted.attention_)
    np.testing.assert_array_equal(disp.argmax_markers_.get_xdata(), fitted.support_)
    np.testing.assert_array_equal(disp.support_markers_.get_xdata(), [9, 3])
    assert ax.get_title(loc="left") == "softmax"


def test_attention_display_plot_without_support_or_colorbar():
    weights = np.array([[0.1, 0.7, 0.2], [0.3, 0.3, 0.4]])
    fig, ax = plt.subplots()
    disp = AttentionDisplay(weights)
    assert disp.plot(ax=ax, colorbar=False) is disp
    assert disp.colorbar_ is None and disp.support_markers_ is None
    assert legend_texts(ax) == ["most attended position"]
    assert disp.figure_ is fig


def test_attention_display_errors():
    with pytest.raises(TypeError, match="attention_"):
        AttentionDisplay.from_estimator(LogisticRegression().fit([[0], [1]], [0, 1]))
    with pytest.raises(ValueError, match=r"positions in \[0, 2\]"):
        AttentionDisplay(np.ones((1, 3)) / 3, support=[3]).plot()
    # Issue 23: an empty support and non-numeric weights are named.
    with pytest.raises(ValueError, match=r"support must list one or more .* got array\(\[\]"):
        AttentionDisplay(np.ones((2, 4)) / 4, support=np.array([], int)).plot()
    with pytest.raises(TypeError, match="attention weights must be real numbers; got list of dtype <U1"):
        AttentionDisplay([["a", "b"]]).plot()
    with pytest.raises(TypeError, match="attention weights must be real numbers"):
        AttentionDisplay.shared_norm([[[0.1, 0.9]], [["a", "b"]]])
    with pytest.raises(TypeError, match="attention weights must be real numbers.*complex"):
        AttentionDisplay(np.ones((1, 3), complex)).plot()


def test_fraction_and_weight_displays_name_non_numeric_input():
    with pytest.raises(TypeError, match="the fractions of .* must be real numbers"):
        SensitivityProfileDisplay(["0.5", "0.5"]).plot()
    with pytest.raises(TypeError, match="the weights of .* must be real numbers"):
        FourierSpectrumDisplay([0.5, 0.5j]).plot()


def test_skxor_imports_without_matplotlib():
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "import skxor, skxor.plotting\n"
        "from skxor.plotting import AttentionDisplay\n"
        "try:\n"
        "    AttentionDisplay([[1.0]]).plot()\n"
        "except ImportError as exc:\n"
        "    print('ImportError:', exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "pip install skxor[plot]" in out.stdout


def test_attention_display_shows_negative_linear_attention_weights():
    # Linear attention (1 + s_i) / d is negative where the score is below -1.
    weights = np.array([[-0.2, 0.5, 0.7], [0.3, 0.3, 0.4]])
    disp = AttentionDisplay(weights, support=[2]).plot()
    assert disp.image_.get_clim() == (-0.2, 0.7)
    with pytest.raises(ValueError, match="finite"):
        AttentionDisplay(np.array([[np.nan, 1.0]])).plot()


# -- options the studies' figures use --------------------------------------------


def test_attention_displays_share_one_norm_and_one_legend():
    maps = [np.array([[0.1, 0.9]]), np.array([[-0.2, 0.3]])]
    norm = AttentionDisplay.shared_norm(maps)
    fig, axes = plt.subplots(2, 1)
    displays = [AttentionDisplay(m).plot(ax=ax, norm=norm, colorbar=False, legend=i == 0)
                for i, (m, ax) in enumerate(zip(maps, axes))]
    assert {d.image_.norm for d in displays} == {norm}
    assert displays[1].image_.get_clim() == (-0.2, 0.9)
    assert axes[0].get_legend() is not None and axes[1].get_legend() is None
    assert all(d.colorbar_ is None for d in displays)


def test_sensitivity_display_takes_fractions_and_draws_references_as_steps():
    mean = np.array([0.5, 0.25, 0.25])  # e.g. a mean profile of several networks
    target = sensitivity_profile(Majority(2), 2)
    disp = SensitivityProfileDisplay(
        mean, name="networks", references={"reference: MAJORITY": target}
    ).plot(reference_style="steps")
    assert legend_texts(disp.ax_) == ["networks (average 0.75)",
                                      "reference: MAJORITY (average 1)"]
    assert len(disp.bars_) == 1 and len(disp.reference_lines_) == 1
    np.testing.assert_allclose(bar_heights(disp.bars_[0]), mean)
    np.testing.assert_allclose(disp.reference_lines_[0].get_ydata(), target.fractions)
    assert disp.reference_lines_[0].get_drawstyle() == "steps-mid"
    assert disp.ax_.get_ylabel() == "fraction of strings"


def test_sensitivity_display_rejects_bad_fractions_and_styles():
    with pytest.raises(ValueError, match="sum to 1"):
        SensitivityProfileDisplay([0.5, 0.2]).plot()
    with pytest.raises(TypeError, match="SensitivityProfile or the fractions"):
        SensitivityProfileDisplay("parity").plot()
    with pytest.raises(ValueError, match="reference_style"):
        SensitivityProfileDisplay([0.5, 0.5], references={"r": [1.0, 0.0]}).plot(
            reference_style="lines")


def test_fourier_display_references_as_steps():
    disp = FourierSpectrumDisplay.from_function(
        Majority(5), 5, references=["parity", "first"], reference_style="steps")
    assert len(disp.bars_) == 1 and len(disp.reference_lines_) == 2
    styles = {line.get_linestyle() for line in disp.reference_lines_}
    assert len(styles) == 2  # each reference its own line style


def test_from_profile_draws_a_computed_profile_with_its_references():
    """The display draws the result (SensitivityProfile.plot is deprecated)."""
    profile = sensitivity_profile(Majority(5), 5)
    disp = SensitivityProfileDisplay.from_profile(
        profile, name="MAJ5", references={"PARITY": sensitivity_profile(Parity(5), 5)})
    try:
        assert np.allclose([p.get_height() for p in disp.bars_[0].patches], profile.fractions)
        assert [t.get_text() for t in disp.ax_.get_legend().get_texts()] == [
            "MAJ5 (average 1.88)", "PARITY (average 5)"]
    finally:
        plt.close(disp.figure_)
