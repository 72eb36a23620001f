"""What the studies that profile transformers share: their rules, the profile, its columns.

The random-initialisation, training and zero-sensitivity-bound studies build
:class:`~skxor.nn.BooleanTransformer` networks, profile the sensitivity of the
function each computes (exhaustively up to a length, else from sampled
strings) and store the profile as scalar, JSON-friendly columns.
"""

import json

from skxor._utils._validation import check_device
from skxor.nn import exhaustive_refusal
from skxor.sensitivity import sensitivity_profile

__all__ = ["EXHAUSTIVE_CAP", "STRING_BY_STRING_MAX", "check_transformer", "exhaustive",
           "profile", "profile_result"]

#: The longest strings any model is profiled over all 2^N strings, one forward
#: pass per string (2^20 passes: seconds to minutes per network).
STRING_BY_STRING_MAX = 20
#: The largest ``exhaustive_max`` a study accepts: beyond STRING_BY_STRING_MAX
#: only models on the one-layer exhaustive path (tables of the read-out token's
#: softmax sums, no forward pass per string) are counted over all strings.
EXHAUSTIVE_CAP = 32


def check_transformer(params):
    """Rules of the transformer studies: a usable ``device``, ``n_heads`` dividing ``d_model``.

    ``d_model`` is one value or a list (a sweep axis); every value must be
    divisible by ``n_heads``.

    Raises
    ------
    ValueError
        Naming the first ``d_model`` that ``n_heads`` does not divide.

    Examples
    --------
    >>> from skxor.papers.kover._profiling import check_transformer
    >>> check_transformer({"device": "cpu", "d_model": [8, 6], "n_heads": 4})
    Traceback (most recent call last):
    ...
    ValueError: d_model=6 must be divisible by n_heads=4.
    """
    check_device(params["device"])
    d_models = params["d_model"] if isinstance(params["d_model"], list) else [params["d_model"]]
    for d_model in d_models:
        if d_model % params["n_heads"]:
            raise ValueError(
                f"d_model={d_model} must be divisible by n_heads={params['n_heads']}."
            )


def profile_result(prof):
    """JSON-friendly scalars of a SensitivityProfile."""
    ci = prof.zero_fraction_ci
    return {
        "method": prof.method,
        "n_strings": int(prof.n_strings),
        "zero_fraction": float(prof.zero_fraction),
        "zero_fraction_low": None if ci is None else float(ci[0]),
        "zero_fraction_high": None if ci is None else float(ci[1]),
        "average_sensitivity": float(prof.average),
        "min_sensitivity": int(prof.minimum),
        "max_sensitivity": int(prof.maximum),
        "constant": bool(prof.maximum == 0),
        "profile": json.dumps([round(float(v), 8) for v in prof.fractions]),
    }


def exhaustive(f, n_bits, exhaustive_max):
    """Whether ``f`` is profiled over all 2^N strings: N at most ``exhaustive_max``, and
    beyond :data:`STRING_BY_STRING_MAX` only when ``f`` takes the one-layer exhaustive path.

    Examples
    --------
    >>> from skxor.boolean import Parity
    >>> from skxor.nn import BooleanTransformer
    >>> from skxor.papers.kover._profiling import exhaustive
    >>> exhaustive(Parity(24), 24, 24), exhaustive(Parity(16), 16, 24)
    (False, True)
    >>> [exhaustive(BooleanTransformer(24, d_model=8, n_layers=L, seed=0), 24, 24)
    ...  for L in (1, 2)]
    [True, False]
    """
    if n_bits > exhaustive_max:
        return False
    return n_bits <= STRING_BY_STRING_MAX or exhaustive_refusal(f) is None


def profile(f, n_bits, exhaustive_max, n_samples, random_state):
    """Sensitivity profile of f on N bits: over all strings where :func:`exhaustive`
    says so, else from ``n_samples`` sampled strings and their neighbours."""
    method = "exhaustive" if exhaustive(f, n_bits, exhaustive_max) else "sampled"
    return sensitivity_profile(
        f, n_bits, method=method, n_samples=n_samples, random_state=random_state
    )
