"""count_parameters: one count of trainable parameters for every model."""

import numpy as np
import pytest
import torch
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV

from skxor import SparseXORTransformer
from skxor.datasets import make_sparse_parity
from skxor import FFNNParityBaseline
from skxor.estimators._parameters import count_module_parameters, count_parameters
from skxor.nn import SparseXORAttention
from skxor.nn import TwoLayerNetwork


@pytest.fixture(autouse=True)
def _one_torch_thread():
    # Tiny networks: extra intra-op threads only stall on a busy machine.
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.mark.parametrize("m, n_heads", [(5, 2), (4, 3), (1, 1)])
def test_transformer_counts_its_queries_only(m, n_heads):
    X, y = make_sparse_parity(300, 9, random_state=0)
    clf = SparseXORTransformer(m=m, n_heads=n_heads, init="random", random_state=0).fit(X, y)
    assert count_parameters(clf) == n_heads * m == clf.queries_.size
    # The same count from the torch module: the d * m keys are a frozen buffer.
    module = SparseXORAttention(torch.as_tensor(clf.keys_), torch.as_tensor(clf.queries_))
    assert count_parameters(module) == n_heads * m
    assert sum(b.numel() for b in module.buffers()) == 9 * m


@pytest.mark.parametrize("width, d", [(1, 4), (6, 11)])
def test_ffnn_counts_every_weight(width, d):
    X, y = make_sparse_parity(60, d, random_state=0)
    clf = FFNNParityBaseline(width=width, max_iter=1, random_state=0).fit(X, y)
    assert count_parameters(clf) == width * (d + 2) + 1
    assert count_module_parameters(clf._net.module_) == count_parameters(clf)


def test_frozen_parameters_are_not_counted():
    net = TwoLayerNetwork(10, 3)
    assert count_parameters(net) == 37
    net.hidden.weight.requires_grad_(False)
    assert count_parameters(net) == 37 - 30


def test_meta_estimator_is_unwrapped():
    X, y = make_sparse_parity(400, 6, random_state=0)
    search = GridSearchCV(SparseXORTransformer(random_state=0), {"m": [3, 5]}, cv=2).fit(X, y)
    assert count_parameters(search) == 2 * search.best_params_["m"]


def test_errors():
    with pytest.raises(NotFittedError):
        count_parameters(FFNNParityBaseline())
    with pytest.raises(TypeError, match="fitted estimator or a torch.nn.Module"):
        count_parameters(np.ones(3))
    X, y = make_sparse_parity(50, 4, random_state=0)
    with pytest.raises(TypeError, match="LogisticRegression does not report"):
        count_parameters(LogisticRegression().fit(X, y))
