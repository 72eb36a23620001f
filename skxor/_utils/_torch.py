"""Torch helpers: seeding inside a call without touching the global RNG; counting
parameters; a product over heads that keeps its sign."""

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


def head_product(Z, dtype=None):
    """The product over heads ``prod_h Z[h]`` (dim 0), its sign kept whatever H.

    With many heads the product of head averages (each about
    ``1/sqrt(d)``) underflows: in float32 from about 20 heads, and a
    product that underflows to 0 loses its sign, which is the prediction.
    Here the product is taken in float64 (for two float32 factors that is
    exact) and, where it still underflows, rebuilt from the heads'
    log-magnitudes; a value below the smallest positive number of ``dtype``
    is returned as that number with the product's sign (so it is 0 only
    where a factor is 0). Differentiable like ``Z.prod(0)`` wherever it
    does not underflow.

    Parameters
    ----------
    Z : Tensor of shape (H, ...)
        The factors, heads first.
    dtype : torch.dtype or None, default=None
        Dtype of the result (Z's when None).

    Returns
    -------
    product : Tensor of shape Z.shape[1:]

    Examples
    --------
    >>> import torch
    >>> from skxor._utils._torch import head_product
    >>> Z = torch.full((24, 2), 0.01)
    >>> Z[0, 1] = -0.01
    >>> Z.prod(dim=0)  # float32 underflow: 1e-48 is below its range
    tensor([0., -0.])
    >>> head_product(Z)  # the smallest float32 number, with the sign
    tensor([ 1.4013e-45, -1.4013e-45])
    >>> head_product(Z, torch.float64)
    tensor([ 1.0000e-48, -1.0000e-48], dtype=torch.float64)
    """
    dtype = Z.dtype if dtype is None else dtype
    out = Z.to(torch.float64).prod(dim=0).to(dtype)
    with torch.no_grad():
        lost = (out == 0) & (Z != 0).all(dim=0)
        if not lost.any():
            return out
        kept = Z[:, lost].to(torch.float64)
        info = torch.finfo(dtype)
        magnitude = torch.exp(kept.abs().log().sum(dim=0))
        smallest = info.smallest_normal * info.eps  # the smallest subnormal
        value = torch.sign(kept).prod(dim=0) * magnitude.clamp(min=smallest)
    return out.masked_scatter(lost, value.to(dtype))


def process_state_reason():
    """What in this process changes every module's ``forward``, or None.

    A forward hook or pre-hook registered for every module
    (``torch.nn.modules.module.register_module_forward_hook`` and
    ``register_module_forward_pre_hook``) lives in the process that
    registered it: a worker process evaluates the module without it, so
    work that needs it stays in the calling process.
    """
    state = torch.nn.modules.module
    for name, function in (("_global_forward_hooks", "register_module_forward_hook"),
                           ("_global_forward_pre_hooks", "register_module_forward_pre_hook")):
        if getattr(state, name, None):
            return f"a forward hook registered for every module ({function})"
    return None
