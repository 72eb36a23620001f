"""What the studies that profile transformers share: their rules, the profile, its columns.

The random-initialisation, training and zero-sensitivity-bound studies build
:class:`~skxor.nn.BooleanTransformer` networks, profile the sensitivity of the
function each computes (exhaustively up to a length, else from sampled
strings) and store the profile as scalar, JSON-friendly columns.
"""

import json

from .._utils._validation import check_device
from ..sensitivity import sensitivity_profile

__all__ = ["check_transformer", "profile", "profile_result"]


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
    >>> from skxor.studies._profiling import check_transformer
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


def profile(f, n_bits, exhaustive_max, n_samples, random_state):
    """Sensitivity profile of f on N bits: exhaustive up to ``exhaustive_max``, else sampled."""
    method = "exhaustive" if n_bits <= exhaustive_max else "sampled"
    return sensitivity_profile(
        f, n_bits, method=method, n_samples=n_samples, random_state=random_state
    )
