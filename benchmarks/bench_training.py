"""The training study's step against its arithmetic floor and a plain torch loop (issue 49.3).

The step is the one ``skxor.papers.kover.training.training_cell`` takes: a
:class:`~skxor.BooleanTransformerClassifier` in the full preset's setting
(D = 16, L = 2, 4 heads, AdamW at learning rate 1e-3, batches of 128 fresh
strings labelled by the target function, one torch thread), on PARITY at
N = 32 and 128, in the library's model setting. Three sides, timed in the
same interleaved rounds by the CPU time of one thread:

* ``ours``: the estimator's fit, without the accuracy checks (the same work
  as the plain loop); ``checked``: with the study's checks (every 50 steps,
  on 50 x 128 monitoring strings), as ``training_cell`` runs it;
* ``plain``: a hand-written loop on the same module, the same batches (the
  estimator's own sampler, same seed) and the same optimizer: zero grad,
  forward, loss, backward, step;
* ``product``: a float32 2048^3 matrix product, the machine's rate now.

The floor of a step is its multiply-adds (forward and backward, counted by
``torch.utils.flop_counter.FlopCounterMode``: linear maps and attention)
divided by that rate. ``stacked``: the plain step at k x 128 strings, the
work of k seeds trained as one batched model, gives what batching seeds
would save.
"""

import numpy as np
import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
from sklearn.utils import check_random_state
from torch.utils.flop_counter import FlopCounterMode

from skxor import BooleanTransformerClassifier
from skxor.boolean import get_function
from skxor.estimators._base import FreshSampler
from skxor.nn import BooleanTransformer, BooleanTransformerConfig
from skxor.papers.kover.training import MODEL_SETTINGS, STUDY

from _common import interleaved_rounds, ratio_row, spread_text

_SEED_MAX = np.iinfo(np.int32).max
#: The matrix product that measures the machine's float32 rate (as P16's).
PRODUCT = 2048
#: Seeds stacked in the estimate of batched multi-seed training.
STACK = 8


def study_estimator(n_bits, n_steps, checks=False, random_state=0):
    """The classifier ``training_cell`` builds for PARITY at ``n_bits`` (full preset,
    library setting) for one epoch of ``n_steps`` steps (the study's
    ``check_every``), with its accuracy check at the end or without."""
    preset = STUDY.preset("full")
    return BooleanTransformerClassifier(
        preset["d_model"], preset["n_layers"], preset["n_heads"],
        learning_rate=preset["learning_rate"], batch_size=preset["batch_size"], max_iter=1,
        target_function=get_function("PARITY", n_bits),
        target_accuracy=preset["target_accuracy"] if checks else None,
        random_state=random_state, **MODEL_SETTINGS["library"],
    )


def plain_loop(clf, n_bits, n_steps, batch_size=None):
    """The baseline: the estimator's module, sampler, loss and AdamW, by hand.

    The seeds are drawn from the estimator's ``random_state`` as its fit
    draws them, so both start from the same weights and see the same
    batches. Returns the trained module.
    """
    init_seed, _, data_seed = (int(s) for s in
                               check_random_state(clf.random_state).randint(_SEED_MAX, size=3))
    config = BooleanTransformerConfig(
        n_bits=n_bits, **{name: getattr(clf, name) for name in clf._architecture})
    module = BooleanTransformer.from_config(config, seed=init_seed)
    sampler = FreshSampler(clf.target_function, n_bits, data_seed, clf.loss, torch.float32, "cpu")
    optimizer = torch.optim.AdamW(module.parameters(), lr=clf.learning_rate,
                                  weight_decay=clf.weight_decay)
    loss_fn = clf._criterion()()
    batch_size = batch_size or clf.batch_size
    with torch.random.fork_rng(devices=[]):
        for _ in range(n_steps):
            X, y = sampler(batch_size)
            optimizer.zero_grad(set_to_none=True)
            loss_fn(module(X), y).backward()
            optimizer.step()
    return module


def step_flops(module, n_bits, batch_size):
    """Floating-point operations (2 per multiply-add) of one forward and backward pass."""
    X = torch.ones(batch_size, n_bits)
    # FlopCounterMode does not count the fused CPU attention kernel: count it
    # through the math backend, whose batched products it does count.
    with sdpa_kernel(SDPBackend.MATH), FlopCounterMode(display=False) as counter:
        torch.nn.functional.binary_cross_entropy_with_logits(
            module(X), torch.zeros(batch_size)).backward()
    return counter.get_total_flops()


def training_step(n_bits=32, n_steps=None, product=PRODUCT):
    """One row per ratio: the step against its floor and against the plain loop.

    Each side trains one stretch of ``n_steps`` steps (default the study's
    ``check_every`` = 50: one epoch of the estimator on 50 x 128 monitoring
    strings, the checked side then checking its accuracy on them once).
    """
    n_steps = n_steps or STUDY.preset("full")["check_every"]
    stacked_steps = max(2, n_steps // STACK)
    ours = study_estimator(n_bits, n_steps)
    checked = study_estimator(n_bits, n_steps, checks=True)
    monitor = np.random.default_rng(0).integers(0, 2, size=(n_steps * ours.batch_size, n_bits),
                                                dtype=np.uint8)
    # Same work: same start, same batches, same steps, hence the same weights.
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as the estimator trains: the same float sums
    try:
        base = plain_loop(ours, n_bits, n_steps)
    finally:
        torch.set_num_threads(threads)
    for (name, p), q in zip(ours.fit(monitor).module_.named_parameters(), base.parameters()):
        torch.testing.assert_close(p, q, rtol=1e-4, atol=1e-5, msg=f"{name} differs")
    flops = step_flops(base, n_bits, ours.batch_size)
    a = torch.randn(product, product)
    times = interleaved_rounds({
        "product": lambda: a @ a,
        "ours": lambda: ours.fit(monitor),
        "plain": lambda: plain_loop(ours, n_bits, n_steps),
        "checked": lambda: checked.fit(monitor),
        "stacked": lambda: plain_loop(ours, n_bits, stacked_steps, STACK * ours.batch_size),
    })
    per_step = {k: np.asarray(v) / (stacked_steps if k == "stacked" else n_steps)
                for k, v in times.items() if k != "product"}
    rate = 2 * product**3 / np.asarray(times["product"])
    floor = flops / rate  # seconds per step at this round's float32 rate
    setting = (f"N={n_bits}, D={ours.d_model}, L={ours.n_layers}, {ours.n_heads} heads, "
               f"batch {ours.batch_size}, AdamW")
    to_floor = ratio_row(per_step["ours"], floor)
    to_plain = ratio_row(per_step["ours"], per_step["plain"])
    med = {k: float(np.median(v)) for k, v in per_step.items()}
    common = (f"{n_steps} steps per round ({stacked_steps} for the stacked side); "
              f"{flops / 2:.4g} multiply-adds per step (FlopCounterMode, forward and backward); "
              f"float32 rate median {np.median(rate) / 1e9:.1f} GFLOP/s on one thread "
              f"({product}^3 product); median per step: library {med['ours'] * 1e3:.2f} ms, "
              f"plain loop {med['plain'] * 1e3:.2f} ms, floor {np.median(floor) * 1e3:.2f} ms, "
              f"library with the study's check after the {n_steps} steps "
              f"{med['checked'] * 1e3:.2f} ms; one plain step at {STACK} x {ours.batch_size} "
              f"strings (the work of {STACK} seeds stacked) {med['stacked'] * 1e3:.2f} ms = "
              f"{med['stacked'] / (STACK * med['plain']):.2f}x {STACK} separate steps")
    return [
        {"benchmark": f"P19 training step of the training study vs its arithmetic floor "
                      f"({setting})",
         "target": "<= 2x (goal)", **to_floor, "passes": to_floor["ratio"] <= 2,
         "note": f"{spread_text(to_floor)}; {common}"},
        {"benchmark": f"P19 training step of the training study vs a plain torch loop "
                      f"({setting})",
         "target": "<= 1.1x", **to_plain, "passes": to_plain["ratio"] <= 1.1,
         "note": f"same initial weights and batches (checked: same final weights); "
                 f"{spread_text(to_plain)}; {common}"},
    ]


def p19_training_step_n32(**kwargs):
    return training_step(**{"n_bits": 32, **kwargs})


def p19_training_step_n128(**kwargs):
    return training_step(**{"n_bits": 128, **kwargs})


BENCHMARKS = [p19_training_step_n32, p19_training_step_n128]
