"""FourierSpectrumDisplay: Fourier weight per degree."""

import numpy as np

from .._utils._docstrings import fill_doc
from ..boolean import truth_table
from ..sensitivity import degree_weights
from ._base import (FunctionDisplayMixin, as_real_array, begin_plot, check_matplotlib, default_name,
                    draw_series, finish_bars, resolve_references)


def _check_weights(weights, label):
    weights = as_real_array(weights, f"the weights of {label!r}")
    if weights.ndim != 1 or weights.size < 2:
        raise ValueError(
            f"the weights of {label!r} must be 1-D of length N + 1 >= 2; got shape "
            f"{weights.shape}."
        )
    if not np.isfinite(weights).all() or (weights < 0).any():
        raise ValueError(f"the weights of {label!r} must be finite and non-negative.")
    return weights


class FourierSpectrumDisplay(FunctionDisplayMixin):
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
        The function's bars, then those of references drawn as bars.
    reference_lines_ : list of matplotlib Line2D
        References drawn as step outlines (``reference_style="steps"``).
    ax_, figure_ : matplotlib Axes and Figure
        Where the spectrum is drawn.

    See Also
    --------
    skxor.sensitivity.degree_weights : Compute the weights.
    SensitivityProfileDisplay : Per-string sensitivity histogram.

    Examples
    --------
    >>> from skxor.plotting import FourierSpectrumDisplay
    >>> from skxor.boolean import Majority
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

    @fill_doc
    def plot(self, ax=None, *, name=None, log=False, reference_style="bars", **bar_kwargs):
        """Draw the spectrum.

        Parameters
        ----------
        %(plot_ax_name)s
        log : bool, default=False
            Logarithmic weight axis (degrees of weight 0 are then not drawn).
        reference_style : {"bars", "steps"}, default="bars"
            References as bars beside the function's, or as step outlines
            over them, each with its own line style and marker.
        **bar_kwargs
            Passed to ``ax.bar`` for the function's bars.

        Returns
        -------
        display : FourierSpectrumDisplay
            Object that stores the computed values.
        """
        ax, figure, name = begin_plot(self, ax, name)
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
        self.bars_, self.reference_lines_ = draw_series(
            ax, degrees, list(series.values()), labels, reference_style=reference_style,
            bar_kwargs=bar_kwargs,
        )
        return finish_bars(
            self, ax, figure, degrees, xlabel="degree k", ylabel="Fourier weight W^k",
            heights=list(series.values()), log=log,
        )

    @classmethod
    @fill_doc
    def from_function(cls, f, n_bits, *, name=None, references=None, input_encoding=None,
                      ax=None, reference_style="bars", log=False, **bar_kwargs):
        """Tabulate any function, model or truth table and draw its spectrum.

        Parameters
        ----------
        f : callable, fitted estimator, torch.nn.Module or ndarray
            Anything :func:`skxor.boolean.truth_table` takes.
        n_bits : int
            String length N (one evaluation per string: at most 28).
        %(display_name)s
        references : sequence of {"parity", "majority", "first"}, dict or None, \
default=None
            Reference functions: names, or a mapping ``{label: function}``.
        %(input_encoding)s
        %(ax)s
        reference_style : {"bars", "steps"}, default="bars"
            See :meth:`plot`.
        log : bool, default=False
            Logarithmic weight axis.
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
        return cls(weights, name=name, references=refs).plot(
            ax=ax, log=log, reference_style=reference_style, **bar_kwargs
        )
