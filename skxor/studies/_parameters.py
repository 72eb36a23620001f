"""The studies' parameter declarations: constraints, sweep grids, estimator parameters.

Each study declares its parameters as scikit-learn parameter constraints
(:mod:`sklearn.utils._param_validation`), so a bad value is reported with the
parameter's name and the values it accepts. A :class:`Grid` parameter is a
sweep axis: a list of values, each meeting the constraints.
"""

from numbers import Integral, Real


from .._utils import _sklearn_compat
from .._utils._sklearn_compat import Options, make_constraint

__all__ = [
    "AT_LEAST_TWO",
    "Grid",
    "Interval",
    "StrOptions",
    "NON_NEGATIVE",
    "POSITIVE",
    "SAMPLES",
    "SEEDS",
    "STEP_LENGTH",
    "estimator_parameters",
]


# scikit-learn's constraints live in a private module (sklearn.utils._param_validation):
# a study author takes them from skxor.studies, so that no study imports a private
# scikit-learn name (a move in scikit-learn is then one change here).
class Interval(_sklearn_compat.Interval):
    """Constraint: a number of a type within an interval (scikit-learn's ``Interval``).

    The constraint scikit-learn's own parameter validation uses, re-exported
    for study authors so that a study imports no private scikit-learn module.

    Parameters
    ----------
    type : {numbers.Integral, numbers.Real, "real_not_int"}
        The type of the value.
    left, right : float or int or None
        The ends of the interval; None: unbounded on that side.
    closed : {"left", "right", "both", "neither"}
        Which ends belong to the interval.

    Examples
    --------
    >>> from numbers import Real
    >>> from skxor.studies import Interval
    >>> p = Interval(Real, 0, 1, closed="both")
    >>> p.is_satisfied_by(0.5), p.is_satisfied_by(1.5), str(p)
    (True, False, 'a float in the range [0.0, 1.0]')
    """


class StrOptions(_sklearn_compat.StrOptions):
    """Constraint: one of a set of strings (scikit-learn's ``StrOptions``).

    Re-exported for study authors, as :class:`Interval` is.

    Parameters
    ----------
    options : set of str
        The accepted strings.
    deprecated : set of str or None, default=None
        Those of ``options`` that are deprecated (shown as such in errors).

    Examples
    --------
    >>> from skxor.studies import StrOptions
    >>> kind = StrOptions({"softmax", "linear"})
    >>> kind.is_satisfied_by("linear"), kind.is_satisfied_by("erf")
    (True, False)
    """


class Grid(Options):
    """Constraint: a non-empty list whose every value meets one of ``constraints``.

    A study parameter declared as a grid takes a list of values, one sweep
    axis; a single value given for it is taken as a list of one.

    Parameters
    ----------
    *constraints : constraint
        scikit-learn parameter constraints (``Interval``, ``StrOptions``, a
        type, ...) that each value must meet (at least one of them).

    Examples
    --------
    >>> from numbers import Integral
    >>> from skxor.studies import Grid, Interval
    >>> grid = Grid(Interval(Integral, 2, None, closed="left"))
    >>> grid.is_satisfied_by([2, 10]), grid.is_satisfied_by([1]), grid.is_satisfied_by([])
    (True, False, False)
    >>> str(grid)
    'an int in the range [2, inf) (or a non-empty list of such values)'
    """

    # An Options subclass only so that scikit-learn's make_constraint accepts it.
    def __init__(self, *constraints):
        super().__init__(list, set())
        self.constraints = [make_constraint(c) for c in constraints]

    def is_satisfied_by_value(self, value):
        """Whether one value of the list meets the constraints."""
        return any(c.is_satisfied_by(value) for c in self.constraints)

    def is_satisfied_by(self, val):
        return (
            isinstance(val, (list, tuple))
            and len(val) > 0
            and all(self.is_satisfied_by_value(v) for v in val)
        )

    def __str__(self):
        each = " or ".join(str(c) for c in self.constraints)
        return f"{each} (or a non-empty list of such values)"


# -- constraints the studies' parameter declarations share ---------------------------

#: A count: 1, 2, ...
POSITIVE = Interval(Integral, 1, None, closed="left")
#: 0, 1, 2, ...: a ``random_state``, or a count where 0 switches a part off.
NON_NEGATIVE = Interval(Integral, 0, None, closed="left")
#: At least two: the number of bits d of which two are XOR-ed.
AT_LEAST_TWO = Interval(Integral, 2, None, closed="left")
#: A training-set size ``n``: 0 for the exact population loss, else at least 2
#: samples (so that both classes can occur).
SAMPLES = [Options(Integral, {0}), AT_LEAST_TWO]
#: The length of a normalised step (or path): beyond 1e6 the attention is
#: saturated (one-hot) and larger values only overflow the floating point.
STEP_LENGTH = Interval(Real, 0, 1e6, closed="right")
#: Every study's seeds: how many per cell, and the ``random_state`` they derive from
#: (it names the cells of the checkpointed sweep, so a plain int).
SEEDS = {"seeds": [POSITIVE], "random_state": [NON_NEGATIVE]}


def estimator_parameters(estimator, names, *, grid=(), prefix=""):
    """An estimator's own constraints for study parameters passed to it unchanged.

    Parameters
    ----------
    estimator : type
        An estimator class with scikit-learn's ``_parameter_constraints``.
    names : sequence of str
        The estimator's parameters the study takes.
    grid : sequence of str, default=()
        Those of ``names`` that are sweep axes (a :class:`Grid` of the
        estimator's constraints).
    prefix : str, default=""
        Prepended to each study parameter's name (``"ffnn_"``: the study's
        ``ffnn_activation`` is the estimator's ``activation``).

    Returns
    -------
    parameters : dict of str to list of constraints

    Examples
    --------
    >>> from skxor import BooleanTransformerClassifier
    >>> from skxor.studies._parameters import estimator_parameters
    >>> params = estimator_parameters(
    ...     BooleanTransformerClassifier, ["d_model", "n_layers"], grid=["n_layers"])
    >>> params["d_model"] is BooleanTransformerClassifier._parameter_constraints["d_model"]
    True
    >>> params["n_layers"][0].is_satisfied_by([1, 2])
    True
    """
    constraints = estimator._parameter_constraints
    return {
        prefix + name: [Grid(*constraints[name])] if name in grid else constraints[name]
        for name in names
    }
