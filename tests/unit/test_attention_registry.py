"""One attention registry: a type registered once is accepted everywhere, and no one else lists the names."""

import ast
from pathlib import Path

import numpy as np
import pytest
import torch

import skxor
from skxor import BooleanTransformerClassifier, SparseXORTransformer
from skxor.boolean import all_strings
from skxor.datasets import make_sparse_parity
from skxor.nn import (
    ATTENTION_TYPES,
    BooleanTransformer,
    attention_names,
    attention_weights,
    get_attention,
    register_attention,
)
from skxor.nn._attention import _unregister

NAME = "relu_plus_test"


def _relu_plus(scores, dim):
    return torch.relu(1.0 + scores) / scores.shape[dim]


@pytest.fixture
def relu_plus():
    register_attention(NAME, _relu_plus, label="ReLU(1 + s)")
    try:
        yield NAME
    finally:
        _unregister(NAME)


def test_builtin_types_and_errors():
    assert attention_names() == ("softmax", "linear", "erf")
    assert ATTENTION_TYPES == attention_names()
    assert [get_attention(n).normalised for n in attention_names()] == [True, False, False]
    with pytest.raises(ValueError, match="already registered"):
        register_attention("softmax", _relu_plus)
    with pytest.raises(TypeError, match="callable"):
        register_attention("x_test", 3)
    with pytest.raises(ValueError, match=r"attention must be one of \('softmax'"):
        get_attention("nope")


def test_registered_type_reaches_the_nn_modules(relu_plus):
    assert attention_names()[-1] == relu_plus and skxor.nn.ATTENTION_TYPES[-1] == relu_plus
    scores = torch.tensor([[2.0], [-3.0], [0.0]])
    torch.testing.assert_close(attention_weights(scores, relu_plus),
                               torch.tensor([[1.0], [0.0], [1 / 3]]))
    model = BooleanTransformer(5, d_model=8, n_layers=2, n_heads=2, attention=relu_plus, seed=0)
    spins = BooleanTransformer.spins_from_bits(all_strings(5))
    out = model(spins)
    assert torch.isfinite(out).all()
    # Not softmax's outputs: the type is really used.
    softmax = BooleanTransformer(5, d_model=8, n_layers=2, n_heads=2, seed=0)
    assert not torch.allclose(out, softmax(spins))
    with torch.no_grad():  # the batched no-grad path and the autograd path agree
        torch.testing.assert_close(model(spins), out.detach())
    # Flip neighbours (evaluated flip by flip for a type other than softmax).
    flipped = spins[3:4].repeat(5, 1)
    flipped[range(5), range(5)] *= -1
    torch.testing.assert_close(model.flip_neighbours(spins[3:4])[0], model(flipped).detach())


def test_a_softmax_registered_again_gives_the_softmax_model():
    """The generic attention path computes what the fused softmax kernel does."""
    register_attention("softmax_copy_test", lambda s, dim: torch.softmax(s, dim), normalised=True)
    try:
        spins = BooleanTransformer.spins_from_bits(all_strings(6))
        for readout in ("last", "eos"):
            a = BooleanTransformer(6, d_model=16, n_heads=2, readout=readout, seed=1)
            b = BooleanTransformer(6, d_model=16, n_heads=2, readout=readout, seed=1,
                                   attention="softmax_copy_test")
            torch.testing.assert_close(a(spins), b(spins), rtol=1e-5, atol=1e-5)
    finally:
        _unregister("softmax_copy_test")


def test_registered_type_is_accepted_by_both_estimators_theory_study_and_cli(relu_plus):
    from skxor.cli import build_parser
    from skxor.studies import get_study
    from skxor.theory import population_loss

    X, y = make_sparse_parity(300, 8, random_state=0)
    clf = SparseXORTransformer(m=4, attention=relu_plus, random_state=0).fit(X, y)
    gamma = _relu_plus(torch.as_tensor(clf.keys_) @ torch.as_tensor(clf.queries_).T, 0)
    np.testing.assert_allclose(clf.attention_, gamma.T.numpy(), rtol=1e-6)

    bits = all_strings(4)
    bt = BooleanTransformerClassifier(d_model=8, n_layers=1, n_heads=2, max_iter=2,
                                      attention=relu_plus, random_state=0).fit(bits, bits[:, 0])
    assert bt.module_.attention == relu_plus and bt.module_.config.attention == relu_plus

    keys, queries = clf.keys_, clf.queries_
    assert np.isfinite(population_loss(queries, keys, [0, 1], relu_plus))
    params = get_study("one_step").params("quick", {"attention": [relu_plus]})
    assert params["attention"] == [relu_plus]
    args = build_parser().parse_args(["demo", "--attention", relu_plus, "softmax"])
    assert args.attention == [relu_plus, "softmax"]


def test_an_unregistered_type_is_refused_everywhere():
    X, y = make_sparse_parity(50, 6, random_state=0)
    with pytest.raises(ValueError, match="'attention' parameter"):
        SparseXORTransformer(attention=NAME).fit(X, y)
    with pytest.raises(ValueError, match="'attention' parameter"):
        BooleanTransformerClassifier(attention=NAME).fit(X, y)
    with pytest.raises(ValueError, match="'attention' parameter"):
        BooleanTransformer(4, d_model=8, n_heads=2, attention=NAME)


# -- nobody outside skxor/nn lists the names ---------------------------------------


def attention_name_literals(root):
    """``file:line`` of every list, tuple, set or dict literal outside nn/ naming two
    or more attention types (docstrings and single names in comparisons are fine)."""
    names = set(attention_names())
    found = []
    for path in sorted(Path(root).rglob("*.py")):
        if "nn" in path.relative_to(root).parts[:1]:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
                items = node.elts
            elif isinstance(node, ast.Dict):
                items = node.keys
            else:
                continue
            spelled = [i.value for i in items if isinstance(i, ast.Constant) and i.value in names]
            if len(spelled) >= 2:
                found.append(f"{path.relative_to(Path(root).parent)}:{node.lineno}")
    return found


def test_no_module_outside_nn_lists_attention_names():
    assert attention_name_literals(Path(skxor.__file__).parent) == []


def test_the_literal_check_sees_a_list(tmp_path):
    root = tmp_path / "skxor"
    (root / "studies").mkdir(parents=True)
    (root / "nn").mkdir()
    (root / "studies" / "_x.py").write_text(
        '"""softmax, linear and erf."""\nA = ["softmax", "erf"]\nB = {"linear": 1, "erf": 2}\n'
        'C = x == "erf"\nD = ("softmax",)\n'
    )
    (root / "nn" / "_a.py").write_text('T = ("softmax", "linear", "erf")\n')
    assert attention_name_literals(root) == ["skxor/studies/_x.py:2", "skxor/studies/_x.py:3"]
