"""When the library's fast evaluation paths compute exactly what a module's ``forward`` computes.

The flip neighbours, the flip certificate and the fused layer kernel of
skxor's modules read the weights and call internal steps directly; a
forward hook, an overridden method or a replaced submodule changes what
``forward`` computes but not what they compute. :func:`fast_path_refusal`
says when they may run; every fast path falls back to ``forward`` (and
whatever hooks and overrides it goes through) otherwise, so a model's
answers never depend on which path computed them.
"""

import functools
import sys

import torch
from torch import nn

from .._utils._torch import process_state_reason

#: Methods a subclass (or an instance) may redefine without changing what
#: the model computes: construction, printing and pickling.
_HARMLESS = frozenset({
    "__init__", "__init_subclass__", "__new__", "__repr__", "__str__", "extra_repr",
    "__getstate__", "__setstate__", "__reduce__", "__reduce_ex__", "__dir__",
})


@functools.lru_cache(maxsize=256)
def _library_class(cls):
    """The first class of ``cls``'s method resolution order that skxor defines (or None).

    A class of skxor is one defined at the top level of one of its modules
    (a class made in a function or a doctest there is the user's).
    """
    for k in cls.__mro__:
        module = sys.modules.get(k.__module__)
        if (k.__module__.split(".")[0] == "skxor" and module is not None
                and getattr(module, k.__qualname__, None) is k):
            return k
    return None


def _is_method(value):
    return callable(value) or isinstance(value, (property, staticmethod, classmethod))


@functools.lru_cache(maxsize=64)
def _computing_names(library):
    """Names of the methods and properties ``library`` and :class:`torch.nn.Module` define."""
    names = set()
    for k in library.__mro__:
        names.update(name for name, value in vars(k).items() if _is_method(value))
    return frozenset(names - _HARMLESS)


@functools.lru_cache(maxsize=256)
def _class_override(cls, library):
    """``"Class.name"`` of a method of ``library`` that a class between ``cls`` and it redefines."""
    names = _computing_names(library)
    for k in cls.__mro__:
        if k is library:
            break
        for name, value in vars(k).items():
            if name in names and _is_method(value):
                return f"{k.__name__}.{name}"
    return None


def _override(module, library):
    """``"Class.name"`` of a method of ``library`` (or of ``nn.Module``) that a user class
    or the instance itself redefines, or None."""
    changed = _class_override(type(module), library)
    if changed is None:
        own = sorted(_computing_names(library).intersection(vars(module)))
        changed = f"the instance's own {own[0]}" if own else None
    return changed


def _global_hooks():
    """Forward hooks registered for every module (``register_module_forward_hook``)."""
    return process_state_reason() is not None


def _walk(model, prefix=""):
    """``[(name, module)]`` of ``model`` and every submodule, as ``named_modules`` (a
    shared submodule listed at each name: the checks are the same)."""
    found = [(prefix, model)]
    for name, child in model._modules.items():
        if child is not None:
            found += _walk(child, f"{prefix}.{name}" if prefix else name)
    return found


def _submodule(model, name):
    """The submodule at the dotted ``name``, or None (read from ``_modules``, no lookups)."""
    module = model
    for part in name.split("."):
        module = module._modules.get(part) if isinstance(module, nn.Module) else None
    return module


def layout_refusal(model, layout):
    """Why ``model``'s submodules are not those ``layout`` names, or None.

    ``layout`` maps each submodule name (as in ``named_modules``) to the
    exact type the library builds there; a :class:`torch.nn.Linear` must
    keep its bias (the fast paths read it). Used by the library classes'
    ``_fast_path_layout_refusal``.
    """
    for name, expected in layout.items():
        module = _submodule(model, name)
        if type(module) is not expected:
            found = "missing" if module is None else f"a {type(module).__name__}"
            return f"{name} is {found}, not the {expected.__name__} the model builds"
        if expected is nn.Linear and module._parameters.get("bias") is None:
            return f"{name} is a Linear without a bias"
    return None


def fast_path_refusal(model):
    """Why a fast path of ``model`` would not compute what its ``forward`` computes; None if it would.

    skxor's modules evaluate flips, certificates and short layers by fast
    paths that read the weights and call internal steps directly
    (:meth:`BooleanTransformer.flip_neighbours
    <skxor.nn.BooleanTransformer.flip_neighbours>` and ``flip_certifier``,
    the sparse-XOR and k-parity flip neighbours, the fused layer kernel).
    They compute the model's ``forward`` only when nothing changes it, so
    each of them checks this first and falls back to ``forward`` when it
    gives a reason:

    * a forward hook or pre-hook on the model or any submodule (or one
      registered for every module);
    * a method or property of the library's class (or of
      :class:`torch.nn.Module`) redefined by a subclass or on the instance,
      such as ``forward``, ``_run`` or ``__call__`` (construction,
      printing and pickling excepted);
    * a submodule the fast path reads that is not of the exact type the
      library builds (the class's own ``_fast_path_layout_refusal``).

    Parameters
    ----------
    model : torch.nn.Module

    Returns
    -------
    reason : str or None
        None when every fast path of ``model`` is exact (up to float
        rounding); else a sentence naming what stands in the way. A module
        that is not one of skxor's has no fast path: its reason says so.

    Examples
    --------
    >>> from skxor.nn import BooleanTransformer, fast_path_refusal
    >>> model = BooleanTransformer(6, d_model=8, n_layers=1, n_heads=2, seed=0)
    >>> fast_path_refusal(model) is None
    True
    >>> handle = model.unembed.register_forward_hook(lambda m, i, out: out - 1)
    >>> fast_path_refusal(model)
    'a forward hook on unembed'
    >>> handle.remove()
    >>> class Shifted(BooleanTransformer):
    ...     def forward(self, spins):
    ...         return super().forward(spins) - 0.05
    >>> fast_path_refusal(Shifted(6, d_model=8, n_layers=1, n_heads=2, seed=0))
    'Shifted.forward redefines what BooleanTransformer computes'
    """
    library = _library_class(type(model))
    if library is None or not isinstance(model, nn.Module):
        return f"{type(model).__name__} is not one of skxor's modules"
    if _global_hooks():
        return "a forward hook registered for every module"
    modules = _walk(model)
    for name, module in modules:
        if module._forward_hooks or module._forward_pre_hooks:
            return f"a forward hook on {name or 'the model'}"
    changed = _override(model, library)
    if changed is not None:
        return f"{changed} redefines what {library.__name__} computes"
    for name, module in modules[1:]:
        inner = _library_class(type(module))
        if inner is not None:
            changed = _override(module, inner)
            if changed is not None:
                return f"{changed} (at {name}) redefines what {inner.__name__} computes"
        elif "forward" in module.__dict__:
            return f"{name} has its own forward"
    check = getattr(model, "_fast_path_layout_refusal", None)
    return check() if check is not None else None


@torch.no_grad()
def flips_by_forward(model, spins, return_outputs=False, floats=1 << 20):
    """Outputs of ``model`` on every single-bit flip of the spins (B, N), through its ``forward``.

    The reference every flip-neighbour fast path agrees with, and the one
    it falls back to (:func:`fast_path_refusal`): the flipped strings are
    evaluated in chunks of at most ``floats`` spins. Returns ``out (B, N)``,
    or ``(outputs (B,), out)`` with ``return_outputs``.
    """
    B, N = spins.shape
    step = max(1, floats // max(1, N * N))
    index = torch.arange(N)
    parts = []
    for begin in range(0, B, step):
        flipped = spins[begin : begin + step].unsqueeze(1).repeat(1, N, 1)  # (c, N, N)
        flipped[:, index, index] *= -1
        parts.append(model(flipped.reshape(-1, N)).reshape(-1, N))
    out = torch.cat(parts) if parts else model(spins[:0]).reshape(0, N)
    return (model(spins), out) if return_outputs else out
