"""Attention types: one registry that every model, the theory, the studies and the CLI read.

After Han & Ghoshdastidar (2025, arXiv 2502.07553), whose three attention
types are registered here. All three equal ``1/n`` at ``theta = 0`` (``n``
the number of positions attended to):

* ``softmax``: ``gamma_i = exp(s_i) / sum_j exp(s_j)`` (max-subtracted, stable);
* ``linear``: ``gamma_i = (1 + s_i) / n``, the first-order expansion of softmax
  at ``theta = 0``;
* ``erf``: ``gamma_i = (1 + erf(s_i)) / n``, component-wise and unnormalized.

An attention type maps a tensor of scores to weights along one axis. A new
one is a single :func:`register_attention` call: the sparse-XOR models and
estimator, :class:`~skxor.nn.BooleanTransformer` and its classifier, the
population loss of :mod:`skxor.theory`, the one-step study, its headline
and the CLI all read the names from here (:func:`attention_names`) in
registration order, which is also the order tables and reports list them in.
"""

from dataclasses import dataclass
from typing import Callable, Optional

import torch

from .._utils._sklearn_compat import StrOptions

@dataclass(frozen=True)
class Attention:
    """One registered attention type (see :func:`register_attention`).

    Parameters
    ----------
    name : str
        The name models and estimators take (``attention="softmax"``).
    weights : callable
        ``weights(scores, dim)``: weights of the same shape as the tensor
        ``scores``, along the axis ``dim`` (differentiable by torch's
        autograd where it is to be trained).
    normalised : bool
        Whether the weights along ``dim`` always sum to 1 (a softmax-like
        distribution over positions).
    label : str
        Name shown in figures and reports.
    concentrates : callable or None, default=None
        ``concentrates(m, d) -> bool``: whether some query puts (in the limit)
        all the weight on one of ``d`` positions whose keys are in general
        position in R^m -- whether a head of this type can represent
        attending to one bit at all. None where it is not known.
    concentrates_when : str, default=""
        The same in words (why a head cannot attend to one bit elsewhere), as
        reports print it.

    Examples
    --------
    >>> from skxor.nn import get_attention
    >>> get_attention("softmax").normalised, get_attention("erf").normalised
    (True, False)
    >>> get_attention("linear").concentrates(8, 100), get_attention("linear").concentrates(128, 100)
    (False, True)
    """

    name: str
    weights: Callable
    normalised: bool
    label: str
    concentrates: Optional[Callable] = None
    concentrates_when: str = ""


def _softmax(scores, dim):
    # torch.softmax subtracts the max: stable for scores in the thousands.
    return torch.softmax(scores, dim=dim)


def _linear(scores, dim):
    return (1.0 + scores) / scores.shape[dim]


def _erf(scores, dim):
    return (1.0 + torch.erf(scores)) / scores.shape[dim]


#: name -> Attention, in registration order.
_REGISTRY = {}


def register_attention(name, weights, *, normalised=False, label=None, concentrates=None,
                       concentrates_when="", replace=False):
    """Register an attention type under ``name``; every model and entry point then accepts it.

    Parameters
    ----------
    name : str
        A new, non-empty name.
    weights : callable
        ``weights(scores, dim) -> Tensor``: the attention weights along the
        axis ``dim`` of ``scores``, same shape.
    normalised : bool, default=False
        Whether the weights always sum to 1 along ``dim``.
    label : str or None, default=None
        Display name; None uses ``name``.
    concentrates : callable or None, default=None
        ``concentrates(m, d) -> bool``: whether a head can put all its weight
        on one of d positions with keys in R^m (None: not known).
    concentrates_when : str, default=""
        ``concentrates`` in words, as reports print it.
    replace : bool, default=False
        Allow redefining a registered name (otherwise a ValueError).

    Returns
    -------
    attention : Attention
        The registered entry.

    Examples
    --------
    >>> import torch
    >>> from skxor.nn import attention_names, attention_weights, register_attention
    >>> def relu_weights(scores, dim):
    ...     return torch.relu(1.0 + scores) / scores.shape[dim]
    >>> _ = register_attention("relu_doc", relu_weights, label="ReLU")
    >>> attention_weights(torch.tensor([[2.0], [-3.0]]), "relu_doc").T
    tensor([[1.5000, 0.0000]])
    >>> attention_names()[-1]
    'relu_doc'
    >>> from skxor.nn._attention import _unregister
    >>> _unregister("relu_doc")
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"An attention name must be a non-empty str; got {name!r}.")
    if not callable(weights):
        raise TypeError(
            f"weights must be callable as weights(scores, dim); got {type(weights).__name__}."
        )
    if name in _REGISTRY and not replace:
        raise ValueError(
            f"The attention {name!r} is already registered; pass replace=True to redefine it."
        )
    if concentrates is not None and not callable(concentrates):
        raise TypeError("concentrates must be callable as concentrates(m, d) or None; got "
                        f"{type(concentrates).__name__}.")
    if not isinstance(concentrates_when, str):
        raise TypeError("concentrates_when must be a str (concentrates in words); got "
                        f"{type(concentrates_when).__name__}.")
    entry = Attention(name, weights, bool(normalised), name if label is None else str(label),
                      concentrates, concentrates_when)
    _REGISTRY[name] = entry
    return entry


def _unregister(name):
    """Remove a registered attention type (for tests that register one of their own)."""
    _REGISTRY.pop(name)


def attention_names():
    """Names of the registered attention types, in registration order.

    Returns
    -------
    names : tuple of str

    Examples
    --------
    >>> from skxor.nn import attention_names
    >>> attention_names()
    ('softmax', 'linear', 'erf')
    """
    return tuple(_REGISTRY)


def get_attention(name):
    """The registered :class:`Attention` called ``name`` (ValueError naming the choices).

    Examples
    --------
    >>> from skxor.nn import get_attention
    >>> get_attention("linear").label
    'linear'
    """
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"attention must be one of {attention_names()}; got {name!r}."
        ) from None


def attention_constraint():
    """A scikit-learn ``StrOptions`` constraint over the registered names, kept current.

    It reads the registry when a value is checked, so an attention type
    registered after the estimator class was defined is accepted.

    Examples
    --------
    >>> from skxor.nn import attention_constraint
    >>> attention_constraint().is_satisfied_by("erf")
    True
    """
    return StrOptions(_REGISTRY.keys())


def attention_weights(scores, attention="softmax"):
    """Attention weights over positions from the scores ``s[i, h] = v_i @ theta_h``.

    Parameters
    ----------
    scores : Tensor of shape (d, H)
        One column of scores per head.
    attention : str, default="softmax"
        A registered attention type (:func:`attention_names`: ``"softmax"``,
        ``"linear"``, ``"erf"`` and any added by :func:`register_attention`).

    Returns
    -------
    gamma : Tensor of shape (d, H)
        Weights over positions, one column per head.

    Examples
    --------
    >>> import torch
    >>> from skxor.nn import attention_weights
    >>> attention_weights(torch.zeros(4, 2)).T  # every type is 1/d at theta = 0
    tensor([[0.2500, 0.2500, 0.2500, 0.2500],
            [0.2500, 0.2500, 0.2500, 0.2500]])
    >>> attention_weights(torch.tensor([[1.], [0.], [-1.], [0.]]), "linear").T
    tensor([[0.5000, 0.2500, 0.0000, 0.2500]])
    """
    return get_attention(attention).weights(scores, 0)


# Softmax weights approach one-hot as one score dominates. Linear weights (1 + V theta) / d
# span the all-ones vector and the m key columns: one-hot vectors of R^d lie in that
# span only when m + 1 >= d (keys in general position). Erf weights stay below 2 / d.
register_attention("softmax", _softmax, normalised=True, concentrates=lambda m, d: True)
register_attention("linear", _linear, concentrates=lambda m, d: m + 1 >= d,
                   concentrates_when="linear weights can be one-hot only when m + 1 >= d")
register_attention("erf", _erf, concentrates=lambda m, d: d <= 2,
                   concentrates_when="this library's erf weights stay below 2/d at every m "
                   "(docs/settings.rst): no head can concentrate, so erf's failure is by "
                   "construction everywhere and its part is shown, not judged")
