"""
Grid search over the embedding dimension and the attention type
===============================================================

:class:`~skxor.SparseXORTransformer` is a scikit-learn classifier, so
:class:`~sklearn.model_selection.GridSearchCV` tunes it like any other: here
over the embedding dimension ``m`` and the ``attention`` type, on a sparse
parity of d = 40 bits from 2000 samples, with the sample-complexity study's
five normalised steps of length 20 (``max_iter=5, step_length=20.0``).
``cv_results_`` holds every candidate's mean and spread over the folds: the
one-step study's question (does only softmax attention learn?) asked the
scikit-learn way.
"""

import matplotlib.pyplot as plt
import pandas as pd
from sklearn.model_selection import GridSearchCV, KFold

from skxor import SparseXORTransformer
from skxor.datasets import make_sparse_parity

X, y = make_sparse_parity(2000, 40, random_state=0)
search = GridSearchCV(
    SparseXORTransformer(max_iter=5, step_length=20.0, random_state=0),
    {"m": [4, 8, 16, 32], "attention": ["softmax", "linear", "erf"]},
    cv=KFold(3, shuffle=True, random_state=0),
)
search.fit(X, y)

# %%
# Every candidate, from ``cv_results_``: accuracy over the three folds.
results = pd.DataFrame(search.cv_results_)
columns = ["param_attention", "param_m", "mean_test_score", "std_test_score", "rank_test_score"]
print(results[columns].sort_values("rank_test_score").to_string(index=False))
print("best:", search.best_params_, f"accuracy {search.best_score_:.3f}")

# %%
# The grid at a glance: one line per attention type.
fig, ax = plt.subplots(figsize=(6.4, 3.8), layout="constrained")
for attention, group in results.groupby("param_attention"):
    ax.errorbar(group["param_m"].astype(int), group["mean_test_score"],
                yerr=group["std_test_score"], marker="o", capsize=3, label=attention)
ax.set_xscale("log", base=2)
ax.set_xticks([4, 8, 16, 32], ["4", "8", "16", "32"])
ax.set_xlabel("embedding dimension m")
ax.set_ylabel("mean CV accuracy (bars: std over 3 folds)")
ax.set_ylim(0.4, 1.05)
ax.legend(title="attention", loc="center left", bbox_to_anchor=(1.02, 0.5))
ax.set_title("GridSearchCV over m and attention, d = 40, n = 2000, 5 steps")
plt.show()
