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
would save; ``vmapped``: k seeds trained as one model by ``torch.func.vmap``
over their stacked weights (each seed its own weights, batches and AdamW
state; checked against training them one by one). Where the step's time goes
beyond the floor (issue 49.3's "measured reason"): ``small``, the plain step
at 8 strings, splits a step into a fixed part (per-step dispatch of its
operations, the optimizer) and a part per string (``t(b) = fixed + b *
per_string`` through b = 8 and 128); ``attention``, the step's two attention
kernels alone (forward and backward, at the shapes and layout the library
calls them with).
"""

import copy
import warnings

import numpy as np
import torch
from torch import nn
from torch.nn.attention import SDPBackend, sdpa_kernel
from sklearn.base import clone
from sklearn.utils import check_random_state
from torch.utils.flop_counter import FlopCounterMode

from skxor import BooleanTransformerClassifier
from skxor.boolean import get_function
from skxor.estimators._base import FreshSampler
from skxor.nn import BooleanTransformer, BooleanTransformerConfig
from skxor.papers.kover.training import MODEL_SETTINGS, STUDY

from _common import assert_same_function, interleaved_rounds, ratio_row, spread_text

_SEED_MAX = np.iinfo(np.int32).max
#: The matrix product that measures the machine's float32 rate (as P16's).
PRODUCT = 2048
#: Seeds stacked in the estimate of batched multi-seed training.
STACK = 8
#: Strings per step of the ``small`` side (the fixed part of a step).
SMALL = 8


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


class _Outputs(nn.Module):
    """The module's outputs without its input check (a data-dependent branch that
    ``vmap`` cannot take): the training pass itself."""

    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, spins):
        return self.module._run(spins)


def vmapped_loop(clf, n_bits, n_steps, n_seeds=STACK):
    """``n_seeds`` runs trained as one model: their weights stacked, one ``vmap``-ed step.

    Seed s starts from the weights and draws the batches of the plain loop of
    an estimator with ``random_state=s``; AdamW acts element by element, so
    one AdamW over the stacked weights is each seed's own. Returns the
    stacked parameters (name -> (n_seeds, ...) tensor).
    """
    modules, samplers = [], []
    for seed in range(n_seeds):
        init_seed, _, data_seed = (int(s) for s in
                                   check_random_state(seed).randint(_SEED_MAX, size=3))
        config = BooleanTransformerConfig(
            n_bits=n_bits, **{name: getattr(clf, name) for name in clf._architecture})
        modules.append(_Outputs(BooleanTransformer.from_config(config, seed=init_seed)))
        samplers.append(FreshSampler(clf.target_function, n_bits, data_seed, clf.loss,
                                     torch.float32, "cpu"))
    params, buffers = torch.func.stack_module_state(modules)
    skeleton = copy.deepcopy(modules[0]).to("meta")
    outputs = torch.func.vmap(
        lambda p, b, X: torch.func.functional_call(skeleton, (p, b), (X,)))
    optimizer = torch.optim.AdamW(params.values(), lr=clf.learning_rate,
                                  weight_decay=clf.weight_decay)
    loss_fn = torch.nn.functional.binary_cross_entropy_with_logits
    with warnings.catch_warnings():
        # torch warns that its CPU attention kernel has no vmap rule (the row's
        # note says so): once per call would drown the run's output.
        warnings.filterwarnings("ignore", message="There is a performance drop")
        for _ in range(n_steps):
            batches = [sampler(clf.batch_size) for sampler in samplers]
            X, y = (torch.stack(t) for t in zip(*batches))
            optimizer.zero_grad(set_to_none=True)
            # Each seed's mean loss, summed: seed s's gradient is its own loss's.
            loss_fn(outputs(params, buffers, X), y,
                    reduction="none").mean(dim=1).sum().backward()
            optimizer.step()
    return params


def _check_vmapped(clf, n_bits, n_steps, n_seeds=2):
    """Each seed of a vmapped run gives the outputs of its run alone, to float rounding.

    (Outputs, not weights: the key bias has a zero gradient up to rounding,
    which AdamW scales up to full-size steps, so it is noise in both runs;
    the outputs do not depend on it.)
    """
    params = vmapped_loop(clf, n_bits, n_steps, n_seeds)
    X = 1.0 - 2.0 * torch.randint(0, 2, (256, n_bits), generator=torch.Generator().manual_seed(0))
    for seed in range(n_seeds):
        alone = plain_loop(clone(clf).set_params(random_state=seed), n_bits, n_steps)
        together = _Outputs(copy.deepcopy(alone))
        together.load_state_dict({f"module.{k}": v for k, v in alone.state_dict().items()})
        with torch.no_grad():
            mine = torch.func.functional_call(
                together, {k: v[seed] for k, v in params.items()}, (X,))
            torch.testing.assert_close(mine, alone._run(X), rtol=1e-4, atol=1e-4,
                                       msg=f"seed {seed}: vmapped run differs from its own")


def attention_kernels(n_bits, d_model, n_heads, batch_size, n_steps):
    """The step's attention calls alone, forward and backward, ``n_steps`` times: the
    first layer's (every token attends) and the last's (the read-out token only), on
    q, k, v laid out as the library's projections leave them."""
    T, H = n_bits, n_heads
    Dh = d_model // H
    qkv = torch.randn(batch_size, T, 3, H, Dh, requires_grad=True)
    kv = torch.randn(batch_size, T, 2, H, Dh, requires_grad=True)
    q1 = torch.randn(batch_size, H, 1, Dh, requires_grad=True)
    for _ in range(n_steps):
        q, k, v = qkv.permute(2, 0, 3, 1, 4)
        k2, v2 = kv.permute(2, 0, 3, 1, 4)
        out = (torch.nn.functional.scaled_dot_product_attention(q, k, v).sum()
               + torch.nn.functional.scaled_dot_product_attention(q1, k2, v2).sum())
        out.backward()


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
    # Same work: same start, same batches, same steps, hence the same trained function.
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as the estimator trains: the same float sums
    try:
        base = plain_loop(ours, n_bits, n_steps)
    finally:
        torch.set_num_threads(threads)
    assert_same_function(ours.fit(monitor).module_, base,
                         torch.as_tensor(1.0 - 2.0 * monitor, dtype=torch.float32))
    _check_vmapped(ours, n_bits, stacked_steps)
    flops = step_flops(base, n_bits, ours.batch_size)
    a = torch.randn(product, product)
    times = interleaved_rounds({
        "product": lambda: a @ a,
        "ours": lambda: ours.fit(monitor),
        "plain": lambda: plain_loop(ours, n_bits, n_steps),
        "checked": lambda: checked.fit(monitor),
        "stacked": lambda: plain_loop(ours, n_bits, stacked_steps, STACK * ours.batch_size),
        "vmapped": lambda: vmapped_loop(ours, n_bits, stacked_steps),
        "small": lambda: plain_loop(ours, n_bits, n_steps, SMALL),
        "attention": lambda: attention_kernels(n_bits, ours.d_model, ours.n_heads,
                                               ours.batch_size, n_steps),
    })
    # Per step; the vmapped side per step of one seed (STACK seeds per step).
    per_step = {k: np.asarray(v) / {"stacked": stacked_steps,
                                    "vmapped": stacked_steps * STACK}.get(k, n_steps)
                for k, v in times.items() if k != "product"}
    rate = 2 * product**3 / np.asarray(times["product"])
    floor = flops / rate  # seconds per step at this round's float32 rate
    setting = (f"N={n_bits}, D={ours.d_model}, L={ours.n_layers}, {ours.n_heads} heads, "
               f"batch {ours.batch_size}, AdamW")
    to_floor = ratio_row(per_step["ours"], floor)
    to_plain = ratio_row(per_step["ours"], per_step["plain"])
    med = {k: float(np.median(v)) for k, v in per_step.items()}
    # t(b) = fixed + b * per_string through b = SMALL and the batch, round by round.
    per_string = (per_step["plain"] - per_step["small"]) / (ours.batch_size - SMALL)
    fixed = float(np.median(per_step["small"] - SMALL * per_string))
    share = lambda part: float(np.median(part / per_step["plain"]))  # noqa: E731
    common = (f"{n_steps} steps per round ({stacked_steps} for the stacked side); "
              f"{flops / 2:.4g} multiply-adds per step (FlopCounterMode, forward and backward); "
              f"float32 rate median {np.median(rate) / 1e9:.1f} GFLOP/s on one thread "
              f"({product}^3 product); median per step: library {med['ours'] * 1e3:.2f} ms, "
              f"plain loop {med['plain'] * 1e3:.2f} ms, floor {np.median(floor) * 1e3:.2f} ms, "
              f"library with the study's check after the {n_steps} steps "
              f"{med['checked'] * 1e3:.2f} ms; one plain step at {STACK} x {ours.batch_size} "
              f"strings (the work of {STACK} seeds stacked) {med['stacked'] * 1e3:.2f} ms = "
              f"{med['stacked'] / (STACK * med['plain']):.2f}x {STACK} separate steps; "
              f"{STACK} seeds trained as one vmapped model (checked: each seed's outputs "
              f"those of its run alone) {med['vmapped'] * 1e3:.2f} ms per seed-step = "
              f"{med['vmapped'] / med['plain']:.2f}x a separate step (torch has no vmap rule for "
              f"its CPU attention kernel: it runs seed by seed); where a plain step's "
              f"time goes: fixed part (per-step dispatch, optimizer) {fixed * 1e3:.2f} ms "
              f"= {fixed / med['plain']:.0%} (from the step at {SMALL} strings, "
              f"{med['small'] * 1e3:.2f} ms), the rest {np.median(per_string) * 1e6:.1f} us "
              f"per string; the two attention kernels alone (forward and backward) "
              f"{med['attention'] * 1e3:.2f} ms = {share(per_step['attention']):.0%} of the "
              f"step, {med['attention'] / np.median(floor):.1f}x the whole step's floor")
    return [
        {"benchmark": f"P19 training step of the training study vs its arithmetic floor "
                      f"({setting})",
         "target": "<= 2x (goal)", **to_floor, "passes": to_floor["ratio"] <= 2,
         "note": f"{spread_text(to_floor)}; {common}"},
        {"benchmark": f"P19 training step of the training study vs a plain torch loop "
                      f"({setting})",
         "target": "<= 1.1x", **to_plain, "passes": to_plain["ratio"] <= 1.1,
         "note": f"same initial weights and batches (checked: same trained outputs); "
                 f"{spread_text(to_plain)}; {common}"},
    ]


def p19_training_step_n32(**kwargs):
    return training_step(**{"n_bits": 32, **kwargs})


def p19_training_step_n128(**kwargs):
    return training_step(**{"n_bits": 128, **kwargs})


BENCHMARKS = [p19_training_step_n32, p19_training_step_n128]
