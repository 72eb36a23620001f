"""Prediction plumbing shared by skxor's torch-backed binary classifiers."""

import warnings

import numpy as np
import torch
from sklearn.utils.validation import check_is_fitted

from .._utils._validation import (
    _row_chunks,
    binary_encoding,
    check_device,
    check_dtype,
    to_spins,
    validate_binary_data,
)


class TorchBinaryClassifierMixin:
    """``predict`` and chunked, device-aware evaluation for binary classifiers.

    Subclasses store ``device``, ``dtype`` and ``binarize`` parameters, set
    ``classes_`` and ``encoding_`` in ``fit`` and implement
    ``decision_function`` with :meth:`_evaluate`.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # fit raises on more than two classes
        return tags

    def _prediction_device(self):
        """The fit device if usable here, else the CPU (a model moved machines)."""
        try:
            return check_device(self.device)
        except ValueError:
            warnings.warn(
                f"device={self.device!r} is not available here; predicting on the CPU.",
                RuntimeWarning,
                stacklevel=4,
            )
            return torch.device("cpu")

    def _spin_chunks(self, X, device):
        """Validate X against fit; return its row count and ``(rows, spins)`` chunks.

        The spins of each row chunk are made on ``device`` only when the
        generator reaches it, so memory stays bounded for large X.
        """
        check_is_fitted(self)
        X = validate_binary_data(self, X, reset=False, dtype="numeric")
        encoding = binary_encoding(X, self.binarize, self.encoding_)
        dtype = check_dtype(self.dtype)

        def chunks():
            for rows in _row_chunks(X.shape[0], X.shape[1]):
                yield rows, to_spins(X[rows], encoding, self.binarize, dtype=dtype, device=device)

        return X.shape[0], chunks()

    def _evaluate(self, X, forward, device):
        """``forward(spins)`` over X in row chunks, without autograd, as float64."""
        n_rows, chunks = self._spin_chunks(X, device)
        out = np.empty(n_rows, dtype=np.float64)
        with torch.no_grad():
            for rows, spins in chunks:
                out[rows] = forward(spins).cpu().numpy()
        return out

    def predict(self, X):
        """Predicted labels: ``classes_[1]`` where ``f(x) > 0``, else ``classes_[0]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs in the encoding used in fit.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]
