"""One way to count trainable parameters, for every model of the library."""

import torch
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .._utils._torch import count_module_parameters


def count_parameters(model):
    """Number of trainable parameters of a fitted skxor model.

    The count behind the parameter-efficiency comparison of the library: for
    :class:`~skxor.SparseXORTransformer` it is ``n_heads * m`` (the queries;
    the ``d * m`` positional keys are frozen), for
    :class:`~skxor.FFNNParityBaseline` it is ``width * (d + 2) + 1``.

    Parameters
    ----------
    model : fitted estimator or torch.nn.Module
        A fitted estimator with an ``n_parameters_`` attribute (every skxor
        estimator has one), a fitted meta-estimator wrapping one (through its
        ``best_estimator_`` or ``estimator_``), or a torch module, whose
        parameters with ``requires_grad=True`` are counted.

    Returns
    -------
    n_parameters : int

    Raises
    ------
    sklearn.exceptions.NotFittedError
        If the estimator is not fitted.
    TypeError
        If ``model`` is neither a torch module nor an estimator that reports
        its trainable parameters.

    Examples
    --------
    >>> from skxor import SparseXORTransformer
    >>> from skxor import count_parameters
    >>> from skxor.datasets import make_sparse_parity
    >>> X, y = make_sparse_parity(200, 10, random_state=0)
    >>> count_parameters(SparseXORTransformer(m=8, random_state=0).fit(X, y))
    16
    >>> from skxor.nn import TwoLayerNetwork
    >>> count_parameters(TwoLayerNetwork(10, 3))  # 3 * (10 + 2) + 1
    37
    """
    if isinstance(model, torch.nn.Module):
        return count_module_parameters(model)
    if not isinstance(model, BaseEstimator):
        raise TypeError(
            "count_parameters needs a fitted estimator or a torch.nn.Module; got "
            f"{type(model).__name__}."
        )
    check_is_fitted(model)
    if hasattr(model, "n_parameters_"):
        return int(model.n_parameters_)
    for inner in ("best_estimator_", "estimator_"):
        if hasattr(model, inner):
            return count_parameters(getattr(model, inner))
    raise TypeError(
        f"{type(model).__name__} does not report its trainable parameters (it "
        "has no n_parameters_ attribute and wraps no estimator that does)."
    )
