"""SensitivityProfileDisplay: per-string sensitivity histograms."""

import numpy as np

from .._utils._docstrings import fill_doc
from ..sensitivity import SensitivityProfile, sensitivity_profile
from ._base import (FunctionDisplayMixin, as_real_array, begin_plot, check_matplotlib, default_name,
                    draw_series, finish_bars, resolve_references)


def _series(profile, label):
    """Fractions, average, Wilson error bars (or None) and whether sampled."""
    if isinstance(profile, SensitivityProfile):
        errors = (None if profile.fraction_ci is None
                  else np.abs(profile.fraction_ci.T - profile.fractions))
        return profile.fractions, profile.average, errors, profile.method != "exhaustive"
    if isinstance(profile, (str, bytes)) or not np.ndim(profile):
        raise TypeError(
            f"{label!r} must be a SensitivityProfile or the fractions of strings per "
            f"sensitivity; got {type(profile).__name__}."
        )
    fractions = as_real_array(profile, f"the fractions of {label!r}")
    if (fractions.ndim != 1 or fractions.size < 2 or not np.isfinite(fractions).all()
            or (fractions < 0).any() or not np.isclose(fractions.sum(), 1.0, atol=1e-6)):
        raise ValueError(
            f"the fractions of {label!r} must be 1-D of length N + 1 >= 2, finite, "
            f"non-negative and sum to 1; got {np.array2string(fractions, threshold=8)}."
        )
    return fractions, float(np.arange(fractions.size) @ fractions), None, False


class SensitivityProfileDisplay(FunctionDisplayMixin):
    """Sensitivity profile visualization: the fraction of strings per sensitivity.

    The sensitivity of a string x is the number of positions whose flip
    changes f(x). The display draws the profile of a function as bars, with
    the profiles of reference functions beside them in the same groups; every
    series has its own colour, hatch and legend entry (with its average
    sensitivity), so none hides another. Sampled profiles get Wilson error
    bars.

    It is recommended to build a display with :meth:`from_estimator`,
    :meth:`from_function` or :meth:`from_predictions`; the constructor takes
    profiles already computed. Needs matplotlib (``pip install skxor[plot]``),
    imported only when drawing.

    Parameters
    ----------
    profile : SensitivityProfile or array-like of shape (N + 1,)
        The profile to show (from :func:`skxor.sensitivity.sensitivity_profile`),
        or the fraction of strings at each sensitivity 0..N (for example the
        mean profile of several networks).
    name : str or None, default=None
        Its legend label; ``"f"`` when None.
    references : dict of {str: SensitivityProfile or array-like} or None, \
default=None
        Reference profiles drawn beside it, labelled by their keys.

    Attributes
    ----------
    bars_ : list of matplotlib BarContainer
        One per series drawn as bars, the profile first.
    reference_lines_ : list of matplotlib Line2D
        One per reference drawn as steps (``reference_style="steps"``).
    ax_ : matplotlib Axes
        Axes with the histogram.
    figure_ : matplotlib Figure
        Figure containing the histogram.

    See Also
    --------
    skxor.sensitivity.sensitivity_profile : Compute a profile.
    FourierSpectrumDisplay : Fourier weight per degree.

    Examples
    --------
    >>> from skxor.plotting import SensitivityProfileDisplay
    >>> from skxor.boolean import SparseParity
    >>> disp = SensitivityProfileDisplay.from_function(
    ...     SparseParity(6, support=[0, 3]), 6, name="sparse XOR",
    ...     references=["majority", "parity"])
    >>> [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    ['sparse XOR (average 2)', 'MAJORITY (average 1.88)', 'PARITY (average 6)']
    >>> disp.ax_.get_xlabel()
    'sensitivity s(f, x)'
    """

    def __init__(self, profile, *, name=None, references=None):
        self.profile = profile
        self.name = name
        self.references = references

    @fill_doc
    def plot(self, ax=None, *, name=None, reference_style="bars", **bar_kwargs):
        """Draw the histogram.

        Parameters
        ----------
        %(plot_ax_name)s
        reference_style : {"bars", "steps"}, default="bars"
            References as bars beside the profile's, or as step outlines
            over them, each with its own line style and marker (readable
            with many references or a long N axis).
        **bar_kwargs
            Passed to ``ax.bar`` for the profile's bars (not the references').

        Returns
        -------
        display : SensitivityProfileDisplay
            Object that stores the computed values.
        """
        ax, figure, name = begin_plot(self, ax, name)
        series = {name: _series(self.profile, name)}
        for label, prof in (self.references or {}).items():
            series[label] = _series(prof, label)
            if series[label][0].size != series[name][0].size:
                raise ValueError(
                    f"the reference {label!r} has N={series[label][0].size - 1} bits, the "
                    f"profile N={series[name][0].size - 1}."
                )
        heights = [fractions for fractions, _, _, _ in series.values()]
        errors = [err for _, _, err, _ in series.values()]
        labels = [f"{label} (average {avg:.3g})" for label, (_, avg, _, _) in series.items()]
        x = np.arange(heights[0].size)
        self.bars_, self.reference_lines_ = draw_series(
            ax, x, heights, labels, errors=errors, reference_style=reference_style,
            bar_kwargs=bar_kwargs,
        )
        sampled = any(s for _, _, _, s in series.values())
        return finish_bars(
            self, ax, figure, x, xlabel="sensitivity s(f, x)",
            ylabel="fraction of sampled strings" if sampled else "fraction of strings",
            heights=heights, errors=errors,
        )

    @classmethod
    def from_profile(cls, profile, *, name=None, references=None, ax=None,
                     reference_style="bars", **bar_kwargs):
        """Draw a profile already computed (the display draws the result).

        Parameters
        ----------
        profile : SensitivityProfile or array-like of shape (N + 1,)
            As the constructor's ``profile``.
        name : str or None, default=None
            Legend label; ``"f"`` when None.
        references : dict of {str: SensitivityProfile or array-like} or None, \
default=None
            As the constructor's ``references``.
        ax, reference_style, **bar_kwargs
            As in :meth:`plot` (default: a new figure, bars, no keywords).

        Returns
        -------
        display : SensitivityProfileDisplay
            The display, drawn.

        Examples
        --------
        >>> from skxor.boolean import Majority
        >>> from skxor.plotting import SensitivityProfileDisplay
        >>> from skxor.sensitivity import sensitivity_profile
        >>> profile = sensitivity_profile(Majority(5), 5)
        >>> disp = SensitivityProfileDisplay.from_profile(profile, name="MAJ5")
        >>> [t.get_text() for t in disp.ax_.get_legend().get_texts()]
        ['MAJ5 (average 1.88)']
        """
        return cls(profile, name=name, references=references).plot(
            ax=ax, reference_style=reference_style, **bar_kwargs
        )

    #: ``from_predictions`` profiles all 2^N strings.
    _predictions_kwargs = {"method": "exhaustive"}

    @classmethod
    @fill_doc
    def from_function(cls, f, n_bits, *, name=None, references=None, method="auto",
                      n_samples=10_000, input_encoding=None, random_state=None, ax=None,
                      reference_style="bars", **bar_kwargs):
        """Profile any function, model or truth table, with references, and draw it.

        Parameters
        ----------
        f : callable, fitted estimator, torch.nn.Module or ndarray
            Anything :func:`skxor.sensitivity.sensitivity_profile` takes: a
            callable on (n, N) 0/1 uint8 strings returning 0/1 or -1/+1
            labels, a fitted classifier, a torch module mapping float spins
            to logits, or a truth table of length 2^N.
        %(n_bits)s
        %(display_name)s
        references : sequence of {"parity", "majority", "first"}, dict or None, \
default=None
            Reference functions profiled the same way (same method, samples
            and seed): names, or a mapping ``{label: function}`` of anything
            ``f`` may be.
        method : {"auto", "exhaustive", "sampled"}, default="auto"
            See :func:`~skxor.sensitivity.sensitivity_profile`.
        n_samples : int, default=10000
            Uniform strings of a sampled profile.
        %(input_encoding)s
        random_state : int, RandomState instance or None, default=None
            Seeds sampled strings.
        %(ax)s
        reference_style : {"bars", "steps"}, default="bars"
            See :meth:`plot`.
        **bar_kwargs
            Passed to ``ax.bar`` for the profile's bars.

        Returns
        -------
        display : SensitivityProfileDisplay
        """
        check_matplotlib(f"{cls.__name__}.from_function")  # before the work
        kwargs = dict(method=method, n_samples=n_samples, random_state=random_state)
        profile = sensitivity_profile(f, n_bits, input_encoding=input_encoding, **kwargs)
        refs = {
            label: value if isinstance(value, SensitivityProfile)
            else sensitivity_profile(value, n_bits, **kwargs)
            for label, value in resolve_references(references, n_bits).items()
        }
        name = default_name(f) if name is None else name
        return cls.from_profile(profile, name=name, references=refs, ax=ax,
                                reference_style=reference_style, **bar_kwargs)
