"""The architecture of a Boolean transformer: one frozen configuration, declared and validated once.

:class:`BooleanTransformerConfig` holds the 13 parameters that fix the
network (its shape, layer norm, read-out, attention and initialization);
:data:`ARCHITECTURE_CONSTRAINTS` holds what each accepts, as scikit-learn
constraints. :class:`~skxor.BooleanTransformerClassifier` checks its
parameters against the same constraints (its ``_parameter_constraints``) and
builds the configuration in ``fit`` without checking again;
:class:`~skxor.nn.BooleanTransformer` built from keywords validates them
here, and :meth:`BooleanTransformer.from_config
<skxor.nn.BooleanTransformer.from_config>` takes a configuration as it is.
"""

import math
from dataclasses import asdict, dataclass, fields
from typing import ClassVar
from numbers import Real


from .._utils._sklearn_compat import Interval, StrOptions, validate_parameter_constraints
from .._utils._validation import Integers, check_head_split
from ._activations import ACTIVATIONS
from ._attention import attention_constraint
from ._positional import POSITIONAL_ENCODINGS

INIT_SCHEMES = ("default", "normal", "uniform", "xavier_uniform", "xavier_normal")
NORM_PLACEMENTS = ("pre", "post")
READOUTS = ("last", "cls", "eos")

_COUNT = Integers(1, None, closed="left")
#: What each architecture parameter accepts. The upper bound inf is open,
#: so the real parameters must be finite (scikit-learn's unbounded
#: intervals admit inf).
ARCHITECTURE_CONSTRAINTS = {
    "n_bits": [_COUNT],
    "d_model": [_COUNT],
    "n_layers": [_COUNT],
    "n_heads": [_COUNT],
    "d_mlp": [_COUNT, None],
    "positional": [StrOptions(set(POSITIONAL_ENCODINGS))],
    "norm": [StrOptions(set(NORM_PLACEMENTS))],
    "layer_norm_eps": [Interval(Real, 0, math.inf, closed="left")],
    "readout": [StrOptions(set(READOUTS))],
    "activation": [StrOptions(set(ACTIVATIONS))],
    "attention": [attention_constraint()],
    "init": [StrOptions(set(INIT_SCHEMES))],
    "init_scale": [Interval(Real, 0, math.inf, closed="neither")],
}


@dataclass(frozen=True)
class BooleanTransformerConfig:
    """Architecture of a :class:`~skxor.nn.BooleanTransformer` (frozen).

    The parameters are those of :class:`~skxor.nn.BooleanTransformer`, with
    the same defaults and meaning; the plain constructor stores them as
    given (for values already checked, as the classifier's are), and
    :meth:`from_params` checks them first.

    Parameters
    ----------
    n_bits : int
        Number of input bits N.
    d_model : int, default=64
    n_layers : int, default=2
    n_heads : int, default=4
    d_mlp : int or None, default=None
        None means ``4 * d_model`` (:attr:`mlp_width`).
    positional : {"learned", "sinusoidal"}, default="learned"
    norm : {"pre", "post"}, default="pre"
    layer_norm_eps : float, default=1e-5
    readout : {"last", "cls", "eos"}, default="last"
    activation : str, default="relu"
    attention : str, default="softmax"
        A registered attention type (:func:`skxor.nn.attention_names`).
    init : str, default="default"
    init_scale : float, default=1.0

    Examples
    --------
    >>> from skxor.nn import BooleanTransformerConfig
    >>> config = BooleanTransformerConfig.from_params(n_bits=6, d_model=16, n_heads=2)
    >>> config.mlp_width, config.n_tokens
    (64, 6)
    >>> BooleanTransformerConfig.from_params(n_bits=6, d_model=10, n_heads=4)
    Traceback (most recent call last):
    ...
    ValueError: d_model=10 must be divisible by n_heads=4 (each head gets d_model / n_heads dimensions).
    """

    n_bits: int
    d_model: int = 64
    n_layers: int = 2
    n_heads: int = 4
    d_mlp: int = None
    positional: str = "learned"
    norm: str = "pre"
    layer_norm_eps: float = 1e-5
    readout: str = "last"
    activation: str = "relu"
    attention: str = "softmax"
    init: str = "default"
    init_scale: float = 1.0

    #: What each parameter accepts (:data:`ARCHITECTURE_CONSTRAINTS`).
    constraints: ClassVar[dict] = ARCHITECTURE_CONSTRAINTS

    @classmethod
    def from_params(cls, *, caller="BooleanTransformer", **params):
        """Check the parameters (TypeError / ValueError naming the one at fault), then build.

        ``caller`` names the object in the messages. Integers are stored as
        ``int`` and reals as ``float``.
        """
        validate_parameter_constraints(ARCHITECTURE_CONSTRAINTS, params, caller_name=caller)
        # The one rule tying two parameters (the classifier checks it too).
        check_head_split(params.get("d_model", cls.d_model), params.get("n_heads", cls.n_heads))
        for name in ("layer_norm_eps", "init_scale"):
            if name in params:
                params[name] = float(params[name])
        for name in ("n_bits", "d_model", "n_layers", "n_heads", "d_mlp"):
            if params.get(name) is not None:
                params[name] = int(params[name])
        return cls(**params)

    @property
    def mlp_width(self):
        """Hidden width of each MLP: ``d_mlp``, or ``4 * d_model`` when that is None."""
        return 4 * self.d_model if self.d_mlp is None else self.d_mlp

    @property
    def n_tokens(self):
        """Sequence length T: ``n_bits``, plus one with a CLS or eos token."""
        return self.n_bits + (self.readout != "last")

    def to_dict(self):
        """The parameters as a dict (the keywords of :meth:`from_params`)."""
        return asdict(self)

    @classmethod
    def parameter_names(cls):
        """The parameter names, in declaration order (a tuple of str)."""
        return tuple(f.name for f in fields(cls))
