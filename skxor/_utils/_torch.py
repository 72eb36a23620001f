"""Torch helpers: seeding inside a call without touching the global RNG."""

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
