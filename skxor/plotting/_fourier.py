"""FourierSpectrumDisplay: Fourier weight per degree."""

import numpy as np

from ..boolean import TruthTable, truth_table
from ..sensitivity import degree_weights
from ._base import (
    axes_or_new,
    check_matplotlib,
    default_name,
    grouped_bars,
    estimator_n_bits,
    finish_bars,
    resolve_references,
)


def _check_weights(weights, label):
    weights = np.asarray(weights, dtype=np.float64)
    if weights.ndim != 1 or weights.size < 2:
        raise ValueError(
            f"the weights of {label!r} must be 1-D of length N + 1 >= 2; got shape "
            f"{weights.shape}."
        )
    if not np.isfinite(weights).all() or (weights < 0).any():
        raise ValueError(f"the weights of {label!r} must be finite and non-negative.")
    return weights


class FourierSpectrumDisplay:
    """Fourier weight per degree, ``W^k = sum_{|S| = k} F^(S)^2``, k = 0..N.

    ``F = 1 - 2 f`` is the ±1 version of f; the weights sum to 1 (Parseval)
    and ``sum_k k W^k`` is the average sensitivity. The weights are a sum of
    squares, so they do not depend on the sign or bit-order convention of
    the spectrum. Each series (the function, then references) is drawn as
    bars side by side with its own colour, hatch and legend entry.

    It is recommended to build a display with :meth:`from_function`,
    :meth:`from_estimator` or :meth:`from_predictions`. Needs matplotlib
    (``pip install skxor[plot]``), imported only when drawing.

    Parameters
    ----------
    weights : array-like of shape (N + 1,)
        Fourier weight per degree (from :func:`skxor.sensitivity.degree_weights`).
    name : str or None, default=None
        Legend label; ``"f"`` when None.
    references : dict of {str: array-like of shape (N + 1,)} or None, default=None
        Weights of reference functions, labelled by their keys.

    Attributes
    ----------
    bars_ : list of matplotlib BarContainer
        One per series, the function first.
    ax_ : matplotlib Axes
        Axes with the spectrum.
    figure_ : matplotlib Figure
        Figure containing the spectrum.

    See Also
    --------
    skxor.sensitivity.degree_weights : Compute the weights.
    SensitivityProfileDisplay : Per-string sensitivity histogram.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skxor.boolean import Majority
    >>> from skxor.plotting import FourierSpectrumDisplay
    >>> disp = FourierSpectrumDisplay.from_function(Majority(5), 5,
    ...                                             references=["first"])
    >>> [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    ['Majority (total influence 1.88)', 'FIRST (total influence 1)']
    >>> disp.ax_.get_xlabel(), disp.ax_.get_ylabel()
    ('degree k', 'Fourier weight W^k')
    """

    def __init__(self, weights, *, name=None, references=None):
        self.weights = weights
        self.name = name
        self.references = references

    def plot(self, ax=None, *, name=None, log=False, **bar_kwargs):
        """Draw the spectrum.

        Parameters
        ----------
        ax : matplotlib Axes or None, default=None
            Where to draw; a new figure when None.
        name : str or None, default=None
            Legend label of the function; overrides the one given at
            construction.
        log : bool, default=False
            Logarithmic weight axis (degrees of weight 0 are then not drawn).
        **bar_kwargs
            Passed to ``ax.bar`` for the function's bars.

        Returns
        -------
        display : FourierSpectrumDisplay
            Object that stores the computed values.
        """
        ax, figure = axes_or_new(ax, f"{type(self).__name__}.plot")
        name = name if name is not None else (self.name if self.name is not None else "f")
        series = {name: self.weights, **(self.references or {})}
        series = {label: _check_weights(w, label) for label, w in series.items()}
        n_bits = series[name].size - 1
        for label, w in series.items():
            if w.size != n_bits + 1:
                raise ValueError(
                    f"the reference {label!r} has {w.size - 1} bits, the function "
                    f"{n_bits}."
                )
        degrees = np.arange(n_bits + 1)
        labels = [f"{label} (total influence {degrees @ w:.3g})" for label, w in series.items()]
        self.bars_ = grouped_bars(
            ax, degrees, list(series.values()), labels, bar_kwargs=bar_kwargs
        )
        return finish_bars(
            self, ax, figure, degrees, xlabel="degree k", ylabel="Fourier weight W^k",
            heights=list(series.values()), log=log,
        )

    @classmethod
    def from_function(cls, f, n_bits, *, name=None, references=None, input_encoding=None,
                      log=False, ax=None, **bar_kwargs):
        """Tabulate any function, model or truth table and draw its spectrum.

        Parameters
        ----------
        f : callable, fitted estimator, torch.nn.Module or ndarray
            Anything :func:`skxor.boolean.truth_table` takes (one evaluation
            per string, so N is at most 28).
        n_bits : int
            String length N.
        name : str or None, default=None
            Legend label; the class name of ``f`` when None.
        references : sequence of {"parity", "majority", "first"}, dict or None, \
default=None
            Reference functions: names, or a mapping ``{label: function}``.
        input_encoding : {"01", "pm1"} or None, default=None
            Override how strings are presented to ``f``.
        log : bool, default=False
            Logarithmic weight axis.
        ax : matplotlib Axes or None, default=None
            Where to draw; a new figure when None.
        **bar_kwargs
            Passed to ``ax.bar`` for the function's bars.

        Returns
        -------
        display : FourierSpectrumDisplay
        """
        check_matplotlib(f"{cls.__name__}.from_function")
        weights = degree_weights(truth_table(f, n_bits, input_encoding=input_encoding))
        refs = {
            label: degree_weights(truth_table(value, n_bits))
            for label, value in resolve_references(references, n_bits).items()
        }
        name = default_name(f) if name is None else name
        return cls(weights, name=name, references=refs).plot(ax=ax, log=log, **bar_kwargs)

    @classmethod
    def from_estimator(cls, estimator, n_bits=None, *, name=None, references=None,
                       log=False, ax=None, **bar_kwargs):
        """Tabulate a fitted classifier's predictions and draw their spectrum.

        Parameters
        ----------
        estimator : fitted classifier
            Its predicted class ``classes_[1]`` is the value 1.
        n_bits : int or None, default=None
            String length N; ``estimator.n_features_in_`` when None.
        name, references, log, ax, **bar_kwargs
            As in :meth:`from_function`.

        Returns
        -------
        display : FourierSpectrumDisplay
        """
        return cls.from_function(
            estimator, estimator_n_bits(estimator, n_bits), name=name or type(estimator).__name__,
            references=references, log=log, ax=ax, **bar_kwargs,
        )

    @classmethod
    def from_predictions(cls, X, y_pred, *, input_encoding="01", values="01", name=None,
                         references=None, log=False, ax=None, **bar_kwargs):
        """Draw the spectrum of saved predictions on all 2^N strings.

        Parameters
        ----------
        X : array-like of shape (2^N, N)
            Every string once, in any order.
        y_pred : array-like of shape (2^N,) or (2^N, 1)
            The prediction on each string.
        input_encoding : {"01", "1-2b", "2b-1", "pm1"}, default="01"
            How X encodes bits.
        values : {"01", "pm1", "f", "1-f", "2f-1", "1-2f"}, default="01"
            How ``y_pred`` encodes f.
        name : str or None, default=None
            Legend label; ``"predictions"`` when None.
        references, log, ax, **bar_kwargs
            As in :meth:`from_function`.

        Returns
        -------
        display : FourierSpectrumDisplay
        """
        table = TruthTable.from_predictions(
            X, y_pred, input_encoding=input_encoding, values=values
        )
        return cls.from_function(
            table.table, table.n_bits, name=name or "predictions",
            references=references, log=log, ax=ax, **bar_kwargs,
        )
