"""
Learning curves against the sample-complexity study's n*
========================================================

The sample-complexity study fits
:func:`sklearn.model_selection.learning_curve` per seed and reads n*, the
training size from which the test accuracy stays at or above 0.95. Here the
same estimators (:func:`~skxor.papers.sample_complexity_estimator`: the
five-step transformer and the FFNN with its budget of ``max_iter=20``
epochs, as named parameters) are drawn with scikit-learn's
:class:`~sklearn.model_selection.LearningCurveDisplay` at d = 25, with the
n* the study computes from one seed's curve of the same estimator marked.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import LearningCurveDisplay, ShuffleSplit

from skxor.datasets import make_sparse_parity
from skxor.papers import ESTIMATOR_PARAMS, n_star_per_seed, sample_complexity
from skxor.papers import sample_complexity_estimator

D, SIZES = 25, [50, 100, 200, 400, 800, 1600]
for model in ("transformer_multi_step", "ffnn"):
    print(f"{model}: {ESTIMATOR_PARAMS[model]}")

# %%
# The study's n* for one seed of each model (its grid: the sizes above).
study = sample_complexity(model=["transformer_multi_step", "ffnn"], d=[D], seeds=1,
                          n_min=SIZES[0], n_max=SIZES[-1], n_sizes=len(SIZES), n_test=1000)
n_star = n_star_per_seed(study).set_index("model")
print(n_star[["d", "n_star", "n_low", "n_high", "status"]])

# %%
# scikit-learn's display: mean and spread of the test accuracy over 3 splits.
X, y = make_sparse_parity(SIZES[-1] + 1000, D, random_state=1)
cv = ShuffleSplit(n_splits=3, test_size=1000, random_state=0)
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True, layout="constrained")
for ax, model in zip(axes, ["transformer_multi_step", "ffnn"]):
    LearningCurveDisplay.from_estimator(
        sample_complexity_estimator(model, random_state=0), X, y, cv=cv,
        train_sizes=np.array(SIZES), score_type="test", ax=ax,
        line_kw={"marker": "o"}, std_display_style="fill_between")
    found = n_star.loc[model, "n_star"]
    if np.isfinite(found):
        ax.axvline(found, color="C3", ls="--", label=f"study's n* = {int(found)} (one seed)")
    ax.axhline(0.95, color="grey", lw=0.8, ls=":", label="target 0.95")
    ax.set_xscale("log")
    ax.set_ylim(0.4, 1.02)  # accuracies (the band of mean +- std may pass 1)
    ax.set_title(model)
    ax.legend(loc="lower right", fontsize="small")
fig.suptitle(f"Learning curves at d = {D} against the study's n*")
plt.show()
