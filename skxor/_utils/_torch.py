"""Torch helpers: seeding inside a call without touching the global RNG; counting parameters."""

from contextlib import contextmanager

import numpy as np
import torch
from sklearn.utils import check_random_state


def seed_from(random_state):
    """An int seed drawn from a scikit-learn ``random_state``."""
    return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))


@contextmanager
def seeded_torch(seed, device="cpu"):
    """Run a block with torch's RNG seeded to ``seed``, restoring it afterwards.

    Torch modules, dropout and DataLoader shuffling draw from torch's global
    generator; forking it keeps fits reproducible without seeding globally.
    """
    devices = []
    if torch.device(device).type == "cuda":
        devices = [torch.device(device).index or 0]
    with torch.random.fork_rng(devices=devices):
        torch.manual_seed(seed)
        yield


@contextmanager
def torch_threads(n_threads):
    """Run a block with ``torch.set_num_threads(n_threads)``, restoring it after.

    Float reductions split over threads sum in a thread-dependent order; a
    fixed count makes results independent of the caller's thread settings
    (joblib workers, ``OMP_NUM_THREADS``, ``torch.set_num_threads``).
    """
    previous = torch.get_num_threads()
    if previous == n_threads:
        yield
        return
    torch.set_num_threads(n_threads)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


def count_module_parameters(module):
    """Trainable parameters of a torch module (each shared tensor once).

    Parameters
    ----------
    module : torch.nn.Module

    Returns
    -------
    n_parameters : int
        Number of scalars in the parameters with ``requires_grad=True``;
        buffers and frozen parameters are not counted. A module whose
        trainable weights are structurally masked reports its free entries
        through an ``n_trainable_parameters`` attribute, which is used instead
        (:class:`skxor.nn.CLSTransformer`: ``H * m``).
    """
    if hasattr(module, "n_trainable_parameters"):
        return int(module.n_trainable_parameters)
    return int(sum(p.numel() for p in module.parameters() if p.requires_grad))
