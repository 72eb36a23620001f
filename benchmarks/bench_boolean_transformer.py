"""BooleanTransformerClassifier's training loop against a hand-written one (issue 17, item 2)."""

import numpy as np
import torch
from sklearn.utils import check_random_state

from skxor import BooleanTransformerClassifier
from skxor.boolean import SparseParity
from skxor.nn import BooleanTransformer

from _common import assert_same_function, interleaved_best, size

_SEED_MAX = np.iinfo(np.int32).max


def hand_written_fit(X, y, *, d_model, n_layers, n_heads, lr, weight_decay, epochs,
                     batch_size, random_state):
    """The baseline: the same module, AdamW, loss, batches and steps, by hand.

    The seeds are drawn from ``random_state`` as the estimator draws them, so
    both sides start from the same weights and see the same batches. It runs
    in one torch thread, as the estimator trains (its fits are then
    independent of the caller's thread count); with more threads the float
    sums, hence the final weights, would differ.
    """
    rng = check_random_state(random_state)
    init_seed, train_seed, _ = (int(s) for s in rng.randint(_SEED_MAX, size=3))
    spins = torch.as_tensor(1 - 2 * X, dtype=torch.float32)
    target = torch.as_tensor(y, dtype=torch.float32)
    module = BooleanTransformer(X.shape[1], d_model, n_layers, n_heads, seed=init_seed)
    optimizer = torch.optim.AdamW(module.parameters(), lr=lr, weight_decay=weight_decay)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    n = spins.shape[0]
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        _train(module, spins, target, optimizer, loss_fn, n, epochs, batch_size, train_seed)
    finally:
        torch.set_num_threads(threads)
    return module.eval()


def _train(module, spins, target, optimizer, loss_fn, n, epochs, batch_size, train_seed):
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(train_seed)
        for _ in range(epochs):
            order = torch.randperm(n)
            for start in range(0, n, batch_size):
                rows = order[start:start + batch_size]
                optimizer.zero_grad(set_to_none=True)
                loss = loss_fn(module(spins[rows]), target[rows])
                loss.backward()
                optimizer.step()


def training_loop_vs_hand_written(n=None, n_bits=16, d_model=32, n_layers=2, n_heads=4,
                                  epochs=None, batch_size=64):
    n = n or size(4096, 512)
    epochs = epochs or size(3, 2)
    rng = np.random.RandomState(0)
    X = rng.randint(0, 2, size=(n, n_bits)).astype(np.int8)
    y = SparseParity(n_bits, support=[0, 1])(X).astype(np.int64)
    params = dict(d_model=d_model, n_layers=n_layers, n_heads=n_heads)
    est = BooleanTransformerClassifier(**params, learning_rate=1e-3, weight_decay=0.01,
                                       max_iter=epochs, batch_size=batch_size, random_state=0)

    def hand():
        return hand_written_fit(X, y, **params, lr=1e-3, weight_decay=0.01, epochs=epochs,
                                batch_size=batch_size, random_state=0)

    # Same work: same start, same batches, same steps, hence the same trained function.
    ours_module, base_module = est.fit(X, y).module_, hand()
    assert_same_function(ours_module, base_module, torch.as_tensor(1 - 2 * X, dtype=torch.float32))
    best = interleaved_best({"hand": hand, "ours": lambda: est.fit(X, y)}, repeat=size(3, 2))
    steps = epochs * -(-n // batch_size)
    return {
        "benchmark": f"BooleanTransformerClassifier fit vs a hand-written torch loop (N={n_bits}, "
                     f"D={d_model}, L={n_layers}, n={n}, batch {batch_size}, {steps} AdamW steps)",
        "target": "<= 1.1x",
        "baseline_s": best["hand"], "skxor_s": best["ours"], "ratio": best["ours"] / best["hand"],
        "passes": best["ours"] / best["hand"] <= 1.1,
        "note": "same initial weights and batches (checked: same trained outputs)",
    }


BENCHMARKS = [training_loop_vs_hand_written]
